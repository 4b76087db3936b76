//! `inertia mesh` end to end, over the files in `fixtures/mesh` and `fixtures/bad`.

use assert_cmd::cargo::cargo_bin_cmd;
use serde_json::Value;

struct Expected {
    file: &'static str,
    volume: f64,
    centroid: [f64; 3],
    /// Inertia tensor about the centroid for density 1, tensor convention (−∫xy dm).
    tensor: [[f64; 3]; 3],
    triangles: u64,
    shells: u64,
    cavities: u64,
    inside_out: bool,
    surface_area: f64,
}

/// The right tetrahedron (0,0,0), (5,0,0), (0,4,0), (0,0,3): volume 10, centroid
/// (1.25, 1, 0.75), Ixx 75/8, Iyy 51/4, Izz 123/8, products ∫xy = −5/2, ∫xz = −15/8,
/// ∫yz = −3/2 about the centroid (so +5/2, +15/8, +3/2 in the tensor).
const TET: [[f64; 3]; 3] = [
    [75.0 / 8.0, 2.5, 15.0 / 8.0],
    [2.5, 51.0 / 4.0, 1.5],
    [15.0 / 8.0, 1.5, 123.0 / 8.0],
];

fn tet_area() -> f64 {
    // Faces: 10 (xy), 7.5 (xz), 6 (yz) and the slanted one: |(−5,4,0)×(−5,0,3)|/2.
    let n = [12.0f64, 15.0, 20.0];
    10.0 + 7.5 + 6.0 + 0.5 * (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt()
}

fn expected() -> Vec<Expected> {
    let tet = |file, centroid| Expected {
        file,
        volume: 10.0,
        centroid,
        tensor: TET,
        triangles: 4,
        shells: 1,
        cavities: 0,
        inside_out: false,
        surface_area: tet_area(),
    };
    let sixth = 1.0 / 6.0;
    // Box [0,4]³ with a cavity [1,2]³: volume 63, centroid c = 126.5/63 on each axis;
    // Ixx = 64·32/12 + 64·2(2−c)² − (2/12 + 2(1.5−c)²); −∫xy = −(64(2−c)² − (1.5−c)²).
    let c = 126.5 / 63.0;
    let (d, e) = (2.0 - c, 1.5 - c);
    let diag = 64.0 * 32.0 / 12.0 + 128.0 * d * d - (2.0 / 12.0 + 2.0 * e * e);
    let off = -(64.0 * d * d - e * e);
    // Unit cube at the origin plus a 2×1×1 bar at x ∈ [10, 12]: centroid x = 7.5.
    let (bx, cx) = (11.0 - 7.5, 0.5 - 7.5);
    vec![
        tet("right_tetrahedron.stl", [1.25, 1.0, 0.75]),
        tet("right_tetrahedron_ascii.stl", [1.25, 1.0, 0.75]),
        tet("right_tetrahedron.obj", [1.25, 1.0, 0.75]),
        tet(
            "right_tetrahedron_1e6.obj",
            [1e6 + 1.25, -1e6 + 1.0, 1e6 + 0.75],
        ),
        Expected {
            file: "unit_cube_ascii.stl",
            volume: 1.0,
            centroid: [0.5; 3],
            tensor: [[sixth, 0.0, 0.0], [0.0, sixth, 0.0], [0.0, 0.0, sixth]],
            triangles: 12,
            shells: 1,
            cavities: 0,
            inside_out: false,
            surface_area: 6.0,
        },
        Expected {
            file: "unit_cube_quads.ply",
            volume: 1.0,
            centroid: [0.5; 3],
            tensor: [[sixth, 0.0, 0.0], [0.0, sixth, 0.0], [0.0, 0.0, sixth]],
            triangles: 12,
            shells: 1,
            cavities: 0,
            inside_out: false,
            surface_area: 6.0,
        },
        Expected {
            file: "unit_cube_inside_out.stl",
            volume: 1.0,
            centroid: [0.5; 3],
            tensor: [[sixth, 0.0, 0.0], [0.0, sixth, 0.0], [0.0, 0.0, sixth]],
            triangles: 12,
            shells: 1,
            cavities: 0,
            inside_out: true,
            surface_area: 6.0,
        },
        Expected {
            file: "box_with_cavity.obj",
            volume: 63.0,
            centroid: [c; 3],
            tensor: [[diag, off, off], [off, diag, off], [off, off, diag]],
            triangles: 24,
            shells: 2,
            cavities: 1,
            inside_out: false,
            surface_area: 96.0 + 6.0,
        },
        Expected {
            file: "two_bodies.stl",
            volume: 3.0,
            centroid: [7.5, 0.5, 0.5],
            tensor: [
                [2.0 / 12.0 + 2.0 * 2.0 / 12.0, 0.0, 0.0],
                [
                    0.0,
                    2.0 / 12.0 + 2.0 * 5.0 / 12.0 + 2.0 * bx * bx + cx * cx,
                    0.0,
                ],
                [
                    0.0,
                    0.0,
                    2.0 / 12.0 + 2.0 * 5.0 / 12.0 + 2.0 * bx * bx + cx * cx,
                ],
            ],
            triangles: 24,
            shells: 2,
            cavities: 0,
            inside_out: false,
            surface_area: 6.0 + 10.0,
        },
    ]
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

#[test]
fn every_fixture_with_density_and_mass() {
    for e in expected() {
        let path = format!("fixtures/mesh/{}", e.file);
        for (flag, value, density) in [
            ("--density", "7850", 7850.0),
            ("--mass", "5", 5.0 / e.volume),
        ] {
            let out = cargo_bin_cmd!("inertia")
                .args(["mesh", &path, flag, value, "--json"])
                .output()
                .unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(out.status.success(), "{path}: {err}");
            assert_eq!(err.contains("inside-out"), e.inside_out, "{path}: {err}");
            let v: Value = serde_json::from_slice(&out.stdout).unwrap();
            let what = format!("{} {flag}", e.file);
            assert_eq!(v["method"], "tetra");
            assert_eq!(v["triangles"], e.triangles, "{what}");
            assert_eq!(v["shells"], e.shells, "{what}");
            assert_eq!(v["cavities"], e.cavities, "{what}");
            assert_eq!(v["inside_out"], e.inside_out, "{what}");
            let close = |got: f64, want: f64, scale: f64| {
                assert!(
                    (got - want).abs() <= 1e-12 * scale,
                    "{what}: got {got}, want {want}"
                );
            };
            close(f(&v["volume"]), e.volume, e.volume);
            close(f(&v["mass"]), density * e.volume, density * e.volume);
            close(f(&v["surface_area"]), e.surface_area, e.surface_area);
            for k in 0..3 {
                close(
                    f(&v["centroid"][k]),
                    e.centroid[k],
                    e.centroid[k].abs().max(1.0),
                );
            }
            let scale = density * e.tensor[0][0].max(e.tensor[1][1]).max(e.tensor[2][2]);
            for r in 0..3 {
                for c in 0..3 {
                    close(
                        f(&v["inertia_tensor"][r][c]),
                        density * e.tensor[r][c],
                        scale,
                    );
                }
            }
            // Principal axes: unit, right-handed, and eigenvectors of the tensor.
            let axes: Vec<[f64; 3]> = (0..3)
                .map(|k| [0, 1, 2].map(|i| f(&v["principal"]["axes"][k][i])))
                .collect();
            let cross = [
                axes[0][1] * axes[1][2] - axes[0][2] * axes[1][1],
                axes[0][2] * axes[1][0] - axes[0][0] * axes[1][2],
                axes[0][0] * axes[1][1] - axes[0][1] * axes[1][0],
            ];
            for i in 0..3 {
                assert!(
                    (cross[i] - axes[2][i]).abs() < 1e-9,
                    "{what}: not right-handed"
                );
            }
            let m = [0, 1, 2].map(|k| f(&v["principal"]["moments"][k]));
            assert!(m[0] <= m[1] && m[1] <= m[2], "{what}: {m:?}");
            // Physical: each principal moment at most the sum of the other two.
            assert!(m[2] <= (m[0] + m[1]) * (1.0 + 1e-12), "{what}: {m:?}");
        }
    }
}

#[test]
fn about_origin_and_point() {
    // Right tetrahedron about the origin: Ixx = ∫(y²+z²) = m/10 (4² + 3²)... by the vertex
    // formula ∫y² = V/10 Σ yᵢ² (one vertex off zero per axis) = 10/10 · 16 = 16, ∫z² = 9,
    // ∫x² = 25: Ixx = 25, Iyy = 34, Izz = 41; ∫xy = V/20 Σ... = 0 + 0 → 10/20·(0 + 5·4) = 10.
    let out = cargo_bin_cmd!("inertia")
        .args([
            "mesh",
            "fixtures/mesh/right_tetrahedron.obj",
            "--about",
            "origin",
            "--json",
        ])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let t = &v["inertia_tensor"];
    for (got, want) in [
        (&t[0][0], 25.0),
        (&t[1][1], 34.0),
        (&t[2][2], 41.0),
        (&t[0][1], -10.0),
    ] {
        assert!((f(got) - want).abs() < 1e-12 * 41.0, "{got} vs {want}");
    }
    assert_eq!(v["about"], serde_json::json!([0.0, 0.0, 0.0]));
    // --about with a point equal to the centroid gives the centroidal tensor.
    let out = cargo_bin_cmd!("inertia")
        .args([
            "mesh",
            "fixtures/mesh/right_tetrahedron.stl",
            "--about=1.25,1,0.75",
            "--json",
        ])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!((f(&v["inertia_tensor"][0][0]) - 75.0 / 8.0).abs() < 1e-12);
}

#[test]
fn stdin_sniffs_or_takes_the_format() {
    let bytes = std::fs::read("fixtures/mesh/right_tetrahedron.stl").unwrap();
    for args in [
        vec!["mesh", "-", "--json"],
        vec!["mesh", "-", "--input-format", "stl", "--json"],
    ] {
        let out = cargo_bin_cmd!("inertia")
            .args(&args)
            .write_stdin(bytes.clone())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert!((f(&v["volume"]) - 10.0).abs() < 1e-12);
    }
    let obj = std::fs::read("fixtures/mesh/right_tetrahedron.obj").unwrap();
    let out = cargo_bin_cmd!("inertia")
        .args(["mesh", "-", "--json"])
        .write_stdin(obj)
        .output()
        .unwrap();
    assert!(out.status.success());
}

#[test]
fn table_output() {
    let out = cargo_bin_cmd!("inertia")
        .args(["mesh", "fixtures/mesh/right_tetrahedron.stl", "--mass", "5"])
        .output()
        .unwrap();
    assert!(out.status.success());
    insta::assert_snapshot!(crate::common::stable(
        &String::from_utf8(out.stdout).unwrap()
    ));
}

#[test]
fn three_mf_bodies_and_total() {
    let out = cargo_bin_cmd!("inertia")
        // The file states millimetres: results in mm with 1 kg/mm³ (1e9 kg/m³) keep the
        // geometry's own numbers.
        .args([
            "mesh",
            "fixtures/mesh/two_parts.3mf",
            "--output-units",
            "mm",
            "--density",
            "1e9",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let parts = v["parts"].as_array().unwrap();
    assert_eq!(parts.len(), 2);
    assert_eq!(
        parts[0]["source"],
        "fixtures/mesh/two_parts.3mf: tetrahedron"
    );
    assert!((f(&parts[1]["centroid"][0]) - 10.5).abs() < 1e-12);
    // Total: the tetrahedron (10 at (1.25, 1, 0.75)) and the cube moved by 10 in x (1 at (10.5, 0.5, 0.5)).
    let t = &v["total"];
    assert!((f(&t["volume"]) - 11.0).abs() < 1e-12);
    assert!((f(&t["centroid"][0]) - (12.5 + 10.5) / 11.0).abs() < 1e-12);
    // Each body's tensor is the exact one.
    for r in 0..3 {
        for c in 0..3 {
            assert!((f(&parts[0]["inertia_tensor"][r][c]) - TET[r][c]).abs() < 1e-12 * 16.0);
        }
    }
}

#[test]
fn the_triangle_limit_holds_for_every_mesh_format_and_only_mesh_takes_it() {
    // Binary and ASCII STL (read in place, past the general reader) as well as OBJ and PLY.
    for (file, triangles) in [
        ("right_tetrahedron.stl", 4),
        ("unit_cube_ascii.stl", 12),
        ("right_tetrahedron.obj", 4),
        ("right_tetrahedron.ply", 4),
    ] {
        let path = format!("fixtures/mesh/{file}");
        let below = (triangles - 1).to_string();
        let out = cargo_bin_cmd!("inertia")
            .args(["mesh", &path, "--max-triangles", &below])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{file}: {err}");
        assert!(out.stdout.is_empty(), "{file}");
        assert_eq!(err.lines().count(), 1, "{file}: {err}");
        assert!(
            err.contains(&format!("holds {triangles} triangles, more than {below}")),
            "{file}: {err}"
        );
        let at = triangles.to_string();
        cargo_bin_cmd!("inertia")
            .args(["mesh", &path, "--max-triangles", &at])
            .assert()
            .success();
    }
    // A polygon has no triangles to count: the flag is not in its help, and refused there.
    let help = cargo_bin_cmd!("inertia")
        .args(["polygon", "--help"])
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&help.stdout).contains("--max-triangles"));
    cargo_bin_cmd!("inertia")
        .args([
            "polygon",
            "fixtures/polygon/l_shape.json",
            "--max-triangles",
            "5",
        ])
        .assert()
        .code(2);
}

#[test]
fn a_facet_normal_that_is_not_a_number_is_read_past() {
    // PrusaSlicer's own test file writes `+inf -inf weirdvalue`; normals are never used
    // (the corners' order says which way a facet faces), so the unit tetrahedron is
    // answered as its corners say: volume 1/6, centroid (1/4, 1/4, 1/4).
    let facets = [
        ("+inf -inf weirdvalue", [[0, 0, 0], [0, 1, 0], [1, 0, 0]]),
        ("nan -nan inf", [[0, 0, 0], [1, 0, 0], [0, 0, 1]]),
        ("0 0 0", [[0, 0, 0], [0, 0, 1], [0, 1, 0]]),
        ("x y z", [[1, 0, 0], [0, 1, 0], [0, 0, 1]]),
    ];
    let mut stl = String::from("solid t\n");
    for (normal, corners) in facets {
        stl += &format!("facet normal {normal}\nouter loop\n");
        for [x, y, z] in corners {
            stl += &format!("vertex {x} {y} {z}\n");
        }
        stl += "endloop\nendfacet\n";
    }
    stl += "endsolid t\n";
    let out = cargo_bin_cmd!("inertia")
        .args(["mesh", "-", "--input-format", "stl", "--json"])
        .write_stdin(stl.clone())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        (v["volume"].as_f64().unwrap() - 1.0 / 6.0).abs() < 1e-15,
        "{v}"
    );
    for k in 0..3 {
        assert!(
            (v["centroid"][k].as_f64().unwrap() - 0.25).abs() < 1e-15,
            "{v}"
        );
    }
    // Read past with one warning naming how many and the first; `0 0 0` is a normal.
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "inertia: warning: <stdin>: 3 facet normal(s) not three finite numbers (the first at \
         triangle 1) read past: normals are not used, each facet's corners say which way it faces\n"
    );
    // The same through the general path (a thin wall) and through the library.
    let wall = cargo_bin_cmd!("inertia")
        .args(["mesh", "-", "--input-format", "stl", "--shell", "0.01"])
        .write_stdin(stl.clone())
        .output()
        .unwrap();
    assert!(wall.status.success());
    assert!(
        String::from_utf8_lossy(&wall.stderr).contains("3 facet normal(s) not three finite"),
        "{}",
        String::from_utf8_lossy(&wall.stderr)
    );
    let solids = inertia::solid::read_solids(
        stl.as_bytes(),
        inertia::io::MeshFormat::Stl,
        &inertia::solid::Options::default(),
    )
    .unwrap();
    assert!(matches!(
        solids[0].warnings[..],
        [inertia::Warning::NormalsUnread { count: 3, first: 1 }]
    ));
}
