//! Reading reports back: the fields of a `--json` report of `polygon`, `mesh` or `shape`,
//! checked (finite, physical, consistent) and returned about the centroid in the tensor
//! convention whatever `about` and `products` the report was printed with.

use super::Part;
use crate::error::{Error, Result, clip};
use crate::mass2d::{MassProperties2d, SecondMoments2d};
use crate::mass3d::{MassProperties3d, shift_tensor};
use crate::report::{Body, BoundingBox, BoundingBox2d, Outline};
use crate::units::{LengthUnit, Products, Units};
use nalgebra::{Matrix3, Point2, Point3};
use serde_json::Value;

fn num(v: &Value, key: &str, place: &str) -> Result<f64> {
    v.get(key).and_then(Value::as_f64).ok_or_else(|| {
        Error::parse(
            place,
            format!("missing number \"{key}\"; is this a JSON report of inertia?"),
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
        other if LengthUnit::from_symbol(other).is_some() => LengthUnit::from_symbol(other),
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
            "a comparison of methods; combine takes single-method reports",
        ));
    }
    let units = units_of(v, place)?;
    let products = products_of(v, place)?;
    let mass = positive_num(v, "mass", place)?;
    if let Some(tensor) = v.get("inertia_tensor") {
        let read = |tensor: &Value| -> Result<Matrix3<f64>> {
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
            Ok(t)
        };
        let t = read(tensor)?;
        let centroid = Point3::from(vector::<3>(v, "centroid", place)?);
        let about = Point3::from(vector::<3>(v, "about", place)?);
        // Rounding is judged against the tensor as printed: moving it from a far `about`
        // back to the centroid costs digits that were never there.
        let scale = t.abs().max();
        check_tensor(&t, scale, place)?;
        let inertia = match v.get("centroidal_inertia_tensor") {
            // The report's own tensor about its centroid: no digits lost, but it must be
            // the printed tensor's, moved.
            Some(c) => {
                let inertia = read(c)?;
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
                // Tensor about `about` → about the centroid, refused when the shift leaves
                // fewer digits than a report must keep.
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
                // Not carried: its lengths are in the report's units.
                contacts: None,
                left_out: None,
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
    let read = |sm: &Value| -> Result<SecondMoments2d> {
        Ok(SecondMoments2d {
            ixx: num(sm, "ixx", place)?,
            iyy: num(sm, "iyy", place)?,
            ixy: sign * num(sm, "ixy", place)?,
        })
    };
    let about_moments = read(sm)?;
    let centroid = Point2::from(vector::<2>(v, "centroid", place)?);
    let about = Point2::from(vector::<2>(v, "about", place)?);
    let size = |m: &SecondMoments2d| m.ixx.abs().max(m.iyy.abs()).max(m.ixy.abs());
    let scale = size(&about_moments);
    check_moments(&about_moments, scale, place)?;
    let moments = match v.get("centroidal_mass_moments") {
        // The report's own moments about its centroid: they must be the printed ones,
        // moved.
        Some(c) => {
            let moments = read(c)?;
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
/// # Errors
/// [`Error::Parse`](crate::Error::Parse) for text that is not a report (not JSON, a
/// `--method all` comparison, a missing or non-finite field, unknown units or products),
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
