//! `tetra`: one signed tetrahedron per triangle against a reference point (Blow & Binstock).
//!
//! Each triangle (a, b, c) and the reference point r span a tetrahedron whose volume is
//! `det[a−r, b−r, c−r] / 6`, negative where the triangle faces r; over a closed surface the
//! signed tetrahedra add up to exactly the enclosed solid. Blow & Binstock maps the covariance
//! `C' = (1/120)[[2,1,1],[1,2,1],[1,1,2]]` of the canonical tetrahedron (0, e₁, e₂, e₃) by the
//! affine map `A = [a−r, b−r, c−r]`: `C = det(A) · A C' Aᵀ`; bodies combine by moving
//! covariances to a common centre and adding, and the inertia tensor is
//! `I = tr(C)·Id − C` (Blow & Binstock's "13tr C3 − C3" is a garbled `1·tr(C)`).
//!
//! The reference point is a vertex of the mesh (the first corner of its first triangle),
//! never the origin: a part 1e6 from the origin is integrated in coordinates of its own size,
//! and the covariance is moved to the centroid once, over a distance no larger than the part.

use crate::mass3d::MassProperties3d;
use crate::mesh::Mesh;
use nalgebra::Point3;

use crate::sums::Sums;

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
#[must_use]
pub fn integrate(mesh: &Mesh) -> MassProperties3d {
    // Validation integrated it (several shells each about its own corner).
    if let Some(p) = mesh.tetra_integral() {
        return p;
    }
    let (sums, r) = sums(mesh);
    sums.finish(r)
}

/// The sums of [`integrate`], and the reference point they are taken about: the first
/// corner of the first triangle, as in [`crate::soup`] (a vertex keeps a sliver's
/// determinants better conditioned than the centre of its box would).
pub(crate) fn sums(mesh: &Mesh) -> (Sums, Point3<f64>) {
    let r = match mesh.triangles().first() {
        Some(_) => mesh.corners(0)[0],
        None => Point3::origin(),
    };
    let sums = crate::sums::of_triangles(mesh.triangles().len(), r, |t| mesh.corners(t));
    (sums, r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::RawMesh;
    use crate::mesh::test_meshes::*;
    use approx::assert_relative_eq;
    use nalgebra::{Matrix3, Vector3};

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

    /// The integral of `m` validated but for the overlap check (the concave prisms' caps
    /// are fans folded over themselves, which turned out of their plane cross by rounding).
    fn props(m: &RawMesh) -> MassProperties3d {
        integrate(&crate::soup::general::build(m, false).0.unwrap())
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

    /// A prism: the polygon extruded from z = 0 to z = h; caps are fans from the first
    /// vertex (signed, overlapping where the polygon is concave, still a closed surface).
    fn prism(poly: &[[f64; 2]], h: f64) -> RawMesh {
        let n = poly.len() as u32;
        let mut vertices: Vec<[f64; 3]> = poly.iter().map(|p| [p[0], p[1], 0.0]).collect();
        vertices.extend(poly.iter().map(|p| [p[0], p[1], h]));
        let mut triangles = Vec::new();
        for i in 1..n - 1 {
            triangles.push([0, i + 1, i]); // bottom, facing -z (polygon is ccw)
            triangles.push([n, n + i, n + i + 1]); // top
        }
        for i in 0..n {
            let j = (i + 1) % n;
            triangles.push([i, j, n + j]);
            triangles.push([i, n + j, n + i]);
        }
        RawMesh {
            vertices,
            triangles,
            lines: vec![],
        }
    }

    fn transformed(m: &RawMesh, r: &nalgebra::Rotation3<f64>, t: Vector3<f64>) -> RawMesh {
        RawMesh {
            vertices: m
                .vertices
                .iter()
                .map(|p| (r * Vector3::from(*p) + t).into())
                .collect(),
            ..m.clone()
        }
    }

    #[test]
    fn prisms_agree_with_the_polygon_methods() {
        use crate::{Polygon, PolygonMethod};
        let shapes: Vec<Vec<[f64; 2]>> = vec![
            vec![
                [0.0, 0.0],
                [2.0, 0.0],
                [2.0, 1.0],
                [1.0, 1.0],
                [1.0, 2.0],
                [0.0, 2.0],
            ],
            vec![
                [0.0, 0.0],
                [3.0, 0.0],
                [3.0, 3.0],
                [2.0, 3.0],
                [2.0, 1.0],
                [1.0, 1.0],
                [1.0, 3.0],
                [0.0, 3.0],
            ],
            vec![[0.0, 0.0], [4.0, 0.0], [-1.0, 3.0]],
        ];
        let h = 1.5;
        for shape in shapes {
            let poly = Polygon::new(shape.clone(), vec![]).unwrap();
            let p2 = PolygonMethod::Centroid.integrate(&poly).properties;
            let a = p2.area;
            let m = p2.moments;
            let want = Matrix3::new(
                h * m.ixx + a * h.powi(3) / 12.0,
                -h * m.ixy,
                0.0,
                -h * m.ixy,
                h * m.iyy + a * h.powi(3) / 12.0,
                0.0,
                0.0,
                0.0,
                h * (m.ixx + m.iyy),
            );
            let base = prism(&shape, h);
            let check = |p: &MassProperties3d, rot: &nalgebra::Rotation3<f64>, t: Vector3<f64>| {
                assert_relative_eq!(p.volume, a * h, max_relative = 1e-12);
                let c = rot * Vector3::new(p2.centroid.x, p2.centroid.y, h / 2.0) + t;
                assert!(
                    (p.centroid.coords - c).norm() <= 1e-12 * c.norm().max(1.0),
                    "{:?} vs {c:?}",
                    p.centroid
                );
                let w = rot.matrix() * want * rot.matrix().transpose();
                assert!(
                    (p.inertia - w).norm() <= 1e-12 * w.norm(),
                    "{shape:?} {t:?}: {} vs {w}",
                    p.inertia
                );
            };
            let id = nalgebra::Rotation3::identity();
            let r = nalgebra::Rotation3::from_euler_angles(0.4, -1.1, 2.3);
            // Integer shapes moved by integers stay exact: compare with the closed form.
            for t in [
                Vector3::zeros(),
                Vector3::new(1e6, -2e6, 3e6),
                Vector3::new(-1e8, 1e8, 5e7),
            ] {
                check(&props(&transformed(&base, &id, t)), &id, t);
            }
            // Rotated: closed form rotated.
            let rotated = transformed(&base, &r, Vector3::zeros());
            check(&props(&rotated), &r, Vector3::zeros());
            // Rotated and moved far: the moved coordinates are rounded, so compare with the
            // same rounded solid moved back (exactly) to the origin: translation invariance.
            for t in [Vector3::new(1e6, -2e6, 3e6), Vector3::new(-1e8, 1e8, 5e7)] {
                let moved = transformed(&rotated, &id, t);
                let back = transformed(&moved, &id, -t);
                let (pm, pb) = (props(&moved), props(&back));
                assert_relative_eq!(pm.volume, pb.volume, max_relative = 1e-12);
                assert!((pm.centroid.coords - t - pb.centroid.coords).norm() < 1e-12 * t.norm());
                assert!(
                    (pm.inertia - pb.inertia).norm() <= 1e-12 * pb.inertia.norm(),
                    "{} vs {}",
                    pm.inertia,
                    pb.inertia
                );
            }
        }
    }

    #[test]
    fn octahedron_closed_form() {
        // |x| + |y| + |z| <= r: V = 4r³/3, I = m r²/5 on every axis.
        let r = 2.0;
        let v = vec![
            [r, 0.0, 0.0],
            [-r, 0.0, 0.0],
            [0.0, r, 0.0],
            [0.0, -r, 0.0],
            [0.0, 0.0, r],
            [0.0, 0.0, -r],
        ];
        let mut triangles = Vec::new();
        for (x, y) in [(0u32, 2u32), (2, 1), (1, 3), (3, 0)] {
            triangles.push([x, y, 4]);
            triangles.push([y, x, 5]);
        }
        let p = props(&RawMesh {
            vertices: v,
            triangles,
            lines: vec![],
        });
        let m = 4.0 * r * r * r / 3.0;
        assert_relative_eq!(p.volume, m, max_relative = 1e-15);
        assert_relative_eq!(
            p.inertia,
            Matrix3::identity() * (m * r * r / 5.0),
            max_relative = 1e-14
        );
    }

    #[test]
    fn cylinder_prism_matches_seed_002() {
        // A regular n-gon prism: Izz = h · A l²/24 (1 + 3 cot²(π/n)).
        let (n, r, h) = (64usize, 2.0, 5.0);
        let pi = std::f64::consts::PI;
        let ngon: Vec<[f64; 2]> = (0..n)
            .map(|k| {
                let t = 2.0 * pi * k as f64 / n as f64;
                [r * t.cos(), r * t.sin()]
            })
            .collect();
        let p = props(&prism(&ngon, h));
        let nf = n as f64;
        let area = 0.5 * nf * r * r * (2.0 * pi / nf).sin();
        let l = 2.0 * r * (pi / nf).sin();
        let cot = 1.0 / (pi / nf).tan();
        let m = area * h;
        assert_relative_eq!(p.volume, m, max_relative = 1e-13);
        assert_relative_eq!(
            p.inertia.m33,
            m * l * l / 24.0 * (1.0 + 3.0 * cot * cot),
            max_relative = 1e-13
        );
    }
}
