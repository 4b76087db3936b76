//! How two segments meet, exactly: not at all, crossing (each passes through the other's
//! interior at one point), touching (at one point that is an endpoint of one of them), or
//! overlapping (along a stretch of a common line).
//!
//! The kind is decided by exact orientation signs only. The point is an input vertex
//! wherever the segments meet at one (touches, and the start of an overlap's stretch, which
//! is a vertex as given); only a crossing computes one, in homogeneous coordinates taken
//! about the middle of the two bounding boxes' common part (which keeps the products small
//! and the cancellation low), and falls back to the endpoint nearest the other segment when
//! that computation fails or lands outside either box. This is the classification of JTS's
//! `RobustLineIntersector` (Vivid Solutions), which geo's `line_intersection` follows; the
//! points reported are the same as geo gave, bit for bit.

use super::orient;

/// How two segments meet.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Meeting {
    /// Each passes through the interior of the other, at this (computed) point.
    Cross([f64; 2]),
    /// They meet at one point, an endpoint of one of them (or of both).
    Touch([f64; 2]),
    /// They share a stretch of one line; the point is an endpoint of that stretch.
    Overlap([f64; 2]),
}

impl Meeting {
    /// "cross", "touch" or "overlap".
    pub(super) fn kind(self) -> &'static str {
        match self {
            Meeting::Cross(_) => "cross",
            Meeting::Touch(_) => "touch",
            Meeting::Overlap(_) => "overlap",
        }
    }

    /// The point reported.
    pub(super) fn at(self) -> [f64; 2] {
        match self {
            Meeting::Cross(c) | Meeting::Touch(c) | Meeting::Overlap(c) => c,
        }
    }
}

/// A segment's bounding box holds `c` (boundary included).
#[inline]
fn boxed(s: [[f64; 2]; 2], c: [f64; 2]) -> bool {
    let (x0, x1) = (s[0][0].min(s[1][0]), s[0][0].max(s[1][0]));
    let (y0, y1) = (s[0][1].min(s[1][1]), s[0][1].max(s[1][1]));
    c[0] >= x0 && c[0] <= x1 && c[1] >= y0 && c[1] <= y1
}

/// The bounding boxes of two segments meet (boundary included).
#[inline]
fn boxes_meet(p: [[f64; 2]; 2], q: [[f64; 2]; 2]) -> bool {
    let lo = |s: [[f64; 2]; 2], k: usize| s[0][k].min(s[1][k]);
    let hi = |s: [[f64; 2]; 2], k: usize| s[0][k].max(s[1][k]);
    (0..2).all(|k| lo(p, k) <= hi(q, k) && lo(q, k) <= hi(p, k))
}

/// How segments `p` (start, end) and `q` meet, if they do. No segment may have length zero.
pub(super) fn meet(p: [[f64; 2]; 2], q: [[f64; 2]; 2]) -> Option<Meeting> {
    if !boxes_meet(p, q) {
        return None;
    }
    let apart = |a: f64, b: f64| (a > 0.0 && b > 0.0) || (a < 0.0 && b < 0.0);
    let (pq1, pq2) = (orient(p[0], p[1], q[0]), orient(p[0], p[1], q[1]));
    if apart(pq1, pq2) {
        return None;
    }
    let (qp1, qp2) = (orient(q[0], q[1], p[0]), orient(q[0], q[1], p[1]));
    if apart(qp1, qp2) {
        return None;
    }
    if pq1 == 0.0 && pq2 == 0.0 && qp1 == 0.0 && qp2 == 0.0 {
        return collinear(p, q);
    }
    if pq1 == 0.0 || pq2 == 0.0 || qp1 == 0.0 || qp2 == 0.0 {
        // One point, a vertex: a shared endpoint first, else the endpoint on the other.
        let at = if p[0] == q[0] || p[0] == q[1] {
            p[0]
        } else if p[1] == q[0] || p[1] == q[1] {
            p[1]
        } else if pq1 == 0.0 {
            q[0]
        } else if pq2 == 0.0 {
            q[1]
        } else if qp1 == 0.0 {
            p[0]
        } else {
            p[1]
        };
        return Some(Meeting::Touch(at));
    }
    Some(Meeting::Cross(crossing(p, q)))
}

/// Two segments on one line: the stretch they share (a point if they only touch end to end).
fn collinear(p: [[f64; 2]; 2], q: [[f64; 2]; 2]) -> Option<Meeting> {
    let (q0_in_p, q1_in_p) = (boxed(p, q[0]), boxed(p, q[1]));
    let (p0_in_q, p1_in_q) = (boxed(q, p[0]), boxed(q, p[1]));
    use Meeting::{Overlap, Touch};
    Some(match (q0_in_p, q1_in_p, p0_in_q, p1_in_q) {
        // q within p, or p within q: the stretch starts at that segment's start.
        (true, true, _, _) => Overlap(q[0]),
        (_, _, true, true) => Overlap(p[0]),
        (true, false, true, false) if q[0] == p[0] => Touch(q[0]),
        (true, _, true, _) => Overlap(q[0]),
        (true, false, false, true) if q[0] == p[1] => Touch(q[0]),
        (true, _, _, true) => Overlap(q[0]),
        (false, true, true, false) if q[1] == p[0] => Touch(q[1]),
        (_, true, true, _) => Overlap(q[1]),
        (false, true, false, true) if q[1] == p[1] => Touch(q[1]),
        (_, true, _, true) => Overlap(q[1]),
        _ => return None,
    })
}

/// The point where two segments that cross do, in floating point.
fn crossing(p: [[f64; 2]; 2], q: [[f64; 2]; 2]) -> [f64; 2] {
    let at = homogeneous(p, q).unwrap_or_else(|| nearest_endpoint(p, q));
    if boxed(p, at) && boxed(q, at) {
        at
    } else {
        nearest_endpoint(p, q)
    }
}

/// The meeting point of the two lines, in homogeneous coordinates about the middle of the
/// boxes' common part; `None` if it is not finite (parallel in floating point).
fn homogeneous(p: [[f64; 2]; 2], q: [[f64; 2]; 2]) -> Option<[f64; 2]> {
    let mid = |k: usize| {
        let lo = p[0][k].min(p[1][k]).max(q[0][k].min(q[1][k]));
        let hi = p[0][k].max(p[1][k]).min(q[0][k].max(q[1][k]));
        (lo + hi) / 2.0
    };
    let (mx, my) = (mid(0), mid(1));
    let (p1x, p1y, p2x, p2y) = (p[0][0] - mx, p[0][1] - my, p[1][0] - mx, p[1][1] - my);
    let (q1x, q1y, q2x, q2y) = (q[0][0] - mx, q[0][1] - my, q[1][0] - mx, q[1][1] - my);
    // Each line as a x + b y + c = 0; the meeting point is their cross product.
    let (pa, pb, pc) = (p1y - p2y, p2x - p1x, p1x * p2y - p2x * p1y);
    let (qa, qb, qc) = (q1y - q2y, q2x - q1x, q1x * q2y - q2x * q1y);
    let xw = pb * qc - qb * pc;
    let yw = qa * pc - pa * qc;
    let w = pa * qb - qa * pb;
    let (x, y) = (xw / w, yw / w);
    (x.is_finite() && y.is_finite()).then_some([x + mx, y + my])
}

/// The distance from `c` to segment `s`.
fn distance(c: [f64; 2], s: [[f64; 2]; 2]) -> f64 {
    let [a, b] = s;
    let dist = |u: [f64; 2], v: [f64; 2]| (u[0] - v[0]).hypot(u[1] - v[1]);
    if a == b {
        return dist(c, a);
    }
    let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
    let d2 = dx * dx + dy * dy;
    let r = ((c[0] - a[0]) * dx + (c[1] - a[1]) * dy) / d2;
    if r <= 0.0 {
        return dist(c, a);
    }
    if r >= 1.0 {
        return dist(c, b);
    }
    let s = ((a[1] - c[1]) * dx - (a[0] - c[0]) * dy) / d2;
    s.abs() * dx.hypot(dy)
}

/// The endpoint of either segment nearest the other segment (the first such, in the order
/// p's start, p's end, q's start, q's end).
fn nearest_endpoint(p: [[f64; 2]; 2], q: [[f64; 2]; 2]) -> [f64; 2] {
    let mut best = (p[0], distance(p[0], q));
    for (c, other) in [(p[1], q), (q[0], p), (q[1], p)] {
        let d = distance(c, other);
        if d < best.1 {
            best = (c, d);
        }
    }
    best.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use Meeting::*;

    fn m(p: [[f64; 2]; 2], q: [[f64; 2]; 2]) -> Option<Meeting> {
        let one = meet(p, q);
        // The kind does not depend on the order of the two, nor on their directions.
        let kind = |x: Option<Meeting>| x.map(|m| std::mem::discriminant(&m));
        assert_eq!(kind(meet(q, p)), kind(one), "{p:?} {q:?}");
        assert_eq!(kind(meet([p[1], p[0]], q)), kind(one), "{p:?} {q:?}");
        one
    }

    #[test]
    fn by_hand() {
        // An X.
        assert_eq!(
            m([[0.0, 0.0], [2.0, 2.0]], [[2.0, 0.0], [0.0, 2.0]]),
            Some(Cross([1.0, 1.0]))
        );
        // A T: the end of one on the interior of the other.
        assert_eq!(
            m([[0.0, 0.0], [4.0, 0.0]], [[2.0, 0.0], [2.0, 3.0]]),
            Some(Touch([2.0, 0.0]))
        );
        // A V: a shared endpoint.
        assert_eq!(
            m([[0.0, 0.0], [1.0, 1.0]], [[1.0, 1.0], [2.0, 0.0]]),
            Some(Touch([1.0, 1.0]))
        );
        // End to end on one line: a touch; overlapping: the stretch's start.
        assert_eq!(
            m([[0.0, 0.0], [1.0, 0.0]], [[1.0, 0.0], [3.0, 0.0]]),
            Some(Touch([1.0, 0.0]))
        );
        assert_eq!(
            m([[0.0, 0.0], [2.0, 0.0]], [[1.0, 0.0], [3.0, 0.0]]),
            Some(Overlap([1.0, 0.0]))
        );
        assert_eq!(
            m([[0.0, 0.0], [4.0, 0.0]], [[3.0, 0.0], [1.0, 0.0]]),
            Some(Overlap([3.0, 0.0]))
        );
        // Apart: boxes apart, one side, on one line with a gap, parallel.
        assert_eq!(m([[0.0, 0.0], [1.0, 0.0]], [[2.0, 1.0], [3.0, 2.0]]), None);
        assert_eq!(m([[0.0, 0.0], [4.0, 4.0]], [[1.0, 0.0], [4.0, 1.0]]), None);
        assert_eq!(m([[0.0, 0.0], [1.0, 0.0]], [[2.0, 0.0], [3.0, 0.0]]), None);
        assert_eq!(m([[0.0, 0.0], [4.0, 0.0]], [[0.0, 1.0], [4.0, 1.0]]), None);
    }

    #[test]
    fn exact_where_floats_are_not() {
        // A point one unit in the last place off a long line far from the origin: the
        // float formula says zero, the exact sign does not.
        let a = [1e8, 1e8];
        let b = [1e8 + 3.0, 1e8 + 1.0];
        let on = [1e8 + 1.5, 1e8 + 0.5];
        let off = [on[0], on[1] + 1e8 * f64::EPSILON];
        assert_eq!(m([a, b], [on, [on[0], 1e8 + 5.0]]), Some(Touch(on)));
        assert_eq!(m([a, b], [off, [off[0], 1e8 + 5.0]]), None);
        // Nearly parallel segments that cross: the point lies in both boxes.
        let p = [[0.0, 0.0], [1e6, 1.0]];
        let q = [[0.0, 1e-9], [1e6, 1.0 - 1e-9]];
        let Some(Cross(c)) = m(p, q) else {
            panic!("a crossing")
        };
        assert!(boxed(p, c) && boxed(q, c), "{c:?}");
    }

    #[test]
    fn crossing_points_lie_on_both_segments_to_rounding() {
        let mut rng = crate::test_rng::Lcg(5);
        let mut rnd = move || rng.unit();
        let mut crossings = 0;
        for k in 0..20_000 {
            let o = [0.0, 1e6, -1e8][k % 3];
            let mut pt = || [o + rnd() * 10.0, o + rnd() * 10.0];
            let (p, q) = ([pt(), pt()], [pt(), pt()]);
            if let Some(Cross(c)) = m(p, q) {
                crossings += 1;
                assert!(boxed(p, c) && boxed(q, c));
                let scale = 10.0 + o.abs();
                assert!(distance(c, p) <= 1e-12 * scale, "{p:?} {q:?} {c:?}");
                assert!(distance(c, q) <= 1e-12 * scale, "{p:?} {q:?} {c:?}");
            }
        }
        assert!(crossings > 2000, "{crossings}");
    }
}
