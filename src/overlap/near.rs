//! Bodies at one spot, or nearly: copies of a part placed over one another, checked two at
//! a time before the whole.
//!
//! A file of many copies of a part at one spot, or each a hair from the last, has every
//! triangle lying on, or crossing, those of every other copy: the pairs that really meet
//! grow with the square of the copies, and the whole search lists them all before it
//! judges them (faces lying on each other may be a face folded over itself, which only
//! the whole face can tell). Any two of those copies overlap already. So, when a file has
//! more than two bodies, the bodies (groups of triangles joined through shared points)
//! are sorted by their boxes, and each is checked with the next one when their boxes
//! coincide but for less than [`NEAR`] of the thinner one's thickness (three times its
//! volume over its area) on every axis: two bodies, a search of their own triangles only.
//! Needles side by side, whose diagonal boxes nearly coincide, are farther apart than
//! their thickness and are left to the whole search. The first two found overlapping are the answer; if none
//! are, the whole search runs as it would have, so nothing found changes, only how soon a
//! refusal comes. At most one check per body, of two bodies each: linear in the
//! triangles, whatever the copies.

use super::{Mode, Overlap, check, doubled_faces};
use crate::body::BoundingBox;
use crate::soup::{Groups, Point, Soup, VertexSoup};
use crate::union_find::UnionFind;

/// How near two bodies' boxes must be, per axis, as a share of the thinner body's
/// thickness, to be checked on their own first.
pub(super) const NEAR: f64 = 0.25;

/// The pieces of surface of a soup whose corners are numbered `ids` and whose triangles
/// have the neighbours `nbr` across their edges (three a triangle, `nbr.len() / 3` or more
/// for none or many): the triangles joined across every edge they share, labelled in order
/// of first appearance. Bodies that share only points (copies of a part at one corner) are
/// pieces of their own, and every face around an edge, or in a fan around a point, lies in
/// one piece, so that a search of two pieces judges them as the whole search would.
pub(super) fn groups(ids: &[u32], nbr: &[u32]) -> Groups {
    let n = nbr.len() / 3;
    let mut pieces = UnionFind::new(n);
    // Edges that join exactly two, from `nbr`; the others (more faces, or one) sorted.
    let mut others: Vec<(u32, u32, u32)> = Vec::new();
    for (k, &o) in nbr.iter().enumerate() {
        let t = (k / 3) as u32;
        if (o as usize) < n {
            if o < t {
                pieces.union(t, o);
            }
        } else {
            let (a, b) = (ids[k], ids[3 * (k / 3) + (k + 1) % 3]);
            others.push((a.min(b), a.max(b), t));
        }
    }
    others.sort_unstable();
    for w in others.windows(2) {
        if (w[0].0, w[0].1) == (w[1].0, w[1].1) {
            pieces.union(w[0].2, w[1].2);
        }
    }
    let (labels, count) = pieces.labels(0..n as u32);
    Groups {
        labels,
        count,
        meets: None,
    }
}

/// The first two bodies of `groups` found overlapping by a search of their own triangles,
/// among the pairs next to each other in the order of their boxes whose boxes are near;
/// `None` when no such pair overlaps (or there are two bodies or fewer: then the whole
/// search is this search).
pub(super) fn first<S: Soup>(soup: &S, groups: &Groups, mode: Mode) -> Option<Overlap> {
    if groups.count <= 2 {
        return None;
    }
    let n = soup.len();
    let mut boxes = vec![BoundingBox::empty(); groups.count];
    // Each body's triangles, in input order (a counting sort of the labels).
    let mut starts = vec![0usize; groups.count + 1];
    for &g in &groups.labels {
        if g != Groups::NONE {
            starts[g as usize + 1] += 1;
        }
    }
    for g in 0..groups.count {
        starts[g + 1] += starts[g];
    }
    let mut members = vec![0u32; starts[groups.count]];
    let mut next = starts.clone();
    // Each body's area and signed volume (about its first corner), for its thickness.
    let mut origin: Vec<Option<[f64; 3]>> = vec![None; groups.count];
    let mut measure = vec![(0.0f64, 0.0f64); groups.count];
    for t in 0..n {
        let g = groups.labels[t];
        if g == Groups::NONE {
            continue;
        }
        let g = g as usize;
        members[next[g]] = t as u32;
        next[g] += 1;
        let c = soup.triangle(t).map(|p| p.coords());
        for p in &c {
            boxes[g].include(p);
        }
        let o = *origin[g].get_or_insert(c[0]);
        let [u, v, w] = c.map(|p| [p[0] - o[0], p[1] - o[1], p[2] - o[2]]);
        let cross = |a: [f64; 3], b: [f64; 3]| {
            [
                a[1] * b[2] - a[2] * b[1],
                a[2] * b[0] - a[0] * b[2],
                a[0] * b[1] - a[1] * b[0],
            ]
        };
        let e = cross(
            [v[0] - u[0], v[1] - u[1], v[2] - u[2]],
            [w[0] - u[0], w[1] - u[1], w[2] - u[2]],
        );
        let vw = cross(v, w);
        measure[g].0 += (e[0] * e[0] + e[1] * e[1] + e[2] * e[2]).sqrt() / 2.0;
        measure[g].1 += (u[0] * vw[0] + u[1] * vw[1] + u[2] * vw[2]) / 6.0;
    }
    // How thick each body is: three times its volume over its area (a ball's radius, half
    // a cube's side, a needle's width), 0 for a surface that encloses nothing.
    let thickness = |g: usize| {
        let (area, volume) = measure[g];
        if area > 0.0 {
            3.0 * volume.abs() / area
        } else {
            0.0
        }
    };
    let mut order: Vec<usize> = (0..groups.count)
        .filter(|&g| starts[g + 1] > starts[g])
        .collect();
    order.sort_by(|&a, &b| {
        let key = |g: usize| [boxes[g].min, boxes[g].max].concat();
        key(a)
            .partial_cmp(&key(b))
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    order.windows(2).find_map(|w| {
        let (a, b) = (w[0], w[1]);
        if !near(&boxes[a], &boxes[b], thickness(a).min(thickness(b))) {
            return None;
        }
        let of = |g: usize| &members[starts[g]..starts[g + 1]];
        let both: Vec<u32> = of(a).iter().chain(of(b)).copied().collect();
        let corners: Vec<[f64; 3]> = both
            .iter()
            .flat_map(|&t| soup.triangle(t as usize).map(|p| p.coords()))
            .collect();
        let two = VertexSoup(&corners);
        let found = match mode {
            Mode::Solid => check(&two).err(),
            Mode::Sheet => doubled_faces(&two),
        }?;
        // Numbered back in the file's order.
        let (x, y) = (both[found.first] as usize, both[found.second] as usize);
        Some(Overlap {
            first: x.min(y),
            second: x.max(y),
            kind: found.kind,
        })
    })
}

/// Whether two bodies' boxes coincide but for less than [`NEAR`] of their `thickness` on
/// every axis: copies closer than that lie mostly in each other, where needles side by
/// side, whose diagonal boxes nearly coincide, lie apart.
fn near(a: &BoundingBox, b: &BoundingBox, thickness: f64) -> bool {
    (0..3).all(|k| {
        let gap = (a.min[k] - b.min[k]).abs().max((a.max[k] - b.max[k]).abs());
        gap <= NEAR * thickness
    })
}

#[cfg(test)]
mod tests {
    use crate::overlap::{Kind, check};
    use crate::soup::VertexSoup;

    /// A cube of `size` from `at`, outward, as a soup.
    fn cube(at: [f64; 3], size: f64) -> Vec<[f64; 3]> {
        let raw = crate::mesh::test_meshes::cuboid(at, [size; 3]);
        raw.triangles
            .iter()
            .flat_map(|t| t.map(|v| raw.vertices[v as usize]))
            .collect()
    }

    #[test]
    fn copies_a_hair_apart_are_refused_as_the_whole_search_refuses_them() {
        let copies: Vec<[f64; 3]> = (0..100)
            .flat_map(|k| cube([k as f64 * 1e-4, 0.0, 0.0], 1.0))
            .collect();
        let o = crate::overlap::search(
            &VertexSoup(&copies),
            crate::overlap::Settings::FULL,
            crate::overlap::Mode::Solid,
        )
        .unwrap_err();
        assert!(o.first < o.second && o.second < 100 * 12);
        assert!(
            matches!(o.kind, Kind::Coincide(_) | Kind::Cross(_)),
            "{o:?}"
        );
        // Cubes of sizes a thousandth apart, nested at one corner.
        let nested: Vec<[f64; 3]> = (0..100)
            .flat_map(|k| cube([0.0; 3], 1.0 + k as f64 * 1e-3))
            .collect();
        assert!(check(&VertexSoup(&nested)).is_err());
    }

    #[test]
    fn bodies_near_but_apart_are_left_to_the_whole_search() {
        // A row of cubes touching face to face, and copies well apart: nothing overlaps.
        let row: Vec<[f64; 3]> = (0..50)
            .flat_map(|k| cube([k as f64, 0.0, 0.0], 1.0))
            .chain((0..50).flat_map(|k| cube([k as f64 * 3.0, 5.0, 0.0], 1.0)))
            .collect();
        assert!(check(&VertexSoup(&row)).is_ok());
        // Unit cubes are half a unit thick: a tenth apart is near, a whole side is not.
        let b = |min, max| crate::body::BoundingBox { min, max };
        let unit = b([0.0; 3], [1.0; 3]);
        assert!(!super::near(
            &unit,
            &b([1.0, 0.0, 0.0], [2.0, 1.0, 1.0]),
            0.5
        ));
        assert!(super::near(
            &unit,
            &b([0.1, 0.0, 0.0], [1.1, 1.0, 1.0]),
            0.5
        ));
    }
}
