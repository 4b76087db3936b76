//! GeoJSON polygons (RFC 7946): `Polygon`, `MultiPolygon`, `Feature`, `FeatureCollection`
//! and `GeometryCollection`.
//!
//! Each polygon is a part, with its holes (the rings after the first). Rings are closed
//! (the last position repeats the first; it is dropped) and may carry a third coordinate
//! (altitude), which is ignored. RFC 7946 asks for counter-clockwise exteriors, but, as it
//! also asks of readers, other windings are accepted. A geometry with no area (`Point`,
//! `LineString`, ...) is refused, naming the feature.

use super::PolygonRings;
use crate::error::{Error, Result, clip};
use serde_json::Value;

/// One polygon of a GeoJSON document: a name for reports and its rings.
///
/// # Examples
/// ```
/// let parts = inertia::io::geojson::parse(br#"{"type": "Polygon", "coordinates": [[[0,0],[1,0],[0,1],[0,0]]]}"#)?;
/// assert_eq!(parts[0].name, "");
/// assert_eq!(parts[0].rings.outer.len(), 4);
/// # Ok::<(), inertia::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Part {
    /// `feature 2` or the feature's `"name"` property, plus `polygon k` inside a
    /// `MultiPolygon`; empty for a lone `Polygon`.
    pub name: String,
    /// The rings.
    pub rings: PolygonRings,
    /// Which geometry it comes from: the members of one MultiPolygon share it.
    pub group: usize,
}

/// True if `bytes` look like GeoJSON: a JSON object with a `"type"` member.
///
/// # Examples
/// ```
/// assert!(inertia::io::geojson::looks_like(br#"{"type": "Polygon", "coordinates": []}"#));
/// assert!(!inertia::io::geojson::looks_like(b"[[0, 0]]"));
/// ```
pub fn looks_like(bytes: &[u8]) -> bool {
    let first = bytes.iter().find(|b| !b.is_ascii_whitespace());
    first == Some(&b'{') && bytes.windows(6).any(|w| w == b"\"type\"")
}

/// Parses a GeoJSON document into its polygons.
///
/// # Errors
/// [`Error::Parse`] for text that is not GeoJSON, a geometry that is
/// not a (Multi)Polygon, or a ring that is not a list of coordinate pairs, naming the
/// feature.
///
/// # Examples
/// ```
/// let doc = br#"{"type": "FeatureCollection", "features": [
///   {"type": "Feature", "properties": {"name": "lot 7"},
///    "geometry": {"type": "Polygon", "coordinates": [[[0,0],[4,0],[4,3],[0,0]]]}},
///   {"type": "Feature", "properties": null,
///    "geometry": {"type": "MultiPolygon", "coordinates": [[[[10,0],[11,0],[11,1],[10,0]]], [[[20,0],[21,0],[21,1],[20,0]]]]}}
/// ]}"#;
/// let parts = inertia::io::geojson::parse(doc)?;
/// assert_eq!(parts.len(), 3);
/// assert_eq!(parts[0].name, "lot 7");
/// assert_eq!(parts[2].name, "feature 2, polygon 2");
/// assert_eq!(parts[0].rings.outer.len(), 4);
/// # Ok::<(), inertia::Error>(())
/// ```
pub fn parse(bytes: &[u8]) -> Result<Vec<Part>> {
    let doc: Value = serde_json::from_slice(bytes).map_err(|e| {
        let text = e.to_string();
        let suffix = format!(" at line {} column {}", e.line(), e.column());
        Error::parse(
            format!("line {}, column {}", e.line(), e.column()),
            text.strip_suffix(&suffix).unwrap_or(&text).to_string(),
        )
    })?;
    let mut parts = Vec::new();
    geometry_or_feature(&doc, "", &mut parts)?;
    if parts.is_empty() {
        return Err(Error::Empty {
            missing: crate::error::Missing::GeojsonPolygons,
        });
    }
    Ok(parts)
}

fn kind<'a>(v: &'a Value, place: &str) -> Result<&'a str> {
    v.get("type")
        .and_then(Value::as_str)
        .ok_or_else(|| Error::parse(at(place), "a GeoJSON object needs a \"type\""))
}

fn at(place: &str) -> String {
    if place.is_empty() {
        "GeoJSON".into()
    } else {
        place.to_string()
    }
}

fn join(a: &str, b: &str) -> String {
    if a.is_empty() {
        b.to_string()
    } else {
        format!("{a}, {b}")
    }
}

fn geometry_or_feature(v: &Value, place: &str, out: &mut Vec<Part>) -> Result<()> {
    match kind(v, place)? {
        "FeatureCollection" => {
            let features = v.get("features").and_then(Value::as_array).ok_or_else(|| {
                Error::parse(at(place), "a FeatureCollection needs \"features\": [...]")
            })?;
            for (k, f) in features.iter().enumerate() {
                let name = f
                    .get("properties")
                    .and_then(|p| p.get("name"))
                    .and_then(Value::as_str)
                    .map(clip)
                    .unwrap_or_else(|| format!("feature {}", k + 1));
                geometry_or_feature(f, &join(place, &name), out)?;
            }
            Ok(())
        }
        "Feature" => match v.get("geometry") {
            Some(Value::Null) | None => Ok(()),
            Some(g) => geometry_or_feature(g, place, out),
        },
        "GeometryCollection" => {
            let list = v
                .get("geometries")
                .and_then(Value::as_array)
                .ok_or_else(|| {
                    Error::parse(
                        at(place),
                        "a GeometryCollection needs \"geometries\": [...]",
                    )
                })?;
            for (k, g) in list.iter().enumerate() {
                geometry_or_feature(g, &join(place, &format!("geometry {}", k + 1)), out)?;
            }
            Ok(())
        }
        "Polygon" => {
            let rings = polygon(coordinates(v, place)?, place)?;
            let group = out.last().map_or(0, |p: &Part| p.group + 1);
            out.push(Part {
                name: place.to_string(),
                rings,
                group,
            });
            Ok(())
        }
        "MultiPolygon" => {
            let polys = coordinates(v, place)?.as_array().ok_or_else(|| {
                Error::parse(
                    at(place),
                    "MultiPolygon coordinates must be a list of polygons",
                )
            })?;
            let group = out.last().map_or(0, |p: &Part| p.group + 1);
            for (k, p) in polys.iter().enumerate() {
                let name = join(place, &format!("polygon {}", k + 1));
                let rings = polygon(p, &name)?;
                out.push(Part { name, rings, group });
            }
            Ok(())
        }
        other @ ("Point" | "MultiPoint" | "LineString" | "MultiLineString") => Err(Error::parse(
            at(place),
            format!("a {other} has no area; only Polygon and MultiPolygon geometries do"),
        )),
        other => Err(Error::parse(
            at(place),
            format!("unknown GeoJSON type \"{}\"", clip(other)),
        )),
    }
}

fn coordinates<'a>(v: &'a Value, place: &str) -> Result<&'a Value> {
    v.get("coordinates")
        .ok_or_else(|| Error::parse(at(place), "a geometry needs \"coordinates\""))
}

fn polygon(v: &Value, place: &str) -> Result<PolygonRings> {
    let rings = v
        .as_array()
        .ok_or_else(|| Error::parse(at(place), "Polygon coordinates must be a list of rings"))?;
    let mut parsed = Vec::with_capacity(rings.len());
    for (k, r) in rings.iter().enumerate() {
        let which = if k == 0 {
            "outer ring".to_string()
        } else {
            format!("hole {k}")
        };
        let pts = r.as_array().ok_or_else(|| {
            Error::parse(
                at(place),
                format!("{which}: a ring must be a list of positions"),
            )
        })?;
        let mut ring = Vec::with_capacity(pts.len());
        for (i, p) in pts.iter().enumerate() {
            let c = p.as_array().filter(|c| c.len() >= 2).ok_or_else(|| {
                Error::parse(
                    at(place),
                    format!("{which}, position {}: expected [x, y] or [x, y, z]", i + 1),
                )
            })?;
            let x = c[0].as_f64();
            let y = c[1].as_f64();
            match (x, y) {
                (Some(x), Some(y)) => ring.push([x, y]),
                _ => {
                    return Err(Error::parse(
                        at(place),
                        format!("{which}, position {}: coordinates must be numbers", i + 1),
                    ));
                }
            }
        }
        parsed.push(ring);
    }
    let mut it = parsed.into_iter();
    let outer = it
        .next()
        .ok_or_else(|| Error::parse(at(place), "a Polygon needs at least its outer ring"))?;
    Ok(PolygonRings {
        outer,
        holes: it.collect(),
        arcs: vec![],
        max_deviation: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn polygon_with_hole_and_altitude() {
        let doc = br#"{"type": "Polygon", "coordinates": [
            [[0,0,5],[4,0,5],[4,4,5],[0,4,5],[0,0,5]],
            [[1,1],[1,2],[2,2],[2,1],[1,1]]]}"#;
        let p = parse(doc).unwrap();
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].rings.holes.len(), 1);
        assert_eq!(p[0].rings.outer[2], [4.0, 4.0]);
    }

    #[test]
    fn refusals_name_the_feature() {
        let e = |s: &str| parse(s.as_bytes()).unwrap_err().to_string();
        assert_eq!(
            e(
                r#"{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[0,0],[1,1]]}}]}"#
            ),
            "feature 1: a LineString has no area; only Polygon and MultiPolygon geometries do"
        );
        assert!(
            e(r#"{"type": "Polygon", "coordinates": [[[0,0],[1,"a"],[1,1]]]}"#)
                .contains("outer ring, position 2")
        );
        assert!(e(r#"{"type": "Polygon"}"#).contains("needs \"coordinates\""));
        assert!(e(r#"{"type": "Blob"}"#).contains("unknown GeoJSON type"));
        assert!(e(r#"{"type": "FeatureCollection", "features": []}"#).contains("no polygons"));
        assert!(e(r#"{"type": "Polygon", "coordinates": [[[0,0]"#).starts_with("line 1"));
    }
}
