//! Input formats: one file per format.
//!
//! Polygons: [`json`], [`csv`], [`geojson`] and [`dxf`]; meshes: [`stl`], [`obj`], [`ply`]
//! and [`threemf`]; exact CAD solids (STEP, IGES, BREP) with the feature `step`: `step`. Each parser takes the whole input as bytes (a memory-mapped file, see
//! [`Bytes`]) and returns raw geometry, and nothing here validates it: that happens in
//! [`Polygon::new`](crate::Polygon::new) and [`Mesh::new`](crate::Mesh::new), a polygon
//! file's parts in [`crate::read::read_polygons`], and the whole mesh pipeline in
//! [`crate::solid::read_solids`] (a test holds the readers to it).

mod bytes;
pub mod csv;
pub mod dxf;
pub mod geojson;
pub(crate) mod guard;
pub mod json;
pub mod obj;
pub mod ply;
mod scan;
#[cfg(feature = "step")]
pub mod step;
pub mod stl;
pub mod threemf;

pub use bytes::{Bytes, DEFAULT_MAX_STREAM_BYTES, MAP_THRESHOLD};

use crate::error::{Error, Result};
use crate::mesh::{MAX_TRIANGLES, RawMesh};
use std::path::Path;

/// A mesh input format.
///
/// # Examples
/// ```
/// use inertia::io::MeshFormat;
/// assert_eq!(MeshFormat::from_path("a.3mf".as_ref()), Some(MeshFormat::ThreeMf));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum MeshFormat {
    /// STL, binary or ASCII.
    Stl,
    /// Wavefront OBJ.
    Obj,
    /// PLY, ASCII or binary.
    Ply,
    /// 3MF: each build item a body.
    #[cfg_attr(feature = "cli", value(name = "3mf"))]
    ThreeMf,
}

impl MeshFormat {
    /// The format a file name implies (`.stl`, `.obj`), if any.
    ///
    /// # Examples
    /// ```
    /// use inertia::io::MeshFormat;
    /// assert_eq!(MeshFormat::from_path("part.STL".as_ref()), Some(MeshFormat::Stl));
    /// assert_eq!(MeshFormat::from_path("part.ply".as_ref()), Some(MeshFormat::Ply));
    /// assert_eq!(MeshFormat::from_path("part.step".as_ref()), None);
    /// ```
    pub fn from_path(path: &Path) -> Option<Self> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "stl" => Some(MeshFormat::Stl),
            "obj" => Some(MeshFormat::Obj),
            "ply" => Some(MeshFormat::Ply),
            "3mf" => Some(MeshFormat::ThreeMf),
            _ => None,
        }
    }

    /// Guesses from the content: an STL by its `solid` keyword or its binary size rule,
    /// otherwise OBJ.
    ///
    /// # Examples
    /// ```
    /// use inertia::io::MeshFormat;
    /// assert_eq!(MeshFormat::sniff(b"solid x\nendsolid x\n"), MeshFormat::Stl);
    /// assert_eq!(MeshFormat::sniff(b"v 0 0 0\n"), MeshFormat::Obj);
    /// ```
    pub fn sniff(bytes: &[u8]) -> Self {
        if bytes.starts_with(b"ply\n") || bytes.starts_with(b"ply\r\n") {
            MeshFormat::Ply
        } else if bytes.starts_with(b"PK\x03\x04") {
            MeshFormat::ThreeMf
        } else if stl::kind(bytes).is_ok() {
            MeshFormat::Stl
        } else {
            MeshFormat::Obj
        }
    }
}

/// Parses `bytes` in `format` into a raw mesh.
///
/// # Errors
/// The format's parse errors (see each parser), and [`Error::InPart`]
/// for a 3MF holding several bodies.
///
/// # Examples
/// ```
/// use inertia::io::{read_raw_mesh, MeshFormat};
/// let raw = read_raw_mesh(b"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", MeshFormat::Obj)?;
/// assert_eq!(raw.triangles.len(), 1);
/// # Ok::<(), inertia::Error>(())
/// ```
pub fn read_raw_mesh(bytes: &[u8], format: MeshFormat) -> Result<RawMesh> {
    match format {
        MeshFormat::Stl => stl::parse(bytes),
        MeshFormat::Obj => obj::parse(bytes),
        MeshFormat::Ply => ply::parse(bytes),
        MeshFormat::ThreeMf => {
            let mut bodies = threemf::parse(bytes)?;
            if bodies.len() != 1 {
                return Err(Error::parse(
                    "3MF",
                    format!(
                        "{} bodies where one was expected (read_raw_meshes reads them all)",
                        bodies.len()
                    ),
                ));
            }
            Ok(bodies.remove(0).1)
        }
    }
}

/// Parses `bytes` in `format` into named bodies: one (named "") for STL, OBJ and PLY, one
/// per build item for 3MF.
///
/// # Errors
/// The format's parse errors (see each parser).
///
/// # Examples
/// ```
/// use inertia::io::{read_raw_meshes, MeshFormat};
/// let bodies = read_raw_meshes(b"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", MeshFormat::Obj)?;
/// assert_eq!(bodies[0].0, "");
/// # Ok::<(), inertia::Error>(())
/// ```
pub fn read_raw_meshes(bytes: &[u8], format: MeshFormat) -> Result<Vec<(String, RawMesh)>> {
    read_raw_meshes_limited(bytes, format, threemf::DEFAULT_MAX_TRIANGLES)
}

/// [`read_raw_meshes`], refusing a file that expands to more than `max_triangles`
/// triangles (a 3MF build instancing objects; the other formats hold at most one triangle
/// per few bytes, and are checked after reading).
///
/// # Errors
/// The format's parse errors (see each parser); [`Error::TooLarge`]
/// beyond `max_triangles`.
///
/// # Examples
/// ```
/// use inertia::io::{read_raw_meshes_limited, MeshFormat};
/// let obj = b"v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nf 1 2 3\nf 2 4 3\n";
/// assert!(read_raw_meshes_limited(obj, MeshFormat::Obj, 1).is_err());
/// ```
pub fn read_raw_meshes_limited(
    bytes: &[u8],
    format: MeshFormat,
    max_triangles: u64,
) -> Result<Vec<(String, RawMesh)>> {
    let bodies = match format {
        MeshFormat::ThreeMf => threemf::parse_limited(bytes, max_triangles)?,
        other => vec![(String::new(), read_raw_mesh(bytes, other)?)],
    };
    let total: u64 = bodies.iter().map(|(_, m)| m.triangles.len() as u64).sum();
    within_limit(total, max_triangles)?;
    Ok(bodies)
}

/// Refuses a file of `total` triangles when that is more than `max_triangles` (or
/// [`MAX_TRIANGLES`]).
pub(crate) fn within_limit(total: u64, max_triangles: u64) -> Result<()> {
    if total > max_triangles.min(MAX_TRIANGLES) {
        return Err(Error::TooLarge {
            excess: crate::error::Excess::Triangles {
                count: total,
                max: max_triangles.min(MAX_TRIANGLES),
            },
        });
    }
    Ok(())
}

/// The input as text, or an error naming the line of the first byte that is not UTF-8.
pub(crate) fn text(bytes: &[u8]) -> Result<&str> {
    std::str::from_utf8(bytes).map_err(|e| {
        let line = bytes[..e.valid_up_to()]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1;
        Error::parse(crate::error::Place::line(line), "not text (invalid UTF-8)")
    })
}

/// A polygon input format.
///
/// # Examples
/// ```
/// use inertia::io::PolygonFormat;
/// assert_eq!(PolygonFormat::from_path("site.geojson".as_ref()), Some(PolygonFormat::Geojson));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum PolygonFormat {
    /// `[[x,y],...]`, `{"points": ...}`, `[{"x":..,"y":..},...]` or `{"outer": ..., "holes": [...]}`.
    Json,
    /// `x,y` per line (comma or whitespace), optional header, `#` comments.
    Csv,
    /// GeoJSON (RFC 7946): Polygon, MultiPolygon, Feature, FeatureCollection; each polygon
    /// a part.
    Geojson,
    /// DXF: what model space shows (paper space, invisible entities and frozen or off
    /// layers left out and counted): closed polylines, circles and ellipses, and outlines of
    /// lines, arcs, open polylines and splines joined end to end; bulges, arcs, ellipses and
    /// splines exact (rational splines to 1e-13); INSERTs expanded; curves inside others
    /// are holes.
    Dxf,
}

impl PolygonFormat {
    /// The format a file name implies (`.json`, `.csv`, `.txt`, `.xy`, `.tsv`), if any.
    ///
    /// # Examples
    /// ```
    /// use inertia::io::PolygonFormat;
    /// assert_eq!(PolygonFormat::from_path("a/b.JSON".as_ref()), Some(PolygonFormat::Json));
    /// assert_eq!(PolygonFormat::from_path("profile.xy".as_ref()), Some(PolygonFormat::Csv));
    /// assert_eq!(PolygonFormat::from_path("-".as_ref()), None);
    /// ```
    pub fn from_path(path: &Path) -> Option<Self> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "json" => Some(PolygonFormat::Json),
            "geojson" => Some(PolygonFormat::Geojson),
            "dxf" => Some(PolygonFormat::Dxf),
            "csv" | "txt" | "xy" | "tsv" | "dat" => Some(PolygonFormat::Csv),
            _ => None,
        }
    }

    /// Guesses from the content: DXF starts with `0` / `SECTION`, JSON with `[` or `{`,
    /// anything else is read as CSV.
    ///
    /// # Examples
    /// ```
    /// use inertia::io::PolygonFormat;
    /// assert_eq!(PolygonFormat::sniff(b"  [[0,0],[1,0],[0,1]]"), PolygonFormat::Json);
    /// assert_eq!(PolygonFormat::sniff(b"x,y\n0,0\n"), PolygonFormat::Csv);
    /// assert_eq!(PolygonFormat::sniff(b"  0\r\nSECTION\r\n"), PolygonFormat::Dxf);
    /// ```
    pub fn sniff(bytes: &[u8]) -> Self {
        let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        // DXF: group code 0, then SECTION.
        let mut words = bytes
            .split(|b| b.is_ascii_whitespace())
            .filter(|w| !w.is_empty());
        if words.next() == Some(b"0") && words.next() == Some(b"SECTION") {
            return PolygonFormat::Dxf;
        }
        match bytes.iter().find(|b| !b.is_ascii_whitespace()) {
            Some(b'[') | Some(b'{') => PolygonFormat::Json,
            _ => PolygonFormat::Csv,
        }
    }
}

pub use crate::polygon::rings::PolygonRings;

/// A polygon file parsed but not yet validated, from [`parse_polygons`]: the bytes it was
/// read from are no longer needed (a caller can let a large mapped file go before the
/// checks, which then do not count it in the process's memory).
pub struct ParsedPolygons(pub(crate) Parsed);

pub(crate) enum Parsed {
    Dxf(dxf::Read),
    Geo(geojson::Document),
    One(PolygonRings),
}

impl ParsedPolygons {
    /// The GeoJSON document, when the file is one: its coordinates are numbers still, which
    /// RFC 7946 says are degrees ([`geojson::Coordinates`]).
    ///
    /// # Examples
    /// ```
    /// use inertia::io::{parse_polygons, PolygonFormat, dxf::Options};
    /// let doc = br#"{"type": "Polygon", "coordinates": [[[0,0],[1,0],[0,1],[0,0]]]}"#;
    /// let parsed = parse_polygons(doc, PolygonFormat::Geojson, &Options::default())?;
    /// assert_eq!(parsed.geojson().map(|d| d.parts.len()), Some(1));
    /// # Ok::<(), inertia::Error>(())
    /// ```
    pub fn geojson(&self) -> Option<&geojson::Document> {
        match &self.0 {
            Parsed::Geo(doc) => Some(doc),
            _ => None,
        }
    }
}

/// The first half of [`read_polygons_with`](crate::read::read_polygons_with): parses `bytes` in `format`.
///
/// # Errors
/// The format's parse errors.
///
/// # Examples
/// ```
/// use inertia::io::{parse_polygons, PolygonFormat, dxf::Options};
/// let bytes = b"0 0\n1 0\n0 1\n".to_vec();
/// let parsed = parse_polygons(&bytes, PolygonFormat::Csv, &Options::default())?;
/// drop(bytes);
/// let (parts, _) = inertia::read::validate_polygons(parsed)?;
/// assert_eq!(parts.len(), 1);
/// # Ok::<(), inertia::Error>(())
/// ```
pub fn parse_polygons(
    bytes: &[u8],
    format: PolygonFormat,
    options: &dxf::Options,
) -> Result<ParsedPolygons> {
    if format == PolygonFormat::Dxf {
        return Ok(ParsedPolygons(Parsed::Dxf(dxf::parse_with(
            bytes, options,
        )?)));
    }
    let geo = format == PolygonFormat::Geojson
        || (format == PolygonFormat::Json && geojson::looks_like(bytes));
    if geo {
        return Ok(ParsedPolygons(Parsed::Geo(geojson::parse_document(bytes)?)));
    }
    Ok(ParsedPolygons(Parsed::One(parse_one(bytes, format)?)))
}

/// The rings of a file of one polygon.
pub(crate) fn parse_one(bytes: &[u8], format: PolygonFormat) -> Result<PolygonRings> {
    Ok(match format {
        PolygonFormat::Json => json::parse(bytes)?,
        PolygonFormat::Csv => csv::parse(bytes)?,
        PolygonFormat::Dxf => {
            let mut parts = dxf::parse(bytes)?;
            if parts.len() != 1 {
                return Err(Error::parse(
                    "DXF",
                    format!(
                        "{} profiles where one was expected (read_polygons reads them all)",
                        parts.len()
                    ),
                ));
            }
            parts.remove(0).1
        }
        PolygonFormat::Geojson => {
            let mut parts = geojson::parse(bytes)?;
            if parts.len() != 1 {
                return Err(Error::parse(
                    "GeoJSON",
                    format!(
                        "{} polygons where one was expected (read_polygons reads them all)",
                        parts.len()
                    ),
                ));
            }
            parts.remove(0).rings
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_limit_lets_in_more_triangles_than_corners_can_be_numbered() {
        assert!(within_limit(MAX_TRIANGLES, u64::MAX).is_ok());
        let e = within_limit(MAX_TRIANGLES + 1, u64::MAX).unwrap_err();
        assert!(
            matches!(
                e,
                Error::TooLarge {
                    excess: crate::error::Excess::Triangles { count, max },
                } if count == MAX_TRIANGLES + 1 && max == MAX_TRIANGLES
            ),
            "{e:?}"
        );
        // A smaller limit asked for is the one applied and named.
        let e = within_limit(11, 10).unwrap_err();
        assert!(e.to_string().contains("10"), "{e}");
    }
}
