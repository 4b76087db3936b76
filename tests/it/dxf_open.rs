//! Drawings read as they are drawn (issue 47, item 2): open pieces left out and counted,
//! near misses refused with the tolerance that closes them, paper-space-only drawings read
//! from paper space, MTEXT frames and hatch boundaries never outlines, and each piece
//! named once in a branch refusal.

use super::dxf_cad::{f, json, refused};
use assert_cmd::cargo::cargo_bin_cmd;
use std::f64::consts::PI;

/// Runs `inertia polygon FILE ARGS --json` on `text` written to a temporary file named
/// `name`: (exit code, stdout, stderr).
fn run(name: &str, text: &str, args: &[&str]) -> (i32, String, String) {
    let dir = std::env::temp_dir().join(format!("inertia-dxf-open-{}", std::process::id()));
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

/// An ASCII drawing of these entities.
fn drawing(entities: &[String]) -> String {
    format!(
        "0\nSECTION\n2\nENTITIES\n{}0\nENDSEC\n0\nEOF\n",
        entities.concat()
    )
}

fn line(h: &str, layer: &str, a: (f64, f64), b: (f64, f64)) -> String {
    format!(
        "0\nLINE\n5\n{h}\n8\n{layer}\n10\n{}\n20\n{}\n11\n{}\n21\n{}\n",
        a.0, a.1, b.0, b.1
    )
}

fn arc(h: &str, layer: &str, c: (f64, f64), r: f64, s: f64, e: f64) -> String {
    format!(
        "0\nARC\n5\n{h}\n8\n{layer}\n10\n{}\n20\n{}\n40\n{r}\n50\n{s}\n51\n{e}\n",
        c.0, c.1
    )
}

/// A closed LWPOLYLINE through `pts`, with `extra` group pairs after its handle (reactors,
/// paper space).
fn lwpolyline(h: &str, extra: &str, pts: &[(f64, f64)]) -> String {
    let mut s = format!(
        "0\nLWPOLYLINE\n5\n{h}\n{extra}100\nAcDbEntity\n8\n0\n100\nAcDbPolyline\n90\n{}\n70\n1\n",
        pts.len()
    );
    for (x, y) in pts {
        s += &format!("10\n{x}\n20\n{y}\n");
    }
    s
}

fn rectangle(h: &str, extra: &str, (x, y): (f64, f64), (w, hgt): (f64, f64)) -> String {
    lwpolyline(
        h,
        extra,
        &[(x, y), (x + w, y), (x + w, y + hgt), (x, y + hgt)],
    )
}

/// A 40 × 20 plate (closed LWPOLYLINE) with a hole of radius 4, and a slot of two LINEs
/// and two ARCs (40 between centres, radius 5): 800 − 16π and 400 + 25π.
fn plate_and_slot() -> Vec<String> {
    vec![
        rectangle("A1", "", (0.0, 0.0), (40.0, 20.0)),
        "0\nCIRCLE\n5\nA2\n8\n0\n10\n20\n20\n10\n40\n4\n".to_string(),
        line("B1", "0", (100.0, 0.0), (140.0, 0.0)),
        arc("B2", "0", (140.0, 5.0), 5.0, 270.0, 90.0),
        line("B3", "0", (140.0, 10.0), (100.0, 10.0)),
        arc("B4", "0", (100.0, 5.0), 5.0, 90.0, 270.0),
    ]
}

#[test]
fn centre_lines_and_a_stray_arc_beside_a_profile_are_left_out_and_counted() {
    let mut d = plate_and_slot();
    d.extend([
        // Centre lines through the hole, crossing the plate's outline.
        line("C1", "CENTER", (-5.0, 10.0), (45.0, 10.0)),
        line("C2", "CENTER", (20.0, -5.0), (20.0, 25.0)),
        // A stray construction arc, and a leader from a corner of the slot (three ends
        // meet there until the leader, hanging free, is left out).
        arc("D1", "CONSTRUCTION", (60.0, 10.0), 3.0, 0.0, 90.0),
        line("E1", "NOTES", (140.0, 10.0), (150.0, 20.0)),
    ]);
    let d = drawing(&d);
    let (code, out, err) = run("centre_lines.dxf", &d, &[]);
    assert_eq!(code, 0, "{err}");
    // One warning, counting the pieces by entity type and layer.
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.ends_with(
            "centre_lines.dxf: 4 pieces in no closed outline left out (1 ARC, 3 LINE; on layers CENTER (2), CONSTRUCTION (1), NOTES (1)) (--open error refuses them)\n"
        ),
        "{err}"
    );
    let v = json(&out);
    let parts = v["parts"].as_array().unwrap();
    assert_eq!(parts.len(), 2);
    let plate = 800.0 - 16.0 * PI;
    let slot = 400.0 + 25.0 * PI;
    assert!((f(&parts[0]["area"]) - plate).abs() < 1e-13 * plate, "{v}");
    assert!((f(&parts[1]["area"]) - slot).abs() < 1e-13 * slot, "{v}");
    assert_eq!(v["total"]["ignored"]["open pieces"], 4, "{v}");
    // --open error keeps the strictness of before: the first piece is refused.
    let e = refused(run("centre_lines.dxf", &d, &["--open", "error"]));
    assert!(
        e.contains("LINE C1 (layer CENTER): (-5, 10)–(45, 10) is not part of a closed outline"),
        "{e}"
    );
}

#[test]
fn the_library_counts_what_it_left_out() {
    use inertia::io::dxf::{OpenPolicy, Options, parse_with};
    let mut d = plate_and_slot();
    d.push(line("C1", "CENTER", (-5.0, 10.0), (45.0, 10.0)));
    d.push(arc("D1", "CENTER", (60.0, 10.0), 3.0, 0.0, 90.0));
    let d = drawing(&d);
    let read = parse_with(d.as_bytes(), &Options::default()).unwrap();
    assert_eq!(read.parts.len(), 2);
    assert_eq!(read.open.count, 2);
    assert_eq!(
        read.open.kinds.iter().collect::<Vec<_>>(),
        [(&"ARC".to_string(), &1), (&"LINE".to_string(), &1)]
    );
    assert_eq!(read.open.layers["CENTER"], 2);
    let strict = Options {
        open: OpenPolicy::Refuse,
        ..Options::default()
    };
    assert!(matches!(
        parse_with(d.as_bytes(), &strict),
        Err(inertia::Error::OpenPiece { .. })
    ));
    // `parse`, which returns the parts alone, leaves nothing out unsaid: it refuses.
    assert!(inertia::io::dxf::parse(d.as_bytes()).is_err());
}

/// A 100 × 50 plate of four LINEs whose last stops `gap` short of the first, beside a
/// centre line.
fn gapped_plate(gap: f64) -> String {
    drawing(&[
        line("1", "0", (0.0, 0.0), (100.0, 0.0)),
        line("2", "0", (100.0, 0.0), (100.0, 50.0)),
        line("3", "0", (100.0, 50.0), (0.0, 50.0)),
        line("4", "0", (0.0, 50.0), (0.0, gap)),
        line("C", "CENTER", (-10.0, 25.0), (110.0, 25.0)),
    ])
}

#[test]
fn a_near_miss_is_refused_with_the_tolerance_that_closes_it() {
    // The join tolerance of LINE 1 and LINE 4 is 1e-6 of the longer one's extent, 1e-4; a
    // gap of 0.002 is within 100 times it: an outline drawn with a gap, not a stray piece.
    let d = gapped_plate(0.002);
    let e = refused(run("near_miss.dxf", &d, &[]));
    assert!(
        e.contains(
            "LINE 1: its end at (0, 0) misses an end of LINE 4 by 0.002, within 100 times the join tolerance 0.0001"
        ) && e.ends_with(": --join-tolerance 0.003 closes the gap\n"),
        "{e}"
    );
    // The library's error has the facts.
    let err = inertia::io::dxf::parse_with(d.as_bytes(), &Default::default()).unwrap_err();
    let inertia::Error::NearMiss {
        end,
        gap,
        tolerance,
        ..
    } = err
    else {
        panic!("{err:?}")
    };
    assert_eq!((end, gap), ([0.0, 0.0], 0.002));
    assert!((tolerance - 1e-4).abs() < 1e-18, "{tolerance}");
    // With the tolerance it names, the plate closes: 5000, the gap reported, the centre
    // line left out.
    let (code, out, err) = run("near_miss.dxf", &d, &["--join-tolerance", "0.003"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(f(&json(&out)["area"]), 5000.0);
    assert!(
        err.contains("ends of pieces up to 0.002 apart were joined"),
        "{err}"
    );
    assert!(
        err.contains("1 piece in no closed outline left out (1 LINE; on layer CENTER (1))"),
        "{err}"
    );
    // A gap past 100 times the tolerance is no near miss: with nothing else closed, the
    // drawing is refused as --open error would refuse it, saying how far the gap is.
    let e = refused(run("wide_gap.dxf", &gapped_plate(0.5), &[]));
    assert!(
        e.contains("LINE 1: (0, 0)–(100, 0) is not part of a closed outline: its end at (0, 0) meets no other piece (the nearest other end is 0.5 away)"),
        "{e}"
    );
}

#[test]
fn a_paper_space_only_drawing_is_read_from_paper_space() {
    // Model space holds a note; the active layout's paper space a 100 × 60 plate.
    let note = "0\nTEXT\n5\n2B\n8\n0\n10\n0\n20\n0\n40\n2.5\n1\nNOTE\n".to_string();
    let plate = rectangle("2A", "67\n1\n", (0.0, 0.0), (100.0, 60.0));
    let d = drawing(&[note, plate.clone()]);
    let (code, out, err) = run("paper.dxf", &d, &[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        err.lines().collect::<Vec<_>>(),
        [format!(
            "inertia: warning: {}: model space holds no outline or piece (its 1 entity is an annotation): the outlines of the active layout's paper space were read (--space model refuses the drawing)",
            std::env::temp_dir()
                .join(format!("inertia-dxf-open-{}", std::process::id()))
                .join("paper.dxf")
                .display()
        )]
    );
    let v = json(&out);
    assert_eq!(f(&v["area"]), 6000.0);
    assert_eq!(v["ignored"]["model space"], 1, "{v}");
    // Asked for model space, refused with where the geometry is.
    let e = refused(run("paper.dxf", &d, &["--space", "model"]));
    assert!(e.contains("in the model space of the DXF drawing"), "{e}");
    // An empty model space: the same, without the note.
    let (code, out, err) = run("paper.dxf", &drawing(std::slice::from_ref(&plate)), &[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(f(&json(&out)["area"]), 6000.0);
    assert!(
        err.contains("model space holds no outline or piece: the outlines"),
        "{err}"
    );
    // Model space holding a piece that closes nothing is no drawing on a sheet: the
    // piece is refused, and the sheet's border is never taken for the part.
    let stray = line("3C", "0", (0.0, 0.0), (10.0, 0.0));
    let e = refused(run("paper.dxf", &drawing(&[stray, plate]), &[]));
    assert!(
        e.contains("LINE 3C: (0, 0)–(10, 0) is not part of a closed outline"),
        "{e}"
    );
}

#[test]
fn mtext_frames_and_hatch_boundaries_are_never_outlines() {
    // A 40 × 20 profile; an MTEXT whose text frame (an LWPOLYLINE, as CAD programs write
    // it before R2018) is named in its ACAD_MTEXT_TEXT_BORDERS extended data; a second
    // frame that points back at its MTEXT by a reactor alone; a HATCH whose boundary path
    // is a closed 10 × 10 polyline.
    let mtext = |h: &str, xdata: &str| {
        format!(
            "0\nMTEXT\n5\n{h}\n100\nAcDbEntity\n8\n0\n100\nAcDbMText\n10\n100\n20\n100\n30\n0\n40\n2.5\n41\n30\n71\n1\n1\nNOTE\n90\n16\n{xdata}"
        )
    };
    let borders = "1001\nACAD\n1000\nACAD_MTEXT_TEXT_BORDERS_BEGIN\n1070\n80\n1070\n16\n1070\n46\n1040\n1.5\n1070\n81\n1070\n1\n1070\n5\n1005\nA8\n1000\nACAD_MTEXT_TEXT_BORDERS_END\n";
    let reactor = |owner: &str| format!("102\n{{ACAD_REACTORS\n330\n{owner}\n102\n}}\n");
    let hatch = "0\nHATCH\n5\nC1\n100\nAcDbEntity\n8\n0\n100\nAcDbHatch\n10\n0\n20\n0\n30\n0\n210\n0\n220\n0\n230\n1\n2\nSOLID\n70\n1\n71\n0\n91\n1\n92\n3\n72\n0\n73\n1\n93\n4\n10\n200\n20\n0\n10\n210\n20\n0\n10\n210\n20\n10\n10\n200\n20\n10\n97\n0\n75\n0\n76\n1\n98\n0\n";
    let d = drawing(&[
        rectangle("A1", "", (0.0, 0.0), (40.0, 20.0)),
        mtext("9D", borders),
        rectangle("A8", "", (98.0, 92.0), (34.0, 10.0)),
        mtext("9E", ""),
        rectangle("B8", &reactor("9E"), (98.0, 52.0), (34.0, 10.0)),
        hatch.to_string(),
    ]);
    let (code, out, err) = run("mtext_frame.dxf", &d, &[]);
    assert_eq!(code, 0, "{err}");
    assert!(err.is_empty(), "{err}");
    let v = json(&out);
    // The profile's answer alone.
    assert_eq!(
        v["source"].as_str().unwrap().rsplit(": ").next(),
        Some("LWPOLYLINE A1")
    );
    assert_eq!(f(&v["area"]), 800.0);
    assert_eq!(
        v["ignored"],
        serde_json::json!({"HATCH": 1, "MTEXT": 2, "MTEXT frames": 2}),
        "{v}"
    );
    // Without its MTEXT, the same polyline is an outline like any other.
    let d = drawing(&[
        rectangle("A1", "", (0.0, 0.0), (40.0, 20.0)),
        rectangle("A8", "", (98.0, 92.0), (34.0, 10.0)),
    ]);
    let (code, out, err) = run("no_mtext.dxf", &d, &[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(json(&out)["parts"].as_array().unwrap().len(), 2);
}

#[test]
fn a_branch_names_each_piece_once() {
    // A 10 × 10 square of four LINEs, joined within 20: every end falls at one point.
    let d = drawing(&[
        line("A", "0", (0.0, 0.0), (10.0, 0.0)),
        line("B", "0", (10.0, 0.0), (10.0, 10.0)),
        line("C", "0", (10.0, 10.0), (0.0, 10.0)),
        line("D", "0", (0.0, 10.0), (0.0, 0.0)),
    ]);
    let e = refused(run("branch.dxf", &d, &["--join-tolerance", "20"]));
    assert!(
        e.ends_with(
            "8 ends of 4 pieces meet at (0, 0) (LINE A, LINE B, LINE C, LINE D): an outline cannot branch\n"
        ),
        "{e}"
    );
    // Three pieces at a point: a diagonal from corner to corner of the square.
    let mut pieces = vec![
        line("A", "0", (0.0, 0.0), (10.0, 0.0)),
        line("B", "0", (10.0, 0.0), (10.0, 10.0)),
        line("C", "0", (10.0, 10.0), (0.0, 10.0)),
        line("D", "0", (0.0, 10.0), (0.0, 0.0)),
    ];
    pieces.push(line("E", "0", (0.0, 0.0), (10.0, 10.0)));
    let err =
        inertia::io::dxf::parse_with(drawing(&pieces).as_bytes(), &Default::default()).unwrap_err();
    let inertia::Error::Branch {
        at,
        ends,
        pieces,
        names,
    } = &err
    else {
        panic!("{err:?}")
    };
    assert_eq!((*at, *ends, *pieces), ([0.0, 0.0], 3, 3));
    assert_eq!(names, &["LINE A", "LINE D", "LINE E"]);
    assert_eq!(
        err.to_string(),
        "3 pieces meet at (0, 0) (LINE A, LINE D, LINE E): an outline cannot branch"
    );
}

/// A closed LWPOLYLINE through `pts`, each vertex with the bulge of the edge it starts.
fn bulged(h: &str, pts: &[((f64, f64), f64)]) -> String {
    let mut s = format!(
        "0\nLWPOLYLINE\n5\n{h}\n100\nAcDbEntity\n8\n0\n100\nAcDbPolyline\n90\n{}\n70\n1\n",
        pts.len()
    );
    for ((x, y), b) in pts {
        s += &format!("10\n{x}\n20\n{y}\n42\n{b}\n");
    }
    s
}

#[test]
fn outlines_sharing_an_arc_from_opposite_sides_are_two_parts() {
    // A unit square whose right side bulges out in a quarter circle, and a 2 × 1 plate
    // whose left side is that arc, drawn from the other side: area 3 in two parts.
    let b = (std::f64::consts::PI / 8.0).tan();
    let segment = 0.25 * (std::f64::consts::FRAC_PI_2 - 1.0);
    let as_bulges = drawing(&[
        bulged(
            "A",
            &[
                ((0.0, 0.0), 0.0),
                ((1.0, 0.0), b),
                ((1.0, 1.0), 0.0),
                ((0.0, 1.0), 0.0),
            ],
        ),
        bulged(
            "B",
            &[
                ((1.0, 1.0), -b),
                ((1.0, 0.0), 0.0),
                ((3.0, 0.0), 0.0),
                ((3.0, 1.0), 0.0),
            ],
        ),
    ]);
    let (name, text) = ("bulges.dxf", as_bulges);
    let (code, out, err) = run(name, &text, &[]);
    assert_eq!(code, 0, "{name}: {err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let parts = v["parts"].as_array().unwrap();
    assert_eq!(parts.len(), 2, "{name}: {out}");
    let total = v["total"]["area"].as_f64().unwrap();
    assert!((total - 3.0).abs() < 1e-14, "{name}: {total}");
    let mut areas: Vec<f64> = parts.iter().map(|p| p["area"].as_f64().unwrap()).collect();
    areas.sort_by(f64::total_cmp);
    assert!(
        (areas[0] - (1.0 + segment)).abs() < 1e-14,
        "{name}: {areas:?}"
    );
}

#[test]
fn outlines_of_lines_and_arcs_sharing_a_piece_drawn_twice_are_two_parts() {
    // A quarter disc (ARC A1, LINEs A2, A3) and the rest of the unit square beside it
    // (ARC B1, the same arc drawn again, LINEs B2, B3): 4 ends meet at (1, 0) and at
    // (0, 1), each outline taking one copy of the arc. Areas π/4 and 1 − π/4, as when
    // the two are LWPOLYLINEs.
    let quarter = [
        arc("A1", "0", (0.0, 0.0), 1.0, 0.0, 90.0),
        line("A2", "0", (0.0, 1.0), (0.0, 0.0)),
        line("A3", "0", (0.0, 0.0), (1.0, 0.0)),
    ];
    let rest = [
        arc("B1", "0", (0.0, 0.0), 1.0, 0.0, 90.0),
        line("B2", "0", (1.0, 0.0), (1.0, 1.0)),
        line("B3", "0", (1.0, 1.0), (0.0, 1.0)),
    ];
    let areas = |text: &str| -> Vec<f64> {
        let (code, out, err) = run("twice.dxf", text, &[]);
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        let total = f(&v["total"]["area"]);
        assert!((total - 1.0).abs() < 1e-15, "{total}");
        let mut a: Vec<f64> = v["parts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| f(&p["area"]))
            .collect();
        a.sort_by(f64::total_cmp);
        a
    };
    let want = [1.0 - PI / 4.0, PI / 4.0];
    // In either order, interleaved, and with a shared LINE drawn twice the other way round
    // (two squares side by side, their common side drawn once for each).
    for order in [
        [quarter.clone(), rest.clone()].concat(),
        [rest.clone(), quarter.clone()].concat(),
        vec![
            rest[2].clone(),
            quarter[0].clone(),
            rest[0].clone(),
            quarter[2].clone(),
            rest[1].clone(),
            quarter[1].clone(),
        ],
    ] {
        let a = areas(&drawing(&order));
        assert!(
            (a[0] - want[0]).abs() < 1e-15 && (a[1] - want[1]).abs() < 1e-15,
            "{a:?}"
        );
    }
    let squares = drawing(&[
        line("1", "0", (0.0, 0.0), (1.0, 0.0)),
        line("2", "0", (1.0, 0.0), (1.0, 1.0)),
        line("3", "0", (1.0, 1.0), (0.0, 1.0)),
        line("4", "0", (0.0, 1.0), (0.0, 0.0)),
        line("5", "0", (1.0, 1.0), (1.0, 0.0)),
        line("6", "0", (1.0, 0.0), (3.0, 0.0)),
        line("7", "0", (3.0, 0.0), (3.0, 1.0)),
        line("8", "0", (3.0, 1.0), (1.0, 1.0)),
    ]);
    let (code, out, err) = run("squares.dxf", &squares, &[]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["parts"].as_array().unwrap().len(), 2, "{out}");
    assert_eq!(f(&v["total"]["area"]), 3.0);
    // Three unit squares in a row, each drawn whole: the middle one shares a side with
    // each neighbour, so its outline is found through the first join resolved.
    let square = |x: f64, h: &str| {
        [
            line(&format!("{h}1"), "0", (x, 0.0), (x + 1.0, 0.0)),
            line(&format!("{h}2"), "0", (x + 1.0, 0.0), (x + 1.0, 1.0)),
            line(&format!("{h}3"), "0", (x + 1.0, 1.0), (x, 1.0)),
            line(&format!("{h}4"), "0", (x, 1.0), (x, 0.0)),
        ]
    };
    let row = drawing(&[square(0.0, "A"), square(1.0, "B"), square(2.0, "C")].concat());
    let (code, out, err) = run("row.dxf", &row, &[]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let parts = v["parts"].as_array().unwrap();
    assert_eq!(parts.len(), 3, "{out}");
    assert!(parts.iter().all(|p| f(&p["area"]) == 1.0), "{out}");
    // The same arc drawn twice on one side (two quarter discs) is an overlap, refused.
    let other = [
        arc("C1", "0", (0.0, 0.0), 1.0, 0.0, 90.0),
        line("C2", "0", (0.0, 1.0), (0.0, 0.0)),
        line("C3", "0", (0.0, 0.0), (1.0, 0.0)),
    ];
    let twice = drawing(&[quarter.clone(), other].concat());
    let e = refused(run("overlap.dxf", &twice, &[]));
    assert!(!e.contains("cannot branch"), "{e}");
    // A piece drawn once where three outlines' ends meet is still a branch.
    let t = drawing(&[
        line("1", "0", (0.0, 0.0), (1.0, 0.0)),
        line("2", "0", (1.0, 0.0), (1.0, 1.0)),
        line("3", "0", (1.0, 1.0), (0.0, 1.0)),
        line("4", "0", (0.0, 1.0), (0.0, 0.0)),
        line("5", "0", (1.0, 0.0), (2.0, 0.0)),
        line("6", "0", (2.0, 0.0), (2.0, 1.0)),
        line("7", "0", (2.0, 1.0), (1.0, 1.0)),
    ]);
    let e = refused(run("branch.dxf", &t, &["--open", "error"]));
    assert!(e.contains("cannot branch"), "{e}");
}
