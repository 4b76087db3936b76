//! Units, materials, axes and product conventions, against hand-computed values.

use assert_cmd::cargo::cargo_bin_cmd;
use serde_json::Value;

fn json(args: &[&str]) -> Value {
    let out = cargo_bin_cmd!("inertia").args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

fn close(got: f64, want: f64) {
    assert!(
        (got - want).abs() <= 1e-12 * want.abs(),
        "got {got}, want {want}"
    );
}

const TET: &str = "fixtures/mesh/right_tetrahedron.stl";

#[test]
fn millimetre_part_in_steel_gives_kilograms_and_si() {
    // Volume 10 mm³ = 1e-8 m³; steel 7850 kg/m³: 7.85e-5 kg. Ixx = 75/8 mm⁵ · ρ = 9.375e-15 m⁵ ·
    // 7850 kg/m³ = 7.359375e-11 kg·m².
    for args in [vec!["--material", "steel"], vec!["--density", "7850"]] {
        let mut a = vec!["mesh", TET, "--units", "mm", "--json"];
        a.extend(args);
        let v = json(&a);
        close(f(&v["volume"]), 1e-8);
        close(f(&v["mass"]), 7.85e-5);
        close(f(&v["density"]), 7850.0);
        close(f(&v["centroid"][0]), 1.25e-3);
        close(f(&v["inertia_tensor"][0][0]), 9.375e-15 * 7850.0);
        close(f(&v["surface_area"]), 37.365424623862 * 1e-6);
        assert_eq!(v["units"]["inertia"], "kg*m^2");
        assert_eq!(v["units"]["length"], "m");
    }
    // The same in kg·mm² and mm.
    let v = json(&[
        "mesh",
        TET,
        "--units",
        "mm",
        "--output-units",
        "mm",
        "--material",
        "steel",
        "--json",
    ]);
    close(f(&v["volume"]), 10.0);
    close(f(&v["mass"]), 7.85e-5);
    close(f(&v["inertia_tensor"][0][0]), 9.375 * 7850.0 * 1e-9);
    assert_eq!(v["units"]["inertia"], "kg*mm^2");
    // Inches to metres: lengths × 0.0254.
    let v = json(&["mesh", TET, "--units", "in", "--density", "1000", "--json"]);
    close(f(&v["volume"]), 10.0 * 0.0254f64.powi(3));
    close(
        f(&v["inertia_tensor"][2][2]),
        123.0 / 8.0 * 1000.0 * 0.0254f64.powi(5),
    );
    // --mass is in kg whatever the length unit.
    let v = json(&["mesh", TET, "--units", "ft", "--mass", "2", "--json"]);
    close(f(&v["mass"]), 2.0);
    close(f(&v["density"]), 2.0 / (10.0 * 0.3048f64.powi(3)));
}

#[test]
fn plates_take_a_thickness() {
    // A 1 mm square of 2 mm aluminium: 2700 kg/m³ · 0.002 m = 5.4 kg/m²; area 1e-6 m².
    let v = json(&[
        "polygon",
        "fixtures/polygon/unit_square.json",
        "--units",
        "mm",
        "--material",
        "aluminium",
        "--thickness",
        "2",
        "--json",
    ]);
    close(f(&v["density"]), 5.4);
    close(f(&v["mass"]), 5.4e-6);
    close(f(&v["inertia"]), 5.4e-6 * 2e-6 / 12.0);
    assert_eq!(v["units"]["density"], "kg/m^2");
    // Unitless with a thickness: areal density = density × thickness.
    let v = json(&[
        "polygon",
        "fixtures/polygon/unit_square.json",
        "--density",
        "3",
        "--thickness",
        "0.5",
        "--json",
    ]);
    close(f(&v["mass"]), 1.5);
}

#[test]
fn axis_moments_and_product_conventions() {
    // Right tetrahedron, density 1: about the x axis through the centroid the moment is Ixx.
    let v = json(&["mesh", TET, "--axis", "2,0,0", "--json"]);
    close(f(&v["axis_moment"]), 75.0 / 8.0);
    // Along (1,1,0)/√2: (Ixx + Iyy)/2 + Ixy(tensor) = (75/8 + 51/4)/2 + 5/2.
    let v = json(&["mesh", TET, "--axis", "1,1,0", "--json"]);
    close(f(&v["axis_moment"]), (75.0 / 8.0 + 51.0 / 4.0) / 2.0 + 2.5);
    // CAD sign: products +∫xy dm = −5/2.
    let v = json(&["mesh", TET, "--products", "cad", "--json"]);
    close(f(&v["inertia_tensor"][0][1]), -2.5);
    assert_eq!(v["products"], "cad");
    let v = json(&["mesh", TET, "--json"]);
    assert_eq!(v["products"], "tensor");
    // Polygons: L shape, ixy = −∫xy = +1/3 (tensor, the default as for meshes) or
    // +∫xy = −1/3 (CAD).
    let v = json(&["polygon", "fixtures/polygon/l_shape.json", "--json"]);
    close(f(&v["mass_moments"]["ixy"]), 1.0 / 3.0);
    close(f(&v["area_moments"]["ixy"]), 1.0 / 3.0);
    assert_eq!(v["products"], "tensor");
    let v = json(&[
        "polygon",
        "fixtures/polygon/l_shape.json",
        "--products",
        "cad",
        "--json",
    ]);
    close(f(&v["mass_moments"]["ixy"]), -1.0 / 3.0);
    close(f(&v["area_moments"]["ixy"]), -1.0 / 3.0);
    assert_eq!(v["products"], "cad");
    // In-plane axis along the L's symmetry line (1,1): I = (ixx + iyy)/2 − ixy = 11/12 + 1/3.
    let v = json(&[
        "polygon",
        "fixtures/polygon/l_shape.json",
        "--axis",
        "1,1",
        "--json",
    ]);
    close(f(&v["axis_moment"]), 11.0 / 12.0 + 1.0 / 3.0);
}

#[test]
fn materials_are_listed() {
    let out = cargo_bin_cmd!("inertia")
        .args(["materials", "--json"])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["schema_version"], 1);
    let v = &v["materials"];
    let steel = v
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == "steel")
        .unwrap();
    assert_eq!(steel["density"], 7850.0);
    assert!(steel["source"].as_str().unwrap().contains("EN 1993"));
    // JSON Lines: one object per line, each versioned like every JSON Lines line, and
    // otherwise the same as in the array.
    let out = cargo_bin_cmd!("inertia")
        .args(["materials", "--format", "jsonl"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), v.as_array().unwrap().len());
    assert!(lines.iter().all(|m| m["schema_version"] == 1));
    let unversioned = |m: &Value| {
        let mut m = m.clone();
        m.as_object_mut().unwrap().remove("schema_version");
        m
    };
    assert!(lines.iter().any(|m| unversioned(m) == *steel));
}

#[test]
fn unit_mistakes_are_refused() {
    for (args, frag) in [
        (
            vec!["mesh", TET, "--material", "steel"],
            "--material gives a density in kg/m³: say the input's length unit with --units",
        ),
        (
            vec!["mesh", TET, "--material", "unobtainium", "--units", "mm"],
            "unknown material \"unobtainium\" (see `inertia materials`)",
        ),
        (
            vec!["mesh", TET, "--material", "alumnium", "--units", "mm"],
            "unknown material \"alumnium\": did you mean \"aluminium\"?",
        ),
        (
            vec![
                "polygon",
                "fixtures/polygon/unit_square.json",
                "--material",
                "steel",
                "--units",
                "mm",
            ],
            "--thickness",
        ),
        (vec!["mesh", TET, "--output-units", "mm"], "--units"),
        (
            vec!["mesh", TET, "--axis", "1,0"],
            "--axis needs 3 components here, got 2",
        ),
        (vec!["mesh", TET, "--axis", "0,0,0"], "zero vector"),
        (
            vec![
                "polygon",
                "fixtures/polygon/unit_square.json",
                "--thickness",
                "-1",
            ],
            "--thickness must be a positive",
        ),
        (
            vec!["mesh", TET, "--units", "furlong"],
            "invalid value 'furlong'",
        ),
    ] {
        let out = cargo_bin_cmd!("inertia").args(&args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(out.stdout.is_empty());
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.contains(frag), "{args:?}: {err}");
    }
}

#[test]
fn units_may_be_spelled_out_and_in_any_case_never_taken_for_a_near_name() {
    // `millimeter` was refused with the hint "mil" (a thousandth of an inch: 39 times
    // smaller, the mass 61,000 times lighter). Every spelling is the unit it names.
    let mm = json(&["mesh", TET, "--units", "mm", "--json"]);
    for name in [
        "millimeter",
        "millimetre",
        "millimeters",
        "MM",
        "Millimetre",
    ] {
        let v = json(&["mesh", TET, "--units", name, "--json"]);
        assert_eq!(v["volume"], mm["volume"], "{name}");
        assert_eq!(v["inertia_tensor"], mm["inertia_tensor"], "{name}");
    }
    let inch = json(&["mesh", TET, "--units", "in", "--json"]);
    for name in ["inch", "inches", "IN"] {
        let v = json(&["mesh", TET, "--units", name, "--json"]);
        assert_eq!(v["volume"], inch["volume"], "{name}");
    }
    let out = json(&[
        "mesh",
        TET,
        "--units",
        "feet",
        "--output-units",
        "MM",
        "--json",
    ]);
    close(f(&out["volume"]), 10.0 * 304.8f64.powi(3));
}

#[test]
fn a_density_may_carry_its_unit_and_a_bare_one_that_looks_like_g_per_cm3_is_flagged() {
    let out = |args: &[&str]| cargo_bin_cmd!("inertia").args(args).output().unwrap();
    let steel = json(&["mesh", TET, "--units", "mm", "--density", "7850", "--json"]);
    for d in [
        "7.85g/cm3",
        "7.85 g/cm³",
        "7850kg/m3",
        "7.85e3 kg/m^3",
        "7.85kg/L",
    ] {
        let v = json(&["mesh", TET, "--units", "mm", "--density", d, "--json"]);
        close(f(&v["mass"]), f(&steel["mass"]));
    }
    // 0.283599 lb/in³ is 7850 kg/m³ to 6 digits.
    let v = json(&[
        "mesh",
        TET,
        "--units",
        "mm",
        "--density",
        "0.2836lb/in3",
        "--json",
    ]);
    assert!(
        (f(&v["mass"]) / f(&steel["mass"]) - 1.0).abs() < 1e-4,
        "{v}"
    );
    // A unit needs the input's length unit; a density per area is for plates.
    for (args, words) in [
        (vec!["mesh", TET, "--density", "7.85g/cm3"], "--units"),
        (
            vec!["mesh", TET, "--units", "mm", "--density", "2kg/m2"],
            "per area",
        ),
        (
            vec!["mesh", TET, "--units", "mm", "--density", "7.85furlongs"],
            "unknown density unit",
        ),
    ] {
        let o = out(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            o.stdout.is_empty() && err.contains(words),
            "{args:?}: {err}"
        );
    }
    // A bare 7.85 with --units is 7.85 kg/m³, as documented, and said to be lighter than
    // foam; without --units (no unit to be SI in) it is not.
    let o = out(&["mesh", TET, "--units", "mm", "--density", "7.85", "--json"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        o.status.success() && err.contains("write --density 7.85g/cm3"),
        "{err}"
    );
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    close(f(&v["density"]), 7.85);
    let o = out(&["mesh", TET, "--density", "7.85", "--json"]);
    assert!(o.status.success() && o.stderr.is_empty());
}

#[test]
fn a_light_density_in_the_unit_a_file_states_is_warned_of_once_per_file() {
    const MF: &str = "fixtures/mesh/two_parts.3mf"; // unit="millimeter"
    const SHEET: &str = "fixtures/polygon/a3_sheet.dxf"; // $INSUNITS 4, mm
    let out = |args: &[&str]| cargo_bin_cmd!("inertia").args(args).output().unwrap();
    let said = |file: &str| {
        format!(
            "inertia: warning: {file}: --density 7.85 is taken in kg/m³ (the file states its lengths in mm), lighter than foam; for g/cm³ write --density 7.85g/cm3\n"
        )
    };
    // A 3MF in millimetres: 7.85 kg/m³ as given, and said once for the file (its two
    // parts share it).
    let o = out(&["mesh", MF, "--density", "7.85", "--json"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert_eq!(err, said(MF));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    close(f(&v["total"]["density"]), 7.85);
    // Two files: once each.
    let o = out(&["mesh", MF, MF, "--density", "7.85"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert_eq!(err, said(MF).repeat(2));
    // With --units the same as the file's: once, before reading, in the flags' words.
    let o = out(&["mesh", MF, MF, "--units", "mm", "--density", "7.85"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.matches("lighter than foam").count(), 1, "{err}");
    assert!(err.contains("(with --units)"), "{err}");
    // A DXF in millimetres, as a plate given a thickness: per volume, said.
    let o = out(&["polygon", SHEET, "--density", "7.85", "--thickness", "2"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert_eq!(err, said(SHEET));
    // Without a thickness it is kg/m², a plausible plate; and 7850 is steel: nothing said.
    for args in [
        &["polygon", SHEET, "--density", "7.85"][..],
        &["polygon", SHEET, "--density", "7850", "--thickness", "2"],
        &["mesh", MF, "--density", "7850"],
    ] {
        let o = out(args);
        assert!(o.status.success() && o.stderr.is_empty(), "{args:?}");
    }
}

#[test]
fn a_mistyped_unit_is_refused_with_the_closest_spelling_and_its_size() {
    // clap offered "a similar value exists: 'mil'" for `milimeter`: a unit 39 times
    // smaller, named without its size. The tip now names the closest spelling, with it.
    for (flag, value, tip) in [
        (
            "--units",
            "milimeter",
            "did you mean 'millimeter' (mm, 0.001 m)?",
        ),
        (
            "--output-units",
            "milimeter",
            "did you mean 'millimeter' (mm, 0.001 m)?",
        ),
        ("--units", "inchs", "did you mean 'inches' (in, 0.0254 m)?"),
        ("--units", "mill", "did you mean 'mil' (2.54e-5 m)?"),
        (
            "--units",
            "kilometr",
            "did you mean 'kilometre' (km, 1000 m)?",
        ),
    ] {
        let out = cargo_bin_cmd!("inertia")
            .args(["mesh", TET, flag, value])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(out.stdout.is_empty());
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(
            err.contains(&format!("invalid value '{value}' for '{flag} <UNIT>'")),
            "{err}"
        );
        assert!(err.contains(tip), "{value}: {err}");
        assert!(!err.contains("a similar value exists"), "{err}");
    }
    // Nothing close: no tip, the possible values listed.
    let out = cargo_bin_cmd!("inertia")
        .args(["mesh", TET, "--units", "furlong"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("[possible values: ") && !err.contains("did you mean"),
        "{err}"
    );
}
