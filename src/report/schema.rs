//! The JSON schema: every type inertia prints as JSON derives `Serialize` here, and the
//! reports also derive `Deserialize`, which is how `combine` reads them back.
//!
//! A printed document is one of: a report ([`PolygonReport`], [`MeshReport`]), a batch
//! ([`Batch`]: its parts, the inputs that failed, the total), a comparison of methods
//! (`--method all`), the material list ([`MaterialList`]), or, in JSON Lines, one report or
//! one [`Failure`] per line. Each starts with `"schema_version"` ([`Versioned`]). Leaf values
//! that are also the library's own types ([`BoundingBox`], [`BoundingBox2d`], `LeftOut`,
//! [`Contacts`](super::Contacts), [`UnitLabels`], [`Products`], [`Material`]) derive
//! their (de)serialisation where they are defined.
//!
//! The report types' `method` (and a polygon's `winding`) are names from a fixed set
//! ([`METHOD_NAMES`], [`WINDING_NAMES`]); reading a report back refuses any other name,
//! naming the field.

use super::{BoundingBox, BoundingBox2d};
use crate::units::{Material, Products, UnitLabels};
use serde::{Deserialize, Deserializer, Serialize};

/// Every name a report's `method` holds, as inertia writes it: the polygon methods
/// (`fan`, `right-triangle`, `centroid`), the mesh methods (`tetra`, `voxel`, and `shell`
/// for a thin wall), `brep` (a CAD solid integrated on its B-rep), `closed-form` (a
/// `shape`) and `combine` (a sum of reports).
///
/// # Examples
/// ```
/// use inertia::report::schema::METHOD_NAMES;
/// assert!(inertia::MeshMethod::ALL.iter().all(|m| METHOD_NAMES.contains(&m.name())));
/// assert!(inertia::PolygonMethod::ALL.iter().all(|m| METHOD_NAMES.contains(&m.name())));
/// ```
pub const METHOD_NAMES: [&str; 9] = [
    "fan",
    "right-triangle",
    "centroid",
    "tetra",
    "voxel",
    "shell",
    "brep",
    "closed-form",
    "combine",
];

/// Every name a polygon report's `winding` holds: the outer ring as given,
/// counter-clockwise or clockwise.
///
/// # Examples
/// ```
/// assert_eq!(inertia::report::schema::WINDING_NAMES, ["ccw", "cw"]);
/// ```
pub const WINDING_NAMES: [&str; 2] = ["ccw", "cw"];

/// A name read back as the one of `names` it is (as a `&'static str`), or an error naming
/// `field` and the names it may hold.
fn one_of<'de, D: Deserializer<'de>>(
    d: D,
    field: &str,
    names: &[&'static str],
) -> Result<&'static str, D::Error> {
    let text = std::borrow::Cow::<str>::deserialize(d)?;
    names.iter().find(|n| **n == text).copied().ok_or_else(|| {
        serde::de::Error::custom(format!(
            "\"{field}\" is \"{}\", not a name inertia writes there ({})",
            crate::error::clip(&text),
            names.join(", ")
        ))
    })
}

/// A name from a fixed set, read back by `deserialize_with` (spelt as an alias so that serde
/// does not take the field for text borrowed from the input, as it does a `&str`).
type Name = &'static str;

/// A report's `method`, one of [`METHOD_NAMES`].
fn method_name<'de, D: Deserializer<'de>>(d: D) -> Result<&'static str, D::Error> {
    one_of(d, "method", &METHOD_NAMES)
}

/// A polygon report's `winding`, one of [`WINDING_NAMES`].
fn winding_name<'de, D: Deserializer<'de>>(d: D) -> Result<&'static str, D::Error> {
    one_of(d, "winding", &WINDING_NAMES)
}

/// The version of the JSON layout, printed first as `"schema_version"` in every object
/// inertia prints (a report, a batch, a comparison, the material list, each JSON Lines
/// line). It goes up when a field is renamed, removed or changes meaning; new fields leave
/// it as it is. `combine` reads reports of this version only.
pub const SCHEMA_VERSION: u32 = 1;

/// A value with the schema version put before its own fields.
///
/// # Examples
/// ```
/// use inertia::report::schema::{Failure, Versioned};
/// let f = Failure { source: "a.stl", error: "a.stl: empty" };
/// let text = serde_json::to_string(&Versioned::new(&f)).unwrap();
/// assert_eq!(text, r#"{"schema_version":1,"source":"a.stl","error":"a.stl: empty"}"#);
/// ```
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Versioned<'a, T: Serialize> {
    /// Always [`SCHEMA_VERSION`].
    pub schema_version: u32,
    /// The document's own fields, after the version.
    #[serde(flatten)]
    pub value: &'a T,
}

impl<'a, T: Serialize> Versioned<'a, T> {
    /// `value` with the current schema version before its fields.
    ///
    /// # Examples
    /// ```
    /// let v = inertia::report::schema::Versioned::new(&3);
    /// assert_eq!(v.schema_version, inertia::report::schema::SCHEMA_VERSION);
    /// ```
    pub fn new(value: &'a T) -> Self {
        Versioned {
            schema_version: SCHEMA_VERSION,
            value,
        }
    }
}

/// An input that could not be processed: a JSON Lines line of its own, or an entry of a
/// batch's `errors`.
///
/// # Examples
/// ```
/// let f = inertia::report::schema::Failure { source: "a.json", error: "a.json: line 1: EOF" };
/// assert_eq!(serde_json::to_value(f).unwrap()["error"], "a.json: line 1: EOF");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Failure<'a> {
    /// The input's name.
    pub source: &'a str,
    /// Why it failed (one line, naming the input).
    pub error: &'a str,
}

/// An input of a batch that was not reported: its name, the library's typed error when
/// the library refused it, and the one line printed for it (in JSON its `error`).
///
/// # Examples
/// ```
/// use inertia::error::{Error, Missing};
/// use inertia::report::FileError;
/// let e = FileError::new("a.stl", Error::Empty { missing: Missing::Bytes });
/// assert_eq!(e.message, format!("a.stl: {}", e.error.as_deref().unwrap()));
/// assert!(matches!(e.error.as_deref(), Some(Error::Empty { .. })));
/// ```
#[derive(Clone, Debug)]
pub struct FileError {
    /// The input's name, as its report would give it.
    pub source: String,
    /// What the library said, when it refused the input (shared, so that a batch's rows
    /// can be copied); `None` for a refusal of the caller's own.
    pub error: Option<std::sync::Arc<crate::Error>>,
    /// The line printed for it, naming the input (the command line's words its errors with
    /// the flags that help).
    pub message: String,
}

impl FileError {
    /// The library's refusal of the input `source`, printed as `source: message`.
    ///
    /// # Examples
    /// ```
    /// let e = inertia::report::FileError::new("a.json", inertia::Error::Empty { missing: inertia::error::Missing::Bytes });
    /// assert_eq!(e.source, "a.json");
    /// ```
    pub fn new(source: &str, error: crate::Error) -> FileError {
        FileError {
            source: source.to_string(),
            message: format!("{source}: {error}"),
            error: Some(std::sync::Arc::new(error)),
        }
    }

    /// An input refused with `message` (one line, naming it), not by the library.
    ///
    /// # Examples
    /// ```
    /// let e = inertia::report::FileError::message("bad.json", "bad.json: line 1: EOF");
    /// assert!(e.error.is_none());
    /// ```
    pub fn message(source: &str, message: &str) -> FileError {
        FileError {
            source: source.to_string(),
            error: None,
            message: message.to_string(),
        }
    }

    /// As printed: the input's name and the message.
    ///
    /// # Examples
    /// ```
    /// let e = inertia::report::FileError::message("a", "a: empty");
    /// assert_eq!(e.failure().error, "a: empty");
    /// ```
    pub fn failure(&self) -> Failure<'_> {
        Failure {
            source: &self.source,
            error: &self.message,
        }
    }
}

/// Several inputs: each part's report, the inputs that failed, and the total (when there
/// is one). Printed as `{"schema_version", "parts", "errors", "total"}`.
///
/// # Examples
/// ```
/// use inertia::report::{schema::Batch, PolygonReport};
/// let sq = inertia::Polygon::new(vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], vec![])?;
/// let r = PolygonReport::new("sq", &sq, inertia::PolygonMethod::Fan, inertia::Amount::Density(1.0), None);
/// let rows = [Ok(r), Err(inertia::report::FileError::message("bad.json", "bad.json: EOF"))];
/// let b = Batch::new(&rows, None);
/// assert_eq!((b.parts.len(), b.errors.len()), (1, 1));
/// assert!(serde_json::to_value(&b).unwrap().get("total").is_none());
/// # Ok::<(), inertia::Error>(())
/// ```
#[derive(Clone, Debug, Serialize)]
pub struct Batch<'a, R: Serialize> {
    /// The reports of the inputs that were read, in input order.
    pub parts: Vec<&'a R>,
    /// The inputs that failed, in input order.
    pub errors: Vec<Failure<'a>>,
    /// The total of the parts; left out when there is none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total: Option<&'a R>,
}

impl<'a, R: Serialize> Batch<'a, R> {
    /// The batch of `rows` (each a report or an input that failed) and `total`.
    ///
    /// # Examples
    /// ```
    /// let rows: Vec<Result<u8, inertia::report::FileError>> = vec![Ok(1), Ok(2)];
    /// assert_eq!(inertia::report::schema::Batch::new(&rows, Some(&3)).parts, [&1, &2]);
    /// ```
    pub fn new(rows: &'a [Result<R, FileError>], total: Option<&'a R>) -> Self {
        Batch {
            parts: rows.iter().filter_map(|r| r.as_ref().ok()).collect(),
            errors: rows
                .iter()
                .filter_map(|r| r.as_ref().err())
                .map(FileError::failure)
                .collect(),
            total,
        }
    }
}

/// `inertia materials --json`: the built-in table.
///
/// # Examples
/// ```
/// let l = inertia::report::schema::MaterialList { materials: inertia::units::MATERIALS };
/// assert!(serde_json::to_value(l).unwrap()["materials"][0]["density"].is_number());
/// ```
#[derive(Clone, Copy, Debug, Serialize)]
pub struct MaterialList<'a> {
    /// Each material: name, density in kg/m³, source.
    pub materials: &'a [Material],
}

/// A `--method all` comparison as printed: each method's report by name, each quantity's
/// spread by name, and the verdict.
#[derive(Serialize)]
pub(crate) struct ComparisonDoc<'a, R: Serialize> {
    pub methods: Named<'a, &'a R>,
    pub spread: Named<'a, f64>,
    pub max_exact_spread: f64,
    pub max_spread: f64,
    pub tolerance: f64,
    pub agree: bool,
    /// Reports beside the methods, in no spread (left out when there are none).
    #[serde(skip_serializing_if = "Named::is_empty")]
    pub beside: Named<'a, &'a R>,
}

/// Pairs written as a JSON object, in their order.
pub(crate) struct Named<'a, V>(pub Vec<(&'a str, V)>);

impl<V> Named<'_, V> {
    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl<V: Serialize> Serialize for Named<'_, V> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|(k, v)| (*k, v)))
    }
}

/// Mass moments `ixx = ∫y² dm`, `iyy = ∫x² dm` and the product `ixy` about the report's
/// point: `−∫xy dm` (the tensor convention, the default) or `+∫xy dm` (`--products cad`).
///
/// # Examples
/// ```
/// let sq = inertia::Polygon::new(vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], vec![])?;
/// let r = inertia::report::PolygonReport::new("sq", &sq, inertia::PolygonMethod::Fan, inertia::Amount::Density(1.0), None);
/// assert!((r.mass_moments.ixx - 1.0 / 12.0).abs() < 1e-15);
/// # Ok::<(), inertia::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlanarMoments {
    /// `∫y² dm`.
    pub ixx: f64,
    /// `∫x² dm`.
    pub iyy: f64,
    /// `−∫xy dm` (the in-plane tensor's off-diagonal) or `+∫xy dm`, as the report's
    /// `products` says.
    pub ixy: f64,
}

/// Second moments of area (`∫y² dA` ...), density-free, about the report's point.
///
/// # Examples
/// ```
/// let sq = inertia::Polygon::new(vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], vec![])?;
/// let r = inertia::report::PolygonReport::new("sq", &sq, inertia::PolygonMethod::Fan, inertia::Amount::Density(5.0), None);
/// assert!((r.area_moments.polar - 1.0 / 6.0).abs() < 1e-15);
/// # Ok::<(), inertia::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct AreaMoments {
    /// `∫y² dA`.
    pub ixx: f64,
    /// `∫x² dA`.
    pub iyy: f64,
    /// `−∫xy dA` or `+∫xy dA`, as the report's `products` says.
    pub ixy: f64,
    /// `∫(x² + y²) dA`.
    pub polar: f64,
}

/// Principal moments and the angle of the first axis.
///
/// # Examples
/// ```
/// let sq = inertia::Polygon::new(vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], vec![])?;
/// let r = inertia::report::PolygonReport::new("sq", &sq, inertia::PolygonMethod::Fan, inertia::Amount::Density(1.0), None);
/// assert_eq!(r.principal.angle_deg, 0.0);
/// # Ok::<(), inertia::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct PrincipalReport {
    /// `[I1, I2]`, ascending.
    pub moments: [f64; 2],
    /// Angle of the I1 axis from +x, counter-clockwise, degrees in (-90, 90].
    pub angle_deg: f64,
}

/// Radii of gyration `sqrt(I / m)` about the report's point.
///
/// # Examples
/// ```
/// let sq = inertia::Polygon::new(vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], vec![])?;
/// let r = inertia::report::PolygonReport::new("sq", &sq, inertia::PolygonMethod::Fan, inertia::Amount::Density(1.0), None);
/// assert!((r.radii_of_gyration.polar - (1.0f64 / 6.0).sqrt()).abs() < 1e-15);
/// # Ok::<(), inertia::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Radii2d {
    /// About the x axis: `sqrt(ixx / m)`.
    pub x: f64,
    /// About the y axis: `sqrt(iyy / m)`.
    pub y: f64,
    /// Polar: `sqrt(inertia / m)`.
    pub polar: f64,
}

/// Everything `inertia polygon` prints.
///
/// # Examples
/// ```
/// let sq = inertia::Polygon::new(vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], vec![])?;
/// let r = inertia::report::PolygonReport::new("sq", &sq, inertia::PolygonMethod::Fan, inertia::Amount::Density(1.0), None);
/// assert_eq!(r.winding, "ccw");
/// # Ok::<(), inertia::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PolygonReport {
    /// The input's name (a path, or `-` for stdin).
    pub source: String,
    /// The method used, one of [`METHOD_NAMES`] (`combine` for a sum of reports).
    #[serde(deserialize_with = "method_name")]
    pub method: Name,
    /// Distinct vertices over all rings.
    pub vertices: usize,
    /// Number of holes.
    pub holes: usize,
    /// Winding of the outer ring as given: `"ccw"` or `"cw"`. A sum of reports (`combine`)
    /// says the winding its parts share, or `"ccw"` (the winding every ring is integrated
    /// in) when they differ.
    #[serde(deserialize_with = "winding_name")]
    pub winding: Name,
    /// Total edge length, holes included.
    pub perimeter: f64,
    /// The axis-aligned box holding the outline (curved edges by their exact extent); left
    /// out when not known (a `combine` of reports that do not give it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bounding_box: Option<BoundingBox2d>,
    /// Area, holes removed.
    pub area: f64,
    /// Areal density (mass per unit area).
    pub density: f64,
    /// Mass.
    pub mass: f64,
    /// Centre of mass `[x, y]`.
    pub centroid: [f64; 2],
    /// The point the moments below are about (the centroid unless `--about` says otherwise).
    pub about: [f64; 2],
    /// Polar mass moment of inertia about `about` (axis perpendicular to the plane).
    pub inertia: f64,
    /// Planar mass moments about `about`.
    pub mass_moments: PlanarMoments,
    /// The same moments about the centroid, when `about` is elsewhere: what `combine`
    /// reads, since moving moments printed about a far point back to the centroid would
    /// cost the digits the shift added.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub centroidal_mass_moments: Option<PlanarMoments>,
    /// Principal moments about `about`.
    pub principal: PrincipalReport,
    /// Radii of gyration about `about`.
    pub radii_of_gyration: Radii2d,
    /// Second moments of area about `about` (as section tables give them), in
    /// `units.area_moment`.
    pub area_moments: AreaMoments,
    /// The in-plane axis direction of `axis_moment`, if asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub axis: Option<[f64; 2]>,
    /// The moment about the in-plane axis through `about` along `axis`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub axis_moment: Option<f64>,
    /// Sign of `ixy`: `"tensor"` (−∫xy dm, the default, as for meshes) or `"cad"` (+∫xy dm).
    pub products: Products,
    /// Units of every quantity.
    pub units: UnitLabels,
    /// What the input held that is in no polygon, counted by kind: a DXF drawing's
    /// annotations (`{"DIMENSION": 4}`) and, with `--open ignore`, its open pieces
    /// (`"open pieces"`). Left out of the JSON when empty.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub ignored: std::collections::BTreeMap<String, usize>,
    /// True when curves were replaced by chords (rings given so): the result is then that of
    /// a region within `max_deviation` of the drawn one. Left out of the JSON when false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub approximate: bool,
    /// The largest distance between a curve and the chords that replaced it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_deviation: Option<f64>,
}

/// Principal moments and axes of a 3D body.
///
/// # Examples
/// ```
/// let cube = inertia::Mesh::new(&inertia::shape::Shape3d::Box { size: [1.0; 3] }.tessellate(0))?;
/// let r = inertia::report::MeshReport::new("cube", &cube, inertia::MeshMethod::Tetra, 0, inertia::Amount::Density(1.0), None);
/// assert_eq!(r.principal.axes[2], [0.0, 0.0, 1.0]);
/// # Ok::<(), inertia::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Principal3dReport {
    /// `[I1, I2, I3]`, ascending.
    pub moments: [f64; 3],
    /// Unit axes for `moments`, one per row, forming a right-handed frame.
    pub axes: [[f64; 3]; 3],
}

/// Radii of gyration `sqrt(I / m)` of a 3D body.
///
/// # Examples
/// ```
/// let cube = inertia::Mesh::new(&inertia::shape::Shape3d::Box { size: [1.0; 3] }.tessellate(0))?;
/// let r = inertia::report::MeshReport::new("cube", &cube, inertia::MeshMethod::Tetra, 0, inertia::Amount::Density(1.0), None);
/// assert!((r.radii_of_gyration.z - (1.0f64 / 6.0).sqrt()).abs() < 1e-15);
/// # Ok::<(), inertia::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Radii3d {
    /// About the x axis through the report's point: `sqrt(Ixx / m)`.
    pub x: f64,
    /// About the y axis: `sqrt(Iyy / m)`.
    pub y: f64,
    /// About the z axis: `sqrt(Izz / m)`.
    pub z: f64,
    /// About the principal axes, ascending.
    pub principal: [f64; 3],
}

/// The grid of a `voxel` integration.
///
/// # Examples
/// ```
/// let cube = inertia::Mesh::new(&inertia::shape::Shape3d::Box { size: [1.0; 3] }.tessellate(0))?;
/// let r = inertia::report::MeshReport::new("cube", &cube, inertia::MeshMethod::Voxel, 20, inertia::Amount::Density(1.0), None);
/// assert_eq!(r.resolution.unwrap().cells, [20, 20]);
/// # Ok::<(), inertia::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct GridReport {
    /// Columns along x and y.
    pub cells: [usize; 2],
    /// Column size along x and y.
    pub cell_size: [f64; 2],
}

/// A part's material as a CAD file names it (STEP, feature `step`), in a report.
///
/// # Examples
/// ```
/// use inertia::report::MaterialReport;
/// let m = MaterialReport { name: "Steel".into(), density: Some(7850.0), density_used: true };
/// let text = serde_json::to_string(&m).unwrap();
/// assert_eq!(text, r#"{"name":"Steel","density":7850.0,"density_used":true}"#);
/// assert_eq!(serde_json::from_str::<MaterialReport>(&text).unwrap(), m);
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MaterialReport {
    /// Its name as the file writes it (may be empty).
    pub name: String,
    /// Its density in kg/m³ as the file gives it (absent when it gives none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub density: Option<f64>,
    /// Whether the mass was computed with that density (no `--density`, `--mass` or
    /// `--material` given).
    pub density_used: bool,
}

/// Everything `inertia mesh` prints.
///
/// # Examples
/// ```
/// let cube = inertia::Mesh::new(&inertia::shape::Shape3d::Box { size: [1.0; 3] }.tessellate(0))?;
/// let r = inertia::report::MeshReport::new("cube", &cube, inertia::MeshMethod::Tetra, 0, inertia::Amount::Density(1.0), None);
/// assert_eq!(r.volume, 1.0);
/// # Ok::<(), inertia::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MeshReport {
    /// The input's name (a path, or `-` for stdin).
    pub source: String,
    /// The method used, one of [`METHOD_NAMES`] (`brep` for a CAD solid integrated on its
    /// B-rep, `combine` for a sum of reports).
    #[serde(deserialize_with = "method_name")]
    pub method: Name,
    /// The relative tolerance the B-rep integration was asked for (`brep`; absent for a
    /// mesh, whose methods are exact to rounding or report their grid).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tolerance: Option<f64>,
    /// The part's colour as a CAD file gives it: red, green, blue in 0..1 (sRGB; STEP,
    /// feature `step`; absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub color: Option<[f64; 3]>,
    /// The part's material as a CAD file names it (STEP, feature `step`; absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub material: Option<MaterialReport>,
    /// The grid, for `voxel` (absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resolution: Option<GridReport>,

    /// Triangles in the input; absent when there was no mesh (a closed form, or a
    /// combination of reports without counts).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub triangles: Option<usize>,
    /// Degenerate triangles (repeated vertex or zero area), left out of the integrals;
    /// absent with `triangles`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub degenerate_triangles: Option<usize>,
    /// Distinct vertices after welding identical coordinates; absent with `triangles`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vertices: Option<usize>,
    /// Closed surfaces (bodies and cavities).
    pub shells: usize,
    /// Shells wound inward inside another shell, subtracted.
    pub cavities: usize,
    /// True if the input was entirely inside-out (it was turned right way out).
    pub inside_out: bool,
    /// Total triangle area.
    pub surface_area: f64,
    /// Axis-aligned bounding box.
    pub bounding_box: BoundingBox,
    /// Contacts between bodies taken for touching (crossings within the coordinates'
    /// precision): how many, the deepest, and a bound on the volume they count twice;
    /// absent when nothing crosses.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contacts: Option<super::Contacts>,
    /// Build items of a 3MF left out by their object's type (`support`, `other`,
    /// `surface`), counted; absent when none were.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub left_out: Option<crate::body::LeftOut>,
    /// T-junctions the mesh was split at to close it (corners lying on another triangle's
    /// edge): `points`, `triangles` split, and the `largest_offset` of such a corner from
    /// its edge; absent when there were none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub junctions: Option<crate::body::Junctions>,
    /// `"union"` when overlapping bodies were replaced by their union (`--overlap union`);
    /// absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub overlap: Option<std::borrow::Cow<'static, str>>,
    /// What the union did: bodies, how many were united, the volume they shared (their
    /// sum less their union) and a bound on what rounding the union's new points to `f64`
    /// can change; absent with `overlap`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub union: Option<crate::body::Union>,
    /// Enclosed volume.
    pub volume: f64,
    /// Density (mass per unit volume).
    pub density: f64,
    /// Mass.
    pub mass: f64,
    /// Centre of mass `[x, y, z]`.
    pub centroid: [f64; 3],
    /// The point the tensor and moments below are about.
    pub about: [f64; 3],
    /// Inertia tensor about `about`; rows x, y, z; off-diagonals are `−∫xy dm` (tensor
    /// convention).
    pub inertia_tensor: [[f64; 3]; 3],
    /// The same tensor about the centroid, when `about` is elsewhere (same convention):
    /// what `combine` reads, since moving a tensor printed about a far point back to the
    /// centroid would cost the digits the shift added.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub centroidal_inertia_tensor: Option<[[f64; 3]; 3]>,
    /// Principal moments and axes of `inertia_tensor`.
    pub principal: Principal3dReport,
    /// Radii of gyration.
    pub radii_of_gyration: Radii3d,
    /// The axis direction of `axis_moment`, if asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub axis: Option<[f64; 3]>,
    /// The moment about the axis through `about` along `axis`: `uᵀ I u`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub axis_moment: Option<f64>,
    /// Sign of the off-diagonals of `inertia_tensor`: `"tensor"` (−∫xy dm, the default) or
    /// `"cad"` (+∫xy dm).
    pub products: Products,
    /// Units of every quantity.
    pub units: UnitLabels,
}

/// One tessellation of a CAD solid set against its B-rep (`mesh part.step --method all`),
/// in the report's units.
///
/// # Examples
/// ```
/// let t = inertia::report::schema::Tessellation { deflection: 0.01, triangles: 12, volume: 1.0, centroid: [0.0; 3], inertia_tensor: [[0.0; 3]; 3], difference: 1e-9, bound: 1e-6, within: true };
/// assert_eq!(serde_json::to_value(t).unwrap()["within"], true);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Tessellation {
    /// The chordal deflection asked for.
    pub deflection: f64,
    /// Triangles of the tessellation.
    pub triangles: usize,
    /// Its volume (`tetra`).
    pub volume: f64,
    /// Its centroid.
    pub centroid: [f64; 3],
    /// Its tensor, printed as the B-rep report's.
    pub inertia_tensor: [[f64; 3]; 3],
    /// The largest relative difference from the B-rep (volume, centroid to the diagonal,
    /// tensor to the largest moment).
    pub difference: f64,
    /// What the chords allow: 4 × deflection × area / volume.
    pub bound: f64,
    /// `difference <= bound`.
    pub within: bool,
}

/// `mesh part.step --method all`: the B-rep report, its tessellations, and whether every
/// one is within its bound.
///
/// # Examples
/// ```
/// let cube = inertia::Mesh::new(&inertia::shape::Shape3d::Box { size: [1.0; 3] }.tessellate(0))?;
/// let r = inertia::report::MeshReport::new("cube", &cube, inertia::MeshMethod::Tetra, 0, inertia::Amount::Density(1.0), None);
/// let c = inertia::report::schema::TessellationComparison { brep: &r, tessellations: &[], agree: true };
/// let v: serde_json::Value = serde_json::from_str(&inertia::report::json::pretty(&c)).unwrap();
/// assert_eq!(v["brep"]["volume"], 1.0);
/// # Ok::<(), inertia::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Serialize)]
pub struct TessellationComparison<'a> {
    /// The B-rep's own report.
    pub brep: &'a MeshReport,
    /// Each tessellation, finest last.
    pub tessellations: &'a [Tessellation],
    /// Every tessellation within its bound.
    pub agree: bool,
}
