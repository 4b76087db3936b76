//! T-junctions: a corner of the mesh lying on another triangle's edge rather than at its
//! ends. Exporters that tessellate each face on its own (and meshes whose coplanar faces
//! were merged) leave them: the surface is closed as a set of points, but not edge to
//! edge, so the edge check finds it open. Each triangle with such corners on an open edge
//! is split at them, keeping its plane and its winding; the mesh is then closed edge to
//! edge and checked again from the start, as any other.
//!
//! A corner counts as on the edge when it lies within reach of it
//! ([`crate::tolerance::reach`]: a thousandth of the edge, or the arithmetic's rounding)
//! and clearly between its ends (a corner within that distance of an end is a gap to
//! weld, not a junction). The split carries a bound on the volume it can change: the
//! split mesh differs from one whose junction corners lie on their edges' lines exactly
//! by moving each such corner by its offset `h`, which changes the enclosed volume by at
//! most `h` times the largest area each triangle at that corner takes on the way (the
//! volume's rate of change is the surface's speed times its area).

use super::RawMesh;
use crate::body::Junctions;
use nalgebra::Point3;
use rstar::{AABB, RTree, primitives::GeomWithData};
use std::collections::HashMap;

/// Candidates looked at per open edge, on average, before the search gives up (an open
/// mesh whose open edges' boxes hold many open corners is not a mesh of T-junctions).
const BUDGET_PER_EDGE: usize = 64;

impl RawMesh {
    /// The mesh with every triangle that has open corners on one of its open edges split
    /// at them (see the module), its points welded exactly; `None` when no such corner
    /// is found. The first piece of a split triangle keeps its place (and line); the
    /// others follow the file's triangles, in order.
    pub(crate) fn split_at_junctions(&self) -> Option<(RawMesh, Junctions)> {
        let welded = crate::soup::general::weld_raw(self).ok()?;
        let (vertices, triangles) = (&welded.vertices, &welded.triangles);
        // The uses of edges not matched by one use the other way, each with its side.
        let side = |key: u64, t: u32| side_of(triangles, key, t);
        let unmatched = super::topology::unmatched_uses(triangles);
        // Open edges used by one triangle: (triangle, side).
        let mut open: Vec<(u32, u8)> = unmatched
            .chunk_by(|a, b| a.0 == b.0)
            .filter(|run| run.len() == 1)
            .map(|run| (run[0].2, side(run[0].0, run[0].2)))
            .collect();
        if open.is_empty() {
            return None;
        }
        open.sort_unstable();
        let mut corners: Vec<u32> = open
            .iter()
            .flat_map(|&(t, k)| {
                let tri = triangles[t as usize];
                [tri[k as usize], tri[(k as usize + 1) % 3]]
            })
            .collect();
        corners.sort_unstable();
        corners.dedup();
        let at = |v: u32| -> [f64; 3] { vertices[v as usize].into() };
        let OnEdges {
            mut on,
            largest_offset,
            offset_of,
        } = on_edges(vertices, triangles, &open, &corners)?;
        if on.is_empty() {
            return None;
        }
        let points = on.values().map(Vec::len).sum();
        for list in on.values_mut() {
            list.sort_by(|a, b| a.0.total_cmp(&b.0));
        }
        if !closed_once_split(triangles, &unmatched, &on) {
            return None;
        }
        let mut out = triangles.clone();
        let mut lines = self.lines.clone();
        let mut split_triangles: Vec<u32> = on.keys().map(|&(t, _)| t).collect();
        split_triangles.sort_unstable();
        split_triangles.dedup();
        for &t in &split_triangles {
            let tri = triangles[t as usize];
            // Each side's corners, as the triangle runs it.
            let sides: [Vec<u32>; 3] = std::array::from_fn(|k| {
                on.get(&(t, k as u8))
                    .map(|l| l.iter().map(|&(_, x)| x).collect())
                    .unwrap_or_default()
            });
            let mut pieces = Vec::new();
            split(tri, &sides, &mut pieces);
            out[t as usize] = pieces[0];
            for &piece in &pieces[1..] {
                out.push(piece);
                if let Some(&l) = self.lines.get(t as usize) {
                    lines.push(l);
                }
            }
        }
        let volume_bound = moved_volume_bound(&out, &offset_of, &at);
        let mesh = RawMesh {
            vertices: vertices
                .iter()
                .map(|p: &Point3<f64>| [p.x, p.y, p.z])
                .collect(),
            triangles: out,
            lines: if self.lines.is_empty() {
                Vec::new()
            } else {
                lines
            },
        };
        Some((
            mesh,
            Junctions {
                points,
                triangles: split_triangles.len(),
                largest_offset,
                volume_bound,
            },
        ))
    }
}

/// Each open edge's corners lying on it (within reach of its line, not of its ends), by
/// their place along it; the largest offset off the line, and each corner's.
struct OnEdges {
    on: HashMap<(u32, u8), Vec<(f64, u32)>>,
    largest_offset: f64,
    offset_of: HashMap<u32, f64>,
}

/// The side of triangle `t` (of `triangles`) that is the edge `key` (lower end in the high
/// half).
fn side_of(triangles: &[[u32; 3]], key: u64, t: u32) -> u8 {
    let tri = triangles[t as usize];
    let (lo, hi) = ((key >> 32) as u32, key as u32);
    (0..3)
        .find(|&k| {
            let (u, v) = (tri[k], tri[(k + 1) % 3]);
            (u.min(v), u.max(v)) == (lo, hi)
        })
        .map_or(0, |k| k as u8)
}

/// The `corners` of the `open` edges (triangle, side) found on those edges; `None` past
/// [`BUDGET_PER_EDGE`] candidates an edge.
fn on_edges(
    vertices: &[Point3<f64>],
    triangles: &[[u32; 3]],
    open: &[(u32, u8)],
    corners: &[u32],
) -> Option<OnEdges> {
    let at = |v: u32| -> [f64; 3] { vertices[v as usize].into() };
    let tree = RTree::bulk_load(
        corners
            .iter()
            .map(|&v| GeomWithData::new(at(v), v))
            .collect(),
    );
    let mut budget = BUDGET_PER_EDGE * open.len() + 4096;
    // Each open edge's corners on it, by their place along it.
    let mut on: HashMap<(u32, u8), Vec<(f64, u32)>> = HashMap::new();
    let mut largest_offset = 0.0_f64;
    // How far each corner found on an edge lies off its line.
    let mut offset_of: HashMap<u32, f64> = HashMap::new();
    for &(t, k) in open {
        let tri = triangles[t as usize];
        let (u, v, w) = (
            tri[k as usize],
            tri[(k as usize + 1) % 3],
            tri[(k as usize + 2) % 3],
        );
        let (p, q) = (at(u), at(v));
        let tol = crate::tolerance::reach(&[&[p, q, q]]);
        let lo = [0, 1, 2].map(|i| p[i].min(q[i]) - tol);
        let hi = [0, 1, 2].map(|i| p[i].max(q[i]) + tol);
        let d = sub(q, p);
        let length2 = dot(d, d);
        if length2.is_nan() || length2 <= 0.0 {
            continue;
        }
        for c in tree.locate_in_envelope_intersecting(&AABB::from_corners(lo, hi)) {
            budget = budget.checked_sub(1)?;
            let x = c.data;
            if x == u || x == v || x == w {
                continue;
            }
            let r = sub(*c.geom(), p);
            let s = dot(r, d) / length2;
            let foot = [0, 1, 2].map(|i| r[i] - s * d[i]);
            let offset = dot(foot, foot).sqrt();
            let to_end = s.min(1.0 - s) * length2.sqrt();
            if offset <= tol && to_end > tol {
                largest_offset = largest_offset.max(offset);
                let h = offset_of.entry(x).or_insert(0.0);
                *h = h.max(offset);
                on.entry((t, k)).or_default().push((s, x));
            }
        }
    }
    Some(OnEdges {
        on,
        largest_offset,
        offset_of,
    })
}

/// Whether the surface is closed once the sides in `on` are split: the unmatched uses left
/// (`unmatched`, see [`super::topology::unmatched_uses`]), with the split sides' pieces in
/// place of the sides (the edges between a triangle's pieces match each other), cancel
/// edge by edge. If not, the mesh is open for another reason too, and is left as it is.
fn closed_once_split(
    triangles: &[[u32; 3]],
    unmatched: &[(u64, i32, u32)],
    on: &HashMap<(u32, u8), Vec<(f64, u32)>>,
) -> bool {
    let key = |u: u32, v: u32| {
        (
            (u.min(v) as u64) << 32 | u.max(v) as u64,
            if u < v { 1 } else { -1 },
        )
    };
    let mut left: Vec<(u64, i32)> = unmatched
        .iter()
        .filter(|&&(k, _, t)| !on.contains_key(&(t, side_of(triangles, k, t))))
        .map(|&(k, dir, _)| (k, dir))
        .collect();
    for (&(t, k), list) in on {
        let tri = triangles[t as usize];
        let (u, v) = (tri[k as usize], tri[(k as usize + 1) % 3]);
        let chain: Vec<u32> = std::iter::once(u)
            .chain(list.iter().map(|&(_, x)| x))
            .chain(std::iter::once(v))
            .collect();
        left.extend(chain.windows(2).map(|w| key(w[0], w[1])));
    }
    left.sort_unstable_by_key(|e| e.0);
    !left
        .chunk_by(|a, b| a.0 == b.0)
        .any(|run| run.iter().map(|e| e.1).sum::<i32>() != 0)
}

/// At most how much the volume enclosed by `triangles` changes when each corner of
/// `moved` travels in a straight line by its distance: each triangle with a moving corner
/// sweeps at its corners' greatest speed over at most the area of its edges each grown by
/// twice that distance.
fn moved_volume_bound(
    triangles: &[[u32; 3]],
    moved: &HashMap<u32, f64>,
    at: &impl Fn(u32) -> [f64; 3],
) -> f64 {
    triangles
        .iter()
        .filter_map(|t| {
            let h = t
                .iter()
                .filter_map(|v| moved.get(v))
                .fold(0.0_f64, |m, &h| m.max(h));
            (h > 0.0).then(|| {
                let [a, b, c] = t.map(at);
                let (e1, e2) = (sub(b, a), sub(c, a));
                h * (dot(e1, e1).sqrt() + 2.0 * h) * (dot(e2, e2).sqrt() + 2.0 * h) / 2.0
            })
        })
        .sum()
}

/// Triangle `tri` cut at the corners on its sides (`sides[k]`: those on the side from
/// corner `k` to the next, in order along it) into pieces that keep its winding: fanned
/// from the corner opposite the first side that has any, each piece split again at the
/// corners on its own part of the other sides.
fn split(tri: [u32; 3], sides: &[Vec<u32>; 3], out: &mut Vec<[u32; 3]>) {
    let Some(k) = (0..3).find(|&k| !sides[k].is_empty()) else {
        out.push(tri);
        return;
    };
    let (a, b, c) = (tri[k], tri[(k + 1) % 3], tri[(k + 2) % 3]);
    let chain: Vec<u32> = std::iter::once(a)
        .chain(sides[k].iter().copied())
        .chain(std::iter::once(b))
        .collect();
    let last = chain.len() - 2;
    for (i, w) in chain.windows(2).enumerate() {
        // Piece (x, y, c): its side y→c is part of b→c only in the last piece, and its
        // side c→x part of c→a only in the first.
        let mut rest: [Vec<u32>; 3] = Default::default();
        if i == last {
            rest[1] = sides[(k + 1) % 3].clone();
        }
        if i == 0 {
            rest[2] = sides[(k + 2) % 3].clone();
        }
        split([w[0], w[1], c], &rest, out);
    }
}

fn sub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

#[cfg(test)]
mod tests {
    use super::{HashMap, RawMesh};

    /// Splits triangle `s` alone at the middle of its side `j` (a new point): the
    /// triangle across that side then has a T-junction there.
    fn junction(m: &mut RawMesh, s: usize, j: usize) {
        let [u, v, w] = [0, 1, 2].map(|i| m.triangles[s][(j + i) % 3]);
        let (p, q) = (m.vertices[u as usize], m.vertices[v as usize]);
        let x = m.vertices.len() as u32;
        m.vertices.push([0, 1, 2].map(|i| 0.5 * (p[i] + q[i])));
        m.triangles[s] = [u, x, w];
        m.triangles.push([x, v, w]);
    }

    /// A unit cube whose top face is cut at the middle of its back edge (vertex 8, at
    /// (0.5, 1, 1)), the back face's triangle 6 not: a T-junction.
    fn cube_with_junction() -> RawMesh {
        let mut m = crate::mesh::test_meshes::cuboid([0.0; 3], [1.0; 3]);
        // The top's triangle 3 runs the back edge from (1, 1, 1) to (0, 1, 1).
        junction(&mut m, 3, 1);
        m
    }

    #[test]
    fn a_corner_on_an_open_edge_splits_its_triangle() {
        let raw = cube_with_junction();
        assert!(crate::soup::general::build(&raw, false).0.is_err());
        let (split, found) = raw.split_at_junctions().unwrap();
        assert_eq!((found.points, found.triangles), (1, 1));
        assert_eq!(found.largest_offset, 0.0);
        assert_eq!(split.triangles.len(), 14);
        let mesh = crate::Mesh::new(&split).unwrap();
        let p = mesh.tetra_integral().unwrap();
        assert_eq!(p.volume, 1.0);
        // The one path splits it too, and records the split with its bound.
        let repaired = crate::Mesh::new(&raw).unwrap();
        assert_eq!(repaired.repairs().junctions, Some(found));
        assert_eq!(repaired.tetra_integral().unwrap().volume, 1.0);
    }

    #[test]
    fn corners_on_every_side_of_one_triangle() {
        // A tetrahedron whose base is one triangle, its sides cut at points of its
        // base's three edges (two on one): the base is split at all four.
        let h = 1.0;
        let mut vertices = vec![
            [0.0, 0.0, 0.0],
            [4.0, 0.0, 0.0],
            [0.0, 4.0, 0.0],
            [1.0, 1.0, h],
        ];
        // On the base's edges: 0→1 at x = 1 and 3; 1→2 at the middle; 2→0 at y = 2.
        vertices.extend([
            [1.0, 0.0, 0.0],
            [3.0, 0.0, 0.0],
            [2.0, 2.0, 0.0],
            [0.0, 2.0, 0.0],
        ]);
        let triangles = vec![
            // The base, facing down.
            [0, 2, 1],
            // The sides, each split at the points on its bottom edge.
            [0, 4, 3],
            [4, 5, 3],
            [5, 1, 3],
            [1, 6, 3],
            [6, 2, 3],
            [2, 7, 3],
            [7, 0, 3],
        ];
        let raw = RawMesh {
            vertices,
            triangles,
            lines: vec![],
        };
        let (split, found) = raw.split_at_junctions().unwrap();
        assert_eq!((found.points, found.triangles), (4, 1));
        assert_eq!(split.triangles.len(), 8 + 4);
        let mesh = crate::Mesh::new(&split).unwrap();
        assert_eq!(mesh.degenerate_count(), 0);
        let p = mesh.tetra_integral().unwrap();
        assert!((p.volume - 16.0 / 6.0).abs() < 1e-15, "{}", p.volume);
    }

    #[test]
    fn a_corner_off_the_edge_or_near_its_end_is_no_junction() {
        let mut raw = cube_with_junction();
        // A dent of 1e-2: a real gap, beyond a repair's reach (a thousandth of the edge).
        raw.vertices[8] = [0.5, 1.0 + 1e-2, 1.0];
        assert!(raw.split_at_junctions().is_none());
        // A corner next to the edge's end is a gap to weld.
        raw.vertices[8] = [1e-17, 1.0, 1.0];
        assert!(raw.split_at_junctions().is_none());
        // A closed mesh has no open edge.
        let closed = crate::shape::Shape3d::Box { size: [1.0; 3] }.tessellate(0);
        assert!(closed.split_at_junctions().is_none());
    }

    #[test]
    fn lines_follow_the_pieces() {
        let mut raw = cube_with_junction();
        raw.lines = (10..23).collect();
        let (split, _) = raw.split_at_junctions().unwrap();
        assert_eq!(split.lines.len(), split.triangles.len());
        // The back face's triangle 6 (line 16) is the split one: its second piece comes
        // last, with its line.
        assert_eq!(split.lines[13], 16);
    }

    /// Random edges of closed meshes (spheres, cylinders, lenses; near the origin or 1e6
    /// away) each get a point at their middle, with only the triangle on one side split
    /// there: a T-junction. Split at them, the meshes give back their integrals.
    #[test]
    fn t_junctions_made_on_closed_meshes_give_back_their_integrals() {
        use crate::shape::Shape3d;
        use crate::test_rng::Lcg;
        let mut rng = Lcg(21);
        let shapes = [
            Shape3d::Sphere { radius: 1.0 },
            Shape3d::Cylinder {
                radius: 1.0,
                height: 3.0,
            },
            Shape3d::Biconvex {
                width: 2.0,
                height: 0.8,
            },
        ];
        for case in 0..60 {
            let mut m = shapes[case % 3].tessellate(8 + rng.below(24) as usize);
            let far = if case % 2 == 0 { 0.0 } else { 1e6 };
            for v in &mut m.vertices {
                v[0] += far;
                v[2] -= 2.0 * far;
            }
            let before = crate::Mesh::new(&m).unwrap().tetra_integral().unwrap();
            // Each directed edge's triangle, to find the one across.
            let mut by_edge = HashMap::new();
            for (t, tri) in m.triangles.iter().enumerate() {
                for k in 0..3 {
                    by_edge.insert((tri[k], tri[(k + 1) % 3]), (t, k));
                }
            }
            let mut used = vec![false; m.triangles.len()];
            let mut made = 0;
            for t in 0..m.triangles.len() {
                let k = rng.below(3) as usize;
                let (u, v) = (m.triangles[t][k], m.triangles[t][(k + 1) % 3]);
                let Some(&(s, j)) = by_edge.get(&(v, u)) else {
                    continue;
                };
                if used[t] || used[s] || rng.below(5) > 0 {
                    continue;
                }
                (used[t], used[s]) = (true, true);
                // Triangle s runs v → u at its side j: split there at the middle.
                junction(&mut m, s, j);
                made += 1;
            }
            assert!(made > 0);
            let as_written = crate::soup::general::build(&m, false).0;
            assert!(as_written.is_err(), "{case}: open edge to edge");
            let (split, found) = m.split_at_junctions().unwrap();
            assert_eq!((found.points, found.triangles), (made, made), "{case}");
            let after = crate::Mesh::new(&split).unwrap().tetra_integral().unwrap();
            let scale = before.volume.abs();
            let rel = if far > 0.0 { 1e-9 } else { 1e-12 };
            assert!(
                (after.volume - before.volume).abs() <= rel * scale,
                "{case}"
            );
            for i in 0..3 {
                assert!(
                    (after.centroid[i] - before.centroid[i]).abs() <= 1e-15 * (1.0 + far) + 1e-12,
                    "{case}"
                );
                for k in 0..3 {
                    let d = (after.inertia[(i, k)] - before.inertia[(i, k)]).abs();
                    assert!(d <= 10.0 * rel * before.inertia.norm(), "{case}: {d}");
                }
            }
        }
    }
}
