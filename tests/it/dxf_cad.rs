//! DXF drawings as CAD programs write them (issue 23): paper space and layouts, hidden
//! entities, external references, every `$INSUNITS` code, joins at 12 significant digits,
//! splines and fitted polylines, and INSERT bombs.

use assert_cmd::cargo::cargo_bin_cmd;
use serde_json::Value;
use std::f64::consts::PI;

/// Runs `inertia polygon FILE ARGS --json` on `text` written to a temporary file named
/// `name`: (exit code, stdout, stderr).
fn run(name: &str, text: &[u8], args: &[&str]) -> (i32, String, String) {
    let dir = std::env::temp_dir().join(format!("inertia-dxf-cad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    let out = cargo_bin_cmd!("inertia")
        .arg("polygon")
        .arg(&path)
        .args(args)
        .arg("--json")
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&path);
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs on a fixture file: (exit code, stdout, stderr).
fn run_fixture(path: &str, args: &[&str]) -> (i32, String, String) {
    let out = cargo_bin_cmd!("inertia")
        .arg("polygon")
        .arg(path)
        .args(args)
        .arg("--json")
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

pub(super) fn json(out: &str) -> Value {
    serde_json::from_str(out).unwrap_or_else(|e| panic!("{e}: {out}"))
}

pub(super) fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

/// A refusal: exit 2, nothing on stdout, one line on stderr; returns that line.
pub(super) fn refused((code, out, err): (i32, String, String)) -> String {
    assert_eq!(code, 2, "{out}{err}");
    assert!(out.is_empty(), "{out}");
    assert_eq!(err.lines().count(), 1, "{err}");
    err
}

/// An ASCII drawing of `pairs` (group code, value), as a CAD program writes it.
fn dxf(pairs: &[(i32, String)]) -> Vec<u8> {
    let mut s = String::new();
    for (c, v) in pairs {
        s += &format!("{c:>3}\n{v}\n");
    }
    s.into_bytes()
}

/// Group code and value pairs, as a drawing's text holds them.
type Pairs = Vec<(i32, String)>;

/// Group pairs from literals.
macro_rules! g {
    ($($c:expr => $v:expr),* $(,)?) => { vec![$(($c, $v.to_string())),*] };
}

/// A drawing with a header of `header` pairs and the entities `entities`.
fn drawing(header: Pairs, blocks: Pairs, entities: Pairs) -> Vec<u8> {
    let mut p = g![0 => "SECTION", 2 => "HEADER", 9 => "$ACADVER", 1 => "AC1015"];
    p.extend(header);
    p.extend(g![0 => "ENDSEC", 0 => "SECTION", 2 => "BLOCKS"]);
    p.extend(blocks);
    p.extend(g![0 => "ENDSEC", 0 => "SECTION", 2 => "ENTITIES"]);
    p.extend(entities);
    p.extend(g![0 => "ENDSEC", 0 => "EOF"]);
    dxf(&p)
}

/// A closed LWPOLYLINE through `pts`.
fn lwpolyline(handle: &str, pts: &[(f64, f64)]) -> Pairs {
    let mut p = g![0 => "LWPOLYLINE", 5 => handle, 100 => "AcDbEntity", 8 => "0",
        100 => "AcDbPolyline", 90 => pts.len(), 70 => 1];
    for (x, y) in pts {
        p.extend(g![10 => x, 20 => y]);
    }
    p
}

fn square(handle: &str, x: f64, y: f64, side: f64) -> Pairs {
    lwpolyline(
        handle,
        &[(x, y), (x + side, y), (x + side, y + side), (x, y + side)],
    )
}

#[test]
fn model_space_only_without_what_is_hidden() {
    // fixtures/polygon/a3_sheet.dxf: a 10 × 10 mm part in model space; an A3 border
    // (420 × 297) in the active layout's paper space; a 20 × 20 square on layout "Sheet 2";
    // circles inside the part on a frozen layer, on a layer that is off, and invisible.
    let (code, out, err) = run_fixture("fixtures/polygon/a3_sheet.dxf", &[]);
    assert_eq!(code, 0, "{err}");
    let v = json(&out);
    // Millimetres from $INSUNITS: 100 mm² = 1e-4 m², no hole.
    assert!((f(&v["area"]) - 1e-4).abs() < 1e-18, "{v}");
    assert_eq!(v["holes"], 0);
    assert_eq!(
        v["ignored"],
        serde_json::json!({"invisible": 1, "layer frozen": 1, "layer off": 1, "paper space": 2})
    );
    // The paper space read when asked: the A3 border.
    let v = json(&run_fixture("fixtures/polygon/a3_sheet.dxf", &["--space", "paper"]).1);
    assert!((f(&v["area"]) - 0.42 * 0.297).abs() < 1e-15, "{v}");
    assert_eq!(v["ignored"]["model space"], 4);
    // A layout by the name on its tab (case aside), and Model.
    let v = json(
        &run_fixture(
            "fixtures/polygon/a3_sheet.dxf",
            &["--space", "layout:sheet 2"],
        )
        .1,
    );
    assert!((f(&v["area"]) - 4e-4).abs() < 1e-18, "{v}");
    let v = json(
        &run_fixture(
            "fixtures/polygon/a3_sheet.dxf",
            &["--space", "layout:Layout1"],
        )
        .1,
    );
    assert!((f(&v["area"]) - 0.42 * 0.297).abs() < 1e-15, "{v}");
    let v = json(
        &run_fixture(
            "fixtures/polygon/a3_sheet.dxf",
            &["--space", "layout:Model"],
        )
        .1,
    );
    assert!((f(&v["area"]) - 1e-4).abs() < 1e-18, "{v}");
    assert_eq!(v["ignored"]["paper space"], 2);
    // A layout it does not have: refused, listing those it has.
    let e = refused(run_fixture(
        "fixtures/polygon/a3_sheet.dxf",
        &["--space", "layout:Sheet 3"],
    ));
    assert!(
        e.contains("no layout named \"Sheet 3\" in the drawing: its layouts are \"Layout1\", \"Model\", \"Sheet 2\""),
        "{e}"
    );
    // A frozen layer asked for by name is read: the hidden circle then is the part.
    let v = json(&run_fixture("fixtures/polygon/a3_sheet.dxf", &["--layer", "HIDDEN"]).1);
    assert!(
        (f(&v["area"]) - std::f64::consts::PI * 4e-6).abs() < 1e-18,
        "{v}"
    );
}

#[test]
fn a_drawing_whose_model_space_holds_no_outline_says_where_its_geometry_is() {
    // Model space holds a note only; the paper space a 100 × 100 square. Read from paper
    // space by default (`a_paper_space_only_drawing_is_read_from_paper_space`); refused
    // with where the geometry is when model space is asked for.
    let mut paper = square("2A", 0.0, 0.0, 100.0);
    paper.splice(4..4, g![67 => 1]);
    let text = g![0 => "TEXT", 5 => "2B", 8 => "0", 10 => 0, 20 => 0, 40 => 2.5, 1 => "NOTE"];
    let e = refused(run(
        "text_only.dxf",
        &drawing(vec![], vec![], [text, paper].concat()),
        &["--space", "model"],
    ));
    assert!(
        e.contains("no closed outline (polyline, circle, or lines and arcs joined end to end) in the model space of the DXF drawing (its paper space and layouts hold 1 entity, left out): --space paper or --space layout:NAME reads them"),
        "{e}"
    );
}

#[test]
fn external_references_are_refused_naming_their_file() {
    // An XREF block (flag 4) names its file in group 1 and holds nothing; the part is the
    // square plus whatever the other file holds.
    let blocks = g![0 => "BLOCK", 5 => "20", 8 => "0", 2 => "BRACKET", 70 => 4,
        10 => 0, 20 => 0, 30 => 0, 3 => "BRACKET", 1 => "..\\parts\\bracket.dxf",
        0 => "ENDBLK", 5 => "21", 8 => "0"];
    let insert = g![0 => "INSERT", 5 => "3C", 8 => "0", 2 => "BRACKET", 10 => 50, 20 => 0];
    let e = refused(run(
        "xref.dxf",
        &drawing(
            vec![],
            blocks,
            [square("2A", 0.0, 0.0, 10.0), insert].concat(),
        ),
        &[],
    ));
    assert!(
        e.contains("INSERT 3C: places external reference \"BRACKET\" (\"..\\\\parts\\\\bracket.dxf\"), whose geometry is not in this drawing"),
        "{e}"
    );
    assert!(e.contains("xref.dxf"), "{e}");
}

fn insunits(code: &str) -> Pairs {
    g![9 => "$INSUNITS", 70 => code]
}

#[test]
fn a_yard_drawing_is_read_in_yards() {
    let d = drawing(insunits("10"), vec![], square("2A", 0.0, 0.0, 1.0));
    let (code, out, err) = run("yard.dxf", &d, &[]);
    assert_eq!(code, 0, "{err}");
    let v = json(&out);
    assert_eq!(v["units"]["input"], "yd");
    assert!((f(&v["area"]) - 0.9144 * 0.9144).abs() < 1e-15, "{v}");
    // In yards out too.
    let v = json(&run("yard.dxf", &d, &["--output-units", "yd"]).1);
    assert!((f(&v["area"]) - 1.0).abs() < 1e-15, "{v}");
    // --units mm on a yard drawing is a contradiction, refused naming both.
    let e = refused(run("yard.dxf", &d, &["--units", "mm"]));
    assert!(
        e.contains("states its unit as yd, but --units says mm"),
        "{e}"
    );
}

#[test]
fn every_insunits_code_is_converted_or_refused() {
    use inertia::units::LengthUnit;
    // The DXF reference's codes 1 to 24, each a unit (metres per unit).
    let metres = [
        0.0254,
        0.3048,
        1609.344,
        1e-3,
        1e-2,
        1.0,
        1e3,
        2.54e-8,
        2.54e-5,
        0.9144,
        1e-10,
        1e-9,
        1e-6,
        0.1,
        10.0,
        100.0,
        1e9,
        1.495_978_707e11,
        9.460_730_472_580_8e15,
        3.085_677_581_491_367e16,
        1200.0 / 3937.0,
        100.0 / 3937.0,
        3600.0 / 3937.0,
        6_336_000.0 / 3937.0,
    ];
    for (k, m) in metres.iter().enumerate() {
        let code = k as i32 + 1;
        let u = LengthUnit::from_insunits(code).unwrap_or_else(|| panic!("code {code}"));
        assert!((u.metres() - m).abs() <= 1e-15 * m, "code {code}: {u:?}");
        // Read from a drawing, and named in reports by a symbol read back.
        let d = drawing(
            insunits(&code.to_string()),
            vec![],
            square("2A", 0.0, 0.0, 1.0),
        );
        assert_eq!(inertia::io::dxf::unit(&d).unwrap(), Some(u));
        assert_eq!(LengthUnit::from_symbol(u.symbol()), Some(u));
    }
    let d = drawing(insunits("0"), vec![], square("2A", 0.0, 0.0, 1.0));
    assert_eq!(inertia::io::dxf::unit(&d).unwrap(), None);
    // A code the reference does not define is refused, naming the line, not read unitless.
    let d = drawing(insunits("25"), vec![], square("2A", 0.0, 0.0, 1.0));
    let e = refused(run("code25.dxf", &d, &[]));
    assert!(
        e.contains("DXF line 12: $INSUNITS 25 is not a unit of the DXF reference"),
        "{e}"
    );
}

/// A number as CAD programs write it: 12 significant digits.
fn d12(x: f64) -> String {
    let s = format!("{x:.11e}");
    // Back to a plain decimal, as DXF writers print.
    format!("{}", s.parse::<f64>().unwrap())
}

fn line12(h: &str, a: (f64, f64), b: (f64, f64)) -> Pairs {
    g![0 => "LINE", 5 => h, 100 => "AcDbEntity", 8 => "0", 100 => "AcDbLine",
        10 => d12(a.0), 20 => d12(a.1), 30 => 0, 11 => d12(b.0), 21 => d12(b.1), 31 => 0]
}

fn arc12(h: &str, c: (f64, f64), r: f64, s: f64, e: f64) -> Pairs {
    g![0 => "ARC", 5 => h, 100 => "AcDbEntity", 8 => "0", 100 => "AcDbCircle",
        10 => d12(c.0), 20 => d12(c.1), 30 => 0, 40 => d12(r), 100 => "AcDbArc",
        50 => d12(s), 51 => d12(e)]
}

/// A slot (two lines, two half-circle arcs: 40 between centres, radius 7) turned by 33°
/// about (1234.5678, 987.654321), every number written with 12 significant digits: the
/// arcs' ends, computed from centre, radius and angles, miss the lines by ~1e-10.
fn slot12() -> (Pairs, f64) {
    let (c, th, r) = ((1234.5678, 987.654321), 33f64.to_radians(), 7.0);
    let at = |x: f64, y: f64| {
        let (s, co) = th.sin_cos();
        (c.0 + co * x - s * y, c.1 + s * x + co * y)
    };
    let deg = 33.0;
    let e = [
        line12("1", at(0.0, -r), at(40.0, -r)),
        arc12("2", at(40.0, 0.0), r, deg - 90.0, deg + 90.0),
        line12("3", at(40.0, r), at(0.0, r)),
        arc12("4", at(0.0, 0.0), r, deg + 90.0, deg + 270.0),
    ]
    .concat();
    (e, 40.0 * 2.0 * r + std::f64::consts::PI * r * r)
}

#[test]
fn a_12_digit_outline_is_joined_with_a_warning_that_bounds_the_area() {
    let (e, exact) = slot12();
    let (code, out, err) = run("slot12.dxf", &drawing(vec![], vec![], e), &[]);
    assert_eq!(code, 0, "{err}");
    let v = json(&out);
    let a = f(&v["area"]);
    assert!((a - exact).abs() < 1e-6 * exact, "{a} vs {exact}");
    // The warning states the largest gap and the bound: gap × perimeter, well above the
    // actual difference.
    assert!(
        err.contains("were joined (join tolerance") && err.contains("(gap × perimeter)"),
        "{err}"
    );
    let gap: f64 = err
        .split("up to ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("{err}"));
    assert!(gap > 0.0 && gap < 1e-7, "{err}");
    let bound: f64 = err
        .split("by up to ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("{err}"));
    assert!((a - exact).abs() <= bound, "{a} vs {exact}, bound {bound}");
    // Exact ends join without a word.
    let (code, _, err) = run(
        "plate.dxf",
        &drawing(
            vec![],
            vec![],
            [
                line12("1", (0.0, 0.0), (4.0, 0.0)),
                line12("2", (4.0, 0.0), (4.0, 2.0)),
                line12("3", (4.0, 2.0), (0.0, 0.0)),
            ]
            .concat(),
        ),
        &[],
    );
    assert_eq!((code, err.as_str()), (0, ""));
}

#[test]
fn leaving_open_pieces_out_never_drops_a_piece_that_nearly_joins() {
    // A 100 × 50 plate of four lines whose last misses the first by 1e-3 (past the default
    // tolerance, 1e-6 of the extent ≈ 1.1e-4, but within 100 times it), and a centre line
    // far from any end.
    let plate = [
        line12("1", (0.0, 0.0), (100.0, 0.0)),
        line12("2", (100.0, 0.0), (100.0, 50.0)),
        line12("3", (100.0, 50.0), (0.0, 50.0)),
        line12("4", (0.0, 50.0), (0.0, 0.001)),
    ]
    .concat();
    let centre = line12("C", (-10.0, 25.0), (110.0, 25.0));
    let d = drawing(vec![], vec![], [plate.clone(), centre.clone()].concat());
    let e = refused(run("gap.dxf", &d, &[]));
    assert!(
        e.contains("misses an end of LINE 4 by 0.001, within 100 times the join tolerance")
            && e.contains("--join-tolerance 0.0015 closes the gap"),
        "{e}"
    );
    // Joined when asked; the centre line is left out, and counted.
    let (code, out, err) = run("gap.dxf", &d, &["--join-tolerance", "0.002"]);
    assert_eq!(code, 0, "{err}");
    assert!((f(&json(&out)["area"]) - 5000.0).abs() < 0.1, "{out}");
    assert!(
        err.contains("1 piece in no closed outline left out (1 LINE"),
        "{err}"
    );
    assert_eq!(json(&out)["ignored"]["open pieces"], 1);
}

/// A SPLINE with `degree` (None: group 71 left out, as some writers do), knots and control
/// points.
fn spline(h: &str, degree: Option<usize>, knots: &[f64], pts: &[(f64, f64)]) -> Pairs {
    let mut p = g![0 => "SPLINE", 5 => h, 100 => "AcDbEntity", 8 => "0", 100 => "AcDbSpline",
        210 => 0, 220 => 0, 230 => 1, 70 => 8];
    if let Some(d) = degree {
        p.extend(g![71 => d]);
    }
    p.extend(g![72 => knots.len(), 73 => pts.len(), 74 => 0]);
    for k in knots {
        p.extend(g![40 => k]);
    }
    for (x, y) in pts {
        p.extend(g![10 => x, 20 => y, 30 => 0]);
    }
    p
}

fn area_of(name: &str, entities: Pairs) -> (f64, Value) {
    let (code, out, err) = run(name, &drawing(vec![], vec![], entities), &[]);
    assert_eq!(code, 0, "{err}");
    let v = json(&out);
    (f(&v["area"]), v)
}

#[test]
fn a_spline_without_its_degree_is_read_from_its_knots() {
    // A quadratic Bézier from (0, 0) to (2, 0) with control point (1, 2) (apex (1, 1)),
    // closed by a LINE: a parabolic segment of area 2/3 · 2 · 1.
    let arch = |degree| {
        [
            spline(
                "5A",
                degree,
                &[0.0, 0.0, 0.0, 1.0, 1.0, 1.0],
                &[(0.0, 0.0), (1.0, 2.0), (2.0, 0.0)],
            ),
            line12("5B", (2.0, 0.0), (0.0, 0.0)),
        ]
        .concat()
    };
    let (a, v) = area_of("arch.dxf", arch(None));
    // Integrated exactly: no chords' deviation, not approximate.
    assert!((a - 4.0 / 3.0).abs() < 1e-15, "{a}");
    assert!(
        v.get("approximate").is_none() && v.get("max_deviation").is_none(),
        "{v}"
    );
    let (b, _) = area_of("arch2.dxf", arch(Some(2)));
    assert_eq!(a, b);
    // A degree stated and inconsistent with the knots is still refused with the reason.
    let e = refused(run(
        "arch3.dxf",
        &drawing(vec![], vec![], arch(Some(3))),
        &[],
    ));
    assert!(
        e.contains("SPLINE 5A: 3 control points are too few for degree 3"),
        "{e}"
    );
}

/// A SPLINE with weights (group 41): rational when they differ (flag 4).
fn nurbs(h: &str, degree: usize, knots: &[f64], pts: &[(f64, f64)], weights: &[f64]) -> Pairs {
    let mut p = g![0 => "SPLINE", 5 => h, 100 => "AcDbEntity", 8 => "0", 100 => "AcDbSpline",
        210 => 0, 220 => 0, 230 => 1, 70 => 8 + 4, 71 => degree, 72 => knots.len(),
        73 => pts.len(), 74 => 0];
    for k in knots {
        p.extend(g![40 => k]);
    }
    for w in weights {
        p.extend(g![41 => w]);
    }
    for (x, y) in pts {
        p.extend(g![10 => x, 20 => y, 30 => 0]);
    }
    p
}

/// The circle of radius `r` about `c` as vector-graphics editors write it: four cubic
/// Béziers with inner control points `κ r` along the tangents, one degree-3 SPLINE with
/// triple interior knots.
fn cubic_circle(h: &str, c: (f64, f64), r: f64) -> Pairs {
    let k = KAPPA * r;
    let q = [
        (r, 0.0),
        (r, k),
        (k, r),
        (0.0, r),
        (-k, r),
        (-r, k),
        (-r, 0.0),
        (-r, -k),
        (-k, -r),
        (0.0, -r),
        (k, -r),
        (r, -k),
        (r, 0.0),
    ];
    let pts: Vec<(f64, f64)> = q.iter().map(|p| (c.0 + p.0, c.1 + p.1)).collect();
    let knots = [
        0., 0., 0., 0., 1., 1., 1., 2., 2., 2., 3., 3., 3., 4., 4., 4., 4.,
    ];
    spline(h, Some(3), &knots, &pts)
}

/// The circle of radius `r` about `c` exactly, as CAD programs write it: a rational
/// quadratic SPLINE through the corners of the circumscribed square, weights √2/2 there.
fn rational_circle(h: &str, c: (f64, f64), r: f64) -> Pairs {
    let q = [
        (r, 0.0),
        (r, r),
        (0.0, r),
        (-r, r),
        (-r, 0.0),
        (-r, -r),
        (0.0, -r),
        (r, -r),
        (r, 0.0),
    ];
    let pts: Vec<(f64, f64)> = q.iter().map(|p| (c.0 + p.0, c.1 + p.1)).collect();
    let w = std::f64::consts::FRAC_1_SQRT_2;
    let knots = [0., 0., 0., 1., 1., 2., 2., 3., 3., 4., 4., 4.];
    nurbs(h, 2, &knots, &pts, &[1.0, w, 1.0, w, 1.0, w, 1.0, w, 1.0])
}

/// The tangent length of the usual four-Bézier circle, 4(√2 − 1)/3, as editors write it.
const KAPPA: f64 = 0.552284749831;

/// A 400 × 250 plate with 1,000 holes of radius 3 on a 10 × 10 grid, each drawn by
/// `hole`.
fn plate(hole: fn(&str, (f64, f64), f64) -> Pairs) -> Vec<u8> {
    let mut e = lwpolyline(
        "10",
        &[(0.0, 0.0), (400.0, 0.0), (400.0, 250.0), (0.0, 250.0)],
    );
    for i in 0..40 {
        for j in 0..25 {
            let h = format!("{:X}", 0x100 + 25 * i + j);
            e.extend(hole(
                &h,
                (5.0 + 10.0 * i as f64, 5.0 + 10.0 * j as f64),
                3.0,
            ));
        }
    }
    drawing(vec![], vec![], e)
}

/// That plate's area and `[∫y², ∫x²]` about its centroid (200, 125), given the area `a`
/// of one hole and its polar moment `j` about its centre.
fn plate_expected(a: f64, j: f64) -> (f64, [f64; 2]) {
    // Σ dy² over the grid: 40 columns of Σ (5 + 10 j − 125)², and Σ dx² likewise.
    let sy: f64 = (0..25)
        .map(|j| (5.0 + 10.0 * j as f64 - 125.0).powi(2))
        .sum::<f64>()
        * 40.0;
    let sx: f64 = (0..40)
        .map(|i| (5.0 + 10.0 * i as f64 - 200.0).powi(2))
        .sum::<f64>()
        * 25.0;
    let (w, h) = (400.0_f64, 250.0_f64);
    (
        w * h - 1000.0 * a,
        [
            w * h.powi(3) / 12.0 - 1000.0 * j / 2.0 - a * sy,
            h * w.powi(3) / 12.0 - 1000.0 * j / 2.0 - a * sx,
        ],
    )
}

#[test]
fn a_plate_with_1000_spline_circle_holes() {
    // Holes as vector editors write circles (cubic, not rational): each took 8,192 chord
    // points, and 512 of them filled the cap, so the plate was refused. Now each span is
    // integrated exactly. The four-Bézier circle of radius r encloses r²(2 + 12κ/5 −
    // 3κ²/5) with polar moment r⁴(2/3 + 116κ/77 + 107κ²/385 − 12κ³/385 − 27κ⁴/385) about
    // its centre (its power form integrated symbolically); it is symmetric under a
    // quarter turn, so its Ixx = Iyy and Ixy = 0.
    let (k, r) = (KAPPA, 3.0_f64);
    let a = r * r * (2.0 + 12.0 * k / 5.0 - 3.0 * k * k / 5.0);
    let j = r.powi(4)
        * (2.0 / 3.0 + 116.0 * k / 77.0 + 107.0 * k * k / 385.0
            - 12.0 * k.powi(3) / 385.0
            - 27.0 * k.powi(4) / 385.0);
    // The rational quadratic circle is exact: π r², π r⁴ / 2.
    let exact = (PI * r * r, PI * r.powi(4) / 2.0);
    for (name, hole, (a, j)) in [
        (
            "cubic.dxf",
            cubic_circle as fn(&str, (f64, f64), f64) -> Pairs,
            (a, j),
        ),
        ("rational.dxf", rational_circle, exact),
    ] {
        let (code, out, err) = run(name, &plate(hole), &[]);
        assert_eq!(code, 0, "{name}: {err}");
        let v = json(&out);
        assert_eq!(v["holes"], 1000, "{name}");
        assert!(v.get("approximate").is_none(), "{name}");
        let (area, m) = plate_expected(a, j);
        assert!(
            (f(&v["area"]) - area).abs() <= 1e-12 * area,
            "{name}: {} vs {area}",
            v["area"]
        );
        for (k, c) in [(0, 200.0), (1, 125.0)] {
            assert!(
                (f(&v["centroid"][k]) - c).abs() <= 1e-12 * c,
                "{name}: {}",
                v["centroid"]
            );
        }
        let am = &v["area_moments"];
        assert!(
            (f(&am["ixx"]) - m[0]).abs() <= 1e-12 * m[0],
            "{name}: {am} vs {m:?}"
        );
        assert!(
            (f(&am["iyy"]) - m[1]).abs() <= 1e-12 * m[1],
            "{name}: {am} vs {m:?}"
        );
        assert!(f(&am["ixy"]).abs() <= 1e-12 * m[1], "{name}: {am}");
    }
}

#[test]
fn a_spline_of_one_span_that_closes_on_itself() {
    // One cubic Bézier from (0, 0) back to (0, 0) through (3, 3) and (−3, 3): a teardrop
    // of area 27/10 with its centroid at (0, 9/7) (the power form integrated exactly).
    // Its span starts and ends at one point, so it is halved into two edges.
    let drop = spline(
        "9A",
        Some(3),
        &[0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0],
        &[(0.0, 0.0), (3.0, 3.0), (-3.0, 3.0), (0.0, 0.0)],
    );
    let (a, v) = area_of("drop.dxf", drop);
    assert!((a - 2.7).abs() < 1e-15, "{a}");
    assert!(f(&v["centroid"][0]).abs() < 1e-15, "{v}");
    assert!((f(&v["centroid"][1]) - 9.0 / 7.0).abs() < 1e-15, "{v}");
}

#[test]
fn a_discontinuous_spline_is_split_into_pieces() {
    // Degree 1, interior knot 1 twice: two pieces, (0, 0)–(4, 0) and (4, 3)–(0, 3), which
    // LINEs join into a 4 × 3 rectangle. Bridging the jump with a chord would make a
    // branch at (4, 0) and (0, 3).
    let knots = [0.0, 0.0, 1.0, 1.0, 2.0, 2.0];
    let pts = [(0.0, 0.0), (4.0, 0.0), (4.0, 3.0), (0.0, 3.0)];
    let rect = [
        spline("6A", Some(1), &knots, &pts),
        line12("6B", (4.0, 0.0), (4.0, 3.0)),
        line12("6C", (0.0, 3.0), (0.0, 0.0)),
    ]
    .concat();
    let (a, _) = area_of("rect.dxf", rect);
    assert!((a - 12.0).abs() < 1e-12, "{a}");
    // Alone, the pieces do not join: refused, naming the piece.
    let e = refused(run(
        "pieces.dxf",
        &drawing(vec![], vec![], spline("6A", Some(1), &knots, &pts)),
        &[],
    ));
    assert!(
        e.contains("SPLINE 6A (piece 1 of 2)") || e.contains("SPLINE 6A (piece 2 of 2)"),
        "{e}"
    );
    // A cubic with a knot of multiplicity 4 in the middle: two Bézier pieces.
    let knots = [0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 2.0, 2.0, 2.0, 2.0];
    let pts = [
        (0.0, 0.0),
        (1.0, -1.0),
        (3.0, -1.0),
        (4.0, 0.0),
        (4.0, 3.0),
        (3.0, 4.0),
        (1.0, 4.0),
        (0.0, 3.0),
    ];
    let (a, _) = area_of(
        "cubic.dxf",
        [
            spline("7A", Some(3), &knots, &pts),
            line12("7B", (4.0, 0.0), (4.0, 3.0)),
            line12("7C", (0.0, 3.0), (0.0, 0.0)),
        ]
        .concat(),
    );
    // The rectangle plus two cubic bulges: below the Bézier (0, 0), (1, −1), (3, −1),
    // (4, 0), y = −3t(1 − t) and x′ = 3 + 6t − 6t², so ∫ |y| dx = ∫ 3t(1 − t)(3 + 6t − 6t²)
    // dt = 2.1; the other is its mirror image.
    assert!((a - (12.0 + 2.0 * 2.1)).abs() < 1e-14, "{a}");
}

#[test]
fn a_pedit_fit_polyline_is_read_through_its_fitted_vertices() {
    // POLYLINE flags 1 (closed) + 4 (spline-fit): the frame (vertex flag 16) is the square
    // 0..10, the fitted vertices (flag 8) a regular octagon of radius 4 about (5, 5).
    let mut p = g![0 => "POLYLINE", 5 => "8A", 100 => "AcDbEntity", 8 => "0",
        100 => "AcDb2dPolyline", 66 => 1, 10 => 0, 20 => 0, 30 => 0, 70 => 5, 75 => 6];
    let vertex = |p: &mut Pairs, h: String, x: f64, y: f64, flags: i32| {
        p.extend(
            g![0 => "VERTEX", 5 => h, 100 => "AcDbEntity", 8 => "0", 100 => "AcDbVertex",
            100 => "AcDb2dVertex", 10 => x, 20 => y, 30 => 0, 70 => flags],
        );
    };
    for (k, (x, y)) in [(0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0)]
        .iter()
        .enumerate()
    {
        vertex(&mut p, format!("9{k}"), *x, *y, 16);
    }
    for k in 0..8 {
        let t = k as f64 * std::f64::consts::PI / 4.0;
        vertex(
            &mut p,
            format!("A{k}"),
            5.0 + 4.0 * t.cos(),
            5.0 + 4.0 * t.sin(),
            8,
        );
    }
    p.extend(g![0 => "SEQEND", 5 => "AF", 100 => "AcDbEntity", 8 => "0"]);
    let (a, _) = area_of("pedit.dxf", p.clone());
    let exact = 2.0 * 2f64.sqrt() * 16.0;
    assert!((a - exact).abs() < 1e-12 * exact, "{a} vs {exact}");
    // The frame alone is refused, not read as the outline.
    let frame_only: Pairs = {
        let mut q = p[..11].to_vec();
        for (k, (x, y)) in [(0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0)]
            .iter()
            .enumerate()
        {
            vertex(&mut q, format!("9{k}"), *x, *y, 16);
        }
        q.extend(g![0 => "SEQEND", 5 => "AF", 100 => "AcDbEntity", 8 => "0"]);
        q
    };
    let e = refused(run("frame.dxf", &drawing(vec![], vec![], frame_only), &[]));
    assert!(
        e.contains("POLYLINE 8A: is a spline-fit polyline (PEDIT Spline) given by its frame only"),
        "{e}"
    );
}

#[test]
fn dots_flat_loops_and_wide_ellipses_are_read_as_cad_shows_them() {
    // A 10 × 10 square with: a zero-radius ARC (a dot), a zero-radius CIRCLE, a closed
    // polyline drawn back along itself inside a block (zero area), and an ELLIPSE of axis
    // ratio 1.0095 (above 1, as some writers leave it) as a hole.
    let blocks = [
        g![0 => "BLOCK", 5 => "20", 8 => "0", 2 => "FLAT", 70 => 0, 10 => 0, 20 => 0, 30 => 0, 3 => "FLAT"],
        lwpolyline("21", &[(0.0, 0.0), (1.0, 0.0), (2.0, 0.0), (1.0, 0.0)]),
        g![0 => "ENDBLK", 5 => "22", 8 => "0"],
    ]
    .concat();
    let e = [
        square("2A", 0.0, 0.0, 10.0),
        g![0 => "ARC", 5 => "2B", 8 => "0", 10 => 1, 20 => 1, 30 => 0, 40 => 0, 50 => 0, 51 => 90],
        g![0 => "CIRCLE", 5 => "2C", 8 => "0", 10 => 2, 20 => 2, 30 => 0, 40 => 0],
        g![0 => "INSERT", 5 => "2D", 8 => "0", 2 => "FLAT", 10 => 3, 20 => 8],
        g![0 => "ELLIPSE", 5 => "2E", 8 => "0", 100 => "AcDbEllipse", 10 => 5, 20 => 5, 30 => 0,
            11 => 2, 21 => 0, 31 => 0, 40 => 1.0095, 41 => 0, 42 => 2.0 * std::f64::consts::PI],
    ]
    .concat();
    let (code, out, err) = run("dots.dxf", &drawing(vec![], blocks, e), &[]);
    assert_eq!(code, 0, "{err}");
    let v = json(&out);
    let exact = 100.0 - std::f64::consts::PI * 2.0 * 2.0 * 1.0095;
    assert!((f(&v["area"]) - exact).abs() < 1e-12 * exact, "{v}");
    assert_eq!(v["holes"], 1);
    assert_eq!(v["ignored"]["zero-length arcs"], 2);
    assert_eq!(v["ignored"]["zero-area loops"], 1);
}

/// Blocks `L0` (a circle of radius 0.4) and `L1` ... `Ln`, each a MINSERT of the one
/// below in a `k × k` array of spacing 1, 10^m...: a small file that places k^(2n)
/// circles.
fn minsert_bomb(levels: usize, k: usize) -> (Pairs, Pairs) {
    let mut blocks = [
        g![0 => "BLOCK", 5 => "100", 8 => "0", 2 => "L0", 70 => 0, 10 => 0, 20 => 0, 30 => 0, 3 => "L0"],
        g![0 => "CIRCLE", 5 => "101", 8 => "0", 10 => 0.5, 20 => 0.5, 30 => 0, 40 => 0.4],
        g![0 => "ENDBLK", 5 => "102", 8 => "0"],
    ]
    .concat();
    let mut step = 1.0;
    for l in 1..=levels {
        let name = format!("L{l}");
        blocks.extend(
            g![0 => "BLOCK", 5 => format!("{l}00"), 8 => "0", 2 => name, 70 => 0,
            10 => 0, 20 => 0, 30 => 0, 3 => name],
        );
        blocks.extend(
            g![0 => "INSERT", 5 => format!("{l}01"), 8 => "0", 2 => format!("L{}", l - 1),
            10 => 0, 20 => 0, 30 => 0, 70 => k, 71 => k, 44 => step, 45 => step],
        );
        blocks.extend(g![0 => "ENDBLK", 5 => format!("{l}02"), 8 => "0"]);
        step *= k as f64;
    }
    let top = g![0 => "INSERT", 5 => "2A", 8 => "0", 2 => format!("L{levels}"), 10 => 0, 20 => 0, 30 => 0];
    (blocks, top)
}

#[test]
fn an_insert_bomb_is_counted_and_refused_before_expanding() {
    // 5 KB: three levels of 40 × 40 arrays, 4.1e9 circles.
    let (blocks, top) = minsert_bomb(3, 40);
    let d = drawing(vec![], blocks, top);
    assert!(d.len() < 5000, "{}", d.len());
    let start = std::time::Instant::now();
    let e = refused(run("bomb.dxf", &d, &[]));
    assert!(start.elapsed().as_secs_f64() < 5.0);
    // 1 + 1600 (1 + 1600 (1 + 1600 · 2)) entities and copies.
    assert!(
        e.contains("its INSERTs expand to 8194561601 entities, more than 1048576: refused before expanding (the limit: --max-entities)"),
        "{e}"
    );
    // A smaller array: refused under a lower limit, with its count; read (and exact)
    // under the default. (Reading the 64,000 circles as 64,000 parts takes tens of
    // seconds: its cost is per part, not in the expansion.)
    let (blocks, top) = minsert_bomb(2, 4);
    let d = drawing(vec![], blocks, top);
    let e = refused(run("bomb2.dxf", &d, &["--max-entities", "100"]));
    assert!(e.contains("expand to 529 entities, more than 100"), "{e}");
    let (code, out, err) = run("bomb2.dxf", &d, &["--parts"]);
    assert_eq!(code, 0, "{err}");
    let v = json(&out);
    let a = f(&v["total"]["area"]);
    let exact = 256.0 * std::f64::consts::PI * 0.16;
    assert!((a - exact).abs() < 1e-12 * exact, "{a}");
}

#[test]
fn a_bow_tie_is_refused_not_left_out_as_a_zero_area_loop() {
    // Its lobes' signed areas cancel; it is not a flat loop but a crossing, and the reason
    // is said once (not again through the part's error source).
    let bow = lwpolyline("1A", &[(0.0, 0.0), (1.0, 1.0), (1.0, 0.0), (0.0, 1.0)]);
    let circle = g![0 => "CIRCLE", 5 => "2B", 8 => "0", 10 => 10, 20 => 10, 30 => 0, 40 => 1];
    let e = refused(run(
        "bow.dxf",
        &drawing(vec![], vec![], [bow, circle].concat()),
        &[],
    ));
    assert!(
        e.contains("LWPOLYLINE 1A: outer ring edge 1 and outer ring edge 3 cross at (0.5, 0.5)"),
        "{e}"
    );
    assert_eq!(e.matches("must not intersect itself").count(), 1, "{e}");
    assert_eq!(e.matches("cross at").count(), 1, "{e}");
}

#[test]
fn a_spline_is_exact_in_every_output_unit() {
    // The parabolic arch in millimetres, 2/3 · 20 · 10 mm² (Archimedes): exact in metres
    // by default and in millimetres with --output-units mm, with no chords' deviation.
    let arch = [
        spline(
            "5A",
            Some(2),
            &[0.0, 0.0, 0.0, 1.0, 1.0, 1.0],
            &[(0.0, 0.0), (10.0, 20.0), (20.0, 0.0)],
        ),
        line12("5B", (20.0, 0.0), (0.0, 0.0)),
    ]
    .concat();
    let d = drawing(insunits("4"), vec![], arch);
    let m = json(&run("arch_mm.dxf", &d, &[]).1);
    let mm = json(&run("arch_mm.dxf", &d, &["--output-units", "mm"]).1);
    assert!(m.get("max_deviation").is_none() && mm.get("max_deviation").is_none());
    let exact = 2.0 / 3.0 * 20.0 * 10.0;
    assert!((f(&mm["area"]) - exact).abs() < 1e-14 * exact, "{mm}");
    assert!(
        (f(&m["area"]) - 1e-6 * exact).abs() < 1e-14 * 1e-6 * exact,
        "{m}"
    );
}

#[test]
fn help_says_what_is_read_now() {
    let out = cargo_bin_cmd!("inertia")
        .args(["polygon", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(!help.contains("tessellated"), "{help}");
    for s in [
        "model space",
        "PEDIT",
        "SPLINE",
        "--space",
        "--max-entities",
        "frozen",
        "external references",
    ] {
        assert!(help.contains(s), "{s}: {help}");
    }
}

/// An ASCII drawing's pairs written as binary DXF (R13 and later: two-byte codes), with
/// values typed by code as the DXF reference gives them.
fn to_binary(ascii: &str) -> Vec<u8> {
    let mut out = b"AutoCAD Binary DXF\r\n\x1a\0".to_vec();
    let mut lines = ascii.lines().map(str::trim);
    while let (Some(c), Some(v)) = (lines.next(), lines.next()) {
        let code: i16 = c.parse().unwrap();
        out.extend(code.to_le_bytes());
        match code {
            10..=59 | 210..=239 => out.extend(v.parse::<f64>().unwrap().to_le_bytes()),
            60..=79 | 370..=379 => out.extend(v.parse::<i16>().unwrap().to_le_bytes()),
            90..=99 => out.extend(v.parse::<i32>().unwrap().to_le_bytes()),
            _ => {
                out.extend(v.as_bytes());
                out.push(0);
            }
        }
    }
    out
}

#[test]
fn a_binary_drawing_leaves_out_its_frozen_layers_too() {
    // The A3 sheet, in binary DXF: the frozen layer's flags are decoded from the binary
    // pairs (the dxf crate does not keep them).
    let ascii = std::fs::read_to_string("fixtures/polygon/a3_sheet.dxf").unwrap();
    let (code, out, err) = run("a3_sheet_binary.dxf", &to_binary(&ascii), &[]);
    assert_eq!(code, 0, "{err}");
    let v = json(&out);
    assert!((f(&v["area"]) - 1e-4).abs() < 1e-18, "{v}");
    assert_eq!(
        v["ignored"],
        serde_json::json!({"invisible": 1, "layer frozen": 1, "layer off": 1, "paper space": 2})
    );
}

#[test]
fn too_many_curves_for_memory_are_refused_before_validation() {
    // 160,000 circles (two levels of 20 × 20 arrays): under --max-entities, but their
    // validity checks would take 20 million chord points and gigabytes: refused with the
    // count instead, before any outline is validated.
    let (blocks, top) = minsert_bomb(2, 20);
    let start = std::time::Instant::now();
    let e = refused(run("circles.dxf", &drawing(vec![], blocks, top), &[]));
    assert!(
        e.contains("its outlines need 20480000 chord points for the validity checks (a circle 128), more than 16777216: refused rather than read"),
        "{e}"
    );
    assert!(start.elapsed().as_secs_f64() < 30.0);
}

#[test]
fn an_entity_without_a_handle_is_named_by_its_place() {
    // Entities written without group 5: the dxf crate makes handles up, which the file
    // does not hold; the message names the place instead.
    let blocks = g![0 => "BLOCK", 8 => "0", 2 => "B", 70 => 0, 10 => 0, 20 => 0,
        0 => "LINE", 8 => "0", 10 => 0, 20 => 0, 11 => 5, 21 => 0, 0 => "ENDBLK"];
    let e = g![0 => "INSERT", 8 => "0", 2 => "B", 10 => 0, 20 => 0];
    let e = refused(run("nohandle.dxf", &drawing(vec![], blocks, e), &[]));
    assert!(
        e.contains("LINE (no handle; entity 1 of block \"B\") in INSERT (no handle; entity 1 of model space): (0, 0)–(5, 0) is not part of a closed outline"),
        "{e}"
    );
}

#[test]
fn a_far_circle_beside_the_gapped_square_changes_nothing() {
    // Issue 47's drawing: a 10 × 10 square of lines with a 0.5 gap at one corner and an
    // unrelated circle of radius 1 at 1.4e6 (the whole drawing's join tolerance took the
    // gap for rounding: area 97.5) or at 1.4e7 ("8 pieces meet at (0, 0): an outline
    // cannot branch", each piece named twice). Now the square's lines are left out, and
    // the circle is answered alone, exactly, wherever it is.
    let square = [
        line12("1", (0.0, 0.0), (10.0, 0.0)),
        line12("2", (10.0, 0.0), (10.0, 10.0)),
        line12("3", (10.0, 10.0), (0.0, 10.0)),
        line12("4", (0.0, 10.0), (0.0, 0.5)),
    ]
    .concat();
    for x in [1.4e6, 1.4e7] {
        let circle = g![0 => "CIRCLE", 5 => "C", 100 => "AcDbEntity", 8 => "0",
            100 => "AcDbCircle", 10 => d12(x), 20 => 0, 30 => 0, 40 => 1];
        let d = drawing(vec![], vec![], [square.clone(), circle].concat());
        let (code, out, err) = run("far_circle.dxf", &d, &[]);
        assert_eq!(code, 0, "{err}");
        let v = json(&out);
        assert_eq!(f(&v["area"]), std::f64::consts::PI, "{x}: {out}");
        assert_eq!(f(&v["centroid"][0]), x, "{x}: {out}");
        assert!(
            err.contains("4 pieces in no closed outline left out (4 LINE; on layer 0 (4))"),
            "{x}: {err}"
        );
        // Strict: refused for the square's open lines, naming a piece once, never a branch.
        let e = refused(run("far_circle.dxf", &d, &["--open", "error"]));
        assert!(e.contains("is not part of a closed outline"), "{x}: {e}");
        assert!(!e.contains("meet at") && !e.contains("branch"), "{x}: {e}");
        for h in ["LINE 1", "LINE 4"] {
            assert!(e.matches(h).count() <= 1, "{x}: {e}");
        }
    }
}

#[test]
fn a_far_piece_does_not_widen_the_join_of_another_outline() {
    // A 10 × 10 square of lines with a 0.5 gap at one corner, and a far line 1.4e6 away:
    // the join tolerance was 1e-6 of the whole drawing (1.4), which took the gap for
    // rounding and answered 97.5. Each pair of ends is judged by its own pieces' size.
    let square = [
        line12("1", (0.0, 0.0), (10.0, 0.0)),
        line12("2", (10.0, 0.0), (10.0, 10.0)),
        line12("3", (10.0, 10.0), (0.0, 10.0)),
        line12("4", (0.0, 10.0), (0.0, 0.5)),
    ]
    .concat();
    let far = [
        line12("5", (1.4e6, 0.0), (1.4e6 + 1.0, 0.0)),
        line12("6", (1.4e6 + 1.0, 0.0), (1.4e6, 1.0)),
        line12("7", (1.4e6, 1.0), (1.4e6, 0.0)),
    ]
    .concat();
    let d = drawing(vec![], vec![], [square.clone(), far].concat());
    let e = refused(run("far.dxf", &d, &["--open", "error"]));
    assert!(e.contains("LINE"), "{e}");
    // By default the gapped square's four lines are left out (the gap, 0.05 of the
    // square, is no near miss) and said; the far triangle alone is answered.
    let (code, out, err) = run("far.dxf", &d, &[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(f(&json(&out)["area"]), 0.5);
    assert!(
        err.contains("4 pieces in no closed outline left out (4 LINE; on layer 0 (4))"),
        "{err}"
    );
    // Closed, the same square is answered beside the far triangle, each exactly.
    let closed = [
        line12("1", (0.0, 0.0), (10.0, 0.0)),
        line12("2", (10.0, 0.0), (10.0, 10.0)),
        line12("3", (10.0, 10.0), (0.0, 10.0)),
        line12("4", (0.0, 10.0), (0.0, 0.0)),
    ]
    .concat();
    let (code, out, err) = run("closed.dxf", &drawing(vec![], vec![], closed), &[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(f(&json(&out)["area"]), 100.0);
}
