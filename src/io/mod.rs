//! Input formats: one file per format.
//!
//! Polygons: [`json`] and [`csv`]. Each parser takes the whole input as bytes and returns
//! the rings as `[x, y]` points; validation happens in [`Polygon::new`](crate::Polygon::new).

pub mod csv;
pub mod json;

use crate::error::{Error, Result};
use crate::polygon::Polygon;
use std::path::Path;

/// A polygon input format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum PolygonFormat {
    /// `[[x,y],...]`, `{"points": ...}`, `[{"x":..,"y":..},...]` or `{"outer": ..., "holes": [...]}`.
    Json,
    /// `x,y` per line (comma or whitespace), optional header, `#` comments.
    Csv,
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
            "csv" | "txt" | "xy" | "tsv" | "dat" => Some(PolygonFormat::Csv),
            _ => None,
        }
    }

    /// Guesses from the content: JSON starts with `[` or `{`, anything else is read as CSV.
    ///
    /// # Examples
    /// ```
    /// use inertia::io::PolygonFormat;
    /// assert_eq!(PolygonFormat::sniff(b"  [[0,0],[1,0],[0,1]]"), PolygonFormat::Json);
    /// assert_eq!(PolygonFormat::sniff(b"x,y\n0,0\n"), PolygonFormat::Csv);
    /// ```
    pub fn sniff(bytes: &[u8]) -> Self {
        let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        match bytes.iter().find(|b| !b.is_ascii_whitespace()) {
            Some(b'[') | Some(b'{') => PolygonFormat::Json,
            _ => PolygonFormat::Csv,
        }
    }
}

/// The rings of a polygon as read, before validation.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PolygonRings {
    /// The outer boundary.
    pub outer: Vec<[f64; 2]>,
    /// The holes.
    pub holes: Vec<Vec<[f64; 2]>>,
}

/// Parses `bytes` in `format` and validates the polygon.
///
/// # Examples
/// ```
/// use inertia::io::{read_polygon, PolygonFormat};
/// let p = read_polygon(b"0 0\n2 0\n2 1\n0 1\n", PolygonFormat::Csv)?;
/// assert_eq!(p.vertex_count(), 4);
/// # Ok::<(), inertia::Error>(())
/// ```
pub fn read_polygon(bytes: &[u8], format: PolygonFormat) -> Result<Polygon> {
    let rings = match format {
        PolygonFormat::Json => json::parse(bytes)?,
        PolygonFormat::Csv => csv::parse(bytes)?,
    };
    if rings.outer.is_empty() {
        return Err(Error::Empty("no points in the input".into()));
    }
    Polygon::new(rings.outer, rings.holes)
}
