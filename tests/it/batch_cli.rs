//! Several files in one call: parts and total, CSV and JSON Lines, bad files reported
//! without losing the good ones.

use assert_cmd::cargo::cargo_bin_cmd;
use serde_json::Value;

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

#[test]
fn parts_and_total() {
    let out = cargo_bin_cmd!("inertia")
        .args([
            "mesh",
            "fixtures/mesh/unit_cube_ascii.stl",
            "fixtures/mesh/right_tetrahedron.obj",
            "--density",
            "2",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["parts"].as_array().unwrap().len(), 2);
    assert_eq!(v["errors"].as_array().unwrap().len(), 0);
    let t = &v["total"];
    assert!((f(&t["mass"]) - 2.0 * 11.0).abs() < 1e-12);
    // Centroid: (1·(0.5,0.5,0.5) + 10·(1.25,1,0.75)) / 11.
    let c = [(0.5 + 12.5) / 11.0, (0.5 + 10.0) / 11.0, (0.5 + 7.5) / 11.0];
    for k in 0..3 {
        assert!((f(&t["centroid"][k]) - c[k]).abs() < 1e-12);
    }
    assert_eq!(t["triangles"], 16);
}

#[test]
fn csv_rows_with_an_error_row_and_exit_2() {
    let out = cargo_bin_cmd!("inertia")
        .args([
            "mesh",
            "fixtures/mesh/right_tetrahedron.stl",
            "fixtures/bad/open_cube.stl",
            "fixtures/mesh/unit_cube_ascii.stl",
            "--format",
            "csv",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let text = String::from_utf8(out.stdout).unwrap();
    let mut rdr = csv::Reader::from_reader(text.as_bytes());
    let headers = rdr.headers().unwrap().clone();
    let rows: Vec<csv::StringRecord> = rdr.records().map(|r| r.unwrap()).collect();
    // Three files, then the total of the two that were computed.
    assert_eq!(rows.len(), 4);
    let col = |name: &str| headers.iter().position(|h| h == name).unwrap();
    assert_eq!(&rows[3][col("source")], "total of 2 parts");
    // The kind column tells the total from the parts (a sum over parts is the total).
    let kinds: Vec<&str> = rows.iter().map(|r| &r[col("kind")]).collect();
    assert_eq!(kinds, ["part", "part", "part", "total"]);
    assert_eq!(&rows[2][col("axis1_x")], "1");
    assert_eq!(&rows[2][col("box_max_z")], "1");
    assert_eq!(&rows[3][col("volume")], "11");
    assert_eq!(&rows[0][col("mass_unit")], "density × input length^3");
    assert_eq!(&rows[0][col("volume")], "10");
    assert!(rows[1][col("error")].contains("not closed"));
    assert_eq!(&rows[1][col("volume")], "");
    assert_eq!(&rows[2][col("volume")], "1");
    assert_eq!(&rows[0][col("products")], "tensor");
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1);
    assert!(err.contains("fixtures/bad/open_cube.stl: the mesh is not closed"));
}

#[test]
fn jsonl_and_files_from() {
    let list = "fixtures/polygon/unit_square.json\n# a comment\n\nfixtures/bad/bowtie.json\nfixtures/polygon/l_shape.json\n";
    let out = cargo_bin_cmd!("inertia")
        .args([
            "polygon",
            "--files-from",
            "-",
            "--format",
            "jsonl",
            "--density",
            "2",
        ])
        .write_stdin(list)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let lines: Vec<Value> = String::from_utf8(out.stdout.clone())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["mass"], 2.0);
    assert!(lines[1]["error"].as_str().unwrap().contains("cross"));
    assert_eq!(lines[2]["mass"], 6.0);
    // Same order and bytes whatever the thread count.
    let again = cargo_bin_cmd!("inertia")
        .env("RAYON_NUM_THREADS", "1")
        .args([
            "polygon",
            "--files-from",
            "-",
            "--format",
            "jsonl",
            "--density",
            "2",
        ])
        .write_stdin(list)
        .output()
        .unwrap();
    assert_eq!(again.stdout, out.stdout);
}

#[test]
fn batch_flag_mistakes() {
    for (args, frag) in [
        (
            vec![
                "mesh",
                "fixtures/mesh/right_tetrahedron.stl",
                "fixtures/mesh/unit_cube_ascii.stl",
                "--mass",
                "1",
            ],
            "--mass is ambiguous",
        ),
        (
            vec![
                "mesh",
                "fixtures/mesh/right_tetrahedron.stl",
                "fixtures/mesh/unit_cube_ascii.stl",
                "--method",
                "all",
            ],
            "--method all compares methods on one file",
        ),
        (vec!["mesh"], "no input"),
        (
            vec!["polygon", "-", "-"],
            "standard input (`-`) can be read only once",
        ),
        (
            vec![
                "polygon",
                "fixtures/polygon/l_shape.json",
                "--method",
                "all",
                "--format",
                "csv",
            ],
            "--method all prints a table or JSON",
        ),
    ] {
        let out = cargo_bin_cmd!("inertia").args(&args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(frag), "{args:?}: {err}");
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn parts_flag_gives_one_file_the_shape_of_many() {
    let json = |args: &[&str]| -> Value {
        let out = cargo_bin_cmd!("inertia").args(args).output().unwrap();
        assert!(out.status.success(), "{args:?}");
        serde_json::from_slice(&out.stdout).unwrap()
    };
    // One file, one body: a bare report; with --parts, parts, errors and total, as for two.
    let one = json(&["mesh", "fixtures/mesh/right_tetrahedron.stl", "--json"]);
    assert_eq!(one["schema_version"], 1);
    assert!(one.get("parts").is_none());
    let wrapped = json(&[
        "mesh",
        "fixtures/mesh/right_tetrahedron.stl",
        "--json",
        "--parts",
        "--mass",
        "3",
    ]);
    let two = json(&[
        "mesh",
        "fixtures/mesh/right_tetrahedron.stl",
        "fixtures/mesh/unit_cube_ascii.stl",
        "--json",
    ]);
    let keys = |v: &Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
    assert_eq!(keys(&wrapped), keys(&two));
    assert_eq!(
        keys(&wrapped),
        ["schema_version", "parts", "errors", "total"]
    );
    assert_eq!(wrapped["parts"].as_array().unwrap().len(), 1);
    assert_eq!(f(&wrapped["parts"][0]["mass"]), 3.0);
    assert_eq!(f(&wrapped["total"]["mass"]), 3.0);
    assert_eq!(wrapped["total"]["source"], "total of 1 part");
    let polygon = json(&[
        "polygon",
        "fixtures/polygon/l_shape.json",
        "--json",
        "--parts",
    ]);
    assert_eq!(f(&polygon["total"]["area"]), 3.0);
    // JSON Lines: every line carries the version.
    let out = cargo_bin_cmd!("inertia")
        .args([
            "polygon",
            "fixtures/polygon/l_shape.json",
            "--format",
            "jsonl",
        ])
        .output()
        .unwrap();
    let line: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(line["schema_version"], 1);
    // What needs one bare body says so.
    let out = cargo_bin_cmd!("inertia")
        .args([
            "mesh",
            "fixtures/mesh/right_tetrahedron.stl",
            "--parts",
            "--method",
            "all",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not --parts"));
}

#[test]
fn jsonl_batches_stream_in_input_order() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};
    // The second input is standard input, held open: the first file's line must come out
    // before it is closed (it used to wait for every file).
    let mut child = Command::new(env!("CARGO_BIN_EXE_inertia"))
        .args([
            "mesh",
            "fixtures/mesh/unit_cube_ascii.stl",
            "-",
            "fixtures/mesh/right_tetrahedron.stl",
            "--input-format",
            "stl",
            "--format",
            "jsonl",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            tx.send(line.unwrap()).unwrap();
        }
    });
    let first = rx.recv_timeout(std::time::Duration::from_secs(120));
    let first = match first {
        Ok(l) => l,
        Err(e) => {
            let _ = child.kill();
            panic!("no line while standard input was open: {e}");
        }
    };
    let first: Value = serde_json::from_str(&first).unwrap();
    assert_eq!(first["source"], "fixtures/mesh/unit_cube_ascii.stl");
    assert_eq!(f(&first["volume"]), 1.0);
    let tet = std::fs::read("fixtures/mesh/right_tetrahedron.stl").unwrap();
    stdin.write_all(&tet).unwrap();
    drop(stdin);
    let status = child.wait().unwrap();
    reader.join().unwrap();
    assert!(status.success());
    let rest: Vec<Value> = rx
        .try_iter()
        .map(|l| serde_json::from_str(&l).unwrap())
        .collect();
    assert_eq!(rest.len(), 2);
    assert_eq!(rest[0]["source"], "-");
    assert_eq!(rest[1]["source"], "fixtures/mesh/right_tetrahedron.stl");
    assert_eq!(rest[0]["volume"], rest[1]["volume"]);
}

#[test]
fn jsonl_lines_are_the_batch_parts_streamed_or_not() {
    // Streamed (every format states no unit, or --units-override fixes it) or printed at
    // the end (a DXF may state its unit), each line is the JSON batch's part, in input
    // order, with its version; an input that fails is its error line, in its place.
    let cases: [&[&str]; 6] = [
        &[
            "polygon",
            "fixtures/polygon/l_shape.json",
            "fixtures/bad/bowtie.json",
            "fixtures/polygon/hexagon.json",
            "fixtures/polygon/parcels.geojson",
        ],
        &[
            "polygon",
            "fixtures/polygon/slot_plate.dxf",
            "fixtures/polygon/unit_square.json",
            "fixtures/polygon/a3_sheet.dxf",
            "--units",
            "mm",
        ],
        &[
            "polygon",
            "fixtures/polygon/slot_plate.dxf",
            "fixtures/polygon/unit_square.json",
            "--units",
            "in",
            "--units-override",
        ],
        &[
            "mesh",
            "fixtures/mesh/two_parts.3mf",
            "fixtures/bad/open_cube.stl",
            "fixtures/mesh/unit_cube_ascii.stl",
            "fixtures/mesh/right_tetrahedron.obj",
            "--units",
            "mm",
        ],
        &[
            "mesh",
            "fixtures/bad/open_cube.stl",
            "fixtures/mesh/unit_cube_ascii.stl",
            "fixtures/mesh/two_bodies.stl",
            "fixtures/mesh/right_tetrahedron.ply",
            "--density",
            "7850",
        ],
        // A run that fails as a whole (a 3MF states mm, the STL none) prints no line.
        &[
            "mesh",
            "fixtures/mesh/two_parts.3mf",
            "fixtures/mesh/unit_cube_ascii.stl",
        ],
    ];
    for args in cases {
        let run = |format: &str| {
            let out = cargo_bin_cmd!("inertia")
                .args(args)
                .args(["--format", format])
                .output()
                .unwrap();
            (out.status.code(), String::from_utf8(out.stdout).unwrap())
        };
        let (code, lines) = run("jsonl");
        let (batch_code, batch) = run("json");
        assert_eq!(code, batch_code, "{args:?}");
        if batch.is_empty() {
            assert_eq!((code, lines.as_str()), (Some(2), ""), "{args:?}");
            continue;
        }
        let batch: Value = serde_json::from_str(&batch).unwrap();
        let lines: Vec<Value> = lines
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let (mut parts, mut errors) = (0, 0);
        for line in &lines {
            assert_eq!(line["schema_version"], 1, "{args:?}");
            let mut rest = line.clone();
            rest.as_object_mut().unwrap().remove("schema_version");
            if line.get("error").is_some() {
                assert_eq!(rest, batch["errors"][errors], "{args:?}");
                errors += 1;
            } else {
                assert_eq!(rest, batch["parts"][parts], "{args:?}");
                parts += 1;
            }
        }
        assert_eq!(parts, batch["parts"].as_array().unwrap().len(), "{args:?}");
        assert_eq!(
            errors,
            batch["errors"].as_array().unwrap().len(),
            "{args:?}"
        );
        // In input order: the sources as the arguments name them.
        let files: Vec<&str> = args.iter().copied().filter(|a| a.contains('/')).collect();
        let mut at = 0;
        for line in &lines {
            let source = line["source"].as_str().unwrap();
            while !source.starts_with(files[at]) {
                at += 1;
                assert!(at < files.len(), "{args:?}: {source} out of order");
            }
        }
    }
}
