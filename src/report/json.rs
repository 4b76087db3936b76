//! `--format json`: one pretty-printed object, every number at full precision.

use super::{MeshReport, PolygonReport};
use serde::Serialize;

/// The version of the JSON layout, printed first as `"schema_version"` in every object
/// inertia prints (a report, a batch, a comparison, each JSON Lines line). It goes up when a
/// field is renamed, removed or changes meaning; new fields leave it as it is.
pub const SCHEMA_VERSION: u32 = 1;

/// A value with the schema version put before its own fields.
#[derive(Serialize)]
pub(crate) struct Versioned<'a, T: Serialize> {
    schema_version: u32,
    #[serde(flatten)]
    value: &'a T,
}

/// `value` with the schema version before its fields.
pub(crate) fn versioned<T: Serialize>(value: &T) -> Versioned<'_, T> {
    Versioned {
        schema_version: SCHEMA_VERSION,
        value,
    }
}

/// The polygon report as JSON (with a trailing newline).
///
/// # Examples
/// ```
/// use inertia::{Polygon, PolygonMethod, report::{json, PolygonReport}};
/// let p = Polygon::new(vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], vec![])?;
/// let v: serde_json::Value = serde_json::from_str(&json::polygon(&PolygonReport::new("sq", &p, PolygonMethod::Fan, inertia::Amount::Density(1.0), None))).unwrap();
/// assert_eq!(v["area"], 1.0);
/// assert_eq!(v["winding"], "ccw");
/// assert_eq!(v["schema_version"], json::SCHEMA_VERSION);
/// # Ok::<(), inertia::Error>(())
/// ```
pub fn polygon(r: &PolygonReport) -> String {
    let mut s = serde_json::to_string_pretty(&versioned(r)).expect("a report always serialises");
    s.push('\n');
    s
}

/// The mesh report as JSON (with a trailing newline).
///
/// # Examples
/// ```
/// let cube = inertia::Mesh::new(&inertia::shape::Shape3d::Box { size: [1.0; 3] }.tessellate(0))?;
/// let r = inertia::report::MeshReport::new("cube", &cube, inertia::MeshMethod::Tetra, 0, inertia::Amount::Density(1.0), None);
/// let v: serde_json::Value = serde_json::from_str(&inertia::report::json::mesh(&r)).unwrap();
/// assert_eq!(v["volume"], 1.0);
/// # Ok::<(), inertia::Error>(())
/// ```
pub fn mesh(r: &MeshReport) -> String {
    let mut s = serde_json::to_string_pretty(&versioned(r)).expect("a report always serialises");
    s.push('\n');
    s
}
