//! `--format jsonl`: one compact JSON object per line per input; for batches. The types
//! printed are those of [`schema`](super::schema), each line starting with its
//! `schema_version`.
//!
//! A file that could not be processed (a [`FileError`]) gets `{"schema_version", "source", "error"}` on its
//! line.

use super::schema::{FileError, Versioned};
use crate::units::Material;
use serde::Serialize;

/// One line (with its newline): the report `r`, or the failure of the input `source`.
///
/// # Examples
/// ```
/// let failed = inertia::report::FileError::message("a.stl", "a.stl: empty");
/// let line = inertia::report::jsonl::line::<u8>(Err(&failed));
/// assert_eq!(line, "{\"schema_version\":1,\"source\":\"a.stl\",\"error\":\"a.stl: empty\"}\n");
/// ```
pub fn line<R: Serialize>(row: Result<&R, &FileError>) -> String {
    let text = match row {
        Ok(r) => serde_json::to_string(&Versioned::new(r)),
        Err(e) => serde_json::to_string(&Versioned::new(&e.failure())),
    };
    let mut line = text.expect("a document of the schema always serialises");
    line.push('\n');
    line
}

/// One line per result or failure.
///
/// # Examples
/// ```
/// use inertia::{Amount, Polygon, PolygonMethod, report::{self, jsonl, PolygonReport}};
/// let p = Polygon::new(vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], vec![])?;
/// let r = PolygonReport::new("sq", &p, PolygonMethod::Fan, Amount::Density(1.0), None);
/// let text = jsonl::lines(&[Ok(r), Err(report::FileError::message("bad.json", "line 1: EOF"))]);
/// let lines: Vec<serde_json::Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
/// assert_eq!(lines[0]["area"], 1.0);
/// assert_eq!(lines[1]["error"], "line 1: EOF");
/// # Ok::<(), inertia::Error>(())
/// ```
pub fn lines<R: Serialize>(rows: &[Result<R, FileError>]) -> String {
    rows.iter().map(|row| line(row.as_ref())).collect()
}

/// The material table, one material a line, each with its `schema_version`.
///
/// # Examples
/// ```
/// let text = inertia::report::jsonl::materials(inertia::units::MATERIALS);
/// let first: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
/// assert_eq!(first["schema_version"], 1);
/// assert!(first["density"].is_number());
/// ```
pub fn materials(materials: &[Material]) -> String {
    materials.iter().map(|m| line::<Material>(Ok(m))).collect()
}
