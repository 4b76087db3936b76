//! Reports: what is printed, and one file per output format.
//!
//! A report is a plain, serialisable value built from a result; each output format turns it
//! into text ([`table`] for people, [`json`] for pipelines).

pub mod compare;
pub mod csv;
pub mod json;
pub mod jsonl;
mod mesh;
mod polygon;
pub mod svg;
pub mod table;

use crate::Amount;
pub use crate::body::{Body, BoundingBox, BoundingBox2d, LeftOut};
use crate::mass2d::MassProperties2d;
use crate::mass2d::Principal2d;
use crate::mass3d::MassProperties3d;
use crate::mesh::Mesh;
use crate::method::{MeshIntegral, MeshMethod, PolygonIntegral, PolygonMethod};
use crate::polygon::Polygon;
use crate::units::{Products, UnitLabels, Units};
use nalgebra::{Point2, Point3};
use serde::Serialize;

pub use mesh::{GridReport, MaterialReport, MeshReport, Principal3dReport, Radii3d};
pub use polygon::{AreaMoments, Outline, PlanarMoments, PolygonReport, PrincipalReport, Radii2d};

/// An output format.
///
/// # Examples
/// ```
/// let sq = inertia::Polygon::new(vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], vec![])?;
/// let r = inertia::report::PolygonReport::new("sq", &sq, inertia::PolygonMethod::Fan, inertia::Amount::Density(1.0), None);
/// assert!(inertia::report::OutputFormat::Csv.polygon(&r).starts_with("kind,source,"));
/// # Ok::<(), inertia::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum OutputFormat {
    /// An aligned, labelled table for people.
    Table,
    /// One pretty-printed JSON object.
    Json,
    /// A header and one comma-separated row per input (batches).
    Csv,
    /// One compact JSON object per line per input (batches).
    Jsonl,
}

impl OutputFormat {
    /// Renders a polygon report in this format.
    ///
    /// # Examples
    /// ```
    /// use inertia::report::{OutputFormat, PolygonReport};
    /// let sq = inertia::Polygon::new(vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], vec![])?;
    /// let r = PolygonReport::new("sq", &sq, inertia::PolygonMethod::Fan, inertia::Amount::Density(1.0), None);
    /// assert!(OutputFormat::Jsonl.polygon(&r).starts_with("{"));
    /// # Ok::<(), inertia::Error>(())
    /// ```
    pub fn polygon(self, r: &PolygonReport) -> String {
        match self {
            OutputFormat::Table => table::polygon(r),
            OutputFormat::Json => json::polygon(r),
            OutputFormat::Csv => csv::polygons(&[Ok(r.clone())], None),
            OutputFormat::Jsonl => jsonl::lines::<PolygonReport>(&[Ok(r.clone())]),
        }
    }

    /// Renders a mesh report in this format.
    ///
    /// # Examples
    /// ```
    /// use inertia::report::{MeshReport, OutputFormat};
    /// let cube = inertia::Mesh::new(&inertia::shape::Shape3d::Box { size: [1.0; 3] }.tessellate(0))?;
    /// let r = MeshReport::new("cube", &cube, inertia::MeshMethod::Tetra, 0, inertia::Amount::Density(1.0), None);
    /// assert!(OutputFormat::Table.mesh(&r).contains("inertia tensor"));
    /// # Ok::<(), inertia::Error>(())
    /// ```
    pub fn mesh(self, r: &MeshReport) -> String {
        match self {
            OutputFormat::Table => table::mesh(r),
            OutputFormat::Json => json::mesh(r),
            OutputFormat::Csv => csv::meshes(&[Ok(r.clone())], None),
            OutputFormat::Jsonl => jsonl::lines::<MeshReport>(&[Ok(r.clone())]),
        }
    }
}

/// How a report is expressed: units, the sign of products of inertia, and an optional axis
/// to report the moment about.
///
/// # Examples
/// ```
/// let v = inertia::report::View { products: inertia::units::Products::Cad, ..Default::default() };
/// assert!(v.axis.is_none());
/// ```
#[derive(Clone, Debug, PartialEq, Default)]
pub struct View {
    /// Units of the input and the output.
    pub units: Units,
    /// Sign convention of products: the tensor's `−∫xy` unless asked for CAD's `+∫xy`.
    pub products: Products,
    /// A direction (2 components for polygons, in-plane; 3 for meshes): the moment about
    /// the axis through the `about` point along it is reported as `axis_moment`.
    pub axis: Option<Vec<f64>>,
}

/// Checks a report before it is printed: every number finite, and its measure, mass and
/// greatest moment not underflowed to zero. Returns the first offence, naming the field.
///
/// A NaN or infinity (a size or density beyond f64, a direction whose squares overflow)
/// or a result that rounded to nothing (a body 1e-200 across) is refused here, whatever
/// command produced it, rather than printed as `null`, `inf` or `0`.
///
/// # Errors
/// [`Error::NotRepresentable`](crate::Error::NotRepresentable) naming the first field that
/// is NaN or infinite, or a volume, area, mass or
/// tensor that underflows to 0.
///
/// # Examples
/// ```
/// use inertia::report::{check_numbers, MeshReport};
/// use inertia::{Amount, Mesh, MeshMethod, shape::Shape3d};
/// let cube = Mesh::new(&Shape3d::Box { size: [1.0; 3] }.tessellate(0))?;
/// let r = MeshReport::new("cube", &cube, MeshMethod::Tetra, 0, Amount::Density(1.0), None);
/// assert!(check_numbers(&r).is_ok());
/// let tiny = Mesh::new(&Shape3d::Box { size: [1e-100; 3] }.tessellate(0))?;
/// let r = MeshReport::new("tiny", &tiny, MeshMethod::Tetra, 0, Amount::Density(1.0), None);
/// let e = check_numbers(&r).unwrap_err();
/// assert!(matches!(
///     &e,
///     inertia::Error::NotRepresentable { field, problem: inertia::error::NumberProblem::Underflow }
///         if field == "inertia_tensor"
/// ));
/// assert_eq!(
///     e.to_string(),
///     "the inertia_tensor underflows f64 (it rounds to 0): the sizes or the density are too small"
/// );
/// # Ok::<(), inertia::Error>(())
/// ```
pub fn check_numbers<R: Serialize>(report: &R) -> crate::Result<()> {
    use crate::error::NumberProblem;
    let refuse = |field: &str, problem| {
        Err(crate::Error::NotRepresentable {
            field: field.to_string(),
            problem,
        })
    };
    // A report that cannot be serialised holds a number JSON cannot write.
    let Ok(value) = serde_json::to_value(report) else {
        return refuse("a value", NumberProblem::NotFinite);
    };
    let positive = |key: &str| value.get(key).and_then(serde_json::Value::as_f64);
    for key in ["area", "volume", "mass"] {
        if positive(key).is_some_and(|v| v <= 0.0) {
            return refuse(key, NumberProblem::Underflow);
        }
    }
    if let Some(path) = first_null(&value, String::new()) {
        return refuse(&path, NumberProblem::NotFinite);
    }
    // The greatest principal moment: a body with mass has one, and it must not round to 0.
    let moments = value
        .get("principal")
        .and_then(|p| p.get("moments"))
        .and_then(serde_json::Value::as_array);
    if let Some(m) = moments {
        let greatest = m
            .iter()
            .filter_map(serde_json::Value::as_f64)
            .fold(0.0_f64, f64::max);
        if greatest <= 0.0 {
            let what = if value.get("inertia_tensor").is_some() {
                "inertia_tensor"
            } else {
                "mass_moments"
            };
            return refuse(what, NumberProblem::Underflow);
        }
    }
    Ok(())
}

/// The path of the first `null` (a non-finite number, as serde_json writes it) in `v`.
fn first_null(v: &serde_json::Value, path: String) -> Option<String> {
    match v {
        serde_json::Value::Null => Some(if path.is_empty() {
            "a value".into()
        } else {
            path
        }),
        serde_json::Value::Array(a) => a
            .iter()
            .enumerate()
            .find_map(|(i, x)| first_null(x, format!("{path}[{i}]"))),
        serde_json::Value::Object(o) => o.iter().find_map(|(k, x)| {
            let p = if path.is_empty() {
                k.clone()
            } else {
                format!("{path}.{k}")
            };
            first_null(x, p)
        }),
        _ => None,
    }
}
