//! Input formats: one file per format.
//!
//! Polygons: [`json`] and [`csv`]; meshes: [`stl`] and [`obj`]. Each parser takes the whole
//! input as bytes (a memory-mapped file, see [`Bytes`]) and returns raw geometry; validation
//! happens in [`Polygon::new`](crate::Polygon::new) and [`Mesh::new`](crate::Mesh::new).

pub mod csv;
pub mod dxf;
pub mod geojson;
pub mod guard;
pub mod json;
pub mod obj;
pub mod ply;
mod scan;
pub mod stl;
pub mod threemf;

use crate::error::{Error, Result};
use crate::mesh::{Mesh, RawMesh};
use crate::polygon::Polygon;
use std::ops::Deref;
use std::path::Path;

/// An input's bytes: a memory-mapped file, or bytes read from a stream.
///
/// # Examples
/// ```
/// let b = inertia::io::Bytes::Owned(b"[[0,0],[1,0],[0,1]]".to_vec());
/// assert_eq!(b.len(), 19);
/// ```
pub enum Bytes {
    /// A mapped file (no copy).
    Mapped(memmap2::Mmap),
    /// Bytes in memory (standard input, or an empty file).
    Owned(Vec<u8>),
}

impl Deref for Bytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Bytes::Mapped(m) => m,
            Bytes::Owned(v) => v,
        }
    }
}

impl Drop for Bytes {
    fn drop(&mut self) {
        if let Bytes::Mapped(m) = self {
            guard::unregister(m.as_ptr());
        }
    }
}

/// Files smaller than this are read into memory; larger ones are mapped (and guarded, see
/// [`guard`]).
pub const MAP_THRESHOLD: u64 = 32 << 20;

/// The most [`Bytes::open`] reads from a stream: 4 GiB.
pub const DEFAULT_MAX_STREAM_BYTES: u64 = 4 << 30;

impl Bytes {
    /// Maps the file at `path` (reads it if it cannot be mapped), or reads standard input
    /// when `path` is `-`.
    ///
    /// # Examples
    /// ```
    /// let b = inertia::io::Bytes::open("fixtures/polygon/unit_square.json".as_ref())?;
    /// assert!(b.starts_with(b"[[0,0]"));
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn open(path: &Path) -> std::io::Result<Bytes> {
        Self::open_limited(path, DEFAULT_MAX_STREAM_BYTES)
    }

    /// [`Bytes::open`], reading at most `max` bytes from a stream (standard input, a pipe,
    /// a device): an endless one (`/dev/zero`, `yes |`) is refused at that size instead of
    /// being read until memory runs out. Regular files are mapped whatever their size.
    ///
    /// # Examples
    /// ```
    /// let e = inertia::io::Bytes::open_limited(std::path::Path::new("/dev/zero"), 1000).err().unwrap();
    /// assert_eq!(e.to_string(), "the stream goes on past 1000 bytes (the limit: --max-input-bytes)");
    /// ```
    pub fn open_limited(path: &Path, max: u64) -> std::io::Result<Bytes> {
        use std::io::Read;
        let bounded = |r: &mut dyn Read| -> std::io::Result<Bytes> {
            let mut v = Vec::new();
            r.take(max.saturating_add(1)).read_to_end(&mut v)?;
            if v.len() as u64 > max {
                return Err(std::io::Error::other(format!(
                    "the stream goes on past {max} bytes (the limit: --max-input-bytes)"
                )));
            }
            Ok(Bytes::Owned(v))
        };
        if path.as_os_str() == "-" {
            return bounded(&mut std::io::stdin());
        }
        let file = std::fs::File::open(path)?;
        let meta = file.metadata()?;
        if meta.is_dir() {
            return Err(std::io::Error::other("is a directory"));
        }
        if meta.len() == 0 || !meta.is_file() {
            return bounded(&mut &file);
        }
        if meta.len() < MAP_THRESHOLD {
            // Read outright: a file that shrinks meanwhile gives a short read, not a signal.
            let mut v = Vec::with_capacity(meta.len() as usize);
            (&file).take(MAP_THRESHOLD).read_to_end(&mut v)?;
            return Ok(Bytes::Owned(v));
        }
        // SAFETY: the map is read-only and private to this process. A file truncated by
        // another process while we read it raises SIGBUS on the lost pages: the mapping is
        // registered with `guard`, whose handler (installed by the program) names the file
        // and exits with code 2.
        match unsafe { memmap2::Mmap::map(&file) } {
            Ok(m) => {
                guard::register(m.as_ptr(), m.len(), path);
                Ok(Bytes::Mapped(m))
            }
            Err(_) => {
                let mut v = Vec::new();
                (&file).read_to_end(&mut v)?;
                Ok(Bytes::Owned(v))
            }
        }
    }
}

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
    if total > max_triangles {
        return Err(Error::parse(
            "input",
            format!("holds {total} triangles, more than {max_triangles} (--max-triangles)"),
        ));
    }
    Ok(bodies)
}

/// Parses `bytes` in `format` and validates the mesh.
///
/// # Examples
/// ```
/// use inertia::io::{read_mesh, MeshFormat};
/// let obj = b"v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n";
/// let m = read_mesh(obj, MeshFormat::Obj)?;
/// assert_eq!(m.shell_count(), 1);
/// # Ok::<(), inertia::Error>(())
/// ```
pub fn read_mesh(bytes: &[u8], format: MeshFormat) -> Result<Mesh> {
    // In parallel (inertia::soup) when the mesh is sound; the general path explains defects.
    if format == MeshFormat::Stl
        && let Some(mesh) = stl::mesh(bytes)?
    {
        return Ok(mesh);
    }
    let raw = read_raw_mesh(bytes, format)?;
    if format != MeshFormat::Stl
        && let Some(mesh) = crate::soup::mesh(&crate::soup::IndexedSoup(&raw))
    {
        return Ok(mesh);
    }
    Mesh::new(&raw)
}

/// The input as text, or an error naming the line of the first byte that is not UTF-8.
pub(crate) fn text(bytes: &[u8]) -> Result<&str> {
    std::str::from_utf8(bytes).map_err(|e| {
        let line = bytes[..e.valid_up_to()]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1;
        Error::parse(format!("line {line}"), "not text (invalid UTF-8)")
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
    /// DXF: closed LWPOLYLINE / POLYLINE (bulges tessellated) and CIRCLE; curves inside
    /// others are holes.
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

pub use crate::polygon::PolygonRings;

/// Parses `bytes` in `format` and validates every polygon in it: one for JSON and CSV, one
/// per polygon for GeoJSON (a `.json` file holding GeoJSON is read as GeoJSON) and one per
/// outer profile for DXF. Each comes
/// with a name (empty for a lone polygon); an error names the part it is in.
///
/// # Examples
/// ```
/// use inertia::io::{read_polygons, PolygonFormat};
/// let doc = br#"{"type": "MultiPolygon", "coordinates": [[[[0,0],[1,0],[1,1],[0,0]]], [[[5,0],[6,0],[6,1],[5,0]]]]}"#;
/// let parts = read_polygons(doc, PolygonFormat::Json)?;
/// assert_eq!(parts.len(), 2);
/// assert_eq!(parts[1].0, "polygon 2");
/// # Ok::<(), inertia::Error>(())
/// ```
pub fn read_polygons(bytes: &[u8], format: PolygonFormat) -> Result<Vec<(String, Polygon)>> {
    Ok(read_polygons_with(bytes, format, &dxf::Options::default())?.0)
}

/// A polygon and its name within its file (empty for a file of one polygon).
pub type Named = (String, Polygon);

/// [`read_polygons`] with the options of the DXF reader (the tolerance within which the
/// ends of lines and arcs are joined; whether pieces outside any closed outline are left
/// out), also saying what a drawing held that is not in any polygon (the pieces left out,
/// the annotations ignored); empty for the other formats.
///
/// # Examples
/// ```
/// use inertia::io::{read_polygons_with, PolygonFormat, dxf::Options};
/// let (parts, left) = read_polygons_with(b"0 0\n1 0\n0 1\n", PolygonFormat::Csv, &Options::default())?;
/// assert_eq!((parts.len(), left.pieces.len()), (1, 0));
/// # Ok::<(), inertia::Error>(())
/// ```
pub fn read_polygons_with(
    bytes: &[u8],
    format: PolygonFormat,
    options: &dxf::Options,
) -> Result<(Vec<Named>, dxf::LeftOut)> {
    if format == PolygonFormat::Dxf {
        let read = dxf::parse_with(bytes, options)?;
        let parts = read
            .parts
            .into_iter()
            .map(|(name, rings)| {
                let poly = Polygon::from_rings(rings).map_err(|e| Error::in_part(&name, e))?;
                Ok((name, poly))
            })
            .collect::<Result<Vec<_>>>()?;
        // The outlines of one drawing are parts of one whole: a curve drawn twice, or two
        // outlines crossing, would be summed.
        crate::polygon::check_disjoint(&parts)?;
        let left = dxf::LeftOut {
            pieces: read.ignored,
            annotations: read.annotations,
        };
        return Ok((parts, left));
    }
    let geo = format == PolygonFormat::Geojson
        || (format == PolygonFormat::Json && geojson::looks_like(bytes));
    if !geo {
        return Ok((
            vec![(String::new(), read_polygon(bytes, format)?)],
            Default::default(),
        ));
    }
    let geo = geojson::parse(bytes)?;
    let groups: Vec<usize> = geo.iter().map(|p| p.group).collect();
    let parts = geo
        .into_iter()
        .map(|p| {
            let poly = Polygon::new(p.rings.outer, p.rings.holes).map_err(|e| {
                if p.name.is_empty() {
                    e
                } else {
                    Error::in_part(&p.name, e)
                }
            })?;
            Ok((p.name, poly))
        })
        .collect::<Result<Vec<_>>>()?;
    // The members of one MultiPolygon must not overlap (RFC 7946); separate features may
    // (parcels sharing a boundary, layers of one map) and are summed as given.
    let mut start = 0;
    while start < parts.len() {
        let end = (start..parts.len())
            .find(|&k| groups[k] != groups[start])
            .unwrap_or(parts.len());
        crate::polygon::check_disjoint(&parts[start..end])?;
        start = end;
    }
    Ok((parts, Default::default()))
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
    };
    if rings.outer.is_empty() {
        return Err(Error::Empty("no points in the input".into()));
    }
    Polygon::from_rings(rings)
}
