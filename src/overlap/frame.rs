//! A turned frame for the broad phase, for a crowd of parallel slivers.
//!
//! Boxes are aligned with the coordinate axes. Needles or struts lying along a diagonal
//! (a bundle of thin rods along (1, 1, 1), lattice infill, hair) have boxes as wide as they
//! are long, so that nearly every box meets every other one, though no two triangles come
//! near each other: the pairs, and the time, grow with the square of the triangles. Seen in
//! a frame whose first axis runs along the slivers, the same boxes are as thin as the
//! slivers, and the grid separates them again.
//!
//! Any linear map keeps what the broad phase needs: if two triangles meet at a point `x`,
//! their images under the map both hold the image of `x`, so their boxes (of the images of
//! their corners) meet. The turned corners are computed in `f64` and every box is widened
//! by a bound on that rounding before it is rounded outward to `f32`, so the boxes hold the
//! exact images; the map itself need not be exactly a rotation. The narrow phase still
//! reads the file's own coordinates.

use super::Tri;
use super::grid::Grid;
use crate::body::BoundingBox;
use crate::boxes::{down, up};
use crate::soup::{Point, Soup};
use nalgebra::Matrix3;
use rayon::prelude::*;

/// The pairs within the grid's cells, and whether they are a crowd
/// ([`crowded`](crate::boxes::crowded)).
pub(super) fn pairs(grid: &Grid) -> (u64, bool) {
    crate::boxes::crowded(grid.starts())
}

/// The frame whose first axis runs along most of the broad phase's triangles
/// ([`along_slivers`](crate::boxes::along_slivers)), as rows.
pub(super) fn along_slivers<S: Soup>(soup: &S, tris: &[Tri]) -> Option<Matrix3<f64>> {
    crate::boxes::along_slivers(tris.len(), |t| {
        tris[t]
            .in_grid()
            .then(|| soup.triangle(t).map(|p| p.coords()))
    })
}

/// Sets each listed triangle's box to the box of its corners turned by `frame`, widened by
/// the rounding of the turn and rounded outward to `f32`.
pub(super) fn turn<S: Soup>(soup: &S, tris: &mut [Tri], frame: &Matrix3<f64>) {
    tris.par_iter_mut()
        .with_min_len(1 << 12)
        .enumerate()
        .filter(|(_, t)| t.in_grid())
        .for_each(|(t, tri)| {
            let c = soup.triangle(t).map(|p| p.coords());
            let mut b = BoundingBox::empty();
            for p in &c {
                let (x, err) = crate::boxes::turn(frame, p);
                b.include(&[0, 1, 2].map(|k| x[k] - err[k]));
                b.include(&[0, 1, 2].map(|k| x[k] + err[k]));
            }
            tri.lo = b.min.map(down);
            tri.hi = b.max.map(up);
        });
}

#[cfg(test)]
mod tests {
    use super::super::{Kind, Mode, Overlap, Settings, Stats, check, search};
    use crate::soup::VertexSoup;

    /// `n` needles (triangular prisms 10 long, 1e-3 across) along (1, 1, 1), 0.01 apart,
    /// as a triangle soup, outward.
    fn bundle(n: usize) -> Vec<[f64; 3]> {
        let s3 = 3f64.sqrt();
        let (s2, s6) = (2f64.sqrt(), 6f64.sqrt());
        let d = [1.0 / s3; 3];
        let u = [1.0 / s2, -1.0 / s2, 0.0];
        let v = [1.0 / s6, 1.0 / s6, -2.0 / s6];
        let side = (n as f64).sqrt().ceil() as usize;
        let mut out = Vec::new();
        for k in 0..n {
            let (i, j) = (k / side, k % side);
            let at = |a: f64, b: f64, t: f64| {
                let (x, y) = (0.01 * i as f64 + a, 0.01 * j as f64 + b);
                [0, 1, 2].map(|m| x * u[m] + y * v[m] + t * d[m])
            };
            let cross = [(0.0, 0.0), (1e-3, 0.0), (0.0, 1e-3)];
            let lo = cross.map(|(a, b)| at(a, b, 0.0));
            let hi = cross.map(|(a, b)| at(a, b, 10.0));
            out.extend([lo[0], lo[2], lo[1], hi[0], hi[1], hi[2]]);
            for m in 0..3 {
                let q = (m + 1) % 3;
                out.extend([lo[m], lo[q], hi[q], lo[m], hi[q], hi[m]]);
            }
        }
        out
    }

    /// The first overlap, turned (checking that it was) and in the file's frame.
    fn both(soup: &[[f64; 3]]) -> [Result<Option<usize>, Overlap>; 2] {
        [true, false].map(|turn| {
            let stats = Stats::default();
            let settings = Settings {
                turn,
                stats: Some(&stats),
                ..Settings::FULL
            };
            let found =
                search(&VertexSoup(soup), settings, Mode::Solid).map(|c| c.map(|c| c.count));
            if turn {
                assert!(stats.turned.into_inner(), "the frame was not turned");
            }
            found
        })
    }

    #[test]
    fn a_bundle_of_needles_is_checked_alike_in_a_turned_frame() {
        let clean = bundle(400);
        let [turned, plain] = both(&clean);
        assert_eq!(turned, Ok(None));
        assert_eq!(plain, Ok(None));
        // One needle twice: its faces coincide, settled by their points before any pair is
        // tested or any frame turned (see `repeated.rs`).
        let twice = [clean.clone(), clean[24 * 10..24 * 11].to_vec()].concat();
        let found = check(&VertexSoup(&twice));
        assert!(
            matches!(
                &found,
                Err(Overlap {
                    kind: Kind::Coincide(_),
                    ..
                })
            ),
            "{found:?}"
        );
        // A needle moved across the gap to overlap the next one by half its width: within
        // a repair's reach of the needles' length, a contact (whose bound the body's
        // answer is then judged by), found alike in both frames.
        let mut moved = clean.clone();
        let w = 0.01 - 0.5e-3;
        let shift = [w / 2f64.sqrt(), -w / 2f64.sqrt(), 0.0];
        for p in &mut moved[24 * 30..24 * 31] {
            *p = [0, 1, 2].map(|m| p[m] + shift[m]);
        }
        let [turned, plain] = both(&moved);
        assert!(matches!(turned, Ok(Some(n)) if n > 0), "{turned:?}");
        assert_eq!(turned, plain);
        // A rod across the bundle, along its rows (u), through the needles of one row.
        let mut across = clean.clone();
        let c = clean[24 * 210];
        let rod = |t: f64, a: f64, b: f64| {
            let (s3, s2, s6) = (3f64.sqrt(), 2f64.sqrt(), 6f64.sqrt());
            let (d, u, v) = (
                [1.0 / s3; 3],
                [1.0 / s2, -1.0 / s2, 0.0],
                [1.0 / s6, 1.0 / s6, -2.0 / s6],
            );
            [0, 1, 2].map(|m| c[m] + (1.0 + b) * d[m] + t * u[m] + (2e-4 + a) * v[m])
        };
        let lo = [
            rod(-1.0, 0.0, 0.0),
            rod(-1.0, 1e-3, 0.0),
            rod(-1.0, 0.0, 1e-3),
        ];
        let hi = [rod(1.0, 0.0, 0.0), rod(1.0, 1e-3, 0.0), rod(1.0, 0.0, 1e-3)];
        across.extend([lo[0], lo[2], lo[1], hi[0], hi[1], hi[2]]);
        for m in 0..3 {
            let q = (m + 1) % 3;
            across.extend([lo[m], lo[q], hi[q], lo[m], hi[q], hi[m]]);
        }
        // Found alike in both frames: refused, or (a rod as thin as the needles' reach)
        // contacts whose bound the body's answer is judged by.
        let [turned, plain] = both(&across);
        assert!(matches!(turned, Err(_) | Ok(Some(1..))), "{turned:?}");
        assert_eq!(turned, plain);
    }
}
