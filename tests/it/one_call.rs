//! The library as easy as the command line (issue 47, item 4): one call from a path, with
//! units and a material, to the SI mass properties `inertia ... --json` prints; the errors
//! of that call; `RelativeEq` and `Display` of the results.

use approx::{assert_relative_eq, relative_eq};
use assert_cmd::cargo::cargo_bin_cmd;
use inertia::error::{Error, Missing, OptionsProblem};
use inertia::read::{Matter, ReadOptions, Total, Warning, read_path};
use inertia::units::{LengthUnit, material};
use serde_json::Value;
use std::path::Path;

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

/// Options as `--units UNIT --material NAME [--thickness T]` give them.
fn options(unit: LengthUnit, name: &str, thickness: Option<f64>) -> ReadOptions {
    ReadOptions {
        units: Some(unit),
        matter: Some(Matter::Material(*material(name).unwrap())),
        thickness,
        ..ReadOptions::default()
    }
}

#[test]
fn a_mesh_in_millimetres_and_steel_in_one_call_is_what_the_command_prints() {
    let path = "fixtures/mesh/right_tetrahedron.stl";
    let total = read_path(Path::new(path), &options(LengthUnit::Mm, "steel", None))
        .unwrap()
        .total()
        .unwrap();
    let Total::Solids(t) = total else {
        panic!("a mesh total")
    };
    let printed = json(&[
        "mesh",
        path,
        "--units",
        "mm",
        "--material",
        "steel",
        "--json",
    ]);
    let p = t.properties;
    // The same operations in the same order: the same f64s.
    assert_eq!(f(&printed["volume"]), p.volume);
    assert_eq!(f(&printed["mass"]), p.mass);
    for k in 0..3 {
        assert_eq!(f(&printed["centroid"][k]), p.centroid[k]);
        for c in 0..3 {
            assert_eq!(f(&printed["inertia_tensor"][k][c]), p.inertia[(k, c)]);
        }
        assert_eq!(
            f(&printed["bounding_box"]["max"][k]),
            t.body.bounding_box.max[k]
        );
    }
    assert_eq!(f(&printed["surface_area"]), t.body.surface_area);
    // And the closed form: legs 5, 4, 3 mm, 10 mm³ of 7850 kg/m³.
    assert_relative_eq!(p.volume, 1e-8, max_relative = 1e-14);
    assert_relative_eq!(p.mass, 7.85e-5, max_relative = 1e-14);
    assert_relative_eq!(p.centroid.x, 1.25e-3, max_relative = 1e-14);
    assert_eq!(t.units.input, Some(LengthUnit::Mm));
}

#[test]
fn a_polygon_in_millimetres_a_steel_plate_in_one_call_is_what_the_command_prints() {
    let path = "fixtures/polygon/l_shape.json";
    let parts = read_path(
        Path::new(path),
        &options(LengthUnit::Mm, "steel", Some(2.0)),
    )
    .unwrap();
    let Total::Polygons(t) = parts.total().unwrap() else {
        panic!("a polygon total")
    };
    let printed = json(&[
        "polygon",
        path,
        "--units",
        "mm",
        "--material",
        "steel",
        "--thickness",
        "2",
        "--json",
    ]);
    let p = t.properties;
    assert_eq!(f(&printed["area"]), p.area);
    assert_eq!(f(&printed["mass"]), p.mass);
    assert_eq!(f(&printed["centroid"][0]), p.centroid.x);
    assert_eq!(f(&printed["centroid"][1]), p.centroid.y);
    assert_eq!(f(&printed["mass_moments"]["ixx"]), p.moments.ixx);
    assert_eq!(f(&printed["mass_moments"]["iyy"]), p.moments.iyy);
    // The report's products are the tensor's −∫xy dm; the value's +∫xy dm.
    assert_eq!(f(&printed["mass_moments"]["ixy"]), -p.moments.ixy);
    assert_eq!(f(&printed["perimeter"]), t.outline.perimeter);
    // The L of area 3 mm², 2 mm thick: 6 mm³ of steel.
    assert_relative_eq!(p.area, 3e-6, max_relative = 1e-14);
    assert_relative_eq!(p.mass, 6e-9 * 7850.0, max_relative = 1e-14);
}

#[test]
fn an_empty_file_is_an_error_not_nothing() {
    let dir = std::env::temp_dir().join(format!("inertia-one-call-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for name in ["empty.stl", "empty.json", "empty.csv"] {
        let path = dir.join(name);
        std::fs::write(&path, b"").unwrap();
        let e = read_path(&path, &ReadOptions::default())
            .and_then(|p| p.total())
            .unwrap_err();
        assert!(matches!(e, Error::Empty { .. }), "{name}: {e:?}");
    }
    // A mesh file with no body integrated (no method asked) has no total.
    let mut none = ReadOptions::default();
    none.mesh.methods.clear();
    let parts = read_path("fixtures/mesh/unit_cube_ascii.stl".as_ref(), &none).unwrap();
    assert!(matches!(
        parts.total(),
        Err(Error::Empty {
            missing: Missing::Triangles
        })
    ));
}

#[test]
fn a_missing_file_is_named() {
    let e = read_path("no/such/part.stl".as_ref(), &ReadOptions::default()).unwrap_err();
    let Error::ReadFile { path, error } = &e else {
        panic!("{e:?}")
    };
    assert_eq!(path, Path::new("no/such/part.stl"));
    assert_eq!(error.kind(), std::io::ErrorKind::NotFound);
    assert!(
        e.to_string().starts_with("no/such/part.stl: cannot read: "),
        "{e}"
    );
}

#[test]
fn options_are_checked_by_the_library() {
    let cube = Path::new("fixtures/mesh/unit_cube_ascii.stl");
    // A negative shell thickness used to give a negative mass.
    let mut shell = ReadOptions::default();
    shell.mesh.shell = Some(-1.0);
    assert!(matches!(
        read_path(cube, &shell),
        Err(Error::InvalidParameter { .. })
    ));
    // A material needs the length unit; a file that states one gives it.
    let steel = ReadOptions {
        matter: Some(Matter::Material(*material("steel").unwrap())),
        ..ReadOptions::default()
    };
    let e = read_path(cube, &steel).unwrap().total().unwrap_err();
    assert!(matches!(
        e,
        Error::Options {
            problem: OptionsProblem::MaterialWithoutUnit
        }
    ));
    let t = read_path("fixtures/mesh/two_parts.3mf".as_ref(), &steel)
        .unwrap()
        .total()
        .unwrap();
    assert_relative_eq!(t.mass(), 11e-9 * 7850.0, max_relative = 1e-14);
    // A file's unit and another in the options are refused, unless overridden.
    let inches = ReadOptions {
        units: Some(LengthUnit::In),
        ..ReadOptions::default()
    };
    let threemf = Path::new("fixtures/mesh/two_parts.3mf");
    assert!(matches!(
        read_path(threemf, &inches).unwrap().total(),
        Err(Error::Options {
            problem: OptionsProblem::UnitsDisagree {
                stated: LengthUnit::Mm,
                given: LengthUnit::In
            }
        })
    ));
    let overridden = ReadOptions {
        units_override: true,
        output_units: Some(LengthUnit::In),
        ..inches
    };
    let Total::Solids(t) = read_path(threemf, &overridden).unwrap().total().unwrap() else {
        panic!()
    };
    // 11 in³ of density 1 kg/m³.
    assert_relative_eq!(t.properties.volume, 11.0, max_relative = 1e-14);
    assert_relative_eq!(
        t.properties.mass,
        11.0 * 0.0254f64.powi(3),
        max_relative = 1e-14
    );
}

#[test]
fn relative_eq_compares_every_field() {
    let path = Path::new("fixtures/mesh/right_tetrahedron.stl");
    let steel = options(LengthUnit::Mm, "steel", None);
    let Total::Solids(a) = read_path(path, &steel).unwrap().total().unwrap() else {
        panic!()
    };
    // The same part read from its OBJ: the same numbers, up to rounding.
    let obj = Path::new("fixtures/mesh/right_tetrahedron.obj");
    let Total::Solids(b) = read_path(obj, &steel).unwrap().total().unwrap() else {
        panic!()
    };
    assert_relative_eq!(a.properties, b.properties, max_relative = 1e-12);
    // In aluminium the mass differs: not equal, however loose the epsilon for the zeros.
    let alu = options(LengthUnit::Mm, "aluminium", None);
    let Total::Solids(c) = read_path(path, &alu).unwrap().total().unwrap() else {
        panic!()
    };
    assert!(!relative_eq!(
        a.properties,
        c.properties,
        epsilon = 1e-30,
        max_relative = 1e-3
    ));
    // Moved by a micrometre: only the centroid differs.
    let mut moved = a.properties;
    moved.centroid.z += 1e-6;
    assert!(!relative_eq!(a.properties, moved, max_relative = 1e-6));
    assert!(relative_eq!(a.properties, moved, max_relative = 2e-3));
    // Plates too.
    let l = Path::new("fixtures/polygon/l_shape.json");
    let Total::Polygons(p) = read_path(l, &ReadOptions::default())
        .unwrap()
        .total()
        .unwrap()
    else {
        panic!()
    };
    assert_relative_eq!(
        p.properties,
        p.properties.scaled_mass(1.0 + 1e-15),
        max_relative = 1e-14
    );
    assert!(!relative_eq!(
        p.properties,
        p.properties.scaled_lengths(1.01),
        max_relative = 1e-6
    ));
}

#[test]
fn display_shows_the_values_with_their_units() {
    let path = Path::new("fixtures/mesh/right_tetrahedron.stl");
    let total = read_path(path, &options(LengthUnit::Mm, "steel", None))
        .unwrap()
        .total()
        .unwrap();
    let text = total.to_string();
    assert!(text.starts_with("1 part\n"), "{text}");
    assert!(text.contains("volume    1e-8 m³\n"), "{text}");
    assert!(text.contains("mass      7.85e-5 kg\n"), "{text}");
    assert!(
        text.contains("centroid  (0.00125, 0.001, 0.00075) m\n"),
        "{text}"
    );
    assert!(text.contains("kg·m²"), "{text}");
    // Ixx = m (b² + c²)/10 − m (b/4)² − m (c/4)²... the tensor's first cell, as JSON gives it.
    let Total::Solids(t) = total else { panic!() };
    let ixx = t.properties.inertia[(0, 0)];
    assert!(
        text.contains(&inertia::details::num(ixx)),
        "{text} lacks {ixx}"
    );
    // In millimetres out, the lengths say so.
    let mm_out = ReadOptions {
        output_units: Some(LengthUnit::Mm),
        ..options(LengthUnit::Mm, "steel", None)
    };
    let text = read_path(path, &mm_out)
        .unwrap()
        .total()
        .unwrap()
        .to_string();
    assert!(text.contains("volume    10 mm³\n"), "{text}");
    assert!(text.contains("kg·mm²"), "{text}");
    // A value alone is in the input's units, not named.
    let text = t.properties.to_string();
    assert!(text.starts_with("volume    1e-8\n"), "{text}");
    assert!(text.contains("the input's unit"), "{text}");
    // A plate.
    let l = Path::new("fixtures/polygon/l_shape.json");
    let plate = read_path(l, &options(LengthUnit::Mm, "steel", Some(2.0))).unwrap();
    let text = plate.total().unwrap().to_string();
    assert!(text.contains("area      3e-6 m²\n"), "{text}");
    assert!(
        text.contains("centroid  (0.000833333333333, 0.000833333333333) m\n"),
        "{text}"
    );
}

#[test]
fn the_readme_stays_short_and_shows_the_one_call() {
    // Its Rust block runs as a doctest (`inertia::ReadmeDoctests`, `cargo test --doc`).
    let readme = std::fs::read_to_string("README.md").unwrap();
    assert!(readme.lines().count() <= 300, "README.md is over 300 lines");
    assert!(readme.contains("read_path(") && readme.contains(".total()?"));
    assert!(readme.contains("Matter::Material(") && readme.contains("LengthUnit::Mm"));
}

#[test]
fn a_density_that_looks_like_grams_per_cubic_centimetre_is_warned_of_by_the_library() {
    let steel_in_g_cm3 = |units| ReadOptions {
        units,
        matter: Some(Matter::Density(7.85)),
        ..ReadOptions::default()
    };
    let light = Warning::LightDensity {
        density: 7.85,
        unit: LengthUnit::Mm,
        stated: false,
    };
    let tet = Path::new("fixtures/mesh/right_tetrahedron.stl");
    let parts = read_path(tet, &steel_in_g_cm3(Some(LengthUnit::Mm))).unwrap();
    assert!(parts.warnings.contains(&light), "{:?}", parts.warnings);
    assert_eq!(
        light.to_string(),
        "the density 7.85 is taken in kg/m³, lighter than any foam: 7.85 g/cm³ would be 7850 kg/m³"
    );
    // A file that states its unit: the same, saying the unit is the file's.
    let threemf = Path::new("fixtures/mesh/two_parts.3mf");
    let stated = Warning::LightDensity {
        density: 7.85,
        unit: LengthUnit::Mm,
        stated: true,
    };
    let warnings = read_path(threemf, &steel_in_g_cm3(None)).unwrap().warnings;
    assert_eq!(
        warnings.iter().filter(|w| **w == stated).count(),
        1,
        "{warnings:?}"
    );
    assert_eq!(
        stated.to_string(),
        "the density 7.85 is taken in kg/m³ (the file states its lengths in mm), lighter than any foam: 7.85 g/cm³ would be 7850 kg/m³"
    );
    // Given the same unit as the file states: the given one's.
    let warnings = read_path(threemf, &steel_in_g_cm3(Some(LengthUnit::Mm)))
        .unwrap()
        .warnings;
    assert!(warnings.contains(&light), "{warnings:?}");
    // A drawing in mm ($INSUNITS 4), as a plate of a thickness: per volume, warned of.
    let sheet = Path::new("fixtures/polygon/a3_sheet.dxf");
    let plate = ReadOptions {
        thickness: Some(2.0),
        ..steel_in_g_cm3(None)
    };
    assert!(read_path(sheet, &plate).unwrap().warnings.contains(&stated));
    // No unit known: the density is as given, nothing to say.
    assert!(
        !read_path(tet, &steel_in_g_cm3(None))
            .unwrap()
            .warnings
            .contains(&light)
    );
    // The command says it once, naming its flags, for any number of files.
    let out = cargo_bin_cmd!("inertia")
        .args(["mesh", "--units", "mm", "--density", "7.85"])
        .args([tet, tet])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.matches("lighter than foam").count(), 1, "{err}");
    assert!(err.contains("--density 7.85g/cm3"), "{err}");
}
