//! Which triangles belong together: shells by union-find, and the exact edge check that
//! proves a surface closed and consistently wound (or names the edge at fault).

use super::RawMesh;
use crate::error::{Error, Result};
use crate::union_find::UnionFind;
use nalgebra::Point3;

/// Shell number of every triangle, and the number of shells: triangles joined through
/// the points they share, except at a point where separate pieces of the surface meet
/// (its triangles form two or more fans: two bodies touching at a corner, a tetrahedron
/// inside a box at its corner), where only triangles of one fan are joined, so that the
/// shell check sees the pieces apart. (Bodies sharing an edge stay joined; the overlap
/// check's wedge test looks at them.)
pub(crate) fn shells(n: usize, triangles: &[[u32; 3]]) -> (Vec<u32>, usize) {
    // The node of each corner: its point, or at a point of several fans, its fan (numbered
    // after the points).
    let mut node_of: std::collections::HashMap<(u32, u32), u32> = Default::default();
    let mut next_node = n as u32;
    let pinches = crate::shells::pinches(n, triangles);
    for group in pinches.chunk_by(|x, y| x.0 == y.0) {
        for &(p, t, fan) in group {
            node_of.insert((p, t), next_node + fan);
        }
        next_node += group.iter().map(|x| x.2 + 1).max().unwrap_or(0);
    }
    let node = |p: u32, t: usize| *node_of.get(&(p, t as u32)).unwrap_or(&p);
    let mut shells = UnionFind::new(next_node as usize);
    for (t, tri) in triangles.iter().enumerate() {
        let r0 = node(tri[0], t);
        for &v in &tri[1..] {
            shells.union(r0, node(v, t));
        }
    }
    // Shells numbered in order of first appearance among the triangles.
    shells.labels(triangles.iter().enumerate().map(|(t, tri)| node(tri[0], t)))
}

/// Every use of an edge by a triangle, `(ends, direction, triangle)`: the ends' numbers as
/// one key (lower in the high half), +1 when the triangle runs from the lower end, −1
/// otherwise; sorted by the ends, so an edge's uses lie together (in no set order among
/// themselves). An edge from a point to itself (a triangle repeating a point) is no edge.
/// Both cores: the sort is the largest part of validation.
pub(super) fn edge_uses(triangles: &[[u32; 3]]) -> Vec<(u64, i32, u32)> {
    use rayon::prelude::*;
    let mut edges: Vec<(u64, i32, u32)> = triangles
        .par_iter()
        .enumerate()
        .flat_map_iter(|(t, tri)| (0..3).filter_map(move |k| edge_use(tri, t, k)))
        .collect();
    edges.par_sort_unstable_by_key(|e| e.0);
    edges
}

/// The use of side `k` (from corner `k` to the next) of triangle `t` (corners `tri`), as
/// [`edge_uses`] lists it; `None` for a side from a point to itself.
fn edge_use(tri: &[u32; 3], t: usize, k: usize) -> Option<(u64, i32, u32)> {
    let (u, v) = (tri[k], tri[(k + 1) % 3]);
    let (lo, hi, dir) = match u.cmp(&v) {
        std::cmp::Ordering::Equal => return None,
        std::cmp::Ordering::Less => (u, v, 1),
        std::cmp::Ordering::Greater => (v, u, -1),
    };
    Some(((lo as u64) << 32 | hi as u64, dir, t as u32))
}

/// [`edge_uses`] of the edges that are not one pair of uses running opposite ways (the
/// open ones, those of more than two triangles and those used twice the same way): the
/// same list less the matched edges, found from the fans around the points
/// ([`crate::fans`]) rather than by sorting every edge. An open mesh's error path asks it
/// several times.
pub(crate) fn unmatched_uses(triangles: &[[u32; 3]]) -> Vec<(u64, i32, u32)> {
    let ids: Vec<u32> = triangles.iter().flatten().copied().collect();
    let points = ids.iter().max().map_or(0, |&m| m as usize + 1);
    let Some(fans) = crate::fans::Fans::new(&ids, points) else {
        return edge_uses(triangles);
    };
    let (across, _) = fans.neighbours(&ids);
    drop(fans);
    let mut uses: Vec<(u64, i32, u32)> = triangles
        .iter()
        .enumerate()
        .flat_map(|(t, tri)| (0..3).map(move |k| (t, tri, k)))
        .filter(|&(t, _, k)| across[3 * t + k] == crate::fans::NONE)
        .filter_map(|(t, tri, k)| edge_use(tri, t, k))
        .collect();
    uses.sort_unstable_by_key(|e| e.0);
    uses
}

/// Every edge must be used once in each direction (summed over all triangles using it).
pub(crate) fn check_edges(
    vertices: &[Point3<f64>],
    triangles: &[[u32; 3]],
    origin: &[usize],
    raw: &RawMesh,
) -> Result<()> {
    let edges = edge_uses(triangles);
    let mut boundary = 0usize;
    let mut first_boundary = None;
    let mut first_unbalanced = None;
    let mut i = 0;
    while i < edges.len() {
        let mut j = i + 1;
        while j < edges.len() && edges[j].0 == edges[i].0 {
            j += 1;
        }
        let balance: i32 = edges[i..j].iter().map(|e| e.1).sum();
        if balance != 0 {
            if j - i == 1 {
                boundary += 1;
                first_boundary.get_or_insert(edges[i]);
            } else {
                // The least and greatest use, whatever order the sort left them in.
                let run = &edges[i..j];
                let (lo, hi) = (run.iter().min(), run.iter().max());
                if let (Some(&lo), Some(&hi)) = (lo, hi) {
                    first_unbalanced.get_or_insert((lo, hi));
                }
            }
        }
        i = j;
    }
    let ends = |key: u64| {
        let p = |v: u64| {
            let q = vertices[v as usize];
            [q.x, q.y, q.z]
        };
        [p(key >> 32), p(key & 0xffff_ffff)]
    };
    if let Some(e) = first_boundary {
        return Err(Error::OpenMesh {
            boundary_edges: boundary,
            edge: ends(e.0),
            triangle: raw.place(origin[e.2 as usize]),
            nearest_gap: None,
        });
    }
    if let Some((e, f)) = first_unbalanced {
        return Err(Error::InconsistentWinding {
            first: raw.place(origin[e.2 as usize]),
            second: raw.place(origin[f.2 as usize]),
            edge: ends(e.0),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{edge_uses, unmatched_uses};
    use crate::test_rng::Lcg;

    /// The unmatched uses are exactly the uses of every edge that is not one pair running
    /// opposite ways: on random triangles over few points (open edges, edges of three or
    /// four triangles, edges used twice the same way, triangles repeating a point).
    #[test]
    fn unmatched_uses_are_the_uses_of_edges_not_matched_once() {
        let mut rng = Lcg(3);
        for _ in 0..500 {
            let points = 3 + rng.below(12) as u32;
            let n = 1 + rng.below(40) as usize;
            let triangles: Vec<[u32; 3]> = (0..n)
                .map(|_| [0, 1, 2].map(|_| rng.below(points as u64) as u32))
                .collect();
            let mut expected: Vec<(u64, i32, u32)> = edge_uses(&triangles)
                .chunk_by(|a, b| a.0 == b.0)
                .filter(|run| !(run.len() == 2 && run[0].1 + run[1].1 == 0 && run[0].2 != run[1].2))
                .flatten()
                .copied()
                .collect();
            let mut found = unmatched_uses(&triangles);
            expected.sort_unstable();
            found.sort_unstable();
            assert_eq!(found, expected, "{triangles:?}");
        }
    }
}
