//! One rule for repairs. Between the file's triangles and a closed solid whose bodies do not
//! overlap there may be repairs: T-junctions joined (a corner on another triangle's edge),
//! a shallow crossing or contact between bodies accepted as touching. Each carries a bound
//! on how much it can change the volume, and the tool answers only when those bounds
//! together stay within `--repair-tolerance` (relative to the reported volume, default
//! 1e-5); otherwise it refuses: exit code 2, one line on stderr, nothing on stdout.
//!
//! Nothing else widens what a repair may forgive: not how many digits the file's values
//! have (`%.6f`, 6 significant digits, or short values far from the origin), not whether
//! they are all `f32`, not the digits of another body in the file. The files here are
//! written as real ones are, and each would pass or fail under a tolerance read from its
//! digits: the refusals are overlaps and holes 0.1 to 1,000 units deep that such a rule
//! took for rounding; the answers are repairs whose bounds are tiny, reported in the JSON
//! (`contacts`: `count`, `max_depth`, `volume_bound`; `junctions`: `points`, `triangles`,
//! `largest_offset`, `volume_bound`).

use super::contacts::{Body, turned};
use assert_cmd::cargo::cargo_bin_cmd;
use serde_json::Value;

/// How a file writes a value.
type Fmt = fn(f64) -> String;

/// The shortest text that reads back as the value (short values stay short).
fn full(x: f64) -> String {
    format!("{x:?}")
}

/// Six decimals, as `%.6f`.
fn fixed6(x: f64) -> String {
    format!("{x:.6}")
}

/// Six significant digits, as `%g`.
fn sig6(x: f64) -> String {
    let v: f64 = format!("{x:.5e}").parse().unwrap();
    format!("{v}")
}

/// Seventeen significant digits, as `%.17g`.
fn sig17(x: f64) -> String {
    format!("{x:.16e}")
}

/// The box from `lo` of `size`, 12 triangles facing out; `alt` picks each quad's other
/// diagonal.
fn cuboid(lo: [f64; 3], size: [f64; 3], alt: bool) -> Body {
    let hi = [0, 1, 2].map(|i| lo[i] + size[i]);
    let v = [lo[2], hi[2]]
        .iter()
        .flat_map(|&z| {
            [
                [lo[0], lo[1], z],
                [hi[0], lo[1], z],
                [hi[0], hi[1], z],
                [lo[0], hi[1], z],
            ]
        })
        .collect();
    let quad = |a, b, c, d| {
        if alt {
            [[a, b, d], [b, c, d]]
        } else {
            [[a, b, c], [a, c, d]]
        }
    };
    let mut t = vec![];
    t.extend(quad(0, 3, 2, 1));
    t.extend(quad(4, 5, 6, 7));
    for k in 0..4 {
        let (a, b) = (k, (k + 1) % 4);
        t.extend(quad(a, b, b + 4, a + 4));
    }
    (v, t)
}

/// Two cubes of side `s` from `at`, the second moved by `shift` (times `s`): by 0.9 each
/// way, corner into corner a tenth of `s` deep.
fn pair(at: [f64; 3], s: f64, shift: [f64; 3]) -> Vec<Body> {
    vec![
        cuboid(at, [s; 3], false),
        cuboid([0, 1, 2].map(|i| at[i] + shift[i] * s), [s; 3], true),
    ]
}

const CROSSED: [f64; 3] = [0.9; 3];
const AXIS: [f64; 3] = [1.0, 2.0, 3.0];

/// The box `a × b × h` from the origin whose top face is fanned from its centre through the
/// midpoints of its edges while each side is two triangles: four T-junctions. The front
/// edge's midpoint is `drop` below the top: above it, a triangular hole in the front face.
fn junction_box([a, b, h]: [f64; 3], drop: f64) -> Body {
    let v = vec![
        [0.0, 0.0, 0.0],
        [a, 0.0, 0.0],
        [a, b, 0.0],
        [0.0, b, 0.0],
        [0.0, 0.0, h],
        [a, 0.0, h],
        [a, b, h],
        [0.0, b, h],
        [a / 2.0, 0.0, h - drop],
        [a, b / 2.0, h],
        [a / 2.0, b, h],
        [0.0, b / 2.0, h],
        [a / 2.0, b / 2.0, h],
    ];
    let mut t = vec![[0, 2, 1], [0, 3, 2]];
    let ring = [4, 8, 5, 9, 6, 10, 7, 11];
    for i in 0..8 {
        t.push([12, ring[i], ring[(i + 1) % 8]]);
    }
    for k in 0..4 {
        let (b0, b1) = (k, (k + 1) % 4);
        t.extend([[b0, b1, b1 + 4], [b0, b1 + 4, b0 + 4]]);
    }
    (v, t)
}

/// `body` with each coordinate rounded to a multiple of `q` (a power of two: the values are
/// then `f32`, checked).
fn snapped(body: &Body, q: f64) -> Body {
    let v: Vec<[f64; 3]> = body
        .0
        .iter()
        .map(|p| p.map(|x| (x / q).round() * q))
        .collect();
    assert!(v.iter().flatten().all(|&x| (x as f32) as f64 == x));
    (v, body.1.clone())
}

/// `body` moved by `by` (turned by 0°: exactly).
fn moved(body: &Body, by: [f64; 3]) -> Body {
    turned(body, AXIS, 0.0, by)
}

/// An OBJ of the bodies, each with its own way of writing values.
fn obj(parts: &[(&Body, Fmt)]) -> String {
    let (mut s, mut base) = (String::new(), 1);
    for (body, f) in parts {
        for p in &body.0 {
            s += &format!("v {} {} {}\n", f(p[0]), f(p[1]), f(p[2]));
        }
        for t in &body.1 {
            s += &format!("f {} {} {}\n", t[0] + base, t[1] + base, t[2] + base);
        }
        base += body.0.len();
    }
    s
}

/// An ASCII STL of the bodies, each with its own way of writing values.
fn stl(parts: &[(&Body, Fmt)]) -> String {
    let mut s = String::from("solid parts\n");
    for (body, f) in parts {
        for t in &body.1 {
            s += " facet normal 0 0 0\n  outer loop\n";
            for &i in t {
                let p = body.0[i];
                s += &format!("   vertex {} {} {}\n", f(p[0]), f(p[1]), f(p[2]));
            }
            s += "  endloop\n endfacet\n";
        }
    }
    s + "endsolid parts\n"
}

/// What `inertia mesh - --input-format FORMAT --json ARGS` did with `text` on stdin.
struct Run {
    code: i32,
    json: Value,
    stdout: String,
    stderr: String,
}

fn run(format: &str, text: &str, args: &[&str]) -> Run {
    let out = cargo_bin_cmd!("inertia")
        .args(["mesh", "-", "--input-format", format, "--json"])
        .args(args)
        .write_stdin(text)
        .output()
        .unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        json: serde_json::from_slice(&out.stdout).unwrap_or(Value::Null),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

impl Run {
    /// Exit code 2, one line on stderr, nothing on stdout.
    fn refused(&self, what: &str) {
        assert_eq!(
            self.code,
            2,
            "{what}: answered, volume {} ({})",
            self.json["volume"],
            self.stderr.trim_end()
        );
        assert!(self.stdout.is_empty(), "{what}: {}", self.stdout);
        assert_eq!(
            self.stderr.trim_end().lines().count(),
            1,
            "{what}: {}",
            self.stderr
        );
    }

    /// Exit code 0; the volume within `rel` of `volume`.
    fn answered(&self, what: &str, volume: f64, rel: f64) -> &Value {
        assert_eq!(self.code, 0, "{what}: {}", self.stderr);
        let v = self.json["volume"].as_f64().unwrap();
        assert!(
            (v - volume).abs() <= rel * volume,
            "{what}: volume {v}, not {volume}"
        );
        &self.json
    }
}

/// `json`'s centroid within `within` of `c`.
fn assert_centroid(what: &str, json: &Value, c: [f64; 3], within: f64) {
    let got = [0, 1, 2].map(|i| json["centroid"][i].as_f64().unwrap());
    let off = (0..3).map(|i| (got[i] - c[i]).abs()).fold(0.0, f64::max);
    assert!(off <= within, "{what}: centroid {got:?}, not {c:?}");
}

#[test]
fn cubes_a_tenth_into_each_other_written_with_six_decimals_are_refused() {
    // Corners at 0, 1, 0.9, 1.9, written "0.900000": short values padded. Moved along x
    // only, their other walls coincide.
    for shift in [[0.9, 0.0, 0.0], CROSSED] {
        let [a, b] = &pair([0.0; 3], 1.0, shift)[..] else {
            unreachable!()
        };
        run("obj", &obj(&[(a, fixed6), (b, fixed6)]), &[]).refused(&format!("{shift:?}"));
    }
}

#[test]
fn cubes_into_each_other_far_from_the_origin_with_short_values_are_refused() {
    // 100000000.9, 100000001.9: ten digits, one decimal. And cubes of 10,000 a thousand
    // into each other: 100009000, 100019000, as short as values get.
    for (s, what) in [(1.0, "0.1 deep at 1e8"), (1e4, "1000 deep at 1e8")] {
        let [a, b] = &pair([1e8; 3], s, CROSSED)[..] else {
            unreachable!()
        };
        run("obj", &obj(&[(a, full), (b, full)]), &[]).refused(what);
    }
}

#[test]
fn cubes_into_each_other_with_every_value_an_f32_are_refused() {
    // Every value an f32, written in full in an ASCII STL: multiples of 1/1024 near the
    // origin (0.900390625), of 1/16 at 1e6 (1000000.875: an eighth deep).
    for (at, q) in [(0.0, 1.0 / 1024.0), (1e6, 1.0 / 16.0)] {
        let parts: Vec<Body> = pair([at; 3], 1.0, CROSSED)
            .iter()
            .map(|b| snapped(b, q))
            .collect();
        run("stl", &stl(&[(&parts[0], full), (&parts[1], full)]), &[]).refused(&format!("at {at}"));
    }
}

#[test]
fn a_six_digit_decoy_beside_cubes_a_tenth_into_each_other_changes_nothing() {
    let [a, b] = &pair([0.0; 3], 1.0, CROSSED)[..] else {
        unreachable!()
    };
    // A unit cube at (123457, 234568, 345679), written with 6 significant digits: alone, an
    // answer.
    let decoy = cuboid([123457.0, 234568.0, 345679.0], [1.0; 3], false);
    run("obj", &obj(&[(&decoy, sig6)]), &[]).answered("the decoy", 1.0, 1e-12);
    run("obj", &obj(&[(a, full), (b, full)]), &[]).refused("the pair");
    run("obj", &obj(&[(a, full), (b, full), (&decoy, sig6)]), &[]).refused("with the decoy");
}

#[test]
fn a_hole_a_tenth_high_beside_a_corner_is_refused_as_open() {
    // The front edge's midpoint a tenth below the top, at 1e4 with six decimals: a
    // triangular hole in the front face. Split at that corner as if it were a T-junction,
    // the box would be 59/60 of itself.
    let body = moved(&junction_box([2.0, 3.0, 0.5], 0.1), [1e4, 2e4, 3e4]);
    let out = run("obj", &obj(&[(&body, fixed6)]), &[]);
    out.refused("hole");
    assert!(out.stderr.contains("not closed"), "{}", out.stderr);
    assert!(!out.stderr.contains("T-junction"), "{}", out.stderr);
}

/// The junctions of an answer, which are `points` four corners on four triangles' edges,
/// their offset and volume bound within `offset` and 1e-5 of the volume.
fn assert_junctions(what: &str, json: &Value, offset: f64) {
    let j = &json["junctions"];
    assert_eq!(
        (j["points"].as_u64(), j["triangles"].as_u64()),
        (Some(4), Some(4)),
        "{what}: {j}"
    );
    let largest = j["largest_offset"].as_f64().unwrap();
    assert!((0.0..=offset).contains(&largest), "{what}: {j}");
    let bound = j["volume_bound"].as_f64();
    let volume = json["volume"].as_f64().unwrap();
    assert!(
        bound.is_some_and(|b| (0.0..=1e-5 * volume).contains(&b)),
        "{what}: {j}"
    );
}

const JUNCTION_BOX: [f64; 3] = [2.0, 3.0, 4.0];
const JUNCTIONS_AT: [f64; 3] = [1e6, 2e6, 5e5];

#[test]
fn t_junctions_at_1e6_in_f32_values_are_answered_exactly() {
    // Every value an f32 (multiples of 1/2), written in full: the corners on the edges.
    let body = snapped(&moved(&junction_box(JUNCTION_BOX, 0.0), JUNCTIONS_AT), 0.5);
    let out = run("stl", &stl(&[(&body, full)]), &[]);
    let json = out.answered("f32", 24.0, 1e-9);
    let centre = [0, 1, 2].map(|i| JUNCTIONS_AT[i] + JUNCTION_BOX[i] / 2.0);
    assert_centroid("f32", json, centre, 4e-9);
    assert_junctions("f32", json, 0.0);
}

#[test]
fn t_junctions_turned_at_1e6_in_17_digits_are_answered_exactly() {
    // Turned by 37° about (1, 2, 3): the corners on the edges within the rounding.
    let body = turned(&junction_box(JUNCTION_BOX, 0.0), AXIS, 37.0, JUNCTIONS_AT);
    let out = run("obj", &obj(&[(&body, sig17)]), &[]);
    let json = out.answered("turned", 24.0, 1e-9);
    let centre = turned(
        &(vec![JUNCTION_BOX.map(|x| x / 2.0)], vec![]),
        AXIS,
        37.0,
        JUNCTIONS_AT,
    );
    assert_centroid("turned", json, centre.0[0], 4e-9);
    assert_junctions("turned", json, 1e-8);
}

/// Two unit cubes, one resting on the other a quarter off along x and y (a corner of each
/// in the other's face), turned by 37° about (1, 2, 3), written with 6 significant digits:
/// rounded on their own, those corners are off the other's face by about 1e-6, into it or
/// out of it.
fn stacked6() -> String {
    let parts: Vec<Body> = [
        cuboid([0.0; 3], [1.0; 3], false),
        cuboid([0.25, 0.25, 1.0], [1.0; 3], true),
    ]
    .iter()
    .map(|b| turned(b, AXIS, 37.0, [0.0; 3]))
    .collect();
    obj(&[(&parts[0], sig6), (&parts[1], sig6)])
}

#[test]
fn stacked_cubes_turned_in_six_digits_are_answered_with_a_bounded_contact() {
    let out = run("obj", &stacked6(), &[]);
    let json = out.answered("stacked", 2.0, 1e-5);
    let c = &json["contacts"];
    assert!(c["count"].as_u64().is_some_and(|n| n > 0), "{c}");
    let depth = c["max_depth"].as_f64().unwrap();
    assert!(depth > 0.0 && depth < 1e-5, "{c}");
    let bound = c["volume_bound"].as_f64().unwrap();
    let volume = json["volume"].as_f64().unwrap();
    assert!(bound > 0.0 && bound <= 1e-5 * volume, "{c}");
}

#[test]
fn stacked_cubes_turned_in_six_digits_are_refused_under_a_tighter_tolerance() {
    let text = stacked6();
    let out = run("obj", &text, &["--repair-tolerance", "1e-12"]);
    out.refused("1e-12");
    // The line names the option and a value that would do: the first number after it
    // other than the one given.
    let (_, after) = out
        .stderr
        .split_once("--repair-tolerance")
        .expect(&out.stderr);
    let enough = after
        .split_whitespace()
        .filter_map(|w| {
            w.trim_matches(|c: char| !c.is_ascii_alphanumeric())
                .parse::<f64>()
                .ok()
        })
        .find(|&x| x != 1e-12)
        .unwrap_or_else(|| panic!("no value: {}", out.stderr));
    assert!(enough > 1e-12, "{}", out.stderr);
    run(
        "obj",
        &text,
        &["--repair-tolerance", &format!("{enough:e}")],
    )
    .answered(&format!("with {enough:e}"), 2.0, 1e-5);
}

#[test]
fn cubes_resting_on_each_other_exactly_are_answered_with_no_contact() {
    let parts = [
        cuboid([0.0; 3], [1.0; 3], false),
        cuboid([0.0, 0.0, 1.0], [1.0; 3], true),
    ];
    let out = run("obj", &obj(&[(&parts[0], full), (&parts[1], full)]), &[]);
    let json = out.answered("stacked", 2.0, 0.0);
    assert_centroid("stacked", json, [0.5, 0.5, 1.0], 0.0);
    let c = &json["contacts"];
    assert!(c.is_null() || c["count"] == 0, "{c}");
}

/// The unit cube as OBJ text (six decimals), its top face a 3 × 3 grid whose inner point at
/// (1/3, 1/3) is moved to `(vx, 1/3)` in the face's plane: past 2/3 some of the face's
/// triangles turn over flat onto their neighbours (a zero-volume fold).
fn folded_top(vx: f64) -> String {
    let third = |k: usize| k as f64 / 3.0;
    let top = |i: usize, j: usize| {
        let x = if (i, j) == (1, 1) { vx } else { third(i) };
        [x, third(j), 1.0]
    };
    let bottom = |x: f64, y: f64| [x, y, 0.0];
    // Polygons, each fanned from its first corner: the bottom, the four sides (their top
    // edges through the grid's points), the grid's nine cells.
    let mut polygons: Vec<Vec<[f64; 3]>> = vec![vec![
        bottom(0.0, 0.0),
        bottom(0.0, 1.0),
        bottom(1.0, 1.0),
        bottom(1.0, 0.0),
    ]];
    let side = |a: [f64; 3], b: [f64; 3], edge: [[f64; 3]; 4]| {
        let mut p = vec![a, b];
        p.extend(edge.iter().rev());
        p
    };
    polygons.push(side(
        bottom(0.0, 0.0),
        bottom(1.0, 0.0),
        [0, 1, 2, 3].map(|i| top(i, 0)),
    ));
    polygons.push(side(
        bottom(1.0, 0.0),
        bottom(1.0, 1.0),
        [0, 1, 2, 3].map(|j| top(3, j)),
    ));
    polygons.push(side(
        bottom(1.0, 1.0),
        bottom(0.0, 1.0),
        [3, 2, 1, 0].map(|i| top(i, 3)),
    ));
    polygons.push(side(
        bottom(0.0, 1.0),
        bottom(0.0, 0.0),
        [3, 2, 1, 0].map(|j| top(0, j)),
    ));
    for i in 0..3 {
        for j in 0..3 {
            polygons.push(vec![
                top(i, j),
                top(i + 1, j),
                top(i + 1, j + 1),
                top(i, j + 1),
            ]);
        }
    }
    let mut points: Vec<[f64; 3]> = vec![];
    let mut at = |p: [f64; 3]| match points.iter().position(|q| *q == p) {
        Some(k) => k,
        None => {
            points.push(p);
            points.len() - 1
        }
    };
    let mut triangles = vec![];
    for poly in &polygons {
        for k in 1..poly.len() - 1 {
            triangles.push([at(poly[0]), at(poly[k]), at(poly[k + 1])]);
        }
    }
    obj(&[(&(points, triangles), fixed6)])
}

#[test]
fn a_face_folded_flat_over_itself_adds_no_volume_and_no_area() {
    // Within its fan (0.5), and past it: onto the next cell (2.3 / 3), past the face's
    // edge (3.4 / 3). The surface is the cube's whatever lies folded on it.
    let areas: Vec<(f64, f64)> = [0.5, 0.766667, 1.133333]
        .into_iter()
        .map(|vx| {
            let out = run("obj", &folded_top(vx), &[]);
            let json = out.answered(&format!("{vx}"), 1.0, 1e-12);
            assert_centroid(&format!("{vx}"), json, [0.5; 3], 1e-12);
            (vx, json["surface_area"].as_f64().unwrap())
        })
        .collect();
    assert!(
        areas.iter().all(|(_, a)| (a - 6.0).abs() <= 1e-12),
        "surface areas {areas:?}"
    );
}

/// Runs the binary on a file: exit code, JSON, stderr.
fn run_file(path: &str) -> (i32, Value, String) {
    let out = cargo_bin_cmd!("inertia")
        .args(["mesh", path, "--json"])
        .output()
        .unwrap();
    let json = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    (out.status.code().unwrap_or(-1), json, err)
}

#[test]
fn triangles_listed_the_other_way_round_are_turned_to_agree_with_their_neighbours() {
    // Turning a triangle moves no point: the solid is the file's, answered exactly, with a
    // warning saying how many were turned.
    let (code, json, err) = run_file("fixtures/mesh/one_triangle_reversed.stl");
    assert_eq!(code, 0, "{err}");
    assert_eq!(json["volume"], 1.0);
    assert!(
        err.contains("1 triangle(s) listed the other way round from their neighbours were turned"),
        "{err}"
    );
    // A box with a cavity, far from the origin, three of the box's triangles and one of the
    // cavity's reversed: each surface keeps its majority's way round, so the cavity stays
    // one (volume 8 − 1 = 7).
    let outer = cuboid([1e6, 2e6, -3e6], [2.0; 3], false);
    let mut inner = cuboid([1e6 + 0.5, 2e6 + 0.5, -3e6 + 0.5], [1.0; 3], true);
    for t in &mut inner.1 {
        t.swap(1, 2);
    }
    let flip = |b: &Body, ts: &[usize]| {
        let mut b = b.clone();
        for &t in ts {
            b.1[t].swap(1, 2);
        }
        b
    };
    let (outer, inner) = (flip(&outer, &[0, 4, 9]), flip(&inner, &[7]));
    let out = run("obj", &obj(&[(&outer, full), (&inner, full)]), &[]);
    let json = out.answered("cavity", 7.0, 0.0);
    assert_centroid("cavity", json, [1e6 + 1.0, 2e6 + 1.0, -3e6 + 1.0], 1e-12);
    assert!(
        out.stderr
            .contains("4 triangle(s) listed the other way round"),
        "{}",
        out.stderr
    );
}
