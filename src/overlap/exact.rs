//! The narrow phase: exact orientation tests (`robust`), with a floating-point filter that
//! has a rigorous error bound, deciding whether two triangles cross or coincide.

use super::Kind;

pub(super) use crate::predicates::{orient, orient2, project};
pub(super) use crate::tolerance::plane_distance;

/// `u × v`, rounded.
pub(super) fn cross3(u: &[f64; 3], v: &[f64; 3]) -> [f64; 3] {
    [
        u[1] * v[2] - u[2] * v[1],
        u[2] * v[0] - u[0] * v[2],
        u[0] * v[1] - u[1] * v[0],
    ]
}

/// True when every corner of `t2` lies strictly on one side of `t1`'s plane, decided in
/// floating point with a bound on its error: the orientation `((b−a)×(c−a))·(p−a)` is
/// computed from rounded differences exactly as `orient3d` computes its determinant, and
/// trusted only beyond `8ε` times the sum of the absolute values of its terms (Shewchuk's
/// first-stage bound is `(7 + 56ε)ε` times the same sum). False means "not settled".
pub(super) fn separated(t1: &[[f64; 3]; 3], t2: &[[f64; 3]; 3]) -> bool {
    let side = plane_side(t1);
    let first = side(&t2[0]);
    first != 0 && side(&t2[1]) == first && side(&t2[2]) == first
}

/// True when an axis across an edge of each (`e₁ × e₂`, as computed: any axis will do)
/// separates the triangles, decided in floating point: each corner's projection
/// `a·(p − t1[0])` is trusted to within `8ε Σ|aₖ dₖ|` of its exact value (`d` the rounded
/// difference, within `ε|dₖ|` of the exact one, and the dot product within `3ε` of its
/// terms' sum), so intervals apart by more than that are apart exactly. With the planes'
/// normals ([`separated`]) these are the axes on which two disjoint triangles not in one
/// plane always lie apart; here only clear gaps count, so false means "not settled". Triangles that touch,
/// even at a point, are never called apart, so nothing that [`meet`] records (a graze, a
/// corner passed through) is missed.
pub(super) fn apart_across_edges(t1: &[[f64; 3]; 3], t2: &[[f64; 3]; 3]) -> bool {
    let r = t1[0];
    let d = |p: &[f64; 3]| [p[0] - r[0], p[1] - r[1], p[2] - r[2]];
    let (d1, d2) = (t1.map(|p| d(&p)), t2.map(|p| d(&p)));
    let edge = |t: &[[f64; 3]; 3], k: usize| {
        let (p, q) = (t[k], t[(k + 1) % 3]);
        [q[0] - p[0], q[1] - p[1], q[2] - p[2]]
    };
    // Each corner's interval on axis `a`, and the hull of a triangle's.
    let span = |a: &[f64; 3], ds: &[[f64; 3]; 3]| {
        ds.iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), d| {
                let s = a[0] * d[0] + a[1] * d[1] + a[2] * d[2];
                let b = 8.0
                    * f64::EPSILON
                    * ((a[0] * d[0]).abs() + (a[1] * d[1]).abs() + (a[2] * d[2]).abs());
                (lo.min(s - b), hi.max(s + b))
            })
    };
    for i in 0..3 {
        let e1 = edge(t1, i);
        for j in 0..3 {
            let a = cross3(&e1, &edge(t2, j));
            if !a.iter().all(|x| x.is_finite()) || a == [0.0; 3] {
                continue;
            }
            let (lo1, hi1) = span(&a, &d1);
            let (lo2, hi2) = span(&a, &d2);
            if hi1 < lo2 || hi2 < lo1 {
                return true;
            }
        }
    }
    false
}

/// True when some corner of `t2` lies off `t1`'s plane, decided in floating point with the
/// error bound of [`separated`]: then the two are not coplanar. False means "not settled".
pub(super) fn off_plane(t1: &[[f64; 3]; 3], t2: &[[f64; 3]; 3]) -> bool {
    let side = plane_side(t1);
    t2.iter().any(|p| side(p) != 0)
}

/// The side of `t1`'s plane a point lies on (±1), or 0 where floating point cannot tell
/// (see [`separated`] for the bound).
#[inline(always)]
fn plane_side(t1: &[[f64; 3]; 3]) -> impl Fn(&[f64; 3]) -> i8 {
    let [a, b, c] = *t1;
    let u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
    let v = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
    let n = cross3(&u, &v);
    let m = [
        (u[1] * v[2]).abs() + (u[2] * v[1]).abs(),
        (u[2] * v[0]).abs() + (u[0] * v[2]).abs(),
        (u[0] * v[1]).abs() + (u[1] * v[0]).abs(),
    ];
    move |p: &[f64; 3]| {
        let w = [p[0] - a[0], p[1] - a[1], p[2] - a[2]];
        let s = n[0] * w[0] + n[1] * w[1] + n[2] * w[2];
        let bound =
            8.0 * f64::EPSILON * (m[0] * w[0].abs() + m[1] * w[1].abs() + m[2] * w[2].abs());
        if s > bound {
            1
        } else if s < -bound {
            -1
        } else {
            0
        }
    }
}

/// An edge of one triangle passing exactly through the interior of an edge of the other,
/// its ends strictly on either side of that triangle's plane: whether it crosses the
/// surface there depends on the face across that edge (see [`super::grazes`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Graze {
    /// Whether the piercing edge is the first triangle's (else the second's).
    pub(super) first_pierces: bool,
    /// The piercing edge: corner `k` to corner `k + 1` of its triangle.
    pub(super) edge: usize,
    /// The edge pierced: corner `k` to corner `k + 1` of the other triangle.
    pub(super) through: usize,
    /// Where (rounded; for the message).
    pub(super) at: [f64; 3],
}

/// An edge of one triangle passing exactly through a corner of the other, its ends strictly
/// on either side of that triangle's plane: whether it crosses the surface there depends on
/// every face around that corner (see [`super::vertex`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Pass {
    /// Whether the piercing edge is the first triangle's (else the second's).
    pub(super) first_pierces: bool,
    /// The piercing edge: corner `k` to corner `k + 1` of its triangle.
    pub(super) edge: usize,
    /// The corner passed through, of the other triangle.
    pub(super) corner: usize,
}

/// How two non-degenerate triangles meet, if they cross or coincide; an edge passing
/// exactly through an edge of the other is left in `graze`, one through a corner in
/// `corner`, for a later look.
pub(super) fn meet(
    t1: &[[f64; 3]; 3],
    t2: &[[f64; 3]; 3],
    graze: &mut Option<Graze>,
    corner: &mut Option<Pass>,
) -> Option<Kind> {
    // Neighbours in a mesh share corners. Sharing one or two, an edge through a shared
    // corner cannot pass strictly through the other triangle; only a fold of adjacent
    // triangles could, and that is not looked for (it would cost an exact, slow
    // orientation test for every neighbour: the shared corners lie exactly on the plane).
    // Sharing all three, they are the same triangle twice: facing the same way, they
    // coincide; facing opposite ways, they are two bodies in contact.
    let shared = t1.iter().filter(|p| t2.contains(p)).count();
    match shared {
        0 => {}
        3 => {
            let k = t2.iter().position(|p| *p == t1[0]).unwrap_or(0);
            let same = t2[(k + 1) % 3] == t1[1];
            let centroid = [0, 1, 2].map(|c| (t1[0][c] + t1[1][c] + t1[2][c]) / 3.0);
            return same.then_some(Kind::Coincide(centroid));
        }
        _ => return None,
    }
    let s2 = t2.map(|p| orient(&t1[0], &t1[1], &t1[2], &p));
    if s2 == [0, 0, 0] {
        return coplanar(t1, t2);
    }
    // A corner exactly in the other's plane: an edge of the other may pass exactly
    // through it (its ends strictly either side of this plane), which no test below sees.
    let mut raw1 = None;
    if s2.contains(&0) {
        let r1 = t1.map(|p| orient(&t2[0], &t2[1], &t2[2], &p));
        raw1 = Some(r1);
        *corner = through_corner(t1, &r1, t2, &s2, true);
    }
    // A corner exactly in the other triangle's plane counts as lying just outside it
    // (on the side its winding faces: `orient` < 0). A body resting against a face lies
    // outside it, so it still only touches; a surface passing through the face with a
    // ring of vertices exactly in its plane (a sphere's equator on a box's face) now
    // has an edge from that ring through the face, and is found.
    let outside = |s: i8| if s == 0 { -1 } else { s };
    let raw2 = s2;
    let s2 = s2.map(outside);
    if s2[0] == s2[1] && s2[1] == s2[2] {
        return None;
    }
    let raw1 = raw1.unwrap_or_else(|| t1.map(|p| orient(&t2[0], &t2[1], &t2[2], &p)));
    if corner.is_none() && raw1.contains(&0) {
        *corner = through_corner(t2, &raw2, t1, &raw1, false);
    }
    let s1 = raw1.map(outside);
    if s1[0] == s1[1] && s1[1] == s1[2] {
        return None;
    }
    // Both straddle the other's plane strictly: they cross iff some edge of one passes
    // strictly through the interior of the other.
    let mut g1 = None;
    let mut g2 = None;
    let found = pierce(t1, t2, &s1, &raw1, &mut g1).or_else(|| pierce(t2, t1, &s2, &raw2, &mut g2));
    if found.is_none() {
        *graze = g1
            .map(|(edge, through, at)| Graze {
                first_pierces: true,
                edge,
                through,
                at,
            })
            .or(g2.map(|(edge, through, at)| Graze {
                first_pierces: false,
                edge,
                through,
                at,
            }));
    }
    found
}
/// For two triangles sharing one corner: whether the edge of `e` opposite that corner lies
/// clearly on one side of `t`'s plane (the float filter of [`separated`]); false when it
/// cannot tell (or no corner is shared).
pub(super) fn far_edge_clear(e: &[[f64; 3]; 3], t: &[[f64; 3]; 3]) -> bool {
    match e.iter().position(|p| t.contains(p)) {
        Some(k) => {
            let (p, q) = (e[(k + 1) % 3], e[(k + 2) % 3]);
            separated(t, &[p, q, p])
        }
        None => false,
    }
}

/// Two triangles sharing exactly one corner: the edge of either opposite that corner
/// passing strictly through the other's interior (neighbours folded through each other,
/// or two bodies sharing a rounded corner and crossing beside it). An edge from the
/// shared corner cannot: it meets the other's plane only at that corner. `clear[0]`
/// (`clear[1]`): [`far_edge_clear`] found `t1`'s (`t2`'s) far edge clearly on one side, so
/// that direction needs no exact test.
pub(super) fn across_corner(
    t1: &[[f64; 3]; 3],
    t2: &[[f64; 3]; 3],
    clear: [bool; 2],
) -> Option<Kind> {
    for ((e, t), clear) in [(t1, t2), (t2, t1)].into_iter().zip(clear) {
        if clear {
            continue;
        }
        let Some(k) = e.iter().position(|p| t.contains(p)) else {
            continue;
        };
        let (p, q) = (&e[(k + 1) % 3], &e[(k + 2) % 3]);
        if orient(&t[0], &t[1], &t[2], p) * orient(&t[0], &t[1], &t[2], q) != -1 {
            continue;
        }
        let o = [
            orient(p, q, &t[0], &t[1]),
            orient(p, q, &t[1], &t[2]),
            orient(p, q, &t[2], &t[0]),
        ];
        if o[0] != 0 && o[0] == o[1] && o[1] == o[2] {
            return Some(Kind::Cross(plane_point(p, q, t)));
        }
    }
    None
}

/// An edge of `e` (its corners' signs `se` against `t`'s plane) whose ends lie strictly on
/// either side of that plane and which passes exactly through a corner of `t` lying in
/// `e`'s plane (`st[m] == 0`): the line meets the plane at one point, so it holds the
/// corner when it is coplanar with both of the corner's edges.
fn through_corner(
    e: &[[f64; 3]; 3],
    se: &[i8; 3],
    t: &[[f64; 3]; 3],
    st: &[i8; 3],
    first_pierces: bool,
) -> Option<Pass> {
    for m in (0..3).filter(|&m| st[m] == 0) {
        let (v, w1, w2) = (&t[m], &t[(m + 1) % 3], &t[(m + 2) % 3]);
        for k in (0..3).filter(|&k| se[k] * se[(k + 1) % 3] == -1) {
            let (a, b) = (&e[k], &e[(k + 1) % 3]);
            if orient(a, b, v, w1) == 0 && orient(a, b, v, w2) == 0 {
                return Some(Pass {
                    first_pierces,
                    edge: k,
                    corner: m,
                });
            }
        }
    }
    None
}

/// An edge of `e` (whose corners have signs `s` against `t`'s plane, `raw` before a
/// corner in the plane was moved outside) passing strictly through the interior of `t`:
/// the crossing point. One passing exactly through the interior of an edge of `t`, its
/// ends strictly either side, is noted in `graze` (the edges' numbers and the point).
pub(super) fn pierce(
    e: &[[f64; 3]; 3],
    t: &[[f64; 3]; 3],
    s: &[i8; 3],
    raw: &[i8; 3],
    graze: &mut Option<(usize, usize, [f64; 3])>,
) -> Option<Kind> {
    for k in 0..3 {
        let (i, j) = (k, (k + 1) % 3);
        if s[i] * s[j] != -1 {
            continue;
        }
        let (a, b) = (&e[i], &e[j]);
        let o = [
            orient(a, b, &t[0], &t[1]),
            orient(a, b, &t[1], &t[2]),
            orient(a, b, &t[2], &t[0]),
        ];
        if o[0] != 0 && o[0] == o[1] && o[1] == o[2] {
            return Some(Kind::Cross(plane_point(a, b, t)));
        }
        // Exactly one zero, the other two alike: through the interior of that edge.
        if graze.is_none() && raw[i] * raw[j] == -1 {
            let zeros = o.iter().filter(|x| **x == 0).count();
            if zeros == 1 {
                let z = o.iter().position(|x| *x == 0).unwrap_or(0);
                let (p, q) = (o[(z + 1) % 3], o[(z + 2) % 3]);
                if p == q {
                    *graze = Some((k, z, plane_point(a, b, t)));
                }
            }
        }
    }
    None
}

/// How far the shallowest crossing edge of either triangle reaches past the other's plane:
/// the distance (rounded) of its nearer end from that plane. `None` when no edge passes
/// strictly through the other triangle.
pub(super) fn crossing_depth(t1: &[[f64; 3]; 3], t2: &[[f64; 3]; 3]) -> Option<f64> {
    depth_of(t1, t2, false, |_, _, _, _| None)
}

/// [`crossing_depth`], each crossing edge also judged by `judge(w, t, a, b)`: for the edge
/// `a b` passing through triangle `t` (`w` = 0 for an edge of `t1` through `t2`, 1 for an
/// edge of `t2` through `t1`), a depth of its own (see [`under::depth`]), the smaller of the
/// two counting.
///
/// Here an end exactly in the other's plane lies just outside it, as [`meet`] counts it (an
/// edge from a corner lying on the face, running in behind it, crosses there), and such an
/// edge's depth is `judge`'s alone (its nearer end's distance, 0, says nothing);
/// [`crossing_depth`], for a message, passes over such an edge.
pub(super) fn crossing_depth_with(
    t1: &[[f64; 3]; 3],
    t2: &[[f64; 3]; 3],
    judge: impl Fn(usize, &[[f64; 3]; 3], &[f64; 3], &[f64; 3]) -> Option<f64>,
) -> Option<f64> {
    depth_of(t1, t2, true, judge)
}

/// [`crossing_depth_with`], an end in the plane outside when `in_plane_outside`, else
/// passed over.
fn depth_of(
    t1: &[[f64; 3]; 3],
    t2: &[[f64; 3]; 3],
    in_plane_outside: bool,
    judge: impl Fn(usize, &[[f64; 3]; 3], &[f64; 3], &[f64; 3]) -> Option<f64>,
) -> Option<f64> {
    let mut best: Option<f64> = None;
    for (w, (e, t)) in [(t1, t2), (t2, t1)].into_iter().enumerate() {
        for k in 0..3 {
            let (a, b) = (&e[k], &e[(k + 1) % 3]);
            let raw = [a, b].map(|p| orient(&t[0], &t[1], &t[2], p));
            let side = |s: i8| if s == 0 && in_plane_outside { -1 } else { s };
            if side(raw[0]) * side(raw[1]) != -1 {
                continue;
            }
            let o = [
                orient(a, b, &t[0], &t[1]),
                orient(a, b, &t[1], &t[2]),
                orient(a, b, &t[2], &t[0]),
            ];
            // Through the closed triangle: no two signs strictly opposite.
            if o.contains(&1) && o.contains(&-1) {
                continue;
            }
            // An end in the plane says nothing of the depth: the walk alone judges.
            let mut d = if raw.contains(&0) {
                f64::INFINITY
            } else {
                plane_distance(t, a).min(plane_distance(t, b))
            };
            if let Some(x) = judge(w, t, a, b) {
                d = d.min(x);
            }
            if d.is_finite() {
                best = Some(best.map_or(d, |x: f64| x.min(d)));
            }
        }
    }
    best
}

/// Whether two triangles' normals are parallel to within rounding (a cheap filter before
/// an exact coplanarity test).
pub(super) fn parallel(t1: &[[f64; 3]; 3], t2: &[[f64; 3]; 3]) -> bool {
    let normal = |t: &[[f64; 3]; 3]| {
        cross3(
            &[t[1][0] - t[0][0], t[1][1] - t[0][1], t[1][2] - t[0][2]],
            &[t[2][0] - t[0][0], t[2][1] - t[0][1], t[2][2] - t[0][2]],
        )
    };
    let (n1, n2) = (normal(t1), normal(t2));
    let c = cross3(&n1, &n2);
    let sq = |v: [f64; 3]| v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
    sq(c) <= 1e-12 * sq(n1) * sq(n2)
}

/// Where segment `a b` meets the plane of `t` (for the message; rounded).
pub(super) fn plane_point(a: &[f64; 3], b: &[f64; 3], t: &[[f64; 3]; 3]) -> [f64; 3] {
    let sub = |p: &[f64; 3], q: &[f64; 3]| [p[0] - q[0], p[1] - q[1], p[2] - q[2]];
    let dot = |p: [f64; 3], q: [f64; 3]| p[0] * q[0] + p[1] * q[1] + p[2] * q[2];
    let (n, o) = crate::tolerance::normal_at(t);
    let da = dot(n, sub(a, &o));
    let db = dot(n, sub(b, &o));
    let w = da / (da - db);
    if !w.is_finite() {
        return *a;
    }
    [0, 1, 2].map(|k| a[k] + (b[k] - a[k]) * w)
}

/// How far two coplanar triangles overlap within their plane: the least distance either
/// must move to clear the other (the least overlap of their extents across any edge of
/// either, which for convex shapes is that distance). Two parts side by side with flush
/// walls, a corner of one rounded a little into the other's wall, overlap by that little.
pub(super) fn in_plane_depth(t1: &[[f64; 3]; 3], t2: &[[f64; 3]; 3]) -> f64 {
    let sub = |p: &[f64; 3], q: &[f64; 3]| [p[0] - q[0], p[1] - q[1], p[2] - q[2]];
    let dot = |p: &[f64; 3], q: &[f64; 3]| p[0] * q[0] + p[1] * q[1] + p[2] * q[2];
    let (n, _, _) = crate::tolerance::unit_normal(t1);
    let mut depth = f64::INFINITY;
    for t in [t1, t2] {
        for k in 0..3 {
            let m = cross3(&n, &sub(&t[(k + 1) % 3], &t[k]));
            let l = dot(&m, &m).sqrt();
            if l == 0.0 {
                continue;
            }
            let extent = |u: &[[f64; 3]; 3]| {
                u.iter()
                    .map(|p| dot(&m, p) / l)
                    .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
                        (lo.min(x), hi.max(x))
                    })
            };
            let ((lo1, hi1), (lo2, hi2)) = (extent(t1), extent(t2));
            depth = depth.min(hi1.min(hi2) - lo1.max(lo2));
        }
    }
    depth.max(0.0)
}

/// Coplanar triangles: same facing and overlapping interiors is a coincidence.
pub(super) fn coplanar(t1: &[[f64; 3]; 3], t2: &[[f64; 3]; 3]) -> Option<Kind> {
    overlap_in_plane(t1, t2)
        .filter(|&same_way| same_way)
        .map(|_| Kind::Coincide(centroid(t1)))
}

/// For two coplanar triangles, whether their interiors overlap: `Some(true)` when they face
/// the same way, `Some(false)` when opposite ways, `None` when they do not overlap (or one
/// is degenerate).
pub(super) fn overlap_in_plane(t1: &[[f64; 3]; 3], t2: &[[f64; 3]; 3]) -> Option<bool> {
    // Drop an axis along which t1's projection is not degenerate: a projection of the
    // common plane that keeps areas non-zero keeps overlap and facing exactly.
    let drop = (0..3)
        .find(|&d| {
            let p = t1.map(|q| project(q, d));
            orient2(&p[0], &p[1], &p[2]) != 0
        })
        .unwrap_or(2);
    let p1 = t1.map(|q| project(q, drop));
    let p2 = t2.map(|q| project(q, drop));
    let o1 = orient2(&p1[0], &p1[1], &p1[2]);
    let o2 = orient2(&p2[0], &p2[1], &p2[2]);
    if o1 == 0 || o2 == 0 {
        return None;
    }
    // Separating-axis test on the edge lines of both triangles, exactly: interiors are
    // disjoint iff some edge line has the other triangle wholly on its outer side (on the
    // line counts as outside).
    let separated = |a: &[[f64; 2]; 3], b: &[[f64; 2]; 3], o: i8| {
        (0..3).any(|k| {
            let (p, q) = (&a[k], &a[(k + 1) % 3]);
            b.iter().all(|r| orient2(p, q, r) * o <= 0)
        })
    };
    if separated(&p1, &p2, o1) || separated(&p2, &p1, o2) {
        return None;
    }
    Some(o1 == o2)
}

/// Whether two triangles lie in one plane with overlapping interiors, facing either way:
/// the floating-point filter first (most pairs have a corner plainly off the other's
/// plane), then exactly.
pub(super) fn doubled(t1: &[[f64; 3]; 3], t2: &[[f64; 3]; 3]) -> bool {
    !off_plane(t1, t2)
        && !off_plane(t2, t1)
        && t2.iter().all(|p| orient(&t1[0], &t1[1], &t1[2], p) == 0)
        && overlap_in_plane(t1, t2).is_some()
}

/// A triangle's centroid (rounded; for messages).
pub(super) fn centroid(t: &[[f64; 3]; 3]) -> [f64; 3] {
    [0, 1, 2].map(|k| (t[0][k] + t[1][k] + t[2][k]) / 3.0)
}
