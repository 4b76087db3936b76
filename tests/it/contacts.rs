//! Issue "tolerant of what CAD writes": parts that touch in the design, written the way
//! CAD programs write them (turned, with 17 or 6 significant digits), pass as touching
//! with a warning; parts sunk into each other, or placed twice, are refused however the
//! rounding falls.

use assert_cmd::cargo::cargo_bin_cmd;
use serde_json::Value;

pub(super) type Body = (Vec<[f64; 3]>, Vec<[usize; 3]>);

/// A box from `lo` of `size`, its walls split at the heights `rings` (ascending, between
/// the bottom and the top), each quad on the diagonal `alt` picks.
pub(super) fn boxed(lo: [f64; 3], size: [f64; 3], rings: &[f64], alt: bool) -> Body {
    let zs: Vec<f64> = std::iter::once(lo[2])
        .chain(rings.iter().copied())
        .chain(std::iter::once(lo[2] + size[2]))
        .collect();
    let (x0, y0, x1, y1) = (lo[0], lo[1], lo[0] + size[0], lo[1] + size[1]);
    let v: Vec<[f64; 3]> = zs
        .iter()
        .flat_map(|&z| [[x0, y0, z], [x1, y0, z], [x1, y1, z], [x0, y1, z]])
        .collect();
    let quad = |a: usize, b: usize, c: usize, d: usize| {
        if alt {
            [[a, b, d], [b, c, d]]
        } else {
            [[a, b, c], [a, c, d]]
        }
    };
    let top = 4 * (zs.len() - 1);
    let mut t = Vec::new();
    t.extend(quad(0, 3, 2, 1));
    t.extend(quad(top, top + 1, top + 2, top + 3));
    for r in 0..zs.len() - 1 {
        for k in 0..4 {
            let (a, b) = (4 * r + k, 4 * r + (k + 1) % 4);
            t.extend(quad(a, b, b + 4, a + 4));
        }
    }
    (v, t)
}

/// Turned by `deg` degrees about `axis`, then moved by `by`.
pub(super) fn turned(b: &Body, axis: [f64; 3], deg: f64, by: [f64; 3]) -> Body {
    let l = (axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]).sqrt();
    let [x, y, z] = axis.map(|a| a / l);
    let (s, c) = deg.to_radians().sin_cos();
    let k = 1.0 - c;
    let r = [
        [c + x * x * k, x * y * k - z * s, x * z * k + y * s],
        [y * x * k + z * s, c + y * y * k, y * z * k - x * s],
        [z * x * k - y * s, z * y * k + x * s, c + z * z * k],
    ];
    let v =
        b.0.iter()
            .map(|p| [0, 1, 2].map(|i| r[i][0] * p[0] + r[i][1] * p[1] + r[i][2] * p[2] + by[i]))
            .collect();
    (v, b.1.clone())
}

/// An OBJ of the bodies, coordinates in full (17 significant digits).
pub(super) fn obj(bodies: &[Body]) -> String {
    let mut s = String::new();
    let mut base = 1;
    for (v, t) in bodies {
        for p in v {
            s += &format!("v {:?} {:?} {:?}\n", p[0], p[1], p[2]);
        }
        for f in t {
            s += &format!("f {} {} {}\n", f[0] + base, f[1] + base, f[2] + base);
        }
        base += v.len();
    }
    s
}

/// An ASCII STL of the bodies with 6 significant digits, as `%g` writes them.
pub(super) fn stl6(bodies: &[Body]) -> String {
    let g = |x: f64| {
        let s = format!("{:.5e}", x);
        let v: f64 = s.parse().unwrap();
        format!("{v}")
    };
    let mut s = String::from("solid parts\n");
    for (v, t) in bodies {
        for f in t {
            s += " facet normal 0 0 0\n  outer loop\n";
            for &i in f {
                s += &format!("   vertex {} {} {}\n", g(v[i][0]), g(v[i][1]), g(v[i][2]));
            }
            s += "  endloop\n endfacet\n";
        }
    }
    s + "endsolid parts\n"
}

/// A binary STL of the bodies: coordinates rounded to `f32`, as binary STL keeps them.
pub(super) fn stl32(bodies: &[Body]) -> Vec<u8> {
    let mut out = vec![0u8; 80];
    let count: usize = bodies.iter().map(|b| b.1.len()).sum();
    out.extend((count as u32).to_le_bytes());
    for (v, t) in bodies {
        for f in t {
            out.extend([0u8; 12]);
            for &i in f {
                for x in v[i] {
                    out.extend((x as f32).to_le_bytes());
                }
            }
            out.extend([0u8; 2]);
        }
    }
    out
}

/// Runs `inertia mesh FILE --json`: exit code, the JSON, stderr.
pub(super) fn run(name: &str, text: &(impl AsRef<[u8]> + ?Sized)) -> (i32, Value, String) {
    run_with(name, text, &[])
}

/// [`run`] with more arguments, the file in a folder of its own (tests running at once
/// may use one file name), removed after.
pub(super) fn run_with(
    name: &str,
    text: &(impl AsRef<[u8]> + ?Sized),
    args: &[&str],
) -> (i32, Value, String) {
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("inertia-contacts-{}-{call}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text.as_ref()).unwrap();
    let out = cargo_bin_cmd!("inertia")
        .args(["mesh", path.to_str().unwrap(), "--json"])
        .args(args)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let v = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    (out.status.code().unwrap_or(-1), v, err)
}

/// [`run`], and when the answer is refused only for what its repairs could change (a file
/// written with 6 digits far from the origin cannot say its contacts to better than its
/// rounding), run again with the `--repair-tolerance` the message names, which must be at
/// most 1 %: the answer then states a bound within it.
pub(super) fn run_accepting(
    name: &str,
    text: &(impl AsRef<[u8]> + ?Sized),
) -> (i32, Value, String) {
    let (code, v, err) = run(name, text);
    let Some(rest) = err.split("give --repair-tolerance ").nth(1) else {
        return (code, v, err);
    };
    let tol = rest.split_whitespace().next().unwrap_or("");
    assert!(tol.parse::<f64>().is_ok_and(|t| t <= 1e-2), "{name}: {err}");
    let (code, v, err) = run_with(name, text, &["--repair-tolerance", tol]);
    let bound = v["contacts"]["volume_bound"].as_f64().unwrap_or(0.0)
        + v["junctions"]["volume_bound"].as_f64().unwrap_or(0.0);
    assert!(
        bound <= tol.parse::<f64>().unwrap() * v["volume"].as_f64().unwrap_or(0.0).abs(),
        "{name}: {v}"
    );
    (code, v, err)
}

pub(super) fn volume(v: &Value) -> f64 {
    v["volume"].as_f64().unwrap_or(f64::NAN)
}

const AXIS: [f64; 3] = [1.0, 2.0, 3.0];
const FAR: [f64; 3] = [100.0, 200.0, 300.0];

#[test]
fn unit_cubes_face_to_face_turned_37_degrees_at_full_precision_pass() {
    // Each cube's shared face split on either diagonal: split on different ones, the
    // rounding of the turn bends the two faces apart or into each other by 1e-16.
    for alt in [false, true] {
        let a = turned(&boxed([0.0; 3], [1.0; 3], &[], false), AXIS, 37.0, [0.0; 3]);
        let b = turned(
            &boxed([1.0, 0.0, 0.0], [1.0; 3], &[], alt),
            AXIS,
            37.0,
            [0.0; 3],
        );
        let (code, v, err) = run("cubes37.obj", &obj(&[a, b]));
        assert_eq!(code, 0, "alt {alt}: {err}");
        assert!((volume(&v) - 2.0).abs() < 1e-12, "{}", volume(&v));
    }
}

#[test]
fn a_block_on_a_plate_turned_10_degrees_in_a_17_digit_obj_passes() {
    let plate = boxed([0.0; 3], [10.0, 10.0, 1.0], &[], false);
    let block = boxed([3.0, 3.0, 1.0], [2.0; 3], &[], true);
    let parts: Vec<Body> = [plate, block]
        .iter()
        .map(|b| turned(b, [1.0, 0.0, 0.0], 10.0, FAR))
        .collect();
    let (code, v, err) = run("block10.obj", &obj(&parts));
    assert_eq!(code, 0, "{err}");
    assert!((volume(&v) - 108.0).abs() < 1e-10, "{}", volume(&v));
}

#[test]
fn a_6_digit_ascii_assembly_of_touching_parts_passes_with_a_warning() {
    // A plate, a block and a cube on it, turned 37° and moved to (100, 200, 300): 6
    // digits there are a thousandth. (Parts that also share a rounded corner, a cube
    // against the block's side, are still refused: see docs/refusals-and-limits.md.)
    let parts: Vec<Body> = [
        boxed([0.0; 3], [10.0, 10.0, 1.0], &[], false),
        boxed([3.0, 3.0, 1.0], [2.0; 3], &[], true),
        boxed([6.5, 3.0, 1.0], [1.0; 3], &[], false),
    ]
    .iter()
    .map(|b| turned(b, AXIS, 37.0, FAR))
    .collect();
    let (code, v, err) = run_accepting("assembly6.stl", &stl6(&parts));
    assert_eq!(code, 0, "{err}");
    assert!((volume(&v) - 109.0).abs() < 0.05, "{}", volume(&v));
    assert!(err.contains(": taken for touching (at most "), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    // The same in the JSON: how many, the deepest (a few units of the 6th digit), and a
    // bound on the volume counted twice.
    let c = &v["contacts"];
    assert!(c["count"].as_u64().unwrap() > 0, "{v}");
    let depth = c["max_depth"].as_f64().unwrap();
    assert!(depth > 0.0 && depth < 2e-3, "{c}");
    assert!(c["volume_bound"].as_f64().unwrap() > 0.0, "{c}");
}

/// A plate, a block on it and a cube on the plate against the block's side: the cube
/// shares two corners with the block and four with nothing but the plate's top face, with
/// the cube moved along x by `into` (into the block when positive).
fn cube_against_block(into: f64) -> Vec<Body> {
    vec![
        boxed([0.0; 3], [10.0, 10.0, 1.0], &[], false),
        boxed([3.0, 3.0, 1.0], [2.0; 3], &[], true),
        boxed([5.0 - into, 3.0, 1.0], [1.0; 3], &[], false),
    ]
}

#[test]
fn a_cube_against_a_blocks_side_sharing_rounded_corners_passes() {
    // Crossings there pass exactly through a corner or along an edge of a face they touch,
    // where the exact test sees none; the levels of the crossings add up once they are
    // counted again with the points perturbed symbolically.
    for (axis, deg) in [
        (AXIS, 37.0),
        ([1.0, 0.0, 0.0], 10.0),
        ([0.0, 0.0, 1.0], 0.0),
    ] {
        let parts: Vec<Body> = cube_against_block(0.0)
            .iter()
            .map(|b| turned(b, axis, deg, FAR))
            .collect();
        for (name, text, within) in [
            ("shared.obj", obj(&parts), 1e-10),
            ("shared.stl", stl6(&parts), 0.05),
        ] {
            let (code, v, err) = run_accepting(name, &text);
            assert_eq!(code, 0, "{deg}° {name}: {err}");
            assert!((volume(&v) - 109.0).abs() < within, "{deg}° {name}: {v}");
        }
    }
}

#[test]
fn a_cube_pushed_into_a_blocks_side_is_refused() {
    // 0.01 into the block (deeper than a repair's reach), and 1e-6 (within reach, judged
    // by its bound), at 37° and 10°.
    for (into, text6) in [(0.01, true), (1e-6, false)] {
        for (axis, deg) in [(AXIS, 37.0), ([1.0, 0.0, 0.0], 10.0)] {
            let parts: Vec<Body> = cube_against_block(into)
                .iter()
                .map(|b| turned(b, axis, deg, FAR))
                .collect();
            let mut files = vec![("pushed.obj", obj(&parts))];
            if text6 {
                files.push(("pushed.stl", stl6(&parts)));
            }
            for (name, text) in files {
                let (code, v, err) = run(name, &text);
                // 1e-6 into it: a contact whose bound (1.1e-6 of the volume) is within
                // the repair tolerance: answered, the bound stated.
                if into == 1e-6 {
                    assert_eq!(code, 0, "{deg}° {name}: {err}");
                    let bound = v["contacts"]["volume_bound"].as_f64().unwrap();
                    assert!(bound > 0.0 && bound <= 1e-5 * volume(&v), "{v}");
                    continue;
                }
                assert_eq!(code, 2, "{into} {deg}° {name}: {v}");
                assert!(
                    (err.contains("overlap") || err.contains("repair tolerance"))
                        && err.trim_end().lines().count() == 1,
                    "{into} {deg}° {name}: {err}"
                );
            }
        }
    }
}

#[test]
fn parts_sunk_or_placed_twice_are_refused_however_the_rounding_falls() {
    let plate = boxed([0.0; 3], [10.0, 10.0, 1.0], &[], false);
    let cases: [(&str, Vec<Body>); 4] = [
        // Sunk half its height into the plate.
        (
            "sunk",
            vec![plate.clone(), boxed([3.0, 3.0, 0.5], [2.0; 3], &[], false)],
        ),
        // The same, its walls split just under the plate's top: every crossing there is
        // 1e-7 deep, the block's bottom half a unit.
        (
            "split wall",
            vec![
                plate.clone(),
                boxed([3.0, 3.0, 0.5], [2.0; 3], &[1.0 - 1e-7], false),
            ],
        ),
        // One cube twice, the second moved by 0.3.
        (
            "twice",
            vec![
                boxed([0.0; 3], [1.0; 3], &[], false),
                boxed([0.3; 3], [1.0; 3], &[], false),
            ],
        ),
        // Two cubes overlapping by half.
        (
            "half",
            vec![
                boxed([0.0; 3], [1.0; 3], &[], false),
                boxed([0.5, 0.25, 0.125], [1.0; 3], &[], true),
            ],
        ),
    ];
    for (what, bodies) in &cases {
        for (axis, deg) in [(AXIS, 37.0), ([1.0, 0.0, 0.0], 10.0)] {
            let parts: Vec<Body> = bodies.iter().map(|b| turned(b, axis, deg, FAR)).collect();
            for (name, text) in [("p.obj", obj(&parts)), ("p.stl", stl6(&parts))] {
                let (code, v, err) = run(name, &text);
                assert_eq!(code, 2, "{what} {deg}° {name}: {v}");
                assert!(
                    err.contains("overlap") && err.trim_end().lines().count() == 1,
                    "{what} {deg}° {name}: {err}"
                );
            }
        }
    }
}

/// A square pyramid: base `[x0, x1]²` at height `z0`, apex `apex` (outward).
fn pyramid(x0: f64, x1: f64, z0: f64, apex: [f64; 3]) -> Body {
    let v = vec![[x0, x0, z0], [x1, x0, z0], [x1, x1, z0], [x0, x1, z0], apex];
    let t = vec![
        [0, 3, 2],
        [0, 2, 1],
        [0, 1, 4],
        [1, 2, 4],
        [2, 3, 4],
        [3, 0, 4],
    ];
    (v, t)
}

/// A box `[-1, 5]² × [0, 3]` whose floor is cut around the inner square `[1, 3]²`, so that
/// the floor has corners at (1, 1, 0), (3, 1, 0), (3, 3, 0) and (1, 3, 0).
fn box_with_inner_floor() -> Body {
    let (lo, hi, i0, i1) = (-1.0, 5.0, 1.0, 3.0);
    let mut v = vec![
        [lo, lo, 0.0],
        [hi, lo, 0.0],
        [hi, hi, 0.0],
        [lo, hi, 0.0],
        [lo, lo, 3.0],
        [hi, lo, 3.0],
        [hi, hi, 3.0],
        [lo, hi, 3.0],
    ];
    v.extend([[i0, i0, 0.0], [i1, i0, 0.0], [i1, i1, 0.0], [i0, i1, 0.0]]);
    let mut t = vec![
        // Top, and the four walls.
        [4, 5, 6],
        [4, 6, 7],
        [0, 1, 5],
        [0, 5, 4],
        [1, 2, 6],
        [1, 6, 5],
        [2, 3, 7],
        [2, 7, 6],
        [3, 0, 4],
        [3, 4, 7],
        // The inner square of the floor (facing down).
        [8, 11, 10],
        [8, 10, 9],
    ];
    // The floor's ring between the outer and the inner square (facing down).
    for k in 0..4 {
        let (o0, o1, n0, n1) = (k, (k + 1) % 4, 8 + k, 8 + (k + 1) % 4);
        t.extend([[o0, n0, n1], [o0, n1, o1]]);
    }
    (v, t)
}

#[test]
fn a_pyramid_crossing_a_box_only_through_its_corners_is_refused() {
    // The pyramid's edges run from its apex inside the cube through the cube's corner:
    // nothing is pierced through a face's interior or an edge's, yet a sixth of the
    // pyramid lies in the cube. Turned and far away, and in the box's floor too.
    let cube = boxed([0.0; 3], [1.0; 3], &[], false);
    let tip = pyramid(-1.0, 2.0, -1.0, [0.5, 0.5, 0.5]);
    let (code, _, err) = run("pyramid_corner.obj", &obj(&[cube.clone(), tip.clone()]));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("cross at (0, 0, 0)"), "{err}");
    let (a, b) = (
        turned(&cube, AXIS, 30.0, FAR),
        turned(&tip, AXIS, 30.0, FAR),
    );
    // Turned, the corners are no longer exactly on the edges: a crossing through faces.
    let (code, _, err) = run("pyramid_corner_turned.obj", &obj(&[a, b]));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("overlap"), "{err}");
    // Through four corners of the floor (the pyramid's faces cross it along the floor's
    // own edges): 4/3 of the pyramid lies in the box.
    let floor = box_with_inner_floor();
    let tip = pyramid(0.0, 4.0, -1.0, [2.0, 2.0, 1.0]);
    let (code, _, err) = run("pyramid_floor.obj", &obj(&[floor.clone(), tip]));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("cross at (1, 1, 0), 1 deep"), "{err}");
    // Pressed against the floor from below instead (apex on the floor's corner, the
    // pyramid wholly below): touching, 108 + 4/3.
    let under = pyramid(0.0, 4.0, -2.0, [1.0, 1.0, 0.0]);
    let (code, v, err) = run("pyramid_under.obj", &obj(&[floor, under]));
    assert_eq!(code, 0, "{err}");
    assert!((volume(&v) - (108.0 + 32.0 / 3.0)).abs() < 1e-12, "{v}");
}

/// A row of `n` unit blocks 1.5 apart with a beam lying across their tops (its bottom at
/// height `at`; 1 rests on them), the beam's faces split so that its long bottom edges
/// and diagonals pass over the blocks' top edges.
fn beam_on_blocks(n: usize, at: f64) -> Vec<Body> {
    beam_of_width(n, at, 0.5)
}

/// [`beam_on_blocks`] with a beam of `width` centred on the blocks: as wide as them (1), its
/// long bottom edges lie along the blocks' top edges.
fn beam_of_width(n: usize, at: f64, width: f64) -> Vec<Body> {
    let mut parts: Vec<Body> = (0..n)
        .map(|k| boxed([1.5 * k as f64, 0.0, 0.0], [1.0; 3], &[], k % 2 == 1))
        .collect();
    let long = 1.5 * n as f64 + 1.0;
    parts.push(boxed(
        [-1.0, 0.5 - width / 2.0, at],
        [long, width, 0.5],
        &[at + 0.25],
        false,
    ));
    parts
}

#[test]
fn a_beam_as_wide_as_the_blocks_under_it_passes_and_sunk_is_refused() {
    // Its bottom edges run along the blocks' top edges: crossings through corners and
    // along edges, counted again with the points perturbed.
    for (axis, deg) in [(AXIS, 37.0), ([1.0, 0.0, 0.0], 10.0)] {
        let turn = |parts: Vec<Body>| -> Vec<Body> {
            parts.iter().map(|b| turned(b, axis, deg, FAR)).collect()
        };
        let resting = turn(beam_of_width(6, 1.0, 1.0));
        let exact = 6.0 + 10.0 * 0.5;
        for (name, text, within) in [
            ("flush.obj", obj(&resting), 1e-10),
            ("flush.stl", stl6(&resting), 0.05),
        ] {
            let (code, v, err) = run_accepting(name, &text);
            assert_eq!(code, 0, "{deg}° {name}: {err}");
            assert!((volume(&v) - exact).abs() < within, "{deg}° {name}: {v}");
        }
        for (at, name, text6) in [(0.9, "0.1", true), (1.0 - 1e-6, "1e-6", false)] {
            let sunk = turn(beam_of_width(6, at, 1.0));
            let mut files = vec![obj(&sunk)];
            if text6 {
                files.push(stl6(&sunk));
            }
            for (k, text) in files.into_iter().enumerate() {
                let file = ["sunk.obj", "sunk.stl"][k];
                let (code, v, err) = run(file, &text);
                // Sunk by 1e-6: within reach, its bound (3.3e-6 of the volume) within the
                // repair tolerance: answered, the bound stated.
                if name == "1e-6" {
                    assert_eq!(code, 0, "{deg}° {file}: {err}");
                    let bound = v["contacts"]["volume_bound"].as_f64().unwrap();
                    assert!(bound > 0.0 && bound <= 1e-5 * volume(&v), "{v}");
                    continue;
                }
                assert_eq!(code, 2, "{name} {deg}° {file}: {v}");
                assert!(err.contains("overlap"), "{name} {deg}° {file}: {err}");
            }
        }
    }
}

#[test]
fn a_beam_resting_across_a_row_of_blocks_passes_turned_at_full_and_6_digit_precision() {
    // The beam's bottom edges pass through the blocks' side faces within rounding of their
    // top edges: a crossing of 1e-16 (or of the 6th digit), though its edge's ends are a
    // unit and more from the side face's plane.
    for (axis, deg) in [
        (AXIS, 37.0),
        ([1.0, 0.0, 0.0], 10.0),
        ([0.0, 0.0, 1.0], 0.0),
    ] {
        let parts: Vec<Body> = beam_on_blocks(6, 1.0)
            .iter()
            .map(|b| turned(b, axis, deg, FAR))
            .collect();
        let exact = 6.0 + 10.0 * 0.25;
        for (name, text, within) in [
            ("beam.obj", obj(&parts), 1e-10),
            ("beam.stl", stl6(&parts), 0.05),
        ] {
            let (code, v, err) = run_accepting(name, &text);
            assert_eq!(code, 0, "{deg}° {name}: {err}");
            assert!(
                (volume(&v) - exact).abs() < within,
                "{deg}° {name}: {}",
                volume(&v)
            );
        }
    }
}

#[test]
fn a_beam_sunk_into_a_row_of_blocks_is_refused() {
    // Sunk level by 0.1, 1e-6 and 1e-10 (the tolerance at 300 is 9e-13), or tilted by
    // half a degree about the first block's near top edge: resting there, 0.05 deep
    // in the last block.
    let tilted = |deg: f64| {
        let mut parts = beam_on_blocks(6, 1.0);
        let beam = parts.pop().unwrap();
        let moved = |b: &Body, by: [f64; 3]| {
            (
                b.0.iter()
                    .map(|p| [0, 1, 2].map(|i| p[i] + by[i]))
                    .collect(),
                b.1.clone(),
            )
        };
        let beam = moved(
            &turned(
                &moved(&beam, [0.0, 0.0, -1.0]),
                [0.0, 1.0, 0.0],
                deg,
                [0.0; 3],
            ),
            [0.0, 0.0, 1.0],
        );
        parts.push(beam);
        parts
    };
    let cases = [
        ("0.1", beam_on_blocks(6, 0.9)),
        ("1e-6", beam_on_blocks(6, 1.0 - 1e-6)),
        ("1e-10", beam_on_blocks(6, 1.0 - 1e-10)),
        ("tilted", tilted(0.5)),
    ];
    for (what, bodies) in &cases {
        for (axis, deg) in [(AXIS, 37.0), ([1.0, 0.0, 0.0], 10.0)] {
            let parts: Vec<Body> = bodies.iter().map(|b| turned(b, axis, deg, FAR)).collect();
            let (code, v, err) = run("sunk_beam.obj", &obj(&parts));
            // Sunk by 1e-6 or 1e-10: a contact whose bound (2.3e-6, 2e-10 of the volume)
            // is within the repair tolerance: answered, the bound stated.
            if matches!(*what, "1e-6" | "1e-10") {
                assert_eq!(code, 0, "{what} {deg}°: {err}");
                let bound = v["contacts"]["volume_bound"].as_f64().unwrap();
                assert!(bound > 0.0 && bound <= 1e-5 * volume(&v), "{v}");
                continue;
            }
            assert_eq!(code, 2, "{what} {deg}°: {v}");
            assert!(
                err.contains("overlap") || err.contains("more than the repair tolerance"),
                "{what} {deg}°: {err}"
            );
            // With 6 digits (2e-3 at 300), what is deeper than that is refused too.
            if matches!(*what, "0.1" | "tilted") {
                let (code, v, err) = run("sunk_beam.stl", &stl6(&parts));
                assert_eq!(code, 2, "{what} {deg}° 6 digits: {v}");
                assert!(err.contains("overlap"), "{what} {deg}° 6 digits: {err}");
            }
        }
    }
}

/// Unit cubes in random cells of a 3 × 3 × 2 lattice: each touches others along whole
/// faces, edges or only corners, sharing those corners exactly, its walls split at one of
/// three sets of heights and its faces on either diagonal.
pub(super) fn lattice_cubes(seed: u64, count: usize) -> Vec<Body> {
    let mut state = seed;
    let mut next = |n: u64| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) % n
    };
    let mut cells: Vec<[u64; 3]> = Vec::new();
    while cells.len() < count {
        let c = [next(3), next(3), next(2)];
        if !cells.contains(&c) {
            cells.push(c);
        }
    }
    cells
        .iter()
        .map(|c| {
            let z = c[2] as f64;
            // Walls split at heights that differ from cube to cube: a corner of one on
            // the middle of another's edge or face.
            let rings = [vec![], vec![z + 0.5], vec![z + 0.25, z + 0.75]][next(3) as usize].clone();
            boxed(c.map(|x| x as f64), [1.0; 3], &rings, next(2) == 1)
        })
        .collect()
}

#[test]
fn cubes_touching_along_faces_edges_and_corners_pass_turned_and_rounded() {
    // Every way two lattice cells touch, with the cubes' corners shared exactly and then
    // turned and written with 17 or 6 digits or as f32: touching, never overlap, and the
    // volume is the number of cubes. A cube placed again half a unit off is refused.
    for seed in 1..=60u64 {
        let count = 3 + seed as usize % 12;
        let cubes = lattice_cubes(seed, count);
        // Turned about an axis and by an angle of its own (3° to 82°); every third about
        // x, which keeps the walls facing ±x exactly in their planes.
        let axis = if seed % 3 == 0 {
            [1.0, 0.0, 0.0]
        } else {
            [1.0, seed as f64 * 0.37, 2.0 - seed as f64 * 0.11]
        };
        let deg = 3.0 + (seed * 13 % 80) as f64;
        let turn = |parts: &[Body]| -> Vec<Body> {
            parts.iter().map(|b| turned(b, axis, deg, FAR)).collect()
        };
        let parts = turn(&cubes);
        // Six digits at 300 place a unit cube's corners to 1e-3, a repair's whole reach
        // (a thousandth of an edge): that file is written near the origin, where six
        // digits say a corner to 1e-6.
        let near: Vec<Body> = cubes
            .iter()
            .map(|b| turned(b, axis, deg, [1.0, 2.0, 3.0]))
            .collect();
        for (name, text, within) in [
            ("lattice.obj", obj(&parts).into_bytes(), 1e-9),
            ("lattice.stl", stl6(&near).into_bytes(), 1e-4),
            ("lattice32.stl", stl32(&parts), 1e-3),
        ] {
            let (code, v, err) = run_accepting(name, &text);
            assert_eq!(code, 0, "seed {seed} {name}: {err}");
            assert!(
                (volume(&v) - count as f64).abs() < within,
                "seed {seed} {name}: {v}"
            );
        }
        let mut twice = cubes.clone();
        let lo = twice[0].0[0];
        twice.push(boxed(lo.map(|x| x + 0.5), [1.0; 3], &[], false));
        let parts = turn(&twice);
        for (name, text) in [
            ("twice.obj", obj(&parts).into_bytes()),
            ("twice.stl", stl6(&parts).into_bytes()),
            ("twice32.stl", stl32(&parts)),
        ] {
            let (code, v, err) = run_accepting(name, &text);
            assert_eq!(code, 2, "seed {seed} {name}: {v}");
            assert!(err.contains("overlap"), "seed {seed} {name}: {err}");
        }
    }
}

#[test]
fn boxes_side_by_side_with_flush_walls_pass_and_pushed_together_are_refused() {
    // Two boxes side by side along y, their walls split at different heights: a corner of
    // each (on a split) lies on the other's vertical edge. Turned about x, their walls
    // facing ±x stay exactly in one plane, and rounding moves those corners a little into
    // the other's wall: coplanar faces facing the same way, overlapping in a band as wide
    // as the rounding. Pushed together by a tenth, they overlap.
    for (axis, deg) in [
        ([1.0, 0.0, 0.0], 10.0),
        (AXIS, 37.0),
        ([0.0, 0.0, 1.0], 0.0),
    ] {
        let turn = |parts: Vec<Body>| -> Vec<Body> {
            parts.iter().map(|b| turned(b, axis, deg, FAR)).collect()
        };
        let pair = |at: f64| {
            turn(vec![
                boxed([0.0; 3], [2.0, 1.0, 1.0], &[0.3, 0.55], false),
                boxed([0.0, at, 0.0], [2.0, 1.0, 1.0], &[0.4, 0.8], true),
            ])
        };
        let parts = pair(1.0);
        for (name, text, within) in [
            ("flush.obj", obj(&parts).into_bytes(), 1e-10),
            ("flush.stl", stl6(&parts).into_bytes(), 0.05),
            ("flush32.stl", stl32(&parts), 1e-3),
        ] {
            let (code, v, err) = run_accepting(name, &text);
            assert_eq!(code, 0, "{deg}° {name}: {err}");
            assert!((volume(&v) - 4.0).abs() < within, "{deg}° {name}: {v}");
        }
        let parts = pair(0.9);
        for (name, text) in [
            ("pushed.obj", obj(&parts).into_bytes()),
            ("pushed.stl", stl6(&parts).into_bytes()),
            ("pushed32.stl", stl32(&parts)),
        ] {
            let (code, v, err) = run_accepting(name, &text);
            assert_eq!(code, 2, "{deg}° {name}: {v}");
            assert!(err.contains("overlap"), "{deg}° {name}: {err}");
        }
    }
}

/// A cube `[0, 3]³` as OBJ text, its top face a 3 × 3 grid whose inner point at (1, 1) is
/// moved to `(vx, 1)` in the face's plane: past x = 2 some of the face's triangles turn
/// over flat onto their neighbours (a zero-volume fold).
fn folded_top_obj(vx: f64) -> String {
    let mut points: Vec<[f64; 3]> = Vec::new();
    let mut at = |p: [f64; 3]| match points.iter().position(|q| *q == p) {
        Some(k) => k + 1,
        None => {
            points.push(p);
            points.len()
        }
    };
    let top = |i: usize, j: usize| {
        let x = if (i, j) == (1, 1) { vx } else { i as f64 };
        [x, j as f64, 3.0]
    };
    let mut faces: Vec<[usize; 3]> = Vec::new();
    let mut poly = |vs: Vec<[f64; 3]>, at: &mut dyn FnMut([f64; 3]) -> usize| {
        for k in 1..vs.len() - 1 {
            faces.push([at(vs[0]), at(vs[k]), at(vs[k + 1])]);
        }
    };
    let b = |x: f64, y: f64| [x, y, 0.0];
    poly(vec![b(0., 0.), b(0., 3.), b(3., 3.), b(3., 0.)], &mut at);
    let side = |f: &dyn Fn(usize) -> [f64; 3], down: bool| -> Vec<[f64; 3]> {
        let mut v: Vec<[f64; 3]> = (0..4).map(f).collect();
        if down {
            v.reverse();
        }
        v
    };
    poly(
        [vec![b(0., 0.), b(3., 0.)], side(&|i| top(i, 0), true)].concat(),
        &mut at,
    );
    poly(
        [vec![b(3., 0.), b(3., 3.)], side(&|j| top(3, j), true)].concat(),
        &mut at,
    );
    poly(
        [vec![b(3., 3.), b(0., 3.)], side(&|i| top(i, 3), false)].concat(),
        &mut at,
    );
    poly(
        [vec![b(0., 3.), b(0., 0.)], side(&|j| top(0, j), false)].concat(),
        &mut at,
    );
    for i in 0..3 {
        for j in 0..3 {
            let q = [top(i, j), top(i + 1, j), top(i + 1, j + 1), top(i, j + 1)];
            poly(q.to_vec(), &mut at);
        }
    }
    let mut s = String::new();
    for p in &points {
        s += &format!("v {} {} {}\n", p[0], p[1], p[2]);
    }
    for f in &faces {
        s += &format!("f {} {} {}\n", f[0], f[1], f[2]);
    }
    s
}

#[test]
fn a_face_folded_over_itself_in_its_plane_passes_with_a_warning() {
    // Moved within its fan: nothing to say.
    let (code, v, err) = run("unfolded.obj", &folded_top_obj(1.5));
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(v["contacts"].is_null(), "{v}");
    // Past it: one fold, the cube's volume and moments, a warning naming the fold.
    for vx in [2.3, 3.4] {
        let (code, v, err) = run("folded.obj", &folded_top_obj(vx));
        assert_eq!(code, 0, "{err}");
        assert!((volume(&v) - 27.0).abs() < 1e-12, "{}", volume(&v));
        let i = &v["inertia_tensor"];
        assert!((i[0][0].as_f64().unwrap() - 40.5).abs() < 1e-12, "{i}");
        assert!(
            err.contains("1 face(s) fold over themselves in their own plane"),
            "{err}"
        );
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        let c = &v["contacts"];
        assert_eq!(
            (c["folds"].as_u64(), c["count"].as_u64()),
            (Some(1), Some(0)),
            "{c}"
        );
        assert_eq!(c["volume_bound"].as_f64(), Some(0.0), "{c}");
    }
    // Twice in one file: the copies' faces lie on each other, facing the same way.
    let once = folded_top_obj(2.3);
    let n = once.lines().filter(|l| l.starts_with("v ")).count();
    let moved: String = once
        .lines()
        .map(|l| match l.strip_prefix("f ") {
            Some(f) => {
                let k: Vec<usize> = f
                    .split(' ')
                    .map(|x| x.parse::<usize>().unwrap() + n)
                    .collect();
                format!("f {} {} {}\n", k[0], k[1], k[2])
            }
            None => format!("{l}\n"),
        })
        .collect();
    let (code, _, err) = run("folded_twice.obj", &(once + &moved));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("coincide"), "{err}");
}

/// Four unit cubes in a U lying on its side, one shell (each cube joined to the next
/// through the face between them, left out): the last rests on the first face to face,
/// its bottom edge away from the third cube lowered by `dz` into the first.
fn u_shell(dz: f64) -> Body {
    let path = [
        [0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [1.0, 0.0, 1.0],
        [0.0, 0.0, 1.0],
    ];
    let mut v: Vec<[f64; 3]> = Vec::new();
    let mut t = Vec::new();
    let mut point = |p: [f64; 3]| match v.iter().position(|q| *q == p) {
        Some(i) => i,
        None => {
            v.push(p);
            v.len() - 1
        }
    };
    for (i, o) in path.iter().enumerate() {
        // Each face by its outward axis and its corners, counterclockwise seen from out.
        let faces: [([f64; 3], [[f64; 3]; 4]); 6] = [
            (
                [-1.0, 0.0, 0.0],
                [[0., 0., 0.], [0., 0., 1.], [0., 1., 1.], [0., 1., 0.]],
            ),
            (
                [1.0, 0.0, 0.0],
                [[1., 0., 0.], [1., 1., 0.], [1., 1., 1.], [1., 0., 1.]],
            ),
            (
                [0.0, -1.0, 0.0],
                [[0., 0., 0.], [1., 0., 0.], [1., 0., 1.], [0., 0., 1.]],
            ),
            (
                [0.0, 1.0, 0.0],
                [[0., 1., 0.], [0., 1., 1.], [1., 1., 1.], [1., 1., 0.]],
            ),
            (
                [0.0, 0.0, -1.0],
                [[0., 0., 0.], [0., 1., 0.], [1., 1., 0.], [1., 0., 0.]],
            ),
            (
                [0.0, 0.0, 1.0],
                [[0., 0., 1.], [1., 0., 1.], [1., 1., 1.], [0., 1., 1.]],
            ),
        ];
        for (out, quad) in faces {
            let next = [0, 1, 2].map(|k| o[k] + out[k]);
            let joined = |j: usize| path.get(j) == Some(&next);
            if (i > 0 && joined(i - 1)) || joined(i + 1) {
                continue;
            }
            let c = quad.map(|q| {
                let mut p = [0, 1, 2].map(|k| o[k] + q[k]);
                if i == 3 && p[0] == 0.0 && p[2] == 1.0 {
                    p[2] -= dz;
                }
                point(p)
            });
            t.push([c[0], c[1], c[2]]);
            t.push([c[0], c[2], c[3]]);
        }
    }
    (v, t)
}

#[test]
fn one_shell_resting_on_itself_passes_and_sunk_into_itself_is_refused() {
    // Sunk 0.5: the wedge between the last cube's tilted bottom and the first's top is
    // inside both, and no pair of triangles crosses through it (the two meet at an edge
    // they share; the sides they share are coplanar, or, turned, cross by the rounding
    // alone). Never answered.
    for (axis, deg) in [([0.0, 0.0, 1.0], 0.0), (AXIS, 37.0)] {
        for dz in [0.0, 1e-3, 0.5] {
            let u = turned(&u_shell(dz), axis, deg, FAR);
            let (code, v, err) = run("u.obj", &obj(&[u]));
            if dz == 0.0 {
                assert_eq!(code, 0, "{deg}°: {err}");
                assert!((volume(&v) - 4.0).abs() < 1e-9, "{deg}°: {v}");
                continue;
            }
            assert_eq!(code, 2, "{dz} {deg}°: {v}");
            assert!(
                err.trim_end().lines().count() == 1
                    && (err.contains("repair tolerance") || err.contains("overlap")),
                "{dz} {deg}°: {err}"
            );
        }
    }
}

#[test]
fn a_body_sunk_into_another_along_faces_they_share_is_refused() {
    // A unit cube, and on it a unit-square prism whose sides lie in the cube's side planes
    // and whose bottom is tilted `d` down into the cube at x = 1 (its other bottom corners
    // 1e-9 above or below the cube's top, so that no corner is shared). Turned, the flush
    // sides cross only by the rounding and every corner inside the cube lies on its
    // faces; but the sides lie on the cube's, facing the same way, over a wedge as wide
    // as `d`: the two share its volume (the sum 2 + d/2 where the union is 2). Flat on top
    // (`d` = 0) the prism touches the cube and passes.
    for off in [1e-9, -1e-9] {
        for d in [0.0, 0.1, 0.25, 0.5] {
            let cube = boxed([0.0; 3], [1.0; 3], &[], false);
            let (mut v, t) = boxed([0.0, 0.0, 1.0], [1.0; 3], &[], false);
            for p in v.iter_mut().filter(|p| p[2] == 1.0) {
                p[2] = if p[0] == 1.0 { 1.0 - d } else { 1.0 + off };
            }
            let parts: Vec<Body> = [cube, (v, t)]
                .iter()
                .map(|b| turned(b, AXIS, 37.0, FAR))
                .collect();
            let (code, v, err) = run("sunk.obj", &obj(&parts));
            if d == 0.0 {
                assert_eq!(code, 0, "{off} {d}: {err}");
                assert!((volume(&v) - (2.0 - off / 2.0)).abs() < 1e-10, "{v}");
            } else {
                assert_eq!(code, 2, "{off} {d}: {v}");
                assert!(err.contains("overlap"), "{off} {d}: {err}");
            }
        }
    }
}
