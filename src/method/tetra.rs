//! `tetra`: one signed tetrahedron per triangle against a reference point (seed 001).
//!
//! Each triangle (a, b, c) and the reference point r span a tetrahedron whose volume is
//! `det[a−r, b−r, c−r] / 6`, negative where the triangle faces r; over a closed surface the
//! signed tetrahedra add up to exactly the enclosed solid. Seed 001 maps the covariance
//! `C' = (1/120)[[2,1,1],[1,2,1],[1,1,2]]` of the canonical tetrahedron (0, e₁, e₂, e₃) by the
//! affine map `A = [a−r, b−r, c−r]`: `C = det(A) · A C' Aᵀ`; bodies combine by moving
//! covariances to a common centre and adding, and the inertia tensor is
//! `I = tr(C)·Id − C` (the seed's "13tr C3 − C3" is a garbled `1·tr(C)`).
//!
//! The reference point is the centre of the mesh's bounding box, never the origin: a part
//! 1e6 from the origin is integrated in coordinates of its own size, and the covariance is
//! moved to the centroid once, over a distance no larger than the part.

use crate::mass3d::MassProperties3d;
use crate::mesh::Mesh;
use nalgebra::{Matrix3, Vector3};

/// `A C' Aᵀ` for `A = [a b c]` and the canonical covariance `C'`, times 120:
/// `a aᵀ + b bᵀ + c cᵀ + s sᵀ` with `s = a + b + c`.
fn canonical_covariance_mapped(a: Vector3<f64>, b: Vector3<f64>, c: Vector3<f64>) -> Matrix3<f64> {
    let s = a + b + c;
    a * a.transpose() + b * b.transpose() + c * c.transpose() + s * s.transpose()
}

/// Volume, centroid and inertia tensor of a closed mesh of unit density.
///
/// # Examples
/// ```
/// use inertia::mesh::{Mesh, RawMesh};
/// // The right tetrahedron (0,0,0), (5,0,0), (0,4,0), (0,0,3): volume 10.
/// let raw = RawMesh {
///     vertices: vec![[0.0, 0.0, 0.0], [5.0, 0.0, 0.0], [0.0, 4.0, 0.0], [0.0, 0.0, 3.0]],
///     triangles: vec![[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]],
///     lines: vec![],
/// };
/// let p = inertia::method::tetra::integrate(&Mesh::new(&raw)?);
/// assert!((p.volume - 10.0).abs() < 1e-13);
/// assert!((p.inertia.m11 - 75.0 / 8.0).abs() < 1e-12);
/// # Ok::<(), inertia::Error>(())
/// ```
pub fn integrate(mesh: &Mesh) -> MassProperties3d {
    let r = mesh.reference();
    let mut det_sum = 0.0; // 6 × volume
    let mut first = Vector3::zeros(); // 24 × first moment
    let mut cov = Matrix3::zeros(); // 120 × covariance about r
    for t in 0..mesh.triangles().len() {
        let [a, b, c] = mesh.corners(t).map(|p| p - r);
        let det = a.dot(&b.cross(&c));
        det_sum += det;
        first += (a + b + c) * det;
        cov += canonical_covariance_mapped(a, b, c) * det;
    }
    let volume = det_sum / 6.0;
    let g = first / (4.0 * det_sum); // centroid relative to r (the apex adds 0)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::RawMesh;
    use crate::mesh::test_meshes::*;
    use approx::assert_relative_eq;

    fn tet(v: [[f64; 3]; 4]) -> RawMesh {
        // Orient outward whatever the vertex order.
        let [p0, p1, p2, p3] = v.map(Vector3::from);
        let tris = if (p1 - p0).dot(&(p2 - p0).cross(&(p3 - p0))) > 0.0 {
            vec![[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]]
        } else {
            vec![[0, 1, 2], [0, 3, 1], [0, 2, 3], [1, 3, 2]]
        };
        RawMesh {
            vertices: v.to_vec(),
            triangles: tris,
            lines: vec![],
        }
    }

    fn props(m: &RawMesh) -> MassProperties3d {
        integrate(&Mesh::new(m).unwrap())
    }

    #[test]
    fn right_tetrahedron_exact() {
        let p = props(&tet([
            [0.0; 3],
            [5.0, 0.0, 0.0],
            [0.0, 4.0, 0.0],
            [0.0, 0.0, 3.0],
        ]));
        assert_relative_eq!(p.volume, 10.0, max_relative = 1e-15);
        assert_relative_eq!(
            p.centroid.coords,
            Vector3::new(1.25, 1.0, 0.75),
            epsilon = 1e-15
        );
        assert_relative_eq!(p.inertia.m11, 75.0 / 8.0, max_relative = 1e-14);
        assert_relative_eq!(p.inertia.m22, 51.0 / 4.0, max_relative = 1e-14);
        assert_relative_eq!(p.inertia.m33, 123.0 / 8.0, max_relative = 1e-14);
        // Products: ∫xy dm about the centroid = m/20 (Σ xᵢyᵢ + Σx Σy) − m x̄ȳ = -5/2 → +5/2 in the tensor.
        assert_relative_eq!(p.inertia.m12, 2.5, max_relative = 1e-14);
        assert_relative_eq!(p.inertia.m13, 15.0 / 8.0, max_relative = 1e-14);
        assert_relative_eq!(p.inertia.m23, 1.5, max_relative = 1e-14);
    }

    #[test]
    fn tonon_2004_example() {
        // F. Tonon, J. Math. Stat. 1(1), 2004, the worked example: density 1, about the centroid,
        // a = Ixx, b = Iyy, c = Izz, a' = ∫yz, b' = ∫xz, c' = ∫xy (tensor holds −a' ...).
        let p = props(&tet([
            [8.33220, -11.86875, 0.93355],
            [0.75523, 5.00000, 16.37072],
            [52.61236, 5.00000, -5.38580],
            [2.00000, 5.00000, 3.00000],
        ]));
        // The centroid is the vertex mean, (15.9249475, 0.7828125, 3.7296175); the paper
        // prints (15.92492, 0.78281, 3.72962), off in the fifth decimal of x.
        assert_relative_eq!(
            p.centroid.coords,
            Vector3::new(15.9249475, 0.7828125, 3.7296175),
            epsilon = 1e-12
        );
        let i = p.inertia;
        // Exact values of the example's tetrahedron (rational arithmetic on its decimal
        // vertices, vol/20·(Σwwᵀ + ΣwΣwᵀ) about the vertex mean), to 15 digits:
        let exact = [
            43520.3332853933,
            194711.292590794,
            191168.764886078, // a, b, c
            4417.66156968562,
            -46343.1673813944,
            11996.2013932341, // a', b', c'
        ];
        let got = [i.m11, i.m22, i.m33, -i.m23, -i.m13, -i.m12];
        for (g, e) in got.iter().zip(exact) {
            assert_relative_eq!(*g, e, max_relative = 1e-13);
        }
        assert_relative_eq!(p.volume, 1873.23336421647, max_relative = 1e-13);
        // The paper's printed figures (43520.33257, 194711.28938, 191168.76173, 4417.66150,
        // −46343.16662, 11996.20119) agree only to ~2e-8: they carry its rounding.
        let paper = [
            43520.33257,
            194711.28938,
            191168.76173,
            4417.66150,
            -46343.16662,
            11996.20119,
        ];
        for (g, e) in got.iter().zip(paper) {
            assert_relative_eq!(*g, e, max_relative = 3e-7);
        }
    }

    #[test]
    fn boxes_anywhere_any_winding() {
        for (min, size) in [
            ([0.0; 3], [1.0; 3]),
            ([-1.0, 2.0, 3.0], [3.0, 2.0, 1.0]),
            ([1e6, -1e6, 1e6], [3.0, 2.0, 1.0]),
            ([1e8, 1e8, -1e8], [3.0, 2.0, 1.0]),
            ([0.0; 3], [3e-6, 2e-6, 1e-6]),
            ([0.0; 3], [3e6, 2e6, 1e6]),
        ] {
            let [a, b, c] = size;
            let m = a * b * c;
            for raw in [
                cuboid(min, size),
                soup(&cuboid(min, size)),
                flipped(&cuboid(min, size)),
            ] {
                let p = props(&raw);
                assert_relative_eq!(p.volume, m, max_relative = 1e-12);
                let want = Vector3::new(b * b + c * c, a * a + c * c, a * a + b * b) * (m / 12.0);
                let scale = want.max();
                for k in 0..3 {
                    assert_relative_eq!(
                        p.centroid[k],
                        min[k] + size[k] / 2.0,
                        max_relative = 1e-15
                    );
                    assert!(
                        (p.inertia[(k, k)] - want[k]).abs() < 1e-12 * scale,
                        "{min:?} {:?}",
                        p.inertia
                    );
                }
                assert!(
                    p.inertia.m12.abs() + p.inertia.m13.abs() + p.inertia.m23.abs() < 1e-12 * scale
                );
            }
        }
    }

    #[test]
    fn cavity_subtracts() {
        let outer = cuboid([0.0; 3], [4.0; 3]);
        let inner = cuboid([1.0; 3], [1.0; 3]);
        let p = props(&union(&outer, &flipped(&inner)));
        assert_relative_eq!(p.volume, 63.0, max_relative = 1e-15);
        // Centroid: (64·2 − 1·1.5)/63 on each axis.
        assert_relative_eq!(p.centroid.x, (128.0 - 1.5) / 63.0, max_relative = 1e-14);
        let two = props(&union(&outer, &cuboid([10.0; 3], [1.0; 3])));
        assert_relative_eq!(two.volume, 65.0, max_relative = 1e-15);
    }
}
