//! DXF profiles: bulge arcs, circles as holes, several profiles, refusals.

use assert_cmd::cargo::cargo_bin_cmd;
use serde_json::Value;
use std::f64::consts::PI;

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

#[test]
fn slot_plate_against_closed_forms() {
    let out = cargo_bin_cmd!("inertia")
        .args(["polygon", "fixtures/polygon/slot_plate.dxf", "--json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The centre line belongs to no outline: left out by default, counted by type and
    // layer in one warning.
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "inertia: warning: fixtures/polygon/slot_plate.dxf: 1 piece in no closed outline left out (1 LINE; on layer CENTER (1)) (--open error refuses them)\n"
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let parts = v["parts"].as_array().unwrap();
    assert_eq!(parts.len(), 2);
    // A 4 × 2 stadium (semicircular ends of radius 1, drawn as bulges) with a hole of radius
    // 0.5 at its centre: area 8 + π − π/4; polar moment about the centroid
    // 160/12 + 2(π/4 + 2π + 8/3) − π/32 (each half-disc moved by the parallel-axis theorem).
    let s = &parts[0];
    assert_eq!(
        s["source"],
        "fixtures/polygon/slot_plate.dxf: LWPOLYLINE A1"
    );
    assert_eq!(s["holes"], 1);
    let area = 8.0 + PI - PI / 4.0;
    let polar = 160.0 / 12.0 + 2.0 * (PI / 4.0 + 2.0 * PI + 8.0 / 3.0) - PI / 32.0;
    assert!((f(&s["area"]) - area).abs() < 1e-13 * area, "{}", s["area"]);
    assert!(
        (f(&s["inertia"]) - polar).abs() < 1e-13 * polar,
        "{}",
        s["inertia"]
    );
    assert!(
        (f(&s["centroid"][0]) - 2.0).abs() < 1e-13 && (f(&s["centroid"][1]) - 1.0).abs() < 1e-13
    );
    // The unit square beside it.
    assert_eq!(f(&parts[1]["area"]), 1.0);
    // With --open error the centre line is refused (`refuse`, the value's former name, is
    // taken too).
    for open in ["error", "refuse"] {
        let out = cargo_bin_cmd!("inertia")
            .args(["polygon", "fixtures/polygon/slot_plate.dxf", "--open", open])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        assert!(
            String::from_utf8_lossy(&out.stderr)
                .contains("LINE D4 (layer CENTER): (-1, 1)–(5, 1) is not part of a closed outline")
        );
    }
    // `ignore`, the former name of `leave`, is taken too.
    let out = cargo_bin_cmd!("inertia")
        .args([
            "polygon",
            "fixtures/polygon/slot_plate.dxf",
            "--open",
            "ignore",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    // The format is recognised from the content too.
    let bytes = std::fs::read("fixtures/polygon/slot_plate.dxf").unwrap();
    let out = cargo_bin_cmd!("inertia")
        .args(["polygon", "-", "--format", "csv"])
        .write_stdin(bytes)
        .output()
        .unwrap();
    assert!(out.status.success());
}

#[test]
fn open_polyline_is_refused() {
    let out = cargo_bin_cmd!("inertia")
        .args(["polygon", "fixtures/bad/open_polyline.dxf"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains(
            "fixtures/bad/open_polyline.dxf: LWPOLYLINE E5: (0, 0)–(1, 1) is not part of a closed outline"
        ),
        "{err}"
    );
}
