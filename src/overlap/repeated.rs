//! Faces written twice: two triangles on the same three points.
//!
//! Two triangles of a closed surface on the same three points, listed the same way round,
//! face the same way over the same area: one face written twice, whose solid counts twice
//! (`cat cube.stl cube.stl`). No arithmetic decides it, only the weld's point numbers, so
//! it is settled before any pair is tested, in time linear in the triangles that could be
//! such a pair: a triangle written twice has its edges used four times or more, so only
//! triangles with an edge that has no single face across it are looked at (none on a
//! mesh every edge of which joins two faces). A thousand copies of a part at one spot are
//! then refused at the first two, not after a million pairs that lie on each other. For
//! a thin wall, the same three points listed either way round are a sheet written twice.

use super::{Kind, Mode, Overlap};
use crate::soup::{Point, Soup};

/// The first two triangles (in input order of the second) on the same three points, the
/// same way round (either way for [`Mode::Sheet`]); `nbr[3t + k]` is the face across edge
/// `k` of triangle `t`, or at least the triangle count when it has none or several.
pub(super) fn first<S: Soup>(soup: &S, ids: &[u32], nbr: &[u32], mode: Mode) -> Option<Overlap> {
    let n = soup.len();
    let mut seen = std::collections::HashMap::new();
    for t in (0..n).filter(|&t| (0..3).any(|k| nbr[3 * t + k] as usize >= n)) {
        let h = [ids[3 * t], ids[3 * t + 1], ids[3 * t + 2]];
        if h[0] == h[1] || h[1] == h[2] || h[2] == h[0] {
            continue;
        }
        // The corners from the lowest point on, in their order round the triangle.
        let m = (0..3).min_by_key(|&k| h[k]).unwrap_or(0);
        let key = [h[m], h[(m + 1) % 3], h[(m + 2) % 3]];
        let reversed = [key[0], key[2], key[1]];
        let earlier = seen.get(&key).copied().or_else(|| match mode {
            Mode::Sheet => seen.get(&reversed).copied(),
            Mode::Solid => None,
        });
        if let Some(s) = earlier {
            let at = centroid(soup, t);
            let kind = match mode {
                Mode::Solid => Kind::Coincide(at),
                Mode::Sheet => Kind::Doubled(at),
            };
            return Some(Overlap {
                first: s,
                second: t,
                kind,
            });
        }
        seen.insert(key, t);
    }
    None
}

/// The centroid of triangle `t`.
fn centroid<S: Soup>(soup: &S, t: usize) -> [f64; 3] {
    let c = soup.triangle(t).map(|p| p.coords());
    std::array::from_fn(|a| (c[0][a] + c[1][a] + c[2][a]) / 3.0)
}

#[cfg(test)]
mod tests {
    use crate::overlap::{Kind, check, doubled_faces};
    use crate::soup::VertexSoup;

    /// A unit cube's twelve triangles from `at`, outward, as a soup.
    fn cube(at: [f64; 3]) -> Vec<[f64; 3]> {
        let raw = crate::mesh::test_meshes::cuboid(at, [1.0; 3]);
        raw.triangles
            .iter()
            .flat_map(|t| t.map(|v| raw.vertices[v as usize]))
            .collect()
    }

    #[test]
    fn copies_at_one_spot_are_refused_at_the_first_two() {
        let one = cube([1e6, -2e6, 3.0]);
        let many: Vec<[f64; 3]> = (0..500).flat_map(|_| one.iter().copied()).collect();
        let o = check(&VertexSoup(&many)).unwrap_err();
        assert_eq!((o.first, o.second), (0, 12));
        assert!(matches!(o.kind, Kind::Coincide(_)));
        // As a thin wall, the same.
        let o = doubled_faces(&VertexSoup(&many)).unwrap();
        assert_eq!((o.first, o.second), (0, 12));
    }

    #[test]
    fn faces_back_to_back_are_no_copy_of_a_solid_but_a_sheet_twice() {
        // Two cubes face to face on the same triangles, run opposite ways: touching.
        let a = cube([0.0; 3]);
        let b: Vec<[f64; 3]> = a.iter().map(|p| [p[0] + 1.0, p[1], p[2]]).collect();
        let both = [a.clone(), b].concat();
        assert!(check(&VertexSoup(&both)).is_ok());
        // One triangle and its reverse, as walls: the same sheet twice.
        let sheet = [a[0], a[1], a[2], a[0], a[2], a[1]];
        let o = doubled_faces(&VertexSoup(&sheet)).unwrap();
        assert!(matches!(o.kind, Kind::Doubled(_)));
    }
}
