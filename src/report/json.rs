//! `--format json`: one pretty-printed object, every number at full precision. The types
//! printed are those of [`schema`](super::schema).

use super::schema::{Batch, MaterialList, Versioned};
use super::{FileError, MeshReport, PolygonReport};
use crate::units::Material;
use serde::Serialize;

pub use super::schema::SCHEMA_VERSION;

/// Any document of the [`schema`](super::schema), with the schema version first,
/// pretty-printed, with a trailing newline.
///
/// # Examples
/// ```
/// let l = inertia::report::schema::MaterialList { materials: &inertia::units::MATERIALS[..1] };
/// assert!(inertia::report::json::pretty(&l).starts_with("{\n  \"schema_version\": 1,\n  \"materials\""));
/// ```
pub fn pretty<T: Serialize>(document: &T) -> String {
    let mut s = serde_json::to_string_pretty(&Versioned::new(document))
        .expect("a document of the schema always serialises");
    s.push('\n');
    s
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
    pretty(r)
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
    pretty(r)
}

/// Several inputs as one object: `{"schema_version", "parts", "errors", "total"}` (see
/// [`Batch`]), `total` left out when `None`.
///
/// # Examples
/// ```
/// use inertia::{Amount, Polygon, PolygonMethod, report::{json, PolygonReport}};
/// let p = Polygon::new(vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], vec![])?;
/// let r = PolygonReport::new("sq", &p, PolygonMethod::Fan, Amount::Density(1.0), None);
/// let rows = [Ok(r.clone()), Err(inertia::report::FileError::message("bad.json", "bad.json: EOF"))];
/// let v: serde_json::Value = serde_json::from_str(&json::batch(&rows, Some(&r))).unwrap();
/// assert_eq!(v["parts"][0]["area"], 1.0);
/// assert_eq!(v["errors"][0]["source"], "bad.json");
/// assert_eq!(v["total"]["mass"], 1.0);
/// # Ok::<(), inertia::Error>(())
/// ```
pub fn batch<R: Serialize>(rows: &[Result<R, FileError>], total: Option<&R>) -> String {
    pretty(&Batch::new(rows, total))
}

/// The material table as `{"schema_version", "materials": [...]}`.
///
/// # Examples
/// ```
/// let v: serde_json::Value = serde_json::from_str(&inertia::report::json::materials(inertia::units::MATERIALS)).unwrap();
/// assert_eq!(v["schema_version"], 1);
/// assert!(v["materials"].as_array().unwrap().iter().any(|m| m["name"] == "steel"));
/// ```
pub fn materials(materials: &[Material]) -> String {
    pretty(&MaterialList { materials })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::compare;
    use crate::{Amount, Polygon, PolygonMethod};

    fn square() -> PolygonReport {
        let p = Polygon::new(
            vec![[1e6, 0.0], [1e6 + 1.0, 0.0], [1e6 + 1.0, 3.0], [1e6, 3.0]],
            vec![],
        )
        .unwrap();
        PolygonReport::new("sq", &p, PolygonMethod::Fan, Amount::Density(7.0), None)
    }

    fn pretty_value(v: &serde_json::Value) -> String {
        serde_json::to_string_pretty(v).unwrap() + "\n"
    }

    #[test]
    fn the_typed_batch_prints_the_bytes_the_value_tree_printed() {
        // What the command line built by hand before the schema had a type for it.
        let r = square();
        let rows = [
            Ok(r.clone()),
            Err(FileError::message("bad.json", "bad.json: line 1: EOF")),
        ];
        let mut old = serde_json::json!({
            "schema_version": SCHEMA_VERSION,
            "parts": [serde_json::to_value(&r).unwrap()],
            "errors": [{"source": "bad.json", "error": "bad.json: line 1: EOF"}],
        });
        assert_eq!(batch(&rows, None), pretty_value(&old));
        old["total"] = serde_json::to_value(&r).unwrap();
        assert_eq!(batch(&rows, Some(&r)), pretty_value(&old));
        let none: [Result<PolygonReport, FileError>; 0] = [];
        let empty = serde_json::json!({"schema_version": 1, "parts": [], "errors": []});
        assert_eq!(batch(&none, None), pretty_value(&empty));
    }

    #[test]
    fn the_typed_comparison_prints_the_bytes_the_value_tree_printed() {
        let p = Polygon::new(vec![[0.0, 0.0], [2.0, 0.0], [0.0, 1.0]], vec![]).unwrap();
        let reports: Vec<PolygonReport> = PolygonMethod::ALL
            .iter()
            .map(|m| PolygonReport::new("t", &p, *m, Amount::Density(1.0), None))
            .collect();
        let c = compare::polygons(reports, 1e-9);
        let mut methods = serde_json::Map::new();
        for (name, r) in c.methods.iter().zip(&c.reports) {
            methods.insert(name.to_string(), serde_json::to_value(r).unwrap());
        }
        let mut spread = serde_json::Map::new();
        for row in &c.rows {
            spread.insert(row.quantity.clone(), row.spread.into());
        }
        let old = serde_json::json!({
            "schema_version": SCHEMA_VERSION,
            "methods": methods,
            "spread": spread,
            "max_exact_spread": c.max_exact_spread,
            "max_spread": c.max_spread,
            "tolerance": c.tolerance,
            "agree": c.agree,
        });
        assert_eq!(c.json(), pretty_value(&old));
    }

    #[test]
    fn reports_read_back_into_their_own_type() {
        let r = square();
        let text = polygon(&r);
        let back: PolygonReport = serde_json::from_str(&text).unwrap();
        // Every name and every number, to the bit.
        assert_eq!(back, r);
        let edited = text.replace("\"fan\"", "\"magic\"");
        let e = serde_json::from_str::<PolygonReport>(&edited).unwrap_err();
        assert!(e.to_string().contains("\"method\" is \"magic\""), "{e}");
    }
}
