//! `inertia combine` and `--shell`, against hand-computed values.

use assert_cmd::cargo::cargo_bin_cmd;
use serde_json::Value;

fn run(args: &[&str], stdin: Option<&str>) -> (i32, String, String) {
    let mut cmd = cargo_bin_cmd!("inertia");
    cmd.args(args);
    if let Some(s) = stdin {
        cmd.write_stdin(s.to_string());
    }
    let out = cmd.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn json(args: &[&str]) -> Value {
    let (code, out, err) = run(args, None);
    assert_eq!(code, 0, "{args:?}: {err}");
    serde_json::from_str(&out).unwrap()
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

#[test]
fn combining_reports_equals_one_mesh_of_both_bodies() {
    let dir = std::env::temp_dir().join(format!("inertia-combine-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cube = dir.join("cube.json");
    let bar = dir.join("bar.json");
    // Reports about other points and in the CAD sign: combine must undo both.
    let (_, text, _) = run(
        &[
            "mesh",
            "fixtures/mesh/unit_cube_ascii.stl",
            "--about",
            "origin",
            "--products",
            "cad",
            "--json",
        ],
        None,
    );
    std::fs::write(&cube, text).unwrap();
    let (_, text, _) = run(&["shape", "box", "--size", "2,1,1", "--json"], None);
    std::fs::write(&bar, text).unwrap();
    let (c, b) = (cube.to_str().unwrap(), bar.to_str().unwrap());
    // The bar is centred on the origin; two_bodies.stl has it at [10,12]×[0,1]×[0,1].
    let v = json(&["combine", c, b, "--translate", "2=11,0.5,0.5", "--json"]);
    let w = json(&["mesh", "fixtures/mesh/two_bodies.stl", "--json"]);
    for key in ["mass", "volume"] {
        assert!((f(&v[key]) - f(&w[key])).abs() < 1e-12, "{key}");
    }
    for r in 0..3 {
        assert!((f(&v["centroid"][r]) - f(&w["centroid"][r])).abs() < 1e-12);
        for c in 0..3 {
            let (x, y) = (f(&v["inertia_tensor"][r][c]), f(&w["inertia_tensor"][r][c]));
            assert!((x - y).abs() < 1e-12 * 75.0, "[{r}][{c}] {x} vs {y}");
        }
    }
    assert_eq!(v["method"], "combine");
    // Turning the bar by 90° about z about its own centre: Izz unchanged, Ixx and Iyy swap
    // in its own frame: Ixx_bar = m(1+1)/12, Iyy_bar = m(4+1)/12.
    let v = json(&["combine", b, "--rotate", "1=z:90", "--json"]);
    assert!((f(&v["inertia_tensor"][0][0]) - 2.0 * 5.0 / 12.0).abs() < 1e-12);
    assert!((f(&v["inertia_tensor"][1][1]) - 2.0 * 2.0 / 12.0).abs() < 1e-12);
    // JSON Lines and multi-file reports are read too.
    let (_, lines, _) = run(
        &[
            "mesh",
            "fixtures/mesh/unit_cube_ascii.stl",
            "fixtures/mesh/right_tetrahedron.obj",
            "--format",
            "jsonl",
        ],
        None,
    );
    let (code, out, err) = run(&["combine", "-", "--json"], Some(&lines));
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert!((f(&v["mass"]) - 11.0).abs() < 1e-12);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn plates_combine_in_their_plane() {
    // Two unit squares side by side: a 2 × 1 rectangle, polar m(4+1)/12 with m = 2.
    let (_, sq, _) = run(
        &["polygon", "fixtures/polygon/unit_square.json", "--json"],
        None,
    );
    let dir = std::env::temp_dir().join(format!("inertia-plates-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("sq.json");
    std::fs::write(&p, sq).unwrap();
    let s = p.to_str().unwrap();
    let v = json(&["combine", s, s, "--translate", "2=1,0", "--json"]);
    assert!((f(&v["inertia"]) - 2.0 * 5.0 / 12.0).abs() < 1e-14);
    assert!((f(&v["centroid"][0]) - 1.0).abs() < 1e-15);
    let (code, _, err) = run(&["combine", s, "--rotate", "1=x:90"], None);
    assert_eq!(code, 2);
    assert!(err.contains("a plate turns only about z"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn combine_refusals() {
    let (_, cube, _) = run(
        &["mesh", "fixtures/mesh/unit_cube_ascii.stl", "--json"],
        None,
    );
    let (_, cube_mm, _) = run(
        &[
            "mesh",
            "fixtures/mesh/unit_cube_ascii.stl",
            "--units",
            "mm",
            "--json",
        ],
        None,
    );
    let (_, square, _) = run(
        &["polygon", "fixtures/polygon/unit_square.json", "--json"],
        None,
    );
    let dir = std::env::temp_dir().join(format!("inertia-refuse-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let w = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p.to_str().unwrap().to_string()
    };
    let (a, b, c, d) = (
        w("a.json", &cube),
        w("b.json", &cube_mm),
        w("c.json", &square),
        w("d.json", "{\"mass\": 1}"),
    );
    for (args, frag) in [
        (vec!["combine", &a, &b], "units differ"),
        (
            vec!["combine", &a, &c],
            "cannot combine a plate with a solid",
        ),
        (vec!["combine", &d], "missing"),
        (
            vec!["combine", &a, "--translate", "2=1,0,0"],
            "not a file position from 1 to 1",
        ),
        (
            vec!["combine", &a, "--translate", "1=1,x,0"],
            "not a list of finite numbers",
        ),
        (vec!["combine", &a, "--rotate", "1=q:90"], "--rotate"),
        (
            vec!["combine", &a, "--rotate", "1=z:ninety"],
            "not an angle",
        ),
    ] {
        let (code, out, err) = run(&args, None);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty());
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.contains(frag), "{args:?}: {err}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn thin_shells() {
    // The unit cube's surface as a 1 mm steel wall: M = 7850 · 0.001 · 6 (units m), I = 5/18 M.
    let v = json(&[
        "mesh",
        "fixtures/mesh/unit_cube_ascii.stl",
        "--shell",
        "0.001",
        "--units",
        "m",
        "--material",
        "steel",
        "--json",
    ]);
    let m = 7850.0 * 0.001 * 6.0;
    assert!((f(&v["mass"]) - m).abs() < 1e-12 * m);
    for k in 0..3 {
        assert!((f(&v["inertia_tensor"][k][k]) - 5.0 / 18.0 * m).abs() < 1e-12 * m);
    }
    assert_eq!(v["method"], "shell");
    // An open surface is fine as a shell (and refused as a solid).
    let v = json(&[
        "mesh",
        "fixtures/bad/open_cube.stl",
        "--shell",
        "0.01",
        "--json",
    ]);
    assert!((f(&v["mass"]) - 0.055).abs() < 1e-15);
    let (code, _, err) = run(
        &["mesh", "fixtures/mesh/unit_cube_ascii.stl", "--shell", "0"],
        None,
    );
    assert_eq!(code, 2);
    assert!(
        err.contains("--shell must be a positive finite number"),
        "{err}"
    );
    let (code, _, err) = run(
        &[
            "mesh",
            "fixtures/mesh/unit_cube_ascii.stl",
            "--shell",
            "1",
            "--method",
            "voxel",
        ],
        None,
    );
    assert_eq!(code, 2);
    assert!(err.contains("--shell is a method of its own"), "{err}");
}

/// A roof of two triangles (a fold along y = 0.5), as OBJ lines from vertex `base` on.
fn roof(base: usize, flipped: bool) -> String {
    let mut s = String::new();
    for [x, y, z] in [
        [0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [1.0, 0.5, 0.25],
        [0.0, 0.5, 0.25],
    ] {
        s += &format!("v {x} {y} {z}\n");
    }
    for [x, y, z] in [[1.0, 1.0, 0.0], [0.0, 1.0, 0.0]] {
        s += &format!("v {x} {y} {z}\n");
    }
    let faces = [[1, 2, 3], [1, 3, 4], [4, 3, 5], [4, 5, 6]];
    for [a, b, c] in faces {
        let [a, b, c] = [a + base, b + base, c + base];
        s += &if flipped {
            format!("f {a} {c} {b}\n")
        } else {
            format!("f {a} {b} {c}\n")
        };
    }
    s
}

#[test]
fn a_sheet_written_twice_is_refused_as_a_shell_and_walls_crossing_are_not() {
    let area = 2.0 * (0.5f64 * 0.5 + 0.25 * 0.25).sqrt();
    let args = [
        "mesh",
        "-",
        "--input-format",
        "obj",
        "--shell",
        "0.01",
        "--json",
    ];
    let (code, out, err) = run(&args, Some(&roof(0, false)));
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert!((f(&v["mass"]) - 0.01 * area).abs() < 1e-15);
    // The same sheet again, either way round (an exporter writing both sides of a
    // surface, or a part pasted twice): its area would count twice.
    for flipped in [false, true] {
        let text = roof(0, false) + &roof(6, flipped);
        let (code, out, err) = run(&args, Some(&text));
        assert_eq!(code, 2, "{err}");
        assert!(out.is_empty());
        assert!(
            err.contains("triangle 1 and triangle 5 lie on each other (coplanar, overlapping)")
                && err.contains("--overlap sum"),
            "{err}"
        );
        let mut summed = args.to_vec();
        summed.extend(["--overlap", "sum"]);
        let (code, out, err) = run(&summed, Some(&text));
        assert_eq!(code, 0, "{err}");
        let v: Value = serde_json::from_str(&out).unwrap();
        assert!((f(&v["mass"]) - 0.02 * area).abs() < 1e-15);
    }
    // Two walls crossing in an X (a rib through a plate) share only a sliver of the order
    // of the thickness squared: accepted, each wall's area counted once.
    let x = "v 0 0 -1\nv 1 0 -1\nv 1 0 1\nv 0 0 1\nv 0 -1 0\nv 1 -1 0\nv 1 1 0\nv 0 1 0\n\
             f 1 2 3\nf 1 3 4\nf 5 6 7\nf 5 7 8\n";
    let (code, out, err) = run(&args, Some(x));
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert!((f(&v["mass"]) - 0.04).abs() < 1e-15);
}

#[test]
fn reports_about_a_far_point_combine_exactly_or_are_refused() {
    // A report printed about a point 1e6 away holds its tensor to ~1e-4 of the box's own
    // moments: moved back to the centroid, Ixx came out 0.166748. Reports now carry the
    // centroidal tensor too; one without it is refused rather than answered from 1 digit.
    let dir = std::env::temp_dir().join(format!("inertia-far-about-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (_, far, _) = run(
        &[
            "shape",
            "box",
            "--size",
            "1,2,3",
            "--about",
            "1e6,1e6,1e6",
            "--json",
        ],
        None,
    );
    let v: Value = serde_json::from_str(&far).unwrap();
    assert!(v["centroidal_inertia_tensor"].is_array());
    let path = dir.join("far.json");
    std::fs::write(&path, &far).unwrap();
    let p = path.to_str().unwrap();
    let c = json(&["combine", p, p, "--translate", "2=10,0,0", "--json"]);
    let m = 6.0; // two boxes of volume 6, 10 apart along x
    let ixx = f(&c["inertia_tensor"][0][0]);
    assert!(
        (ixx - 2.0 * m / 12.0 * (4.0 + 9.0)).abs() < 1e-12 * ixx,
        "{ixx}"
    );
    let iyy = f(&c["inertia_tensor"][1][1]);
    let expected = 2.0 * m / 12.0 * (1.0 + 9.0) + 2.0 * m * 25.0;
    assert!((iyy - expected).abs() < 1e-12 * iyy, "{iyy} vs {expected}");
    // Without the centroidal tensor (a report from before, or trimmed): refused, naming
    // the digits left.
    let mut old = v.clone();
    old.as_object_mut()
        .unwrap()
        .remove("centroidal_inertia_tensor");
    let path = dir.join("old.json");
    std::fs::write(&path, old.to_string()).unwrap();
    let (code, out, err) = run(&["combine", path.to_str().unwrap()], None);
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert!(
        err.contains("far from its centroid") && err.contains("significant digits"),
        "{err}"
    );
    // An edited centroidal tensor that is no longer a body's is refused.
    let mut edited = v.clone();
    edited["centroidal_inertia_tensor"][0][1] = serde_json::json!(5.0);
    edited["centroidal_inertia_tensor"][1][0] = serde_json::json!(5.0);
    let path = dir.join("edited.json");
    std::fs::write(&path, edited.to_string()).unwrap();
    let (code, _, err) = run(&["combine", path.to_str().unwrap()], None);
    assert_eq!(code, 2, "{err}");
    // Planar reports alike.
    let (_, far, _) = run(
        &[
            "shape",
            "rectangle",
            "--width",
            "2",
            "--height",
            "1",
            "--about",
            "1e7,0",
            "--json",
        ],
        None,
    );
    let v: Value = serde_json::from_str(&far).unwrap();
    assert!(v["centroidal_mass_moments"].is_object(), "{v}");
    let path = dir.join("plate.json");
    std::fs::write(&path, &far).unwrap();
    let c = json(&["combine", path.to_str().unwrap(), "--json"]);
    let iyy = f(&c["mass_moments"]["iyy"]);
    assert!((iyy - 2.0 * 4.0 / 12.0).abs() < 1e-15, "{iyy}");
    let mut old = v.clone();
    old.as_object_mut()
        .unwrap()
        .remove("centroidal_mass_moments");
    let path = dir.join("plate_old.json");
    std::fs::write(&path, old.to_string()).unwrap();
    let (code, _, err) = run(&["combine", path.to_str().unwrap()], None);
    assert!(code == 2 && err.contains("far from its centroid"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_axis_is_printed_as_its_unit_direction() {
    // `--axis 2,0,0` is the x axis: printed [1, 0, 0], as docs/output.md says, and the moment
    // about it is the tensor's Ixx.
    let v = json(&[
        "shape", "box", "--size", "1,2,3", "--axis", "0,0,2", "--json",
    ]);
    assert_eq!(v["axis"], serde_json::json!([0.0, 0.0, 1.0]));
    assert_eq!(f(&v["axis_moment"]), f(&v["inertia_tensor"][2][2]));
    let v = json(&[
        "shape",
        "box",
        "--size",
        "1,2,3",
        "--axis",
        "3e-300,4e-300,0",
        "--json",
    ]);
    let a = &v["axis"];
    assert!(
        (f(&a[0]) - 0.6).abs() < 2e-16 && (f(&a[1]) - 0.8).abs() < 2e-16,
        "{a}"
    );
    let v = json(&[
        "shape",
        "rectangle",
        "--width",
        "2",
        "--height",
        "1",
        "--axis",
        "0,5",
        "--json",
    ]);
    assert_eq!(v["axis"], serde_json::json!([0.0, 1.0]));
}

#[test]
fn a_mesh_given_to_polygon_or_a_polygon_to_mesh_is_pointed_to_the_other_command() {
    let (code, out, err) = run(&["polygon", "fixtures/mesh/unit_cube_ascii.stl"], None);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(
        err.contains("a triangle mesh by its name: `inertia mesh` reads it"),
        "{err}"
    );
    let (code, out, err) = run(&["mesh", "fixtures/polygon/hexagon.json"], None);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(
        err.contains("a polygon file by its name: `inertia polygon` reads it"),
        "{err}"
    );
    // Without a name to go by (standard input), by the content.
    let stl = std::fs::read_to_string("fixtures/mesh/unit_cube_ascii.stl").unwrap();
    let (code, out, err) = run(&["polygon", "-"], Some(&stl));
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(
        err.contains("a triangle mesh by its content: `inertia mesh` reads it"),
        "{err}"
    );
    let hexagon = std::fs::read_to_string("fixtures/polygon/hexagon.json").unwrap();
    let (code, out, err) = run(&["mesh", "-"], Some(&hexagon));
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(
        err.contains("a polygon file by its content: `inertia polygon` reads it"),
        "{err}"
    );
    // A density given is printed as given, whatever the output unit.
    let v = json(&[
        "mesh",
        "fixtures/mesh/unit_cube_ascii.stl",
        "--units",
        "m",
        "--output-units",
        "mm",
        "--density",
        "7850",
        "--json",
    ]);
    assert_eq!(v["density"], serde_json::json!(7850.0));
}

#[test]
fn tables_print_rounding_noise_as_zero_and_json_keeps_it() {
    // A regular hexagon's Ixy is 0; its sums leave -1.04e-16 beside moments of 0.54.
    let (code, out, _) = run(&["polygon", "fixtures/polygon/hexagon.json"], None);
    assert_eq!(code, 0);
    let ixy = out.lines().find(|l| l.contains("Ixy = −∫xy dm")).unwrap();
    assert!(ixy.split_whitespace().nth(4) == Some("0"), "{ixy}");
    assert!(!out.contains("e-16"), "{out}");
    let v = json(&["polygon", "fixtures/polygon/hexagon.json", "--json"]);
    // JSON keeps every digit it has (here the noise, below 1e-15).
    assert!(f(&v["mass_moments"]["ixy"]).abs() < 1e-15);
}

#[test]
fn an_assembly_with_a_part_that_is_not_a_mesh_prints_no_triangle_count() {
    let dir = std::env::temp_dir().join(format!("inertia-mixed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (cube, box_) = (dir.join("cube.json"), dir.join("box.json"));
    let (_, text, _) = run(
        &["mesh", "fixtures/mesh/unit_cube_ascii.stl", "--json"],
        None,
    );
    std::fs::write(&cube, text).unwrap();
    let (_, text, _) = run(&["shape", "box", "--size", "1,2,3", "--json"], None);
    std::fs::write(&box_, text).unwrap();
    let (cube, box_) = (cube.to_str().unwrap(), box_.to_str().unwrap());
    // A mesh and a closed-form box: the cube's 12 triangles are not the assembly's.
    let mixed = json(&["combine", cube, box_, "--json"]);
    for key in ["triangles", "degenerate_triangles", "vertices"] {
        assert!(mixed.get(key).is_none(), "{key}: {mixed}");
    }
    assert_eq!(f(&mixed["volume"]), 7.0);
    let (code, text, err) = run(&["combine", cube, box_], None);
    assert_eq!(code, 0, "{err}");
    assert!(!text.contains("triangles"), "{text}");
    // Two meshes: their counts add.
    let meshes = json(&["combine", cube, cube, "--json"]);
    assert_eq!(meshes["triangles"], 24);
    assert_eq!(meshes["vertices"], 16);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_unit_box_printed_about_a_far_point_combines_to_its_own_tensor() {
    // Before, --about 1e6,1e6,1e6 gave Ixx 0.166748 and --about 1e8,0,0 Iyy = Izz = 0 with
    // exit 0: the tensor was moved back from the far point. Every report now carries its
    // tensor about its own centroid, and combine reads that one.
    let dir = std::env::temp_dir().join(format!("inertia-unit-box-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for about in ["1e6,1e6,1e6", "1e8,0,0"] {
        let (code, far, err) = run(
            &[
                "shape", "box", "--size", "1,1,1", "--about", about, "--json",
            ],
            None,
        );
        assert_eq!(code, 0, "{err}");
        let path = dir.join("far.json");
        std::fs::write(&path, &far).unwrap();
        let c = json(&["combine", path.to_str().unwrap(), "--json"]);
        let t = &c["inertia_tensor"];
        for i in 0..3 {
            for j in 0..3 {
                let want = if i == j { 1.0 / 6.0 } else { 0.0 };
                assert!((f(&t[i][j]) - want).abs() <= 1e-12 / 6.0, "{about}: {t}");
            }
        }
        for m in c["principal"]["moments"].as_array().unwrap() {
            assert!((f(m) * 6.0 - 1.0).abs() <= 1e-12, "{about}: {m}");
        }
        // The same report without its centroidal tensor (as printed before it was carried)
        // cannot be recovered to 1e-12: refused in one line naming the file, exit 2.
        let mut old: Value = serde_json::from_str(&far).unwrap();
        old.as_object_mut()
            .unwrap()
            .remove("centroidal_inertia_tensor");
        let path = dir.join("old.json");
        std::fs::write(&path, old.to_string()).unwrap();
        let (code, out, err) = run(&["combine", path.to_str().unwrap()], None);
        assert_eq!((code, out.as_str()), (2, ""), "{about}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(
            err.contains("old.json") && err.contains("far from its centroid"),
            "{about}: {err}"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn combine_reads_only_the_schema_version_it_knows() {
    let dir = std::env::temp_dir().join(format!("inertia-schema-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (_, cube, _) = run(&["shape", "box", "--size", "1,2,3", "--json"], None);
    let v: Value = serde_json::from_str(&cube).unwrap();
    assert_eq!(v["schema_version"], 1);
    let write = |name: &str, v: &Value| {
        let p = dir.join(name);
        std::fs::write(&p, v.to_string()).unwrap();
        p.to_str().unwrap().to_string()
    };
    let mut newer = v.clone();
    newer["schema_version"] = 2.into();
    let mut none = v.clone();
    none.as_object_mut().unwrap().remove("schema_version");
    let mut mistyped = v.clone();
    mistyped["volume"] = "six".into();
    for (name, doc, words) in [
        (
            "newer.json",
            &newer,
            "schema_version 2 is not one this inertia reads",
        ),
        ("none.json", &none, "missing \"schema_version\""),
        (
            "mistyped.json",
            &mistyped,
            "invalid type: string \"six\", expected f64",
        ),
    ] {
        let p = write(name, doc);
        let (code, out, err) = run(&["combine", &p], None);
        assert_eq!((code, out.as_str()), (2, ""), "{name}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.contains(name) && err.contains(words), "{name}: {err}");
    }
    // A JSON Lines line of another version is named by its line.
    let text = format!("{}\n{}\n", v, newer);
    let (code, _, err) = run(&["combine", "-"], Some(&text));
    assert_eq!(code, 2);
    assert!(err.contains("line 2: schema_version 2"), "{err}");
    // The version it knows reads back every number of the report to the bit.
    let p = write("same.json", &v);
    let c = json(&["combine", &p, "--json"]);
    assert_eq!(c["inertia_tensor"], v["inertia_tensor"]);
    assert_eq!(c["centroid"], v["centroid"]);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_report_with_a_cad_colour_and_material_combines() {
    // A STEP part's report carries "color" and "material" (feature `step`); combine reads
    // them back with the rest of the report and sums it as any other.
    let dir = std::env::temp_dir().join(format!("inertia-colour-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (_, cube, _) = run(
        &[
            "shape",
            "box",
            "--size",
            "1,2,3",
            "--density",
            "2700",
            "--json",
        ],
        None,
    );
    let mut v: Value = serde_json::from_str(&cube).unwrap();
    v["color"] = serde_json::json!([0.8, 0.2, 0.1]);
    v["material"] =
        serde_json::json!({"name": "aluminium 6061", "density": 2700.0, "density_used": true});
    let p = dir.join("coloured.json");
    std::fs::write(&p, v.to_string()).unwrap();
    let p = p.to_str().unwrap();
    let c = json(&["combine", p, p, "--json"]);
    assert_eq!(f(&c["mass"]), 2.0 * f(&v["mass"]));
    assert_eq!(c["centroid"], v["centroid"]);
    // A material without its density (the file gave none) reads too.
    v["material"] = serde_json::json!({"name": "", "density_used": false});
    std::fs::write(p, v.to_string()).unwrap();
    let c = json(&["combine", p, "--json"]);
    assert_eq!(c["inertia_tensor"], v["inertia_tensor"]);
    // A mistyped one is named, as any mistyped field is.
    v["color"] = "red".into();
    std::fs::write(p, v.to_string()).unwrap();
    let (code, _, err) = run(&["combine", p], None);
    assert_eq!(code, 2);
    assert!(err.contains("invalid type: string \"red\""), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// `combine` reads back each report's `method` (and a plate's `winding`): every name a
/// command writes combines, any other is refused in one line naming the file and the field;
/// the sum says `combine`, and the winding its plates share.
#[test]
fn combine_checks_the_method_and_winding_it_reads_back() {
    let dir = std::env::temp_dir().join(format!("inertia-names-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cube = "fixtures/mesh/unit_cube_ascii.stl";
    let square = "fixtures/polygon/l_shape.json";
    let cw = "fixtures/polygon/u_shape_cw.csv";
    let writers: [(&str, &[&str]); 8] = [
        ("fan", &["polygon", square]),
        (
            "right-triangle",
            &["polygon", square, "--method", "right-triangle"],
        ),
        ("centroid", &["polygon", square, "--method", "centroid"]),
        ("tetra", &["mesh", cube]),
        ("voxel", &["mesh", cube, "--method", "voxel"]),
        ("shell", &["mesh", cube, "--shell", "0.01"]),
        ("closed-form", &["shape", "box", "--size", "1,2,3"]),
        ("closed-form", &["shape", "circle", "--radius", "1"]),
    ];
    for (k, (method, args)) in writers.iter().enumerate() {
        let mut args = args.to_vec();
        args.push("--json");
        let v = json(&args);
        assert_eq!(v["method"], *method, "{args:?}");
        let p = dir.join(format!("{k}.json"));
        std::fs::write(&p, v.to_string()).unwrap();
        let c = json(&["combine", p.to_str().unwrap(), "--json"]);
        assert_eq!(c["method"], "combine", "{args:?}");
        // A combined report combines again.
        std::fs::write(&p, c.to_string()).unwrap();
        let again = json(&["combine", p.to_str().unwrap(), "--json"]);
        assert_eq!(again["mass"], c["mass"], "{args:?}");
    }
    // The winding the plates share is kept; plates of both windings say ccw.
    let write = |name: &str, v: &Value| {
        let p = dir.join(name);
        std::fs::write(&p, v.to_string()).unwrap();
        p.to_str().unwrap().to_string()
    };
    let u = json(&["polygon", cw, "--json"]);
    assert_eq!(u["winding"], "cw");
    let l = json(&["polygon", square, "--json"]);
    assert_eq!(l["winding"], "ccw");
    let (u, l) = (write("u.json", &u), write("l.json", &l));
    assert_eq!(json(&["combine", &u, &u, "--json"])["winding"], "cw");
    assert_eq!(json(&["combine", &u, &l, "--json"])["winding"], "ccw");
    // A name no command writes is refused, naming the file and the field.
    let v = json(&["shape", "box", "--size", "1,2,3", "--json"]);
    let mut odd = v.clone();
    odd["method"] = "magic".into();
    let mut missing = v.clone();
    missing.as_object_mut().unwrap().remove("method");
    let mut plate = json(&["polygon", square, "--json"]);
    plate["winding"] = "sideways".into();
    for (name, doc, words) in [
        ("odd.json", &odd, "\"method\" is \"magic\""),
        ("missing.json", &missing, "missing field `method`"),
        ("plate.json", &plate, "\"winding\" is \"sideways\""),
    ] {
        let p = write(name, doc);
        let (code, out, err) = run(&["combine", &p], None);
        assert_eq!((code, out.as_str()), (2, ""), "{name}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.contains(name) && err.contains(words), "{name}: {err}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_move_of_reports_read_in_mm_and_printed_in_metres_needs_its_unit() {
    // `--units mm` reports are printed in metres: `--translate 2=0,0,-4` moved the part 4 m
    // where the engineer meant 4 mm. A bare number is now refused there; with its unit it
    // is read as written.
    let dir = std::env::temp_dir().join(format!("inertia-translate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let tet = dir.join("tet.json");
    let (_, text, _) = run(
        &[
            "mesh",
            "fixtures/mesh/right_tetrahedron.stl",
            "--units",
            "mm",
            "--json",
        ],
        None,
    );
    std::fs::write(&tet, text).unwrap();
    let t = tet.to_str().unwrap();
    let (code, out, err) = run(&["combine", t, t, "--translate", "2=0,0,-4"], None);
    assert_eq!(code, 2, "{out}");
    assert!(
        out.is_empty()
            && err.contains("read in mm and is printed in m")
            && err.contains("0,0,-4mm"),
        "{err}"
    );
    let one = json(&[
        "mesh",
        "fixtures/mesh/right_tetrahedron.stl",
        "--units",
        "mm",
        "--json",
    ]);
    for (mv, dz) in [
        ("2=0,0,-4mm", -4e-3),
        ("2=0,0,-0.004m", -4e-3),
        ("2=0,0,-1in", -0.0254),
    ] {
        let v = json(&["combine", t, t, "--translate", mv, "--json"]);
        let want = f(&one["centroid"][2]) + dz / 2.0;
        assert!((f(&v["centroid"][2]) - want).abs() < 1e-15, "{mv}: {v}");
    }
    // Reports in the input's own unit (no --units): a bare number is that unit; a unit
    // cannot be placed.
    let plain = dir.join("plain.json");
    let (_, text, _) = run(
        &["mesh", "fixtures/mesh/right_tetrahedron.stl", "--json"],
        None,
    );
    std::fs::write(&plain, text).unwrap();
    let p = plain.to_str().unwrap();
    let v = json(&["combine", p, p, "--translate", "2=0,0,-4", "--json"]);
    assert!((f(&v["centroid"][2]) - (0.75 - 2.0)).abs() < 1e-12, "{v}");
    let (code, _, err) = run(&["combine", p, p, "--translate", "2=0,0,-4mm"], None);
    assert_eq!(code, 2);
    assert!(err.contains("states no length unit"), "{err}");
}
