//! Polygons in JSON.
//!
//! Accepted shapes (points may be `[x, y]` or `{"x": .., "y": ..}` anywhere):
//! - `[[x, y], ...]`
//! - `{"points": [[x, y], ...]}`
//! - `[{"x": .., "y": ..}, ...]`
//! - `{"outer": [[x, y], ...], "holes": [[[x, y], ...], ...]}`
//!
//! Unknown keys are refused rather than ignored, so a misspelt `"hole"` cannot silently drop
//! a hole.

use super::PolygonRings;
use crate::error::{Error, Result, clip};
use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use std::fmt;

/// Parses a JSON polygon document.
///
/// # Errors
/// [`Error::Parse`] for text that is not JSON, or a point that is not
/// two finite numbers, naming it.
///
/// # Examples
/// ```
/// let r = inertia::io::json::parse(br#"{"outer": [[0,0],[4,0],[4,4],[0,4]], "holes": [[{"x":1,"y":1},[2,1],[2,2]]]}"#)?;
/// assert_eq!(r.outer.len(), 4);
/// assert_eq!(r.holes[0][0], [1.0, 1.0]);
/// # Ok::<(), inertia::Error>(())
/// ```
pub fn parse(bytes: &[u8]) -> Result<PolygonRings> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match serde_json::from_slice::<Doc>(bytes) {
        Ok(doc) => Ok(doc.0),
        Err(e) => {
            let place = format!("line {}, column {}", e.line(), e.column());
            let text = e.to_string();
            let suffix = format!(" at line {} column {}", e.line(), e.column());
            let message = text.strip_suffix(&suffix).unwrap_or(&text).to_string();
            Err(Error::parse(place, message))
        }
    }
}

/// Writes points as a JSON polygon `[[x, y], ...]` (full precision; reads back exactly).
///
/// # Examples
/// ```
/// let text = inertia::io::json::write(&[[0.0, 0.0], [1.0, 0.0], [0.5, 0.1]]);
/// assert_eq!(inertia::io::json::parse(text.as_bytes())?.outer[2], [0.5, 0.1]);
/// # Ok::<(), inertia::Error>(())
/// ```
pub fn write(points: &[[f64; 2]]) -> String {
    let mut s = serde_json::to_string(points).expect("finite points serialise");
    s.push('\n');
    s
}

const EXPECTED_DOC: &str =
    "a polygon: [[x, y], ...], {\"points\": [...]} or {\"outer\": [...], \"holes\": [[...], ...]}";

struct Doc(PolygonRings);

impl<'de> Deserialize<'de> for Doc {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        d.deserialize_any(DocVisitor)
    }
}

struct DocVisitor;

impl<'de> Visitor<'de> for DocVisitor {
    type Value = Doc;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(EXPECTED_DOC)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> std::result::Result<Doc, A::Error> {
        let outer = Points::visit(seq)?;
        Ok(Doc(PolygonRings {
            outer,
            holes: vec![],
            arcs: vec![],
            max_deviation: None,
        }))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<Doc, A::Error> {
        let mut outer: Option<Vec<[f64; 2]>> = None;
        let mut holes: Option<Vec<Vec<[f64; 2]>>> = None;
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "points" | "outer" => {
                    if outer.is_some() {
                        return Err(de::Error::custom(format!(
                            "\"{key}\" given twice (\"points\" and \"outer\" are the same ring)"
                        )));
                    }
                    outer = Some(map.next_value::<Points>()?.0);
                }
                "holes" => {
                    if holes.is_some() {
                        return Err(de::Error::custom("\"holes\" given twice"));
                    }
                    holes = Some(
                        map.next_value::<Vec<Points>>()?
                            .into_iter()
                            .map(|p| p.0)
                            .collect(),
                    );
                }
                other => {
                    return Err(de::Error::custom(format!(
                        "unknown key \"{}\"; expected \"points\", \"outer\" or \"holes\"",
                        clip(other)
                    )));
                }
            }
        }
        let outer = outer.ok_or_else(|| de::Error::custom("missing \"points\" or \"outer\""))?;
        Ok(Doc(PolygonRings {
            outer,
            holes: holes.unwrap_or_default(),
            arcs: vec![],
            max_deviation: None,
        }))
    }
}

/// A list of points.
struct Points(Vec<[f64; 2]>);

impl Points {
    fn visit<'de, A: SeqAccess<'de>>(mut seq: A) -> std::result::Result<Vec<[f64; 2]>, A::Error> {
        // Cap the reservation: a hostile size hint must not allocate up front.
        let mut v = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1 << 16));
        while let Some(p) = seq.next_element::<Point>()? {
            v.push(p.0);
        }
        Ok(v)
    }
}

impl<'de> Deserialize<'de> for Points {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Points;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a list of points [[x, y], ...]")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> std::result::Result<Points, A::Error> {
                Ok(Points(Points::visit(seq)?))
            }
        }
        d.deserialize_seq(V)
    }
}

/// One point, `[x, y]` or `{"x": .., "y": ..}`.
struct Point([f64; 2]);

impl<'de> Deserialize<'de> for Point {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        d.deserialize_any(PointVisitor)
    }
}

struct PointVisitor;

impl<'de> Visitor<'de> for PointVisitor {
    type Value = Point;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a point [x, y] or {\"x\": .., \"y\": ..}")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<Point, A::Error> {
        let x: f64 = seq
            .next_element()?
            .ok_or_else(|| de::Error::custom("a point needs 2 coordinates [x, y], got 0"))?;
        let y: f64 = seq
            .next_element()?
            .ok_or_else(|| de::Error::custom("a point needs 2 coordinates [x, y], got 1"))?;
        if seq.next_element::<de::IgnoredAny>()?.is_some() {
            return Err(de::Error::custom(
                "a point has exactly 2 coordinates [x, y], got more",
            ));
        }
        Ok(Point([x, y]))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<Point, A::Error> {
        let (mut x, mut y) = (None, None);
        while let Some(key) = map.next_key::<String>()? {
            let slot = match key.as_str() {
                "x" | "X" => &mut x,
                "y" | "Y" => &mut y,
                other => {
                    return Err(de::Error::custom(format!(
                        "unknown key \"{}\" in a point; expected \"x\" and \"y\"",
                        clip(other)
                    )));
                }
            };
            if slot.is_some() {
                return Err(de::Error::custom(format!(
                    "\"{}\" given twice in a point",
                    clip(&key)
                )));
            }
            *slot = Some(map.next_value::<f64>()?);
        }
        match (x, y) {
            (Some(x), Some(y)) => Ok(Point([x, y])),
            _ => Err(de::Error::custom("a point needs both \"x\" and \"y\"")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(s: &str) -> String {
        parse(s.as_bytes()).unwrap_err().to_string()
    }

    #[test]
    fn every_accepted_shape() {
        let sq = vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0]];
        for s in [
            "[[0,0],[1,0],[1,1]]",
            r#"{"points": [[0,0],[1,0],[1,1]]}"#,
            r#"[{"x":0,"y":0},{"y":0,"x":1},{"x":1,"y":1}]"#,
            r#"{"outer": [[0,0],[1,0],[1,1]], "holes": []}"#,
            "\u{feff}[[0, 0.0], [1e0, 0], [1, 1]]",
        ] {
            assert_eq!(parse(s.as_bytes()).unwrap().outer, sq, "{s}");
        }
    }

    #[test]
    fn wrong_shapes_say_what_was_expected() {
        assert_eq!(err(""), "line 1, column 0: EOF while parsing a value");
        assert!(err("[[0,0],[1,0],[1]]").contains("a point needs 2 coordinates [x, y], got 1"));
        assert!(err("[[0,0,0]]").contains("got more"));
        assert_eq!(
            err("[[0,\"a\"]]"),
            "line 1, column 7: invalid type: string \"a\", expected f64"
        );
        assert!(err("42").contains("expected a polygon"));
        assert!(err(r#"{"outer": [[0,0]], "hole": []}"#).contains("unknown key \"hole\""));
        assert!(err(r#"{"holes": []}"#).contains("missing \"points\" or \"outer\""));
        assert!(err(r#"[{"x": 1}]"#).contains("needs both"));
        assert!(err("[[0,0],\n [1,1e999]]").starts_with("line 2, column"));
        assert!(err("[[0,0],[1,1]] x").contains("trailing characters"));
        let deep = "[".repeat(100_000);
        // Deep nesting is refused at the first level that cannot hold a point, without recursion.
        assert_eq!(
            err(&deep),
            "line 1, column 2: invalid type: sequence, expected f64"
        );
    }
}
