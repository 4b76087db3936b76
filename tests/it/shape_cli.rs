//! `inertia shape`, `--method all` and `voxel` end to end.

use assert_cmd::cargo::cargo_bin_cmd;
use serde_json::Value;
use std::f64::consts::PI;

fn run(args: &[&str]) -> (i32, Value, String) {
    let out = cargo_bin_cmd!("inertia").args(args).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    let v = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    (out.status.code().unwrap_or(-1), v, err)
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

fn close(got: f64, want: f64, tol: f64) {
    assert!(
        (got - want).abs() <= tol * want.abs().max(1e-300),
        "got {got}, want {want}"
    );
}

#[test]
fn planar_closed_forms() {
    // Rectangle 2 × 1, mass 3: I = m (w² + h²)/12 (Fauconnet 2023, eq. 3.4).
    let (code, v, _) = run(&[
        "shape",
        "rectangle",
        "--width",
        "2",
        "--height",
        "1",
        "--mass",
        "3",
        "--json",
    ]);
    assert_eq!(code, 0);
    close(f(&v["inertia"]), 3.0 * 5.0 / 12.0, 1e-15);
    close(f(&v["perimeter"]), 6.0, 1e-15);
    assert_eq!(v["method"], "closed-form");
    // Regular hexagon of side 1, mass 1: m l²/24 (1 + 3 cot²(π/6)) = 10/24.
    let (_, v, _) = run(&[
        "shape", "regular", "--sides", "6", "--side", "1", "--mass", "1", "--json",
    ]);
    close(f(&v["inertia"]), 10.0 / 24.0, 1e-14);
    // The same hexagon by its circumradius.
    let (_, v2, _) = run(&[
        "shape",
        "regular",
        "--sides",
        "6",
        "--circumradius",
        "1",
        "--mass",
        "1",
        "--json",
    ]);
    close(f(&v2["inertia"]), 10.0 / 24.0, 1e-14);
    // Circle r = 2, density 1: I = m r²/2 (Singhal 2018).
    let (_, v, _) = run(&["shape", "circle", "--radius", "2", "--json"]);
    close(f(&v["area"]), 4.0 * PI, 1e-15);
    close(f(&v["inertia"]), 4.0 * PI * 4.0 / 2.0, 1e-15);
}

#[test]
fn solid_closed_forms() {
    let (_, v, _) = run(&["shape", "box", "--size", "3,2,1", "--json"]);
    close(f(&v["inertia_tensor"][0][0]), 6.0 * 5.0 / 12.0, 1e-15);
    close(f(&v["inertia_tensor"][2][2]), 6.0 * 13.0 / 12.0, 1e-15);
    let (_, v, _) = run(&["shape", "sphere", "--radius", "2", "--mass", "5", "--json"]);
    close(f(&v["inertia_tensor"][1][1]), 0.4 * 5.0 * 4.0, 1e-15);
    let (_, v, _) = run(&[
        "shape", "cylinder", "--radius", "1", "--height", "4", "--mass", "2", "--json",
    ]);
    close(f(&v["inertia_tensor"][2][2]), 2.0 * 1.0 / 2.0, 1e-15);
    close(
        f(&v["inertia_tensor"][0][0]),
        2.0 * (3.0 + 16.0) / 12.0,
        1e-15,
    );
    // Fiedler's go stone with the true lens volume.
    let (_, v, _) = run(&[
        "shape", "biconvex", "--width", "2.2", "--height", "0.92", "--mass", "1", "--json",
    ]);
    close(f(&v["volume"]), 1.85054049183, 1e-11);
    close(f(&v["inertia_tensor"][1][1]), 0.415606897124, 1e-11);
    close(f(&v["inertia_tensor"][0][0]), 0.244624139941, 1e-11);
}

#[test]
fn tessellations_converge_to_the_closed_forms() {
    let dir = std::env::temp_dir().join(format!("inertia-shape-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Circle: an inscribed n-gon's polar moment error falls like 1/n².
    let (_, exact, _) = run(&["shape", "circle", "--radius", "1", "--json"]);
    let mut last = f64::INFINITY;
    for n in ["16", "64", "256"] {
        let path = dir.join(format!("circle{n}.json"));
        let p = path.to_str().unwrap();
        run(&[
            "shape",
            "circle",
            "--radius",
            "1",
            "--segments",
            n,
            "--polygon-out",
            p,
        ]);
        let (code, v, err) = run(&["polygon", p, "--method", "all", "--json"]);
        assert_eq!(code, 0, "{err}");
        assert_eq!(v["agree"], true);
        let e = (f(&v["methods"]["fan"]["inertia"]) - f(&exact["inertia"])).abs()
            / f(&exact["inertia"]);
        assert!(e < last / 10.0, "n={n}: {e} vs {last}");
        last = e;
    }
    // Go stone: closed form, tetra and voxel agree within the tessellation's error.
    let (_, exact, _) = run(&[
        "shape", "biconvex", "--width", "2.2", "--height", "0.92", "--mass", "1", "--json",
    ]);
    for (n, tol) in [("64", 5e-3), ("256", 4e-4)] {
        for ext in ["stl", "obj"] {
            let path = dir.join(format!("stone{n}.{ext}"));
            let p = path.to_str().unwrap();
            let (code, _, err) = run(&[
                "shape",
                "biconvex",
                "--width",
                "2.2",
                "--height",
                "0.92",
                "--segments",
                n,
                "--mesh-out",
                p,
            ]);
            assert_eq!(code, 0, "{err}");
            let (code, v, err) = run(&["mesh", p, "--mass", "1", "--method", "all", "--json"]);
            assert_eq!(code, 0, "{err}");
            for m in ["tetra", "voxel"] {
                let t = &v["methods"][m]["inertia_tensor"];
                for k in 0..3 {
                    let want = f(&exact["inertia_tensor"][k][k]);
                    assert!(
                        (f(&t[k][k]) - want).abs() < tol * want,
                        "{m} n={n}: {} vs {want}",
                        t[k][k]
                    );
                }
            }
            assert!(f(&v["max_spread"]) < 1e-4, "{}", v["max_spread"]);
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn method_all_exit_codes() {
    // Exact methods agree to ~1e-16: fine at the default tolerance...
    let (code, v, _) = run(&[
        "polygon",
        "fixtures/polygon/u_shape_cw.csv",
        "--method",
        "all",
        "--json",
    ]);
    assert_eq!(code, 0);
    assert!(f(&v["max_exact_spread"]) < 1e-15);
    // ...but not at tolerance 0: exit 1, the report still printed, one line on stderr.
    let (code, v, err) = run(&[
        "polygon",
        "fixtures/polygon/u_shape_cw.csv",
        "--method",
        "all",
        "--tolerance",
        "0",
        "--json",
    ]);
    assert_eq!(code, 1);
    assert_eq!(v["agree"], false);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("the exact methods disagree"), "{err}");
    // Table form.
    let out = cargo_bin_cmd!("inertia")
        .args([
            "mesh",
            "fixtures/mesh/right_tetrahedron.obj",
            "--method",
            "all",
            "--resolution",
            "300",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("tetra") && text.contains("voxel") && text.contains("spread"),
        "{text}"
    );
    // A voxel report says its grid.
    let (_, v, _) = run(&[
        "mesh",
        "fixtures/mesh/right_tetrahedron.stl",
        "--method",
        "voxel",
        "--resolution",
        "100",
        "--json",
    ]);
    assert_eq!(v["resolution"]["cells"], serde_json::json!([100, 80]));
    assert!((f(&v["volume"]) - 10.0).abs() < 1e-2);
}

#[test]
fn bad_shape_flags() {
    for (args, frag) in [
        (
            vec!["shape", "circle", "--radius", "0"],
            "--radius must be a positive finite number",
        ),
        (
            vec!["shape", "rectangle", "--width", "1", "--height", "nan"],
            "--height must be a positive finite number",
        ),
        (
            vec!["shape", "regular", "--sides", "2", "--side", "1"],
            "--sides must be at least 3, got 2",
        ),
        (vec!["shape", "regular", "--sides", "5"], "--side"),
        (vec!["shape", "box", "--size", "1,2"], "--size takes X,Y,Z"),
        (
            vec!["shape", "sphere", "--radius", "1", "--segments", "2"],
            "--segments must be between 3",
        ),
        (vec!["shape", "cone", "--radius", "1"], "cone"),
        (
            vec![
                "mesh",
                "fixtures/mesh/right_tetrahedron.stl",
                "--resolution",
                "0",
            ],
            "--resolution must be between 1",
        ),
        (
            vec![
                "polygon",
                "fixtures/polygon/l_shape.json",
                "--method",
                "all",
                "--tolerance",
                "-1",
            ],
            "--tolerance",
        ),
    ] {
        let out = cargo_bin_cmd!("inertia").args(&args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(out.stdout.is_empty());
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(frag), "{args:?}: {err}");
    }
}

#[test]
fn mesh_out_is_binary_stl_unless_ascii_is_asked() {
    let dir = std::env::temp_dir().join(format!("inertia-mesh-out-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (bin, text) = (dir.join("ball.stl"), dir.join("ball_ascii.stl"));
    let (b, t) = (bin.to_str().unwrap(), text.to_str().unwrap());
    let ball = ["shape", "sphere", "--radius", "2", "--segments", "48"];
    let (code, _, err) = run(&[&ball[..], &["--mesh-out", b]].concat());
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = run(&[&ball[..], &["--mesh-out", t, "--ascii"]].concat());
    assert_eq!(code, 0, "{err}");
    // Binary: an 84-byte header and count, then 50 bytes a triangle.
    let bytes = std::fs::read(&bin).unwrap();
    let n = u32::from_le_bytes(bytes[80..84].try_into().unwrap()) as usize;
    assert!(n > 1000);
    assert_eq!(bytes.len(), 84 + 50 * n);
    assert!(
        std::fs::read_to_string(&text)
            .unwrap()
            .starts_with("solid ")
    );
    // Both read back as the same closed mesh; the binary one to f32's rounding.
    let (_, vb, _) = run(&["mesh", b, "--json"]);
    let (_, vt, _) = run(&["mesh", t, "--json"]);
    assert_eq!(vb["triangles"], vt["triangles"]);
    let (x, y) = (f(&vb["volume"]), f(&vt["volume"]));
    assert!((x - y).abs() < 1e-6 * y, "{x} {y}");
    // Beyond f32's range, binary STL is refused with the way out; ASCII writes it.
    let huge = dir.join("huge.stl");
    let h = huge.to_str().unwrap();
    let (code, _, err) = run(&["shape", "sphere", "--radius", "1e39", "--mesh-out", h]);
    assert_eq!(code, 2);
    assert!(err.contains("f32") && err.contains("--ascii"), "{err}");
    assert!(!huge.exists());
    let (code, _, err) = run(&[
        "shape",
        "sphere",
        "--radius",
        "1e39",
        "--segments",
        "8",
        "--mesh-out",
        h,
        "--ascii",
    ]);
    assert_eq!(code, 0, "{err}");
    // --ascii says what it is for.
    let (code, _, err) = run(&["shape", "sphere", "--radius", "1", "--ascii"]);
    assert_eq!(code, 2, "{err}");
    std::fs::remove_dir_all(&dir).ok();
}
