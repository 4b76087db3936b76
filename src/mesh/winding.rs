//! Windings repaired: a closed surface with some triangles' corners listed the other way
//! round (an exporter's slip, a hand-edited file) is refused by the edge check as
//! inconsistently wound, though its triangles bound a solid. Across every edge that two
//! triangles share, a consistent surface runs the edge once each way; so each connected
//! surface has one orientation up to turning it all over, found by walking across such
//! edges from any triangle. The triangles that disagree with it are turned, the fewer of
//! the two ways (the file's own majority is kept, and with it which shells are bodies and
//! which cavities), and the mesh is checked again from the start. This moves no point:
//! the surface, and so the solid it bounds, is the file's; only the labels are mended. A
//! surface that cannot be oriented (a Möbius band's walk meets itself turned over) is left
//! as it is, and refused.

use super::RawMesh;
use std::collections::HashMap;

impl RawMesh {
    /// The mesh with every triangle that disagrees with its surface's orientation turned
    /// (see the module), and how many were; `None` when none need turning or a surface
    /// cannot be oriented.
    pub(crate) fn reoriented(&self) -> Option<(RawMesh, usize)> {
        let welded = crate::soup::general::weld_raw(self).ok()?;
        let triangles = &welded.triangles;
        let n = triangles.len();
        // Each undirected edge's uses: (triangle, whether it runs low → high).
        let mut uses: HashMap<(u32, u32), Vec<(u32, bool)>> = HashMap::with_capacity(3 * n / 2);
        for (t, tri) in triangles.iter().enumerate() {
            if tri[0] == tri[1] || tri[1] == tri[2] || tri[2] == tri[0] {
                continue;
            }
            for k in 0..3 {
                let (u, v) = (tri[k], tri[(k + 1) % 3]);
                uses.entry((u.min(v), u.max(v)))
                    .or_default()
                    .push((t as u32, u < v));
            }
        }
        // Neighbours across edges that exactly two triangles share: (other, whether the
        // two run the edge the same way, which a consistent pair does not).
        let mut across: Vec<Vec<(u32, bool)>> = vec![Vec::new(); n];
        for list in uses.values() {
            if let [(a, da), (b, db)] = list[..] {
                across[a as usize].push((b, da == db));
                across[b as usize].push((a, da == db));
            }
        }
        // Walk each surface: `turn[t]` relative to the surface's first triangle.
        let mut turn: Vec<Option<bool>> = vec![None; n];
        let mut flip = vec![false; n];
        let mut count = 0;
        let mut queue = Vec::new();
        for start in 0..n {
            if turn[start].is_some() {
                continue;
            }
            turn[start] = Some(false);
            queue.push(start as u32);
            let mut members = vec![start as u32];
            while let Some(t) = queue.pop() {
                let mine = turn[t as usize].unwrap_or(false);
                for &(o, same) in &across[t as usize] {
                    let want = mine ^ same;
                    match turn[o as usize] {
                        None => {
                            turn[o as usize] = Some(want);
                            queue.push(o);
                            members.push(o);
                        }
                        Some(w) if w != want => return None,
                        Some(_) => {}
                    }
                }
            }
            let turned = members
                .iter()
                .filter(|&&t| turn[t as usize] == Some(true))
                .count();
            // Keep the majority's way round.
            let minority = turned * 2 > members.len();
            for &t in &members {
                let f = turn[t as usize] == Some(true);
                flip[t as usize] = f != minority;
            }
            count += if minority {
                members.len() - turned
            } else {
                turned
            };
        }
        if count == 0 {
            return None;
        }
        let mut out = self.clone();
        for (t, tri) in out.triangles.iter_mut().enumerate() {
            if flip[t] {
                tri.swap(1, 2);
            }
        }
        Some((out, count))
    }
}

#[cfg(test)]
mod tests {
    use crate::mesh::test_meshes::cuboid;

    #[test]
    fn a_triangle_listed_the_other_way_round_is_turned_back() {
        let cube = cuboid([1e6, -2e6, 3.5], [1.0, 2.0, 3.0]);
        for t in [0, 5, 11] {
            let mut bad = cube.clone();
            bad.triangles[t].swap(0, 1);
            assert!(crate::soup::general::build(&bad, false).0.is_err());
            assert_eq!(
                crate::Mesh::new(&bad).unwrap().repairs().reoriented,
                Some(1)
            );
            let (fixed, count) = bad.reoriented().unwrap();
            assert_eq!(count, 1);
            // The same triangles, each the same way round (its corners perhaps rotated).
            let turn = |t: [u32; 3]| [t[1], t[2], t[0]];
            assert!(
                fixed
                    .triangles
                    .iter()
                    .zip(&cube.triangles)
                    .all(|(&a, &b)| a == b || turn(a) == b || turn(turn(a)) == b),
                "{:?}",
                fixed.triangles
            );
        }
        // Most of them turned: the majority is kept (the whole cube inside out, but one).
        let mut most = cube.clone();
        for t in most.triangles.iter_mut().skip(1) {
            t.swap(1, 2);
        }
        let (fixed, count) = most.reoriented().unwrap();
        assert_eq!(count, 1);
        assert!(
            fixed
                .triangles
                .iter()
                .zip(&cube.triangles)
                .all(|(a, b)| a[0] == b[0] && a[1] == b[2] && a[2] == b[1])
        );
        // A consistent mesh needs nothing.
        assert!(cube.reoriented().is_none());
    }

    #[test]
    fn a_moebius_band_cannot_be_oriented() {
        // A band of 6 quads whose ends join with a half twist.
        let n = 6;
        let mut vertices = Vec::new();
        for i in 0..n {
            let a = std::f64::consts::TAU * i as f64 / n as f64;
            let h = a / 2.0;
            let (s, c) = a.sin_cos();
            for w in [-0.3, 0.3] {
                let r = 2.0 + w * h.cos();
                vertices.push([r * c, r * s, w * h.sin()]);
            }
        }
        let mut triangles = Vec::new();
        for i in 0..n {
            let (a, b) = (2 * i as u32, 2 * i as u32 + 1);
            let (c, d) = if i + 1 < n {
                (2 * (i as u32 + 1), 2 * (i as u32 + 1) + 1)
            } else {
                (1, 0)
            };
            triangles.push([a, c, b]);
            triangles.push([b, c, d]);
        }
        let band = crate::RawMesh {
            vertices,
            triangles,
            lines: vec![],
        };
        assert!(band.reoriented().is_none());
    }
}
