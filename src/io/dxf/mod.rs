//! DXF profiles, read with the `dxf` crate as a CAD program shows the drawing's model
//! space: closed `LWPOLYLINE`s, closed 2D `POLYLINE`s (PEDIT-fitted ones through their
//! fitted vertices), `CIRCLE`s and full `ELLIPSE`s, and closed outlines chained end to end
//! from `LINE`s, `ARC`s, elliptical arcs, `SPLINE`s and open polylines; `INSERT`s expand
//! their blocks (counted before expanding).
//!
//! Bulges (arc segments), arcs, circles, ellipses and splines stay curves: arcs are
//! integrated in closed form ([`crate::curve::arc`]), so a circle's area is π r² to rounding, and
//! splines span by span ([`crate::curve::bezier`]: exactly for polynomial spans, to 1e-13 for
//! rational ones); the validity checks see them cut into chords. Pieces are joined where their ends meet within a tolerance
//! ([`DEFAULT_JOIN`] of the larger of the two pieces' extents, or `--join-tolerance`); a
//! piece with an end that meets no other is left out and counted ([`OpenPolicy`]), unless
//! that end nearly meets another ([`NEAR_MISS`]); three ends meeting at one point are
//! refused naming the point and the pieces. Closed curves inside another are its holes (an
//! even-odd nesting: an island inside a hole is a part of its own). Paper space (read
//! instead of a model space that holds no geometry), invisible entities and layers that
//! are off or frozen are left out and counted, as are annotations (text and the frames of
//! MTEXT boxes, dimensions, hatches, points), dots and loops that enclose nothing. Entities
//! that would change the outline but are not read (`SOLID`, `REGION`, `MESH`, ...),
//! external references and entities in another plane are refused.

mod chain;
mod collect;
mod curves;
mod nest;

use super::PolygonRings;
use crate::curve::Curve;
use crate::error::{Error, Result};
use chain::chain;
use collect::{Affine, Collector};
use nest::nest;
use rayon::prelude::*;

/// A path of the drawing: a closed curve (edge i from vertex i to i + 1, the last back to
/// the first) or an open piece to chain (one edge fewer than vertices), with the curve of
/// each edge (`None` where straight).
struct Path {
    name: String,
    origin: Origin,
    points: Vec<[f64; 2]>,
    arcs: Vec<Option<Curve>>,
}

/// The entity a path comes from, to count what is left out: its DXF type and its layer
/// (that of the INSERT placing it, for an entity on layer 0 of a block).
#[derive(Clone, Debug)]
struct Origin {
    kind: &'static str,
    layer: String,
}

impl Path {
    /// A path that is the drawing's geometry exactly.
    fn exact(
        origin: Origin,
        name: String,
        points: Vec<[f64; 2]>,
        arcs: Vec<Option<Curve>>,
    ) -> Path {
        Path {
            name,
            origin,
            points,
            arcs,
        }
    }

    /// A closed path cut into chords (at most 1/128 of a turn each), for nesting.
    fn chords(&self) -> Vec<[f64; 2]> {
        crate::curve::ring_chords(&self.points, &self.arcs)
            .into_iter()
            .map(|(q, _)| q)
            .collect()
    }
}

/// The length unit a drawing states in its header (`$INSUNITS`): `None` when unitless
/// (0 or absent). Every unit of the DXF reference (codes 1 to 24) is converted.
///
/// # Errors
/// [`Error::Parse`] for a drawing the `dxf` crate cannot read, and for a `$INSUNITS` code
/// the DXF reference does not define (the drawing's lengths would otherwise be read as
/// unitless, and `--units` accepted for them).
///
/// # Examples
/// ```
/// let dxf = "0\nSECTION\n2\nHEADER\n9\n$ACADVER\n1\nAC1015\n9\n$INSUNITS\n70\n1\n0\nENDSEC\n0\nSECTION\n2\nENTITIES\n0\nENDSEC\n0\nEOF\n";
/// assert_eq!(inertia::io::dxf::unit(dxf.as_bytes())?, Some(inertia::units::LengthUnit::In));
/// let yards = dxf.replace("70\n1\n", "70\n10\n");
/// assert_eq!(inertia::io::dxf::unit(yards.as_bytes())?, Some(inertia::units::LengthUnit::Yd));
/// assert!(inertia::io::dxf::unit(dxf.replace("70\n1\n", "70\n99\n").as_bytes()).is_err());
/// # Ok::<(), inertia::Error>(())
/// ```
pub fn unit(bytes: &[u8]) -> Result<Option<crate::units::LengthUnit>> {
    let from_code = |code: i32, place: String| -> Result<Option<crate::units::LengthUnit>> {
        match crate::units::LengthUnit::from_insunits(code) {
            Some(u) => Ok(Some(u)),
            None if code == 0 => Ok(None),
            None => Err(Error::parse(
                place,
                format!(
                    "$INSUNITS {code} is not a unit of the DXF reference (0 unitless, 1 to 24 inch to US survey mile): the drawing's lengths cannot be read"
                ),
            )),
        }
    };
    // An ASCII drawing's header comes first: read `$INSUNITS` from it without parsing the
    // whole drawing (which `parse` does next); binary DXF goes through the library.
    if !bytes.starts_with(b"AutoCAD Binary DXF")
        && let Ok(text) = std::str::from_utf8(&bytes[..bytes.len().min(1 << 20)])
            .or_else(|e| std::str::from_utf8(&bytes[..e.valid_up_to()]))
    {
        let mut lines = text.lines().map(str::trim).enumerate();
        while let Some((_, l)) = lines.next() {
            if l == "ENTITIES" || l == "BLOCKS" {
                return Ok(None);
            }
            if l == "$INSUNITS" {
                return match (lines.next(), lines.next()) {
                    (Some((_, "70")), Some((k, v))) => match v.parse::<i32>() {
                        Ok(code) => from_code(code, format!("DXF line {}", k + 1)),
                        Err(_) => Err(Error::parse(
                            format!("DXF line {}", k + 1),
                            format!("$INSUNITS \"{}\" is not a number", crate::error::clip(v)),
                        )),
                    },
                    _ => Ok(None),
                };
            }
        }
        return Ok(None);
    }
    let drawing = load(bytes)?;
    from_code(drawing.header.default_drawing_units as i32, "DXF".into())
}

fn load(bytes: &[u8]) -> Result<::dxf::Drawing> {
    ::dxf::Drawing::load(&mut std::io::Cursor::new(bytes)).map_err(|e| {
        let text = e
            .to_string()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        Error::parse("DXF", crate::error::clip_to(&text, 200))
    })
}

/// How to read a drawing's pieces.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Options {
    /// Ends of pieces closer than this are joined; `None`: [`DEFAULT_JOIN`] times the
    /// larger of the two pieces' extents (at least 64 units in the last place of their
    /// largest coordinate).
    pub join_tolerance: Option<f64>,
    /// What to do with pieces that belong to no closed outline (centre lines,
    /// construction lines, leaders, stray arcs): left out and counted by default.
    pub open: OpenPolicy,
    /// Read only entities on these layers (all when empty). Entities on layer `0` inside a
    /// block take the layer of the INSERT that places them, as in CAD programs. A layer
    /// named here is read even when it is off or frozen (it was asked for by name).
    pub layers: Vec<String>,
    /// Which space of the drawing to read: model space (or paper space, when model space
    /// holds no geometry) unless asked.
    pub space: Space,
    /// The most entities the drawing's INSERTs may expand to, counted before expanding
    /// (`None`: [`DEFAULT_MAX_ENTITIES`]).
    pub max_entities: Option<usize>,
}

/// Outlines needing more chord points than this in all (a circle needs 128, a spline span
/// up to 1/2048 of its extent) are refused: about 130,000 circles, a few gigabytes through validation.
pub const MAX_CHORD_POINTS: usize = 1 << 24;

/// INSERTs expanding to more entities than this are refused by default, before anything
/// is expanded: a plate with tens of thousands of holes is well within it, a 5 KB file of
/// nested arrays placing billions of circles is not (each outline read costs tens of
/// kilobytes through validation and report).
pub const DEFAULT_MAX_ENTITIES: usize = 1 << 20;

/// What to do with the pieces of a drawing (lines, arcs, open polylines and splines) that
/// belong to no closed outline.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OpenPolicy {
    /// Leave them out, counted in [`Read::open`] by entity type and layer. Two exceptions
    /// are refused: a free end within [`NEAR_MISS`] times the join tolerance of another
    /// end, which is an outline drawn with a gap ([`Error::NearMiss`]), and a drawing in
    /// which nothing closed is left (refused as [`OpenPolicy::Refuse`] would refuse it).
    #[default]
    Leave,
    /// Refuse the drawing, naming the first such piece ([`Error::OpenPiece`]).
    Refuse,
}

/// An open end closer than this multiple of the join tolerance to another end, but not
/// within it, is a gap the drawing's author meant closed, not a stray piece: it is refused
/// with [`OpenPolicy::Leave`] rather than left out. The default join tolerance is 1e-6 of
/// the pieces' extent, so this is 1e-4 of it: a fifth of a pixel with the piece filling a
/// 2,000-pixel screen, a gap no one draws on purpose, while the free ends of centre lines,
/// leaders and construction lines lie a visible distance (percents of the part) from any
/// other end.
pub const NEAR_MISS: f64 = 100.0;

/// Pieces in no closed outline, left out ([`OpenPolicy::Leave`]): how many, of which
/// entity types, on which layers.
///
/// # Examples
/// ```
/// let line = |h: &str, layer: &str, a: (f64, f64), b: (f64, f64)| format!("0\nLINE\n5\n{h}\n8\n{layer}\n10\n{}\n20\n{}\n11\n{}\n21\n{}\n", a.0, a.1, b.0, b.1);
/// let body = [line("1", "0", (0.0, 0.0), (4.0, 0.0)), line("2", "0", (4.0, 0.0), (0.0, 3.0)),
///             line("3", "0", (0.0, 3.0), (0.0, 0.0)), line("4", "CENTER", (-1.0, 1.0), (5.0, 1.0))].concat();
/// let dxf = format!("0\nSECTION\n2\nENTITIES\n{body}0\nENDSEC\n0\nEOF\n");
/// let read = inertia::io::dxf::parse_with(dxf.as_bytes(), &Default::default())?;
/// assert_eq!(read.parts.len(), 1);
/// assert_eq!(read.open.count, 1);
/// assert_eq!(read.open.kinds["LINE"], 1);
/// assert_eq!(read.open.layers["CENTER"], 1);
/// # Ok::<(), inertia::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OpenPieces {
    /// How many pieces (each piece of a SPLINE cut at a discontinuous knot counts).
    pub count: usize,
    /// How many of each DXF entity type (`LINE`, `ARC`, `LWPOLYLINE`, ...).
    pub kinds: std::collections::BTreeMap<String, usize>,
    /// How many on each layer.
    pub layers: std::collections::BTreeMap<String, usize>,
}

impl OpenPieces {
    fn add(&mut self, origin: &Origin) {
        self.count += 1;
        *self.kinds.entry(origin.kind.to_string()).or_default() += 1;
        *self.layers.entry(origin.layer.clone()).or_default() += 1;
    }
}

/// The space of a drawing that is read: what a CAD program shows in its model tab, or on
/// one of its layouts (sheets, with their title blocks and viewport frames).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Space {
    /// Model space, unless it holds no geometry (nothing but annotations) and the active
    /// layout's paper space holds closed outlines: that paper space is then read, and
    /// [`Read::paper_instead`] says so.
    #[default]
    Auto,
    /// Model space: the part as drawn. Paper-space entities (group 67 = 1) and the
    /// layouts' blocks are left out, and counted.
    Model,
    /// The paper space of the active layout (the entities with group 67 = 1).
    Paper,
    /// The layout of this name (case-insensitive, as CAD programs compare names), from
    /// the drawing's `LAYOUT` objects (`Model` is model space).
    Layout(String),
}

/// By default, two ends closer than this fraction of the larger of their pieces' extents
/// (the diagonal of each one's box) are joined: CAD programs write 11 to 12 significant
/// digits, so arcs and lines that meet in the drawing miss by up to ~1e-7 of their size
/// in the file.
pub const DEFAULT_JOIN: f64 = 1e-6;

/// Gaps joined beyond rounding when chaining pieces into outlines: what the warning says.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Joins {
    /// The largest distance between two ends joined.
    pub largest_gap: f64,
    /// The tolerance ends were joined within.
    pub tolerance: f64,
    /// A bound on how much the joined outlines' area may differ from the drawn pieces':
    /// the largest gap times the perimeter of the outlines chained from pieces.
    pub area_bound: f64,
}

/// What a drawing holds: its polygons, and what was left out of them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Read {
    /// Each polygon (outer ring and holes), named by its outline's entity.
    pub parts: Vec<(String, PolygonRings)>,
    /// Pieces that belong to no closed outline, left out ([`OpenPolicy::Leave`]).
    pub open: OpenPieces,
    /// `Some(n)`: model space held no geometry (its `n` entities are annotations, or it
    /// is empty), and the active layout's paper space was read instead ([`Space::Auto`]).
    pub paper_instead: Option<usize>,
    /// Annotations and construction geometry ignored, counted by DXF entity type
    /// (`{"DIMENSION": 4, "TEXT": 2}`): they never change an outline. Entities a CAD
    /// program does not show in the space read are counted here too, by reason:
    /// `"paper space"` (or `"model space"` when a layout is read), `"invisible"` (group
    /// 60 = 1), `"layer off"` and `"layer frozen"` (an INSERT on a frozen layer counts
    /// once, for all it would place).
    pub annotations: std::collections::BTreeMap<String, usize>,
    /// Gaps joined beyond rounding (ends a few units in the last place apart are not
    /// counted), to be reported.
    pub joins: Option<Joins>,
}

/// What a layer's entry in the drawing's LAYER table says of its entities' visibility.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct LayerState {
    /// Turned off (a negative colour number): its entities are not shown.
    pub(crate) off: bool,
    /// Frozen (flag 1 of group 70): its entities are neither shown nor regenerated, and
    /// an INSERT on it shows nothing of its block.
    pub(crate) frozen: bool,
}

/// The states of the layers of a drawing, read from its LAYER table (keys upper case:
/// DXF layer names are compared without case). The `dxf` crate does not keep the layer
/// flags (group 70), so they are read from the file's group pairs here, ASCII or binary.
fn layer_states(bytes: &[u8]) -> std::collections::HashMap<String, LayerState> {
    let mut states = std::collections::HashMap::new();
    // The LAYER entry being read: (name, flags, colour).
    let mut entry: Option<(String, i32, i32)> = None;
    let mut finish = |entry: &mut Option<(String, i32, i32)>| {
        if let Some((name, flags, colour)) = entry.take() {
            states.insert(
                name.to_uppercase(),
                LayerState {
                    off: colour < 0,
                    frozen: flags & 1 != 0,
                },
            );
        }
    };
    for (code, value) in header_pairs(bytes) {
        match code {
            0 => {
                finish(&mut entry);
                if value == "LAYER" {
                    entry = Some((String::new(), 0, 7));
                }
            }
            2 if value == "BLOCKS" || value == "ENTITIES" => break,
            2 => {
                if let Some(e) = entry.as_mut() {
                    e.0 = value;
                }
            }
            70 | 62 => {
                if let (Some(e), Ok(v)) = (entry.as_mut(), value.parse::<i32>()) {
                    if code == 70 {
                        e.1 = v;
                    } else {
                        e.2 = v;
                    }
                }
            }
            _ => {}
        }
    }
    finish(&mut entry);
    states
}

/// The handles (group 5) an ASCII drawing writes; `None` for a binary one.
fn file_handles(bytes: &[u8]) -> Option<std::collections::HashSet<u64>> {
    if bytes.starts_with(b"AutoCAD Binary DXF") {
        return None;
    }
    let text = std::str::from_utf8(bytes)
        .or_else(|e| std::str::from_utf8(&bytes[..e.valid_up_to()]))
        .ok()?;
    let mut handles = std::collections::HashSet::new();
    let mut lines = text.lines().map(str::trim);
    while let (Some(code), Some(value)) = (lines.next(), lines.next()) {
        if code == "5"
            && let Ok(h) = u64::from_str_radix(value, 16)
        {
            handles.insert(h);
        }
    }
    Some(handles)
}

/// The group pairs of a drawing up to its BLOCKS or ENTITIES section (its header and
/// tables), as (code, value as text): from the lines of an ASCII drawing, or decoded from
/// a binary one (codes of one byte, or two from R13 on; values typed by code, as the DXF
/// reference gives them). A pair that cannot be decoded ends the list.
fn header_pairs(bytes: &[u8]) -> Vec<(i32, String)> {
    const SENTINEL: &[u8] = b"AutoCAD Binary DXF\r\n\x1a\0";
    let mut out = Vec::new();
    let stop = |code: i32, value: &str| code == 2 && (value == "BLOCKS" || value == "ENTITIES");
    let Some(data) = bytes.strip_prefix(SENTINEL) else {
        let Ok(text) =
            std::str::from_utf8(bytes).or_else(|e| std::str::from_utf8(&bytes[..e.valid_up_to()]))
        else {
            return out;
        };
        let mut lines = text.lines().map(str::trim);
        while let (Some(c), Some(v)) = (lines.next(), lines.next()) {
            let Ok(code) = c.parse::<i32>() else { break };
            out.push((code, v.to_string()));
            if stop(code, v) {
                break;
            }
        }
        return out;
    };
    // R13 and later write each code in two bytes: the first pair (0, "SECTION") then
    // starts with two zero bytes.
    let two = data.len() >= 2 && data[0] == 0 && data[1] == 0;
    let mut i = 0;
    let take = |i: &mut usize, n: usize| -> Option<&[u8]> {
        let s = data.get(*i..i.checked_add(n)?)?;
        *i += n;
        Some(s)
    };
    let le = |s: &[u8]| s.iter().rev().fold(0i64, |a, b| (a << 8) | i64::from(*b));
    loop {
        let code = if two {
            match take(&mut i, 2) {
                Some(s) => le(s) as i16 as i32,
                None => break,
            }
        } else {
            match take(&mut i, 1) {
                Some([255]) => match take(&mut i, 2) {
                    Some(s) => le(s) as i16 as i32,
                    None => break,
                },
                Some(s) => i32::from(s[0]),
                None => break,
            }
        };
        let value = match code {
            0..=9
            | 100..=102
            | 105
            | 300..=309
            | 320..=369
            | 390..=399
            | 410..=419
            | 430..=439
            | 470..=481
            | 999
            | 1000..=1003
            | 1005..=1009 => {
                let Some(end) = data.get(i..).and_then(|d| d.iter().position(|&b| b == 0)) else {
                    break;
                };
                let v = String::from_utf8_lossy(&data[i..i + end]).into_owned();
                i += end + 1;
                v
            }
            10..=59 | 110..=149 | 210..=239 | 460..=469 | 1010..=1059 => match take(&mut i, 8) {
                Some(s) => f64::from_bits(le(s) as u64).to_string(),
                None => break,
            },
            60..=79 | 170..=179 | 270..=289 | 370..=389 | 400..=409 | 1060..=1070 => {
                match take(&mut i, 2) {
                    Some(s) => (le(s) as i16).to_string(),
                    None => break,
                }
            }
            290..=299 => match take(&mut i, if two { 1 } else { 2 }) {
                Some(s) => (le(s) as i16 != 0).to_string(),
                None => break,
            },
            90..=99 | 420..=429 | 440..=459 | 1071 => match take(&mut i, 4) {
                Some(s) => (le(s) as i32).to_string(),
                None => break,
            },
            160..=169 => match take(&mut i, 8) {
                Some(s) => le(s).to_string(),
                None => break,
            },
            310..=319 | 1004 => {
                let Some(&[n]) = take(&mut i, 1) else { break };
                if take(&mut i, usize::from(n)).is_none() {
                    break;
                }
                String::new()
            }
            _ => break,
        };
        let done = stop(code, &value);
        out.push((code, value));
        if done {
            break;
        }
    }
    out
}

/// What a drawing held outside its polygons.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LeftOut {
    /// Pieces in no closed outline, left out ([`OpenPolicy::Leave`]).
    pub open: OpenPieces,
    /// Model space held no geometry and paper space was read ([`Read::paper_instead`]).
    pub paper_instead: Option<usize>,
    /// Annotations ignored, counted by DXF entity type, and entities not shown, by reason.
    pub annotations: std::collections::BTreeMap<String, usize>,
    /// Gaps joined beyond rounding, to be reported.
    pub joins: Option<Joins>,
}

/// The DXF type name of an entity the reader ignores (`DIMENSION` for every kind of
/// dimension).
fn kind_name(e: &::dxf::entities::EntityType) -> String {
    let variant = format!("{e:?}");
    let variant = variant.split('(').next().unwrap_or("entity");
    match variant {
        v if v.ends_with("Dimension") => "DIMENSION".into(),
        "ModelPoint" => "POINT".into(),
        "AttributeDefinition" => "ATTDEF".into(),
        "Attribute" => "ATTRIB".into(),
        "ProxyEntity" => "ACAD_PROXY_ENTITY".into(),
        v => v.to_ascii_uppercase(),
    }
}

/// Entity types the `dxf` crate reads; any other type in an ASCII drawing's ENTITIES
/// section is skipped by it, and counted here instead.
const KNOWN: &[&str] = &[
    "3DFACE",
    "3DSOLID",
    "ACAD_PROXY_ENTITY",
    "ARC",
    "ARCALIGNEDTEXT",
    "ATTDEF",
    "ATTRIB",
    "BODY",
    "CIRCLE",
    "DIMENSION",
    "ELLIPSE",
    "HELIX",
    "IMAGE",
    "INSERT",
    "LEADER",
    "LIGHT",
    "LINE",
    "3DLINE",
    "LWPOLYLINE",
    "MLINE",
    "MTEXT",
    "OLEFRAME",
    "OLE2FRAME",
    "POINT",
    "POLYLINE",
    "RAY",
    "REGION",
    "RTEXT",
    "SECTION",
    "SEQEND",
    "SHAPE",
    "SOLID",
    "SPLINE",
    "TEXT",
    "TOLERANCE",
    "TRACE",
    "DGNUNDERLAY",
    "DWFUNDERLAY",
    "PDFUNDERLAY",
    "VERTEX",
    "WIPEOUT",
    "XLINE",
];

/// Entity types the `dxf` crate does not read that carry an outline or a body: refused,
/// since they cannot be dropped without changing the answer.
const GEOMETRIC: &[&str] = &[
    "MESH",
    "SURFACE",
    "EXTRUDEDSURFACE",
    "LOFTEDSURFACE",
    "NURBSURFACE",
    "PLANESURFACE",
    "REVOLVEDSURFACE",
    "SWEPTSURFACE",
];

/// Counts the top-level entities of an ASCII drawing whose type the `dxf` crate skips
/// (`HATCH`, `MULTILEADER`, `ACAD_TABLE`, ...), refusing those that are geometry.
fn unread_entities(bytes: &[u8]) -> Result<std::collections::BTreeMap<String, usize>> {
    let mut counts = std::collections::BTreeMap::new();
    let Ok(text) = std::str::from_utf8(bytes) else {
        return Ok(counts);
    };
    let mut lines = text.lines().map(str::trim);
    let mut in_entities = false;
    while let Some(code) = lines.next() {
        let Some(value) = lines.next() else { break };
        if code != "0" {
            if code == "2" && value == "ENTITIES" {
                in_entities = true;
            }
            continue;
        }
        match value {
            "ENDSEC" if in_entities => break,
            v if in_entities && !KNOWN.contains(&v) => {
                if GEOMETRIC.contains(&v) {
                    return Err(Error::parse(
                        crate::error::clip(v),
                        "this kind of entity is not read, and dropping it could change the outline: export the profile as lines, arcs and polylines",
                    ));
                }
                *counts.entry(crate::error::clip(v)).or_default() += 1;
            }
            _ => {}
        }
    }
    Ok(counts)
}

/// Whether a closed ring of chords encloses nothing: all its points on one line, up to
/// rounding (a polyline drawn back along itself, two vertices, one). Its signed area
/// would not do: a bow tie's two lobes cancel, and it must be refused as crossing.
fn encloses_nothing(ring: &[[f64; 2]]) -> bool {
    let Some(&o) = ring.first() else {
        return true;
    };
    // The line through the first point and the point farthest from it.
    let d = |p: &[f64; 2]| (p[0] - o[0]).hypot(p[1] - o[1]);
    // The first point farthest from `o`, its distance carried along (computed once each).
    let (far, size) = ring.iter().fold((o, d(&o)), |(f, df), p| {
        let dp = d(p);
        if dp > df { (*p, dp) } else { (f, df) }
    });
    if size == 0.0 {
        return true;
    }
    let u = [(far[0] - o[0]) / size, (far[1] - o[1]) / size];
    // A NaN is kept, for the validation to refuse.
    ring.iter()
        .all(|p| ((p[0] - o[0]) * u[1] - (p[1] - o[1]) * u[0]).abs() <= 1e-12 * size)
}

/// The top-level entities of the space asked for, how many entities the other space holds
/// (left out, to be counted), and whether the space read is model space.
fn space_entities<'a>(
    drawing: &'a ::dxf::Drawing,
    space: &Space,
) -> Result<(Vec<&'a ::dxf::entities::Entity>, usize, bool)> {
    let (paper, model): (Vec<_>, Vec<_>) =
        drawing.entities().partition(|e| e.common.is_in_paper_space);
    // The layouts other than the active one keep their entities in blocks
    // `*Paper_Space0`, `*Paper_Space1`, ..., which nothing inserts.
    let layouts: usize = drawing
        .blocks()
        .filter(|b| {
            b.name.len() > "*Paper_Space".len()
                && b.name.is_char_boundary("*Paper_Space".len())
                && b.name[.."*Paper_Space".len()].eq_ignore_ascii_case("*Paper_Space")
        })
        .map(|b| b.entities.len())
        .sum();
    let name = match space {
        Space::Auto | Space::Model => return Ok((model, paper.len() + layouts, true)),
        Space::Paper => return Ok((paper, model.len(), false)),
        Space::Layout(name) => name,
    };
    if name.eq_ignore_ascii_case("model") {
        return Ok((model, paper.len() + layouts, true));
    }
    // A layout names its block through the BLOCK_RECORD that points at it (group 340):
    // `*Paper_Space` for the active layout, whose entities are in ENTITIES with group 67,
    // `*Paper_Space0`, `*Paper_Space1`, ... for the others, whose entities are in their
    // blocks.
    let mut names = Vec::new();
    let mut found = None;
    for o in drawing.objects() {
        if let ::dxf::objects::ObjectType::Layout(l) = &o.specific {
            names.push(l.layout_name.clone());
            if l.layout_name.eq_ignore_ascii_case(name) {
                found = Some(o.common.handle);
            }
        }
    }
    let Some(handle) = found else {
        names.sort();
        return Err(Error::Empty {
            missing: crate::error::Missing::Layout {
                name: name.to_string(),
                layouts: names,
            },
        });
    };
    let record = drawing
        .block_records()
        .find(|r| r.__layout_handle == handle)
        .map(|r| r.name.clone())
        .unwrap_or_default();
    if record.eq_ignore_ascii_case("*Model_Space") {
        return Ok((model, paper.len() + layouts, true));
    }
    if record.eq_ignore_ascii_case("*Paper_Space") {
        return Ok((paper, model.len(), false));
    }
    let block = drawing
        .blocks()
        .find(|b| b.name.eq_ignore_ascii_case(&record))
        .ok_or_else(|| {
            Error::parse(
                "DXF",
                format!(
                    "layout \"{}\" names no block of the drawing (its BLOCK_RECORD is \"{}\")",
                    crate::error::clip(name),
                    crate::error::clip(&record)
                ),
            )
        })?;
    Ok((block.entities.iter().collect(), model.len(), false))
}

/// Parses a DXF drawing into polygons (with holes), each named by its outline's entity.
/// A piece in no closed outline is refused ([`OpenPolicy::Refuse`]): nothing is left out
/// that this answer could not say.
///
/// # Errors
/// As [`parse_with`].
///
/// # Examples
/// ```
/// let dxf = "0\nSECTION\n2\nENTITIES\n0\nCIRCLE\n5\n2A\n8\n0\n10\n0\n20\n0\n30\n0\n40\n2\n0\nENDSEC\n0\nEOF\n";
/// let parts = inertia::io::dxf::parse(dxf.as_bytes())?;
/// assert_eq!(parts.len(), 1);
/// let poly = inertia::Polygon::from_rings(parts[0].1.clone())?;
/// let area = inertia::PolygonMethod::Fan.integrate(&poly).properties.area;
/// assert!((area - std::f64::consts::PI * 4.0).abs() < 1e-15 * area); // exact arcs
/// # Ok::<(), inertia::Error>(())
/// ```
pub fn parse(bytes: &[u8]) -> Result<Vec<(String, PolygonRings)>> {
    let strict = Options {
        open: OpenPolicy::Refuse,
        ..Options::default()
    };
    Ok(parse_with(bytes, &strict)?.parts)
}

/// [`parse`] with options (the tolerance within which pieces' ends are joined, what to do
/// with open pieces, the layers and the space to read), saying what was left out.
///
/// # Errors
/// A drawing that cannot be read; an entity that would change an outline but is not read
/// (`SOLID`, `REGION`, ...), or lies outside the XY plane; a piece whose end meets no other
/// ([`Error::OpenPiece`] with [`OpenPolicy::Refuse`], or when nothing closed is left;
/// [`Error::NearMiss`] for a gap); three or more ends at one point ([`Error::Branch`]);
/// INSERTs nested too deep, cyclic, or expanding to too many entities
/// ([`Error::TooLarge`]); splines needing too many points; no closed outline or no such
/// layout ([`Error::Empty`]). Each names the entity (type, handle, layer) or the point.
///
/// # Examples
/// ```
/// // A 4 × 2 rectangle drawn as four LINEs, the last one ending 1e-3 short.
/// let line = |h: &str, a: (f64, f64), b: (f64, f64)| format!("0\nLINE\n5\n{h}\n8\n0\n10\n{}\n20\n{}\n11\n{}\n21\n{}\n", a.0, a.1, b.0, b.1);
/// let body = [line("1", (0.0, 0.0), (4.0, 0.0)), line("2", (4.0, 0.0), (4.0, 2.0)),
///             line("3", (4.0, 2.0), (0.0, 2.0)), line("4", (0.0, 2.0), (0.0, 1e-3))].concat();
/// let dxf = format!("0\nSECTION\n2\nENTITIES\n{body}0\nENDSEC\n0\nEOF\n");
/// assert!(inertia::io::dxf::parse(dxf.as_bytes()).is_err());
/// let opts = inertia::io::dxf::Options { join_tolerance: Some(2e-3), ..Default::default() };
/// let read = inertia::io::dxf::parse_with(dxf.as_bytes(), &opts)?;
/// assert_eq!(read.parts[0].1.outer.len(), 4);
/// // The gap joined is reported, with its bound on the area (gap × perimeter).
/// let joins = read.joins.unwrap();
/// assert_eq!(joins.largest_gap, 1e-3);
/// assert!((joins.area_bound - 1e-3 * 12.0).abs() < 1e-15);
/// # Ok::<(), inertia::Error>(())
/// ```
pub fn parse_with(bytes: &[u8], options: &Options) -> Result<Read> {
    // The `dxf` crate reads the drawing on one core while the text is scanned on another
    // for what the crate does not keep (layer flags, which handles the file writes, entity
    // types it skips); each result is used where it always was, so errors come in the
    // same order.
    let model_space = matches!(options.space, Space::Auto | Space::Model);
    let all_entities = options.layers.is_empty() && model_space;
    let (drawing, (mut states, (handles, unread))) = rayon::join(
        || load(bytes),
        || {
            rayon::join(
                || layer_states(bytes),
                || {
                    (
                        file_handles(bytes),
                        all_entities.then(|| unread_entities(bytes)),
                    )
                },
            )
        },
    );
    let drawing = drawing?;
    // Layer states: off from the library (a negative colour), frozen from the text.
    for l in drawing.layers() {
        states.entry(l.name.to_uppercase()).or_default().off |= !l.is_layer_on;
    }
    let context = Context {
        drawing: &drawing,
        blocks: drawing.blocks().map(|b| (b.name.as_str(), b)).collect(),
        states,
        handles,
        frames: mtext_frames(&drawing),
    };
    let mut found = read_space(&context, &options.space, options)?;
    let mut paper_instead = None;
    // A drawing whose model space holds nothing but annotations, drawn on a sheet: read
    // as its sheet shows it. Not when model space holds any geometry (open pieces whose
    // outline failed to close are no reason to measure a title block's border instead).
    if options.space == Space::Auto
        && found.curves.is_empty()
        && found.geometry == 0
        && found.elsewhere > 0
    {
        let paper = read_space(&context, &Space::Paper, options)
            .map_err(|e| Error::in_part("paper space", e))?;
        if !paper.curves.is_empty() {
            paper_instead = Some(found.entities);
            found = paper;
        }
    }
    // Only with all layers and in model space: the skipped entities' layers and spaces
    // are not read.
    if let Some(unread) = unread {
        for (k, n) in unread? {
            *found.annotations.entry(k).or_default() += n;
        }
    }
    if found.curves.is_empty() {
        // Nothing closed is left: the first piece left out says why, as if refused.
        if let Some(e) = found.refusal {
            return Err(e);
        }
        return Err(Error::Empty {
            missing: crate::error::Missing::Outline {
                space: match &options.space {
                    Space::Auto | Space::Model => crate::error::DxfSpace::Model,
                    Space::Paper => crate::error::DxfSpace::Paper,
                    Space::Layout(n) => crate::error::DxfSpace::Layout(n.clone()),
                },
                layers: options.layers.clone(),
                elsewhere: if found.model { found.elsewhere } else { 0 },
            },
        });
    }
    Ok(Read {
        parts: nest(found.curves, found.drawn),
        open: found.open,
        paper_instead,
        annotations: found.annotations,
        joins: found.joins,
    })
}

/// What every read of a drawing's space shares: the drawing, its blocks, and what the
/// file's text says that the `dxf` crate does not keep.
struct Context<'a> {
    drawing: &'a ::dxf::Drawing,
    blocks: std::collections::HashMap<&'a str, &'a ::dxf::Block>,
    /// Layers that are off or frozen (upper-case names).
    states: std::collections::HashMap<String, LayerState>,
    /// The handles an ASCII drawing writes ([`file_handles`]).
    handles: Option<std::collections::HashSet<u64>>,
    /// The LWPOLYLINEs that frame an MTEXT ([`mtext_frames`]).
    frames: std::collections::HashSet<u64>,
}

/// The closed curves of one space of a drawing, and what was left out of them.
struct Found {
    /// The closed curves that enclose something, each with its chords (`drawn`).
    curves: Vec<Path>,
    drawn: Vec<Vec<[f64; 2]>>,
    annotations: std::collections::BTreeMap<String, usize>,
    joins: Option<Joins>,
    open: OpenPieces,
    /// With [`OpenPolicy::Leave`], the refusal the first piece left out would have had.
    refusal: Option<Error>,
    /// How many closed curves and open pieces the space holds (loops enclosing nothing
    /// included): 0 when it holds only annotations.
    geometry: usize,
    /// How many top-level entities the space holds.
    entities: usize,
    /// How many entities the other spaces hold (left out, counted).
    elsewhere: usize,
    /// Whether the space read is model space.
    model: bool,
}

/// Reads one space of a drawing into closed curves: collects its entities (expanding
/// INSERTs), chains its pieces, and leaves out the loops that enclose nothing.
fn read_space(context: &Context<'_>, space: &Space, options: &Options) -> Result<Found> {
    let (entities, elsewhere, model) = space_entities(context.drawing, space)?;
    // Count what the INSERTs expand to before expanding any: a bomb is refused at once,
    // with its count, instead of filling memory.
    let max_expanded = options.max_entities.unwrap_or(DEFAULT_MAX_ENTITIES);
    // Only what INSERTs place: the drawing's own entities are read as they are.
    let inserts: Vec<&::dxf::entities::Entity> = entities
        .iter()
        .copied()
        .filter(|e| matches!(e.specific, ::dxf::entities::EntityType::Insert(_)))
        .collect();
    let total = collect::Tally::new(&context.blocks).count(&inserts);
    if total > max_expanded as u64 {
        return Err(Error::TooLarge {
            excess: crate::error::Excess::Entities {
                count: Some(total),
                copies: false,
                max: max_expanded as u64,
            },
        });
    }
    let mut c = Collector {
        space: match space {
            Space::Auto | Space::Model => "model space".to_string(),
            Space::Paper => "paper space".to_string(),
            Space::Layout(n) => format!("layout \"{}\"", crate::error::clip(n)),
        },
        file_handles: context.handles.as_ref(),
        layers: options.layers.clone(),
        states: &context.states,
        frames: &context.frames,
        max_expanded,
        blocks: &context.blocks,
        curves: Vec::new(),
        pieces: Vec::new(),
        expanded: 0,
        annotations: Default::default(),
        splines: collect::spline_cache(&entities),
    };
    c.entities(&entities, &Affine::IDENTITY, "", "", &mut Vec::new())?;
    let Collector {
        mut curves,
        pieces,
        mut annotations,
        ..
    } = c;
    let geometry = curves.len() + pieces.len();
    if elsewhere > 0 {
        let other = if model { "paper space" } else { "model space" };
        *annotations.entry(other.into()).or_default() += elsewhere;
    }
    let tols = join_tolerances(&pieces, options);
    let strict = pieces.iter().map(strict_tolerance).fold(0.0_f64, f64::max);
    let tol = tols.iter().copied().fold(0.0_f64, f64::max);
    let chained = chain(pieces, &tols, options.open)?;
    let joins = (chained.largest_gap > strict).then(|| Joins {
        largest_gap: chained.largest_gap,
        tolerance: tol,
        area_bound: chained.largest_gap * chained.perimeter(),
    });
    curves.extend(chained.curves);
    check_chord_points(&curves)?;
    // A closed loop that encloses nothing (a polyline drawn back along itself, two
    // vertices, one): no part and no hole, left out and counted rather than refusing the
    // drawing.
    // Each curve cut into chords once, on every core, for this test and the nesting.
    let before = curves.len();
    let (curves, drawn): (Vec<Path>, Vec<Vec<[f64; 2]>>) = curves
        .into_par_iter()
        .filter_map(|c| {
            let chords = c.chords();
            (!encloses_nothing(&chords)).then_some((c, chords))
        })
        .unzip();
    if curves.len() < before {
        *annotations.entry("zero-area loops".into()).or_default() += before - curves.len();
    }
    Ok(Found {
        curves,
        drawn,
        annotations,
        joins,
        open: chained.open,
        refusal: chained.refusal,
        geometry,
        entities: entities.len(),
        elsewhere,
        model,
    })
}

/// Rounding in the last place of a piece's largest coordinate: 64 units of it.
fn strict_tolerance(p: &Path) -> f64 {
    64.0 * f64::EPSILON
        * p.points
            .iter()
            .flatten()
            .fold(0.0_f64, |a, c| a.max(c.abs()))
}

/// The join tolerance of each piece. CAD programs write 11 to 12 significant digits, and
/// an arc's ends computed from its centre, radius and angles miss the lines they meet by
/// up to ~1e-7 of their size: by default two ends are joined within 1e-6 of the larger of
/// their two pieces' extents (or 64 units in the last place of their coordinates, for
/// pieces far from the origin), judged pair by pair, so that nothing elsewhere in the
/// drawing widens it; a gap joined beyond rounding is reported with the bound it puts on
/// the area.
fn join_tolerances(pieces: &[Path], options: &Options) -> Vec<f64> {
    pieces
        .iter()
        .map(|p| {
            options.join_tolerance.unwrap_or_else(|| {
                let (lo, hi) = p.points.iter().fold(
                    ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]),
                    |(lo, hi), q| {
                        (
                            [lo[0].min(q[0]), lo[1].min(q[1])],
                            [hi[0].max(q[0]), hi[1].max(q[1])],
                        )
                    },
                );
                let extent = (hi[0] - lo[0]).hypot(hi[1] - lo[1]);
                let relative = if extent.is_finite() {
                    DEFAULT_JOIN * extent
                } else {
                    0.0
                };
                relative.max(strict_tolerance(p))
            })
        })
        .collect()
}

/// The validity checks see every curve as chords (1/128 of a turn each), and each outline
/// costs tens of bytes per chord point through validation and report: bound them before
/// any is made, so that memory stays within what is stated here.
fn check_chord_points(curves: &[Path]) -> Result<()> {
    let chord_points: usize = curves
        .iter()
        .map(|c| {
            c.points.len()
                + c.arcs
                    .iter()
                    .flatten()
                    .map(|a| a.chord_count() - 1)
                    .sum::<usize>()
        })
        .fold(0, usize::saturating_add);
    if chord_points > MAX_CHORD_POINTS {
        return Err(Error::TooLarge {
            excess: crate::error::Excess::ChordPoints {
                count: chord_points as u64,
                max: MAX_CHORD_POINTS as u64,
            },
        });
    }
    Ok(())
}

/// The handles of the LWPOLYLINEs that draw the frame of an MTEXT's text box: CAD
/// programs writing DXF before R2018 add one for an MTEXT with a text frame (group 90 flag
/// 16), and name it in the MTEXT's `ACAD` extended data between
/// `ACAD_MTEXT_TEXT_BORDERS_BEGIN` and `ACAD_MTEXT_TEXT_BORDERS_END` (group 1005); the
/// frame points back at its MTEXT through its persistent reactors (`{ACAD_REACTORS`, group
/// 330). Either link makes it a frame: annotation, never an outline.
fn mtext_frames(drawing: &::dxf::Drawing) -> std::collections::HashSet<u64> {
    use ::dxf::entities::EntityType;
    use ::dxf::{ExtensionGroupItem, XDataItem};
    let all: Vec<&::dxf::entities::Entity> = drawing
        .entities()
        .chain(drawing.blocks().flat_map(|b| b.entities.iter()))
        .collect();
    let mut frames = std::collections::HashSet::new();
    let mut mtexts = std::collections::HashSet::new();
    for e in all
        .iter()
        .filter(|e| matches!(e.specific, EntityType::MText(_)))
    {
        mtexts.insert(e.common.handle.0);
        for x in e
            .common
            .x_data
            .iter()
            .filter(|x| x.application_name == "ACAD")
        {
            let mut inside = false;
            for item in &x.items {
                match item {
                    XDataItem::Str(s) if s == "ACAD_MTEXT_TEXT_BORDERS_BEGIN" => inside = true,
                    XDataItem::Str(s) if s == "ACAD_MTEXT_TEXT_BORDERS_END" => inside = false,
                    XDataItem::Handle(h) if inside => {
                        frames.insert(h.0);
                    }
                    _ => {}
                }
            }
        }
    }
    if mtexts.is_empty() {
        return frames;
    }
    for e in all
        .iter()
        .filter(|e| matches!(e.specific, EntityType::LwPolyline(_)))
    {
        let reacts_to_mtext = e
            .common
            .extension_data_groups
            .iter()
            .filter(|g| g.application_name == "ACAD_REACTORS")
            .flat_map(|g| g.items.iter())
            .any(|item| match item {
                ExtensionGroupItem::CodePair(p) if p.code == 330 => p
                    .assert_string()
                    .ok()
                    .and_then(|s| u64::from_str_radix(s.trim(), 16).ok())
                    .is_some_and(|h| mtexts.contains(&h)),
                _ => false,
            });
        if reacts_to_mtext {
            frames.insert(e.common.handle.0);
        }
    }
    frames
}

#[cfg(test)]
mod tests {
    use super::curves::turn;
    use super::*;
    use std::f64::consts::PI;

    fn lwpolyline(handle: &str, pts: &[(f64, f64, f64)], closed: bool) -> String {
        let mut s = format!(
            "0\nLWPOLYLINE\n5\n{handle}\n100\nAcDbEntity\n8\n0\n100\nAcDbPolyline\n90\n{}\n70\n{}\n",
            pts.len(),
            closed as i32
        );
        for (x, y, b) in pts {
            s += &format!("10\n{x}\n20\n{y}\n");
            if *b != 0.0 {
                s += &format!("42\n{b}\n");
            }
        }
        s
    }

    fn drawing(entities: &str) -> Vec<u8> {
        format!("0\nSECTION\n2\nENTITIES\n{entities}0\nENDSEC\n0\nEOF\n").into_bytes()
    }

    #[test]
    fn slot_with_round_ends_and_a_hole() {
        // A 4 × 2 rectangle with semicircular ends (bulge 1) — a stadium of area 8 + π — and
        // a circular hole of radius 0.5: area 8 + π − π/4.
        let outer = lwpolyline(
            "A1",
            &[
                (0.0, 0.0, 0.0),
                (4.0, 0.0, 1.0),
                (4.0, 2.0, 0.0),
                (0.0, 2.0, 1.0),
            ],
            true,
        );
        let hole = "0\nCIRCLE\n5\nB2\n8\n0\n10\n2\n20\n1\n30\n0\n40\n0.5\n".to_string();
        let parts = parse(&drawing(&(outer + &hole))).unwrap();
        assert_eq!(parts.len(), 1);
        assert_eq!(parts[0].0, "LWPOLYLINE A1");
        let p = crate::Polygon::from_rings(parts[0].1.clone()).unwrap();
        let a = crate::PolygonMethod::Fan.integrate(&p).properties.area;
        let exact = 8.0 + PI - PI / 4.0;
        assert!((a - exact).abs() < 1e-14 * exact, "{a} vs {exact}");
    }

    #[test]
    fn annotations_are_counted_and_unread_geometry_refused() {
        let square = lwpolyline(
            "A1",
            &[
                (0.0, 0.0, 0.0),
                (1.0, 0.0, 0.0),
                (1.0, 1.0, 0.0),
                (0.0, 1.0, 0.0),
            ],
            true,
        );
        let text = "0\nTEXT\n5\n1F\n8\n0\n10\n0\n20\n0\n40\n1\n1\nhello\n";
        // A HATCH, which the dxf crate skips: counted from the file's text.
        let hatch = "0\nHATCH\n5\n2F\n8\n0\n10\n0\n20\n0\n";
        let body = [square.as_str(), text, text, hatch].concat();
        let read = parse_with(&drawing(&body), &Options::default()).unwrap();
        assert_eq!(read.parts.len(), 1);
        let counts: Vec<(&str, usize)> = read
            .annotations
            .iter()
            .map(|(k, n)| (k.as_str(), *n))
            .collect();
        assert_eq!(counts, [("HATCH", 1), ("TEXT", 2)]);
        // A MESH carries a body: refused, not skipped.
        let mesh = "0\nMESH\n5\n3F\n8\n0\n";
        let e = parse(&drawing(&[square.as_str(), mesh].concat()))
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("MESH: this kind of entity is not read"),
            "{e}"
        );
    }

    #[test]
    fn huge_angles_end() {
        // A loop adding a turn until the end passes the start never ended for 1e300.
        assert!(turn(-1e300, 360.0) > 0.0);
        assert_eq!(turn(0.0, 360.0), 360.0);
        assert_eq!(turn(-90.0, 360.0), 270.0);
        assert_eq!(turn(360.0, 360.0), 360.0);
        assert_eq!(turn(2.0 * PI, 2.0 * PI), 2.0 * PI);
        // An ARC from 1e300° to 0°: read as from 1e300 mod 360 (= 0 in f64) to 0, a full
        // circle, at once; an ARC from 45° to 1e300° + 45° likewise.
        let arc = "0\nARC\n5\n1A\n8\n0\n10\n0\n20\n0\n40\n1\n50\n1e300\n51\n0\n";
        let parts = parse(&drawing(arc)).unwrap();
        assert_eq!(parts[0].1.outer.len(), 4);
        let arc = "0\nARC\n5\n1C\n8\n0\n10\n0\n20\n0\n40\n1\n50\n45\n51\n-1e300\n";
        assert!(parse(&drawing(arc)).is_ok());
        let ellipse =
            "0\nELLIPSE\n5\n1B\n8\n0\n10\n0\n20\n0\n11\n2\n21\n0\n40\n0.5\n41\n1e300\n42\n0\n";
        assert!(parse(&drawing(ellipse)).is_err() || parse(&drawing(ellipse)).is_ok());
    }

    #[test]
    fn refusals() {
        let e = |b: &[u8]| parse(b).unwrap_err().to_string();
        assert!(
            e(&drawing(&lwpolyline(
                "C3",
                &[(0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (1.0, 1.0, 0.0)],
                false
            )))
            .starts_with(
                "LWPOLYLINE C3: (0, 0)–(1, 1) is not part of a closed outline: its end at (0, 0) meets no other piece"
            )
        );
        assert_eq!(
            e(&drawing(
                "0\nLINE\n5\nD4\n8\n0\n10\n0\n20\n0\n11\n1\n21\n0\n"
            )),
            "LINE D4: (0, 0)–(1, 0) is not part of a closed outline: its end at (0, 0) meets no other piece (the nearest other end is 1 away)"
        );
        // A gap small beside the drawing gets the tolerance that would close it.
        let gap = [
            "0\nLINE\n5\nE1\n8\n0\n10\n0\n20\n0\n11\n4\n21\n0\n",
            "0\nLINE\n5\nE2\n8\n0\n10\n4\n20\n0\n11\n4\n21\n2\n",
            "0\nLINE\n5\nE3\n8\n0\n10\n4\n20\n2\n11\n0\n21\n2\n",
            "0\nLINE\n5\nE4\n8\n0\n10\n0\n20\n2\n11\n0\n21\n0.0001\n",
        ]
        .concat();
        let msg = parse(&drawing(&gap)).unwrap_err();
        assert!(
            matches!(
                msg,
                Error::OpenPiece {
                    nearest: Some(d),
                    joinable: true,
                    ..
                } if d == 0.0001
            ),
            "{msg}"
        );
        assert!(
            msg.to_string()
                .contains("the nearest other end is 0.0001 away")
        );
        assert!(e(b"garbage").starts_with("DXF"));
        assert!(e(&drawing("")).contains("no closed outline"));
    }

    #[test]
    fn lines_arcs_and_open_polylines_chain_into_outlines() {
        let line = |h: &str, a: [f64; 2], b: [f64; 2]| {
            format!(
                "0\nLINE\n5\n{h}\n8\n0\n10\n{}\n20\n{}\n11\n{}\n21\n{}\n",
                a[0], a[1], b[0], b[1]
            )
        };
        let arc = |h: &str, c: [f64; 2], r: f64, s: f64, e: f64| {
            format!(
                "0\nARC\n5\n{h}\n8\n0\n10\n{}\n20\n{}\n40\n{r}\n50\n{s}\n51\n{e}\n",
                c[0], c[1]
            )
        };
        let area = |text: &str| {
            let parts = parse(&drawing(text)).unwrap();
            assert_eq!(parts.len(), 1);
            let p = crate::Polygon::from_rings(parts[0].1.clone()).unwrap();
            crate::PolygonMethod::Fan.integrate(&p).properties.area
        };
        // A 100 × 50 plate of four LINEs, out of order and two reversed.
        let plate = [
            line("A", [0.0, 0.0], [100.0, 0.0]),
            line("C", [100.0, 50.0], [0.0, 50.0]),
            line("B", [100.0, 50.0], [100.0, 0.0]),
            line("D", [0.0, 0.0], [0.0, 50.0]),
        ]
        .concat();
        assert_eq!(area(&plate), 5000.0);
        // A slot: two LINEs and two half-circle ARCs, 40 between centres, radius 5.
        let slot = [
            line("1", [0.0, -5.0], [40.0, -5.0]),
            arc("2", [40.0, 0.0], 5.0, 270.0, 90.0),
            line("3", [40.0, 5.0], [0.0, 5.0]),
            arc("4", [0.0, 0.0], 5.0, 90.0, 270.0),
        ]
        .concat();
        let exact = 400.0 + PI * 25.0;
        let a = area(&slot);
        assert!((a - exact).abs() < 1e-14 * exact, "{a} vs {exact}");
        // An open polyline closed by a LINE, and one whose last point is its first.
        let l = lwpolyline(
            "E1",
            &[(0.0, 0.0, 0.0), (4.0, 0.0, 0.0), (4.0, 3.0, 0.0)],
            false,
        );
        assert_eq!(area(&(l + &line("E2", [4.0, 3.0], [0.0, 0.0]))), 6.0);
        let l = lwpolyline(
            "E3",
            &[
                (0.0, 0.0, 0.0),
                (4.0, 0.0, 0.0),
                (4.0, 3.0, 0.0),
                (0.0, 0.0, 0.0),
            ],
            false,
        );
        assert_eq!(area(&l), 6.0);
        // Three pieces at one point branch; a SPLINE without control points is refused,
        // never dropped.
        let e = parse(&drawing(
            &(plate.clone()
                + &line("E", [0.0, 0.0], [50.0, 25.0])
                + &line("F", [50.0, 25.0], [100.0, 50.0])),
        ))
        .unwrap_err()
        .to_string();
        assert!(e.contains("3 pieces meet at (0, 0)"), "{e}");
        let e = parse(&drawing(&(plate + "0\nSPLINE\n5\n5A\n8\n0\n")))
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("SPLINE 5A: is given by fit points only"),
            "{e}"
        );
    }
}
