//! Snapshots of the printed reports (JSON and table) built through the library, numbers
//! passed through `common::stable` so that only a change of behaviour breaks them.

use crate::common::stable;
use inertia::report::{PolygonReport, json, table};
use inertia::{Amount, Polygon, PolygonMethod};

#[test]
fn l_shape_json() {
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
    let r = PolygonReport::new("l.json", &p, PolygonMethod::Fan, Amount::Density(2.0), None);
    insta::assert_snapshot!(stable(&json::polygon(&r)));
}

#[test]
fn square_with_hole_table_about_origin() {
    let p = Polygon::new(
        vec![[0.0, 0.0], [4.0, 0.0], [4.0, 4.0], [0.0, 4.0]],
        vec![vec![[1.0, 1.0], [1.0, 2.0], [2.0, 2.0], [2.0, 1.0]]],
    )
    .unwrap();
    let r = PolygonReport::new(
        "holed.json",
        &p,
        PolygonMethod::Centroid,
        Amount::Density(0.5),
        Some(nalgebra::Point2::origin()),
    );
    insta::assert_snapshot!(stable(&table::polygon(&r)));
}
