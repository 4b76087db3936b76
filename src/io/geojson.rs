//! GeoJSON polygons (RFC 7946): `Polygon`, `MultiPolygon`, `Feature`, `FeatureCollection`
//! and `GeometryCollection`.
//!
//! Each polygon is a part, with its holes (the rings after the first). Rings are closed
//! (the last position repeats the first; it is dropped) and may carry a third coordinate
//! (altitude), which is ignored. RFC 7946 asks for counter-clockwise exteriors, but, as it
//! also asks of readers, other windings are accepted. A geometry with no area (`Point`,
//! `LineString`, ...) is refused, naming the feature.
//!
//! RFC 7946's coordinates are WGS 84 longitude and latitude in degrees. The parser reads
//! them as numbers and says which coordinate reference system a `crs` member (from the
//! 2008 GeoJSON format, which RFC 7946 dropped) names ([`Crs`]); what they are is decided
//! when the file is read ([`Coordinates`], [`crate::read::read_bytes`]).
//!
//! How it is read: the document's objects into small typed records whose coordinates are
//! left as text (one pass that checks the JSON and skips over the numbers), then every
//! ring's numbers at once, a ring per task on every core and a large ring (from 1 MiB) in
//! pieces, as [`json`] reads a large list of points. A document this reader does not take
//! (any error, a key given twice, a member it cannot place) is read again whole as a tree
//! of JSON values, which names the place of the error: the messages, and every number to
//! the bit, are those of that one-piece reader (tested below).

use super::PolygonRings;
use super::json::{self, Coords, Position, Skip};
pub use crate::crs::{Crs, GEOGRAPHIC_EPSG};
use crate::error::{Error, Result, clip};
use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value;
use serde_json::value::RawValue;
use std::fmt;

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

/// A GeoJSON document's polygons and the coordinate reference system it names.
#[derive(Clone, Debug, PartialEq)]
pub struct Document {
    /// The polygons, in document order.
    pub parts: Vec<Part>,
    /// What its `crs` members name.
    pub crs: Crs,
}

/// What GeoJSON coordinates are taken for when a file is read.
///
/// # Examples
/// ```
/// use inertia::io::geojson::Coordinates;
/// assert_eq!(Coordinates::default(), Coordinates::Degrees);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Coordinates {
    /// Longitude and latitude in degrees, as RFC 7946 says: a file is refused, since a
    /// plane figure's moments need its coordinates projected to lengths first.
    #[default]
    Degrees,
    /// Lengths in a unit the user declares: refused when the file's `crs` names a
    /// geographic system.
    Lengths,
}

/// What a `crs` member's value names: `{"type": "name", "properties": {"name": ..}}`,
/// `{"type": "EPSG", "properties": {"code": ..}}` or `{"type": "link", "properties":
/// {"href": ..}}`; [`Crs::Unnamed`] for `null` or a member that names nothing.
fn crs_of(v: &Value) -> Crs {
    let props = v.get("properties");
    let text = |key: &str| props.and_then(|p| p.get(key)).and_then(Value::as_str);
    let name = text("name")
        .map(str::to_string)
        .or_else(|| {
            let code = props.and_then(|p| p.get("code"))?;
            code.as_u64().map(|c| format!("EPSG:{c}"))
        })
        .or_else(|| text("href").map(str::to_string));
    name.map_or(Crs::Unnamed, |n| Crs::named(&n))
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
    Ok(parse_document(bytes)?.parts)
}

/// [`parse`], with the coordinate reference system the document names.
///
/// # Errors
/// As [`parse`].
///
/// # Examples
/// ```
/// use inertia::io::geojson::{parse_document, Crs};
/// let doc = br#"{"type": "Polygon", "coordinates": [[[0,0],[1,0],[0,1],[0,0]]]}"#;
/// assert_eq!(parse_document(doc)?.crs, Crs::Unnamed);
/// # Ok::<(), inertia::Error>(())
/// ```
pub fn parse_document(bytes: &[u8]) -> Result<Document> {
    if let Some(doc) = typed_document(bytes) {
        if doc.parts.is_empty() {
            return Err(Error::Empty {
                missing: crate::error::Missing::GeojsonPolygons,
            });
        }
        return Ok(doc);
    }
    tree(bytes)
}

/// The one-piece reader: the whole document as a tree of `serde_json::Value`s, then its
/// geometries. It names the place of every error; [`typed`] leaves every document it
/// does not read to it.
#[cfg(any(test, feature = "fuzzing"))]
pub(crate) fn parse_tree(bytes: &[u8]) -> Result<Vec<Part>> {
    Ok(tree(bytes)?.parts)
}

/// [`parse_tree`], with the coordinate reference system the document names.
fn tree(bytes: &[u8]) -> Result<Document> {
    let doc: Value = serde_json::from_slice(bytes).map_err(|e| {
        let text = e.to_string();
        let suffix = format!(" at line {} column {}", e.line(), e.column());
        Error::parse(
            format!("line {}, column {}", e.line(), e.column()),
            text.strip_suffix(&suffix).unwrap_or(&text).to_string(),
        )
    })?;
    let mut parts = Vec::new();
    let mut crs = Crs::Unnamed;
    geometry_or_feature(&doc, "", &mut parts, &mut crs)?;
    if parts.is_empty() {
        return Err(Error::Empty {
            missing: crate::error::Missing::GeojsonPolygons,
        });
    }
    Ok(Document { parts, crs })
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

fn geometry_or_feature(v: &Value, place: &str, out: &mut Vec<Part>, crs: &mut Crs) -> Result<()> {
    let kind = kind(v, place)?;
    if let Some(c) = v.get("crs") {
        *crs = std::mem::take(crs).and(crs_of(c));
    }
    match kind {
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
                geometry_or_feature(f, &join(place, &name), out, crs)?;
            }
            Ok(())
        }
        "Feature" => match v.get("geometry") {
            Some(Value::Null) | None => Ok(()),
            Some(g) => geometry_or_feature(g, place, out, crs),
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
                geometry_or_feature(g, &join(place, &format!("geometry {}", k + 1)), out, crs)?;
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

/// The typed reader: `None` when the document is not one it reads as [`parse_tree`] would
/// (then [`parse`] reads it with [`parse_tree`], which words the refusal).
#[cfg(test)]
fn typed(bytes: &[u8]) -> Option<Vec<Part>> {
    typed_document(bytes).map(|d| d.parts)
}

/// [`typed`], with the coordinate reference system the document names.
fn typed_document(bytes: &[u8]) -> Option<Document> {
    use rayon::prelude::*;
    let doc: Obj = serde_json::from_slice(bytes).ok()?;
    let mut found = Vec::new();
    let mut crs = Crs::Unnamed;
    walk(&doc, "", &mut found, &mut crs)?;
    // Every ring of every part, in order, read on every core.
    let texts: Vec<&str> = found.iter().flat_map(|f| f.rings.iter().copied()).collect();
    let rings: Vec<Vec<[f64; 2]>> = texts.par_iter().map(|t| ring(t)).collect::<Option<_>>()?;
    let mut rings = rings.into_iter();
    let parts = found
        .into_iter()
        .map(|f| {
            let outer = rings.next().unwrap_or_default();
            let holes = rings.by_ref().take(f.rings.len() - 1).collect();
            Part {
                name: f.name,
                rings: PolygonRings {
                    outer,
                    holes,
                    arcs: vec![],
                    max_deviation: None,
                },
                group: f.group,
            }
        })
        .collect();
    Some(Document { parts, crs })
}

/// A polygon found by [`walk`]: its name, group, and its rings as JSON text (at least one).
struct Found<'a> {
    name: String,
    group: usize,
    rings: Vec<&'a str>,
}

/// [`geometry_or_feature`] over the typed records: the same names, groups and order;
/// `None` wherever that would refuse.
fn walk<'a>(v: &Obj<'a>, place: &str, out: &mut Vec<Found<'a>>, crs: &mut Crs) -> Option<()> {
    let kind = v.kind.as_deref()?;
    if let Some(c) = v.crs {
        let value: Value = serde_json::from_str(c.get()).ok()?;
        *crs = std::mem::take(crs).and(crs_of(&value));
    }
    if !matches!(kind, "Polygon" | "MultiPolygon")
        && let Some(c) = v.coordinates
    {
        // Not read, but checked as the tree would check it.
        serde_json::from_str::<Skip>(c.get()).ok()?;
    }
    match kind {
        "FeatureCollection" => {
            for (k, f) in v.features.as_ref()?.iter().enumerate() {
                let name = f
                    .name
                    .as_deref()
                    .map(clip)
                    .unwrap_or_else(|| format!("feature {}", k + 1));
                walk(f, &join(place, &name), out, crs)?;
            }
            Some(())
        }
        "Feature" => match &v.geometry {
            Some(Some(g)) => walk(g, place, out, crs),
            _ => Some(()),
        },
        "GeometryCollection" => {
            for (k, g) in v.geometries.as_ref()?.iter().enumerate() {
                walk(g, &join(place, &format!("geometry {}", k + 1)), out, crs)?;
            }
            Some(())
        }
        "Polygon" => {
            let rings = elements(v.coordinates?.get())?;
            if rings.is_empty() {
                return None;
            }
            let group = out.last().map_or(0, |p| p.group + 1);
            out.push(Found {
                name: place.to_string(),
                group,
                rings,
            });
            Some(())
        }
        "MultiPolygon" => {
            let group = out.last().map_or(0, |p| p.group + 1);
            for (k, p) in elements(v.coordinates?.get())?.into_iter().enumerate() {
                let rings = elements(p)?;
                if rings.is_empty() {
                    return None;
                }
                out.push(Found {
                    name: join(place, &format!("polygon {}", k + 1)),
                    group,
                    rings,
                });
            }
            Some(())
        }
        _ => None,
    }
}

/// The members of a JSON array, as text; `None` if `text` is not an array. `text` is one
/// JSON value serde_json has already checked (a `RawValue`), so without strings its
/// brackets alone say where each member ends; with strings, serde_json cuts it.
fn elements(text: &str) -> Option<Vec<&str>> {
    let b = text.as_bytes();
    if b.first() != Some(&b'[') {
        return None;
    }
    if b.contains(&b'"') {
        let list: Vec<&RawValue> = serde_json::from_str(text).ok()?;
        return Some(list.into_iter().map(RawValue::get).collect());
    }
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut start = 1;
    for (i, &c) in b.iter().enumerate() {
        match c {
            b'[' | b'{' => depth += 1,
            b']' | b'}' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    let last = text[start..i].trim_matches(is_json_space);
                    if !last.is_empty() {
                        out.push(last);
                    }
                }
            }
            b',' if depth == 1 => {
                out.push(text[start..i].trim_matches(is_json_space));
                start = i + 1;
            }
            _ => {}
        }
    }
    Some(out)
}

fn is_json_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r')
}

/// The positions of one ring (JSON text): scanned when every position is numbers, in
/// pieces on every core from [`json::PARALLEL_FROM`] bytes, else read by serde_json.
fn ring(text: &str) -> Option<Vec<[f64; 2]>> {
    let b = text.as_bytes();
    if b.len() >= json::PARALLEL_FROM
        && let Some(points) = json::parallel_points(b, Coords::AtLeastTwo)
    {
        return Some(points);
    }
    let inner = b.strip_prefix(b"[")?.strip_suffix(b"]")?;
    if inner.iter().all(u8::is_ascii_whitespace) {
        return Some(vec![]);
    }
    let mut out = vec![[0.0; 2]; inner.iter().filter(|&&c| c == b'[').count()];
    if json::scan_points(inner, &mut out, Coords::AtLeastTwo) == Some(out.len()) {
        return Some(out);
    }
    let list: Vec<Position> = serde_json::from_str(text).ok()?;
    Some(list.into_iter().map(|p| p.0).collect())
}

/// A GeoJSON object as far as inertia reads it; every other member is checked and
/// dropped. A member given twice is refused (a tree keeps the last; [`parse_tree`] reads
/// such a document).
#[derive(Default)]
struct Obj<'a> {
    kind: Option<String>,
    coordinates: Option<&'a RawValue>,
    features: Option<Vec<Obj<'a>>>,
    geometries: Option<Vec<Obj<'a>>>,
    /// `Some(None)`: `"geometry": null`.
    geometry: Option<Option<Box<Obj<'a>>>>,
    /// `properties.name`, when a string; `Some(None)`: properties without one.
    name: Option<String>,
    properties: bool,
    /// The `crs` member.
    crs: Option<&'a RawValue>,
}

/// The members of an object that [`Obj`] keeps.
enum Key {
    Type,
    Coordinates,
    Features,
    Geometries,
    Geometry,
    Properties,
    Crs,
    Other,
}

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Key;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a key")
            }
            fn visit_str<E>(self, k: &str) -> std::result::Result<Key, E> {
                Ok(match k {
                    "type" => Key::Type,
                    "coordinates" => Key::Coordinates,
                    "features" => Key::Features,
                    "geometries" => Key::Geometries,
                    "geometry" => Key::Geometry,
                    "properties" => Key::Properties,
                    "crs" => Key::Crs,
                    _ => Key::Other,
                })
            }
        }
        d.deserialize_str(V)
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Obj<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for V<'a> {
            type Value = Obj<'a>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a GeoJSON object")
            }
            fn visit_map<A: MapAccess<'de>>(
                self,
                mut map: A,
            ) -> std::result::Result<Obj<'a>, A::Error> {
                fn once<T, E: de::Error>(slot: &mut Option<T>, v: T) -> std::result::Result<(), E> {
                    if slot.replace(v).is_some() {
                        return Err(E::custom("a member given twice"));
                    }
                    Ok(())
                }
                let mut o = Obj::default();
                while let Some(key) = map.next_key::<Key>()? {
                    match key {
                        Key::Type => once(&mut o.kind, map.next_value()?)?,
                        Key::Coordinates => once(&mut o.coordinates, map.next_value()?)?,
                        Key::Features => once(&mut o.features, map.next_value()?)?,
                        Key::Geometries => once(&mut o.geometries, map.next_value()?)?,
                        Key::Geometry => once(
                            &mut o.geometry,
                            map.next_value::<Option<Obj<'a>>>()?.map(Box::new),
                        )?,
                        Key::Properties => {
                            if std::mem::replace(&mut o.properties, true) {
                                return Err(de::Error::custom("a member given twice"));
                            }
                            o.name = map.next_value::<Name>()?.0;
                        }
                        Key::Crs => once(&mut o.crs, map.next_value()?)?,
                        Key::Other => {
                            map.next_value::<Skip>()?;
                        }
                    }
                }
                Ok(o)
            }
        }
        d.deserialize_map(V(std::marker::PhantomData))
    }
}

/// The `"name"` of a feature's properties, if they are an object whose `"name"` is a
/// string.
struct Name(Option<String>);

impl<'de> Deserialize<'de> for Name {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Name;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("properties")
            }
            fn visit_map<A: MapAccess<'de>>(
                self,
                mut map: A,
            ) -> std::result::Result<Name, A::Error> {
                let mut name: Option<Option<String>> = None;
                while let Some(key) = map.next_key::<String>()? {
                    if key == "name" {
                        let v = map.next_value::<MaybeString>()?.0;
                        if name.replace(v).is_some() {
                            return Err(de::Error::custom("\"name\" given twice"));
                        }
                    } else {
                        map.next_value::<Skip>()?;
                    }
                }
                Ok(Name(name.flatten()))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> std::result::Result<Name, A::Error> {
                json::SkipVisitor.visit_seq(seq).map(|_| Name(None))
            }
            fn visit_bool<E>(self, _: bool) -> std::result::Result<Name, E> {
                Ok(Name(None))
            }
            fn visit_i64<E>(self, _: i64) -> std::result::Result<Name, E> {
                Ok(Name(None))
            }
            fn visit_u64<E>(self, _: u64) -> std::result::Result<Name, E> {
                Ok(Name(None))
            }
            fn visit_f64<E>(self, _: f64) -> std::result::Result<Name, E> {
                Ok(Name(None))
            }
            fn visit_str<E>(self, _: &str) -> std::result::Result<Name, E> {
                Ok(Name(None))
            }
            fn visit_unit<E>(self) -> std::result::Result<Name, E> {
                Ok(Name(None))
            }
        }
        d.deserialize_any(V)
    }
}

/// A string, or `None` for any other JSON value (read and dropped).
struct MaybeString(Option<String>);

impl<'de> Deserialize<'de> for MaybeString {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = MaybeString;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_str<E>(self, s: &str) -> std::result::Result<MaybeString, E> {
                Ok(MaybeString(Some(s.to_string())))
            }
            fn visit_map<A: MapAccess<'de>>(
                self,
                map: A,
            ) -> std::result::Result<MaybeString, A::Error> {
                json::SkipVisitor.visit_map(map).map(|_| MaybeString(None))
            }
            fn visit_seq<A: SeqAccess<'de>>(
                self,
                seq: A,
            ) -> std::result::Result<MaybeString, A::Error> {
                json::SkipVisitor.visit_seq(seq).map(|_| MaybeString(None))
            }
            fn visit_bool<E>(self, _: bool) -> std::result::Result<MaybeString, E> {
                Ok(MaybeString(None))
            }
            fn visit_i64<E>(self, _: i64) -> std::result::Result<MaybeString, E> {
                Ok(MaybeString(None))
            }
            fn visit_u64<E>(self, _: u64) -> std::result::Result<MaybeString, E> {
                Ok(MaybeString(None))
            }
            fn visit_f64<E>(self, _: f64) -> std::result::Result<MaybeString, E> {
                Ok(MaybeString(None))
            }
            fn visit_unit<E>(self) -> std::result::Result<MaybeString, E> {
                Ok(MaybeString(None))
            }
        }
        d.deserialize_any(V)
    }
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

    /// The answer as text, every coordinate by its bits: equal for equal answers.
    fn answer(r: &Result<Vec<Part>>) -> String {
        match r {
            Err(e) => format!("error: {e}"),
            Ok(parts) => parts
                .iter()
                .map(|p| {
                    let ring = |r: &[[f64; 2]]| {
                        r.iter()
                            .map(|q| format!("{:x},{:x}", q[0].to_bits(), q[1].to_bits()))
                            .collect::<Vec<_>>()
                            .join(" ")
                    };
                    let holes: Vec<String> = p.rings.holes.iter().map(|h| ring(h)).collect();
                    format!(
                        "{} [{}] {} | {}",
                        p.name,
                        p.group,
                        ring(&p.rings.outer),
                        holes.join(" | ")
                    )
                })
                .collect::<Vec<_>>()
                .join("\n"),
        }
    }

    /// Documents the typed reader takes, members in several orders.
    const TAKEN: &[&str] = &[
        r#"{"type": "Polygon", "coordinates": [[[0,0],[1,0],[0,1],[0,0]]]}"#,
        r#"{"coordinates": [[[0,0,9],[1,0,9],[0,1,9],[0,0,9]], []], "type": "Polygon"}"#,
        r#"{"bbox": [0, 0, 1, 1], "type": "MultiPolygon", "coordinates": [[[[0,0],[1,0],[0,1]]], [[[5,5],[6,5],[5,6]], [[5.1,5.1],[5.2,5.1],[5.1,5.2]]]]}"#,
        r#"{"type": "MultiPolygon", "coordinates": []}"#,
        r#"{"features": [
            {"geometry": {"coordinates": [[[-0,0.1],[1e-300,-0.0],[1.7976931348623157e308,1]]], "type": "Polygon"}, "properties": {"name": "lot \"7\"\n"}, "type": "Feature"},
            {"type": "Feature", "properties": null, "geometry": null},
            {"type": "Feature", "properties": [1, {"name": "no"}], "geometry": {"type": "Polygon", "coordinates": [[[0,0],[2,0],[0,2]]]}},
            {"type": "Feature", "properties": {"name": 7, "area": 1.5e300, "tags": ["a", {"b": null}]}, "id": "x", "geometry": {"type": "Polygon", "coordinates": [[[0,0],[3,0],[0,3]]]}},
            {"type": "Feature", "properties": {"name": "\u00e9t\u00e9"}},
            {"type": "Feature", "geometry": {"type": "GeometryCollection", "geometries": [
                {"type": "Polygon", "coordinates": [[[0,0],[4,0],[0,4]]]},
                {"type": "Feature", "geometry": {"type": "MultiPolygon", "coordinates": [[[[0,0],[5,0],[0,5]]]]}}]}},
            {"type": "Polygon", "properties": {"name": "bare"}, "coordinates": [[[0,0],[6,0,1,2],[0,6,"m"]]]}
        ], "type": "FeatureCollection", "crs": {"type": "name"}}"#,
        r#"{"type": "Feature", "geometry": {"type": "Polygon", "coordinates": [[ [ 0 , 0 ] ,
            [ 1 , 0 ] , [ 0 , 1 ] ]]}, "properties": {}}"#,
    ];

    /// Documents the typed reader leaves to the tree, or that both refuse.
    const LEFT: &[&str] = &[
        r#"{"type": "Polygon", "type": "Polygon", "coordinates": [[[0,0],[1,0],[0,1]]]}"#,
        r#"{"type": "Feature", "properties": {"name": "a", "name": "b"}, "geometry": null}"#,
        r#"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {"name": "a", "name": "b"}, "geometry": {"type": "Polygon", "coordinates": [[[0,0],[1,0],[0,1]]]}}]}"#,
        r#"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {"name": "a"}, "properties": {}, "geometry": {"type": "Polygon", "coordinates": [[[0,0],[1,0],[0,1]]]}}]}"#,
        r#"{"type": "Polygon", "coordinates": [[[0,0],[1,0],[0,1]]], "coordinates": 5}"#,
        r#"{"type": "Polygon", "coordinates": [[[0,0],[1,0],[0,1]]], "features": 5}"#,
        r#"{"type": "Feature", "geometry": {"type": "Polygon", "coordinates": [[[0,0],[1,0],[0,1]]]}, "coordinates": [1e999]}"#,
        r#"{"type": "Feature", "geometry": {"type": "Polygon", "coordinates": [[[0,0],[1,0],[0,1]]]}, "coordinates": [1]}"#,
        r#"{"type": "Feature", "geometry": null, "properties": {"area": 1e999}}"#,
        r#"{"type": "Feature", "geometry": null, "properties": {"name": "\ud800"}}"#,
        r#"{"type": "Polygon", "coordinates": [[[0,0],[1,0],[0,1,1e999]]]}"#,
        r#"{"type": "Polygon", "coordinates": [[[0,0],[1,"a"],[1,1]]]}"#,
        r#"{"type": "Polygon", "coordinates": [[[0,0],[1],[1,1]]]}"#,
        r#"{"type": "Polygon", "coordinates": [[[0,0],{"x": 1},[1,1]]]}"#,
        r#"{"type": "Polygon", "coordinates": [[0,0],[1,0],[1,1]]}"#,
        r#"{"type": "Polygon", "coordinates": []}"#,
        r#"{"type": "Polygon", "coordinates": 5}"#,
        r#"{"type": "MultiPolygon", "coordinates": [[]]}"#,
        r#"{"type": "MultiPolygon", "coordinates": [5]}"#,
        r#"{"type": 5, "coordinates": []}"#,
        r#"{"coordinates": [[[0,0],[1,0],[0,1]]]}"#,
        r#"{"type": "LineString", "coordinates": [[0,0],[1,1]]}"#,
        r#"{"type": "FeatureCollection", "features": {}}"#,
        r#"{"type": "FeatureCollection", "features": [5]}"#,
        r#"{"type": "FeatureCollection", "features": []}"#,
        r#"{"type": "GeometryCollection"}"#,
        r#"{"type": "Feature", "geometry": 5}"#,
        r#"{"type": "Feature", "geometry": {"type": "Polygon", "coordinates": [[[0,0],[1,0],[0,1]]]}} x"#,
        r#"[{"type": "Polygon", "coordinates": [[[0,0],[1,0],[0,1]]]}]"#,
        "\u{feff}{\"type\": \"Polygon\", \"coordinates\": [[[0,0],[1,0],[0,1]]]}",
        r#"{"type": "Polygon", "coordinates": [[[0,0],[1,0],[0,1]]]"#,
    ];

    #[test]
    fn the_typed_reader_gives_the_trees_answer() {
        for doc in TAKEN {
            let fast = typed(doc.as_bytes());
            assert!(fast.is_some(), "not taken: {doc}");
            let tree = parse_tree(doc.as_bytes());
            assert_eq!(answer(&parse(doc.as_bytes())), answer(&tree), "{doc}");
        }
        assert!(
            parse(TAKEN[3].as_bytes())
                .unwrap_err()
                .to_string()
                .contains("no polygons")
        );
        for doc in LEFT {
            assert_eq!(
                answer(&parse(doc.as_bytes())),
                answer(&parse_tree(doc.as_bytes())),
                "{doc}"
            );
        }
        // Left to the tree: a key given twice (the tree keeps the last).
        assert!(typed(LEFT[0].as_bytes()).is_none());
        assert_eq!(parse(LEFT[2].as_bytes()).unwrap()[0].name, "b");
        // A number out of range is refused wherever it is, as the tree refuses it.
        assert!(parse(LEFT[8].as_bytes()).is_err());
    }

    #[test]
    fn the_crs_a_document_names() {
        let with = |crs: &str, nested: &str| {
            format!(
                r#"{{"type": "FeatureCollection", {crs} "features": [{{"type": "Feature", {nested} "geometry": {{"type": "Polygon", "coordinates": [[[0,0],[1,0],[0,1],[0,0]]]}}}}]}}"#
            )
        };
        let named =
            |n: &str| format!(r#""crs": {{"type": "name", "properties": {{"name": "{n}"}}}},"#);
        let geographic = [
            "urn:ogc:def:crs:OGC:1.3:CRS84",
            "urn:ogc:def:crs:OGC::CRS84",
            "urn:ogc:def:crs:EPSG::4326",
            "EPSG:4326",
            "epsg:4269",
            "http://www.opengis.net/def/crs/EPSG/0/4258",
            "https://www.opengis.net/def/crs/OGC/1.3/CRS84",
            "CRS84",
            "OGC:CRS83",
        ];
        let other = ["EPSG:32633", "EPSG:43260", "EPSG:38570", "local grid"];
        let mercator = [
            "urn:ogc:def:crs:EPSG::3857",
            "EPSG:900913",
            "epsg:3785",
            "ESRI:102100",
            "http://www.opengis.net/def/crs/EPSG/0/3857",
            "WGS 84 / Pseudo-Mercator",
            "WGS84/Pseudo-Mercator",
        ];
        let mut cases: Vec<(String, Crs)> = vec![
            (with("", ""), Crs::Unnamed),
            (with(r#""crs": null,"#, ""), Crs::Unnamed),
            (with(r#""crs": {"type": "name"},"#, ""), Crs::Unnamed),
            (
                with(
                    r#""crs": {"type": "EPSG", "properties": {"code": 4326}},"#,
                    "",
                ),
                Crs::Geographic("EPSG:4326".into()),
            ),
            (
                with(
                    r#""crs": {"type": "link", "properties": {"href": "http://example.com/crs/42", "type": "proj4"}},"#,
                    "",
                ),
                Crs::Other("http://example.com/crs/42".into()),
            ),
            // On a feature; a geographic one named anywhere wins.
            (
                with("", &named("EPSG:4326")),
                Crs::Geographic("EPSG:4326".into()),
            ),
            (
                with(&named("EPSG:32633"), &named("CRS84")),
                Crs::Geographic("CRS84".into()),
            ),
        ];
        cases.extend(
            geographic
                .iter()
                .map(|n| (with(&named(n), ""), Crs::Geographic(n.to_string()))),
        );
        cases.extend(
            other
                .iter()
                .map(|n| (with(&named(n), ""), Crs::Other(n.to_string()))),
        );
        cases.extend(
            mercator
                .iter()
                .map(|n| (with(&named(n), ""), Crs::WebMercator(n.to_string()))),
        );
        // Web Mercator named beside another system wins; beside a geographic one, loses.
        cases.push((
            with(&named("EPSG:32633"), &named("EPSG:3857")),
            Crs::WebMercator("EPSG:3857".into()),
        ));
        cases.push((
            with(&named("EPSG:3857"), &named("EPSG:4326")),
            Crs::Geographic("EPSG:4326".into()),
        ));
        for (doc, want) in cases {
            let fast = typed_document(doc.as_bytes()).expect("taken");
            assert_eq!(fast.crs, want, "{doc}");
            assert_eq!(tree(doc.as_bytes()).unwrap().crs, want, "{doc}");
        }
    }

    #[test]
    fn damaged_documents_get_the_trees_answer() {
        let mut rng = crate::test_rng::Lcg(22);
        let mut taken = 0;
        for round in 0..3000 {
            let doc = TAKEN[round % TAKEN.len()].as_bytes();
            let mut bytes = doc.to_vec();
            for _ in 0..1 + rng.below(3) {
                let at = rng.below(bytes.len() as u64) as usize;
                match rng.below(4) {
                    0 => {
                        bytes.remove(at);
                    }
                    1 => bytes.insert(at, b"[]{},:\"0-e.5 "[rng.below(13) as usize]),
                    2 => bytes[at] = b"[]{},:\"1-E+ x"[rng.below(13) as usize],
                    _ => {
                        let len = rng.below(8) as usize;
                        let piece = bytes[at..(at + len).min(bytes.len())].to_vec();
                        let to = rng.below(bytes.len() as u64) as usize;
                        bytes.splice(to..to, piece);
                    }
                }
            }
            let fast = parse(&bytes);
            taken += usize::from(typed(&bytes).is_some());
            assert_eq!(
                answer(&fast),
                answer(&parse_tree(&bytes)),
                "{}",
                String::from_utf8_lossy(&bytes)
            );
        }
        // Many damaged documents are still GeoJSON the typed reader takes.
        assert!(taken > 100, "{taken}");
    }

    /// A star of `n` vertices as one GeoJSON polygon, with `sep` between tokens and
    /// `alt` coordinates after x and y.
    fn star(n: usize, sep: &str, alt: &str) -> String {
        let ring: Vec<String> = (0..=n)
            .map(|k| {
                let t = (k % n) as f64 * std::f64::consts::TAU / n as f64;
                let r = 1.0 + 0.3 * ((k % n) as f64 * 0.618_033_988_749_894_9).fract();
                format!(
                    "[{:?},{sep}{:e}{alt}]",
                    1e6 + r * t.cos(),
                    -2.5e-7 * r * t.sin()
                )
            })
            .collect();
        format!(
            "{{\"type\": \"Feature\", \"geometry\": {{\"coordinates\": [{sep}[{}]], \"type\": \"Polygon\"}}}}",
            ring.join(&format!("{sep},{sep}"))
        )
    }

    #[test]
    fn a_large_ring_is_read_in_pieces_to_the_same_bits() {
        for (sep, alt) in [("", ""), (" ", ", 12.5"), ("\n\t", ",-0,1e3")] {
            let doc = star(40_000, sep, alt);
            assert!(doc.len() > json::PARALLEL_FROM);
            let Obj { geometry, .. } = serde_json::from_str(&doc).unwrap();
            let coords = geometry.unwrap().unwrap().coordinates.unwrap().get();
            let ring_text = elements(coords).unwrap()[0];
            let pieces = json::parallel_points(ring_text.as_bytes(), Coords::AtLeastTwo)
                .expect("a plain ring is cut into pieces");
            let tree = parse_tree(doc.as_bytes());
            assert_eq!(tree.as_ref().unwrap()[0].rings.outer.len(), 40_001);
            let fast = parse(doc.as_bytes());
            assert_eq!(answer(&fast), answer(&tree));
            assert!(
                pieces
                    .iter()
                    .zip(&fast.unwrap()[0].rings.outer)
                    .all(|(a, b)| a[0].to_bits() == b[0].to_bits()
                        && a[1].to_bits() == b[1].to_bits())
            );
        }
        // An error in a large ring is named at the tree's line and column.
        let doc = star(40_000, "\n", "");
        let mid = doc.len() / 2;
        let at = mid + doc[mid..].find("],").unwrap();
        for broken in [
            format!("{}, \"z\"{}", &doc[..at], &doc[at..]),
            format!("{}, 1e999{}", &doc[..at], &doc[at..]),
            format!("{}]{}", &doc[..at], &doc[at..]),
            format!("{}[]{}", &doc[..at + 2], &doc[at + 2..]),
        ] {
            let e = parse(broken.as_bytes()).unwrap_err().to_string();
            assert_eq!(e, parse_tree(broken.as_bytes()).unwrap_err().to_string());
        }
    }

    #[test]
    fn many_rings_keep_their_order() {
        let holes: Vec<String> = (0..5_000)
            .map(|k| {
                let (x, y) = ((k % 70) as f64 * 3.0 + 1.0, (k / 70) as f64 * 3.0 + 1.0);
                format!(
                    "[[{x},{y}],[{},{y}],[{},{}],[{x},{}],[{x},{y}]]",
                    x + 1.0,
                    x + 1.0,
                    y + 1.0,
                    y + 1.0
                )
            })
            .collect();
        let doc = format!(
            "{{\"type\": \"MultiPolygon\", \"coordinates\": [[[[0,0],[300,0],[300,300],[0,300],[0,0]],{}], [[[400,0],[401,0],[400,1],[400,0]]]]}}",
            holes.join(",")
        );
        let fast = parse(doc.as_bytes());
        assert_eq!(fast.as_ref().unwrap()[0].rings.holes.len(), 5_000);
        assert_eq!(answer(&fast), answer(&parse_tree(doc.as_bytes())));
    }
}
