//! Triangles as read, before validation: `RawMesh`, and joining corners that noise kept apart.

use crate::union_find::UnionFind;
use nalgebra::Point3;
use rstar::{RTree, primitives::GeomWithData};

/// Triangles as read from a file, before welding and validation.
///
/// # Examples
/// ```
/// let raw = inertia::io::obj::parse(b"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")?;
/// assert_eq!((raw.vertices.len(), raw.triangles.len()), (3, 1));
/// # Ok::<(), inertia::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RawMesh {
    /// Vertex coordinates (finite).
    pub vertices: Vec<[f64; 3]>,
    /// Triangles as indices into `vertices`, in file order.
    pub triangles: Vec<[u32; 3]>,
    /// For each triangle, the source line it came from (OBJ); empty when triangles are
    /// numbered in file order (STL).
    pub lines: Vec<u32>,
}

impl RawMesh {
    /// The open corners joined within `tol(point, (shortest, longest incident edge))` of
    /// each (a pair within the smaller of its two tolerances), given the mesh welded
    /// exactly: `welded` numbers each triangle's corners among the distinct `vertices`
    /// (the weld is `soup::general`'s, which calls this).
    pub(crate) fn weld_open(
        &self,
        vertices: &[Point3<f64>],
        welded: &[[u32; 3]],
        tol: impl Fn(&[f64; 3], (f64, f64)) -> f64,
    ) -> (RawMesh, usize, f64) {
        let n = vertices.len();
        if n == 0 {
            return (self.clone(), 0, 0.0);
        }
        let at = |v: u32| -> [f64; 3] { vertices[v as usize].into() };
        let open = open_corners(&open_edges(welded), n);
        if open.len() < 2 {
            return (self.clone(), 0, 0.0);
        }
        // Each open corner's shortest and longest edge.
        let mut edges = vec![(f64::INFINITY, 0.0_f64); n];
        let is_open = {
            let mut o = vec![false; n];
            for &v in &open {
                o[v as usize] = true;
            }
            o
        };
        for t in welded {
            for k in 0..3 {
                let (u, v) = (t[k], t[(k + 1) % 3]);
                if u == v || !(is_open[u as usize] || is_open[v as usize]) {
                    continue;
                }
                let (p, q) = (at(u), at(v));
                let d =
                    ((p[0] - q[0]).powi(2) + (p[1] - q[1]).powi(2) + (p[2] - q[2]).powi(2)).sqrt();
                for w in [u, v] {
                    let e = &mut edges[w as usize];
                    *e = (e.0.min(d), e.1.max(d));
                }
            }
        }
        let tols: Vec<f64> = open
            .iter()
            .map(|&v| {
                let t = tol(&at(v), edges[v as usize]);
                if t.is_finite() { t.max(0.0) } else { 0.0 }
            })
            .collect();
        let tree = RTree::bulk_load(
            open.iter()
                .enumerate()
                .map(|(k, &v)| GeomWithData::new(at(v), k as u32))
                .collect(),
        );
        let mut points = UnionFind::new(n);
        let mut largest = 0.0_f64;
        for (k, &v) in open.iter().enumerate() {
            let t = tols[k];
            if t == 0.0 {
                continue;
            }
            let p = at(v);
            for q in tree.locate_within_distance(p, t * t) {
                let j = q.data as usize;
                if j <= k {
                    continue;
                }
                let c = q.geom();
                let d =
                    ((p[0] - c[0]).powi(2) + (p[1] - c[1]).powi(2) + (p[2] - c[2]).powi(2)).sqrt();
                if d > t.min(tols[j]) {
                    continue;
                }
                if points.union(v, open[j]) {
                    largest = largest.max(d);
                }
            }
        }
        let roots: Vec<u32> = (0..n as u32).map(|i| points.find(i)).collect();
        let merged = (0..n).filter(|&i| roots[i] as usize != i).count();
        if merged == 0 {
            return (self.clone(), 0, 0.0);
        }
        // Each welded point's first-listed corner in the input.
        let mut first = vec![u32::MAX; n];
        for (t, w) in self.triangles.iter().zip(welded) {
            for k in 0..3 {
                let f = &mut first[w[k] as usize];
                *f = (*f).min(t[k]);
            }
        }
        // A group's point: the first-listed corner of any of its members.
        let mut lead = vec![u32::MAX; n];
        for w in 0..n {
            let r = roots[w] as usize;
            lead[r] = lead[r].min(first[w]);
        }
        let triangles = welded
            .iter()
            .map(|t| t.map(|w| lead[roots[w as usize] as usize]))
            .collect();
        (
            RawMesh {
                vertices: self.vertices.clone(),
                triangles,
                lines: self.lines.clone(),
            },
            merged,
            largest,
        )
    }

    /// Triangle `t` (0-based) as the input numbers it: "triangle 5" or "triangle 5 (line 12)".
    ///
    /// # Examples
    /// ```
    /// let m = inertia::RawMesh { lines: vec![12], ..Default::default() };
    /// assert_eq!(m.place(0).to_string(), "triangle 1 (line 12)");
    /// assert_eq!(m.place(0).line, Some(12));
    /// ```
    pub fn place(&self, t: usize) -> crate::error::InputTriangle {
        crate::error::InputTriangle {
            number: t + 1,
            line: self.lines.get(t).map(|&l| l as usize),
        }
    }
}

/// The distance between the two closest distinct corners that lie on the boundary edges
/// of a welded mesh (`triangles` index the distinct `vertices`), and the length of its
/// shortest boundary edge, or `None` if it has fewer than two such corners (see
/// `soup::general::nearest_open_corners`).
pub(crate) fn open_gap(vertices: &[Point3<f64>], triangles: &[[u32; 3]]) -> Option<(f64, f64)> {
    let edges = open_edges(triangles);
    let mut shortest = f64::INFINITY;
    for &(u, v) in &edges {
        shortest = shortest.min((vertices[u as usize] - vertices[v as usize]).norm());
    }
    let open = open_corners(&edges, vertices.len());
    if open.len() < 2 {
        return None;
    }
    // Each corner's nearest other (distinct points after the exact weld), from an R*-tree:
    // O(k log k) in the k open corners, however they lie.
    let at = |v: u32| -> [f64; 3] { vertices[v as usize].into() };
    let tree = RTree::bulk_load(open.iter().map(|&v| at(v)).collect());
    let best = open
        .iter()
        .filter_map(|&v| {
            let p = at(v);
            tree.nearest_neighbor_iter(&p).find(|q| **q != p).map(|q| {
                ((p[0] - q[0]).powi(2) + (p[1] - q[1]).powi(2) + (p[2] - q[2]).powi(2)).sqrt()
            })
        })
        .fold(f64::INFINITY, f64::min);
    best.is_finite().then_some((best, shortest))
}

/// The edges (welded corners) not matched by an edge the other way round, each once,
/// ascending: each edge's uses ([`edge_uses`](super::topology::edge_uses)) summed, one way
/// +1 and the other −1.
fn open_edges(welded: &[[u32; 3]]) -> Vec<(u32, u32)> {
    super::topology::unmatched_uses(welded)
        .chunk_by(|a, b| a.0 == b.0)
        .filter(|run| run.iter().map(|e| e.1).sum::<i32>() != 0)
        .map(|run| ((run[0].0 >> 32) as u32, run[0].0 as u32))
        .collect()
}

/// The welded corners on the open `edges`, ascending.
fn open_corners(edges: &[(u32, u32)], n: usize) -> Vec<u32> {
    let mut on = vec![false; n];
    for &(u, v) in edges {
        on[u as usize] = true;
        on[v as usize] = true;
    }
    (0..n as u32).filter(|&v| on[v as usize]).collect()
}

#[cfg(test)]
mod tests {
    use super::RawMesh;

    #[test]
    fn points_within_the_tolerance_two_cells_apart_are_joined() {
        // Cells are tol/√3 wide: 0.9·tol along x spans about 1.56 cells, so a point just
        // below a cell's end and one 0.9·tol further are two cells apart.
        let tol = 1e-3;
        let cell = tol / 3f64.sqrt();
        let x = 0.999 * cell;
        let m = RawMesh {
            vertices: vec![
                [x, 0.0, 0.0],
                [x + 0.9 * tol, 0.0, 0.0],
                [x + 2.0 * tol, 0.0, 0.0],
            ],
            triangles: vec![[1, 2, 0]],
            lines: vec![],
        };
        let (w, merged) = m.welded_within(tol);
        assert_eq!(merged, 1);
        // The second point now refers to the first; the third, 2·tol away, stays.
        assert_eq!(w.triangles[0], [0, 2, 0]);
    }
}
