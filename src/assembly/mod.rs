//! Assemblies: mass properties read back from `--json` reports, moved and summed.
//!
//! `inertia combine` reads the reports that `polygon`, `mesh` or `shape` print with `--json`
//! (one object, a `{"parts": [...]}` object, or JSON Lines), undoes their presentation
//! (the `about` point, the sign of products, the units), moves each part by an optional
//! rotation then translation, and sums them (Blow & Binstock's `Combine`).

mod read;

pub use read::read_parts;

use crate::mass2d::{MassProperties2d, SecondMoments2d};
use crate::mass3d::MassProperties3d;
use crate::report::{Body, BoundingBox, Outline};
use crate::units::Units;
use nalgebra::{Matrix2, Point2, Point3, Rotation3, Unit, Vector2, Vector3};

/// A part read from a report.
///
/// # Examples
/// ```
/// let sq = inertia::Polygon::new(vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], vec![])?;
/// let r = inertia::report::PolygonReport::new("sq", &sq, inertia::PolygonMethod::Fan, inertia::Amount::Density(1.0), None);
/// let text = inertia::report::json::polygon(&r);
/// let parts = inertia::assembly::read_parts(text.as_bytes())?;
/// assert!(matches!(parts[0], inertia::assembly::Part::Planar { .. }));
/// # Ok::<(), inertia::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum Part {
    /// A plate (from `polygon` or a 2D `shape`).
    Planar {
        /// Mass properties about the centroid (moments as `+∫xy`).
        properties: MassProperties2d,
        /// Outline counts (and the winding its report gives), for the total.
        outline: Outline,
        /// The report's units.
        units: Units,
        /// The report's method, one of
        /// [`METHOD_NAMES`](crate::report::schema::METHOD_NAMES).
        method: &'static str,
    },
    /// A solid (from `mesh` or a 3D `shape`).
    Solid {
        /// Mass properties about the centroid (tensor convention).
        properties: MassProperties3d,
        /// Mesh counts, for the total.
        body: Box<Body>,
        /// The report's units.
        units: Units,
        /// The report's method, one of
        /// [`METHOD_NAMES`](crate::report::schema::METHOD_NAMES).
        method: &'static str,
    },
}

/// A rigid motion: rotate about the origin, then translate.
///
/// # Examples
/// ```
/// let m = inertia::assembly::Motion { translation: nalgebra::Vector3::new(1.0, 0.0, 0.0), ..Default::default() };
/// assert!(!m.leaves_the_plane());
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Motion {
    /// Rotation about the origin (for plates, about z).
    pub rotation: Rotation3<f64>,
    /// Translation after the rotation.
    pub translation: Vector3<f64>,
}

impl Default for Motion {
    fn default() -> Self {
        Motion {
            rotation: Rotation3::identity(),
            translation: Vector3::zeros(),
        }
    }
}

impl Motion {
    /// A rotation by `degrees` about `axis` (need not be unit length).
    ///
    /// # Examples
    /// ```
    /// let m = inertia::assembly::Motion::rotate(nalgebra::Vector3::z(), 90.0);
    /// let p = m.rotation * nalgebra::Point3::new(1.0, 0.0, 0.0);
    /// assert!((p.y - 1.0).abs() < 1e-15);
    /// ```
    pub fn rotate(axis: Vector3<f64>, degrees: f64) -> Self {
        // Scaled to its largest component first: the squares of 1e300 or 1e-300 would
        // overflow or underflow a plain normalisation.
        let axis = axis / axis.amax();
        Motion {
            rotation: Rotation3::from_axis_angle(&Unit::new_normalize(axis), degrees.to_radians()),
            translation: Vector3::zeros(),
        }
    }

    /// True if it turns the plane out of itself (a plate can only turn about z).
    ///
    /// # Examples
    /// ```
    /// use inertia::assembly::Motion;
    /// use nalgebra::Vector3;
    /// assert!(!Motion::rotate(Vector3::z(), 30.0).leaves_the_plane());
    /// assert!(Motion::rotate(Vector3::x(), 30.0).leaves_the_plane());
    /// ```
    pub fn leaves_the_plane(&self) -> bool {
        let z = self.rotation * Vector3::z();
        (z - Vector3::z()).norm() > 1e-12 || self.translation.z != 0.0
    }
}

impl Part {
    /// The part moved by `m` (rotation about the origin, then translation).
    ///
    /// # Examples
    /// ```
    /// use inertia::assembly::{Motion, Part};
    /// use inertia::MassProperties3d;
    /// use nalgebra::{Matrix3, Point3, Vector3};
    /// let rod = Part::Solid {
    ///     properties: MassProperties3d { volume: 1.0, mass: 1.0, centroid: Point3::new(1.0, 0.0, 0.0),
    ///         inertia: Matrix3::from_diagonal(&Vector3::new(0.0, 1.0, 1.0)) },
    ///     body: Default::default(), units: Default::default(), method: "tetra",
    /// };
    /// let turned = rod.moved(&Motion::rotate(Vector3::z(), 90.0));
    /// let Part::Solid { properties: p, .. } = turned else { unreachable!() };
    /// assert!((p.centroid - Point3::new(0.0, 1.0, 0.0)).norm() < 1e-15);
    /// assert!((p.inertia.m11 - 1.0).abs() < 1e-15 && p.inertia.m22.abs() < 1e-15);
    /// ```
    pub fn moved(&self, m: &Motion) -> Part {
        match self {
            Part::Solid {
                properties: p,
                body,
                units,
                method,
            } => {
                let r = m.rotation.matrix();
                let centroid = m.rotation * p.centroid + m.translation;
                // Rotate the 8 corners of the box and take their bounds.
                let b = &body.bounding_box;
                let corners = (0..8).map(|k| {
                    let c = Point3::new(
                        if k & 1 == 0 { b.min[0] } else { b.max[0] },
                        if k & 2 == 0 { b.min[1] } else { b.max[1] },
                        if k & 4 == 0 { b.min[2] } else { b.max[2] },
                    );
                    m.rotation * c + m.translation
                });
                let (mut lo, mut hi) = ([f64::INFINITY; 3], [f64::NEG_INFINITY; 3]);
                for c in corners {
                    for k in 0..3 {
                        lo[k] = lo[k].min(c[k]);
                        hi[k] = hi[k].max(c[k]);
                    }
                }
                Part::Solid {
                    properties: MassProperties3d {
                        centroid,
                        inertia: r * p.inertia * r.transpose(),
                        ..*p
                    },
                    body: Box::new(Body {
                        bounding_box: BoundingBox { min: lo, max: hi },
                        ..**body
                    }),
                    units: *units,
                    method,
                }
            }
            Part::Planar {
                properties: p,
                outline,
                units,
                method,
            } => {
                let r3 = m.rotation.matrix();
                let r = Matrix2::new(r3.m11, r3.m12, r3.m21, r3.m22);
                let c = r * p.centroid.coords + Vector2::new(m.translation.x, m.translation.y);
                // Covariance [[∫x², ∫xy], [∫xy, ∫y²]] rotates as R C Rᵀ.
                let cov = Matrix2::new(p.moments.iyy, p.moments.ixy, p.moments.ixy, p.moments.ixx);
                let rc = r * cov * r.transpose();
                Part::Planar {
                    properties: MassProperties2d {
                        centroid: Point2::from(c),
                        moments: SecondMoments2d {
                            ixx: rc.m22,
                            iyy: rc.m11,
                            ixy: rc.m12,
                        },
                        ..*p
                    },
                    // The box of the moved box's corners: exact for a translation, a
                    // bound (as for solids) after a rotation.
                    outline: Outline {
                        bounding_box: outline.bounding_box.map(|bb| {
                            bb.mapped(|q| {
                                let v = r * Vector2::new(q[0], q[1])
                                    + Vector2::new(m.translation.x, m.translation.y);
                                [v.x, v.y]
                            })
                        }),
                        ..*outline
                    },
                    units: *units,
                    method,
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{MeshReport, PolygonReport, json};
    use crate::units::Products;
    use crate::{Amount, Mesh, MeshMethod, Polygon, PolygonMethod};
    use approx::assert_relative_eq;

    #[test]
    fn mesh_report_round_trip_any_about_and_products() {
        let raw = crate::shape::Shape3d::Box {
            size: [3.0, 2.0, 1.0],
        }
        .tessellate(0);
        let mesh = Mesh::new(&raw).unwrap();
        let exact = MeshMethod::Tetra
            .integrate(&mesh, 0)
            .properties
            .scaled_mass(2.0);
        for products in [Products::Tensor, Products::Cad] {
            let view = crate::report::View {
                products,
                ..Default::default()
            };
            let r = MeshReport::new_with(
                "box",
                &mesh,
                MeshMethod::Tetra,
                0,
                Amount::Density(2.0),
                Some(Point3::new(1.0, -2.0, 0.5)),
                &view,
            );
            let parts = read_parts(json::mesh(&r).as_bytes()).unwrap();
            let Part::Solid { properties: p, .. } = &parts[0] else {
                panic!()
            };
            assert_relative_eq!(p.mass, exact.mass, max_relative = 1e-15);
            assert!(
                (p.inertia - exact.inertia).norm() < 1e-13 * exact.inertia.norm(),
                "{} vs {}",
                p.inertia,
                exact.inertia
            );
        }
    }

    #[test]
    fn polygon_report_round_trip() {
        let l = Polygon::new(
            vec![
                [0.0, 0.0],
                [2.0, 0.0],
                [2.0, 1.0],
                [1.0, 1.0],
                [1.0, 2.0],
                [0.0, 2.0],
            ],
            vec![],
        )
        .unwrap();
        let r = PolygonReport::new(
            "l",
            &l,
            PolygonMethod::Fan,
            Amount::Density(1.0),
            Some(Point2::origin()),
        );
        let parts = read_parts(json::polygon(&r).as_bytes()).unwrap();
        let Part::Planar { properties: p, .. } = &parts[0] else {
            panic!()
        };
        assert_relative_eq!(p.moments.ixy, -1.0 / 3.0, epsilon = 1e-14);
        assert_relative_eq!(p.moments.ixx, 11.0 / 12.0, epsilon = 1e-14);
        // Turned by 90°: ixx and iyy swap, ixy changes sign.
        let t = parts[0].moved(&Motion::rotate(Vector3::z(), 90.0));
        let Part::Planar { properties: q, .. } = t else {
            panic!()
        };
        assert_relative_eq!(q.moments.ixy, 1.0 / 3.0, epsilon = 1e-14);
        assert_relative_eq!(
            q.centroid,
            Point2::new(-5.0 / 6.0, 5.0 / 6.0),
            epsilon = 1e-14
        );
    }

    #[test]
    fn bad_reports() {
        assert!(
            read_parts(b"{}")
                .unwrap_err()
                .to_string()
                .contains("missing")
        );
        assert!(
            read_parts(br#"{"schema_version": 1, "methods": {}}"#)
                .unwrap_err()
                .to_string()
                .contains("comparison of methods")
        );
        assert_eq!(
            read_parts(br#"{"schema_version": 7, "methods": {}}"#)
                .unwrap_err()
                .to_string(),
            "report: schema_version 7 is not one this inertia reads (it reads 1): print the report again with this version"
        );
        assert_eq!(
            read_parts(br#"{"schema_version": 1, "mass_moments": {}}"#)
                .unwrap_err()
                .to_string(),
            "report: missing field `ixx`; is this a JSON report of inertia?"
        );
        assert!(read_parts(b"not json").is_err());
    }
}
