//! Issue "Never a silent wrong answer on real files": each case that used to print a
//! plausible wrong number with exit 0 is either answered right (checked against exact
//! values) or refused with one line on stderr and exit 2.

use crate::common;

use assert_cmd::cargo::cargo_bin_cmd;
use common::boxes_obj;
use serde_json::Value;
use std::path::PathBuf;

/// Runs `inertia` and returns (exit code, stdout as JSON or Null, stderr).
fn run(args: &[&str], stdin: Option<&str>) -> (i32, Value, String) {
    let mut cmd = cargo_bin_cmd!("inertia");
    if let Some(s) = stdin {
        cmd.write_stdin(s.to_string());
    }
    let out = cmd.args(args).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    let v = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    (out.status.code().unwrap_or(-1), v, err)
}

/// Asserts a clean refusal: exit 2, nothing on stdout, one stderr line holding `words`.
fn refused(args: &[&str], stdin: Option<&str>, words: &[&str]) {
    let mut cmd = cargo_bin_cmd!("inertia");
    if let Some(s) = stdin {
        cmd.write_stdin(s.to_string());
    }
    let out = cmd.args(args).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: stderr {err}");
    assert!(
        out.stdout.is_empty(),
        "{args:?}: printed {}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    for w in words {
        assert!(err.contains(w), "{args:?}: {err:?} lacks {w:?}");
    }
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

fn temp(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("inertia-never-silent-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

// --- 1. Overlapping and duplicated bodies

/// How the refusal of overlapping bodies says to unite them.
#[cfg(feature = "union")]
const UNITE: &str = "give --overlap union";
#[cfg(not(feature = "union"))]
const UNITE: &str = "union them first";

#[test]
fn overlapping_bodies_are_refused_and_touching_ones_pass() {
    let cube = std::fs::read("fixtures/mesh/unit_cube_ascii.stl").unwrap();
    let twice = temp(
        "twice.stl",
        &String::from_utf8([cube.clone(), cube].concat()).unwrap(),
    );
    refused(
        &["mesh", twice.to_str().unwrap()],
        None,
        &["twice.stl", "coincide", "--overlap sum"],
    );
    let half = temp(
        "half.obj",
        &boxes_obj(&[
            ([0.0; 3], [1.0; 3], false),
            ([0.5, 0.0, 0.0], [1.0; 3], false),
        ]),
    );
    refused(
        &["mesh", half.to_str().unwrap()],
        None,
        &["half.obj", "triangle 1 and triangle 13 coincide"],
    );
    let skew = temp(
        "skew.obj",
        &boxes_obj(&[
            ([0.0; 3], [1.0; 3], false),
            ([0.5, 0.25, 0.125], [1.0; 3], false),
        ]),
    );
    refused(&["mesh", skew.to_str().unwrap()], None, &["cross at"]);
    refused(
        &["mesh", skew.to_str().unwrap(), "--method", "voxel"],
        None,
        &["cross at"],
    );
    // --overlap sum: today's sum, with a warning.
    let out = cargo_bin_cmd!("inertia")
        .args([
            "mesh",
            twice.to_str().unwrap(),
            "--overlap",
            "sum",
            "--json",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!((f(&v["volume"]) - 2.0).abs() < 1e-12);
    assert!(String::from_utf8_lossy(&out.stderr).contains("counted twice"));
    // A box with a corner inside another cannot be sorted into bodies and cavities when
    // bodies must not overlap; with --overlap sum each outward shell is a body wherever it
    // lies, and the two add: 8 + 2.
    let corner = temp(
        "corner.obj",
        &boxes_obj(&[
            ([0.0; 3], [2.0; 3], false),
            ([1.0, 0.5, 0.5], [2.0, 1.0, 1.0], false),
        ]),
    );
    refused(
        &["mesh", corner.to_str().unwrap()],
        None,
        &["cross at", UNITE],
    );
    let (code, v, err) = run(
        &[
            "mesh",
            corner.to_str().unwrap(),
            "--overlap",
            "sum",
            "--json",
        ],
        None,
    );
    assert_eq!(code, 0, "{err}");
    assert!((f(&v["volume"]) - 10.0).abs() < 1e-12);
    assert!(err.contains("counted twice"), "{err}");
    // Bodies apart and a cavity pass (touching bodies: the unit tests in src/overlap/).
    for ok in [
        "fixtures/mesh/two_bodies.stl",
        "fixtures/mesh/box_with_cavity.obj",
    ] {
        let (code, _, err) = run(&["mesh", ok, "--json"], None);
        assert_eq!(code, 0, "{ok}: {err}");
    }
}

#[test]
fn a_box_resting_on_another_passes_on_both_paths() {
    // A 1-cube on a 4 × 4 × 1 slab, sharing no vertex: its bottom corners lie exactly on
    // the slab's top face, two of them on the diagonal splitting it, where the sum of
    // solid angles rounds to 0 or to a whole turn. It was refused as "wound outward but
    // inside another shell".
    let obj = boxes_obj(&[
        ([0.0; 3], [4.0, 4.0, 1.0], false),
        ([1.0, 1.0, 1.0], [1.0; 3], false),
    ]);
    let raw = inertia::io::obj::parse(obj.as_bytes()).unwrap();
    let stl = std::env::temp_dir().join(format!("resting-{}.stl", std::process::id()));
    std::fs::write(&stl, inertia::io::stl::write_binary(&raw)).unwrap();
    let path = temp("resting.obj", &obj);
    for file in [path, stl] {
        for method in ["tetra", "voxel"] {
            let (code, v, err) = run(
                &["mesh", file.to_str().unwrap(), "--method", method, "--json"],
                None,
            );
            assert_eq!(code, 0, "{file:?} {method}: {err}");
            assert!((f(&v["volume"]) - 17.0).abs() < 1e-9, "{file:?} {method}");
        }
    }
    // The same turned by 5° about x and z and written as an STL writes it (f32): the
    // contact crosses by rounding, within what f32 can say there. Taken for touching,
    // with a warning that says how deep and how much volume that can count twice.
    let (s, c) = 5.0_f64.to_radians().sin_cos();
    let mut turned = raw.clone();
    for p in &mut turned.vertices {
        let (y, z) = (c * p[1] - s * p[2], s * p[1] + c * p[2]);
        let (x, y) = (c * p[0] - s * y, s * p[0] + c * y);
        *p = [x as f32 as f64, y as f32 as f64, z as f32 as f64];
    }
    let stl = std::env::temp_dir().join(format!("resting-turned-{}.stl", std::process::id()));
    std::fs::write(&stl, inertia::io::stl::write_binary(&turned)).unwrap();
    for (method, within) in [("tetra", 1e-5), ("voxel", 0.5)] {
        let (code, v, err) = run(
            &["mesh", stl.to_str().unwrap(), "--method", method, "--json"],
            None,
        );
        assert_eq!(code, 0, "{err}");
        assert!((f(&v["volume"]) - 17.0).abs() < within, "{}", v["volume"]);
        assert!(err.contains("taken for touching"), "{err}");
    }
    // Sunk by a hundredth: refused, saying how deep and what rounding explains.
    let mut sunk = raw.clone();
    let n = sunk.vertices.len();
    for p in &mut sunk.vertices[n / 2..] {
        p[2] -= 0.01;
    }
    let mut sunk_turned = sunk.clone();
    for p in &mut sunk_turned.vertices {
        let (y, z) = (c * p[1] - s * p[2], s * p[1] + c * p[2]);
        let (x, y) = (c * p[0] - s * y, s * p[0] + c * y);
        *p = [x as f32 as f64, y as f32 as f64, z as f32 as f64];
    }
    std::fs::write(&stl, inertia::io::stl::write_binary(&sunk_turned)).unwrap();
    refused(
        &["mesh", stl.to_str().unwrap()],
        None,
        &[
            "deep (more than the",
            "a repair may reach there",
            "--overlap sum",
        ],
    );
}

// --- 4. Moments about a far point, and thin principal moments

#[test]
fn a_body_inside_another_sharing_its_edges_is_refused() {
    // A unit cube split on the diagonals a tetrahedron inscribed in it uses, and that
    // tetrahedron, in one OBJ: welded, closed, consistently wound, no edge through a face;
    // summed, the volume would be 4/3.
    let cube = "v 0 0 0\nv 1 1 0\nv 1 0 1\nv 0 1 1\nv 1 0 0\nv 0 1 0\nv 0 0 1\nv 1 1 1\n\
        f 1 6 2\nf 1 2 5\nf 1 5 3\nf 1 3 7\nf 1 7 4\nf 1 4 6\n\
        f 5 2 8\nf 5 8 3\nf 6 4 8\nf 6 8 2\nf 7 3 8\nf 7 8 4\n";
    let (code, v, err) = run(
        &["mesh", temp("cube.obj", cube).to_str().unwrap(), "--json"],
        None,
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(f(&v["volume"]), 1.0);
    let both = format!("{cube}f 1 2 3\nf 1 3 4\nf 1 4 2\nf 2 4 3\n");
    refused(
        &["mesh", temp("cube_tet.obj", &both).to_str().unwrap()],
        None,
        &["both turn the same way around the edge", "--overlap sum"],
    );
}

#[test]
fn tensor_about_a_far_point_is_exact() {
    // A 1 × 2 × 3 box of mass 6 about (far, 1, 1): Ixx = 6 (2² + 3²)/12 + 6 (1² + 1²) = 18.5,
    // Iyy = 6 (1 + 9)/12 + 6 (far² + 1), Iyz = −6; the least principal moment is about the
    // line through the point and the centre, 6.5.
    for far in ["1e8", "1e15"] {
        let about = format!("{far},1,1");
        let (code, v, err) = run(
            &[
                "shape", "box", "--size", "1,2,3", "--about", &about, "--json",
            ],
            None,
        );
        assert_eq!(code, 0, "{err}");
        let t = &v["inertia_tensor"];
        assert_eq!(f(&t[0][0]), 18.5);
        assert_eq!(f(&t[1][2]), -6.0);
        let d: f64 = far.parse().unwrap();
        assert_eq!(f(&t[1][1]), 5.0 + 6.0 * (d * d + 1.0));
        let p = &v["principal"]["moments"];
        assert!((f(&p[0]) - 6.5).abs() < 1e-13, "I1 {}", p[0]);
    }
}

#[test]
fn polygon_about_a_far_point_is_exact() {
    // A 1 × 2 rectangle of mass 2 about (1e8, 1): ixx = 2·4/12 + 2·1², principal I1 = 2/3.
    let (code, v, err) = run(
        &[
            "shape",
            "rectangle",
            "--width",
            "1",
            "--height",
            "2",
            "--about",
            "1e8,1",
            "--json",
        ],
        None,
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(f(&v["mass_moments"]["ixx"]), 2.0 / 3.0 + 2.0);
    assert!((f(&v["principal"]["moments"][0]) - 2.0 / 3.0).abs() < 1e-15);
}

#[test]
fn thin_strip_at_45_degrees_has_its_least_moment() {
    // A strip 1e8·√2 long and √2 wide along y = x: area 2e8, I1 = a b³/3 = 1e8/3 exactly
    // (a = 1e8, b = 1). From the tensor alone I1 was 0.
    let p = temp(
        "strip.json",
        "[[0,0],[100000000,100000000],[99999999,100000001],[-1,1]]",
    );
    for method in ["fan", "right-triangle", "centroid"] {
        let (code, v, err) = run(
            &["polygon", p.to_str().unwrap(), "--method", method, "--json"],
            None,
        );
        assert_eq!(code, 0, "{err}");
        let i1 = f(&v["principal"]["moments"][0]);
        assert!((i1 / (1e8 / 3.0) - 1.0).abs() < 1e-7, "{method}: I1 {i1}");
        assert_eq!(f(&v["area"]), 2e8);
    }
}

// --- 5. Every number checked before it is printed

#[test]
fn non_finite_and_underflowed_results_are_refused() {
    refused(
        &["shape", "sphere", "--radius", "1e200"],
        None,
        &["sphere", "not a finite number"],
    );
    refused(
        &["shape", "sphere", "--radius", "1e-200"],
        None,
        &["volume underflows"],
    );
    refused(
        &["shape", "circle", "--radius", "1e-170"],
        None,
        &["underflows"],
    );
    refused(
        &["shape", "rectangle", "--width", "1e200", "--height", "1"],
        None,
        &["not a finite number"],
    );
    let tiny = temp(
        "tiny.obj",
        "v 0 0 0\nv 1e-100 0 0\nv 0 1e-100 0\nv 0 0 1e-100\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n",
    );
    refused(
        &["mesh", tiny.to_str().unwrap()],
        None,
        &["tiny.obj", "underflows"],
    );
    // A total that overflows though each part does not.
    let sq = "fixtures/polygon/unit_square.json";
    refused(
        &["polygon", sq, sq, "--density", "1.5e308"],
        None,
        &["total of 2 parts", "not a finite number"],
    );
}

#[test]
fn huge_and_tiny_axis_directions_give_the_right_moment() {
    // About the axis (1, 1, 0)/√2 through the centre of a 1 × 2 × 3 box of mass 6:
    // (Ixx + Iyy)/2 = (6.5 + 5)/2.
    for axis in ["1e300,1e300,0", "1e-200,1e-200,0", "1,1,0"] {
        let (code, v, err) = run(
            &["shape", "box", "--size", "1,2,3", "--axis", axis, "--json"],
            None,
        );
        assert_eq!(code, 0, "{err}");
        assert!(
            (f(&v["axis_moment"]) - 5.75).abs() < 1e-14,
            "{axis}: {}",
            v["axis_moment"]
        );
    }
    let (code, v, _) = run(
        &[
            "shape",
            "rectangle",
            "--width",
            "1",
            "--height",
            "2",
            "--axis",
            "1e300,1e300",
            "--json",
        ],
        None,
    );
    assert_eq!(code, 0);
    assert!((f(&v["axis_moment"]) - 0.5 * (2.0 / 3.0 + 1.0 / 6.0)).abs() < 1e-15);
}

// --- 6. --mass with one file of several parts

#[test]
fn mass_of_a_file_with_several_parts_is_refused() {
    refused(
        &[
            "polygon",
            "fixtures/polygon/parcels.geojson",
            "--units",
            "m",
            "--mass",
            "100",
        ],
        None,
        &["--mass", "3 parts", "--density"],
    );
    refused(
        &["mesh", "fixtures/mesh/two_parts.3mf", "--mass", "1"],
        None,
        &["--mass", "2 bodies"],
    );
}

// --- 7. combine checks what it reads

#[test]
fn combine_refuses_failed_batches_and_unphysical_parts() {
    let (code, v, _) = run(
        &["mesh", "fixtures/mesh/unit_cube_ascii.stl", "--json"],
        None,
    );
    assert_eq!(code, 0);
    let edit = |name: &str, f: &dyn Fn(&mut Value)| {
        let mut w = v.clone();
        f(&mut w);
        temp(name, &w.to_string())
    };
    let cases: Vec<(PathBuf, &str)> = vec![
        (
            edit("neg_mass.json", &|w| w["mass"] = (-1.0).into()),
            "positive finite mass",
        ),
        (
            edit("zero_mass.json", &|w| w["mass"] = 0.0.into()),
            "positive finite mass",
        ),
        (
            edit("neg_volume.json", &|w| w["volume"] = (-1.0).into()),
            "positive finite volume",
        ),
        (
            edit("neg_moment.json", &|w| {
                w["inertia_tensor"][0][0] = (-5.0).into()
            }),
            "negative principal moment",
        ),
        (
            edit("asym.json", &|w| w["inertia_tensor"][0][1] = 0.3.into()),
            "not symmetric",
        ),
        (
            edit("triangle.json", &|w| w["inertia_tensor"][0][0] = 5.0.into()),
            "triangle inequality",
        ),
        (
            edit("huge.json", &|w| w["inertia_tensor"][0][0] = 1e308.into()),
            "triangle inequality",
        ),
    ];
    for (path, words) in &cases {
        refused(&["combine", path.to_str().unwrap()], None, &[words]);
    }
    // A batch report with a failed input.
    let out = cargo_bin_cmd!("inertia")
        .args([
            "mesh",
            "fixtures/mesh/unit_cube_ascii.stl",
            "fixtures/bad/open_cube.stl",
            "--json",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let batch = temp("batch.json", &String::from_utf8_lossy(&out.stdout));
    refused(
        &["combine", batch.to_str().unwrap()],
        None,
        &["1 input(s) that failed", "open_cube.stl"],
    );
    // Parts that overflow when summed.
    let big = edit("big.json", &|w| {
        w["mass"] = 1e308.into();
        w["inertia_tensor"] = serde_json::json!([[1e307, 0, 0], [0, 1e307, 0], [0, 0, 1e307]]);
    });
    refused(
        &[
            "combine",
            big.to_str().unwrap(),
            big.to_str().unwrap(),
            "--translate",
            "2=1,0,0",
        ],
        None,
        &["not a finite number"],
    );
    // A report taken about a far point combines back to the centroid's tensor.
    let (code, far, _) = run(
        &[
            "shape", "box", "--size", "1,2,3", "--about", "1e8,1,1", "--json",
        ],
        None,
    );
    assert_eq!(code, 0);
    let far = temp("far.json", &far.to_string());
    let (code, v, err) = run(&["combine", far.to_str().unwrap(), "--json"], None);
    assert_eq!(code, 0, "{err}");
    assert!(
        (f(&v["inertia_tensor"][0][0]) - 6.5).abs() < 1e-6,
        "{}",
        v["inertia_tensor"]
    );
}

// --- 8. JSON numbers to the last bit

#[test]
fn json_coordinates_read_back_bit_exact() {
    // Coordinates 1e8 from the origin with all 17 digits: without serde_json's
    // float_roundtrip about half were read one unit in the last place off.
    let mut pts = Vec::new();
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    for k in 0..2000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let a = 1e8 + (x % 1_000_000_007) as f64 / 1_000_000_007.0 * 1e3 + k as f64;
        let b = 1e8 + ((x >> 20) % 999_999_937) as f64 / 999_999_937.0;
        pts.push([a, b]);
    }
    let text = serde_json::to_string(&pts).unwrap();
    let read = inertia::io::json::parse(text.as_bytes()).unwrap();
    for (p, q) in pts.iter().zip(&read.outer) {
        assert_eq!(p[0].to_bits(), q[0].to_bits(), "{} read as {}", p[0], q[0]);
        assert_eq!(p[1].to_bits(), q[1].to_bits(), "{} read as {}", p[1], q[1]);
    }
    // GeoJSON goes through serde_json's Value.
    let ring: Vec<[f64; 2]> = vec![
        pts[0],
        [pts[1][0] + 10.0, pts[1][1]],
        [pts[2][0], pts[2][1] + 10.0],
        pts[0],
    ];
    let geo = serde_json::json!({"type": "Polygon", "coordinates": [ring]}).to_string();
    let parts = inertia::io::geojson::parse(geo.as_bytes()).unwrap();
    let outer = &parts[0].rings.outer;
    for (p, q) in ring.iter().zip(outer) {
        assert_eq!(p[0].to_bits(), q[0].to_bits());
        assert_eq!(p[1].to_bits(), q[1].to_bits());
    }
    // combine reads a report's numbers exactly: the centroid comes back to the bit.
    let sq = temp(
        "far_square.json",
        &serde_json::to_string(&ring[..3]).unwrap(),
    );
    let (code, v, _) = run(&["polygon", sq.to_str().unwrap(), "--json"], None);
    assert_eq!(code, 0);
    let rep = temp("far_square_report.json", &v.to_string());
    let (code, w, err) = run(&["combine", rep.to_str().unwrap(), "--json"], None);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        f(&w["centroid"][0]).to_bits(),
        f(&v["centroid"][0]).to_bits()
    );
    assert_eq!(f(&w["area"]).to_bits(), f(&v["area"]).to_bits());
}

// --- 9. --files-from with one file keeps its batch meaning

#[test]
fn files_from_a_list_refuses_what_needs_one_file() {
    let list = "fixtures/polygon/l_shape.json\n";
    refused(
        &["polygon", "--files-from", "-", "--method", "all"],
        Some(list),
        &["--method all", "--files-from"],
    );
    refused(
        &["polygon", "--files-from", "-", "--plot", "x.svg"],
        Some(list),
        &["--plot", "--files-from"],
    );
    refused(
        &["polygon", "--files-from", "-", "--mass", "2"],
        Some(list),
        &["--mass", "--files-from"],
    );
    refused(
        &["mesh", "--files-from", "-", "--method", "all"],
        Some("fixtures/mesh/right_tetrahedron.stl\n"),
        &["--method all"],
    );
}

// --- 10. Accept what peers accept when it is unambiguous

#[test]
fn binary_stl_with_stray_trailing_bytes_is_read_with_a_warning() {
    let stl = std::fs::read("fixtures/mesh/right_tetrahedron.stl").unwrap();
    for extra in [1usize, 2, 49] {
        let mut bytes = stl.clone();
        bytes.extend(std::iter::repeat_n(b'\n', extra));
        let p = temp(&format!("stray{extra}.stl"), "");
        std::fs::write(&p, &bytes).unwrap();
        for method in ["tetra", "voxel"] {
            let out = cargo_bin_cmd!("inertia")
                .args(["mesh", p.to_str().unwrap(), "--method", method, "--json"])
                .output()
                .unwrap();
            assert_eq!(out.status.code(), Some(0), "{extra} bytes, {method}");
            let v: Value = serde_json::from_slice(&out.stdout).unwrap();
            assert!(
                (f(&v["volume"]) - 10.0).abs() < 1e-3,
                "{extra}: {}",
                v["volume"]
            );
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(err.contains(&format!("{extra} stray byte(s)")), "{err}");
        }
    }
    // A whole record's worth (50 bytes) is no longer stray: the count is wrong.
    let mut bytes = stl.clone();
    bytes.extend([0u8; 50]);
    let p = temp("stray50.stl", "");
    std::fs::write(&p, &bytes).unwrap();
    refused(
        &["mesh", p.to_str().unwrap()],
        None,
        &["header says 4 triangles"],
    );
}

#[test]
fn obj_backslash_continues_a_line() {
    let p = temp(
        "continued.obj",
        "v 0 0 0\nv 5 0 \\\n 0\nv 0 4 0\nv 0 0 3\nf 1 3 2\nf 1 2 \\\n 4\nf 1 4 3\nf 2 3 4\n",
    );
    let (code, v, err) = run(&["mesh", p.to_str().unwrap(), "--json"], None);
    assert_eq!(code, 0, "{err}");
    assert_eq!(f(&v["volume"]), 10.0);
}

// --- 9. Smaller silent cases

#[test]
fn overlapping_parts_of_one_multipolygon_or_drawing_are_refused() {
    let sq = |x: f64, y: f64, s: f64| {
        format!(
            "[[[{x},{y}],[{},{y}],[{},{}],[{x},{}],[{x},{y}]]]",
            x + s,
            x + s,
            y + s,
            y + s
        )
    };
    let multi = |members: &[String]| {
        format!(
            r#"{{"type": "MultiPolygon", "coordinates": [{}]}}"#,
            members.join(",")
        )
    };
    let crossing = temp(
        "crossing.geojson",
        &multi(&[sq(0.0, 0.0, 2.0), sq(1.0, 1.0, 2.0)]),
    );
    refused(
        &["polygon", crossing.to_str().unwrap(), "--units", "m"],
        None,
        &["polygon 1 and polygon 2 cross at", "must not overlap"],
    );
    let nested = temp(
        "nested.geojson",
        &multi(&[sq(0.0, 0.0, 4.0), sq(1.0, 1.0, 1.0)]),
    );
    refused(
        &["polygon", nested.to_str().unwrap(), "--units", "m"],
        None,
        &["lie one inside the other"],
    );
    let twice = temp(
        "twice.geojson",
        &multi(&[sq(0.0, 0.0, 4.0), sq(0.0, 0.0, 4.0)]),
    );
    refused(
        &["polygon", twice.to_str().unwrap(), "--units", "m"],
        None,
        &["must not overlap"],
    );
    // An island in a lake is a valid MultiPolygon: 16 − 4 + 1.
    let lake = "[[[0,0],[4,0],[4,4],[0,4],[0,0]],[[1,1],[3,1],[3,3],[1,3],[1,1]]]";
    let island = temp(
        "island.geojson",
        &multi(&[lake.to_string(), sq(1.5, 1.5, 1.0)]),
    );
    let (code, v, err) = run(
        &[
            "polygon",
            island.to_str().unwrap(),
            "--units",
            "m",
            "--json",
        ],
        None,
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(f(&v["total"]["area"]), 13.0);
    // Separate features may overlap (layers of a map): summed as given.
    let features = format!(
        r#"{{"type": "FeatureCollection", "features": [{{"type": "Feature", "properties": {{}}, "geometry": {{"type": "Polygon", "coordinates": {}}}}}, {{"type": "Feature", "properties": {{}}, "geometry": {{"type": "Polygon", "coordinates": {}}}}}]}}"#,
        sq(0.0, 0.0, 2.0),
        sq(1.0, 1.0, 2.0)
    );
    let layers = temp("layers.geojson", &features);
    let (code, v, err) = run(
        &[
            "polygon",
            layers.to_str().unwrap(),
            "--units",
            "m",
            "--json",
        ],
        None,
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(f(&v["total"]["area"]), 8.0);
}

fn dxf(entities: &str) -> String {
    format!("0\nSECTION\n2\nENTITIES\n{entities}0\nENDSEC\n0\nEOF\n")
}

#[test]
fn dxf_circle_drawn_twice_and_nan_bulge_are_refused() {
    let circle = |h: &str| format!("0\nCIRCLE\n5\n{h}\n8\n0\n10\n0\n20\n0\n30\n0\n40\n2\n");
    let twice = temp(
        "twice.dxf",
        &dxf(&format!("{}{}", circle("2A"), circle("2B"))),
    );
    refused(
        &["polygon", twice.to_str().unwrap(), "--units", "m"],
        None,
        &["CIRCLE 2A and CIRCLE 2B", "must not overlap"],
    );
    let bulge = |b: &str| {
        dxf(&format!(
            "0\nLWPOLYLINE\n5\n3C\n8\n0\n90\n4\n70\n1\n10\n0\n20\n0\n42\n{b}\n10\n4\n20\n0\n10\n4\n20\n2\n10\n0\n20\n2\n"
        ))
    };
    let nan = temp("nan_bulge.dxf", &bulge("nan"));
    refused(
        &["polygon", nan.to_str().unwrap()],
        None,
        &[
            "LWPOLYLINE 3C",
            "vertex 1: bulge NaN is not a finite number",
        ],
    );
    let inf = temp("inf_bulge.dxf", &bulge("inf"));
    refused(&["polygon", inf.to_str().unwrap()], None, &["bulge inf"]);
    // The same drawing with a zero bulge reads as the 4 × 2 rectangle it is.
    let ok = temp("bulge.dxf", &bulge("0"));
    let (code, v, err) = run(&["polygon", ok.to_str().unwrap(), "--json"], None);
    assert_eq!(code, 0, "{err}");
    assert_eq!(f(&v["area"]), 8.0);
}

#[test]
fn biconvex_taller_than_wide_is_refused() {
    refused(
        &["shape", "biconvex", "--width", "1", "--height", "2"],
        None,
        &["--height", "at most as tall as it is wide"],
    );
    // As tall as wide: a sphere of diameter 1.
    let (code, v, _) = run(
        &[
            "shape", "biconvex", "--width", "1", "--height", "1", "--json",
        ],
        None,
    );
    assert_eq!(code, 0);
    assert!((f(&v["volume"]) - std::f64::consts::PI / 6.0).abs() < 1e-15);
}

// --- 3. Units the file states

/// fixtures/mesh/two_parts.3mf with its model's unit attribute replaced.
fn threemf_in(unit: &str) -> PathBuf {
    use std::io::{Read, Write};
    let src = std::fs::File::open("fixtures/mesh/two_parts.3mf").unwrap();
    let mut zin = zip::ZipArchive::new(src).unwrap();
    let p = temp(&format!("two_parts_{unit}.3mf"), "");
    let mut zout = zip::ZipWriter::new(std::fs::File::create(&p).unwrap());
    for k in 0..zin.len() {
        let mut f = zin.by_index(k).unwrap();
        let name = f.name().unwrap().to_string();
        let mut text = String::new();
        f.read_to_string(&mut text).unwrap();
        if name.ends_with(".model") {
            text = text.replace("unit=\"millimeter\"", &format!("unit=\"{unit}\""));
        }
        zout.start_file(name, zip::write::SimpleFileOptions::default())
            .unwrap();
        zout.write_all(text.as_bytes()).unwrap();
    }
    zout.finish().unwrap();
    p
}

#[test]
fn the_unit_a_file_states_is_used() {
    let inch = threemf_in("inch");
    let path = inch.to_str().unwrap();
    // No --units needed for --material; the same as saying --units in.
    let (code, v, err) = run(&["mesh", path, "--material", "steel", "--json"], None);
    assert_eq!(code, 0, "{err}");
    let (code, w, err) = run(
        &[
            "mesh",
            path,
            "--units",
            "in",
            "--material",
            "steel",
            "--json",
        ],
        None,
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(v["total"]["mass"], w["total"]["mass"]);
    assert_eq!(v["total"]["units"]["length"], "m");
    // Volumes 10 + 1 cubic inches of steel (7850 kg/m³).
    let m = f(&v["total"]["mass"]);
    let want = 11.0 * 0.0254f64.powi(3) * 7850.0;
    assert!((m / want - 1.0).abs() < 1e-12, "{m} vs {want}");
    // Another unit on the command line is refused, unless overridden.
    refused(
        &["mesh", path, "--units", "mm", "--material", "steel"],
        None,
        &[
            "states its unit as in",
            "--units says mm",
            "--units-override",
        ],
    );
    let (code, o, err) = run(
        &[
            "mesh",
            path,
            "--units",
            "mm",
            "--units-override",
            "--material",
            "steel",
            "--json",
        ],
        None,
    );
    assert_eq!(code, 0, "{err}");
    assert!((f(&o["total"]["mass"]) / (11.0 * 1e-9 * 7850.0) - 1.0).abs() < 1e-12);
    // Files that state different units are refused together.
    let mm = threemf_in("millimeter");
    refused(
        &["mesh", path, mm.to_str().unwrap()],
        None,
        &["run them separately"],
    );
    // ... as that message says, --units with --units-override reads both in --units.
    let (code, o, err) = run(
        &[
            "mesh",
            path,
            mm.to_str().unwrap(),
            "--units",
            "cm",
            "--units-override",
            "--json",
        ],
        None,
    );
    assert_eq!(code, 0, "{err}");
    for part in o["parts"].as_array().unwrap() {
        assert_eq!(part["units"]["input"], "cm", "{part}");
    }
    // 11 cubic units in each file, read as cm³: 2 × 11e-6 m³ of density 1.
    assert!(
        (f(&o["total"]["volume"]) / 22e-6 - 1.0).abs() < 1e-12,
        "{o}"
    );
    // An unknown unit name is refused.
    let bad = threemf_in("furlong");
    refused(
        &["mesh", bad.to_str().unwrap()],
        None,
        &["unit \"furlong\""],
    );
    // --output-units needs an input unit from somewhere.
    refused(
        &[
            "mesh",
            "fixtures/mesh/right_tetrahedron.stl",
            "--output-units",
            "mm",
        ],
        None,
        &["--output-units needs"],
    );
    let (code, _, err) = run(&["mesh", path, "--output-units", "mm", "--json"], None);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn dxf_insunits_is_used() {
    // A 10 × 20 rectangle in a drawing whose header says inches ($INSUNITS 1).
    let drawing = "0\nSECTION\n2\nHEADER\n9\n$ACADVER\n1\nAC1015\n9\n$INSUNITS\n70\n1\n0\nENDSEC\n0\nSECTION\n2\nENTITIES\n0\nLWPOLYLINE\n5\n3C\n8\n0\n90\n4\n70\n1\n10\n0\n20\n0\n10\n10\n20\n0\n10\n10\n20\n20\n10\n0\n20\n20\n0\nENDSEC\n0\nEOF\n";
    let p = temp("inch_plate.dxf", drawing);
    let path = p.to_str().unwrap();
    let (code, v, err) = run(
        &[
            "polygon",
            path,
            "--material",
            "steel",
            "--thickness",
            "0.5",
            "--json",
        ],
        None,
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(v["units"]["length"], "m");
    let want = 200.0 * 0.5 * 0.0254f64.powi(3) * 7850.0;
    assert!(
        (f(&v["mass"]) / want - 1.0).abs() < 1e-12,
        "{} vs {want}",
        v["mass"]
    );
    refused(
        &["polygon", path, "--units", "mm"],
        None,
        &["states its unit as in"],
    );
    // Unitless ($INSUNITS 0) states nothing: --material still needs --units.
    let unitless = temp(
        "unitless.dxf",
        &drawing.replace("$INSUNITS\n70\n1\n", "$INSUNITS\n70\n0\n"),
    );
    refused(
        &[
            "polygon",
            unitless.to_str().unwrap(),
            "--material",
            "steel",
            "--thickness",
            "1",
        ],
        None,
        &["--units"],
    );
}

// --- 2. Near-coincident vertices in CAD exports

/// The unit cube with the first `k` corners at x = 0 written as `zero` instead (as CAD
/// exporters write -1.7e-17 beside 0.0).
fn noisy_cube(zero: &str, k: usize) -> String {
    let src = std::fs::read_to_string("fixtures/mesh/unit_cube_ascii.stl").unwrap();
    let mut done = 0;
    src.lines()
        .map(|l| {
            let t: Vec<&str> = l.split_whitespace().collect();
            if done < k && t.first() == Some(&"vertex") && t[1].parse::<f64>().unwrap() == 0.0 {
                done += 1;
                format!("vertex {zero} {} {}", t[2], t[3])
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn cad_noise_is_welded_and_real_gaps_are_measured() {
    let p = temp("noisy.stl", &noisy_cube("-1.7e-17", 6));
    let out = cargo_bin_cmd!("inertia")
        .args(["mesh", p.to_str().unwrap(), "--json"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!((f(&v["volume"]) - 1.0).abs() < 1e-15);
    assert!(err.contains("joined to close the mesh"), "{err}");
    // The same through --method voxel (the path that builds a mesh).
    let (code, _, err) = run(
        &["mesh", p.to_str().unwrap(), "--method", "voxel", "--json"],
        None,
    );
    assert_eq!(code, 0, "{err}");
    // A real gap is not welded by default: the message measures it and names the option.
    let gap = temp("gap.stl", &noisy_cube("-1.7e-9", 6));
    refused(
        &["mesh", gap.to_str().unwrap()],
        None,
        &[
            "not closed",
            "nearest unmatched corners are 1.7e-9 apart",
            "--weld-tolerance",
        ],
    );
    let (code, v, err) = run(
        &[
            "mesh",
            gap.to_str().unwrap(),
            "--weld-tolerance",
            "1e-8",
            "--json",
        ],
        None,
    );
    assert_eq!(code, 0, "{err}");
    assert!((f(&v["volume"]) - 1.0).abs() < 1e-8);
    refused(
        &["mesh", gap.to_str().unwrap(), "--weld-tolerance", "0"],
        None,
        &["--weld-tolerance must be a positive finite number"],
    );
    // An open mesh stays open whatever the tolerance.
    refused(
        &[
            "mesh",
            "fixtures/bad/open_cube.stl",
            "--weld-tolerance",
            "1e-3",
        ],
        None,
        &["not closed"],
    );
}

/// The unit cube scaled by `scale` and moved by `dx` along x, in ASCII STL; the first `k`
/// corners at x = 0 written as `zero` instead.
fn moved_cube(scale: f64, dx: f64, zero: &str, k: usize) -> String {
    let src = std::fs::read_to_string("fixtures/mesh/unit_cube_ascii.stl").unwrap();
    let mut done = 0;
    src.lines()
        .map(|l| {
            let t: Vec<&str> = l.split_whitespace().collect();
            if t.first() != Some(&"vertex") {
                return l.to_string();
            }
            let c: Vec<f64> = t[1..].iter().map(|x| x.parse().unwrap()).collect();
            let x = if done < k && c[0] == 0.0 {
                done += 1;
                zero.to_string()
            } else {
                format!("{:e}", c[0] * scale + dx)
            };
            format!("vertex {x} {:e} {:e}", c[1] * scale, c[2] * scale)
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn a_far_body_does_not_widen_the_weld_of_a_near_one() {
    // A cube 1e-8 wide at the origin, with its noise (-1.7e-25 for 0), and a unit cube 1e8
    // away in one STL. The noise is joined by the small cube's own rounding; a tolerance
    // taken from the largest coordinate (1.8e-7) would weld the small cube into a point.
    let both = format!(
        "{}\n{}",
        moved_cube(1e-8, 0.0, "-1.7e-25", 6),
        moved_cube(1.0, 1e8, "0", 0)
    );
    let p = temp("near_and_far.stl", &both);
    let (code, v, err) = run(&["mesh", p.to_str().unwrap(), "--json"], None);
    assert_eq!(code, 0, "{err}");
    assert_eq!(v["shells"], 2, "{v}");
    assert_eq!(f(&v["volume"]), 1.0 + 1e-24, "{err}");
    assert!(
        err.contains("within 1.7e-25 of another were joined"),
        "{err}"
    );
    // A small part far from the origin keeps its shape: a unit cube at 1e15 (where 8 units
    // in the last place are 1) with a corner 0.25 off its twin is not welded.
    let far = moved_cube(1.0, 1e15, "1.00000000000000025e15", 1);
    let p = temp("far_gap.stl", &far);
    refused(&["mesh", p.to_str().unwrap()], None, &["not closed"]);
}

#[test]
fn bodies_far_apart_keep_their_digits() {
    // Each body is summed about its own corner and the bodies combined about their common
    // centroid: two unit cubes 1e15 apart were refused as "flat" (their tetrahedra about
    // one corner cancel to rounding), and a millimetre cube beside a unit cube 1e8 away
    // as "not physical".
    let both = format!(
        "{}\n{}",
        moved_cube(1.0, 0.0, "0", 0),
        moved_cube(1.0, 1e15, "0", 0)
    );
    let p = temp("far_apart.stl", &both);
    let (code, v, err) = run(&["mesh", p.to_str().unwrap(), "--json"], None);
    assert_eq!(code, 0, "{err}");
    assert_eq!(f(&v["volume"]), 2.0);
    assert_eq!(f(&v["centroid"][0]), 5e14 + 0.5);
    let t = &v["inertia_tensor"];
    assert!((f(&t[0][0]) - 1.0 / 3.0).abs() < 1e-15, "{t}");
    assert_eq!(f(&t[1][1]), 2.0 * 5e14 * 5e14);
    let both = format!(
        "{}\n{}",
        moved_cube(1e-3, 0.0, "0", 0),
        moved_cube(1.0, 1e8, "0", 0)
    );
    let p = temp("small_and_far.stl", &both);
    // (Not the voxel method: its grid spans the whole box, 1e8 wide here.)
    let (code, v, err) = run(&["mesh", p.to_str().unwrap(), "--json"], None);
    assert_eq!(code, 0, "{err}");
    let m: f64 = 1e-9;
    let ixx = f(&v["inertia_tensor"][0][0]);
    // The cube's own 1/6, the small one's (m (2e-6) / 12) and its offset in y and z
    // from the centroid (0.5 - 0.0005 each, less a share of 1e-9).
    let g: f64 = (0.5 + m * 0.0005) / (1.0 + m);
    let expected =
        1.0 / 6.0 + m * 2e-6 / 12.0 + 2.0 * (m * (0.0005 - g).powi(2) + (0.5 - g).powi(2));
    assert!(
        (ixx - expected).abs() < 1e-13 * expected,
        "{ixx} vs {expected}"
    );
    // The voxel grid spans the whole box: with no column through the bodies there is no
    // answer, and it says so rather than that the volume underflows.
    let (code, v, err) = run(&["mesh", p.to_str().unwrap(), "--method", "voxel"], None);
    assert_eq!((code, v), (2, Value::Null));
    assert!(
        err.contains("no column of the voxel grid (400 × 1 cells of")
            && err.contains("give a larger --resolution, or --method tetra"),
        "{err}"
    );
}

#[test]
fn combine_rotation_about_huge_and_tiny_axes() {
    let (code, bx, _) = run(&["shape", "box", "--size", "1,2,3", "--json"], None);
    assert_eq!(code, 0);
    let p = temp("box_for_rotation.json", &bx.to_string());
    let mut tensors = Vec::new();
    for axis in ["1,1,0", "1e300,1e300,0", "1e-300,1e-300,0"] {
        let (code, v, err) = run(
            &[
                "combine",
                p.to_str().unwrap(),
                "--rotate",
                &format!("1={axis}:90"),
                "--json",
            ],
            None,
        );
        assert_eq!(code, 0, "{axis}: {err}");
        // Principal moments do not change under rotation: 2.5, 5, 6.5.
        let m = &v["principal"]["moments"];
        for (k, want) in [2.5, 5.0, 6.5].iter().enumerate() {
            assert!((f(&m[k]) - want).abs() < 1e-13, "{axis}: {m}");
        }
        tensors.push(v["inertia_tensor"].clone());
    }
    assert_eq!(tensors[0], tensors[1]);
    assert_eq!(tensors[0], tensors[2]);
}

#[test]
fn bodies_meeting_at_one_corner_are_told_apart() {
    // A tetrahedron inside a 4-cube, touching only its corner (0, 0, 0): one surface by its
    // points, so its volume was added to the cube's (64.67) with no word. Now the two
    // pieces are separate shells, and one lies inside the other.
    let mut obj = String::new();
    for z in [0, 4] {
        for y in [0, 4] {
            for x in [0, 4] {
                obj += &format!("v {x} {y} {z}\n");
            }
        }
    }
    obj += "v 1 1 2\nv 2 1 1\nv 1 2 1\n";
    for q in [
        [1, 3, 4, 2],
        [5, 6, 8, 7],
        [1, 2, 6, 5],
        [3, 7, 8, 4],
        [1, 5, 7, 3],
        [2, 4, 8, 6],
    ] {
        obj += &format!(
            "f {} {} {}\nf {} {} {}\n",
            q[0], q[1], q[2], q[0], q[2], q[3]
        );
    }
    // The tetrahedron (1 = the corner, 9, 10, 11), wound outward.
    obj += "f 1 10 9\nf 1 11 10\nf 1 9 11\nf 9 10 11\n";
    let raw = inertia::io::obj::parse(obj.as_bytes()).unwrap();
    let stl = std::env::temp_dir().join(format!("pinch-{}.stl", std::process::id()));
    std::fs::write(&stl, inertia::io::stl::write_binary(&raw)).unwrap();
    let path = temp("pinch.obj", &obj);
    for file in [&path, &stl] {
        refused(
            &["mesh", file.to_str().unwrap()],
            None,
            &["shell 2", "lies inside another shell"],
        );
        // Summed on request, saying what is counted twice.
        let (code, v, err) = run(
            &["mesh", file.to_str().unwrap(), "--overlap", "sum", "--json"],
            None,
        );
        assert_eq!(code, 0, "{err}");
        assert!((f(&v["volume"]) - (64.0 + 2.0 / 3.0)).abs() < 1e-12);
        assert!(err.contains("1 body lies inside another"), "{err}");
    }
    // The tetrahedron inscribed in a unit cube on its corners, the cube's faces split on the
    // diagonals that are not the tetrahedron's edges (so no edge is shared): it was added
    // to the cube; now its faces' centroids, inside the cube, place it there.
    let inscribed = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nv 0 0 1\nv 1 0 1\nv 0 1 1\nv 1 1 1\n\
                     f 3 4 2\nf 3 2 1\nf 5 6 8\nf 5 8 7\nf 2 6 5\nf 2 5 1\nf 3 7 8\nf 3 8 4\n\
                     f 5 7 3\nf 5 3 1\nf 2 4 8\nf 2 8 6\n\
                     f 1 4 6\nf 4 1 7\nf 1 6 7\nf 6 4 7\n";
    let path = temp("inscribed.obj", inscribed);
    refused(
        &["mesh", path.to_str().unwrap()],
        None,
        &["shell 2", "lies inside another shell"],
    );
    // Two cubes touching corner to corner are two bodies, on both paths.
    let corner = boxes_obj(&[([0.0; 3], [1.0; 3], false), ([1.0; 3], [1.0; 3], false)]);
    let raw = inertia::io::obj::parse(corner.as_bytes()).unwrap();
    let stl = std::env::temp_dir().join(format!("corner-{}.stl", std::process::id()));
    std::fs::write(&stl, inertia::io::stl::write_binary(&raw)).unwrap();
    let path = temp("corner.obj", &corner);
    for file in [&path, &stl] {
        let (code, v, err) = run(&["mesh", file.to_str().unwrap(), "--json"], None);
        assert_eq!(code, 0, "{file:?}: {err}");
        assert!((f(&v["volume"]) - 2.0).abs() < 1e-12);
        assert_eq!(v["shells"], 2, "{file:?}");
    }
}
