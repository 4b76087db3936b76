//! One call from a file to its validated parts: [`read_path`].
//!
//! [`read_path`] opens a file once, tells its format (by [`ReadOptions::format`], else its
//! extension, else its content: [`Format::detect`]), reads the length unit the file states
//! (a 3MF `unit`, a DXF `$INSUNITS`, a STEP file's unit with the feature `step`), and
//! returns its named parts, validated (and, for meshes, integrated: [`crate::solid`]),
//! with what it warns of as typed [`Warning`]s. The command line reads every file through
//! it ([`read_bytes`], for the bytes it has opened itself).

use crate::Polygon;
use crate::error::{Error, FormatProblem, Missing, Result};
use crate::io::{Bytes, MeshFormat, PolygonFormat, dxf, threemf};
use crate::solid::{self, Solid};
use crate::units::{LengthUnit, Units};
use std::collections::BTreeMap;
use std::path::Path;

mod polygons;
mod weigh;
pub use polygons::{Named, read_polygon, read_polygons, read_polygons_with, validate_polygons};
use weigh::Weighing;
pub use weigh::{LIGHTEST_SOLID, MAX_RESOLUTION, Matter};

#[cfg(feature = "step")]
pub use crate::total::cad_body;
pub use crate::total::{MeshTotal, PolygonTotal, Total};
pub use crate::warning::{ItemKind, Warning};

/// What a file is read as: polygons (a plane section) or a mesh (a solid).
///
/// # Examples
/// ```
/// use inertia::read::{Format, Kind};
/// assert_eq!(Format::detect("a.dxf".as_ref(), b"", None)?.kind(), Kind::Polygon);
/// # Ok::<(), inertia::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Polygon files: JSON, CSV, GeoJSON, DXF.
    Polygon,
    /// Mesh files: STL, OBJ, PLY, 3MF (and CAD files with the feature `step`).
    Mesh,
}

/// A file format [`read_path`] reads.
///
/// # Examples
/// ```
/// use inertia::io::MeshFormat;
/// use inertia::read::Format;
/// assert_eq!(Format::detect("part.stl".as_ref(), b"", None)?, Format::Mesh(MeshFormat::Stl));
/// # Ok::<(), inertia::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// A polygon format.
    Polygon(PolygonFormat),
    /// A mesh format.
    Mesh(MeshFormat),
    /// A CAD format (STEP, IGES, BREP), read from the path through OpenCASCADE.
    #[cfg(feature = "step")]
    Cad(crate::io::step::CadFormat),
}

/// The name of a CAD or scene format that `path`'s extension says it is, when inertia does
/// not read it as a mesh.
fn foreign_format(path: &Path) -> Option<&'static str> {
    let ext = path.extension()?.to_str()?.to_ascii_lowercase();
    Some(match ext.as_str() {
        "step" | "stp" => "STEP",
        "iges" | "igs" => "IGES",
        "glb" | "gltf" => "glTF",
        "fbx" => "FBX",
        "3ds" => "3DS",
        "blend" => "Blender",
        "dae" => "COLLADA",
        "sat" | "sab" => "ACIS",
        "x_t" | "x_b" => "Parasolid",
        "sldprt" | "sldasm" => "SolidWorks",
        "ipt" | "iam" => "Inventor",
        "f3d" => "Fusion 360",
        "dwg" => "DWG",
        "amf" => "AMF",
        "usd" | "usda" | "usdc" | "usdz" => "USD",
        _ => return None,
    })
}

/// Whether the file is named `.csv`.
fn csv_named(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("csv"))
}

/// Whether content that only fell through to OBJ holds an OBJ face.
fn has_obj_face(bytes: &[u8]) -> bool {
    bytes
        .split(|b| *b == b'\n')
        .any(|l| l.trim_ascii_start().starts_with(b"f "))
}

impl Format {
    /// Polygon or mesh.
    ///
    /// # Examples
    /// ```
    /// use inertia::io::PolygonFormat;
    /// use inertia::read::{Format, Kind};
    /// assert_eq!(Format::Polygon(PolygonFormat::Csv).kind(), Kind::Polygon);
    /// ```
    pub fn kind(self) -> Kind {
        match self {
            Format::Polygon(_) => Kind::Polygon,
            Format::Mesh(_) => Kind::Mesh,
            #[cfg(feature = "step")]
            Format::Cad(_) => Kind::Mesh,
        }
    }

    /// The format of the file at `path` holding `bytes`, read as `kind` (`None`: either):
    /// by the extension, else by the content (a mesh by its PLY, 3MF or STL signature, or
    /// OBJ faces; a DXF or JSON polygon by its first bytes; anything else CSV). Text named
    /// `.txt`, `.dat`, `.xy` or `.tsv` is a polygon's points unless its content is a mesh.
    ///
    /// # Errors
    /// [`Error::Format`] for a polygon file by its extension read as a mesh (and the
    /// reverse), a CAD or scene format inertia does not read, or content read as a mesh
    /// that is no mesh format.
    ///
    /// # Examples
    /// ```
    /// use inertia::io::{MeshFormat, PolygonFormat};
    /// use inertia::read::{Format, Kind};
    /// let f = |p: &str, b: &[u8], k| Format::detect(p.as_ref(), b, k);
    /// assert_eq!(f("-", b"solid x\nendsolid x\n", None)?, Format::Mesh(MeshFormat::Stl));
    /// assert_eq!(f("-", b"0,0\n1,0\n0,1\n", None)?, Format::Polygon(PolygonFormat::Csv));
    /// assert_eq!(f("-", b"v 0 0 0\nf 1 1 1\n", None)?, Format::Mesh(MeshFormat::Obj));
    /// assert!(f("part.json", b"", Some(Kind::Mesh)).is_err());
    /// # Ok::<(), inertia::Error>(())
    /// ```
    pub fn detect(path: &Path, bytes: &[u8], kind: Option<Kind>) -> Result<Format> {
        let problem = |problem| Err(Error::Format { problem });
        #[cfg(feature = "step")]
        if kind != Some(Kind::Polygon)
            && let Some(f) = crate::io::step::CadFormat::from_path(path)
        {
            return Ok(Format::Cad(f));
        }
        let mesh = MeshFormat::from_path(path);
        let polygon = PolygonFormat::from_path(path);
        match kind {
            Some(Kind::Polygon) => {
                if mesh.is_some() {
                    return problem(FormatProblem::MeshByName);
                }
                // An unnamed (or `.txt`, `.dat`) file holding an STL, a PLY or a 3MF.
                if polygon.is_none_or(|p| p == PolygonFormat::Csv)
                    && MeshFormat::sniff(bytes) != MeshFormat::Obj
                {
                    return problem(FormatProblem::MeshByContent);
                }
                Ok(Format::Polygon(
                    polygon.unwrap_or_else(|| PolygonFormat::sniff(bytes)),
                ))
            }
            Some(Kind::Mesh) => {
                if let Some(m) = mesh {
                    return Ok(Format::Mesh(m));
                }
                // (Not .txt or .dat: those are sniffed, and may hold an STL.)
                if polygon.is_some_and(|p| p != PolygonFormat::Csv) || csv_named(path) {
                    return problem(FormatProblem::PolygonByName);
                }
                if let Some(what) = foreign_format(path) {
                    return problem(FormatProblem::Foreign(what));
                }
                let format = MeshFormat::sniff(bytes);
                // Content that only fell through to OBJ and holds no face is not a mesh.
                if format == MeshFormat::Obj && !has_obj_face(bytes) {
                    if PolygonFormat::sniff(bytes) != PolygonFormat::Csv {
                        return problem(FormatProblem::PolygonByContent);
                    }
                    return problem(FormatProblem::NotAMesh);
                }
                Ok(Format::Mesh(format))
            }
            None => {
                if let Some(m) = mesh {
                    return Ok(Format::Mesh(m));
                }
                // (`.txt`, `.dat`, `.xy`, `.tsv` are sniffed: they may hold an STL.)
                if let Some(p) = polygon.filter(|&p| p != PolygonFormat::Csv || csv_named(path)) {
                    return Ok(Format::Polygon(p));
                }
                if let Some(what) = foreign_format(path) {
                    return problem(FormatProblem::Foreign(what));
                }
                Ok(match MeshFormat::sniff(bytes) {
                    MeshFormat::Obj if !has_obj_face(bytes) => {
                        Format::Polygon(polygon.unwrap_or_else(|| PolygonFormat::sniff(bytes)))
                    }
                    m => Format::Mesh(m),
                })
            }
        }
    }
}

/// How [`read_path`] reads a file, and how [`Parts::total`] weighs its parts and in which
/// units: what the command line's flags say.
///
/// # Examples
/// A part in millimetres, in steel: its total in kilograms and metres.
/// ```
/// use inertia::read::{Matter, ReadOptions};
/// use inertia::units::{material, LengthUnit};
/// let options = ReadOptions {
///     units: Some(LengthUnit::Mm),
///     matter: Some(Matter::Material(*material("steel").unwrap())),
///     ..ReadOptions::default()
/// };
/// let total = inertia::read_path("fixtures/mesh/unit_cube_ascii.stl".as_ref(), &options)?.total()?;
/// assert!((total.mass() - 7850e-9).abs() < 1e-18); // 1 mm³ of steel
/// # Ok::<(), inertia::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct ReadOptions {
    /// The input's length unit (`--units`): what the coordinates of a file that states
    /// none are in. A file that states another is refused by [`Parts::total`] unless
    /// [`ReadOptions::units_override`]. With a unit, totals are in metres (or
    /// [`ReadOptions::output_units`]) and kilograms, densities in kg/m³ (kg/m² for a
    /// plate of no thickness).
    pub units: Option<LengthUnit>,
    /// Read the input in [`ReadOptions::units`] even where the file states another.
    pub units_override: bool,
    /// The length unit of the totals (`None`: metres); needs the input's unit.
    pub output_units: Option<LengthUnit>,
    /// The density, mass or material (`None`: density 1).
    pub matter: Option<Matter>,
    /// A polygon's plate thickness, in the input's unit: a density is then per volume.
    pub thickness: Option<f64>,
    /// The method [`Parts::total`] integrates polygons with (meshes: the first of
    /// [`solid::Options::methods`]).
    pub polygon_method: crate::PolygonMethod,
    /// Read the file as polygons or as a mesh (`None`: whichever its format is).
    pub kind: Option<Kind>,
    /// The format (`None`: from the extension, else the content).
    pub format: Option<Format>,
    /// How meshes are validated and integrated.
    pub mesh: solid::Options,
    /// How DXF drawings are read.
    pub dxf: dxf::Options,
    /// What GeoJSON coordinates are: degrees of longitude and latitude as RFC 7946 says
    /// (the default: refused, to be projected first), or lengths in a unit the caller
    /// declares.
    pub geojson: crate::io::geojson::Coordinates,
    /// How CAD files are read (feature `step`).
    #[cfg(feature = "step")]
    pub cad: crate::io::step::Options,
    /// A file (or standard input) larger than this is refused.
    pub max_input_bytes: u64,
}

impl Default for ReadOptions {
    fn default() -> Self {
        ReadOptions {
            units: None,
            units_override: false,
            output_units: None,
            matter: None,
            thickness: None,
            polygon_method: crate::PolygonMethod::Fan,
            kind: None,
            format: None,
            mesh: solid::Options::default(),
            dxf: dxf::Options::default(),
            geojson: crate::io::geojson::Coordinates::default(),
            #[cfg(feature = "step")]
            cad: crate::io::step::Options::default(),
            max_input_bytes: crate::io::DEFAULT_MAX_STREAM_BYTES,
        }
    }
}

/// A validated polygon and its name.
#[derive(Clone, Debug)]
pub struct NamedPolygon {
    /// Its name: a GeoJSON feature's or a DXF outline's, else the file's (see [`Parts`]).
    pub name: String,
    /// The polygon.
    pub polygon: Polygon,
}

/// The shapes of a file.
#[derive(Clone, Debug)]
pub enum Shapes {
    /// A polygon file's polygons.
    Polygons(Vec<NamedPolygon>),
    /// A mesh file's bodies, validated and integrated by [`ReadOptions::mesh`]'s methods.
    Solids(Vec<Solid>),
    /// A CAD file's solids, integrated on their B-rep (feature `step`).
    #[cfg(feature = "step")]
    Cad(Vec<crate::io::step::CadSolid>),
}

impl Shapes {
    /// How many parts.
    ///
    /// # Examples
    /// ```
    /// assert_eq!(inertia::read::Shapes::Polygons(vec![]).len(), 0);
    /// ```
    pub fn len(&self) -> usize {
        match self {
            Shapes::Polygons(p) => p.len(),
            Shapes::Solids(s) => s.len(),
            #[cfg(feature = "step")]
            Shapes::Cad(s) => s.len(),
        }
    }

    /// Whether there is none (never, from [`read_path`]).
    ///
    /// # Examples
    /// ```
    /// assert!(inertia::read::Shapes::Solids(vec![]).is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A file read by [`read_path`]: its parts, its unit, and what it warns of.
///
/// Every part has a name. A file of one unnamed shape (a CSV or JSON polygon, an STL,
/// OBJ or PLY mesh) names it after the file's stem (`part` for `dir/part.stl`), or
/// `polygon` / `mesh` when there is no stem (standard input, `-`); [`Parts::named`] is
/// then `false`.
#[derive(Clone, Debug)]
pub struct Parts {
    /// The format the file was read in.
    pub format: Format,
    /// The length unit the file states (3MF, DXF `$INSUNITS`, STEP), if any.
    pub unit: Option<LengthUnit>,
    /// The parts.
    pub shapes: Shapes,
    /// Warnings about the file as a whole; each [`Solid`] carries its own
    /// ([`Solid::warnings`]).
    pub warnings: Vec<Warning>,
    /// What a DXF drawing held besides its outlines and did not read: annotations by
    /// entity type, entities not shown by reason, `open pieces` left out.
    pub ignored: BTreeMap<String, usize>,
    /// Whether the parts' names come from the file (false: one shape named after it).
    pub named: bool,
    /// What [`Parts::total`] weighs the parts with (the options' units, matter, method).
    weighing: Weighing,
}

impl Parts {
    /// The units of [`Parts::total`]: the input's length unit (the one the file states,
    /// else [`ReadOptions::units`]; the options' with [`ReadOptions::units_override`]) and
    /// [`ReadOptions::output_units`].
    ///
    /// # Errors
    /// [`Error::Options`] when the file states a unit and the options another, not to
    /// override it.
    ///
    /// # Examples
    /// ```
    /// use inertia::read::{read_path, ReadOptions};
    /// use inertia::units::LengthUnit;
    /// let part = read_path("fixtures/mesh/two_parts.3mf".as_ref(), &ReadOptions::default())?;
    /// assert_eq!(part.units()?.input, Some(LengthUnit::Mm)); // the 3MF says millimetres
    /// let inches = ReadOptions { units: Some(LengthUnit::In), ..ReadOptions::default() };
    /// assert!(read_path("fixtures/mesh/two_parts.3mf".as_ref(), &inches)?.units().is_err());
    /// # Ok::<(), inertia::Error>(())
    /// ```
    pub fn units(&self) -> Result<Units> {
        self.weighing.units(self.unit)
    }

    /// Every part taken together, as the command prints a total: each polygon integrated
    /// by [`ReadOptions::polygon_method`], each solid by its first method (a CAD solid on
    /// its B-rep), weighed with [`ReadOptions::matter`] (density 1 without one), in
    /// [`Parts::units`]: with a length unit, in kilograms and metres (or
    /// [`ReadOptions::output_units`]), the numbers `inertia ... --json` prints.
    ///
    /// # Errors
    /// [`Error::Empty`] when there is no part (or no solid was integrated); as
    /// [`Parts::units`] and [`ReadOptions::amount`] (a material without a length unit...).
    ///
    /// # Examples
    /// ```
    /// use inertia::read::{read_path, ReadOptions, Total};
    /// let part = read_path("fixtures/mesh/two_parts.3mf".as_ref(), &ReadOptions::default())?;
    /// let Total::Solids(total) = part.total()? else { panic!("a mesh file") };
    /// // A tetrahedron of volume 10 and a unit cube, in the file's millimetres: in m³.
    /// assert_eq!(total.parts, 2);
    /// assert!((total.properties.volume - 11e-9).abs() < 1e-21);
    /// # Ok::<(), inertia::Error>(())
    /// ```
    pub fn total(&self) -> Result<Total> {
        let units = self.units()?;
        let w = &self.weighing;
        match &self.shapes {
            Shapes::Polygons(p) => {
                let amount = w.amount(2, units.input)?;
                let method = w.polygon_method;
                PolygonTotal::of(p.iter().map(|p| {
                    let properties = method.integrate(&p.polygon).properties;
                    PolygonTotal::part(properties, crate::report::Outline::of(&p.polygon))
                }))
                .map(|t| Total::Polygons(t.weighed(amount, units)))
                .ok_or(Error::Empty {
                    missing: Missing::Points,
                })
            }
            Shapes::Solids(s) => {
                let amount = w.amount(3, units.input)?;
                MeshTotal::of(s.iter().filter_map(|s| {
                    let first = s.integrals.first()?;
                    Some(MeshTotal::part(first.properties, s.body))
                }))
                .map(|t| Total::Solids(t.weighed(amount, units)))
                .ok_or(Error::Empty {
                    missing: Missing::Triangles,
                })
            }
            #[cfg(feature = "step")]
            Shapes::Cad(s) => {
                let amount = w.amount(3, units.input)?;
                MeshTotal::of(s.iter().map(|s| {
                    MeshTotal::part(s.properties, cad_body(s)).with_tolerance(s.tolerance)
                }))
                .map(|t| Total::Solids(t.weighed(amount, units)))
                .ok_or(Error::Empty {
                    missing: Missing::Triangles,
                })
            }
        }
    }
}

/// Reads, validates and (for meshes) integrates every part of the file at `path` (`-`:
/// standard input), with the unit the file states; [`Parts::total`] then gives their mass
/// properties as the options weigh them.
///
/// # Errors
/// [`Error::ReadFile`], naming `path`, when the file cannot be read (or is larger than
/// [`ReadOptions::max_input_bytes`]); options out of range ([`ReadOptions::check`]); then
/// as [`read_bytes`].
///
/// # Examples
/// One call from a file to its mass properties in SI units: an STL in millimetres, in
/// aluminium (a right tetrahedron of legs 5, 4 and 3 mm: 10 mm³, 27 mg):
/// ```
/// use inertia::read::{read_path, Matter, ReadOptions};
/// use inertia::units::{material, LengthUnit};
/// let options = ReadOptions {
///     units: Some(LengthUnit::Mm),
///     matter: Some(Matter::Material(*material("aluminium").unwrap())),
///     ..ReadOptions::default()
/// };
/// let total = read_path("fixtures/mesh/right_tetrahedron.stl".as_ref(), &options)?.total()?;
/// let inertia::read::Total::Solids(t) = total else { panic!("a mesh") };
/// assert!((t.properties.volume - 1e-8).abs() < 1e-22); // m³
/// assert!((t.properties.mass - 2.7e-5).abs() < 1e-19); // kg
/// assert!((t.properties.centroid.x - 1.25e-3).abs() < 1e-18); // m
/// println!("{total}"); // volume, mass, centroid, tensor and principal moments, with units
/// # Ok::<(), inertia::Error>(())
/// ```
///
/// A polygon file (a DXF drawing in millimetres) and a mesh file (a 3MF of two bodies):
/// ```
/// use inertia::read::{read_path, ReadOptions, Shapes};
/// use inertia::units::LengthUnit;
/// let drawing = read_path("fixtures/polygon/a3_sheet.dxf".as_ref(), &ReadOptions::default())?;
/// assert_eq!(drawing.unit, Some(LengthUnit::Mm));
/// let Shapes::Polygons(polygons) = &drawing.shapes else { panic!("a polygon file") };
/// assert_eq!(polygons[0].polygon.mass_properties(1.0)?.area, 100.0);
///
/// let part = read_path("fixtures/mesh/two_parts.3mf".as_ref(), &ReadOptions::default())?;
/// assert_eq!(part.unit, Some(LengthUnit::Mm));
/// let Shapes::Solids(solids) = &part.shapes else { panic!("a mesh file") };
/// assert_eq!((solids[0].name.as_str(), solids[1].name.as_str()), ("tetrahedron", "cube"));
/// assert!((solids[1].integrals[0].properties.volume - 1.0).abs() < 1e-12);
/// # Ok::<(), inertia::Error>(())
/// ```
pub fn read_path(path: &Path, options: &ReadOptions) -> Result<Parts> {
    options.check()?;
    #[cfg(feature = "step")]
    if let Some(Format::Cad(format)) = options.format.or_else(|| {
        Format::detect(path, b"", options.kind)
            .ok()
            .filter(|f| matches!(f, Format::Cad(_)))
    }) {
        return read_cad(path, format, options);
    }
    let bytes =
        Bytes::open_limited(path, options.max_input_bytes).map_err(|error| Error::ReadFile {
            path: path.to_path_buf(),
            error,
        })?;
    read_bytes(path, bytes, options)
}

/// A CAD file's solids, with its unit and warnings.
#[cfg(feature = "step")]
fn read_cad(
    path: &Path,
    format: crate::io::step::CadFormat,
    options: &ReadOptions,
) -> Result<Parts> {
    let cad = crate::io::step::read(path, format, &options.cad)?;
    let mut parts = Parts::of_cad(&cad, format);
    parts.weighing = Weighing::of(options);
    parts
        .warnings
        .extend(options.density_warning(3, parts.unit));
    Ok(parts)
}

#[cfg(feature = "step")]
impl Parts {
    /// The parts of a CAD file already read by [`crate::io::step::read`] in `format`: its
    /// solids (copied: `cad` keeps OpenCASCADE's shapes, to be tessellated), the unit it
    /// states and its warnings, as [`read_path`] returns them.
    ///
    /// # Examples
    /// ```no_run
    /// use inertia::io::step::{self, CadFormat};
    /// let cad = step::read("part.step".as_ref(), CadFormat::Step, &step::Options::default())?;
    /// let parts = inertia::read::Parts::of_cad(&cad, CadFormat::Step);
    /// assert_eq!(parts.shapes.len(), cad.solids.len());
    /// # Ok::<(), inertia::Error>(())
    /// ```
    pub fn of_cad(cad: &crate::io::step::Cad, format: crate::io::step::CadFormat) -> Parts {
        Parts {
            format: Format::Cad(format),
            unit: cad.unit(),
            warnings: cad.warnings.iter().cloned().map(Warning::Cad).collect(),
            shapes: Shapes::Cad(cad.solids.clone()),
            ignored: BTreeMap::new(),
            named: true,
            weighing: Weighing::of(&ReadOptions::default()),
        }
    }
}

/// The name of a file's one unnamed shape: its stem, else `fallback`.
fn stem(path: &Path, fallback: &str) -> String {
    match path.file_stem().and_then(|s| s.to_str()) {
        Some(s) if path.as_os_str() != "-" && !s.is_empty() => s.to_string(),
        _ => fallback.to_string(),
    }
}

/// [`read_path`] on the `bytes` already read from `path` (`path` names the file: its
/// extension tells the format, its stem names a lone shape; a CAD file is read again from
/// `path`). A large file is let go of once parsed, before the polygons are checked.
///
/// # Errors
/// [`Error::Format`] as [`Format::detect`]; [`Error::Empty`] for an empty file; the
/// format's parse errors and the validation errors of
/// [`read_polygons_with`] and [`crate::solid::read_solids`]; a unit the file
/// states that inertia does not know.
///
/// # Examples
/// ```
/// use inertia::read::{read_bytes, ReadOptions, Shapes};
/// let bytes = inertia::io::Bytes::Owned(b"0 0\n2 0\n0 2\n".to_vec());
/// let parts = read_bytes("corner.xy".as_ref(), bytes, &ReadOptions::default())?;
/// let Shapes::Polygons(p) = &parts.shapes else { panic!() };
/// assert_eq!((p[0].name.as_str(), parts.named), ("corner", false));
/// # Ok::<(), inertia::Error>(())
/// ```
pub fn read_bytes(path: &Path, bytes: Bytes, options: &ReadOptions) -> Result<Parts> {
    options.check()?;
    let empty = Err(Error::Empty {
        missing: Missing::Bytes,
    });
    // An empty file is no file of any format (not a JSON syntax error).
    if bytes.is_empty() {
        return empty;
    }
    let format = match options.format {
        Some(f) => f,
        None => Format::detect(path, &bytes, options.kind)?,
    };
    match format {
        Format::Polygon(p) => {
            let unit = match p {
                PolygonFormat::Dxf => dxf::unit(&bytes)?,
                _ => None,
            };
            let parsed = crate::io::parse_polygons(&bytes, p, &options.dxf)?;
            // A large file is mapped: let it go before the checks, which need only the points.
            drop(bytes);
            // GeoJSON's coordinates are degrees unless declared lengths.
            let reading = parsed
                .geojson()
                .map(|doc| polygons::geojson_reading(doc, options.geojson))
                .transpose()?;
            let (polys, left) = validate_polygons(parsed)?;
            let mut warnings: Vec<Warning> = reading.into_iter().collect();
            let mut ignored = left.annotations;
            if let Some(model_entities) = left.paper_instead {
                warnings.push(Warning::PaperSpaceRead { model_entities });
            }
            if let Some(j) = left.joins {
                warnings.push(Warning::Joined(j));
            }
            if left.open.count > 0 {
                ignored.insert("open pieces".into(), left.open.count);
                warnings.push(Warning::OpenPiecesLeftOut(left.open));
            }
            warnings.extend(options.density_warning(2, unit));
            let named = !(polys.len() == 1 && polys[0].0.is_empty());
            let polygons = polys
                .into_iter()
                .map(|(name, polygon)| NamedPolygon {
                    name: if name.is_empty() {
                        stem(path, "polygon")
                    } else {
                        name
                    },
                    polygon,
                })
                .collect();
            Ok(Parts {
                format,
                unit,
                shapes: Shapes::Polygons(polygons),
                warnings,
                ignored,
                named,
                weighing: Weighing::of(options),
            })
        }
        Format::Mesh(m) => {
            if bytes.is_empty() {
                return empty;
            }
            let unit = match m {
                MeshFormat::ThreeMf => Some(threemf::unit(&bytes)?),
                _ => None,
            };
            let mut solids = solid::read_solids(&bytes, m, &options.mesh)?;
            let mut warnings: Vec<Warning> = solids
                .first_mut()
                .map(|s| std::mem::take(&mut s.file_warnings))
                .unwrap_or_default();
            warnings.extend(options.density_warning(3, unit));
            let named = !(solids.len() == 1 && solids[0].name.is_empty());
            for s in &mut solids {
                if s.name.is_empty() {
                    s.name = stem(path, "mesh");
                }
                if s.body.inside_out {
                    s.warnings.insert(0, Warning::InsideOut);
                }
            }
            Ok(Parts {
                format,
                unit,
                shapes: Shapes::Solids(solids),
                warnings,
                ignored: BTreeMap::new(),
                named,
                weighing: Weighing::of(options),
            })
        }
        #[cfg(feature = "step")]
        Format::Cad(c) => {
            drop(bytes);
            read_cad(path, c, options)
        }
    }
}
