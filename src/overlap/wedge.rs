//! Faces meeting at an edge shared by more than two: they must alternate in the way they
//! run along it, or two neighbours enclose their wedge twice.

use super::exact::{cross3, orient};
use super::{Contact, Kind, Overlap, Tri, ids_of};
use crate::soup::{Point, Soup};
use rayon::prelude::*;

/// The edge (its corners' point numbers, ascending) two triangles share and use the same way
/// round, if they do.
pub(super) fn same_way_edge(a: &[u64; 3], b: &[u64; 3]) -> Option<[u64; 2]> {
    // The edge of `a` whose two ends `b` also has: a[k] → a[k + 1].
    let k = (0..3).find(|&k| b.contains(&a[k]) && b.contains(&a[(k + 1) % 3]))?;
    let (x, y) = (a[k], a[(k + 1) % 3]);
    let p = b.iter().position(|v| *v == x)?;
    // `b` runs x → y too: the same way round.
    (b[(p + 1) % 3] == y).then_some([x.min(y), x.max(y)])
}

/// Every face using one of `edges` (corners' point numbers, ascending): `(edge, triangle, k)` with
/// the edge running from corner k to corner k + 1 of the triangle, sorted.
pub(super) fn faces_at(
    tris: &[Tri],
    ids: &[u32],
    edges: &[[u64; 2]],
) -> Vec<([u64; 2], usize, usize)> {
    let wanted: std::collections::HashSet<[u64; 2]> = edges.iter().copied().collect();
    let mut faces: Vec<([u64; 2], usize, usize)> = (0..tris.len())
        .into_par_iter()
        .flat_map_iter(|t| {
            let h = ids_of(ids, t);
            let wanted = &wanted;
            (0..3).filter_map(move |k| {
                let (u, v) = (h[k], h[(k + 1) % 3]);
                let key = [u.min(v), u.max(v)];
                (wanted.contains(&key) && !tris[t].is_empty()).then_some((key, t, k))
            })
        })
        .collect();
    faces.sort_unstable();
    faces
}

/// A face around an edge: its angle about it, whether it runs from the edge's lower-numbered
/// end, the triangle, its third corner.
type Face = (f64, bool, usize, [f64; 3]);

/// Around each of `edges`, the faces using it in angular order must alternate in the way
/// they use it (in, out, in, out): the winding number of the wedges between them then
/// stays 0 or 1. Two neighbours the same way round enclose their wedge twice.
///
/// Faces the narrower of which has its third corner within reach ([`crate::tolerance::reach`]) of
/// the other's plane (two parts face to face, their faces split on different diagonals or
/// at different heights and turned, so that each face is bent by rounding) are in no
/// certain order: when only such a reordering makes the faces alternate, the wedge is a
/// contact, its depth the largest such distance.
pub(super) fn wedges<S: Soup>(
    soup: &S,
    tris: &[Tri],
    ids: &[u32],
    edges: &[[u64; 2]],
) -> (Option<Overlap>, Vec<Contact>) {
    let mut folds = Vec::new();
    let pages = pages(soup, tris, ids, edges);
    let mut worst: Option<Overlap> = None;
    for group in pages.chunk_by(|x, y| x.0 == y.0) {
        if group.len() < 3 {
            continue;
        }
        let edge = Around::new(group);
        let (a, b) = (edge.a, edge.b);
        let half = |p: &[f64; 3], q: &[f64; 3], loose: bool| edge.half(p, q, loose);
        let around = edge.faces(group);
        let exact = arrange(around.clone(), &|p, q| half(p, q, false));
        let Some(k) = same_way(&exact) else {
            continue;
        };
        let loose = arrange(around, &|p, q| half(p, q, true));
        if same_way(&loose).is_none() {
            // A contact: the faces lying within the tolerance of each other's planes (and
            // not exactly in one), and the corners of each behind the other's.
            let mut c = Contact {
                first: usize::MAX,
                second: 0,
                at: a,
                depth: 0.0,
                crossings: Vec::new(),
            };
            for x in &loose {
                for y in &loose {
                    if x.2 == y.2 || !half(&x.3, &y.3, true) || half(&x.3, &y.3, false) {
                        continue;
                    }
                    c.first = c.first.min(x.2.min(y.2));
                    c.second = c.second.max(x.2.max(y.2));
                    c.depth = c.depth.max(edge.gap(&x.3, &y.3));
                }
            }
            if c.first != usize::MAX {
                folds.push(c);
                continue;
            }
        }
        let n = exact.len();
        let (x, y) = (&exact[k], &exact[(k + 1) % n]);
        // The same way round: their wedge enclosed twice (or, in one half-plane, the two
        // faces lying on each other).
        let o = Overlap {
            first: x.2.min(y.2),
            second: x.2.max(y.2),
            kind: Kind::Wedge(a, b),
        };
        if worst
            .as_ref()
            .is_none_or(|w| (o.first, o.second) < (w.first, w.second))
        {
            worst = Some(o);
        }
    }
    (worst, folds)
}

/// A face at an edge: (edge, triangle, whether it runs from the edge's lower-numbered end,
/// its corners: that end, the other, the third).
type Page = ([u64; 2], usize, bool, [[f64; 3]; 3]);

/// A face at an edge: the edge (its corners' point numbers, ascending), the triangle, and
/// its edge's first corner k (the edge runs from corner k to k + 1).
type At = ([u64; 2], usize, usize);

/// The face `at`, with its corners read.
fn page<S: Soup>(soup: &S, ids: &[u32], (key, t, k): At) -> Page {
    let h = ids_of(ids, t);
    let (u, v) = (h[k], h[(k + 1) % 3]);
    let c = soup.triangle(t).map(|p| p.coords());
    let (lo, hi) = if u < v {
        (k, (k + 1) % 3)
    } else {
        ((k + 1) % 3, k)
    };
    // `forward`: the triangle runs from the lower-numbered end to the other.
    (key, t, u < v, [c[lo], c[hi], c[3 - lo - hi]])
}

/// The faces at `edges`, by edge, then by triangle.
fn pages<S: Soup>(soup: &S, tris: &[Tri], ids: &[u32], edges: &[[u64; 2]]) -> Vec<Page> {
    let mut pages: Vec<Page> = faces_at(tris, ids, edges)
        .into_par_iter()
        .map(|f| page(soup, ids, f))
        .collect();
    // In edge order already (`faces_at`), then by triangle.
    pages.sort_unstable_by_key(|p| (p.0, p.1));
    pages
}

/// An edge shared by several faces: its ends (`a` the lower-numbered), a frame across it,
/// and how far a repair there may reach.
struct Around {
    a: [f64; 3],
    b: [f64; 3],
    d: [f64; 3],
    e1: [f64; 3],
    e2: [f64; 3],
    tol: f64,
}

fn dot(p: &[f64; 3], q: &[f64; 3]) -> f64 {
    p[0] * q[0] + p[1] * q[1] + p[2] * q[2]
}

impl Around {
    fn new(group: &[Page]) -> Around {
        let [a, b, _] = group[0].3;
        let d = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
        // A frame across the edge: e1 ⟂ d, e2 = d × e1.
        let e1 = if d[0].abs() <= d[1].abs() && d[0].abs() <= d[2].abs() {
            [0.0, -d[2], d[1]]
        } else if d[1].abs() <= d[2].abs() {
            [-d[2], 0.0, d[0]]
        } else {
            [-d[1], d[0], 0.0]
        };
        let e2 = cross3(&d, &e1);
        let faces: Vec<&[[f64; 3]; 3]> = group.iter().map(|g| &g.3).collect();
        let tol = crate::tolerance::reach(&faces);
        Around {
            a,
            b,
            d,
            e1,
            e2,
            tol,
        }
    }

    /// The faces in angular order about the edge (counterclockwise seen from `b`).
    fn faces(&self, group: &[Page]) -> Vec<Face> {
        let a = self.a;
        let mut around: Vec<Face> = group
            .iter()
            .map(|(_, t, forward, c)| {
                let w = [c[2][0] - a[0], c[2][1] - a[1], c[2][2] - a[2]];
                (
                    dot(&w, &self.e2).atan2(dot(&w, &self.e1)),
                    *forward,
                    *t,
                    c[2],
                )
            })
            .collect();
        around.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.2.cmp(&y.2)));
        around
    }

    /// How far `q` lies from the plane through the edge and `p`.
    fn off(&self, p: &[f64; 3], q: &[f64; 3]) -> f64 {
        let a = self.a;
        let wp = [p[0] - a[0], p[1] - a[1], p[2] - a[2]];
        let wq = [q[0] - a[0], q[1] - a[1], q[2] - a[2]];
        let m = cross3(&self.d, &wp);
        let len = dot(&m, &m).sqrt();
        (dot(&m, &wq) / len).abs()
    }

    /// Within reach of one half-plane: the narrower face's third corner within
    /// the tolerance of the wider face's plane. The narrower face's own angle about the
    /// edge is the less certain (its corner's rounding turns it by tol / its width), so
    /// the wider's far corner may lie further from the narrower's plane (a wall split at
    /// half height against a wall that is not: twice as far).
    fn gap(&self, p: &[f64; 3], q: &[f64; 3]) -> f64 {
        self.off(p, q).min(self.off(q, p))
    }

    /// Whether the faces with third corners `p` and `q` lie in one half-plane: exactly, or
    /// (`loose`) within reach.
    fn half(&self, p: &[f64; 3], q: &[f64; 3], loose: bool) -> bool {
        let (a, b) = (&self.a, &self.b);
        (if loose {
            self.gap(p, q) <= self.tol
        } else {
            orient(a, b, p, q) == 0
        }) && {
            let (wp, wq) = (
                [p[0] - a[0], p[1] - a[1], p[2] - a[2]],
                [q[0] - a[0], q[1] - a[1], q[2] - a[2]],
            );
            // Same side of the edge within their common plane.
            dot(&cross3(&self.d, &wp), &cross3(&self.d, &wq)) > 0.0
        }
    }
}

/// The faces with no face across an edge in `nbr` (in a closed surface, the faces around
/// edges that more than two share), by edge, degenerate ones left out. One pass on one
/// core: it may run within the overlap search's parallel work, where waiting on other
/// threads could make a thread take up work that asks for it again.
pub(super) fn unpaired_faces(tris: &[Tri], nbr: &[u32], ids: &[u32]) -> Vec<At> {
    let n = tris.len();
    let mut faces: Vec<At> = (0..n)
        .filter(|&t| !tris[t].is_empty())
        .flat_map(|t| (0..3).map(move |k| (t, k)))
        .filter(|&(t, k)| nbr[3 * t + k] as usize >= n)
        .map(|(t, k)| {
            let h = ids_of(ids, t);
            let (u, v) = (h[k], h[(k + 1) % 3]);
            ([u.min(v), u.max(v)], t, k)
        })
        .collect();
    faces.sort_unstable();
    faces
}

/// The `faces` around each edge (shared by more than two, as [`unpaired_faces`] lists
/// them) paired two by two (with the edge), on one core, one running each way, across the
/// wedge of solid behind both: in angular order (faces
/// within reach of one half-plane placed to alternate, as [`wedges`] places them),
/// a face running from the edge's higher-numbered end to the other has its solid at the
/// larger angles, up to the next face, which runs the other way. Where they still do not
/// alternate, they are paired as brackets are, still one of each way. Either way the
/// bodies that the pairs join are closed surfaces (what [`super::contact`] needs to add up
/// crossings); the angular pairing keeps two parts meeting at the edge apart.
pub(super) fn pairs_at<S: Soup>(soup: &S, ids: &[u32], faces: &[At]) -> Vec<([u64; 2], u32, u32)> {
    let mut pages: Vec<Page> = faces.iter().map(|&f| page(soup, ids, f)).collect();
    pages.sort_unstable_by_key(|p| (p.0, p.1));
    let mut pairs = Vec::new();
    for group in pages.chunk_by(|x, y| x.0 == y.0) {
        let edge = Around::new(group);
        let mut order = arrange(edge.faces(group), &|p, q| edge.half(p, q, true));
        // Start where the count of backward faces less forward ones is least, so that it
        // never falls below it (brackets that close).
        let mut level = 0i32;
        let mut least = (0, 0);
        for (i, f) in order.iter().enumerate() {
            level += if f.1 { -1 } else { 1 };
            if level < least.0 {
                least = (level, i + 1);
            }
        }
        let m = order.len().max(1);
        order.rotate_left(least.1 % m);
        let mut waiting: Vec<u32> = Vec::new();
        for f in &order {
            if f.1 {
                if let Some(o) = waiting.pop() {
                    pairs.push((group[0].0, o, f.2 as u32));
                }
            } else {
                waiting.push(f.2 as u32);
            }
        }
    }
    pairs
}

/// The faces around an edge in angular order, those in one half-plane (as `same_half`
/// says) placed so as to alternate if they can. The order is circular and its start
/// arbitrary: start it where a half-plane begins, gather the runs of faces sharing one,
/// and arrange each run to alternate with what comes before it (trying both ways for the
/// first run, so that the circle can close).
fn arrange(mut around: Vec<Face>, same_half: &dyn Fn(&[f64; 3], &[f64; 3]) -> bool) -> Vec<Face> {
    let n = around.len();
    let start = (0..n)
        .find(|&k| !same_half(&around[k].3, &around[(k + n - 1) % n].3))
        .unwrap_or(0);
    around.rotate_left(start);
    let mut runs: Vec<Vec<Face>> = Vec::new();
    for x in around {
        match runs.last_mut() {
            Some(run) if same_half(&run[run.len() - 1].3, &x.3) => run.push(x),
            _ => runs.push(vec![x]),
        }
    }
    let arranged = |first: bool| {
        let mut out = Vec::with_capacity(n);
        let mut want = first;
        for run in &runs {
            let mut rest = run.clone();
            while !rest.is_empty() {
                let pick = rest.iter().position(|x| x.1 == want).unwrap_or(0);
                let x = rest.remove(pick);
                want = !x.1;
                out.push(x);
            }
        }
        out
    };
    let first = arranged(true);
    if same_way(&first).is_none() {
        first
    } else {
        let second = arranged(false);
        if same_way(&second).is_none() {
            second
        } else {
            first
        }
    }
}

/// The first face followed by one running the same way round the edge, if any.
fn same_way(s: &[Face]) -> Option<usize> {
    let n = s.len();
    (0..n).find(|&k| s[k].1 == s[(k + 1) % n].1)
}
