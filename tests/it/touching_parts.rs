//! Parts of one file that touch at points or share an edge from opposite sides are separate
//! parts of one answer; only a shared area is refused (issue 47). Through the library and
//! the command line, from a GeoJSON MultiPolygon (in a `.json` file) and from DXF.

use assert_cmd::cargo::cargo_bin_cmd;
use inertia::io::PolygonFormat;
use inertia::read::{PolygonTotal, read_polygons};
use serde_json::Value;
use std::path::PathBuf;

fn temp(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("inertia-touching-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// A square ring of side `s` from (x, y), closed, as GeoJSON coordinates.
fn square(x: f64, y: f64, s: f64) -> String {
    format!(
        "[[{x},{y}],[{},{y}],[{},{}],[{x},{}],[{x},{y}]]",
        x + s,
        x + s,
        y + s,
        y + s
    )
}

/// A polygon of one ring.
fn one(ring: String) -> String {
    format!("[{ring}]")
}

/// A MultiPolygon of these polygons.
fn multi(members: &[String]) -> String {
    format!(
        r#"{{"type": "MultiPolygon", "coordinates": [{}]}}"#,
        members.join(",")
    )
}

/// A DXF drawing of closed LWPOLYLINEs, each given by its handle and its points.
fn dxf(outlines: &[(&str, &[[f64; 2]])]) -> String {
    let mut s = String::from("0\nSECTION\n2\nENTITIES\n");
    for (handle, points) in outlines {
        s += &format!(
            "0\nLWPOLYLINE\n5\n{handle}\n8\n0\n90\n{}\n70\n1\n",
            points.len()
        );
        for p in *points {
            s += &format!("10\n{}\n20\n{}\n", p[0], p[1]);
        }
    }
    s + "0\nENDSEC\n0\nEOF\n"
}

fn corners(x: f64, y: f64, s: f64) -> [[f64; 2]; 4] {
    [[x, y], [x + s, y], [x + s, y + s], [x, y + s]]
}

/// The command's JSON, or its refusal.
fn run(args: &[&str]) -> Result<Value, String> {
    let out = cargo_bin_cmd!("inertia").args(args).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    match out.status.code() {
        Some(0) => Ok(serde_json::from_slice(&out.stdout).unwrap()),
        Some(2) => {
            assert!(out.stdout.is_empty(), "{err}");
            assert_eq!(err.trim_end().lines().count(), 1, "{err}");
            Err(err)
        }
        c => panic!("exit {c:?}: {err}"),
    }
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

/// Two unit squares corner to corner, [0,1]² and [1,2]²: area 2, centroid (1, 1); about it
/// each square has Ixx = 1/12 + 1/4 (its own and the parallel-axis term), and the tensor's
/// −∫xy is −2 · 1/4 (each square's centroid at ±(1/2, 1/2)).
fn assert_corner_to_corner(total: &Value) {
    assert_eq!(f(&total["area"]), 2.0);
    assert_eq!(
        [f(&total["centroid"][0]), f(&total["centroid"][1])],
        [1.0, 1.0]
    );
    let m = &total["mass_moments"];
    let close = |v: &Value, want: f64| (f(v) - want).abs() <= 1e-15 * want.abs();
    assert!(close(&m["ixx"], 2.0 / 3.0), "{m}");
    assert!(close(&m["iyy"], 2.0 / 3.0), "{m}");
    assert!(close(&m["ixy"], -0.5), "{m}");
    assert!(close(&total["inertia"], 4.0 / 3.0), "{total}");
}

#[test]
fn squares_corner_to_corner_are_answered_from_the_library() {
    for at in [0.0, 1e7] {
        let doc = multi(&[
            one(square(at, at, 1.0)),
            one(square(at + 1.0, at + 1.0, 1.0)),
        ]);
        let parts = read_polygons(doc.as_bytes(), PolygonFormat::Geojson).unwrap();
        assert_eq!(parts.len(), 2);
        let t = PolygonTotal::of(parts.iter().map(|(_, p)| PolygonTotal::polygon(p))).unwrap();
        let p = t.properties;
        assert_eq!(p.area, 2.0);
        assert_eq!([p.centroid.x, p.centroid.y], [at + 1.0, at + 1.0]);
        let m = p.moments;
        let close = |v: f64, want: f64| (v - want).abs() <= 1e-12 * want.abs();
        assert!(close(m.ixx, 2.0 / 3.0) && close(m.iyy, 2.0 / 3.0), "{m:?}");
        assert!(close(m.ixy, 0.5), "{m:?}"); // +∫xy dm here
    }
}

#[test]
fn touching_outlines_are_parts_of_one_answer_on_the_command_line() {
    let corner = temp(
        "corner.json",
        &multi(&[one(square(0.0, 0.0, 1.0)), one(square(1.0, 1.0, 1.0))]),
    );
    let v = run(&[
        "polygon",
        corner.to_str().unwrap(),
        "--units",
        "m",
        "--json",
    ])
    .unwrap();
    assert_eq!(v["parts"].as_array().unwrap().len(), 2);
    assert_corner_to_corner(&v["total"]);
    let corner = temp(
        "corner.dxf",
        &dxf(&[
            ("A1", &corners(0.0, 0.0, 1.0)),
            ("A2", &corners(1.0, 1.0, 1.0)),
        ]),
    );
    let v = run(&["polygon", corner.to_str().unwrap(), "--json"]).unwrap();
    assert_corner_to_corner(&v["total"]);
    // Side by side, sharing an edge (and half an edge) from opposite sides: 2, 1.25.
    for (second, area) in [(square(1.0, 0.0, 1.0), 2.0), (square(1.0, 0.5, 0.5), 1.25)] {
        let side = temp(
            "side.json",
            &multi(&[one(square(0.0, 0.0, 1.0)), one(second)]),
        );
        let v = run(&["polygon", side.to_str().unwrap(), "--units", "m", "--json"]).unwrap();
        assert_eq!(f(&v["total"]["area"]), area);
    }
    let side = temp(
        "side.dxf",
        &dxf(&[
            ("A1", &corners(0.0, 0.0, 1.0)),
            ("A2", &corners(1.0, 0.0, 1.0)),
        ]),
    );
    let v = run(&["polygon", side.to_str().unwrap(), "--json"]).unwrap();
    assert_eq!(f(&v["total"]["area"]), 2.0);
    assert_eq!(f(&v["total"]["centroid"][0]), 1.0);
}

#[test]
fn an_island_may_touch_its_lake_at_a_point() {
    // A 4 × 4 lake with a 2 × 2 hole, and a triangle in the hole with a corner on the
    // hole's bottom edge: 16 − 4 + 1/2. Then a square in the hole sharing its corner.
    let lake = [(0.0, 0.0, 4.0), (1.0, 1.0, 2.0)];
    let triangle = [[2.0, 1.0], [2.5, 2.0], [1.5, 2.0]];
    let geo_triangle = "[[2,1],[2.5,2],[1.5,2],[2,1]]".to_string();
    let rings = format!("[{},{}]", square(0.0, 0.0, 4.0), square(1.0, 1.0, 2.0));
    for (island, dxf_island, area) in [
        (geo_triangle, triangle.to_vec(), 12.5),
        (square(2.0, 2.0, 1.0), corners(2.0, 2.0, 1.0).to_vec(), 13.0),
    ] {
        let file = temp(
            "island.json",
            &multi(&[rings.clone(), format!("[{island}]")]),
        );
        let v = run(&["polygon", file.to_str().unwrap(), "--units", "m", "--json"]).unwrap();
        assert_eq!(f(&v["total"]["area"]), area);
        let outer = corners(lake[0].0, lake[0].1, lake[0].2);
        let hole = corners(lake[1].0, lake[1].1, lake[1].2);
        let file = temp(
            "island.dxf",
            &dxf(&[("A1", &outer), ("A2", &hole), ("A3", &dxf_island)]),
        );
        let v = run(&["polygon", file.to_str().unwrap(), "--json"]).unwrap();
        assert_eq!(f(&v["total"]["area"]), area);
        assert_eq!(v["parts"][0]["holes"], 1);
    }
}

#[test]
fn a_shared_area_is_still_refused_however_thin() {
    // Side by side, overlapping by a sliver of 1e-9 (and far from the origin by 2^-20).
    for (at, sliver) in [(0.0, 1e-9), (1e6, 1.0 / 1048576.0)] {
        let x = at + 1.0 - sliver;
        let doc = multi(&[one(square(at, at, 1.0)), one(square(x, at, 1.0))]);
        let file = temp("sliver.json", &doc);
        let e = run(&["polygon", file.to_str().unwrap(), "--units", "m"]).unwrap_err();
        // The point as messages write it (12 significant digits).
        let at_x = if at == 0.0 {
            format!("{x}")
        } else {
            "1000001".into()
        };
        assert!(
            e.contains(&format!(
                "polygon 1 and polygon 2 share an area next to ({at_x}, {at})"
            )),
            "{e}"
        );
        assert!(e.contains("must not overlap"), "{e}");
        let drawing = dxf(&[("A1", &corners(at, at, 1.0)), ("A2", &corners(x, at, 1.0))]);
        let file = temp("sliver.dxf", &drawing);
        let e = run(&["polygon", file.to_str().unwrap()]).unwrap_err();
        assert!(
            e.contains("LWPOLYLINE A1 and LWPOLYLINE A2 share an area"),
            "{e}"
        );
    }
    // A square drawn twice, and an island bigger than its hole.
    let twice = temp(
        "twice.json",
        &multi(&[one(square(0.0, 0.0, 1.0)), one(square(0.0, 0.0, 1.0))]),
    );
    let e = run(&["polygon", twice.to_str().unwrap(), "--units", "m"]).unwrap_err();
    assert!(e.contains("share an area next to (0, 0)"), "{e}");
    let rings = format!("[{},{}]", square(0.0, 0.0, 4.0), square(1.0, 1.0, 2.0));
    let big = temp(
        "big_island.json",
        &multi(&[rings, format!("[{}]", square(1.0, 1.0, 2.5))]),
    );
    let e = run(&["polygon", big.to_str().unwrap(), "--units", "m"]).unwrap_err();
    assert!(e.contains("share an area next to (1, 3)"), "{e}");
}
