//! `inertia::read_path`: one call from a file to its named, validated parts, with the unit
//! the file states and its warnings as values, for files of every kind.

use inertia::error::{Error, FormatProblem};
use inertia::io::{MeshFormat, PolygonFormat};
use inertia::read::{Format, ItemKind, Kind, NamedPolygon, ReadOptions, Shapes, Warning};
use inertia::units::LengthUnit;
use inertia::{Parts, Solid, read_path};
use std::path::{Path, PathBuf};

/// Writes `bytes` to a fresh file named `name`.
fn temp(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("inertia-read-path-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

fn read(path: &Path) -> Parts {
    read_path(path, &ReadOptions::default()).unwrap()
}

/// [`read`] with GeoJSON coordinates declared lengths (as `--units` declares them).
fn read_lengths(path: &Path) -> Parts {
    let options = ReadOptions {
        geojson: inertia::io::geojson::Coordinates::Lengths,
        ..ReadOptions::default()
    };
    read_path(path, &options).unwrap()
}

fn polygons(parts: &Parts) -> &[NamedPolygon] {
    match &parts.shapes {
        Shapes::Polygons(p) => p,
        other => panic!("polygons expected, got {other:?}"),
    }
}

fn solids(parts: &Parts) -> &[Solid] {
    match &parts.shapes {
        Shapes::Solids(s) => s,
        other => panic!("solids expected, got {other:?}"),
    }
}

/// `fixtures/mesh/two_parts.3mf` with its model's unit replaced.
fn threemf_in(unit: &str) -> PathBuf {
    use std::io::{Read, Write};
    let src = std::fs::File::open("fixtures/mesh/two_parts.3mf").unwrap();
    let mut zin = zip::ZipArchive::new(src).unwrap();
    let mut out = std::io::Cursor::new(Vec::new());
    {
        let mut zout = zip::ZipWriter::new(&mut out);
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
    }
    temp(&format!("two_parts_{unit}.3mf"), &out.into_inner())
}

#[test]
fn a_3mf_gives_its_unit_and_its_bodies_by_name() {
    for (unit, want) in [("millimeter", LengthUnit::Mm), ("inch", LengthUnit::In)] {
        let parts = read(&threemf_in(unit));
        assert_eq!(parts.unit, Some(want));
        assert_eq!(parts.format, Format::Mesh(MeshFormat::ThreeMf));
        assert!(parts.named && parts.warnings.is_empty());
        let s = solids(&parts);
        let names: Vec<&str> = s.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["tetrahedron", "cube"]);
        // Volumes 10 and 1 in the file's own unit: the unit is said, not applied.
        let v: Vec<f64> = s.iter().map(|s| s.integrals[0].properties.volume).collect();
        assert!(
            (v[0] - 10.0).abs() < 1e-12 && (v[1] - 1.0).abs() < 1e-12,
            "{v:?}"
        );
    }
}

#[test]
fn a_dxf_gives_its_insunits() {
    let parts = read("fixtures/polygon/a3_sheet.dxf".as_ref());
    assert_eq!(parts.unit, Some(LengthUnit::Mm));
    assert_eq!(parts.format, Format::Polygon(PolygonFormat::Dxf));
    let p = polygons(&parts);
    assert_eq!(p.len(), 1);
    assert_eq!(p[0].polygon.mass_properties(1.0).unwrap().area, 100.0);
    // What the drawing held and did not show, counted.
    let ignored: Vec<(&str, usize)> = parts
        .ignored
        .iter()
        .map(|(k, n)| (k.as_str(), *n))
        .collect();
    assert_eq!(
        ignored,
        [
            ("invisible", 1),
            ("layer frozen", 1),
            ("layer off", 1),
            ("paper space", 2)
        ]
    );

    // $INSUNITS 1: inches.
    let drawing = "0\nSECTION\n2\nHEADER\n9\n$INSUNITS\n70\n1\n0\nENDSEC\n0\nSECTION\n2\nENTITIES\n0\nLWPOLYLINE\n8\n0\n90\n4\n70\n1\n10\n0\n20\n0\n10\n10\n20\n0\n10\n10\n20\n20\n10\n0\n20\n20\n0\nENDSEC\n0\nEOF\n";
    let parts = read(&temp("plate.dxf", drawing.as_bytes()));
    assert_eq!(parts.unit, Some(LengthUnit::In));
    assert_eq!(
        polygons(&parts)[0]
            .polygon
            .mass_properties(1.0)
            .unwrap()
            .area,
        200.0
    );
}

#[test]
fn formats_without_a_unit_give_none_and_a_lone_shape_is_named_after_its_file() {
    for (path, format) in [
        (
            "fixtures/polygon/u_shape_cw.csv",
            Format::Polygon(PolygonFormat::Csv),
        ),
        (
            "fixtures/polygon/unit_square.json",
            Format::Polygon(PolygonFormat::Json),
        ),
    ] {
        let parts = read(path.as_ref());
        assert_eq!(
            (parts.unit, parts.format, parts.named),
            (None, format, false)
        );
        let stem = Path::new(path).file_stem().unwrap().to_str().unwrap();
        assert_eq!(polygons(&parts)[0].name, stem);
    }
    for (path, format) in [
        ("fixtures/mesh/right_tetrahedron.stl", MeshFormat::Stl),
        ("fixtures/mesh/right_tetrahedron.obj", MeshFormat::Obj),
        ("fixtures/mesh/right_tetrahedron.ply", MeshFormat::Ply),
    ] {
        let parts = read(path.as_ref());
        assert_eq!(
            (parts.unit, parts.format, parts.named),
            (None, Format::Mesh(format), false)
        );
        let s = solids(&parts);
        assert_eq!(s[0].name, "right_tetrahedron");
        assert!((s[0].integrals[0].properties.volume - 10.0).abs() < 1e-12);
    }
}

#[test]
fn a_file_of_named_parts_keeps_their_names() {
    let parts = read_lengths("fixtures/polygon/parcels.geojson".as_ref());
    assert!(parts.named);
    let p = polygons(&parts);
    assert_eq!(p[0].name, "lot 7");
    assert!(p.iter().all(|p| !p.name.is_empty()));
    let area: f64 = p
        .iter()
        .map(|p| p.polygon.mass_properties(1.0).unwrap().area)
        .sum();
    assert!((area - 578.0).abs() < 1e-9, "{area}");
}

#[test]
fn the_format_is_told_by_the_content_when_the_name_does_not() {
    let stl = std::fs::read("fixtures/mesh/unit_cube_ascii.stl").unwrap();
    let parts = read(&temp("cube.dat", &stl));
    assert_eq!(parts.format, Format::Mesh(MeshFormat::Stl));
    let parts = read(&temp("square.dat", b"0 0\n1 0\n1 1\n0 1\n"));
    assert_eq!(parts.format, Format::Polygon(PolygonFormat::Csv));
    assert_eq!(polygons(&parts)[0].name, "square");
    // Asked for a kind, a file of the other is refused by its name.
    let mesh = ReadOptions {
        kind: Some(Kind::Mesh),
        ..ReadOptions::default()
    };
    let e = read_path("fixtures/polygon/hexagon.json".as_ref(), &mesh).unwrap_err();
    assert!(matches!(
        e,
        Error::Format {
            problem: FormatProblem::PolygonByName
        }
    ));
    let e = read_path(&temp("x.gltf", b"{}"), &mesh).unwrap_err();
    assert!(matches!(
        e,
        Error::Format {
            problem: FormatProblem::Foreign("glTF")
        }
    ));
}

#[test]
fn warnings_come_back_as_values() {
    // Inside-out: computed as if turned right way out, said on the body.
    let parts = read("fixtures/mesh/unit_cube_inside_out.stl".as_ref());
    let s = solids(&parts);
    assert_eq!(s[0].warnings, [Warning::InsideOut]);
    assert!((s[0].integrals[0].properties.volume - 1.0).abs() < 1e-12);

    // Two cubes overlapping, summed as asked.
    let cube = |at: f64| -> String {
        let mut v = String::new();
        for k in 0..8 {
            let c = |i: usize| at + if k >> i & 1 == 1 { 1.0 } else { 0.0 };
            v += &format!("v {} {} {}\n", c(0), c(1), c(2));
        }
        v
    };
    let faces = |b: usize| -> String {
        [
            [0, 2, 3],
            [0, 3, 1],
            [4, 5, 7],
            [4, 7, 6],
            [0, 1, 5],
            [0, 5, 4],
            [2, 6, 7],
            [2, 7, 3],
            [0, 4, 6],
            [0, 6, 2],
            [1, 3, 7],
            [1, 7, 5],
        ]
        .iter()
        .map(|t| format!("f {} {} {}\n", t[0] + b + 1, t[1] + b + 1, t[2] + b + 1))
        .collect()
    };
    let obj = format!("{}{}{}{}", cube(0.0), cube(0.5), faces(0), faces(8));
    let path = temp("two_cubes.obj", obj.as_bytes());
    assert!(read_path(&path, &ReadOptions::default()).is_err());
    let sum = ReadOptions {
        mesh: inertia::solid::Options {
            overlap: inertia::solid::OverlapPolicy::Sum,
            ..Default::default()
        },
        ..ReadOptions::default()
    };
    let parts = read_path(&path, &sum).unwrap();
    let w = &solids(&parts)[0].warnings;
    assert!(matches!(w[..], [Warning::OverlapSummed(_)]), "{w:?}");
    assert!(
        w[0].to_string()
            .ends_with("overlapping space is counted twice (summed as asked)")
    );

    // A DXF piece in no outline, left out by default: a warning counting it, and counted;
    // refused when asked.
    let drawing = "0\nSECTION\n2\nENTITIES\n0\nLWPOLYLINE\n8\n0\n90\n4\n70\n1\n10\n0\n20\n0\n10\n10\n20\n0\n10\n10\n20\n10\n10\n0\n20\n10\n0\nLINE\n8\n0\n10\n50\n20\n0\n11\n60\n21\n0\n0\nENDSEC\n0\nEOF\n";
    let path = temp("with_line.dxf", drawing.as_bytes());
    let parts = read_path(&path, &ReadOptions::default()).unwrap();
    assert!(
        matches!(&parts.warnings[..], [Warning::OpenPiecesLeftOut(open)] if open.count == 1 && open.kinds["LINE"] == 1),
        "{:?}",
        parts.warnings
    );
    assert_eq!(parts.ignored.get("open pieces"), Some(&1));
    let strict = ReadOptions {
        dxf: inertia::io::dxf::Options {
            open: inertia::io::dxf::OpenPolicy::Refuse,
            ..Default::default()
        },
        ..ReadOptions::default()
    };
    assert!(matches!(
        read_path(&path, &strict),
        Err(inertia::Error::OpenPiece { .. })
    ));
}

#[test]
fn a_3mf_build_says_what_it_left_out() {
    use std::io::{Read, Write};
    // two_parts.3mf with its cube made a surface: left out, said once for the file.
    let src = std::fs::File::open("fixtures/mesh/two_parts.3mf").unwrap();
    let mut zin = zip::ZipArchive::new(src).unwrap();
    let mut out = std::io::Cursor::new(Vec::new());
    {
        let mut zout = zip::ZipWriter::new(&mut out);
        for k in 0..zin.len() {
            let mut f = zin.by_index(k).unwrap();
            let name = f.name().unwrap().to_string();
            let mut text = String::new();
            f.read_to_string(&mut text).unwrap();
            if name.ends_with(".model") {
                text = text.replace(
                    r#"name="cube" type="model""#,
                    r#"name="cube" type="surface""#,
                );
            }
            zout.start_file(name, zip::write::SimpleFileOptions::default())
                .unwrap();
            zout.write_all(text.as_bytes()).unwrap();
        }
        zout.finish().unwrap();
    }
    let parts = read(&temp("surface.3mf", &out.into_inner()));
    assert_eq!(
        parts.warnings,
        [Warning::ItemsLeftOut {
            kind: ItemKind::Surface,
            count: 1
        }]
    );
    assert_eq!(solids(&parts).len(), 1);
}

#[cfg(feature = "step")]
#[test]
fn a_step_file_gives_its_unit_and_its_solids() {
    let parts = read("fixtures/cad/nist_ctc_02_asme1_ap242.stp".as_ref());
    assert!(matches!(parts.format, Format::Cad(_)));
    assert_eq!(parts.unit, Some(LengthUnit::Mm));
    match &parts.shapes {
        Shapes::Cad(solids) => {
            assert!(!solids.is_empty());
            assert!(solids.iter().all(|s| s.properties.volume > 0.0));
        }
        other => panic!("CAD solids expected, got {other:?}"),
    }
}

#[test]
fn the_total_of_a_file_is_the_one_the_command_prints() {
    use assert_cmd::cargo::cargo_bin_cmd;
    use inertia::read::Total;
    let json = |args: &[&str]| -> serde_json::Value {
        let out = cargo_bin_cmd!("inertia").args(args).output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).unwrap()
    };
    // A mesh file (of two shells, no unit) reported with `--parts`: the same volume,
    // centroid and triangles, to the bit.
    let path = "fixtures/mesh/two_bodies.stl";
    let Ok(Total::Solids(t)) = read(Path::new(path)).total() else {
        panic!("a mesh total")
    };
    let printed = &json(&["mesh", path, "--parts", "--json"])["total"];
    assert_eq!(printed["source"], "total of 1 part");
    assert_eq!(printed["volume"].as_f64(), Some(t.properties.volume));
    let c = t.properties.centroid;
    assert_eq!(printed["centroid"], serde_json::json!([c.x, c.y, c.z]));
    assert_eq!(printed["triangles"].as_u64(), Some(t.body.triangles as u64));
    // A polygon file of several parcels.
    let path = "fixtures/polygon/parcels.geojson";
    let Ok(Total::Polygons(t)) = read_lengths(Path::new(path)).total() else {
        panic!("a polygon total")
    };
    let printed = &json(&["polygon", path, "--units", "m", "--json"])["total"];
    assert_eq!(printed["area"].as_f64(), Some(t.properties.area));
    let c = t.properties.centroid;
    assert_eq!(printed["centroid"], serde_json::json!([c.x, c.y]));
    assert_eq!(printed["perimeter"].as_f64(), Some(t.outline.perimeter));
}
