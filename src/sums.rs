//! Sums over triangles in fixed blocks: the signed-tetrahedron sums (Blow & Binstock,
//! "How to find the inertia tensor (or other mass properties) of a 3D solid body
//! represented by a triangle mesh") that both mesh paths and the `tetra` method share.
//!
//! Blocks of [`BLOCK`] triangles are summed on every core and merged in block order, so
//! that the result is the same to the bit whatever the number of threads.

use crate::mass3d::MassProperties3d;
use nalgebra::{Matrix3, Point3, Vector3};
use rayon::prelude::*;

/// Triangles per block of the parallel passes. Fixed, so that sums are grouped (and
/// rounded) the same way whatever the number of threads.
pub const BLOCK: usize = 1 << 13;

/// Running sums of the signed tetrahedra (triangle, reference point), in coordinates
/// relative to the reference point: `det` is 6 × volume, `first` 24 × the first moment and
/// `cov` 120 × the covariance (xx, yy, zz, xy, yz, zx).
///
/// Blow & Binstock's `A C' Aᵀ` for `A = [a b c]` and the canonical covariance `C'` is, times 120,
/// `a aᵀ + b bᵀ + c cᵀ + s sᵀ` with `s = a + b + c`. Sums from separate blocks of
/// triangles combine with [`Sums::merge`]; merged in a fixed order they give the same bits
/// whatever the number of threads.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Sums {
    /// Σ det = 6 × volume.
    pub(crate) det: f64,
    /// Σ det·(a + b + c) = 24 × first moment.
    pub(crate) first: [f64; 3],
    /// Σ det·(a aᵀ + b bᵀ + c cᵀ + s sᵀ) = 120 × covariance: xx, yy, zz, xy, yz, zx.
    pub(crate) cov: [f64; 6],
    /// Σ of each determinant's six products in absolute value: the rounding error of
    /// `det` is at most a few ulps of this (see [`Sums::check_resolution`]).
    pub(crate) spread: f64,
}

impl Sums {
    /// Adds the tetrahedron (reference point, a, b, c), corners relative to the reference
    /// point, and returns its determinant (6 × its signed volume).
    #[inline]
    pub(crate) fn add(&mut self, a: [f64; 3], b: [f64; 3], c: [f64; 3]) -> f64 {
        let cross = [
            b[1] * c[2] - b[2] * c[1],
            b[2] * c[0] - b[0] * c[2],
            b[0] * c[1] - b[1] * c[0],
        ];
        let det = a[0] * cross[0] + a[1] * cross[1] + a[2] * cross[2];
        self.spread += a[0].abs() * ((b[1] * c[2]).abs() + (b[2] * c[1]).abs())
            + a[1].abs() * ((b[2] * c[0]).abs() + (b[0] * c[2]).abs())
            + a[2].abs() * ((b[0] * c[1]).abs() + (b[1] * c[0]).abs());
        let s = [a[0] + b[0] + c[0], a[1] + b[1] + c[1], a[2] + b[2] + c[2]];
        self.det += det;
        for (f, sk) in self.first.iter_mut().zip(s) {
            *f += sk * det;
        }
        let m = |i: usize, j: usize| a[i] * a[j] + b[i] * b[j] + c[i] * c[j] + s[i] * s[j];
        let pairs = [(0, 0), (1, 1), (2, 2), (0, 1), (1, 2), (2, 0)];
        for (q, (i, j)) in pairs.into_iter().enumerate() {
            self.cov[q] += m(i, j) * det;
        }
        det
    }

    /// Adds sums from another block of triangles about the same reference point.
    pub(crate) fn merge(&mut self, other: &Sums) {
        self.det += other.det;
        self.spread += other.spread;
        for k in 0..3 {
            self.first[k] += other.first[k];
        }
        for k in 0..6 {
            self.cov[k] += other.cov[k];
        }
    }

    /// The sums of the same triangles wound the other way.
    pub(crate) fn reversed(&self) -> Sums {
        Sums {
            det: -self.det,
            first: self.first.map(|v| -v),
            cov: self.cov.map(|v| -v),
            spread: self.spread,
        }
    }

    /// Refuses sums that f64 cannot be trusted with: when the rounding of the determinants
    /// (at most 8 ulps of [`Sums::spread`]) could reach a millionth of the volume. That
    /// happens only to meshes spanning many orders of magnitude (a sliver 10¹⁶ long and 1
    /// wide): the volume would then depend on the reference point chosen, in its first
    /// digits.
    pub(crate) fn check_resolution(&self) -> crate::Result<()> {
        let error = 8.0 * f64::EPSILON * self.spread;
        if error > 1e-6 * self.det.abs() || !error.is_finite() {
            return Err(crate::Error::Unresolvable {
                what: crate::error::Unresolved::MeshVolume {
                    volume: self.det / 6.0,
                    error: error / 6.0,
                },
            });
        }
        Ok(())
    }

    /// Volume, centroid and inertia tensor (unit density) of the solid whose tetrahedra
    /// were summed about `r`.
    pub(crate) fn finish(&self, r: Point3<f64>) -> MassProperties3d {
        let volume = self.det / 6.0;
        let g = Vector3::from(self.first) / (4.0 * self.det); // centroid relative to r (the apex adds 0)
        let [xx, yy, zz, xy, yz, zx] = self.cov;
        let cov = Matrix3::new(xx, xy, zx, xy, yy, yz, zx, yz, zz);
        // Covariance about r, then moved to the centroid: C_g = C_r − V g gᵀ.
        let cov_g = cov / 120.0 - g * g.transpose() * volume;
        let inertia = Matrix3::identity() * cov_g.trace() - cov_g;
        MassProperties3d {
            volume,
            mass: volume,
            centroid: r + g,
            inertia: (inertia + inertia.transpose()) * 0.5,
        }
    }
}

/// The [`Sums`] of `n` triangles whose corners are `corners(t)`, about `r`, in fixed
/// blocks merged in order.
pub(crate) fn of_triangles<F>(n: usize, r: Point3<f64>, corners: F) -> Sums
where
    F: Fn(usize) -> [Point3<f64>; 3] + Sync,
{
    let blocks: Vec<Sums> = (0..n.div_ceil(BLOCK))
        .into_par_iter()
        .map(|k| {
            let mut sums = Sums::default();
            for t in k * BLOCK..((k + 1) * BLOCK).min(n) {
                let [a, b, c] = corners(t);
                sums.add((a - r).into(), (b - r).into(), (c - r).into());
            }
            sums
        })
        .collect();
    let mut sums = Sums::default();
    for b in &blocks {
        sums.merge(b);
    }
    sums
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn add_merge_reverse_and_finish() {
        let mut a = Sums::default();
        let det = a.add([1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]);
        assert_eq!((det, a.det), (1.0, 1.0));
        assert_eq!(a.reversed().det, -1.0);
        // The unit cube's corner tetrahedron, summed about the origin.
        let p = a.finish(Point3::origin());
        assert_eq!(p.volume, 1.0 / 6.0);
        assert_eq!(p.centroid, Point3::new(0.25, 0.25, 0.25));
        let mut b = Sums::default();
        b.add([2.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]);
        a.merge(&b);
        assert_eq!(a.det, 3.0);
    }

    #[test]
    fn an_unresolvable_sliver_is_refused() {
        let mut s = Sums::default();
        s.add([1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]);
        assert!(s.check_resolution().is_ok());
        // Nearly flat and 10¹⁶ long: its determinant is lost in the rounding of its terms.
        let mut sliver = Sums::default();
        sliver.add([1e16, 1.0, 1.0], [1.0, 1e16, 1.0], [1e16, 1e16, 2.0]);
        let e = sliver.check_resolution().unwrap_err().to_string();
        assert!(e.contains("more than f64 can resolve"), "{e}");
    }
}
