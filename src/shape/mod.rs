//! Closed-form shapes, and tessellations of them for cross-checking the methods.
//!
//! 2D: rectangle (Fauconnet 2023, eq. 3.4), regular polygon (Fauconnet 2023, eq. 3.6), circle (Singhal 2018).
//! 3D: box, sphere, cylinder (axis z), and Fiedler's biconvex go stone (two spherical caps,
//! axis y) with the true lens volume.
//!
//! Every shape is centred on the origin. Tessellations are inscribed (vertices on the true
//! surface), and [`revolved_polyhedron`] gives the exact mass properties of a tessellated
//! solid of revolution, so tests can tell tessellation error from method error.

mod plane;
mod solid;

pub use plane::{Exact2d, Shape2d};
pub use solid::{Exact3d, Shape3d, revolved_polyhedron};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::method::{PolygonMethod, tetra};
    use crate::{Mesh, Polygon};
    use approx::assert_relative_eq;
    use std::f64::consts::PI;

    #[test]
    fn bounding_boxes_are_those_of_the_outlines() {
        for n in 3..=41 {
            let s = Shape2d::Regular {
                sides: n,
                side: 1.5,
            };
            let b = s.exact().bounding_box;
            let p = Polygon::new(s.tessellate(0), vec![])
                .unwrap()
                .bounding_box();
            for k in 0..2 {
                assert_relative_eq!(b.min[k], p.min[k], epsilon = 1e-14, max_relative = 1e-14);
                assert_relative_eq!(b.max[k], p.max[k], epsilon = 1e-14, max_relative = 1e-14);
            }
        }
        let b = Shape2d::Rectangle {
            width: 2.0,
            height: 3.0,
        }
        .exact()
        .bounding_box;
        assert_eq!((b.min, b.max), ([-1.0, -1.5], [1.0, 1.5]));
        let b = Shape2d::Circle { radius: 2.5 }.exact().bounding_box;
        assert_eq!((b.min, b.max), ([-2.5, -2.5], [2.5, 2.5]));
    }

    #[test]
    fn regular_polygon_and_circle_tessellations_are_exact_by_eq_3_6() {
        for n in [3, 4, 7, 64, 1000] {
            let s = Shape2d::Regular {
                sides: n,
                side: 0.3,
            };
            let e = s.exact().properties;
            let p = Polygon::new(s.tessellate(0), vec![]).unwrap();
            for m in PolygonMethod::ALL {
                let r = m.integrate(&p);
                assert_relative_eq!(r.properties.area, e.area, max_relative = 1e-13);
                assert_relative_eq!(r.polar, e.moments.polar(), max_relative = 1e-13);
            }
        }
        // The inscribed 1000-gon approaches the circle: error ~ (2π/n)²/6 · 2.
        let c = Shape2d::Circle { radius: 2.0 };
        let r = PolygonMethod::Fan.integrate(&Polygon::new(c.tessellate(1000), vec![]).unwrap());
        let e = c.exact().properties;
        assert!((r.polar - e.moments.polar()).abs() / e.moments.polar() < 1e-4);
    }

    #[test]
    fn tessellated_solids_match_their_exact_polyhedral_values_and_converge() {
        for shape in [
            Shape3d::Sphere { radius: 1.5 },
            Shape3d::Cylinder {
                radius: 0.5,
                height: 3.0,
            },
            Shape3d::Biconvex {
                width: 2.2,
                height: 0.92,
            },
        ] {
            let mut last_err = f64::INFINITY;
            for n in [16, 64, 256] {
                let raw = shape.tessellate(n);
                let mesh = Mesh::new(&raw).unwrap();
                let p = tetra::integrate(&mesh);
                let (v, zc, izz, ixx) = revolved_polyhedron(&shape.profile(n), n);
                let (axial, perp) = if matches!(shape, Shape3d::Biconvex { .. }) {
                    (p.inertia.m22, p.inertia.m11)
                } else {
                    (p.inertia.m33, p.inertia.m11)
                };
                assert_relative_eq!(p.volume, v, max_relative = 1e-12);
                assert!(zc.abs() < 1e-12 && p.centroid.coords.norm() < 1e-12);
                assert_relative_eq!(axial, izz, max_relative = 1e-12);
                assert_relative_eq!(perp, ixx, max_relative = 1e-12);
                let e = shape.exact().properties;
                let err = (p.volume - e.volume).abs() / e.volume;
                assert!(err < last_err, "{shape:?} n={n}: {err} >= {last_err}");
                last_err = err;
            }
            assert!(last_err < 1e-3, "{shape:?}: {last_err}");
        }
    }

    #[test]
    fn go_stone_true_volume_and_moments() {
        // Fiedler's stone: width 2.2, height 0.92, mass 1.
        let e = Shape3d::Biconvex {
            width: 2.2,
            height: 0.92,
        }
        .exact()
        .properties;
        let (a, c): (f64, f64) = (1.1, 0.46);
        let r = (a * a + c * c) / (2.0 * c);
        // Two caps: 2·π c² (3r − c) / 3.
        assert_relative_eq!(
            e.volume,
            2.0 * PI * c * c * (3.0 * r - c) / 3.0,
            max_relative = 1e-14
        );
        let unit = e.scaled_mass(1.0 / e.volume);
        // Fiedler's own integral for Iy, π ρ h³(3h² − 30hr + 80r²)/480, with the true ρ.
        let h: f64 = 0.92;
        let iy = PI / e.volume * h.powi(3) * (3.0 * h * h - 30.0 * h * r + 80.0 * r * r) / 480.0;
        assert_relative_eq!(unit.inertia.m22, iy, max_relative = 1e-13);
        // The true figures (also by a 200,000-step numerical integration of the same
        // slices): volume 1.85054049183, Iy 0.415606897124, Ix = Iz 0.244624139941.
        assert_relative_eq!(e.volume, 1.85054049183, max_relative = 1e-11);
        assert_relative_eq!(unit.inertia.m22, 0.415606897124, max_relative = 1e-11);
        assert_relative_eq!(unit.inertia.m11, 0.244624139941, max_relative = 1e-11);
        assert_eq!(unit.inertia.m11, unit.inertia.m33);
        // The article prints Iy = 0.303588: the true Iy scaled by the true volume over its
        // `CalculateBiconvexVolume` (2.53336231191), i.e. the right integral with the wrong
        // density.
        let seed_volume = {
            let h = r - c;
            h * h + (PI * r / 4.0 + PI * h / 24.0)
        };
        assert_relative_eq!(
            unit.inertia.m22 * e.volume / seed_volume,
            0.303588,
            max_relative = 1e-5
        );
    }

    #[test]
    fn box_tessellation_is_exact() {
        let s = Shape3d::Box {
            size: [3.0, 2.0, 1.0],
        };
        let p = tetra::integrate(&Mesh::new(&s.tessellate(0)).unwrap());
        let e = s.exact().properties;
        assert_relative_eq!(p.volume, e.volume, max_relative = 1e-14);
        assert!((p.inertia - e.inertia).norm() < 1e-13 * e.inertia.norm());
    }
}
