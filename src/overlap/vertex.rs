//! An edge of one triangle passing exactly through a corner of another (a pyramid whose
//! edges run through a box's corners): no face is pierced through its interior and no edge
//! through an edge, yet the surfaces may cross. Whether they do is decided as if the edge
//! were moved by an arbitrarily small amount in a fixed direction (a symbolic perturbation):
//! it then passes through some of the faces around the corner, and the signed count of
//! those (in minus out) does not depend on the direction chosen when the faces close around
//! the corner. Every test is an exact orientation of input points (`orient3d`, `orient2d`).
//!
//! Seen along the edge, the faces around the corner are sectors of a plane around the
//! point where the edge passes: the moved edge passes through a face when the direction it
//! was moved in lies within that face's sector, and the sides of those sectors' rays are
//! orientations `orient3d(a, b, x, y)` of the edge's ends and two corners.

use super::contact::Contact;
use super::exact::{Pass, orient, orient2, plane_distance, project};
use super::{Kind, Overlap, Tri, ids_of};
use crate::soup::{Point, Soup};
use rayon::prelude::*;

/// An edge noted during the search as passing through another triangle's corner.
#[derive(Clone, Copy, Debug)]
pub(super) struct Passing {
    /// The pair's lower triangle (pairs are reported in order).
    pub(super) first: usize,
    /// The pair's higher triangle.
    pub(super) second: usize,
    /// The triangle whose edge passes, and that edge (corner k to k + 1).
    segment: (usize, usize),
    /// The corner passed through, by its point number.
    corner: u64,
    /// Where.
    pub(super) at: [f64; 3],
}

/// A triangle: its index, corners and corners' point numbers.
type Described<'a> = (usize, &'a [[f64; 3]; 3], &'a [u64; 3]);

impl Passing {
    /// From what [`meet`] found for the pair `(i, j)`.
    pub(super) fn new(p: Pass, (i, ci, hi): Described, (j, cj, hj): Described) -> Passing {
        let (segment, c, h) = if p.first_pierces {
            (i, cj, hj)
        } else {
            (j, ci, hi)
        };
        Passing {
            first: i.min(j),
            second: i.max(j),
            segment: (segment, p.edge),
            corner: h[p.corner],
            at: c[p.corner],
        }
    }
}

/// The first noted edge (in pair order) whose passage through a corner crosses the surface
/// there; one whose nearer end lies within reach of the faces around
/// the corner is a contact (returned, for [`contact::verify`] to follow its inner end).
/// An edge running along one of the corner's own edges (exactly in line with it), or lying
/// in the plane of one of its faces (bodies face to face), is not decided here.
pub(super) fn through_corners<S: Soup>(
    soup: &S,
    tris: &[Tri],
    ids: &[u32],
    noted: &[Passing],
) -> (Option<Overlap>, Vec<Contact>) {
    let wanted: std::collections::HashSet<u64> = noted.iter().map(|p| p.corner).collect();
    // Every face at one of the corners: (corner, triangle, the corner's place in it).
    let mut around: Vec<(u64, usize, usize)> = (0..tris.len())
        .into_par_iter()
        .flat_map_iter(|t| {
            let h = ids_of(ids, t);
            let wanted = &wanted;
            (0..3).filter_map(move |m| {
                (wanted.contains(&h[m]) && !tris[t].is_empty()).then_some((h[m], t, m))
            })
        })
        .collect();
    around.sort_unstable();
    let corners = |t: usize| soup.triangle(t).map(|p| p.coords());
    let mut seen = std::collections::HashSet::new();
    let mut contacts = Vec::new();
    for p in noted {
        let (t, k) = p.segment;
        let h = ids_of(ids, t);
        let (u, w) = (h[k], h[(k + 1) % 3]);
        if !seen.insert((u.min(w), u.max(w), p.corner)) {
            continue;
        }
        let s = corners(t);
        let (a, b) = (s[k], s[(k + 1) % 3]);
        let lo = around.partition_point(|f| f.0 < p.corner);
        // The faces around the corner, each turned to start at it.
        let fan: Vec<(usize, [[f64; 3]; 3])> = around[lo..]
            .iter()
            .take_while(|f| f.0 == p.corner)
            .map(|&(_, f, m)| {
                let c = corners(f);
                (f, [c[m], c[(m + 1) % 3], c[(m + 2) % 3]])
            })
            .collect();
        let Some((net, crossed)) = net_crossings(&a, &b, &fan) else {
            continue;
        };
        if net == 0 {
            continue;
        }
        // How far the nearer end lies from the nearest of the faces' planes.
        let depth = [&a, &b]
            .iter()
            .map(|x| {
                fan.iter()
                    .map(|(_, c)| plane_distance(c, x))
                    .fold(f64::INFINITY, f64::min)
            })
            .fold(f64::INFINITY, f64::min);
        let face = &fan[crossed];
        if depth <= crate::tolerance::reach(&[&s, &face.1]) {
            contacts.push(Contact {
                first: p.first,
                second: p.second,
                at: p.at,
                depth,
                crossings: vec![(t, k, face.0, net.signum() as i8)],
            });
            continue;
        }
        return (
            Some(Overlap {
                first: p.first,
                second: p.second,
                kind: Kind::Cross(p.at),
            }),
            contacts,
        );
    }
    (None, contacts)
}

/// Whether `w` lies on the line through `a` and `b` (exactly: every coordinate-plane
/// projection of the three is collinear).
fn on_line(a: &[f64; 3], b: &[f64; 3], w: &[f64; 3]) -> bool {
    (0..3).all(|d| orient2(&project(*a, d), &project(*b, d), &project(*w, d)) == 0)
}

/// The signed number of faces of `fan` (each `(triangle, [corner, w1, w2])`, wound as in the
/// mesh, all at one corner lying strictly inside segment `a b`) that the segment passes
/// through once moved by an arbitrarily small amount: +1 for each it runs into (against the
/// face's normal, into its body), −1 for each it leaves; and one face it passes through.
/// `None` when a face's corner lies on the segment's line (the edge runs along an edge of
/// the fan) or a face's plane holds the segment: not decided here.
fn net_crossings(
    a: &[f64; 3],
    b: &[f64; 3],
    fan: &[(usize, [[f64; 3]; 3])],
) -> Option<(i32, usize)> {
    if fan
        .iter()
        .any(|(_, c)| on_line(a, b, &c[1]) || on_line(a, b, &c[2]))
    {
        return None;
    }
    // Seen along the segment, the sign of the turn from corner x to corner y about the
    // point it passes through: `orient3d(a, b, x, y)` is −det(b − a, x − v, y − v).
    let turn = |x: &[f64; 3], y: &[f64; 3]| -orient(a, b, x, y);
    // The segment is moved towards the first face's second corner, turned a little
    // further counterclockwise (so that it lies on no face's ray): `side(x)` is the sign
    // of the turn from x to that direction.
    let reference = fan.first()?.1[1];
    let side = |x: &[f64; 3]| -> Option<i8> {
        let s = turn(x, &reference);
        if s != 0 {
            return Some(s);
        }
        // In line with the reference direction (seen along the segment): the same way
        // (the turned direction lies counterclockwise of it) or the opposite way, told
        // apart by any corner off that line.
        let q = fan
            .iter()
            .flat_map(|(_, c)| [c[1], c[2]])
            .find(|q| turn(q, x) != 0)?;
        Some(if turn(&q, x) == turn(&q, &reference) {
            1
        } else {
            -1
        })
    };
    let mut net = 0;
    let mut crossed = None;
    for (k, (_, c)) in fan.iter().enumerate() {
        let o = orient(a, b, &c[1], &c[2]);
        if o == 0 {
            // The face's plane holds the segment (bodies face to face, an edge of one
            // lying in the contact plane and passing a corner of the other's face):
            // whether the moved segment crosses depends on the way it was moved, as it
            // does for any two bodies in contact. Not decided here.
            return None;
        }
        // Within the sector from w1 to w2 (counterclockwise when their turn is positive).
        let (p, q) = if -o > 0 {
            (&c[1], &c[2])
        } else {
            (&c[2], &c[1])
        };
        if side(p)? > 0 && side(q)? < 0 {
            net += if o > 0 { 1 } else { -1 };
            crossed.get_or_insert(k);
        }
    }
    Some((net, crossed.unwrap_or(0)))
}

#[cfg(test)]
mod tests {
    use super::net_crossings;

    /// The faces of the unit cube's corner at the origin (outward), turned to start there.
    fn cube_corner() -> Vec<(usize, [[f64; 3]; 3])> {
        let o = [0.0; 3];
        let (x, y, z) = ([1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]);
        let (xy, yz, zx) = ([1.0, 1.0, 0.0], [0.0, 1.0, 1.0], [1.0, 0.0, 1.0]);
        // Bottom (z = 0, normal −z), front (y = 0, normal −y), left (x = 0, normal −x).
        [
            [o, y, xy],
            [o, xy, x],
            [o, x, zx],
            [o, zx, z],
            [o, z, yz],
            [o, yz, y],
        ]
        .into_iter()
        .enumerate()
        .collect()
    }

    #[test]
    fn a_segment_through_a_cube_corner_enters_or_leaves_once() {
        let fan = cube_corner();
        // From outside (−1, −1, −1) to inside (0.5, 0.5, 0.5): runs into the cube.
        let (out, inn) = ([-1.0; 3], [0.5; 3]);
        assert_eq!(net_crossings(&out, &inn, &fan).map(|x| x.0), Some(1));
        assert_eq!(net_crossings(&inn, &out, &fan).map(|x| x.0), Some(-1));
        // Grazing the corner from outside to outside: no crossing.
        let (p, q) = ([-1.0, 1.0, 0.5], [1.0, -1.0, -0.5]);
        assert_eq!(net_crossings(&p, &q, &fan).map(|x| x.0), Some(0));
        // Along one of the corner's edges: not decided here.
        assert_eq!(
            net_crossings(&[-1.0, 0.0, 0.0], &[2.0, 0.0, 0.0], &fan),
            None
        );
    }

    #[test]
    fn the_answer_does_not_depend_on_which_face_comes_first() {
        let mut fan = cube_corner();
        let (out, inn) = ([-1.0, -2.0, -3.0], [0.3, 0.2, 0.1]);
        for _ in 0..fan.len() {
            fan.rotate_left(1);
            assert_eq!(net_crossings(&out, &inn, &fan).map(|x| x.0), Some(1));
            let (p, q) = ([-1.0, 1.0, 0.5], [1.0, -1.0, -0.5]);
            assert_eq!(net_crossings(&p, &q, &fan).map(|x| x.0), Some(0));
        }
    }
}
