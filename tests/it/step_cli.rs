//! `inertia mesh part.step` with the feature `step`: solids written by OpenCASCADE itself
//! (through the shim's test writer) and a STEP file from a CAD program, read by the
//! command as a user runs it.

use assert_cmd::cargo::cargo_bin_cmd;
use inertia::io::step::testing::{TestSolid, write};
use std::path::PathBuf;

fn run(args: &[&str]) -> (i32, String, String) {
    let out = cargo_bin_cmd!("inertia").args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `solid` written to a fresh temporary file.
fn written(solid: TestSolid) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("inertia-step-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let ext = match solid {
        TestSolid::BrepPair | TestSolid::Invalid => "brep",
        TestSolid::Iges => "igs",
        _ => "step",
    };
    let path = dir.join(format!("{solid:?}.{ext}"));
    write(solid, &path).unwrap();
    path
}

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

fn close(a: f64, b: f64, rel: f64) -> bool {
    (a - b).abs() <= rel * b.abs().max(1e-300)
}

/// Exit 2, nothing on stdout, one line on stderr holding each of `needles`.
fn refused(code: i32, out: &str, err: &str, needles: &[&str]) {
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty(), "{out}");
    assert_eq!(err.lines().count(), 1, "{err}");
    for n in needles {
        assert!(err.contains(n), "{n:?} not in {err}");
    }
}

#[test]
fn a_box_reports_as_a_mesh_does_with_its_tolerance() {
    let path = written(TestSolid::Box);
    let (code, out, err) = run(&["mesh", path.to_str().unwrap(), "--json"]);
    assert_eq!(code, 0, "{err}");
    let v = json(&out);
    assert_eq!(v["method"], "brep");
    assert_eq!(v["tolerance"], 1e-12);
    // The file says millimetres: results in kg and metres, as for a 3MF in mm.
    assert!(close(v["volume"].as_f64().unwrap(), 6e-6, 1e-12), "{out}");
    assert!(close(v["centroid"][2].as_f64().unwrap(), 0.018, 1e-12));
    assert!(close(
        v["inertia_tensor"][0][0].as_f64().unwrap(),
        6e-6 * 13e-4 / 12.0,
        1e-9
    ));
    assert!(close(
        v["principal"]["moments"][0].as_f64().unwrap(),
        6e-6 * 5e-4 / 12.0,
        1e-9
    ));
    assert!(v.get("triangles").is_none(), "{out}");
    let (code, out, _) = run(&["mesh", path.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(
        out.contains("method: brep, relative tolerance 1e-12"),
        "{out}"
    );
    assert!(out.contains("principal moments"), "{out}");
}

#[test]
fn a_light_density_in_the_unit_the_step_file_states_is_warned_of() {
    let path = written(TestSolid::Box);
    let p = path.to_str().unwrap();
    let (code, _, err) = run(&["mesh", p, "--density", "7.85"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        err,
        format!(
            "inertia: warning: {p}: --density 7.85 is taken in kg/m³ (the file states its lengths in mm), lighter than foam; for g/cm³ write --density 7.85g/cm3\n"
        )
    );
    let (code, _, err) = run(&["mesh", p, "--density", "7850"]);
    assert_eq!((code, err.as_str()), (0, ""));
}

#[test]
fn an_assembly_is_reported_per_part_and_summed() {
    let path = written(TestSolid::Assembly);
    let (code, out, err) = run(&[
        "mesh",
        path.to_str().unwrap(),
        "--json",
        "--output-units",
        "mm",
    ]);
    assert_eq!(code, 0, "{err}");
    let v = json(&out);
    let parts = v["parts"].as_array().unwrap();
    assert_eq!(parts.len(), 2);
    assert!(parts[0]["source"].as_str().unwrap().ends_with(": left"));
    assert!(parts[1]["source"].as_str().unwrap().ends_with(": right"));
    // The right block is turned 90° about z and moved 100 along x.
    assert!(close(
        parts[1]["centroid"][0].as_f64().unwrap(),
        90.0,
        1e-12
    ));
    assert!(close(parts[1]["centroid"][1].as_f64().unwrap(), 5.0, 1e-12));
    let total = &v["total"];
    assert_eq!(total["method"], "brep");
    assert!(close(total["volume"].as_f64().unwrap(), 12000.0, 1e-12));
    assert!(close(total["centroid"][0].as_f64().unwrap(), 47.5, 1e-12));
    // Izz of the pair about their common centroid: each block's own, plus m d² (6000 mm³
    // of density 1 kg/m³ is 6e-6 kg).
    let (m, dx, dy) = (6e-6, 42.5, 2.5);
    let izz = 2.0 * m * (100.0 + 400.0) / 12.0 + 2.0 * m * (dx * dx + dy * dy);
    assert!(close(
        total["inertia_tensor"][2][2].as_f64().unwrap(),
        izz,
        1e-9
    ));
}

#[test]
fn a_part_in_inches_follows_the_units_rules_of_3mf() {
    let path = write_inch();
    let p = path.to_str().unwrap();
    let (code, out, err) = run(&["mesh", p, "--json", "--output-units", "in"]);
    assert_eq!(code, 0, "{err}");
    let v = json(&out);
    assert!(close(v["volume"].as_f64().unwrap(), 6.0, 1e-12), "{out}");
    // Density 1 kg/m³: the moment over the mass is 6.5/6 in² whatever the mass.
    let per_mass = v["inertia_tensor"][0][0].as_f64().unwrap() / v["mass"].as_f64().unwrap();
    assert!(close(per_mass, 6.5 / 6.0, 1e-12), "{out}");
    // 6 in³ is 98.322384 cm³: a mass by --material uses the file's unit.
    let (code, out, _) = run(&["mesh", p, "--json", "--material", "water"]);
    assert_eq!(code, 0);
    let mass = json(&out)["mass"].as_f64().unwrap();
    assert!(
        close(mass, 6.0 * 0.0254f64.powi(3) * 1000.0, 1e-3),
        "{mass}"
    );
    // Another unit given is refused without --units-override.
    let (code, out, err) = run(&["mesh", p, "--units", "mm"]);
    refused(
        code,
        &out,
        &err,
        &["states its unit as in", "--units-override"],
    );
    let (code, out, _) = run(&["mesh", p, "--units", "mm", "--units-override", "--json"]);
    assert_eq!(code, 0);
    assert!(
        close(json(&out)["volume"].as_f64().unwrap(), 6e-9, 1e-12),
        "{out}"
    );
}

fn write_inch() -> PathBuf {
    written(TestSolid::Inches)
}

#[test]
fn what_is_not_a_valid_solid_is_refused_in_one_line() {
    let open = written(TestSolid::OpenShell);
    let (code, out, err) = run(&["mesh", open.to_str().unwrap()]);
    refused(code, &out, &err, &["open shell", "OPEN_SHELL"]);

    let overlap = written(TestSolid::Overlapping);
    let p = overlap.to_str().unwrap();
    let (code, out, err) = run(&["mesh", p]);
    refused(
        code,
        &out,
        &err,
        &["share a volume of 3000", "--overlap sum"],
    );
    let (code, out, err) = run(&["mesh", p, "--overlap", "sum", "--json"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("counted twice"), "{err}");
    assert!(close(
        json(&out)["total"]["volume"].as_f64().unwrap(),
        12e-6,
        1e-12
    ));

    let good = std::fs::read(written(TestSolid::BoxWithHole)).unwrap();
    let dir = open.parent().unwrap();
    for (name, bytes) in [
        ("truncated.step", &good[..good.len() / 3]),
        ("noise.stp", &b"\x00\x01\x02 not a STEP file"[..]),
        ("truncated.igs", &good[..100]),
        ("truncated.brep", &good[..100]),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        let (code, out, err) = run(&["mesh", path.to_str().unwrap()]);
        refused(code, &out, &err, &[name]);
    }
    let (code, out, err) = run(&[
        "mesh",
        written(TestSolid::Box).to_str().unwrap(),
        "--method",
        "voxel",
    ]);
    refused(code, &out, &err, &["B-rep"]);
    let invalid = written(TestSolid::Invalid);
    let (code, out, err) = run(&["mesh", invalid.to_str().unwrap()]);
    refused(
        code,
        &out,
        &err,
        &["shape check fails at shell 1", "BadOrientation"],
    );
}

#[test]
fn method_all_shows_tessellations_converging_to_the_brep() {
    let path = written(TestSolid::Torus);
    let (code, out, err) = run(&["mesh", path.to_str().unwrap(), "--method", "all", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v = json(&out);
    assert_eq!(v["agree"], true);
    let rows = v["tessellations"].as_array().unwrap();
    assert_eq!(rows.len(), 3);
    let diffs: Vec<f64> = rows
        .iter()
        .map(|r| r["difference"].as_f64().unwrap())
        .collect();
    assert!(diffs[0] > diffs[1] && diffs[1] > diffs[2], "{diffs:?}");
    assert!(diffs[2] < 1e-2, "{diffs:?}");
    let (code, out, _) = run(&["mesh", path.to_str().unwrap(), "--method", "all"]);
    assert_eq!(code, 0);
    assert!(out.contains("converge to the B-rep"), "{out}");
}

/// A STEP file written by a CAD program (NIST's CTC-02 test part, see fixtures/README.md):
/// its B-rep result agrees with its own tessellation within the bound the chords allow.
#[test]
fn a_cad_program_file_agrees_with_its_tessellation() {
    let file = "fixtures/cad/nist_ctc_02_asme1_ap242.stp";
    let (code, out, err) = run(&["mesh", file, "--method", "all", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v = json(&out);
    assert_eq!(v["agree"], true, "{out}");
    let brep = &v["brep"];
    assert_eq!(brep["method"], "brep");
    assert_eq!(brep["units"]["input"], "mm", "{out}");
    // 47,101,542.814 mm³: its 22 B-spline faces integrated by src/io/green.cpp, the
    // others by BRepGProp, to 1e-12. BRepGProp on every face gave 47,101,542.429 with its
    // periodic B-spline faces' knots listed over their ranges, 47,101,543.018 without:
    // 8e-9 and 4e-9 of the volume away, inside what this B-rep can say (its volume moves
    // by 1e-6 of itself between reference points 400 mm apart: its faces do not close).
    // The finest tessellation is within 1e-4 of it.
    let volume = brep["volume"].as_f64().unwrap();
    assert!(close(volume, 0.047101542814, 1e-10), "{volume}");
    let rows = v["tessellations"].as_array().unwrap();
    let last = &rows[rows.len() - 1];
    assert!(last["difference"].as_f64().unwrap() < 1e-4, "{last}");
    assert!(last["difference"].as_f64().unwrap() <= last["bound"].as_f64().unwrap());
}

/// A second CAD program's file (NIST's CTC-01, 117 analytic faces, AP242 with colour and
/// PMI): the B-rep in metres from a file in millimetres, its colour, and its tessellations
/// agreeing with it.
#[test]
fn a_smaller_cad_program_file_is_read_with_its_colour_and_agrees_with_its_tessellation() {
    let file = "fixtures/cad/nist_ctc_01_asme1_ap242.stp";
    let (code, out, err) = run(&["mesh", file, "--method", "all", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v = json(&out);
    assert_eq!(v["agree"], true, "{out}");
    let brep = &v["brep"];
    assert_eq!(brep["units"]["input"], "mm", "{out}");
    assert_eq!(brep["units"]["length"], "m", "{out}");
    assert_eq!(brep["shells"], 1);
    assert!(
        close(brep["volume"].as_f64().unwrap(), 0.014644823285159, 1e-10),
        "{out}"
    );
    let area = brep["surface_area"].as_f64().unwrap();
    assert!(close(area, 0.8070808221618, 1e-9), "{out}");
    for (k, want) in [0.7529, 0.6627, 0.9765].into_iter().enumerate() {
        let got = brep["color"][k].as_f64().unwrap();
        assert!((got - want).abs() < 1e-6, "{out}");
    }
    let rows = v["tessellations"].as_array().unwrap();
    let last = &rows[rows.len() - 1];
    assert!(last["difference"].as_f64().unwrap() < 1e-4, "{last}");
    // Read as the human report too: one line per quantity, no warning.
    let (code, text, err) = run(&["mesh", file]);
    assert_eq!(code, 0, "{err}");
    assert!(text.contains("length m (input in mm)"), "{text}");
    assert!(err.is_empty(), "{err}");
}

#[test]
fn a_file_density_is_used_unless_one_is_given_and_colour_and_material_are_reported() {
    let path = written(TestSolid::Coloured);
    let p = path.to_str().unwrap();
    // No density given: the file's 2.7 g/cm³ (2700 kg/m³), said on stderr.
    let (code, out, err) = run(&["mesh", p, "--json"]);
    assert_eq!(code, 0, "{err}");
    let v = json(&out);
    assert!(
        close(v["density"].as_f64().unwrap(), 2700.0, 1e-12),
        "{out}"
    );
    assert!(
        close(v["mass"].as_f64().unwrap(), 6e-6 * 2700.0, 1e-12),
        "{out}"
    );
    assert_eq!(v["material"]["name"], "aluminium 6061");
    // Its report combines: combine reads its method, brep, back.
    assert_eq!(v["method"], "brep");
    let report = std::env::temp_dir().join(format!("inertia-brep-{}.json", std::process::id()));
    std::fs::write(&report, &out).unwrap();
    let (combined, _, why) = run(&["combine", report.to_str().unwrap()]);
    std::fs::remove_file(&report).ok();
    assert_eq!(combined, 0, "{why}");
    assert!(close(
        v["material"]["density"].as_f64().unwrap(),
        2700.0,
        1e-12
    ));
    assert_eq!(v["material"]["density_used"], true);
    let rgb: Vec<f64> = (0..3).map(|k| v["color"][k].as_f64().unwrap()).collect();
    for (got, want) in rgb.iter().zip([0.8, 0.2, 0.1]) {
        assert!((got - want).abs() < 1e-6, "{rgb:?}");
    }
    assert!(
        err.contains("density 2700 kg/m^3 from") && err.contains("aluminium 6061"),
        "{err}"
    );
    // --method all weighs the B-rep and its tessellations with it too.
    let (code, out, err) = run(&["mesh", p, "--method", "all", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v = json(&out);
    assert!(
        close(v["brep"]["mass"].as_f64().unwrap(), 6e-6 * 2700.0, 1e-12),
        "{out}"
    );
    assert!(err.contains("density 2700 kg/m^3 from"), "{err}");
    // Its B-rep report is the part's report, as without --method all: colour and material.
    assert_eq!(v["brep"]["material"]["density_used"], true, "{out}");
    assert!(v["brep"]["color"].is_array(), "{out}");
    // A density given wins; the file's is reported, not used, and nothing is said.
    let (code, out, err) = run(&["mesh", p, "--json", "--density", "7850"]);
    assert_eq!(code, 0, "{err}");
    let v = json(&out);
    assert!(
        close(v["mass"].as_f64().unwrap(), 6e-6 * 7850.0, 1e-12),
        "{out}"
    );
    assert_eq!(v["material"]["density_used"], false);
    assert!(err.is_empty(), "{err}");
    // The table says both.
    let (code, out, _) = run(&["mesh", p]);
    assert_eq!(code, 0);
    assert!(
        out.contains("material") && out.contains("(the density used)"),
        "{out}"
    );
    assert!(out.contains("colour"), "{out}");
    // A part without them prints neither and keeps unit density.
    let (_, out, err) = run(&["mesh", written(TestSolid::Box).to_str().unwrap(), "--json"]);
    let v = json(&out);
    assert!(
        v.get("material").is_none() && v.get("color").is_none(),
        "{out}"
    );
    assert_eq!(v["density"], 1.0);
    assert!(err.is_empty(), "{err}");
}

#[test]
fn a_step_file_on_standard_input_is_read_as_from_its_path() {
    let path = written(TestSolid::BoxWithHole);
    let from_path = run(&["mesh", path.to_str().unwrap(), "--json"]);
    assert_eq!(from_path.0, 0, "{}", from_path.2);
    let out = cargo_bin_cmd!("inertia")
        .args(["mesh", "-", "--input-format", "step", "--json"])
        .write_stdin(std::fs::read(&path).unwrap())
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (a, b) = (
        json(&from_path.1),
        json(&String::from_utf8_lossy(&out.stdout)),
    );
    for key in ["volume", "mass", "centroid", "inertia_tensor", "tolerance"] {
        assert_eq!(a[key], b[key], "{key}");
    }
    // Named `-` in the report, no temporary path.
    let source = b["source"].as_str().unwrap();
    assert!(source.starts_with("-: "), "{source}");
    // A damaged one is refused in one line naming standard input.
    let out = cargo_bin_cmd!("inertia")
        .args(["mesh", "-", "--input-format", "step"])
        .write_stdin(&b"ISO-10303-21;\nDATA;\n#1=A();\n"[..])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    refused(
        out.status.code().unwrap_or(-1),
        &String::from_utf8_lossy(&out.stdout),
        &err,
        &["<stdin>", "END-ISO-10303-21"],
    );
    // And an empty one.
    let out = cargo_bin_cmd!("inertia")
        .args(["mesh", "-", "--input-format", "iges"])
        .write_stdin(&b""[..])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    refused(
        out.status.code().unwrap_or(-1),
        "",
        &err,
        &["<stdin>", "empty"],
    );
}

#[test]
fn parts_of_different_materials_are_each_weighed_with_their_own() {
    let path = written(TestSolid::TwoMaterials);
    let (code, out, err) = run(&["mesh", path.to_str().unwrap(), "--json"]);
    assert_eq!(code, 0, "{err}");
    let v = json(&out);
    let parts = v["parts"].as_array().unwrap_or_else(|| panic!("{out}"));
    assert_eq!(parts.len(), 2, "{out}");
    // 6e-6 m³ each: aluminium 2700 kg/m³, steel 7850 kg/m³.
    let (al, steel) = (6e-6 * 2700.0, 6e-6 * 7850.0);
    assert!(
        close(parts[0]["mass"].as_f64().unwrap(), al, 1e-12),
        "{out}"
    );
    assert!(
        close(parts[1]["mass"].as_f64().unwrap(), steel, 1e-12),
        "{out}"
    );
    assert_eq!(parts[1]["material"]["name"], "steel");
    assert_eq!(parts[1]["material"]["density_used"], true);
    let total = &v["total"];
    assert!(
        close(total["mass"].as_f64().unwrap(), al + steel, 1e-12),
        "{out}"
    );
    // Centroids at x 5 mm and 105 mm, weighed by mass.
    let x = (al * 0.005 + steel * 0.105) / (al + steel);
    assert!(
        close(total["centroid"][0].as_f64().unwrap(), x, 1e-12),
        "{out}"
    );
    assert!(
        close(
            total["density"].as_f64().unwrap(),
            (al + steel) / 12e-6,
            1e-12
        ),
        "{out}"
    );
    assert!(err.contains("its own material's density"), "{err}");
    // One density given: both parts take it.
    let (code, out, _) = run(&[
        "mesh",
        path.to_str().unwrap(),
        "--json",
        "--density",
        "1000",
    ]);
    assert_eq!(code, 0);
    let v = json(&out);
    assert!(
        close(v["total"]["mass"].as_f64().unwrap(), 12e-6 * 1000.0, 1e-12),
        "{out}"
    );
}

#[test]
fn json_lines_of_step_files_carry_the_file_density_and_combine() {
    // The density is decided once every file is read: a JSON Lines batch of CAD files is
    // printed at the end, even with --units and --units-override (which fix the unit and
    // would let a batch of meshes stream), every line with the file's density.
    let path = written(TestSolid::Coloured);
    let p = path.to_str().unwrap();
    for extra in [&[][..], &["--units", "mm", "--units-override"][..]] {
        let mut args = vec!["mesh", p, p, "--format", "jsonl"];
        args.extend_from_slice(extra);
        let (code, out, err) = run(&args);
        assert_eq!(code, 0, "{err}");
        let lines: Vec<serde_json::Value> = out.lines().map(json).collect();
        assert_eq!(lines.len(), 2, "{out}");
        for v in &lines {
            assert!(
                close(v["density"].as_f64().unwrap(), 2700.0, 1e-12),
                "{extra:?}: {out}"
            );
            assert_eq!(v["material"]["density_used"], true, "{out}");
            assert!(v["color"].is_array(), "{out}");
        }
        assert!(err.contains("density 2700 kg/m^3 from"), "{err}");
    }
    // The report read back by combine, colour and material and all.
    let (code, out, err) = run(&["mesh", p, "--json"]);
    assert_eq!(code, 0, "{err}");
    let dir = std::env::temp_dir().join(format!("inertia-step-combine-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let report = dir.join("coloured.json");
    std::fs::write(&report, &out).unwrap();
    let (code, combined, err) = run(&["combine", report.to_str().unwrap(), "--json"]);
    assert_eq!(code, 0, "{err}");
    let (v, c) = (json(&out), json(&combined));
    assert!(
        close(
            c["mass"].as_f64().unwrap(),
            v["mass"].as_f64().unwrap(),
            1e-15
        ),
        "{combined}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
