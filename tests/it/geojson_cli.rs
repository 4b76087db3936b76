//! GeoJSON input: each polygon a part, holes, names, and the total.

use assert_cmd::cargo::cargo_bin_cmd;
use serde_json::Value;

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

#[test]
fn feature_collection_parts_and_total() {
    let out = cargo_bin_cmd!("inertia")
        .args(["polygon", "fixtures/polygon/parcels.geojson", "--json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let parts = v["parts"].as_array().unwrap();
    assert_eq!(parts.len(), 3);
    // Lot 7: 30 × 20 minus the 5 × 5 pond at [10,15]×[5,10]: area 575,
    // centroid x = (600·15 − 25·12.5)/575.
    assert_eq!(
        parts[0]["source"],
        "fixtures/polygon/parcels.geojson: lot 7"
    );
    assert!((f(&parts[0]["area"]) - 575.0).abs() < 1e-12);
    assert!((f(&parts[0]["centroid"][0]) - (9000.0 - 312.5) / 575.0).abs() < 1e-12);
    assert_eq!(parts[0]["holes"], 1);
    assert_eq!(
        parts[1]["source"],
        "fixtures/polygon/parcels.geojson: sheds, polygon 1"
    );
    assert!((f(&parts[2]["area"]) - 2.0).abs() < 1e-15);
    // Total: 575 + 1 + 2.
    assert!((f(&v["total"]["area"]) - 578.0).abs() < 1e-12);
    // CSV: a header, one row per polygon, the total.
    let out = cargo_bin_cmd!("inertia")
        .args([
            "polygon",
            "fixtures/polygon/parcels.geojson",
            "--format",
            "csv",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 5);
    assert!(
        text.lines()
            .last()
            .unwrap()
            .starts_with("total,total of 3 parts,fan,578,")
    );
}

#[test]
fn a_single_polygon_reads_like_json() {
    let doc = r#"{"type": "Polygon", "coordinates": [[[0,0],[2,0],[2,1],[0,1],[0,0]]]}"#;
    let out = cargo_bin_cmd!("inertia")
        .args(["polygon", "-", "--json"])
        .write_stdin(doc)
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["area"], 2.0);
    assert!((f(&v["inertia"]) - 2.0 * 5.0 / 12.0).abs() < 1e-15);
}

#[test]
fn bad_geojson() {
    let out = cargo_bin_cmd!("inertia")
        .args(["polygon", "fixtures/bad/linestring.geojson"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("fixtures/bad/linestring.geojson: GeoJSON: a LineString has no area"),
        "{err}"
    );
    // A self-intersecting part is refused with its name.
    let doc = r#"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {"name": "bad lot"}, "geometry": {"type": "Polygon", "coordinates": [[[0,0],[2,2],[2,0],[0,3],[0,0]]]}}]}"#;
    let out = cargo_bin_cmd!("inertia")
        .args(["polygon", "-"])
        .write_stdin(doc)
        .output()
        .unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        err.contains("bad lot: outer ring edge 1 and outer ring edge 3 cross"),
        "{err}"
    );
}
