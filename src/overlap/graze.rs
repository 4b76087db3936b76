//! An edge of one triangle passing exactly through an edge of another (two boxes offset by
//! half their size, whose crossings all fall on the diagonals that split their faces):
//! no triangle is pierced through its interior, yet the surfaces cross. Whether they do
//! depends on both faces at the edge pierced: the piercing edge crosses the surface iff
//! one of its ends lies inside the solid wedge between those two faces and the other
//! outside.

use super::contact::Contact;
use super::exact::{Graze, orient, plane_distance};
use super::wedge::faces_at;
use super::{Kind, Overlap, Tri};
use crate::soup::{Point, Soup};

/// A piercing edge noted during the search.
#[derive(Clone, Copy, Debug)]
pub(super) struct Grazing {
    /// The pair's lower triangle (pairs are reported in order).
    pub(super) first: usize,
    /// The pair's higher triangle.
    pub(super) second: usize,
    /// The triangle whose edge pierces, and that edge (corner k to k + 1).
    segment: (usize, usize),
    /// The edge pierced, by its corners' point numbers (ascending).
    key: [u64; 2],
    /// Where (rounded).
    pub(super) at: [f64; 3],
}

impl Grazing {
    /// From what [`meet`] found for the pair `(i, j)` with corners' point numbers `hi`, `hj`.
    pub(super) fn new(g: Graze, i: usize, j: usize, hi: &[u64; 3], hj: &[u64; 3]) -> Grazing {
        // The piercing edge's triangle, and the corners' point numbers of the one pierced.
        let (seg, h) = if g.first_pierces { (i, hj) } else { (j, hi) };
        let (u, v) = (h[g.through], h[(g.through + 1) % 3]);
        Grazing {
            first: i.min(j),
            second: i.max(j),
            segment: (seg, g.edge),
            key: [u.min(v), u.max(v)],
            at: g.at,
        }
    }
}

/// The first noted edge (in pair order) that crosses the surface at the edge it passes
/// through; edges where other than two faces meet are left to [`wedges`].
///
/// One whose nearer end lies within reach of the faces' planes ([`crate::tolerance::reach`]) is a
/// contact (returned, for [`contact::verify`] to follow its inner end).
pub(super) fn grazes<S: Soup>(
    soup: &S,
    tris: &[Tri],
    ids: &[u32],
    noted: &[Grazing],
) -> (Option<Overlap>, Vec<Contact>) {
    let mut contacts = Vec::new();
    let edges: Vec<[u64; 2]> = noted.iter().map(|g| g.key).collect();
    let faces = faces_at(tris, ids, &edges);
    let corners = |t: usize| soup.triangle(t).map(|p| p.coords());
    for g in noted {
        let lo = faces.partition_point(|f| f.0 < g.key);
        let at_edge: Vec<usize> = faces[lo..]
            .iter()
            .take_while(|f| f.0 == g.key)
            .map(|f| f.1)
            .collect();
        let [f1, f2] = at_edge[..] else {
            continue;
        };
        let (c1, c2) = (corners(f1), corners(f2));
        let (t, k) = g.segment;
        let s = corners(t);
        let (p, q) = (s[k], s[(k + 1) % 3]);
        // The corner of f2 off the edge: inside f1's half-space (a convex edge), outside
        // (a reflex one), or in its plane (flat, or folded back on itself).
        let Some(w2) = c2.iter().find(|c| !c1.contains(c)) else {
            continue;
        };
        let convex = orient(&c1[0], &c1[1], &c1[2], w2);
        // Inside a face's half-space: behind it, against the side its winding faces.
        let behind = |c: &[[f64; 3]; 3], x: &[f64; 3]| orient(&c[0], &c[1], &c[2], x) > 0;
        let inside = |x: &[f64; 3]| {
            let (a, b) = (behind(&c1, x), behind(&c2, x));
            if convex < 0 { a || b } else { a && b }
        };
        if inside(&p) != inside(&q) {
            // How far its nearer end lies from the nearer of the two planes.
            let depth = [&p, &q]
                .iter()
                .map(|x| plane_distance(&c1, x).min(plane_distance(&c2, x)))
                .fold(f64::INFINITY, f64::min);
            if depth <= crate::tolerance::reach(&[&c1, &c2, &s]) {
                contacts.push(Contact {
                    first: g.first,
                    second: g.second,
                    at: g.at,
                    depth,
                    crossings: vec![(t, k, f1, if inside(&q) { 1 } else { -1 })],
                });
                continue;
            }
            return (
                Some(Overlap {
                    first: g.first,
                    second: g.second,
                    kind: Kind::Cross(g.at),
                }),
                contacts,
            );
        }
    }
    (None, contacts)
}
