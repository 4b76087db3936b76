//! Faces lying on one another, whichever way they face: what counts a thin wall twice.
//!
//! A closed body may touch another face to face (the faces facing opposite ways), and may
//! cross nothing. A surface integrated as a thin wall (`--shell`) need be neither closed
//! nor consistently wound, and two walls crossing share only a sliver of the order of the
//! thickness squared (the thin-wall approximation neglects as much). What does count
//! twice is area: a sheet written twice (the same triangles again, either way round), or
//! two faces overlapping in one plane. Those pairs are found by the same search as
//! crossings ([`super::check`]: a grid or an R*-tree over the boxes, patches that cannot
//! overlap themselves, flat patches checked as a whole), with another test for each pair:
//! a floating-point filter with a rigorous bound for the many pairs that are plainly not
//! coplanar, then exact `orient3d`, and the separating-axis test on the edge lines in the
//! common plane (`orient2d`), both from `robust`.

use super::{Mode, Overlap, Settings, search, search_welded};
use crate::soup::{Soup, Welded};

/// The first pair of non-degenerate triangles (lowest first, then lowest second) that lie
/// in one plane with overlapping interiors, facing either way, or `None`. Triangles that
/// merely share an edge or a corner, on either side of it, do not overlap.
///
/// # Examples
/// ```
/// use inertia::details::doubled_faces;
/// use inertia::error::OverlapKind as Kind;
/// use inertia::details::VertexSoup;
/// // A square sheet of two triangles, and the same sheet again turned over.
/// let sheet = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 1.0, 0.0],
///              [0.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, 0.0]];
/// assert_eq!(doubled_faces(&VertexSoup(&sheet)), None);
/// let flipped: Vec<[f64; 3]> = sheet.chunks(3).flat_map(|t| [t[0], t[2], t[1]]).collect();
/// let twice = [sheet.to_vec(), flipped].concat();
/// let o = doubled_faces(&VertexSoup(&twice)).unwrap();
/// assert_eq!((o.first, o.second), (0, 2));
/// assert!(matches!(o.kind, Kind::Doubled(_)));
/// ```
pub fn doubled_faces<S: Soup>(soup: &S) -> Option<Overlap> {
    search(soup, Settings::FULL, Mode::Sheet).err()
}

/// [`doubled_faces`] on a soup whose corners are welded already.
pub(crate) fn doubled_faces_welded<S: Soup>(soup: &S, welded: Welded) -> Option<Overlap> {
    search_welded(soup, welded, Settings::FULL, Mode::Sheet).err()
}

#[cfg(test)]
mod tests {
    use super::{Mode, Settings, doubled_faces, search};
    use crate::soup::VertexSoup;

    /// An n × n grid of unit squares in the plane z = x + 2y (a tilted sheet, so that
    /// the plane is not a coordinate plane), two triangles each.
    fn tilted_grid(n: usize) -> Vec<[f64; 3]> {
        let p = |x: usize, y: usize| {
            let (x, y) = (x as f64, y as f64);
            [x, y, x + 2.0 * y]
        };
        let mut out = Vec::new();
        for x in 0..n {
            for y in 0..n {
                out.extend([p(x, y), p(x + 1, y), p(x + 1, y + 1)]);
                out.extend([p(x, y), p(x + 1, y + 1), p(x, y + 1)]);
            }
        }
        out
    }

    #[test]
    fn a_sheet_alone_and_its_neighbours_are_not_doubled() {
        assert_eq!(doubled_faces(&VertexSoup(&tilted_grid(6))), None);
    }

    #[test]
    fn a_sheet_twice_either_way_round_is_doubled() {
        let sheet = tilted_grid(4);
        let flipped: Vec<[f64; 3]> = sheet.chunks(3).flat_map(|t| [t[0], t[2], t[1]]).collect();
        for second in [sheet.clone(), flipped] {
            let twice = [sheet.clone(), second].concat();
            let o = doubled_faces(&VertexSoup(&twice)).unwrap();
            assert_eq!((o.first, o.second), (0, 32));
        }
    }

    #[test]
    fn a_triangle_overlapping_part_of_a_sheet_is_doubled_and_one_beside_it_is_not() {
        let sheet = tilted_grid(3);
        let p = |x: f64, y: f64| [x, y, x + 2.0 * y];
        // Over the middle of the grid's square (1, 1): overlaps two of its triangles.
        let over = [p(1.25, 1.25), p(1.75, 1.25), p(1.5, 1.75)];
        let found = doubled_faces(&VertexSoup(&[sheet.clone(), over.to_vec()].concat()));
        assert_eq!(found.map(|o| o.second), Some(18));
        // Outside the grid, sharing only its edge x = 3: touches, does not overlap.
        let beside = [p(3.0, 0.0), p(4.0, 0.0), p(3.0, 1.0)];
        assert_eq!(
            doubled_faces(&VertexSoup(&[sheet.clone(), beside.to_vec()].concat())),
            None
        );
        // Just off the plane (by one unit in the last place of z): crosses, not doubled.
        let off = over.map(|q| [q[0], q[1], q[2].next_up()]);
        assert_eq!(
            doubled_faces(&VertexSoup(&[sheet, off.to_vec()].concat())),
            None
        );
    }

    #[test]
    fn patches_change_nothing() {
        // Fans (a flat patch checked as a whole) doubled, half-doubled and beside each other.
        let fan = |cx: f64, k: usize, flip: bool| -> Vec<[f64; 3]> {
            let rim = |i: usize| {
                let a = std::f64::consts::TAU * i as f64 / k as f64;
                [cx + a.cos(), a.sin(), 0.5 * (cx + a.cos())]
            };
            (0..k)
                .flat_map(|i| {
                    let (b, c) = (rim(i), rim(i + 1));
                    let o = [cx, 0.0, 0.5 * cx];
                    if flip { [o, c, b] } else { [o, b, c] }
                })
                .collect()
        };
        let cases = [
            fan(0.0, 40, false),
            [fan(0.0, 40, false), fan(0.0, 40, true)].concat(),
            [fan(0.0, 40, false), fan(0.5, 40, false)].concat(),
            [fan(0.0, 40, false), fan(2.0, 40, true)].concat(),
            [fan(0.0, 40, false), tilted_grid(3)].concat(),
        ];
        let mut found = Vec::new();
        for s in &cases {
            let run = |p| {
                search(&VertexSoup(s), p, Mode::Sheet)
                    .err()
                    .map(|o| (o.first, o.second))
            };
            let never = run(Settings {
                patches: false,
                ..Settings::FULL
            });
            assert_eq!(run(Settings::FULL), never);
            found.push(never.is_some());
        }
        assert_eq!(found, [false, true, true, false, false]);
    }
}
