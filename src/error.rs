//! The one error type of the library.
//!
//! Every message names the place in the input (line, vertex, edge, triangle) and what was
//! expected; the command-line tool prefixes it with the file name.

pub(crate) use crate::text::{clip, clip_to, human_bytes, num};
use std::fmt;

/// Which ring of a polygon an error or a result refers to.
///
/// # Examples
/// ```
/// assert_eq!(inertia::Ring::Hole(2).to_string(), "hole 2");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ring {
    /// The outer boundary.
    Outer,
    /// A hole, numbered from 1 in input order.
    Hole(usize),
}

impl fmt::Display for Ring {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ring::Outer => write!(f, "outer ring"),
            Ring::Hole(k) => write!(f, "hole {k}"),
        }
    }
}

/// Everything that can go wrong between the input bytes and a result.
///
/// Every variant carries the facts as typed fields (places as numbers and points, kinds as
/// enums), so a caller can match on them; the messages (`Display`) word them in one line
/// and never name a command-line flag (the `inertia` binary adds those hints itself).
///
/// # Examples
/// ```
/// let e = inertia::Polygon::new(vec![[0.0, 0.0], [1.0, 1.0]], vec![]).unwrap_err();
/// assert!(matches!(e, inertia::Error::TooFewPoints { .. }));
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The input could not be read.
    #[error("cannot read: {0}")]
    Io(#[from] std::io::Error),

    /// The input is not in the expected format (JSON syntax, a CSV cell, an STL record...).
    /// `place` says where (line 3, column 7; triangle 12; byte 84).
    ///
    /// # Examples
    /// ```
    /// use inertia::error::{Error, Place};
    /// let e = inertia::io::read_raw_mesh(b"v 0 0 0\nv 1 0 x\n", inertia::io::MeshFormat::Obj).unwrap_err();
    /// assert!(matches!(e, Error::Parse { place: Place::Line { line: 2, column: None }, .. }));
    /// ```
    #[error("{place}: {message}")]
    Parse {
        /// Where in the input.
        place: Place,
        /// What was found and what was expected.
        message: String,
    },

    /// The input holds nothing to compute with.
    ///
    /// # Examples
    /// ```
    /// use inertia::error::{Error, Missing};
    /// let e = inertia::io::read_raw_mesh(b"v 0 0 0\n", inertia::io::MeshFormat::Obj).unwrap_err();
    /// assert!(matches!(e, Error::Empty { missing: Missing::ObjFaces }));
    /// ```
    #[error("{missing}")]
    Empty {
        /// What is missing.
        missing: Missing,
    },

    /// A coordinate is NaN or infinite.
    #[error("{ring}, vertex {vertex}: coordinate {value} is not a finite number")]
    NonFiniteCoordinate {
        /// The ring holding the vertex.
        ring: Ring,
        /// The vertex, numbered from 1 in input order.
        vertex: usize,
        /// The offending value.
        value: f64,
    },

    /// A ring has fewer than three distinct consecutive points.
    #[error("{ring} has {count} distinct point(s); a polygon needs at least 3")]
    TooFewPoints {
        /// The ring.
        ring: Ring,
        /// How many distinct points it has.
        count: usize,
    },

    /// A ring encloses no area (all its points on one line).
    #[error("{ring} has zero area (its points are collinear)")]
    ZeroArea {
        /// The ring.
        ring: Ring,
    },

    /// Two edges of the polygon cross or touch (edge k joins vertex k to vertex k+1).
    #[error(
        "{ring_a} edge {edge_a} and {ring_b} edge {edge_b} {kind} at ({}, {}); the polygon must not intersect itself",
        num(*.x), num(*.y)
    )]
    SelfIntersection {
        /// The ring of the first edge.
        ring_a: Ring,
        /// The first edge, numbered from 1 (edge k joins input vertices k and k+1).
        edge_a: usize,
        /// The ring of the second edge.
        ring_b: Ring,
        /// The second edge, numbered from 1.
        edge_b: usize,
        /// How they meet.
        kind: EdgesMeet,
        /// x of a point where they meet.
        x: f64,
        /// y of a point where they meet.
        y: f64,
    },

    /// A hole is not inside the outer ring, or lies inside another hole.
    #[error("hole {hole} {problem}")]
    BadHole {
        /// The hole, numbered from 1.
        hole: usize,
        /// What is wrong with it.
        problem: HoleProblem,
    },

    /// A numeric parameter (density, mass, size) is out of range.
    ///
    /// # Examples
    /// ```
    /// use inertia::error::{Error, Need, Parameter};
    /// let e = inertia::positive(Parameter::Density, -1.0).unwrap_err();
    /// assert!(matches!(e, Error::InvalidParameter { name: Parameter::Density, need: Need::Positive, .. }));
    /// assert_eq!(e.to_string(), "the density must be a positive finite number, got -1");
    /// ```
    #[error("{}", invalid(*.name, *.value, *.need))]
    InvalidParameter {
        /// Which parameter.
        name: Parameter,
        /// The value given.
        value: f64,
        /// What it must be.
        need: Need,
    },

    /// The input is valid but f64 cannot resolve it (coordinates spanning more than about
    /// 15 orders of magnitude, or too large).
    #[error("{what}")]
    Unresolvable {
        /// What f64 could not resolve, with the numbers that show it.
        what: Unresolved,
    },

    /// A mesh is not closed: some edges belong to one triangle only.
    #[error(
        "the mesh is not closed: {boundary_edges} boundary edge{}, e.g. {}–{} of {triangle}{}",
        plural(*.boundary_edges),
        point(&.edge[0]),
        point(&.edge[1]),
        gap_note(*.nearest_gap)
    )]
    OpenMesh {
        /// How many edges belong to one triangle only.
        boundary_edges: usize,
        /// The first such edge, by its end points.
        edge: [[f64; 3]; 2],
        /// The triangle holding it, as the input numbers it.
        triangle: InputTriangle,
        /// When the surface looks open only by noise (its nearest unmatched corners are
        /// close beside its edges): their distance, which a weld tolerance would bridge.
        nearest_gap: Option<f64>,
    },

    /// Every triangle is degenerate (repeats a vertex, or has zero area): the mesh encloses
    /// nothing.
    #[error(
        "all {triangles} triangle{} are degenerate (they repeat a vertex or have zero area): the mesh encloses nothing",
        plural(*.triangles)
    )]
    AllDegenerate {
        /// Triangles in the input.
        triangles: usize,
    },

    /// A closed surface of the mesh can be neither a body nor a cavity.
    #[error("shell {shell} (from {first}) {problem}")]
    BadShell {
        /// The shell, numbered from 1.
        shell: usize,
        /// Its first triangle, as the input numbers it.
        first: InputTriangle,
        /// What is wrong with it.
        problem: ShellProblem,
    },

    /// The shells of a mesh intersect: its cavities enclose more than its bodies.
    #[error(
        "the shells intersect: cavities enclose more volume than the bodies ({})",
        num(*.total_volume)
    )]
    ShellsIntersect {
        /// The signed volume of all shells together (negative).
        total_volume: f64,
    },

    /// Triangles cross or coincide: two bodies overlap, or a surface passes through itself.
    ///
    /// # Examples
    /// ```
    /// use inertia::error::{Error, OverlapKind};
    /// use inertia::shape::Shape3d;
    /// use inertia::solid::{read_solids, Options};
    /// // Two unit cubes, the second moved by half: they cross.
    /// let a = Shape3d::Box { size: [1.0; 3] }.tessellate(0);
    /// let mut b = a.clone();
    /// b.vertices.iter_mut().for_each(|v| v[0] += 0.5);
    /// let mut both = a.clone();
    /// let n = a.vertices.len() as u32;
    /// both.vertices.extend(&b.vertices);
    /// both.triangles.extend(b.triangles.iter().map(|t| t.map(|i| i + n)));
    /// let obj = inertia::io::obj::write(&both);
    /// let e = read_solids(obj.as_bytes(), inertia::io::MeshFormat::Obj, &Options::default()).unwrap_err();
    /// let Error::Overlapping { at, sum_allowed: true } = &e else { panic!("{e}") };
    /// assert!(matches!(at.kind, OverlapKind::Cross(_) | OverlapKind::Coincide(_)));
    /// assert!(!e.to_string().contains("--"));
    /// ```
    #[error(
        "{at}: two bodies overlap or a surface passes through itself; union them first{}",
        if *.sum_allowed { ", or add them as they are" } else { "" }
    )]
    Overlapping {
        /// The two triangles and how they meet.
        at: OverlapAt,
        /// Whether summing the bodies as they are (`OverlapPolicy::Sum`) is offered.
        sum_allowed: bool,
    },

    /// The bodies could not be united (`OverlapPolicy::Union`).
    #[error("cannot unite the bodies: {problem}")]
    Union {
        /// Why.
        problem: UnionProblem,
    },

    /// The repairs that make the mesh a closed solid that does not cross itself (corners
    /// split into edges, crossings taken for contact) could change its volume by more
    /// than the repair tolerance allows.
    #[error(
        "{repair} could change the volume by up to {} ({} of it), more than the repair tolerance {} allows",
        num(*.bound), num(*.relative), num(*.tolerance)
    )]
    RepairTooLarge {
        /// What was repaired, and where.
        repair: Repair,
        /// At most this much volume the repairs can change (in the mesh's units).
        bound: f64,
        /// `bound` over the volume.
        relative: f64,
        /// The tolerance it exceeds (relative to the volume).
        tolerance: f64,
    },

    /// A closed mesh whose integrals are not those of a body: it intersects itself.
    #[error(
        "the mesh intersects itself: its moments of inertia are not physical (volume {}, principal moments {}, {}, {})",
        num(*.volume), num(.moments[0]), num(.moments[1]), num(.moments[2])
    )]
    Unphysical {
        /// The volume it integrates to.
        volume: f64,
        /// Its principal moments, ascending.
        moments: [f64; 3],
    },

    /// An open surface was asked for a solid's mass properties.
    #[error("an open surface encloses no volume: integrate it as a thin shell")]
    NotSolid,

    /// Two triangles use an edge in the same direction: the surface is not consistently
    /// wound (or more than two triangles meet at the edge).
    #[error(
        "inconsistent winding: {first} and {second} use edge {}–{} in the same direction",
        point(&.edge[0]),
        point(&.edge[1])
    )]
    InconsistentWinding {
        /// One triangle, as the input numbers it.
        first: InputTriangle,
        /// The other.
        second: InputTriangle,
        /// The edge, by its end points.
        edge: [[f64; 3]; 2],
    },

    /// Work, memory or input beyond a stated limit (a voxel grid of 10¹⁰ columns, more
    /// triangles than the caller allows); the message gives the estimate.
    ///
    /// # Examples
    /// ```
    /// use inertia::error::{Error, Excess};
    /// let stl = inertia::io::stl::write_binary(&inertia::shape::Shape3d::Box { size: [1.0; 3] }.tessellate(0));
    /// let e = inertia::io::read_raw_meshes_limited(&stl, inertia::io::MeshFormat::Stl, 4).unwrap_err();
    /// assert!(matches!(e, Error::TooLarge { excess: Excess::Triangles { count: 12, max: 4 } }));
    /// ```
    #[error("{excess}")]
    TooLarge {
        /// What is too large, by how much.
        excess: Excess,
    },

    /// One part of a file (a 3MF build item, a GeoJSON feature, a DXF outline) is wrong;
    /// `error` says how. Its message holds `error`'s, so it is not also given as the
    /// error's `source()` (a chain printed with `{:#}` would say the reason twice).
    ///
    /// # Examples
    /// ```
    /// use inertia::io::PolygonFormat;
    /// use inertia::read::read_polygons;
    /// let geo = br#"{"type": "FeatureCollection", "features": [
    ///   {"type": "Feature", "properties": {"name": "plot 6"},
    ///    "geometry": {"type": "Polygon", "coordinates": [[[5, 0], [6, 0], [6, 1], [5, 0]]]}},
    ///   {"type": "Feature", "properties": {"name": "plot 7"},
    ///    "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [1, 1], [0, 1], [1, 0], [0, 0]]]}}]}"#;
    /// let e = read_polygons(geo, PolygonFormat::Geojson).unwrap_err();
    /// let inertia::Error::InPart { part, error } = &e else { panic!("{e}") };
    /// assert_eq!(part, "plot 7");
    /// assert!(matches!(**error, inertia::Error::SelfIntersection { .. }));
    /// // The message says the reason once; no source repeats it.
    /// assert_eq!(e.to_string().matches("must not intersect itself").count(), 1);
    /// assert!(std::error::Error::source(&e).is_none());
    /// ```
    #[error("{part}: {error}")]
    InPart {
        /// The part's name within its file.
        part: String,
        /// What is wrong with it.
        error: Box<Error>,
    },

    /// Parts of one input overlap (members of a MultiPolygon, outlines of a drawing), so
    /// their sum would count the common area twice.
    #[error(
        "{first} and {second} {how}: parts of one file must not overlap (their common area would count twice)"
    )]
    Overlap {
        /// The first part's name.
        first: String,
        /// The second part's name.
        second: String,
        /// How they meet.
        how: PartsMeet,
    },

    /// GeoJSON coordinates taken for what RFC 7946 says they are, longitude and latitude
    /// in degrees, since no unit was declared for them: a plane figure's area and moments
    /// need them projected to lengths first.
    #[error("{}", geojson_degrees(crs, beyond, utm))]
    GeojsonDegrees {
        /// The coordinate reference system the file's `crs` members name.
        crs: crate::crs::Crs,
        /// A position beyond longitude ±180° or latitude ±90°, if one is: then the
        /// coordinates are lengths in a unit the file does not state.
        beyond: Option<[f64; 2]>,
        /// The EPSG code of the UTM zone about the middle of the coordinates (northern
        /// 326zz, southern 327zz), to suggest as a projection; `None` beyond degrees or
        /// latitude ±84°.
        utm: Option<u32>,
    },

    /// GeoJSON coordinates declared lengths in a file whose `crs` names a geographic
    /// system (longitude and latitude in degrees).
    #[error(
        "its crs names {crs}, a geographic system (longitude and latitude in degrees), but its coordinates were declared lengths"
    )]
    GeojsonGeographic {
        /// The name the file gives the system.
        crs: String,
    },

    /// GeoJSON coordinates in Web Mercator ([`crate::crs::Crs::WebMercator`]): metres, but
    /// its areas are [`crate::crs::web_mercator_area_factor`] times too large at each
    /// latitude, so an answer in them would be wrong by that much.
    #[error("{}", web_mercator(crs, latitude, area_factor, utm))]
    GeojsonWebMercator {
        /// The name the file gives the system.
        crs: String,
        /// The latitudes of the polygons' southern and northern edges, in degrees (the
        /// inverse projection of their least and greatest northing).
        latitude: [f64; 2],
        /// How many times too large areas are over those latitudes, least and most.
        area_factor: [f64; 2],
        /// The EPSG code of the UTM zone about their middle, to suggest as a projection.
        utm: Option<u32>,
    },

    /// A CAD file (STEP, IGES, BREP) that OpenCASCADE could not read, or whose shapes are
    /// not valid solids; `message` names the entity where the file says which.
    #[error("{message}")]
    Cad {
        /// What kind of failure.
        failure: CadFailure,
        /// What OpenCASCADE or the checks found, in one line.
        message: String,
    },

    /// Two solids of one CAD file share a volume (OpenCASCADE's boolean common), so their
    /// sum would count it twice.
    #[error(
        "{first} and {second} share a volume of {} (OpenCASCADE's boolean common): solids of one file must not overlap (their common volume would count twice)",
        num(*.volume)
    )]
    SolidsOverlap {
        /// The first solid's name.
        first: String,
        /// The second solid's name.
        second: String,
        /// Their common volume, in the file's unit cubed.
        volume: f64,
    },

    /// A spline (a DXF `SPLINE`) that is not a valid curve.
    #[error("{entity}: {problem}")]
    Spline {
        /// The entity, as the drawing names it ("SPLINE 5B").
        entity: String,
        /// What is wrong with it.
        problem: SplineProblem,
    },

    /// A result that f64 cannot hold: a field of a report that is NaN or infinite, or a
    /// measure, mass or greatest moment that underflows to 0.
    ///
    /// # Examples
    /// ```
    /// use inertia::error::{Error, NumberProblem};
    /// let e = Error::NotRepresentable { field: "volume".into(), problem: NumberProblem::Underflow };
    /// assert!(e.to_string().starts_with("the volume underflows f64"));
    /// ```
    #[error("{}", not_representable(.field, *.problem))]
    NotRepresentable {
        /// The field, as the JSON report names it (`principal.moments[0]`).
        field: String,
        /// What is wrong with its value.
        problem: NumberProblem,
    },

    /// A reference point (the point moments are taken about) with the wrong number of
    /// coordinates: 2 for a polygon, 3 for a mesh.
    #[error("the reference point needs {needed} coordinates here, got {got}")]
    PointDimension {
        /// Coordinates needed.
        needed: usize,
        /// Coordinates given.
        got: usize,
    },

    /// A piece of a drawing (a line, an arc, an open polyline) with an end that meets no
    /// other piece: it is not part of a closed outline.
    #[error(
        "{piece}: {}–{} is not part of a closed outline: its end at {} meets no other piece{}",
        point2(.from),
        point2(.to),
        point2(.end),
        match .nearest {
            Some(d) => format!(" (the nearest other end is {} away)", num(*d)),
            None => String::new(),
        }
    )]
    OpenPiece {
        /// The piece, as the drawing names it ("LINE 1F").
        piece: String,
        /// Its first point.
        from: [f64; 2],
        /// Its last point.
        to: [f64; 2],
        /// The end that meets nothing.
        end: [f64; 2],
        /// The distance to the nearest end of another piece, if there is one.
        nearest: Option<f64>,
        /// Whether that gap is small beside the piece (noise that a join tolerance of 1.5
        /// times it would bridge).
        joinable: bool,
    },

    /// Three or more ends of a drawing's pieces at one point: which two to join is not
    /// known. Each piece is named once (both ends of a piece shorter than the join
    /// tolerance are at the point).
    ///
    /// # Examples
    /// ```
    /// let e = inertia::Error::Branch {
    ///     at: [0.0, 0.0],
    ///     ends: 8,
    ///     pieces: 4,
    ///     names: vec!["LINE 1".into(), "LINE 2".into(), "LINE 3".into(), "LINE 4".into()],
    /// };
    /// assert_eq!(
    ///     e.to_string(),
    ///     "8 ends of 4 pieces meet at (0, 0) (LINE 1, LINE 2, LINE 3, LINE 4): an outline cannot branch"
    /// );
    /// ```
    #[error(
        "{}{pieces} pieces meet at {} ({}{}): an outline cannot branch",
        if .ends != .pieces { format!("{ends} ends of ") } else { String::new() },
        point2(.at),
        .names.join(", "),
        if .names.len() < *.pieces { format!(", … and {} more", .pieces - .names.len()) } else { String::new() }
    )]
    Branch {
        /// The point.
        at: [f64; 2],
        /// How many ends are there.
        ends: usize,
        /// How many pieces those ends belong to.
        pieces: usize,
        /// The pieces, as the drawing names them (the first few, in the drawing's order).
        names: Vec<String>,
    },

    /// An open piece of a drawing, to be left out ([`crate::io::dxf::OpenPolicy::Leave`]),
    /// whose end misses another end by little (within [`crate::io::dxf::NEAR_MISS`] = 100
    /// times the join tolerance): part of an outline drawn with a gap, which leaving it out
    /// would cut.
    #[error(
        "{piece}: its end at {} misses an end of {} by {}, within 100 times the join tolerance {}: it looks like part of an outline, which leaving out open pieces would drop",
        point2(.end),
        .other.as_deref().unwrap_or("itself"),
        num(*.gap),
        num(*.tolerance)
    )]
    NearMiss {
        /// The piece, as the drawing names it.
        piece: String,
        /// Its end that misses.
        end: [f64; 2],
        /// The piece it misses (`None`: itself).
        other: Option<String>,
        /// By how much.
        gap: f64,
        /// The join tolerance used.
        tolerance: f64,
    },

    /// A file mapped into memory changed (was truncated or rewritten by another program)
    /// while it was being read. Reading its lost pages raises `SIGBUS`; a program that
    /// installs a `SIGBUS` handler can print this error's message, which
    /// the library prepares when it maps the file.
    #[error(
        "{}: the file changed while being read (it was truncated or rewritten by another program)",
        clip(&.path.display().to_string())
    )]
    FileChanged {
        /// The file.
        path: std::path::PathBuf,
    },

    /// The file's format is not one inertia reads as asked (a polygon file read as a mesh,
    /// a CAD or scene format, content that is no mesh).
    ///
    /// # Examples
    /// ```
    /// use inertia::error::{Error, FormatProblem};
    /// let e = inertia::read::Format::detect("a.gltf".as_ref(), b"", None).unwrap_err();
    /// assert!(matches!(e, Error::Format { problem: FormatProblem::Foreign("glTF") }));
    /// ```
    #[error("{problem}")]
    Format {
        /// What is wrong.
        problem: FormatProblem,
    },

    /// The file at `path` could not be read ([`crate::read_path`]).
    ///
    /// # Examples
    /// ```
    /// let e = inertia::read_path("no/such.stl".as_ref(), &Default::default()).unwrap_err();
    /// assert!(e.to_string().starts_with("no/such.stl: cannot read: "));
    /// ```
    #[error("{}: cannot read: {error}", path.display())]
    ReadFile {
        /// The file.
        path: std::path::PathBuf,
        /// Why (its message is part of this one's, so it is no `source`).
        error: std::io::Error,
    },

    /// Options that do not go together, or that need what the input does not give
    /// ([`crate::ReadOptions::check`], [`crate::ReadOptions::amount`]).
    ///
    /// # Examples
    /// ```
    /// use inertia::error::{Error, OptionsProblem};
    /// use inertia::read::{Matter, ReadOptions};
    /// let steel = inertia::units::material("steel").copied().unwrap();
    /// let o = ReadOptions { matter: Some(Matter::Material(steel)), ..ReadOptions::default() };
    /// let e = o.amount(3, None).unwrap_err();
    /// assert!(matches!(e, Error::Options { problem: OptionsProblem::MaterialWithoutUnit }));
    /// ```
    #[error("{problem}")]
    Options {
        /// What is wrong.
        problem: OptionsProblem,
    },
}

/// Why options were refused ([`Error::Options`]).
///
/// # Examples
/// ```
/// use inertia::error::OptionsProblem;
/// assert_eq!(
///     OptionsProblem::MaterialWithoutThickness.to_string(),
///     "a material's density is per volume: a plate needs its thickness"
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum OptionsProblem {
    /// An output length unit without the input's.
    OutputUnitWithoutUnit,
    /// A material (its density in kg/m³) without the input's length unit.
    MaterialWithoutUnit,
    /// A material (a density per volume) for a plate of no thickness.
    MaterialWithoutThickness,
    /// A density in a unit of its own without the input's length unit.
    DensityUnitWithoutUnit {
        /// The number given.
        value: f64,
        /// Its unit.
        unit: &'static str,
    },
    /// A density per volume for a plate of no thickness.
    DensityPerVolumeWithoutThickness {
        /// The number given.
        value: f64,
        /// Its unit.
        unit: &'static str,
    },
    /// A density per area for a solid, or for a plate given a thickness.
    DensityPerArea {
        /// The number given.
        value: f64,
        /// Its unit.
        unit: &'static str,
    },
    /// A thin shell (a method of its own) asked with other methods.
    ShellWithMethods,
    /// The file states one length unit and the options another, not to override it.
    UnitsDisagree {
        /// The unit the file states.
        stated: crate::units::LengthUnit,
        /// The unit the options give.
        given: crate::units::LengthUnit,
    },
}

impl fmt::Display for OptionsProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            OptionsProblem::OutputUnitWithoutUnit => {
                f.write_str("an output length unit needs the input's length unit")
            }
            OptionsProblem::MaterialWithoutUnit => {
                f.write_str("a material's density is in kg/m³: the input's length unit is needed")
            }
            OptionsProblem::MaterialWithoutThickness => {
                f.write_str("a material's density is per volume: a plate needs its thickness")
            }
            OptionsProblem::DensityUnitWithoutUnit { value, unit } => write!(
                f,
                "the density {} {unit} needs the input's length unit",
                num(value)
            ),
            OptionsProblem::DensityPerVolumeWithoutThickness { value, unit } => write!(
                f,
                "the density {} {unit} is per volume: a plate needs its thickness",
                num(value)
            ),
            OptionsProblem::DensityPerArea { value, unit } => write!(
                f,
                "the density {} {unit} is per area: a solid (or a plate given a thickness) needs a density per volume",
                num(value)
            ),
            OptionsProblem::ShellWithMethods => {
                f.write_str("a thin shell is integrated by a method of its own, with no other")
            }
            OptionsProblem::UnitsDisagree { stated, given } => write!(
                f,
                "the file states its unit as {}, the options {}",
                stated.symbol(),
                given.symbol()
            ),
        }
    }
}

/// Why a file's format is refused ([`Error::Format`]).
///
/// # Examples
/// ```
/// use inertia::error::FormatProblem;
/// assert_eq!(FormatProblem::MeshByName.to_string(), "a triangle mesh by its name, not a polygon file");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FormatProblem {
    /// A polygon file by its extension (`.json`, `.geojson`, `.dxf`, `.csv`), read as a mesh.
    PolygonByName,
    /// A mesh file by its extension (`.stl`, `.obj`, `.ply`, `.3mf`), read as polygons.
    MeshByName,
    /// A polygon file by its content (JSON, GeoJSON or DXF), read as a mesh.
    PolygonByContent,
    /// A mesh file by its content (STL, PLY or 3MF), read as polygons.
    MeshByContent,
    /// A CAD or scene format inertia does not read as a mesh (by its extension), named.
    Foreign(&'static str),
    /// Content that is no mesh format inertia reads.
    NotAMesh,
}

impl fmt::Display for FormatProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FormatProblem::PolygonByName => write!(f, "a polygon file by its name, not a mesh"),
            FormatProblem::MeshByName => {
                write!(f, "a triangle mesh by its name, not a polygon file")
            }
            FormatProblem::PolygonByContent => {
                write!(f, "a polygon file by its content, not a mesh")
            }
            FormatProblem::MeshByContent => {
                write!(f, "a triangle mesh by its content, not a polygon file")
            }
            FormatProblem::Foreign(what) => write!(
                f,
                "{what} is not a mesh format inertia reads: export the part as STL, OBJ, PLY or 3MF"
            ),
            FormatProblem::NotAMesh => write!(
                f,
                "not a mesh file inertia reads (binary or ASCII STL, OBJ, PLY, 3MF)"
            ),
        }
    }
}

/// What went wrong with a CAD file ([`Error::Cad`]).
///
/// # Examples
/// ```
/// assert_eq!(inertia::error::CadFailure::Open.to_string(), "open");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum CadFailure {
    /// The file could not be read or parsed (missing, malformed, truncated).
    Unreadable,
    /// The file holds no solid.
    Empty,
    /// A solid fails OpenCASCADE's shape check (`BRepCheck_Analyzer`).
    Invalid,
    /// An open shell, or a face outside any solid: a surface, not a volume.
    Open,
    /// A solid of zero or negative volume.
    InsideOut,
    /// OpenCASCADE raised an exception or an algorithm did not finish.
    Failed,
}

impl fmt::Display for CadFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CadFailure::Unreadable => "unreadable",
            CadFailure::Empty => "empty",
            CadFailure::Invalid => "invalid",
            CadFailure::Open => "open",
            CadFailure::InsideOut => "inside-out",
            CadFailure::Failed => "failed",
        })
    }
}

/// Where in the input a parse error is ([`Error::Parse`]).
///
/// # Examples
/// ```
/// use inertia::error::Place;
/// assert_eq!(Place::Line { line: 3, column: Some(7) }.to_string(), "line 3, column 7");
/// assert_eq!(Place::Byte(84).to_string(), "byte 84");
/// assert_eq!(Place::from("PLY header").to_string(), "PLY header");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Place {
    /// A line of a text file, from 1, and the column when known.
    Line {
        /// The line.
        line: usize,
        /// The column, from 1.
        column: Option<usize>,
    },
    /// A byte of the file, from 0 (its offset).
    Byte(u64),
    /// A triangle (a binary STL's record), from 1.
    Triangle(u64),
    /// A vertex, from 1.
    Vertex(u64),
    /// A face, from 1.
    Face(u64),
    /// A place the format names otherwise (the "PLY header", a 3MF object, a DXF entity,
    /// a report's part).
    Named(String),
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Place::Line { line, column: None } => write!(f, "line {line}"),
            Place::Line {
                line,
                column: Some(c),
            } => write!(f, "line {line}, column {c}"),
            Place::Byte(b) => write!(f, "byte {b}"),
            Place::Triangle(t) => write!(f, "triangle {t}"),
            Place::Vertex(v) => write!(f, "vertex {v}"),
            Place::Face(k) => write!(f, "face {k}"),
            Place::Named(n) => f.write_str(n),
        }
    }
}

impl Place {
    /// Line `line` (from 1), no column.
    pub fn line(line: usize) -> Place {
        Place::Line { line, column: None }
    }
}

impl From<&str> for Place {
    fn from(name: &str) -> Place {
        Place::Named(name.to_string())
    }
}

impl From<String> for Place {
    fn from(name: String) -> Place {
        Place::Named(name)
    }
}

impl From<&String> for Place {
    fn from(name: &String) -> Place {
        Place::Named(name.clone())
    }
}

/// What is wrong with a spline ([`Error::Spline`]; re-exported as `curve::spline::SplineProblem`).
///
/// # Examples
/// ```
/// use inertia::error::SplineProblem;
/// let p = SplineProblem::KnotCount { knots: 2, points: 3, degree: 2 };
/// assert_eq!(p.to_string(), "2 knots where 3 control points of degree 2 need 6");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum SplineProblem {
    /// A degree outside 1..=`max`.
    #[error("degree {degree} is not between 1 and {max}")]
    Degree {
        /// The degree given.
        degree: usize,
        /// The highest degree read.
        max: usize,
    },
    /// Fewer control points than the degree needs.
    #[error("{points} control points are too few for degree {degree}")]
    TooFewPoints {
        /// Control points given.
        points: usize,
        /// The degree.
        degree: usize,
    },
    /// Not as many knots as points plus degree plus one.
    #[error("{knots} knots where {points} control points of degree {degree} need {}", points + degree + 1)]
    KnotCount {
        /// Knots given.
        knots: usize,
        /// Control points given.
        points: usize,
        /// The degree.
        degree: usize,
    },
    /// Knots that are not finite or decrease somewhere.
    #[error("its knots are not finite and non-decreasing")]
    Knots,
    /// Knots that leave no parameter range.
    #[error("its knots leave no parameter range")]
    NoRange,
    /// Not one weight per control point.
    #[error("{weights} weights for {points} control points")]
    WeightCount {
        /// Weights given.
        weights: usize,
        /// Control points given.
        points: usize,
    },
    /// A weight that is not a positive finite number.
    #[error("a weight is not a positive finite number")]
    Weight,
    /// A control point that is not finite.
    #[error("a control point is not finite")]
    Point,
    /// A knot vector that cuts the curve into this many pieces.
    #[error("its knot vector is discontinuous: it is {0} pieces")]
    Pieces(usize),
    /// More chord points than allowed to stay within the tolerance.
    #[error("needs more than {max} points to stay within {tolerance} of its chords")]
    TooManyPoints {
        /// The limit.
        max: usize,
        /// The tolerance.
        tolerance: f64,
    },
}

/// What is wrong with a number of a result ([`Error::NotRepresentable`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NumberProblem {
    /// It is NaN or infinite.
    NotFinite,
    /// It rounds to 0 where it cannot be 0 (a volume, an area, a mass, the greatest
    /// principal moment).
    Underflow,
}

/// The message of [`Error::NotRepresentable`].
fn not_representable(field: &str, problem: NumberProblem) -> String {
    match problem {
        NumberProblem::Underflow => format!(
            "the {field} underflows f64 (it rounds to 0): the sizes or the density are too small"
        ),
        NumberProblem::NotFinite => format!(
            "{field} is not a finite number in f64 (NaN or infinite): the coordinates, sizes, density or directions are too large or too small"
        ),
    }
}

/// A triangle as the input numbers it.
///
/// # Examples
/// ```
/// use inertia::error::InputTriangle;
/// assert_eq!(InputTriangle { number: 5, line: Some(12) }.to_string(), "triangle 5 (line 12)");
/// assert_eq!(InputTriangle { number: 5, line: None }.to_string(), "triangle 5");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InputTriangle {
    /// Its number, from 1 in input order.
    pub number: usize,
    /// The line of the text file that holds it (OBJ), when known.
    pub line: Option<usize>,
}

impl fmt::Display for InputTriangle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "triangle {}", self.number)?;
        if let Some(l) = self.line {
            write!(f, " (line {l})")?;
        }
        Ok(())
    }
}

/// How two edges of a polygon meet ([`Error::SelfIntersection`]).
///
/// # Examples
/// ```
/// assert_eq!(inertia::error::EdgesMeet::Touch.to_string(), "touch");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum EdgesMeet {
    /// They cross at a point inside both.
    Cross,
    /// An end of one lies on the other.
    Touch,
    /// They run along each other (collinear, sharing a stretch).
    Overlap,
}

impl EdgesMeet {
    /// The kind a sweep's contact names in words ("cross", "touch", "overlap").
    pub(crate) fn from_word(word: &str) -> EdgesMeet {
        match word {
            "cross" => EdgesMeet::Cross,
            "touch" => EdgesMeet::Touch,
            _ => EdgesMeet::Overlap,
        }
    }
}

impl fmt::Display for EdgesMeet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EdgesMeet::Cross => "cross",
            EdgesMeet::Touch => "touch",
            EdgesMeet::Overlap => "overlap",
        })
    }
}

/// How two parts of one file meet ([`Error::Overlap`]).
///
/// # Examples
/// ```
/// use inertia::error::{EdgesMeet, PartsMeet};
/// let how = PartsMeet::Edges { kind: EdgesMeet::Cross, at: [1.0, 2.0] };
/// assert_eq!(how.to_string(), "cross at (1, 2)");
/// assert_eq!(PartsMeet::Inside.to_string(), "lie one inside the other");
/// let shared = PartsMeet::SharedArea { at: [1.0, 0.0] };
/// assert_eq!(shared.to_string(), "share an area next to (1, 0)");
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum PartsMeet {
    /// An edge of one meets an edge of the other, at this point.
    Edges {
        /// How the edges meet.
        kind: EdgesMeet,
        /// A point where they meet.
        at: [f64; 2],
    },
    /// One lies inside the other (no edges meet).
    Inside,
    /// Their boundaries meet at this vertex and their interiors overlap beside it (two
    /// outlines on the same side of a common edge, or one inside the other touching it).
    SharedArea {
        /// The vertex.
        at: [f64; 2],
    },
}

impl fmt::Display for PartsMeet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PartsMeet::Edges { kind, at } => write!(f, "{kind} at {}", point2(at)),
            PartsMeet::Inside => write!(f, "lie one inside the other"),
            PartsMeet::SharedArea { at } => write!(f, "share an area next to {}", point2(at)),
        }
    }
}

/// What is wrong with a hole ([`Error::BadHole`]).
///
/// # Examples
/// ```
/// use inertia::error::HoleProblem;
/// assert_eq!(HoleProblem::InsideHole(2).to_string(), "lies inside hole 2; holes must not nest");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum HoleProblem {
    /// It is not inside the outer ring.
    OutsideOuter,
    /// It lies inside this other hole (numbered from 1).
    InsideHole(usize),
}

impl fmt::Display for HoleProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HoleProblem::OutsideOuter => write!(f, "is not inside the outer ring"),
            HoleProblem::InsideHole(j) => write!(f, "lies inside hole {j}; holes must not nest"),
        }
    }
}

/// A numeric parameter of the library ([`Error::InvalidParameter`]).
///
/// # Examples
/// ```
/// assert_eq!(inertia::error::Parameter::WeldTolerance.to_string(), "weld tolerance");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Parameter {
    /// A density.
    Density,
    /// A total mass.
    Mass,
    /// A plate's thickness (a polygon's mass per area).
    Thickness,
    /// A thin shell's wall thickness.
    ShellThickness,
    /// The distance within which a mesh's corners are welded.
    WeldTolerance,
    /// The distance within which a drawing's open ends are joined.
    JoinTolerance,
    /// A box's edge length.
    Size,
    /// A radius.
    Radius,
    /// A circumradius (a regular polygon's).
    Circumradius,
    /// A height.
    Height,
    /// A width.
    Width,
    /// A regular polygon's side length.
    Side,
    /// A regular polygon's number of sides.
    Sides,
    /// Voxel cells along the longest side.
    Resolution,
    /// How much repairs may change a body's volume, relative to it.
    RepairTolerance,
}

impl fmt::Display for Parameter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Parameter::Density => "density",
            Parameter::Mass => "mass",
            Parameter::Thickness => "thickness",
            Parameter::ShellThickness => "shell thickness",
            Parameter::WeldTolerance => "weld tolerance",
            Parameter::JoinTolerance => "join tolerance",
            Parameter::Size => "size",
            Parameter::Radius => "radius",
            Parameter::Circumradius => "circumradius",
            Parameter::Height => "height",
            Parameter::Width => "width",
            Parameter::Side => "side",
            Parameter::Sides => "number of sides",
            Parameter::Resolution => "voxel resolution",
            Parameter::RepairTolerance => "repair tolerance",
        })
    }
}

/// What a parameter must be ([`Error::InvalidParameter`]).
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum Need {
    /// A positive finite number.
    Positive,
    /// At least this.
    AtLeast(f64),
    /// A finite number of at least 0.
    NonNegative,
    /// From `min` to `max`.
    Between {
        /// The least.
        min: f64,
        /// The most.
        max: f64,
    },
    /// At most `value`, the value given for `other`.
    AtMost {
        /// The parameter that bounds it.
        other: Parameter,
        /// That parameter's value.
        value: f64,
    },
}

/// The message of [`Error::InvalidParameter`].
fn invalid(name: Parameter, value: f64, need: Need) -> String {
    match need {
        Need::Positive => {
            format!("the {name} must be a positive finite number, got {value}")
        }
        Need::AtLeast(min) => format!("the {name} must be at least {}, got {value}", num(min)),
        Need::NonNegative => {
            format!("the {name} must be a finite number of at least 0, got {value}")
        }
        Need::Between { min, max } => format!(
            "the {name} must be between {} and {}, got {value}",
            num(min),
            num(max)
        ),
        Need::AtMost {
            other: Parameter::Width,
            value: width,
        } if name == Parameter::Height => format!(
            "the height {value} is more than the width {width}: a biconvex lens (two caps of at most a hemisphere) is at most as tall as it is wide"
        ),
        Need::AtMost { other, value: max } => {
            format!("the {name} {value} is more than the {other} {max}")
        }
    }
}

/// What an input lacks ([`Error::Empty`]).
///
/// # Examples
/// ```
/// assert_eq!(inertia::error::Missing::Bytes.to_string(), "the file is empty");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Missing {
    /// The file has no bytes.
    Bytes,
    /// No points (a polygon file).
    Points,
    /// No triangles (a mesh).
    Triangles,
    /// An OBJ file without faces (`f` lines).
    ObjFaces,
    /// A PLY file without faces.
    PlyFaces,
    /// A report to combine that lists no parts.
    ReportParts,
    /// A 3MF build that places no body: how many of its items it left out, by type.
    BuildItems {
        /// Items of type support or solidsupport.
        support: usize,
        /// Items of type other.
        other: usize,
        /// Items of type surface (open surfaces).
        surface: usize,
    },
    /// A DXF drawing with no closed outline where it was looked for.
    Outline {
        /// The space read.
        space: DxfSpace,
        /// The layers read (all when empty).
        layers: Vec<String>,
        /// Entities of the paper space and layouts, left out when the model space is read.
        elsewhere: usize,
    },
    /// A GeoJSON document without polygons.
    GeojsonPolygons,
    /// A DXF drawing without the layout asked for.
    Layout {
        /// The layout asked for.
        name: String,
        /// The drawing's layouts, sorted (none in a drawing older than R2000).
        layouts: Vec<String>,
    },
    /// A CAD file without this solid (numbered from 1).
    Solid(usize),
}

/// The space of a DXF drawing that was read ([`Missing::Outline`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DxfSpace {
    /// The model space.
    Model,
    /// The paper space.
    Paper,
    /// A layout, by name.
    Layout(String),
}

impl fmt::Display for Missing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Missing::Bytes => write!(f, "the file is empty"),
            Missing::Points => write!(f, "no points in the input"),
            Missing::Triangles => write!(f, "no triangles in the input"),
            Missing::ObjFaces => write!(f, "no faces (\"f\" lines) in the OBJ input"),
            Missing::PlyFaces => write!(f, "no faces in the PLY file"),
            Missing::ReportParts => write!(f, "no parts in the report"),
            Missing::BuildItems {
                support,
                other,
                surface,
            } => {
                let mut notes = Vec::new();
                if *support > 0 {
                    notes.push(format!(
                        "{support} build item{} of type support or solidsupport left out (supports are removed from the part)",
                        plural(*support)
                    ));
                }
                if *other > 0 {
                    notes.push(format!(
                        "{other} build item{} of type other left out (not part of the body)",
                        plural(*other)
                    ));
                }
                if *surface > 0 {
                    notes.push(format!(
                        "{surface} build item{} of type surface left out: an open surface has no volume",
                        plural(*surface)
                    ));
                }
                write!(f, "the 3MF build places no body")?;
                if !notes.is_empty() {
                    write!(f, " ({})", notes.join("; "))?;
                }
                Ok(())
            }
            Missing::Outline {
                space,
                layers,
                elsewhere,
            } => {
                let space = match space {
                    DxfSpace::Model => "model space of the DXF drawing".to_string(),
                    DxfSpace::Paper => "paper space of the DXF drawing".to_string(),
                    DxfSpace::Layout(n) => format!("layout \"{}\" of the DXF drawing", clip(n)),
                };
                write!(
                    f,
                    "no closed outline (polyline, circle, or lines and arcs joined end to end) "
                )?;
                if layers.is_empty() {
                    write!(f, "in the {space}")?;
                } else {
                    write!(f, "on layer {} in the {space}", layers.join(", "))?;
                }
                if *elsewhere > 0 {
                    write!(
                        f,
                        " (its paper space and layouts hold {elsewhere} entit{}, left out)",
                        if *elsewhere == 1 { "y" } else { "ies" }
                    )?;
                }
                Ok(())
            }
            Missing::GeojsonPolygons => write!(f, "no polygons in the GeoJSON document"),
            Missing::Layout { name, layouts } => {
                write!(
                    f,
                    "DXF: no layout named \"{}\" in the drawing: ",
                    clip(name)
                )?;
                if layouts.is_empty() {
                    write!(
                        f,
                        "it has no LAYOUT objects (a drawing older than R2000, whose paper space can be read)"
                    )
                } else {
                    let listed: Vec<String> =
                        layouts.iter().map(|n| format!("\"{}\"", clip(n))).collect();
                    write!(f, "its layouts are {}", listed.join(", "))
                }
            }
            Missing::Solid(k) => write!(f, "no solid {k}"),
        }
    }
}

/// What f64 could not resolve ([`Error::Unresolvable`]).
///
/// # Examples
/// ```
/// use inertia::error::Unresolved;
/// assert!(Unresolved::PolygonAreaOverflow.to_string().contains("overflows f64"));
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Unresolved {
    /// A polygon's area overflows f64.
    PolygonAreaOverflow,
    /// A polygon's area about its first vertex and about its centroid disagree.
    PolygonArea {
        /// The area about the first vertex.
        about_first: f64,
        /// The area about the centroid.
        about_centroid: f64,
    },
    /// A polygon's second moments are not those of a body.
    PolygonMoments {
        /// Ixx.
        ixx: f64,
        /// Iyy.
        iyy: f64,
        /// Ixy.
        ixy: f64,
    },
    /// A polygon method's polar moment differs from the tensor's trace.
    PolygonMethods {
        /// The method's name (`fan`, `right-triangle`, `centroid`).
        method: &'static str,
        /// Its polar moment.
        polar: f64,
        /// The trace of the tensor.
        trace: f64,
    },
    /// A curved edge of a ring evaluates to non-finite numbers.
    CurvedEdge {
        /// The ring.
        ring: Ring,
        /// The vertex it starts from, numbered from 1.
        vertex: usize,
    },
    /// A mesh's volume could be off by this much from rounding alone.
    MeshVolume {
        /// The volume.
        volume: f64,
        /// How far rounding could move it.
        error: f64,
    },
    /// A mesh's volume or moment of inertia overflows f64.
    MeshOverflow {
        /// Whether the moment of inertia (not the volume) overflows.
        moment: bool,
    },
    /// A shell's volume overflows f64.
    ShellOverflow {
        /// The shell, numbered from 1.
        shell: usize,
        /// Its first triangle.
        first: InputTriangle,
    },
    /// A shell's volume could be off by this much from rounding alone.
    ShellVolume {
        /// The shell, numbered from 1.
        shell: usize,
        /// Its first triangle.
        first: InputTriangle,
        /// The volume.
        volume: f64,
        /// How far rounding could move it.
        error: f64,
    },
    /// No column of a voxel grid passes through the mesh (its bodies are smaller than a
    /// cell).
    VoxelGrid {
        /// Cells along x and y.
        cells: [usize; 2],
        /// A cell's size along x and y.
        cell_size: [f64; 2],
    },
}

impl fmt::Display for Unresolved {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const SPAN: &str = "coordinates span more than f64 can resolve";
        const LARGER: &str = "coordinates too large: give them in a larger unit";
        match self {
            Unresolved::PolygonAreaOverflow => write!(
                f,
                "the polygon's area overflows f64 (coordinates too large)"
            ),
            Unresolved::PolygonArea {
                about_first,
                about_centroid,
            } => write!(
                f,
                "the polygon's {SPAN} (its area computes as {} about its first vertex and {} about its centroid)",
                num(*about_first),
                num(*about_centroid)
            ),
            Unresolved::PolygonMoments { ixx, iyy, ixy } => write!(
                f,
                "the polygon's {SPAN}: its second moments come out unphysical (Ixx {}, Iyy {}, Ixy {})",
                num(*ixx),
                num(*iyy),
                num(*ixy)
            ),
            Unresolved::PolygonMethods {
                method,
                polar,
                trace,
            } => write!(
                f,
                "the polygon's {SPAN}: the {method} method's polar moment {} differs from {}",
                num(*polar),
                num(*trace)
            ),
            Unresolved::CurvedEdge { ring, vertex } => write!(
                f,
                "the curved edge from vertex {vertex} of the {ring} is not finite"
            ),
            Unresolved::MeshVolume { volume, error } => write!(
                f,
                "the mesh's {SPAN}: its volume {} could be off by {} from rounding alone",
                num(*volume),
                num(*error)
            ),
            Unresolved::MeshOverflow { moment } => write!(
                f,
                "the mesh's {} overflows f64 ({LARGER})",
                if *moment {
                    "moment of inertia"
                } else {
                    "volume"
                }
            ),
            Unresolved::ShellOverflow { shell, first } => write!(
                f,
                "shell {shell} (from {first}): its volume overflows f64 ({LARGER})"
            ),
            Unresolved::ShellVolume {
                shell,
                first,
                volume,
                error,
            } => write!(
                f,
                "shell {shell} (from {first}): its {SPAN}: its volume {} could be off by {} from rounding alone",
                num(*volume),
                num(*error)
            ),
            Unresolved::VoxelGrid { cells, cell_size } => write!(
                f,
                "no column of the voxel grid ({} × {} cells of {} × {}) passes through the mesh: its bodies are smaller than a cell of the grid over their common box",
                cells[0],
                cells[1],
                num(cell_size[0]),
                num(cell_size[1])
            ),
        }
    }
}

/// What is beyond a limit ([`Error::TooLarge`]).
///
/// # Examples
/// ```
/// use inertia::error::Excess;
/// let e = Excess::Triangles { count: 5, max: 4 };
/// assert_eq!(e.to_string(), "the input holds 5 triangles, more than 4");
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum Excess {
    /// A file holds more triangles than the caller allows.
    Triangles {
        /// Triangles in the file.
        count: u64,
        /// The limit.
        max: u64,
    },
    /// A 3MF build expands through its components to more triangles than allowed.
    BuildTriangles {
        /// Triangles it expands to.
        count: u128,
        /// The limit.
        max: u64,
    },
    /// A 3MF build expands through its components to more vertices than allowed (the
    /// triangle limit bounds vertices too).
    BuildVertices {
        /// Vertices it expands to.
        count: u128,
        /// The limit.
        max: u64,
    },
    /// Memory for a 3MF object's expanded mesh could not be reserved.
    Memory {
        /// How many vertices or triangles.
        count: u128,
        /// Whether they are triangles (else vertices).
        triangles: bool,
    },
    /// A voxel grid of more columns than can be integrated in reasonable time.
    VoxelColumns {
        /// The resolution asked for (cells along the longest side).
        resolution: usize,
        /// Cells along x and y.
        cells: [usize; 2],
        /// The limit on columns.
        max: f64,
    },
    /// A polygon of more vertices than the crossing check takes.
    Vertices {
        /// Vertices of the polygon.
        count: usize,
        /// The limit.
        max: usize,
    },
    /// A DXF drawing whose INSERTs expand to more entities than allowed.
    Entities {
        /// The entities they expand to, when counted before expanding (`u64::MAX`: at
        /// least that many); `None` when found while expanding.
        count: Option<u64>,
        /// Whether placed copies (an array INSERT's cells) were counted too.
        copies: bool,
        /// The limit.
        max: u64,
    },
    /// A DXF drawing whose outlines need more chord points for the checks than allowed.
    ChordPoints {
        /// Chord points needed.
        count: u64,
        /// The limit.
        max: u64,
    },
    /// Standard input (or a stream) goes on past the limit of bytes read.
    Stream {
        /// The limit, in bytes.
        max: u64,
    },
}

impl fmt::Display for Excess {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Excess::Triangles { count, max } => {
                write!(f, "the input holds {count} triangles, more than {max}")
            }
            Excess::BuildTriangles { count, max } => write!(
                f,
                "3MF build: expands to {count} triangles through its components, more than {max}: refused rather than expanded"
            ),
            Excess::BuildVertices { count, max } => write!(
                f,
                "3MF build: expands to {count} vertices through its components, more than {max} (the triangle limit bounds vertices too): refused rather than expanded"
            ),
            Excess::Memory { count, triangles } => write!(
                f,
                "cannot allocate memory for {count} {}",
                if *triangles { "triangles" } else { "vertices" }
            ),
            Excess::VoxelColumns {
                resolution,
                cells,
                max,
            } => write!(
                f,
                "a voxel resolution of {resolution} means a grid of {} × {} = {:.3e} columns over this mesh, more than {max:e} (minutes of work)",
                cells[0],
                cells[1],
                cells[0] as f64 * cells[1] as f64
            ),
            Excess::Vertices { count, max } => write!(
                f,
                "{count} vertices are more than the crossing check takes ({max})"
            ),
            Excess::Entities {
                count: Some(count),
                max,
                ..
            } => write!(
                f,
                "DXF: its INSERTs expand to {}{count} entities, more than {max}: refused before expanding",
                if *count == u64::MAX { "more than " } else { "" }
            ),
            Excess::Entities {
                count: None,
                copies,
                max,
            } => write!(
                f,
                "INSERTs expand to more than {max} entities{}: refused rather than expanded",
                if *copies { " and copies" } else { "" }
            ),
            Excess::ChordPoints { count, max } => write!(
                f,
                "DXF: its outlines need {count} chord points for the validity checks (a circle 128), more than {max}: refused rather than read"
            ),
            Excess::Stream { max } => write!(f, "the stream goes on past {max} bytes"),
        }
    }
}

/// A repair on the way from a mesh's triangles to a closed solid ([`Error::RepairTooLarge`]).
///
/// # Examples
/// ```
/// let r = inertia::error::Repair::Contacts { count: 3, max_depth: 1e-4, crossing: None };
/// assert!(r.to_string().starts_with("3 crossing(s) up to 0.0001 deep"));
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Repair {
    /// Pairs of triangles that cross by this much at most, taken for bodies touching.
    Contacts {
        /// How many pairs.
        count: usize,
        /// How far the deepest reaches.
        max_depth: f64,
        /// The two triangles (numbered from 1) of the first pair, when known.
        crossing: Option<[u32; 2]>,
    },
    /// Corners lying within reach of another triangle's edge (T-junctions), split there.
    Junctions {
        /// How many corners.
        points: usize,
        /// The farthest any lay from its edge.
        largest_offset: f64,
    },
    /// Both at once.
    Both,
}

impl fmt::Display for Repair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Repair::Contacts {
                count,
                max_depth,
                crossing,
            } => {
                write!(
                    f,
                    "{count} crossing(s) up to {} deep taken for bodies touching",
                    num(*max_depth)
                )?;
                if let Some([a, b]) = crossing {
                    write!(f, " (the first: triangle {a} and triangle {b})")?;
                }
                Ok(())
            }
            Repair::Junctions {
                points,
                largest_offset,
            } => write!(
                f,
                "{points} corner(s) up to {} off another triangle's edge, split there as T-junctions,",
                num(*largest_offset)
            ),
            Repair::Both => write!(
                f,
                "crossings taken for contact and corners split as T-junctions"
            ),
        }
    }
}

/// How two triangles of a mesh meet wrongly (re-exported as `overlap::Kind`).
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum OverlapKind {
    /// An edge of one passes through the other's interior, at this point.
    Cross([f64; 3]),
    /// Coplanar, facing the same way, with overlapping interiors; a point of the overlap.
    Coincide([f64; 3]),
    /// Both use this edge (its two ends) the same way round, with no face of the other
    /// orientation between them around it: the space between them is enclosed twice.
    Wedge([f64; 3], [f64; 3]),
    /// They cross at the first point, and a corner carried inside the other body by the
    /// crossing (or one joined to it by edges that cross nothing) lies at the second,
    /// further from the other body's faces than a repair may reach.
    Sunk([f64; 3], [f64; 3]),
    /// They cross at this point by this depth, within a repair's reach, but the
    /// crossings of the surfaces around them do not add up, even counted again with the
    /// points perturbed symbolically (a contact within one body, whose crossings are not
    /// between bodies), so touching cannot be told from overlap.
    Unsettled([f64; 3], f64),
    /// Coplanar, with overlapping interiors, facing either way (a surface integrated as a
    /// thin wall counts that area twice); a point of the first.
    Doubled([f64; 3]),
    /// They meet at this point exactly along an edge or at a corner, as more pairs do
    /// than the triangles can make unless the surface lies over itself many times (a body
    /// stacked on copies of itself): refused at the earliest such pair, unjudged.
    Crowded([f64; 3]),
}

/// Two triangles of a mesh that cross or coincide, and how ([`Error::Overlapping`]).
///
/// # Examples
/// ```
/// use inertia::error::{OverlapAt, OverlapKind};
/// let at = OverlapAt {
///     triangles: [1, 5],
///     kind: OverlapKind::Cross([0.5, 0.0, 1.0]),
///     depth: None,
///     tolerance: 1e-15,
/// };
/// assert_eq!(at.to_string(), "triangle 1 and triangle 5 cross at (0.5, 0, 1)");
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct OverlapAt {
    /// The two triangles, numbered from 1 in input order (first < second).
    pub triangles: [usize; 2],
    /// How they meet, with the points.
    pub kind: OverlapKind,
    /// For a crossing: how far one reaches past the other, when that is more than a
    /// repair may reach.
    pub depth: Option<f64>,
    /// How far a repair may reach here: a thousandth of the two triangles' longest edge,
    /// or the rounding of `f64` arithmetic at their magnitude if that is more.
    pub tolerance: f64,
}

impl fmt::Display for OverlapAt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b] = self.triangles;
        write!(f, "triangle {a} and triangle {b} ")?;
        match &self.kind {
            OverlapKind::Cross(p) => {
                write!(f, "cross at {}", point(p))?;
                if let Some(d) = self.depth {
                    write!(
                        f,
                        ", {} deep (more than the {} a repair may reach there)",
                        num(d),
                        num(self.tolerance)
                    )?;
                }
                Ok(())
            }
            OverlapKind::Coincide(p) => write!(
                f,
                "coincide (coplanar, facing the same way) around {}",
                point(p)
            ),
            OverlapKind::Doubled(p) => write!(
                f,
                "lie on each other (coplanar, overlapping) around {}",
                point(p)
            ),
            OverlapKind::Sunk(p, q) => write!(
                f,
                "cross at {}, carrying the corner {} inside the other body, further from its faces than a repair may reach (more than {})",
                point(p),
                point(q),
                num(self.tolerance)
            ),
            OverlapKind::Unsettled(p, depth) => write!(
                f,
                "cross at {} by {}, within a repair's reach, but the crossings around them do not add up, even counted with the points perturbed symbolically: touching cannot be told from overlap",
                point(p),
                num(*depth)
            ),
            OverlapKind::Crowded(p) => write!(
                f,
                "meet at {}, as more pairs of triangles meet exactly along edges or at corners than a surface that does not lie over itself makes (bodies stacked on copies of themselves?)",
                point(p)
            ),
            OverlapKind::Wedge(p, q) => write!(
                f,
                "both turn the same way around the edge {}–{}, enclosing the space between them twice",
                point(p),
                point(q)
            ),
        }
    }
}

/// A point of a plane in a message: `(x, y)`, each to 12 significant digits.
/// [`Error::GeojsonDegrees`]'s message.
fn geojson_degrees(crs: &crate::crs::Crs, beyond: &Option<[f64; 2]>, utm: &Option<u32>) -> String {
    use crate::crs::Crs;
    match (crs, beyond) {
        (Crs::Other(name), _) => format!(
            "its crs names {name}, whose unit is not known here, and GeoJSON coordinates are longitude and latitude in degrees unless declared lengths: declare the unit of its coordinates"
        ),
        (_, Some(p)) => format!(
            "position {} lies beyond longitude ±180° or latitude ±90°: its coordinates are not the degrees RFC 7946 says but lengths in a unit the file does not state; declare it",
            point2(p)
        ),
        _ => {
            let named = crs
                .name()
                .map_or_else(String::new, |n| format!(", and its crs names {n}"));
            let example = utm.map_or_else(String::new, |code| {
                format!(" (here, for example, its UTM zone: `ogr2ogr -t_srs EPSG:{code} out.geojson in.geojson`)")
            });
            format!(
                "GeoJSON coordinates are longitude and latitude in degrees (RFC 7946{named}), and a plane figure's area and moments need lengths: project it to a plane coordinate system first{example}, or declare the unit of its coordinates if they are lengths already"
            )
        }
    }
}

/// [`Error::GeojsonWebMercator`]'s message: the factor, or its range when it differs
/// over the polygons' latitudes to 3 digits.
fn web_mercator(crs: &str, latitude: &[f64; 2], factor: &[f64; 2], utm: &Option<u32>) -> String {
    let [lo, hi] = factor.map(|f| crate::text::num_to(f, 3));
    let where_ = if lo == hi {
        format!(
            "{lo}× too large at latitude {:.1}°",
            0.5 * (latitude[0] + latitude[1])
        )
    } else {
        format!(
            "{lo}× to {hi}× too large between latitudes {:.1}° and {:.1}°",
            latitude[0], latitude[1]
        )
    };
    let example = utm.map_or_else(String::new, |code| {
        format!(" (here, for example, its UTM zone: `ogr2ogr -t_srs EPSG:{code} out.geojson in.geojson`)")
    });
    format!(
        "areas in {crs} (Web Mercator) are {where_}: reproject it to an equal-area or local projected system first{example}"
    )
}

fn point2(p: &[f64; 2]) -> String {
    format!("({}, {})", num(p[0]), num(p[1]))
}

/// A point in a message: `(x, y, z)`, each to 12 significant digits.
fn point(p: &[f64; 3]) -> String {
    format!("({}, {}, {})", num(p[0]), num(p[1]), num(p[2]))
}

/// Why the bodies of a mesh could not be united ([`Error::Union`]).
///
/// # Examples
/// ```
/// use inertia::error::UnionProblem;
/// assert!(UnionProblem::SelfCrossing.to_string().contains("crosses itself"));
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum UnionProblem {
    /// Its shells could not be separated into closed 2-manifold surfaces (faces meeting
    /// around an edge or a point in a way no pairing resolves).
    #[error(
        "its shells are not separate closed surfaces (faces meet around an edge or a point in a way no pairing resolves)"
    )]
    NotManifold,
    /// A shell passes through itself, and CGAL's autorefinement could not resolve it into
    /// the solid it encloses: a self-crossing surface, not two bodies.
    #[error(
        "a shell's surface crosses itself and CGAL's autorefinement could not resolve it (a self-crossing surface, not two bodies: repair that surface first)"
    )]
    SelfCrossing,
    /// The union's surface would not be a 2-manifold: bodies that meet along an edge or
    /// at a point only.
    #[error(
        "the union's surface would not be a 2-manifold (bodies meeting along an edge or at a point only)"
    )]
    UnionNotManifold,
    /// The union was computed, but is not a solid this crate can integrate (a rounded
    /// point left a shell without volume, say).
    #[error("the union is not a valid solid: {0}")]
    Refused(Box<Error>),
    /// CGAL did not finish within the time given to it (feature `union`): CGAL 5.5
    /// can loop without end where bodies touch along edges by the rounding.
    #[error(
        "CGAL did not finish within {seconds:.0} s, the limit for {triangles} triangles (CGAL 5.5 can loop without end where bodies touch along edges by the rounding)"
    )]
    TimedOut {
        /// The time it was given.
        seconds: f64,
        /// The triangles it was given.
        triangles: usize,
    },
    /// CGAL failed for another reason, which it gave.
    #[error("CGAL failed: {0}")]
    Failed(String),
}

/// What is wrong with one shell of a mesh ([`Error::BadShell`]).
///
/// # Examples
/// ```
/// assert!(inertia::error::ShellProblem::Flat.to_string().contains("no volume"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ShellProblem {
    /// It encloses no volume (flat, or folded back onto itself).
    Flat,
    /// It touches another shell, so whether it is a cavity cannot be told.
    TouchesAnother,
    /// Wound inward (negative volume) but inside no other shell.
    InwardOutside,
    /// Wound outward but inside another shell.
    OutwardInside,
    /// A cavity that reaches outside the body around it.
    CavityOutside,
}

impl fmt::Display for ShellProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ShellProblem::Flat => "encloses no volume (it is flat, or folds back onto itself)",
            ShellProblem::TouchesAnother => {
                "touches another shell: cannot tell whether it is a cavity"
            }
            ShellProblem::InwardOutside => {
                "is wound inward (negative volume) but is not inside another shell: fix the orientation of its triangles"
            }
            ShellProblem::OutwardInside => {
                "is wound outward but lies inside another shell: a body inside another (they overlap: union them, or add them as they are), or a cavity wound the wrong way (fix the orientation of its triangles)"
            }
            ShellProblem::CavityOutside => {
                "is a cavity that reaches outside the body around it: shells intersect"
            }
        })
    }
}

/// The end of an open-mesh message when the gap looks like noise.
fn gap_note(gap: Option<f64>) -> String {
    match gap {
        Some(d) => format!("; its nearest unmatched corners are {} apart", num(d)),
        None => String::new(),
    }
}

/// "s" for a count other than one.
fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// Shorthand for results of this crate.
///
/// # Examples
/// ```
/// fn area() -> inertia::Result<f64> {
///     Ok(inertia::PolygonMethod::Fan.integrate(&inertia::Polygon::new(vec![[0.0, 0.0], [2.0, 0.0], [0.0, 2.0]], vec![])?).properties.area)
/// }
/// assert_eq!(area().unwrap(), 2.0);
/// ```
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// A parse error at `place` with `message`.
    ///
    /// # Examples
    /// ```
    /// let e = inertia::Error::parse("line 3", "expected a number");
    /// assert_eq!(e.to_string(), "line 3: expected a number");
    /// ```
    pub fn parse(place: impl Into<Place>, message: impl Into<String>) -> Self {
        Error::Parse {
            place: place.into(),
            message: message.into(),
        }
    }

    /// `error`, in the part named `part` of a file.
    ///
    /// # Examples
    /// ```
    /// let e = inertia::Error::in_part("object 2", inertia::Error::parse("triangle 4", "open"));
    /// assert_eq!(e.to_string(), "object 2: triangle 4: open");
    /// ```
    pub fn in_part(part: &str, error: Error) -> Self {
        Error::InPart {
            part: part.to_string(),
            error: Box::new(error),
        }
    }
}
