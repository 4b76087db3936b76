//! `inertia polygon` end to end, over the files in `fixtures/` (see `fixtures/README.md`).

use assert_cmd::cargo::cargo_bin_cmd;
use serde_json::Value;

const METHODS: [&str; 3] = ["fan", "right-triangle", "centroid"];

struct Expected {
    file: &'static str,
    area: f64,
    centroid: [f64; 2],
    /// ixx, iyy, ixy for unit density about the centroid.
    moments: [f64; 3],
    perimeter: f64,
    winding: &'static str,
    vertices: u64,
    holes: u64,
}

fn expected() -> Vec<Expected> {
    let s3 = 3f64.sqrt();
    vec![
        Expected {
            file: "unit_square.json",
            area: 1.0,
            centroid: [0.5, 0.5],
            moments: [1.0 / 12.0, 1.0 / 12.0, 0.0],
            perimeter: 4.0,
            winding: "ccw",
            vertices: 4,
            holes: 0,
        },
        Expected {
            file: "l_shape.json",
            area: 3.0,
            centroid: [5.0 / 6.0, 5.0 / 6.0],
            moments: [11.0 / 12.0, 11.0 / 12.0, -1.0 / 3.0],
            perimeter: 8.0,
            winding: "ccw",
            vertices: 6,
            holes: 0,
        },
        Expected {
            file: "u_shape_cw.csv",
            area: 7.0,
            centroid: [1.5, 19.0 / 14.0],
            moments: [457.0 / 84.0, 79.0 / 12.0, 0.0],
            perimeter: 16.0,
            winding: "cw",
            vertices: 8,
            holes: 0,
        },
        Expected {
            file: "square_with_hole.json",
            area: 15.0,
            centroid: [61.0 / 30.0, 61.0 / 30.0],
            moments: [1259.0 / 60.0, 1259.0 / 60.0, -4.0 / 15.0],
            perimeter: 20.0,
            winding: "ccw",
            vertices: 8,
            holes: 1,
        },
        Expected {
            file: "obtuse_triangle_1e8.txt",
            area: 6.0,
            centroid: [1e8 + 1.0, 1e8 + 1.0],
            moments: [3.0, 7.0, -3.0],
            perimeter: 4.0 + 34f64.sqrt() + 10f64.sqrt(),
            winding: "ccw",
            vertices: 3,
            holes: 0,
        },
        Expected {
            file: "hexagon.json",
            area: 1.5 * s3,
            centroid: [0.0, 0.0],
            moments: [5.0 * s3 / 16.0, 5.0 * s3 / 16.0, 0.0],
            perimeter: 6.0,
            winding: "ccw",
            vertices: 6,
            holes: 0,
        },
    ]
}

fn run_json(args: &[&str]) -> Value {
    let out = cargo_bin_cmd!("inertia").args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "{args:?}: stderr {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

fn assert_close(got: f64, want: f64, scale: f64, what: &str) {
    assert!(
        (got - want).abs() <= 1e-12 * scale,
        "{what}: got {got}, want {want}"
    );
}

#[test]
fn every_fixture_by_every_method_with_density_and_mass() {
    for e in expected() {
        let path = format!("fixtures/polygon/{}", e.file);
        let polar = e.moments[0] + e.moments[1];
        for method in METHODS {
            for (flag, value, density) in
                [("--density", "2.5", 2.5), ("--mass", "10", 10.0 / e.area)]
            {
                let v = run_json(&["polygon", &path, "--method", method, flag, value, "--json"]);
                let what = format!("{} {method} {flag}", e.file);
                assert_eq!(v["method"], method);
                assert_eq!(v["winding"], e.winding, "{what}");
                assert_eq!(v["vertices"], e.vertices, "{what}");
                assert_eq!(v["holes"], e.holes, "{what}");
                assert_close(f(&v["area"]), e.area, e.area, &what);
                assert_close(f(&v["density"]), density, density, &what);
                assert_close(f(&v["mass"]), density * e.area, density * e.area, &what);
                assert_close(f(&v["perimeter"]), e.perimeter, e.perimeter, &what);
                for k in 0..2 {
                    assert_close(
                        f(&v["centroid"][k]),
                        e.centroid[k],
                        e.centroid[k].abs().max(1.0),
                        &what,
                    );
                    assert_eq!(v["about"][k], v["centroid"][k], "{what}");
                }
                let sm = &v["mass_moments"];
                let scale = density * polar;
                assert_close(f(&sm["ixx"]), density * e.moments[0], scale, &what);
                assert_close(f(&sm["iyy"]), density * e.moments[1], scale, &what);
                // The default is the tensor convention: ixy = −∫xy dm.
                assert_close(f(&sm["ixy"]), -density * e.moments[2], scale, &what);
                assert_close(f(&v["inertia"]), density * polar, scale, &what);
                let am = &v["area_moments"];
                assert_close(f(&am["polar"]), polar, polar, &what);
                // Principal moments: eigenvalues of [[ixx, -ixy], [-ixy, iyy]].
                let [a, b, c] = e.moments;
                let r = (0.25 * (a - b) * (a - b) + c * c).sqrt();
                let p = &v["principal"]["moments"];
                assert_close(f(&p[0]), density * (0.5 * (a + b) - r), scale, &what);
                assert_close(f(&p[1]), density * (0.5 * (a + b) + r), scale, &what);
                let rg = &v["radii_of_gyration"]["polar"];
                assert_close(f(rg), (polar / e.area).sqrt(), 1.0, &what);
            }
        }
    }
}

#[test]
fn about_origin_and_a_point() {
    // Unit square about the origin: ∫y² = ∫x² = 1/3, ∫xy = 1/4, polar 2/3.
    let v = run_json(&[
        "polygon",
        "fixtures/polygon/unit_square.json",
        "--about",
        "origin",
        "--json",
    ]);
    assert_eq!(v["about"], serde_json::json!([0.0, 0.0]));
    assert_close(f(&v["inertia"]), 2.0 / 3.0, 1.0, "polar about origin");
    assert_close(
        f(&v["mass_moments"]["ixy"]),
        -0.25,
        1.0,
        "ixy about origin (tensor convention)",
    );
    // About (1, -1) with the centroid method: d = (-0.5, 1.5), polar 1/6 + 2.5.
    let v = run_json(&[
        "polygon",
        "fixtures/polygon/unit_square.json",
        "--method",
        "centroid",
        "--about=1,-1",
        "--json",
    ]);
    assert_close(f(&v["inertia"]), 1.0 / 6.0 + 2.5, 3.0, "polar about (1,-1)");
}

#[test]
fn stdin_with_and_without_input_format() {
    for args in [
        vec!["polygon", "-", "--json"],
        vec!["polygon", "-", "--input-format", "csv", "--json"],
    ] {
        let out = cargo_bin_cmd!("inertia")
            .args(&args)
            .write_stdin("0 0\n2 0\n2 1\n0 1\n")
            .output()
            .unwrap();
        assert!(out.status.success());
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["area"], 2.0);
        assert_eq!(v["source"], "-");
    }
    let out = cargo_bin_cmd!("inertia")
        .args(["polygon", "-", "--format", "json"])
        .write_stdin("[[0,0],[2,0],[2,1],[0,1]]")
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["area"], 2.0);
}

#[test]
fn table_output_is_labelled() {
    let out = cargo_bin_cmd!("inertia")
        .args(["polygon", "fixtures/polygon/l_shape.json", "--density", "2"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    insta::assert_snapshot!(crate::common::stable(&text));
}

#[test]
fn closed_pipe_is_quiet() {
    // Writing into a closed pipe must not panic (exit 101) or print an error.
    use std::process::{Command, Stdio};
    let bin = assert_cmd::cargo::cargo_bin!("inertia");
    let mut child = Command::new(bin)
        .args(["polygon", "fixtures/polygon/l_shape.json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_ne!(out.status.code(), Some(101));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
