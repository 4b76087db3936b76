//! Reports: what is printed, and one file per output format.
//!
//! A report is a plain, serialisable value built from a result; each output format turns it
//! into text ([`table`] for people, [`json`] for pipelines). Every type printed as JSON is
//! defined in [`schema`], which is also what `combine` reads back.

mod check;
pub mod compare;
pub mod csv;
pub mod json;
pub mod jsonl;
mod mesh;
mod polygon;
pub mod schema;
mod summary;
pub mod svg;
pub mod table;

use crate::Amount;
pub use crate::body::{Body, BoundingBox, BoundingBox2d, Contacts, Junctions, LeftOut, Union};
use crate::mass2d::MassProperties2d;
use crate::mass2d::Principal2d;
use crate::mass3d::MassProperties3d;
use crate::mesh::Mesh;
use crate::method::{MeshIntegral, MeshMethod, PolygonIntegral, PolygonMethod};
use crate::polygon::Polygon;
use crate::units::{Products, Units};
use nalgebra::{Point2, Point3};

pub use check::check_numbers;
pub use polygon::Outline;
pub use schema::{
    AreaMoments, FileError, GridReport, MaterialReport, MeshReport, PlanarMoments, PolygonReport,
    Principal3dReport, PrincipalReport, Radii2d, Radii3d,
};
pub use summary::Summary;

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
    /// A header, then one comma-separated row per report: each part, then the total (the
    /// `kind` column says which).
    Csv,
    /// One compact JSON object per line: each part's report, or an input that failed (no
    /// total); written as the inputs are read when they can be.
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
