//! Reading reports back: a `--json` report of `polygon`, `mesh`, `shape` or `combine` (or a
//! batch of them, or JSON Lines) deserialised into the report types of
//! [`report::schema`](crate::report::schema), its `schema_version` checked, its names
//! checked (`method`, `winding`: one of the names inertia writes), its numbers checked
//! (finite, physical, consistent), and returned about the centroid in the tensor
//! convention whatever `about` and `products` the report was printed with.

use super::Part;
use crate::error::{Error, Result, clip};
use crate::mass2d::{MassProperties2d, SecondMoments2d};
use crate::mass3d::{MassProperties3d, shift_tensor};
use crate::report::schema::SCHEMA_VERSION;
use crate::report::{Body, MeshReport, Outline, PolygonReport};
use crate::units::{LengthUnit, Products, UnitLabels, Units};
use nalgebra::{Matrix3, Point2, Point3};
use serde_json::Value;

/// A report's value as the schema's type `T`, or the deserialiser's words (the missing or
/// mistyped field) at `place`.
fn typed<T: serde::de::DeserializeOwned>(v: &Value, place: &str) -> Result<T> {
    T::deserialize(v)
        .map_err(|e| Error::parse(place, format!("{e}; is this a JSON report of inertia?")))
}

/// Refuses a document whose `schema_version` is missing or not [`SCHEMA_VERSION`].
fn check_version(v: &Value, place: &str) -> Result<()> {
    match v.get("schema_version") {
        Some(n) if n.as_u64() == Some(u64::from(SCHEMA_VERSION)) => Ok(()),
        Some(n) => Err(Error::parse(
            place,
            format!(
                "schema_version {} is not one this inertia reads (it reads {SCHEMA_VERSION}): print the report again with this version",
                clip(&n.to_string())
            ),
        )),
        None => Err(Error::parse(
            place,
            "missing \"schema_version\": not a JSON report printed by inertia",
        )),
    }
}

fn units_of(labels: &UnitLabels, place: &str) -> Result<Units> {
    let unit = match labels.length.as_str() {
        "input" => None,
        other => Some(LengthUnit::from_symbol(other).ok_or_else(|| {
            Error::parse(place, format!("unknown length unit \"{}\"", clip(other)))
        })?),
    };
    Ok(Units {
        input: unit,
        output: unit,
    })
}

/// Reads one report object: a mesh's (it has an `inertia_tensor`) or a plate's.
fn part(v: &Value, place: &str) -> Result<Part> {
    if v.get("methods").is_some() {
        return Err(Error::parse(
            place,
            "a comparison of methods; combine takes single-method reports",
        ));
    }
    if v.get("inertia_tensor").is_some() {
        return solid(typed(v, place)?, place);
    }
    if v.get("mass_moments").is_none() {
        return Err(Error::parse(
            place,
            "neither \"inertia_tensor\" nor \"mass_moments\": not an inertia report",
        ));
    }
    plate(typed(v, place)?, place)
}

/// A solid's report, about its centroid in the tensor convention.
fn solid(r: MeshReport, place: &str) -> Result<Part> {
    let units = units_of(&r.units, place)?;
    let mass = positive(r.mass, "mass", place)?;
    // The tensor convention, whatever the report was printed in.
    let read = |rows: [[f64; 3]; 3]| {
        let mut t = Matrix3::from_fn(|r, c| rows[r][c]);
        if r.products == Products::Cad {
            for i in 0..3 {
                for j in 0..3 {
                    if i != j {
                        t[(i, j)] = -t[(i, j)];
                    }
                }
            }
        }
        t
    };
    let t = read(r.inertia_tensor);
    let centroid = Point3::from(r.centroid);
    let about = Point3::from(r.about);
    // Rounding is judged against the tensor as printed: moving it from a far `about`
    // back to the centroid costs digits that were never there.
    let scale = t.abs().max();
    check_tensor(&t, scale, place)?;
    let inertia = match r.centroidal_inertia_tensor {
        // The report's own tensor about its centroid: no digits lost, but it must be the
        // printed tensor's, moved.
        Some(c) => {
            let inertia = read(c);
            check_tensor(&inertia, inertia.abs().max(), place)?;
            let moved = shift_tensor(&inertia, mass, about - centroid);
            if (moved - t).abs().max() > 1e-9 * scale {
                return Err(Error::parse(
                    place,
                    "\"centroidal_inertia_tensor\" moved to \"about\" is not \"inertia_tensor\": the report was edited, or its numbers do not belong together",
                ));
            }
            inertia
        }
        None => {
            // Tensor about `about` → about the centroid, refused when the shift leaves fewer
            // digits than a report must keep.
            let inertia = shift_tensor(&t, -mass, centroid - about);
            check_tensor(&inertia, scale, place)?;
            recovered(
                inertia.abs().max(),
                scale,
                || {
                    let n = crate::error::num;
                    format!(
                        "its tensor is about ({}, {}, {})",
                        n(about.x),
                        n(about.y),
                        n(about.z)
                    )
                },
                "centroidal_inertia_tensor",
                place,
            )?;
            inertia
        }
    };
    Ok(Part::Solid {
        properties: MassProperties3d {
            volume: positive(r.volume, "volume", place)?,
            mass,
            centroid,
            inertia,
        },
        body: Box::new(Body {
            triangles: r.triangles.unwrap_or(0),
            degenerate_triangles: r.degenerate_triangles.unwrap_or(0),
            vertices: r.vertices.unwrap_or(0),
            shells: r.shells,
            cavities: r.cavities,
            inside_out: false,
            surface_area: r.surface_area,
            bounding_box: r.bounding_box,
            // Not carried: its lengths are in the report's units.
            contacts: None,
            left_out: None,
            junctions: None,
            union: None,
        }),
        units,
        method: r.method,
    })
}

/// A plate's report, about its centroid with products as `+∫xy dm`.
fn plate(r: PolygonReport, place: &str) -> Result<Part> {
    let units = units_of(&r.units, place)?;
    let mass = positive(r.mass, "mass", place)?;
    let sign = r.products.sign(); // printed = sign · (+∫xy)
    let read = |m: crate::report::PlanarMoments| SecondMoments2d {
        ixx: m.ixx,
        iyy: m.iyy,
        ixy: sign * m.ixy,
    };
    let about_moments = read(r.mass_moments);
    let centroid = Point2::from(r.centroid);
    let about = Point2::from(r.about);
    let size = |m: &SecondMoments2d| m.ixx.abs().max(m.iyy.abs()).max(m.ixy.abs());
    let scale = size(&about_moments);
    check_moments(&about_moments, scale, place)?;
    let moments = match r.centroidal_mass_moments {
        // The report's own moments about its centroid: they must be the printed ones, moved.
        Some(c) => {
            let moments = read(c);
            check_moments(&moments, size(&moments), place)?;
            let moved = moments.shifted(mass, about - centroid);
            if size(&SecondMoments2d {
                ixx: moved.ixx - about_moments.ixx,
                iyy: moved.iyy - about_moments.iyy,
                ixy: moved.ixy - about_moments.ixy,
            }) > 1e-9 * scale
            {
                return Err(Error::parse(
                    place,
                    "\"centroidal_mass_moments\" moved to \"about\" are not \"mass_moments\": the report was edited, or its numbers do not belong together",
                ));
            }
            moments
        }
        None => {
            let moments = about_moments.shifted(-mass, centroid - about);
            check_moments(&moments, scale, place)?;
            recovered(
                size(&moments),
                scale,
                || {
                    let n = crate::error::num;
                    format!("its moments are about ({}, {})", n(about.x), n(about.y))
                },
                "centroidal_mass_moments",
                place,
            )?;
            moments
        }
    };
    Ok(Part::Planar {
        properties: MassProperties2d {
            area: positive(r.area, "area", place)?,
            mass,
            centroid,
            moments,
        },
        outline: Outline {
            vertices: r.vertices,
            holes: r.holes,
            winding: r.winding,
            perimeter: r.perimeter,
            max_deviation: r.max_deviation,
            bounding_box: r.bounding_box,
        },
        units,
        method: r.method,
    })
}

/// A number that must be positive and finite (a mass, an area, a volume).
fn positive(x: f64, key: &str, place: &str) -> Result<f64> {
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

/// The relative precision a part's centroidal tensor must be recovered to, from a report
/// about another point.
const RECOVERED: f64 = 1e-12;

/// Refuses moments moved back to the centroid from a report about a far point when the
/// printed values' rounding (`scale`: their largest) leaves fewer digits of what was kept
/// (`kept`: the largest moved value) than [`RECOVERED`]; `what` names the report's point,
/// `field` the field that would have carried the centroidal values.
fn recovered(
    kept: f64,
    scale: f64,
    what: impl FnOnce() -> String,
    field: &str,
    place: &str,
) -> Result<()> {
    let error = 4.0 * f64::EPSILON * scale;
    if error <= RECOVERED * kept {
        return Ok(());
    }
    Err(Error::parse(
        place,
        format!(
            "{}, far from its centroid: moved back to the centroid, only about {} significant digits are left (a combined result needs 12); write the report about its centroid (the default), or with an inertia that records \"{field}\"",
            what(),
            ((kept / error).log10().floor().max(0.0)) as i32
        ),
    ))
}

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

/// Reads the parts in a report file: one object, `{"parts": [...]}` (its parts; its total
/// is ignored), or JSON Lines.
///
/// # Errors
/// [`Error::Parse`](crate::Error::Parse) for text that is not a report (not JSON, a
/// `schema_version` missing or other than
/// [`SCHEMA_VERSION`](crate::report::schema::SCHEMA_VERSION), a `--method all` comparison,
/// a missing or mistyped field, unknown units or products, a `method` or `winding` that is
/// not a name inertia writes there),
/// and the checks that refuse an unphysical part (a negative principal moment, a tensor
/// breaking the triangle inequality, a batch report listing failed inputs).
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
        check_version(v, &place)?;
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
        return Err(Error::Empty {
            missing: crate::error::Missing::ReportParts,
        });
    }
    Ok(parts)
}
