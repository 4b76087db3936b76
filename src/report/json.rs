//! `--format json`: one pretty-printed object, every number at full precision.

use super::{MeshReport, PolygonReport};

/// The polygon report as JSON (with a trailing newline).
///
/// # Examples
/// ```
/// use inertia::{Polygon, PolygonMethod, report::{json, PolygonReport}};
/// let p = Polygon::new(vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], vec![])?;
/// let v: serde_json::Value = serde_json::from_str(&json::polygon(&PolygonReport::new("sq", &p, PolygonMethod::Fan, inertia::Amount::Density(1.0), None))).unwrap();
/// assert_eq!(v["area"], 1.0);
/// assert_eq!(v["winding"], "ccw");
/// # Ok::<(), inertia::Error>(())
/// ```
pub fn polygon(r: &PolygonReport) -> String {
    let mut s = serde_json::to_string_pretty(r).expect("a report always serialises");
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
    let mut s = serde_json::to_string_pretty(r).expect("a report always serialises");
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Polygon, PolygonMethod};

    #[test]
    fn snapshot_l_shape() {
        let p = Polygon::new(
            vec![
                [0.0, 0.0],
                [2.0, 0.0],
                [2.0, 1.0],
                [1.0, 1.0],
                [1.0, 2.0],
                [0.0, 2.0],
            ],
            vec![],
        )
        .unwrap();
        insta::assert_snapshot!(polygon(&PolygonReport::new(
            "l.json",
            &p,
            PolygonMethod::Fan,
            crate::Amount::Density(2.0),
            None
        )));
    }
}
