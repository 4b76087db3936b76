//! How deep a crossing edge runs under the surface it passes through, followed face by
//! face: the depth of a contact as the surface itself bounds it.
//!
//! The depth [`crossing_depth`] takes, the distance of the crossing edge's nearer end from
//! the face's plane, misjudges two things CAD writes every day:
//! - a beam resting across a row of turned blocks: its long bottom edges pass through the
//!   blocks' side faces 1e-16 under their top edges, yet their ends are a unit and more
//!   from the side faces' planes;
//! - the same beam written with 6 digits: a block's small top face, its corners rounded,
//!   has a plane tilted enough to miss the beam's far end by more than the rounding.
//!
//! Here the crossing edge is followed from where it passes through the face, towards its
//! end behind that face, over that face and then over each face across the edge it passes
//! under, until it comes out in front of the face it is under or ends. Over each face the
//! depth is measured against that face's own plane only (distances are linear along the
//! edge, so the deepest point over a face is where it enters or leaves it), so no plane is
//! carried beyond its face. The walk also starts over the face across each convex edge of
//! the face passed through, from the same point: near a convex edge the body is the wedge
//! behind both faces, and a point in it lies no farther from the surface than from either
//! face's plane, so each walk bounds the depth from above, and the least is taken. (An
//! edge passing through the face just under a convex edge, as the beam's does, runs along
//! the face across; from there its depth is the rounding's.)
//!
//! Every depth here is rounded arithmetic, as [`crossing_depth`]'s is; the tolerance it is
//! set against allows for that.

use super::exact::{cross3, orient, plane_point};
use crate::tolerance::unit_normal;

/// Faces followed at most; a longer walk (an edge passing under a finely divided face)
/// leaves the depth to [`crossing_depth`].
const WALK: usize = 256;

/// The depth of the edge `a b`, which passes through triangle `f` (corners `t`), under the
/// surface of `f`'s body: the least over the walks that may start (see the module's
/// text). `corners(g)` gives a triangle's corners; `across(g, k)` the triangle across its
/// edge `k` (from corner `k` to `k + 1`) and that triangle's corner off the edge. `None`
/// when no walk ends within [`WALK`] faces.
pub(super) fn depth(
    (f, t): (usize, &[[f64; 3]; 3]),
    (a, b): (&[f64; 3], &[f64; 3]),
    corners: impl Fn(usize) -> [[f64; 3]; 3],
    across: impl Fn(usize, usize) -> Option<(usize, usize)>,
) -> Option<f64> {
    // Its end behind `f`, inside `f`'s body.
    let q = if orient(&t[0], &t[1], &t[2], b) > 0 {
        b
    } else {
        a
    };
    let x = plane_point(a, b, t);
    let mut best = walk((f, None), &x, q, &corners, &across);
    for k in 0..3 {
        let Some((g, off)) = across(f, k) else {
            continue;
        };
        // Convex: the face across bends behind `f`.
        if orient(&t[0], &t[1], &t[2], &corners(g)[off]) <= 0 {
            continue;
        }
        if let Some(d) = walk((g, Some((off + 1) % 3)), &x, q, &corners, &across) {
            best = Some(best.map_or(d, |m: f64| m.min(d)));
        }
    }
    best
}

/// The deepest the segment from `x` (over face `f`) to `q` runs behind the faces it passes
/// under, followed across their edges until it comes out in front of one, or ends; `entry`
/// is the edge of `f` the segment comes in across (`None` for the face `x` lies in). `None`
/// when the walk meets an edge with no face across, a face of no area, a face the segment
/// does not run over (where it comes in, it lies outside one of the face's other edges:
/// the walk has left the segment), or is longer than [`WALK`].
fn walk(
    (mut f, mut entry): (usize, Option<usize>),
    x: &[f64; 3],
    q: &[f64; 3],
    corners: &impl Fn(usize) -> [[f64; 3]; 3],
    across: &impl Fn(usize, usize) -> Option<(usize, usize)>,
) -> Option<f64> {
    let mut from = *x;
    let mut deepest = 0.0_f64;
    for _ in 0..WALK {
        let c = corners(f);
        let (n, area, o) = unit_normal(&c);
        if area == 0.0 {
            // A face of no area has no plane to measure against: the old depth decides.
            return None;
        }
        // Positive behind `c`, inside its body (where `orient` > 0).
        let behind = Plane {
            n: n.map(|x| -x),
            o,
        };
        deepest = deepest.max(behind.at(&from));
        // Where it leaves the reach of `c` (the prism over it), and across which edge.
        let mut reach = (1.0_f64, None);
        for m in 0..3 {
            let side = Plane::side(&c, &n, m);
            let (sf, sq) = (side.at(&from), side.at(q));
            if sf < 0.0 && entry.is_some_and(|e| e != m) {
                return None;
            }
            if sq < 0.0 {
                let r = if sf > 0.0 { sf / (sf - sq) } else { 0.0 };
                if r < reach.0 {
                    reach = (r, Some(m));
                }
            }
        }
        let end: [f64; 3] = std::array::from_fn(|i| from[i] + reach.0 * (q[i] - from[i]));
        let e = behind.at(&end);
        deepest = deepest.max(e);
        let Some(m) = reach.1 else {
            return Some(deepest);
        };
        if e < 0.0 {
            // Out in front of `c`: what follows is outside, or crosses a face again (a
            // pair of its own).
            return Some(deepest);
        }
        let (g, off) = across(f, m)?;
        (f, entry) = (g, Some((off + 1) % 3));
        from = end;
    }
    None
}

/// A plane as a signed distance (rounded), positive on a chosen side.
struct Plane {
    n: [f64; 3],
    o: [f64; 3],
}

impl Plane {
    /// The plane through `t`'s edge from corner `m` to `m + 1` square to `t` (whose unit
    /// normal is `normal`), positive on the side of `t`'s third corner.
    fn side(t: &[[f64; 3]; 3], normal: &[f64; 3], m: usize) -> Plane {
        let (u, v, w) = (&t[m], &t[(m + 1) % 3], &t[(m + 2) % 3]);
        let n = cross3(normal, &[v[0] - u[0], v[1] - u[1], v[2] - u[2]]);
        let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
        let n = if len > 0.0 { n.map(|x| x / len) } else { n };
        let mut plane = Plane { n, o: *u };
        if plane.at(w) < 0.0 {
            plane.n = n.map(|x| -x);
        }
        plane
    }

    /// The signed distance of `p`.
    fn at(&self, p: &[f64; 3]) -> f64 {
        let (n, o) = (&self.n, &self.o);
        n[0] * (p[0] - o[0]) + n[1] * (p[1] - o[1]) + n[2] * (p[2] - o[2])
    }
}

#[cfg(test)]
mod tests {
    use super::{Plane, depth, orient, unit_normal, walk};
    use crate::overlap::exact::plane_distance;

    /// The unit cube's top, split in two (outward, counter-clockwise seen from above), and
    /// the halves of two walls that share the top's edges.
    fn top_and_walls() -> Vec<[[f64; 3]; 3]> {
        vec![
            // 0, 1: the top (z = 1).
            [[0.0, 0.0, 1.0], [1.0, 0.0, 1.0], [1.0, 1.0, 1.0]],
            [[0.0, 0.0, 1.0], [1.0, 1.0, 1.0], [0.0, 1.0, 1.0]],
            // 2: the wall y = 0's half under the top's edge (0,0,1)-(1,0,1).
            [[0.0, 0.0, 0.0], [1.0, 0.0, 1.0], [0.0, 0.0, 1.0]],
            // 3: the wall x = 1's half under (1,0,1)-(1,1,1).
            [[1.0, 0.0, 0.0], [1.0, 1.0, 1.0], [1.0, 0.0, 1.0]],
            // 4: the wall y = 1's half under (0,1,1)-(1,1,1).
            [[1.0, 1.0, 0.0], [0.0, 1.0, 1.0], [1.0, 1.0, 1.0]],
        ]
    }

    /// Across: top 0's edges 0 (to wall 2), 1 (to wall 3), 2 (to top 1); top 1's edges 0
    /// (to top 0) and 1 (to wall 4). Corner off the shared edge found by position.
    fn across_of(faces: &[[[f64; 3]; 3]]) -> impl Fn(usize, usize) -> Option<(usize, usize)> + '_ {
        move |f, k| {
            let g = match (f, k) {
                (0, 0) => 2,
                (0, 1) => 3,
                (0, 2) => 1,
                (1, 0) => 0,
                (1, 1) => 4,
                (4, 1) => 1,
                (2, 1) => 0,
                (3, 1) => 0,
                _ => return None,
            };
            let (u, v) = (faces[f][k], faces[f][(k + 1) % 3]);
            let off = (0..3).find(|&m| faces[g][m] != u && faces[g][m] != v)?;
            Some((g, off))
        }
    }

    #[test]
    fn behind_is_inside() {
        let f = top_and_walls();
        // The top's inside is below it, where `orient` is positive.
        let inside = [0.5, 0.5, 0.5];
        assert!(orient(&f[0][0], &f[0][1], &f[0][2], &inside) > 0);
        let (n, _, o) = unit_normal(&f[0]);
        let behind = Plane {
            n: n.map(|x| -x),
            o,
        };
        assert!(behind.at(&inside) > 0.0);
    }

    #[test]
    fn a_beam_along_the_top_is_as_deep_as_it_runs_under_it() {
        let f = top_and_walls();
        let corners = |g: usize| f[g];
        let across = across_of(&f);
        // An edge 1e-16 under the top, from outside the wall y = 0 far inside and out past
        // the far side: through wall 2 within rounding of its top edge.
        let (a, b) = ([0.3, -5.0, 1.0 - 1e-16], [0.4, 9.0, 1.0 - 1e-16]);
        let d = depth((2, &f[2]), (&a, &b), corners, &across).unwrap();
        assert!(d < 1e-15, "{d}");
        // The same edge sloping down by 0.01 over its length: deeper than the rounding.
        let (a, b) = ([0.3, -5.0, 1.0 - 1e-16], [0.4, 9.0, 0.99]);
        let d = depth((2, &f[2]), (&a, &b), corners, &across).unwrap();
        assert!(d > 1e-4, "{d}");
        // Through the wall a tenth under its top edge: not near it, as deep as it runs
        // under the wall (to its end, half a unit in).
        let (a, b) = ([0.3, -5.0, 0.9], [0.4, 0.5, 0.9]);
        assert!(depth((2, &f[2]), (&a, &b), corners, &across).unwrap() > 0.09);
    }

    #[test]
    fn an_edge_over_a_small_tilted_face_is_measured_over_it_only() {
        // A top whose corner (1, 0) was rounded up by 1e-4: the plane of its first half
        // rises along x by 1e-4 a unit, and carried twenty units out misses a beam lying
        // on the top by 2e-3; over the face the beam is 7e-5 under it.
        let mut f = top_and_walls();
        for t in f.iter_mut() {
            for p in t.iter_mut() {
                if *p == [1.0, 0.0, 1.0] {
                    p[2] += 1e-4;
                }
            }
        }
        let corners = |g: usize| f[g];
        let across = across_of(&f);
        // The beam's edge along x at y = 0.2, 1e-5 over the top's plane where that plane
        // is at 1: it passes through top 0 at x = 0.3 and runs under it to x = 1, then
        // out through the wall x = 1's reach, in front of it.
        let (a, b) = ([-20.0, 0.2, 1.0 + 1e-5], [20.0, 0.2, 1.0 + 1e-5]);
        let d = depth((0, &f[0]), (&a, &b), corners, &across).unwrap();
        assert!(d <= 1e-4, "{d}");
        assert!(crossing_depth_ends(&f[0], &a, &b) > 1e-3);
    }

    #[test]
    fn a_face_of_no_area_ends_the_walk_undecided() {
        let mut f = top_and_walls();
        // Top 1 collapsed onto its edge (0,0,1)-(1,1,1).
        f[1][2] = [0.5, 0.5, 1.0];
        let corners = |g: usize| f[g];
        let across = across_of(&f);
        // Under top 0 from its edge on the wall y = 0, towards the collapsed face.
        let q = [0.4, 9.0, 1.0 - 1e-16];
        assert_eq!(
            walk((0, None), &[0.33, 0.0, 1.0], &q, &corners, &across),
            None
        );
    }

    #[test]
    fn a_walk_that_leaves_the_segment_ends_undecided() {
        // Into the wall x = 1's half (3) across its edge on the top (1), from a point whose
        // foot on the wall lies outside the wall's edge (1,0,0)-(1,1,1): the segment runs
        // over some other face, and wandering from face to face from that point measured
        // nothing of it (a fan's thin faces led such walks hundreds of faces long).
        let f = top_and_walls();
        let corners = |g: usize| f[g];
        let across = across_of(&f);
        let (from, q) = ([0.5, 0.8, 0.3], [0.5, 0.8, 0.9]);
        assert_eq!(walk((3, Some(1)), &from, &q, &corners, &across), None);
        // From a point over it, the same walk measures the segment's depth behind x = 1.
        let from = [0.9, 0.2, 0.9];
        let d = walk((3, Some(1)), &from, &[0.9, 0.2, 0.95], &corners, &across).unwrap();
        assert!((d - 0.1).abs() < 1e-12, "{d}");
    }

    /// The old measure: the nearer end's distance from the face's plane.
    fn crossing_depth_ends(t: &[[f64; 3]; 3], a: &[f64; 3], b: &[f64; 3]) -> f64 {
        plane_distance(t, a).min(plane_distance(t, b))
    }
}
