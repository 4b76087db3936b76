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
use serde::de::{self, Deserialize, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
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
    if let Some(outer) = parallel_points(bytes, Coords::Two) {
        return Ok(PolygonRings {
            outer,
            holes: vec![],
            arcs: vec![],
            max_deviation: None,
        });
    }
    match serde_json::from_slice::<Doc>(bytes) {
        Ok(doc) => Ok(doc.0),
        Err(e) => {
            let place = crate::error::Place::Line {
                line: e.line(),
                column: Some(e.column()),
            };
            let text = e.to_string();
            let suffix = format!(" at line {} column {}", e.line(), e.column());
            let message = text.strip_suffix(&suffix).unwrap_or(&text).to_string();
            Err(Error::parse(place, message))
        }
    }
}

/// Files from this size up are parsed in parallel when they are a plain list of points.
pub(crate) const PARALLEL_FROM: usize = 1 << 20;

/// How many coordinates a point of a plain list has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Coords {
    /// Exactly two, `[x, y]` (a JSON polygon).
    Two,
    /// Two or more, `[x, y, ...]`: a GeoJSON position, whose further coordinates (an
    /// altitude) are read as JSON and ignored.
    AtLeastTwo,
}

/// A large document that is one list of points, `[[x, y], ...]`, parsed in pieces on every
/// core: the list is cut where one point ends and the next begins (`]`, a comma, `[`), and
/// each piece, put between brackets, is parsed by serde_json as a list of points, so every
/// number is read exactly as the whole document would be. If every piece parses, their
/// points in order are the document's (the pieces joined by the commas they were cut at
/// are the list); if any does not, `None`, and the document is parsed whole, which names
/// the error's line and column. GeoJSON's large rings are read the same way
/// ([`Coords::AtLeastTwo`]).
pub(crate) fn parallel_points(bytes: &[u8], coords: Coords) -> Option<Vec<[f64; 2]>> {
    use rayon::prelude::*;
    if bytes.len() < PARALLEL_FROM {
        return None;
    }
    let ws = |b: &u8| b.is_ascii_whitespace();
    let first = bytes.iter().position(|b| !ws(b))?;
    let last = bytes.iter().rposition(|b| !ws(b))?;
    if bytes[first] != b'[' || bytes[last] != b']' || last <= first {
        return None;
    }
    let inner = &bytes[first + 1..last];
    // Cut points: the comma of a `]`, `,`, `[` run (whitespace allowed) after each target.
    let pieces = (rayon::current_num_threads() * 4).clamp(2, 64);
    let mut cuts = vec![0usize];
    for k in 1..pieces {
        let from = (inner.len() * k / pieces).max(*cuts.last()?);
        let Some(comma) = next_cut(inner, from) else {
            break;
        };
        if comma > *cuts.last()? {
            cuts.push(comma);
        }
    }
    let ranges: Vec<(usize, usize)> = cuts
        .iter()
        .enumerate()
        .map(|(k, &c)| {
            let start = if k == 0 { 0 } else { c + 1 };
            let end = cuts.get(k + 1).copied().unwrap_or(inner.len());
            (start, end)
        })
        .collect();
    // Each point of a plain list opens one bracket: count them, so that every piece fills
    // its own stretch of the result (no piece grows a list of its own to be copied).
    let counts: Vec<usize> = ranges
        .par_iter()
        .map(|&(a, b)| inner[a..b].iter().filter(|&&c| c == b'[').count())
        .collect();
    let mut out = vec![[0.0; 2]; counts.iter().sum()];
    let mut slots = Vec::with_capacity(ranges.len());
    let mut rest = out.as_mut_slice();
    for &n in &counts {
        let (head, tail) = rest.split_at_mut(n);
        slots.push(head);
        rest = tail;
    }
    let filled = ranges.par_iter().zip(slots).all(|(&(a, b), slot)| {
        if scan_points(&inner[a..b], slot, coords) == Some(slot.len()) && !slot.is_empty() {
            return true;
        }
        let mut piece = Vec::with_capacity(b - a + 2);
        piece.push(b'[');
        piece.extend_from_slice(&inner[a..b]);
        piece.push(b']');
        let mut de = serde_json::Deserializer::from_slice(&piece);
        let want = slot.len();
        // Every counted point read, and no fewer than one: an empty piece would leave two
        // commas in a row in the whole.
        matches!(Fill(slot, coords).deserialize(&mut de), Ok(n) if n == want && n > 0)
            && de.end().is_ok()
    });
    filled.then_some(out)
}

/// Reads `[x, y]` points separated by commas (JSON's grammar: its whitespace, its numbers)
/// into `out`, and says how many; `None` for anything else (a point as an object, a
/// number out of range), which serde_json then reads or refuses. Numbers are read by
/// fast-float2, correctly rounded as serde_json's `float_roundtrip` reads them: the same
/// bits (tested against serde_json below). With [`Coords::AtLeastTwo`], further numbers
/// after `y` are read and dropped.
pub(crate) fn scan_points(text: &[u8], out: &mut [[f64; 2]], coords: Coords) -> Option<usize> {
    let mut i = 0;
    let mut n = 0;
    let skip = |i: &mut usize| {
        while *i < text.len() && matches!(text[*i], b' ' | b'\t' | b'\n' | b'\r') {
            *i += 1;
        }
    };
    let expect = |i: &mut usize, c: u8| {
        skip(i);
        let ok = text.get(*i) == Some(&c);
        *i += 1;
        skip(i);
        ok
    };
    loop {
        if !expect(&mut i, b'[') {
            return None;
        }
        let x = number(text, &mut i)?;
        if !expect(&mut i, b',') {
            return None;
        }
        let y = number(text, &mut i)?;
        skip(&mut i);
        while coords == Coords::AtLeastTwo && text.get(i) == Some(&b',') {
            i += 1;
            skip(&mut i);
            number(text, &mut i)?;
            skip(&mut i);
        }
        if !expect(&mut i, b']') {
            return None;
        }
        *out.get_mut(n)? = [x, y];
        n += 1;
        if i >= text.len() {
            return Some(n);
        }
        if text[i] != b',' {
            return None;
        }
        i += 1;
    }
}

/// A JSON number at `text[*i..]` (`-`, an integer without leading zeros, a fraction, an
/// exponent), finite in f64; `*i` moves past it.
fn number(text: &[u8], i: &mut usize) -> Option<f64> {
    let start = *i;
    let digits = |i: &mut usize| {
        let from = *i;
        while *i < text.len() && text[*i].is_ascii_digit() {
            *i += 1;
        }
        *i > from
    };
    if text.get(*i) == Some(&b'-') {
        *i += 1;
    }
    match text.get(*i) {
        Some(b'0') => *i += 1,
        Some(b'1'..=b'9') => {
            digits(i);
        }
        _ => return None,
    }
    if text.get(*i) == Some(&b'.') {
        *i += 1;
        if !digits(i) {
            return None;
        }
    }
    if matches!(text.get(*i), Some(b'e' | b'E')) {
        *i += 1;
        if matches!(text.get(*i), Some(b'+' | b'-')) {
            *i += 1;
        }
        if !digits(i) {
            return None;
        }
    }
    let v: f64 = fast_float2::parse(&text[start..*i]).ok()?;
    v.is_finite().then_some(v)
}

/// Reads a list of points into a slice of exactly its length; the value is how many were read.
struct Fill<'a>(&'a mut [[f64; 2]], Coords);

impl<'de> de::DeserializeSeed<'de> for Fill<'_> {
    type Value = usize;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> std::result::Result<usize, D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for Fill<'_> {
    type Value = usize;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of points [[x, y], ...]")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<usize, A::Error> {
        let mut n = 0;
        loop {
            let p = match self.1 {
                Coords::Two => seq.next_element::<Point>()?.map(|p| p.0),
                Coords::AtLeastTwo => seq.next_element::<Position>()?.map(|p| p.0),
            };
            let Some(p) = p else { break };
            let Some(slot) = self.0.get_mut(n) else {
                return Err(de::Error::custom("more points than brackets"));
            };
            *slot = p;
            n += 1;
        }
        Ok(n)
    }
}

/// The position of the comma in the first `]` `,` `[` run (whitespace between allowed) at or
/// after `from`.
fn next_cut(text: &[u8], from: usize) -> Option<usize> {
    let mut i = from;
    while i < text.len() {
        let close = i + text[i..].iter().position(|&b| b == b']')?;
        let mut j = close + 1;
        while j < text.len() && text[j].is_ascii_whitespace() {
            j += 1;
        }
        if j < text.len() && text[j] == b',' {
            let comma = j;
            j += 1;
            while j < text.len() && text[j].is_ascii_whitespace() {
                j += 1;
            }
            if j < text.len() && text[j] == b'[' {
                return Some(comma);
            }
        }
        i = close + 1;
    }
    None
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

/// A GeoJSON position, `[x, y]` or `[x, y, ...]`: the further members are read as JSON
/// (numbers in range, strings as JSON writes them) and ignored.
pub(crate) struct Position(pub(crate) [f64; 2]);

impl<'de> Deserialize<'de> for Position {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Position;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a position [x, y] or [x, y, z]")
            }
            fn visit_seq<A: SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> std::result::Result<Position, A::Error> {
                let x: f64 = seq
                    .next_element()?
                    .ok_or_else(|| de::Error::custom("a position needs x and y"))?;
                let y: f64 = seq
                    .next_element()?
                    .ok_or_else(|| de::Error::custom("a position needs x and y"))?;
                while seq.next_element::<Skip>()?.is_some() {}
                Ok(Position([x, y]))
            }
        }
        d.deserialize_seq(V)
    }
}

/// Any JSON value, read and dropped. Unlike serde's `IgnoredAny`, which serde_json skips
/// over by its grammar alone, every number is read (one out of f64's range is refused)
/// and every string decoded, as for a `serde_json::Value`: a reader that drops what it does
/// not need refuses the same documents as one that keeps it.
pub(crate) struct Skip;

impl<'de> Deserialize<'de> for Skip {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        d.deserialize_any(SkipVisitor)
    }
}

/// The visitor of [`Skip`].
pub(crate) struct SkipVisitor;

impl<'de> Visitor<'de> for SkipVisitor {
    type Value = Skip;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> std::result::Result<Skip, E> {
        Ok(Skip)
    }
    fn visit_i64<E>(self, _: i64) -> std::result::Result<Skip, E> {
        Ok(Skip)
    }
    fn visit_u64<E>(self, _: u64) -> std::result::Result<Skip, E> {
        Ok(Skip)
    }
    fn visit_f64<E>(self, _: f64) -> std::result::Result<Skip, E> {
        Ok(Skip)
    }
    fn visit_str<E>(self, _: &str) -> std::result::Result<Skip, E> {
        Ok(Skip)
    }
    fn visit_unit<E>(self) -> std::result::Result<Skip, E> {
        Ok(Skip)
    }
    fn visit_none<E>(self) -> std::result::Result<Skip, E> {
        Ok(Skip)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> std::result::Result<Skip, D::Error> {
        Skip::deserialize(d)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<Skip, A::Error> {
        while seq.next_element::<Skip>()?.is_some() {}
        Ok(Skip)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<Skip, A::Error> {
        while map.next_entry::<Skip, Skip>()?.is_some() {}
        Ok(Skip)
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

    /// A document of `n` points in the given layout.
    fn doc(n: usize, sep: &str) -> (String, Vec<[f64; 2]>) {
        let pts: Vec<[f64; 2]> = (0..n)
            .map(|k| {
                let t = k as f64 * 0.618_033_988_749_894_9;
                [1e6 + t.sin() * 0.1, -2.5e-7 * t.cos()]
            })
            .collect();
        let body: Vec<String> = pts
            .iter()
            .map(|p| format!("[{:?},{}{:e}]", p[0], sep, p[1]))
            .collect();
        (
            format!(" \n[{}]\n", body.join(&format!("{sep},{sep}"))),
            pts,
        )
    }

    #[test]
    fn large_lists_parse_in_pieces_to_the_same_bits() {
        for sep in ["", " ", "\n\t"] {
            let (text, pts) = doc(60_000, sep);
            assert!(text.len() > PARALLEL_FROM);
            let fast = parallel_points(text.as_bytes(), Coords::Two).expect("a plain list is cut");
            assert_eq!(fast.len(), pts.len());
            for (a, b) in fast.iter().zip(&pts) {
                assert_eq!(a[0].to_bits(), b[0].to_bits());
                assert_eq!(a[1].to_bits(), b[1].to_bits());
            }
            // The whole document, parsed at once, agrees.
            let whole = serde_json::from_slice::<Doc>(text.as_bytes())
                .unwrap()
                .0
                .outer;
            assert_eq!(whole, fast);
        }
    }

    #[test]
    fn numbers_read_to_the_bits_serde_json_reads() {
        let mut rng = crate::test_rng::Lcg(7);
        let mut rnd = move || rng.next();
        let mut texts: Vec<String> = [
            "0",
            "-0",
            "0.0",
            "-0.0e0",
            "1",
            "-1",
            "1e0",
            "1E+2",
            "1e-2",
            "123456789012345678901234567890",
            "18446744073709551615",
            "18446744073709551616",
            "-9223372036854775808",
            "-9223372036854775809",
            "9007199254740993",
            "4.9e-324",
            "2.4703282292062327e-324",
            "2.4703282292062328e-324",
            "1e-400",
            "2.2250738585072011e-308",
            "2.2250738585072014e-308",
            "1.7976931348623157e308",
            "0.1",
            "0.30000000000000004",
            "1.00000000000000011102230246251565404236316680908203125",
            "1.00000000000000011102230246251565404236316680908203124",
            "1.00000000000000011102230246251565404236316680908203126",
            "1000000.0000000001",
            "99999999.99999999",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        for _ in 0..20_000 {
            let r = rnd();
            let mantissa = rnd() % 100_000_000_000_000_000;
            let exp = (r % 700) as i32 - 350;
            let digits = 1 + (r >> 20) % 25;
            let m = format!("{mantissa:0>25}");
            let sign = if r & 1 == 1 { "-" } else { "" };
            texts.push(format!(
                "{sign}{}.{}e{exp}",
                &m[..1].replace('0', "1"),
                &m[1..digits as usize]
            ));
            texts.push(format!(
                "{sign}{}",
                f64::from_bits(rnd()).abs().clamp(1e-300, 1e300)
            ));
        }
        for t in &texts {
            let doc = format!("[{t}, 1]");
            let mut out = [[0.0; 2]; 1];
            let fast = scan_points(doc.as_bytes(), &mut out, Coords::Two).map(|_| out[0][0]);
            let slow = serde_json::from_str::<f64>(t).ok();
            assert_eq!(fast.map(f64::to_bits), slow.map(f64::to_bits), "{t}");
        }
        // Not JSON numbers, or out of range: left to serde_json.
        for t in [
            "01", "1.", ".5", "+1", "1e", "-", "inf", "NaN", "0x10", "1e999", "1_0",
        ] {
            let mut out = [[0.0; 2]; 1];
            assert_eq!(
                scan_points(format!("[{t}, 1]").as_bytes(), &mut out, Coords::Two),
                None,
                "{t}"
            );
        }
        let mut out = [[0.0; 2]; 2];
        assert_eq!(
            scan_points(b" [1 ,2 ] ,\r\n\t[ 3,4]\n", &mut out, Coords::Two),
            Some(2)
        );
        assert_eq!(out, [[1.0, 2.0], [3.0, 4.0]]);
        for bad in [
            "[1,2],",
            "[1,2]]",
            "[1,2,3]",
            "[1]",
            "[1,2][3,4]",
            "[1,\x0c2]",
            "{\"x\":1,\"y\":2}",
        ] {
            assert_eq!(
                scan_points(bad.as_bytes(), &mut out, Coords::Two),
                None,
                "{bad}"
            );
        }
    }

    #[test]
    fn large_documents_with_an_error_are_parsed_whole_for_its_place() {
        let (text, _) = doc(60_000, "");
        // A point with one coordinate half way down, a trailing comma, a stray key.
        let mid = text.len() / 2;
        let cut = mid + text[mid..].find("],").unwrap();
        let broken = format!("{}, 1{}", &text[..cut], &text[cut..]);
        assert!(parallel_points(broken.as_bytes(), Coords::Two).is_none());
        assert!(err(&broken).contains("got more"), "{}", err(&broken));
        let trailing = text.replacen("]\n", ",]\n", 1);
        let trailing = format!("{}]", &trailing[..trailing.len() - 1]);
        assert!(parse(trailing.as_bytes()).is_err());
        let empty = format!("{}[],{}", &text[..cut + 2], &text[cut + 2..]);
        assert!(err(&empty).contains("got 0"), "{}", err(&empty));
        let wrapped = format!("{{\"points\": {text}}}");
        assert_eq!(parse(wrapped.as_bytes()).unwrap().outer.len(), 60_000);
    }
}
