//! Assemblies: mass properties read back from `--json` reports, moved and summed.
//!
//! `inertia combine` reads the reports that `polygon`, `mesh` or `shape` print with `--json`
//! (one object, a `{"parts": [...]}` object, or JSON Lines), undoes their presentation
//! (the `about` point, the sign of products, the units), moves each part by an optional
//! rotation then translation, and sums them (Blow & Binstock's `Combine`).

use crate::error::{Error, Result, clip};
use crate::mass2d::{MassProperties2d, SecondMoments2d};
use crate::mass3d::{MassProperties3d, shift_tensor};
use crate::report::{Body, BoundingBox, BoundingBox2d, Outline};
use crate::units::{LengthUnit, Products, Units};
use nalgebra::{Matrix2, Matrix3, Point2, Point3, Rotation3, Unit, Vector2, Vector3};
use serde_json::Value;

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
        /// Outline counts, for the total.
        outline: Outline,
        /// The report's units.
        units: Units,
    },
    /// A solid (from `mesh` or a 3D `shape`).
    Solid {
        /// Mass properties about the centroid (tensor convention).
        properties: MassProperties3d,
        /// Mesh counts, for the total.
        body: Body,
        /// The report's units.
        units: Units,
    },
}

fn num(v: &Value, key: &str, place: &str) -> Result<f64> {
    v.get(key).and_then(Value::as_f64).ok_or_else(|| {
        Error::parse(
            place,
            format!("missing number \"{key}\"; is this an `inertia ... --json` report?"),
        )
    })
}

fn vector<const N: usize>(v: &Value, key: &str, place: &str) -> Result<[f64; N]> {
    let arr = v
        .get(key)
        .and_then(Value::as_array)
        .ok_or_else(|| Error::parse(place, format!("missing array \"{key}\"")))?;
    if arr.len() != N {
        return Err(Error::parse(
            place,
            format!("\"{key}\" has {} values, expected {N}", arr.len()),
        ));
    }
    let mut out = [0.0; N];
    for (o, x) in out.iter_mut().zip(arr) {
        *o = x
            .as_f64()
            .ok_or_else(|| Error::parse(place, format!("\"{key}\" holds a non-number")))?;
    }
    Ok(out)
}

fn count(v: &Value, key: &str) -> usize {
    v.get(key).and_then(Value::as_u64).unwrap_or(0) as usize
}

fn units_of(v: &Value, place: &str) -> Result<Units> {
    let length = v
        .get("units")
        .and_then(|u| u.get("length"))
        .and_then(Value::as_str)
        .ok_or_else(|| {
            Error::parse(
                place,
                "missing \"units\"; reports from this version of inertia carry them",
            )
        })?;
    let unit = match length {
        "input" => None,
        "um" => Some(LengthUnit::Um),
        "mm" => Some(LengthUnit::Mm),
        "cm" => Some(LengthUnit::Cm),
        "m" => Some(LengthUnit::M),
        "in" => Some(LengthUnit::In),
        "ft" => Some(LengthUnit::Ft),
        other => {
            return Err(Error::parse(
                place,
                format!("unknown length unit \"{}\"", clip(other)),
            ));
        }
    };
    Ok(Units {
        input: unit,
        output: unit,
    })
}

fn products_of(v: &Value, place: &str) -> Result<Products> {
    match v.get("products").and_then(Value::as_str) {
        Some("tensor") => Ok(Products::Tensor),
        Some("cad") => Ok(Products::Cad),
        _ => Err(Error::parse(
            place,
            "missing \"products\" (\"tensor\" or \"cad\")",
        )),
    }
}

/// Reads one report object.
fn part(v: &Value, place: &str) -> Result<Part> {
    if v.get("methods").is_some() {
        return Err(Error::parse(
            place,
            "a --method all comparison; combine takes single-method reports",
        ));
    }
    let units = units_of(v, place)?;
    let products = products_of(v, place)?;
    let mass = positive_num(v, "mass", place)?;
    if let Some(tensor) = v.get("inertia_tensor") {
        let rows: Vec<[f64; 3]> = (0..3)
            .map(|r| row(tensor, r, place))
            .collect::<Result<_>>()?;
        let mut t = Matrix3::from_fn(|r, c| rows[r][c]);
        if products == Products::Cad {
            for r in 0..3 {
                for c in 0..3 {
                    if r != c {
                        t[(r, c)] = -t[(r, c)];
                    }
                }
            }
        }
        let centroid = Point3::from(vector::<3>(v, "centroid", place)?);
        let about = Point3::from(vector::<3>(v, "about", place)?);
        // Rounding is judged against the tensor as printed: moving it from a far `about`
        // back to the centroid costs digits that were never there.
        let scale = t.abs().max();
        check_tensor(&t, scale, place)?;
        // Tensor about `about` → about the centroid.
        let inertia = shift_tensor(&t, -mass, centroid - about);
        check_tensor(&inertia, scale, place)?;
        let b = v.get("bounding_box");
        let bbox = match b {
            Some(b) => BoundingBox {
                min: vector::<3>(b, "min", place)?,
                max: vector::<3>(b, "max", place)?,
            },
            None => BoundingBox {
                min: centroid.into(),
                max: centroid.into(),
            },
        };
        return Ok(Part::Solid {
            properties: MassProperties3d {
                volume: positive_num(v, "volume", place)?,
                mass,
                centroid,
                inertia,
            },
            body: Body {
                triangles: count(v, "triangles"),
                degenerate_triangles: count(v, "degenerate_triangles"),
                vertices: count(v, "vertices"),
                shells: count(v, "shells"),
                cavities: count(v, "cavities"),
                inside_out: false,
                surface_area: v.get("surface_area").and_then(Value::as_f64).unwrap_or(0.0),
                bounding_box: bbox,
            },
            units,
        });
    }
    let sm = v.get("mass_moments").ok_or_else(|| {
        Error::parse(
            place,
            "neither \"inertia_tensor\" nor \"mass_moments\": not an inertia report",
        )
    })?;
    let sign = products.sign(); // printed = sign · (+∫xy)
    let about_moments = SecondMoments2d {
        ixx: num(sm, "ixx", place)?,
        iyy: num(sm, "iyy", place)?,
        ixy: sign * num(sm, "ixy", place)?,
    };
    let centroid = Point2::from(vector::<2>(v, "centroid", place)?);
    let about = Point2::from(vector::<2>(v, "about", place)?);
    let scale = about_moments
        .ixx
        .abs()
        .max(about_moments.iyy.abs())
        .max(about_moments.ixy.abs());
    check_moments(&about_moments, scale, place)?;
    let moments = about_moments.shifted(-mass, centroid - about);
    check_moments(&moments, scale, place)?;
    Ok(Part::Planar {
        properties: MassProperties2d {
            area: positive_num(v, "area", place)?,
            mass,
            centroid,
            moments,
        },
        outline: Outline {
            vertices: count(v, "vertices"),
            holes: count(v, "holes"),
            winding: "ccw",
            perimeter: v.get("perimeter").and_then(Value::as_f64).unwrap_or(0.0),
            max_deviation: v.get("max_deviation").and_then(Value::as_f64),
            bounding_box: match v.get("bounding_box") {
                Some(b) => Some(BoundingBox2d {
                    min: vector::<2>(b, "min", place)?,
                    max: vector::<2>(b, "max", place)?,
                }),
                None => None,
            },
        },
        units,
    })
}

/// A number that must be positive and finite (a mass, an area, a volume).
fn positive_num(v: &Value, key: &str, place: &str) -> Result<f64> {
    let x = num(v, key, place)?;
    if x.is_finite() && x > 0.0 {
        Ok(x)
    } else {
        Err(Error::parse(
            place,
            format!("\"{key}\" is {x}; a part needs a positive finite {key}"),
        ))
    }
}

/// Rounding allowed in a report's tensor, relative to its largest moment: the printed
/// digits are exact to f64, but the tensor was shifted and summed before printing.
const TENSOR_ROUNDING: f64 = 1e-9;

/// A solid's tensor (tensor convention) must be symmetric and physical: principal moments
/// non-negative and each at most the sum of the other two, within rounding.
use crate::error::num as short;

fn check_tensor(t: &Matrix3<f64>, scale: f64, place: &str) -> Result<()> {
    let bad = |what: String| Err(Error::parse(place, what));
    if t.iter().any(|x| !x.is_finite()) {
        return bad("\"inertia_tensor\" holds a non-finite number".into());
    }
    let tol = TENSOR_ROUNDING * scale;
    for (r, c) in [(0, 1), (0, 2), (1, 2)] {
        if (t[(r, c)] - t[(c, r)]).abs() > tol {
            return bad(format!(
                "\"inertia_tensor\" is not symmetric (row {}, column {}: {} vs {})",
                r + 1,
                c + 1,
                short(t[(r, c)]),
                short(t[(c, r)])
            ));
        }
    }
    // Eigenvalues of the tensor scaled to 1, so that none of its squares overflow.
    let unit = t / scale.max(f64::MIN_POSITIVE);
    let sym = (unit + unit.transpose()) * 0.5;
    let mut m: Vec<f64> = sym
        .symmetric_eigenvalues()
        .iter()
        .map(|x| x * scale)
        .collect();
    m.sort_by(f64::total_cmp);
    if m.iter().any(|x| x.is_nan()) || m[0] < -tol {
        return bad(format!(
            "\"inertia_tensor\" has a negative principal moment ({}): not a body's tensor",
            short(m[0])
        ));
    }
    if m[2] > m[0] + m[1] + tol {
        return bad(format!(
            "\"inertia_tensor\" breaks the triangle inequality (principal moments {}, {}, {}): not a body's tensor",
            short(m[0]),
            short(m[1]),
            short(m[2])
        ));
    }
    Ok(())
}

/// A plate's second moments must be physical: `ixx, iyy ≥ 0` and `ixx·iyy ≥ ixy²` within
/// rounding.
fn check_moments(m: &SecondMoments2d, scale: f64, place: &str) -> Result<()> {
    let bad = |what: String| Err(Error::parse(place, what));
    if ![m.ixx, m.iyy, m.ixy].iter().all(|x| x.is_finite()) {
        return bad("\"mass_moments\" holds a non-finite number".into());
    }
    let tol = TENSOR_ROUNDING * scale;
    let least = m.principal().moments[0];
    if m.ixx < -tol || m.iyy < -tol || least < -tol {
        return bad(format!(
            "\"mass_moments\" are not a body's (ixx {}, iyy {}, ixy {}: a negative principal moment)",
            short(m.ixx),
            short(m.iyy),
            short(m.ixy)
        ));
    }
    Ok(())
}

fn row(tensor: &Value, r: usize, place: &str) -> Result<[f64; 3]> {
    let row = tensor
        .as_array()
        .and_then(|rows| rows.get(r))
        .ok_or_else(|| Error::parse(place, "\"inertia_tensor\" is not 3 rows"))?;
    let cells = row
        .as_array()
        .filter(|c| c.len() == 3)
        .ok_or_else(|| Error::parse(place, "\"inertia_tensor\" rows need 3 numbers"))?;
    let mut out = [0.0; 3];
    for (o, c) in out.iter_mut().zip(cells) {
        *o = c
            .as_f64()
            .ok_or_else(|| Error::parse(place, "\"inertia_tensor\" holds a non-number"))?;
    }
    Ok(out)
}

/// Reads the parts in a report file: one object, `{"parts": [...]}` (its parts; its total
/// is ignored), or JSON Lines.
///
/// # Examples
/// ```
/// use inertia::{Amount, Polygon, PolygonMethod, report::{json, PolygonReport}};
/// let sq = Polygon::new(vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], vec![])?;
/// let text = json::polygon(&PolygonReport::new("sq", &sq, PolygonMethod::Fan, Amount::Density(2.0), None));
/// let parts = inertia::assembly::read_parts(text.as_bytes())?;
/// assert_eq!(parts.len(), 1);
/// # Ok::<(), inertia::Error>(())
/// ```
pub fn read_parts(bytes: &[u8]) -> Result<Vec<Part>> {
    let values: Vec<Value> = match serde_json::from_slice::<Value>(bytes) {
        Ok(v) => vec![v],
        Err(whole) => {
            // JSON Lines?
            let text =
                std::str::from_utf8(bytes).map_err(|_| Error::parse("byte 0", "not text"))?;
            let mut vs = Vec::new();
            for (i, line) in text
                .lines()
                .enumerate()
                .filter(|(_, l)| !l.trim().is_empty())
            {
                match serde_json::from_str::<Value>(line) {
                    Ok(v) => vs.push(v),
                    Err(_) if i == 0 => {
                        return Err(Error::parse(
                            format!("line {}, column {}", whole.line(), whole.column()),
                            whole.to_string(),
                        ));
                    }
                    Err(e) => return Err(Error::parse(format!("line {}", i + 1), e.to_string())),
                }
            }
            vs
        }
    };
    let mut parts = Vec::new();
    for (i, v) in values.iter().enumerate() {
        let place = if values.len() > 1 {
            format!("line {}", i + 1)
        } else {
            "report".to_string()
        };
        if v.get("error").is_some() && v.get("mass").is_none() {
            return Err(Error::parse(
                place,
                "this line is an error record, not a part",
            ));
        }
        if let Some(errors) = v.get("errors").and_then(Value::as_array)
            && !errors.is_empty()
        {
            let first = errors
                .first()
                .and_then(|e| e.get("source").or_else(|| e.get("input")))
                .and_then(Value::as_str)
                .unwrap_or("?");
            return Err(Error::parse(
                place,
                format!(
                    "the report lists {} input(s) that failed (first: {}); an assembly without them would be wrong: fix them and report again",
                    errors.len(),
                    clip(first)
                ),
            ));
        }
        match v.get("parts").and_then(Value::as_array) {
            Some(list) => {
                for (k, p) in list.iter().enumerate() {
                    parts.push(part(p, &format!("part {}", k + 1))?);
                }
            }
            None => parts.push(part(v, &place)?),
        }
    }
    if parts.is_empty() {
        return Err(Error::Empty("no parts in the report".into()));
    }
    Ok(parts)
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
    ///     body: Default::default(), units: Default::default(),
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
                    body: Body {
                        bounding_box: BoundingBox { min: lo, max: hi },
                        ..*body
                    },
                    units: *units,
                }
            }
            Part::Planar {
                properties: p,
                outline,
                units,
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
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{MeshReport, PolygonReport, json};
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
            read_parts(br#"{"methods": {}}"#)
                .unwrap_err()
                .to_string()
                .contains("--method all")
        );
        assert!(read_parts(b"not json").is_err());
    }
}
