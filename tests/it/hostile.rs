//! Issue "Bounded by the input": small inputs or flags that would cost gigabytes or minutes
//! are refused up front, with one line on stderr and exit 2, under a memory limit.

use crate::common;

use assert_cmd::cargo::cargo_bin_cmd;

/// Runs `inertia ARGS` under `ulimit -v` (virtual memory, KiB) with `stdin` piped from a
/// shell command; returns (exit code, stdout, stderr).
fn limited(kib: u64, stdin: &str, args: &str) -> (i32, String, String) {
    let bin = assert_cmd::cargo::cargo_bin!("inertia");
    let script = format!("ulimit -v {kib}; {stdin} | {} {args}", bin.display());
    let out = std::process::Command::new("bash")
        .args(["-c", &script])
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

fn one_line_refusal(code: i32, stdout: &str, stderr: &str, words: &[&str]) {
    assert_eq!(code, 2, "stderr: {stderr}");
    assert!(stdout.is_empty(), "{stdout}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    for w in words {
        assert!(stderr.contains(w), "{stderr:?} lacks {w:?}");
    }
}

#[test]
fn endless_streams_stop_at_the_limit() {
    // An endless stdin, under 1 GiB of address space, stops at the limit.
    let (code, out, err) = limited(
        1 << 20,
        "cat /dev/zero",
        "mesh - --max-input-bytes 10000000",
    );
    one_line_refusal(
        code,
        &out,
        &err,
        &["<stdin>", "goes on past 10000000 bytes"],
    );
    let (code, out, err) = limited(1 << 20, "yes 0,0", "polygon - --max-input-bytes 1000000");
    one_line_refusal(code, &out, &err, &["goes on past 1000000 bytes"]);
    // A device named as the input file: the same.
    let (code, out, err) = limited(1 << 20, "true", "mesh /dev/zero --max-input-bytes 1000000");
    one_line_refusal(code, &out, &err, &["/dev/zero", "goes on past"]);
}

#[test]
fn flags_that_imply_huge_output_are_refused_with_the_estimate() {
    let run = |args: &[&str]| {
        let out = cargo_bin_cmd!("inertia").args(args).output().unwrap();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).to_string(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    let (code, out, err) = run(&[
        "shape",
        "regular",
        "--sides",
        "1000000000000",
        "--side",
        "1",
        "--polygon-out",
        "never.json",
    ]);
    one_line_refusal(code, &out, &err, &["1000000000000 vertices", "48.0 TB"]);
    assert!(!std::path::Path::new("never.json").exists());
    // Its closed form needs no vertices: answered.
    let (code, _, _) = run(&[
        "shape",
        "regular",
        "--sides",
        "1000000000000",
        "--side",
        "1e-9",
    ]);
    assert_eq!(code, 0);
    let (code, out, err) = run(&[
        "shape",
        "sphere",
        "--radius",
        "1",
        "--segments",
        "100000",
        "--mesh-out",
        "never.stl",
    ]);
    one_line_refusal(
        code,
        &out,
        &err,
        &["about 10000000000 triangles", "--segments 7071"],
    );
    assert!(!std::path::Path::new("never.stl").exists());
    // A voxel grid of 10^10 columns over a 12-triangle cube: refused with the grid, not
    // integrated for minutes.
    let (code, out, err) = run(&[
        "mesh",
        "fixtures/mesh/unit_cube_ascii.stl",
        "--method",
        "voxel",
        "--resolution",
        "100000",
    ]);
    one_line_refusal(
        code,
        &out,
        &err,
        &["100000 × 100000 = 1.000e10 columns", "smaller --resolution"],
    );
}

/// Runs `inertia ARGS` on a temporary file holding `bytes`.
fn on_file(name: &str, bytes: &[u8], args: &[&str]) -> (i32, String, String) {
    let dir = std::env::temp_dir().join(format!("inertia-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    let mut all: Vec<&str> = args.to_vec();
    let path = p.to_str().unwrap().to_string();
    all.push(&path);
    let out = cargo_bin_cmd!("inertia").args(&all).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

#[test]
fn overflow_is_named_and_numbers_are_short() {
    let tet = |s: &str| {
        format!("v 0 0 0\nv {s} 0 0\nv 0 {s} 0\nv 0 0 {s}\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n")
    };
    // Volume beyond f64 (1e450), and moments beyond it (1e400) with a finite volume: both
    // named as overflow, not as a mesh passing through itself.
    let (code, out, err) = on_file("huge.obj", tet("1e150").as_bytes(), &["mesh"]);
    one_line_refusal(code, &out, &err, &["volume overflows f64"]);
    let (code, out, err) = on_file("big.obj", tet("1e80").as_bytes(), &["mesh"]);
    one_line_refusal(code, &out, &err, &["moment of inertia overflows f64"]);
    assert!(!err.contains("intersects itself"), "{err}");
    // A number with more than 12 significant digits in a message is shortened; one that
    // Rust would print with 301 digits too.
    for (value, shown) in [
        ("-0.30000000000000004", "got -0.3"),
        ("-1e300", "got -1e300"),
    ] {
        let out = cargo_bin_cmd!("inertia")
            .args([
                "polygon",
                "fixtures/polygon/unit_square.json",
                "--density",
                value,
            ])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        one_line_refusal(out.status.code().unwrap_or(-1), "", &err, &[shown]);
    }
}

#[test]
fn messages_name_the_real_cause() {
    let cube = std::fs::read("fixtures/mesh/unit_cube_ascii.stl").unwrap();
    // A UTF-8 byte-order mark before "solid": read (it was taken for a binary header).
    let (code, _, err) = on_file(
        "bom.stl",
        &[b"\xEF\xBB\xBF".as_slice(), &cube].concat(),
        &["mesh"],
    );
    assert_eq!(code, 0, "{err}");
    // CR-only line ends: read.
    let cr: Vec<u8> = cube
        .iter()
        .map(|&b| if b == b'\n' { b'\r' } else { b })
        .collect();
    let (code, _, err) = on_file("cr.stl", &cr, &["mesh"]);
    assert_eq!(code, 0, "{err}");
    // UTF-16 text.
    let mut u16 = vec![0xFF, 0xFE];
    for b in &cube {
        u16.extend([*b, 0]);
    }
    let (code, out, err) = on_file("u16.stl", &u16, &["mesh"]);
    one_line_refusal(code, &out, &err, &["UTF-16"]);
    // A NUL inside an ASCII STL.
    let text =
        String::from_utf8(cube.clone())
            .unwrap()
            .replacen("facet normal", "facet\0normal", 1);
    let (code, out, err) = on_file("nul.stl", text.as_bytes(), &["mesh"]);
    one_line_refusal(code, &out, &err, &["NUL byte", "damaged"]);
    // Formats inertia does not read, named as such.
    // A STEP file: without the feature `step`, the command that builds it; with it, a
    // truncated file refused before OpenCASCADE parses it.
    let (code, out, err) = on_file("part.step", b"ISO-10303-21;\nHEADER;\n", &["mesh"]);
    let expected = if cfg!(feature = "step") {
        "truncated: the file does not end with END-ISO-10303-21;"
    } else {
        "cargo install --locked --features step --path ."
    };
    one_line_refusal(code, &out, &err, &[expected]);
    let (code, out, err) = on_file("scene.glb", b"glTF\x02\x00\x00\x00", &["mesh"]);
    one_line_refusal(code, &out, &err, &["glTF is not a mesh format"]);
    let (code, out, err) = limited(1 << 20, "printf ''", "mesh -");
    one_line_refusal(code, &out, &err, &["<stdin>: the input is empty"]);
    let (code, out, err) = limited(1 << 20, "echo hello", "mesh -");
    one_line_refusal(code, &out, &err, &["not a mesh file inertia reads"]);
    // Control characters from the input are escaped, not sent to the terminal.
    let (code, out, err) = on_file("ctl.csv", b"0,0\n1,\x1b[31mred\n", &["polygon"]);
    one_line_refusal(code, &out, &err, &["\\u{1b}[31mred"]);
    assert!(!err.contains('\x1b'));
}

#[test]
fn many_shells_with_cavities_are_sorted_out() {
    // 200 boxes 3 wide in a row, each with an inward box 1 wide inside: 200 bodies and 200
    // cavities (each shell's winding number now looks only at shells whose box holds it).
    let boxes: Vec<([f64; 3], [f64; 3], bool)> = (0..200)
        .flat_map(|k| {
            let x = 4.0 * k as f64;
            [
                ([x, 0.0, 0.0], [3.0; 3], false),
                ([x + 1.0, 1.0, 1.0], [1.0; 3], true),
            ]
        })
        .collect();
    let obj = common::boxes_obj(&boxes);
    let (code, out, err) = on_file("many.obj", obj.as_bytes(), &["mesh", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["shells"], 400);
    assert_eq!(v["cavities"], 200);
    assert_eq!(v["volume"].as_f64().unwrap(), 200.0 * 26.0);
}

#[test]
fn a_polygon_with_many_holes_and_a_nested_one() {
    // 10,000 unit holes in a 300 × 300 square: area 90000 − 10000; the nesting check finds
    // holes around a point with an R*-tree, not pair by pair.
    let mut holes = Vec::new();
    for i in 0..100 {
        for j in 0..100 {
            let (x, y) = (3.0 * i as f64 + 1.0, 3.0 * j as f64 + 1.0);
            holes.push(vec![[x, y], [x + 1.0, y], [x + 1.0, y + 1.0], [x, y + 1.0]]);
        }
    }
    let doc =
        serde_json::json!({"outer": [[0, 0], [300, 0], [300, 300], [0, 300]], "holes": holes});
    let (code, out, err) = on_file(
        "holes.json",
        doc.to_string().as_bytes(),
        &["polygon", "--json"],
    );
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["area"].as_f64().unwrap(), 80000.0);
    // One more hole inside the last one is refused, naming both.
    holes.push(vec![
        [298.2, 298.2],
        [298.8, 298.2],
        [298.8, 298.8],
        [298.2, 298.8],
    ]);
    let doc =
        serde_json::json!({"outer": [[0, 0], [300, 0], [300, 300], [0, 300]], "holes": holes});
    let (code, out, err) = on_file("nested.json", doc.to_string().as_bytes(), &["polygon"]);
    one_line_refusal(code, &out, &err, &["hole 10001 lies inside hole 10000"]);
}

#[test]
fn ply_headers_cannot_claim_more_than_the_file_holds() {
    // 126 bytes claiming 10^8 or 4·10^9 vertices: refused from the header, under 512 MiB.
    let claims = [
        "ply\nformat ascii 1.0\nelement vertex 4000000000\nproperty float x\nproperty float y\nproperty float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n",
        "ply\nformat binary_little_endian 1.0\nelement vertex 100000000\nproperty float x\nproperty float y\nproperty float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n",
    ];
    for text in claims {
        let (code, out, err) = limited(
            1 << 19,
            &format!("printf '{}'", text.replace('\n', "\\n")),
            "mesh - --input-format ply",
        );
        one_line_refusal(code, &out, &err, &["vertex elements", "false count?"]);
    }
    // An ordinary PLY costs a small multiple of its size: a 10^5-vertex ASCII grid of
    // quads read under 256 MiB.
    let n = 224usize; // n × n vertices on the top and on the bottom of a slab
    let mut v = String::new();
    for z in [0, 1] {
        for i in 0..n {
            for j in 0..n {
                v += &format!("{i} {j} {z}\n");
            }
        }
    }
    let id = |z: usize, i: usize, j: usize| z * n * n + i * n + j;
    let mut f = Vec::new();
    for i in 0..n - 1 {
        for j in 0..n - 1 {
            f.push(format!(
                "4 {} {} {} {}",
                id(0, i, j),
                id(0, i, j + 1),
                id(0, i + 1, j + 1),
                id(0, i + 1, j)
            ));
            f.push(format!(
                "4 {} {} {} {}",
                id(1, i, j),
                id(1, i + 1, j),
                id(1, i + 1, j + 1),
                id(1, i, j + 1)
            ));
        }
    }
    for k in 0..n - 1 {
        // The four sides.
        f.push(format!(
            "4 {} {} {} {}",
            id(0, k, 0),
            id(0, k + 1, 0),
            id(1, k + 1, 0),
            id(1, k, 0)
        ));
        f.push(format!(
            "4 {} {} {} {}",
            id(0, k, n - 1),
            id(1, k, n - 1),
            id(1, k + 1, n - 1),
            id(0, k + 1, n - 1)
        ));
        f.push(format!(
            "4 {} {} {} {}",
            id(0, 0, k),
            id(1, 0, k),
            id(1, 0, k + 1),
            id(0, 0, k + 1)
        ));
        f.push(format!(
            "4 {} {} {} {}",
            id(0, n - 1, k),
            id(0, n - 1, k + 1),
            id(1, n - 1, k + 1),
            id(1, n - 1, k)
        ));
    }
    let text = format!(
        "ply\nformat ascii 1.0\nelement vertex {}\nproperty float x\nproperty float y\nproperty float z\nelement face {}\nproperty list uchar int vertex_indices\nend_header\n{v}{}\n",
        2 * n * n,
        f.len(),
        f.join("\n")
    );
    let dir = std::env::temp_dir().join(format!("inertia-hostile-ply-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("slab.ply");
    std::fs::write(&p, &text).unwrap();
    // 256 MiB of address space; with the feature `step` the binary also maps OpenCASCADE's
    // shared libraries at start (67 objects, 80 MB on disk on Debian 12), whatever it reads.
    let kib = if cfg!(feature = "step") {
        (1 << 18) + (1 << 17)
    } else {
        1 << 18
    };
    let (code, out, err) = limited(kib, "true", &format!("mesh {} --json", p.display()));
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let side = (n - 1) as f64;
    assert!(
        (v["volume"].as_f64().unwrap() - side * side).abs() < 1e-9,
        "{}",
        v["volume"]
    );
}

/// A 3MF archive holding `model` as its 3D model part.
fn archive(model: &str) -> Vec<u8> {
    use std::io::Write;
    let mut buf = std::io::Cursor::new(Vec::new());
    {
        let mut z = zip::ZipWriter::new(&mut buf);
        let o = zip::write::SimpleFileOptions::default();
        z.start_file("3D/3dmodel.model", o).unwrap();
        z.write_all(model.as_bytes()).unwrap();
        z.finish().unwrap();
    }
    buf.into_inner()
}

/// Objects that each place the previous one twice, `levels` deep over a tetrahedron:
/// 4 · 2^levels triangles from a file of a few kB.
fn doubling_model(levels: usize) -> String {
    let mut objects = String::from(
        r#"<object id="1" type="model"><mesh><vertices><vertex x="0" y="0" z="0"/><vertex x="1" y="0" z="0"/><vertex x="0" y="1" z="0"/><vertex x="0" y="0" z="1"/></vertices><triangles><triangle v1="0" v2="2" v3="1"/><triangle v1="0" v2="1" v3="3"/><triangle v1="0" v2="3" v3="2"/><triangle v1="1" v2="2" v3="3"/></triangles></mesh></object>"#,
    );
    for k in 2..=levels + 1 {
        objects += &format!(
            r#"<object id="{k}" type="model"><components><component objectid="{p}"/><component objectid="{p}" transform="1 0 0 0 1 0 0 0 1 {d} 0 0"/></components></object>"#,
            p = k - 1,
            d = 2f64.powi(k as i32)
        );
    }
    format!(
        r#"<?xml version="1.0"?><model unit="millimeter" xmlns="http://schemas.microsoft.com/3dmanufacturing/core/2015/02"><resources>{objects}</resources><build><item objectid="{}"/></build></model>"#,
        levels + 1
    )
}

#[test]
fn a_3mf_that_instances_itself_over_and_over_is_counted_before_it_is_expanded() {
    let dir = std::env::temp_dir().join(format!("inertia-hostile-3mf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // 30 levels: 4.3·10^9 triangles (170 GB expanded), refused at once under 512 MiB.
    let p = dir.join("bomb.3mf");
    std::fs::write(&p, archive(&doubling_model(30))).unwrap();
    let (code, out, err) = limited(1 << 19, "true", &format!("mesh {}", p.display()));
    one_line_refusal(
        code,
        &out,
        &err,
        &["expands to 4294967296 triangles", "--max-triangles"],
    );
    // 10 levels (4096 triangles) pass by default and are refused below the limit.
    let p = dir.join("small.3mf");
    std::fs::write(&p, archive(&doubling_model(10))).unwrap();
    let (code, _, err) = limited(1 << 20, "true", &format!("mesh {} --json", p.display()));
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = limited(
        1 << 20,
        "true",
        &format!("mesh {} --max-triangles 4000", p.display()),
    );
    one_line_refusal(
        code,
        &out,
        &err,
        &["expands to 4096 triangles", "more than 4000"],
    );
}

#[test]
fn a_3mf_whose_shared_object_holds_unused_vertices_expands_only_what_is_used() {
    // A tetrahedron with 200,000 vertices no triangle uses, placed 1,024 times through a
    // doubling DAG: once 4.9 GB of vertices (an allocation abort), now the 4 used
    // vertices of each copy, under 1 GiB of address space.
    let unused: String = (0..200_000)
        .map(|k| format!(r#"<vertex x="{k}" y="0" z="-1"/>"#))
        .collect();
    let model = doubling_model(10).replacen("</vertices>", &format!("{unused}</vertices>"), 1);
    let dir = std::env::temp_dir().join(format!("inertia-hostile-unused-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("unused.3mf");
    std::fs::write(&p, archive(&model)).unwrap();
    let (code, out, err) = limited(
        1 << 20,
        "true",
        &format!("mesh {} --json --output-units mm", p.display()),
    );
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let volume = v["volume"].as_f64().unwrap();
    assert!((volume - 1024.0 / 6.0).abs() < 1e-9, "{volume}");
    // The vertices count towards the limit as the triangles do: 4,096 used vertices.
    let (code, out, err) = limited(
        1 << 20,
        "true",
        &format!("mesh {} --max-triangles 4095", p.display()),
    );
    one_line_refusal(
        code,
        &out,
        &err,
        &["expands to 4096 triangles", "more than 4095"],
    );
}

#[test]
fn a_3mf_whose_model_inflates_a_thousandfold_is_refused() {
    // 80 MB of spaces inside the model compress to about 80 kB: beyond 256 times the
    // archive (and the 64 MiB floor).
    let padding = " ".repeat(80 << 20);
    let model = format!("{}{padding}", doubling_model(1));
    let dir = std::env::temp_dir().join(format!("inertia-hostile-zip-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("inflating.3mf");
    std::fs::write(&p, archive(&model)).unwrap();
    drop(model);
    let (code, out, err) = limited(1 << 20, "true", &format!("mesh {}", p.display()));
    one_line_refusal(
        code,
        &out,
        &err,
        &["inflates to more than", "refused rather than read"],
    );
}

/// A closed UV sphere of about `2 · rings · segments` triangles as binary STL.
fn sphere_stl(rings: usize, segments: usize) -> Vec<u8> {
    let at = |i: usize, j: usize| {
        let (t, p) = (
            std::f64::consts::PI * i as f64 / rings as f64,
            std::f64::consts::TAU * (j % segments) as f64 / segments as f64,
        );
        [
            (t.sin() * p.cos()) as f32,
            (t.sin() * p.sin()) as f32,
            t.cos() as f32,
        ]
    };
    let mut tris = Vec::new();
    for i in 0..rings {
        for j in 0..segments {
            let (a, b, c, d) = (at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j + 1));
            if i + 1 < rings {
                tris.push([a, b, c]);
            }
            if i > 0 {
                tris.push([a, c, d]);
            }
        }
    }
    let mut out = vec![0u8; 80];
    out.extend((tris.len() as u32).to_le_bytes());
    for t in tris {
        out.extend([0u8; 12]);
        for v in t {
            for c in v {
                out.extend(c.to_le_bytes());
            }
        }
        out.extend([0u8; 2]);
    }
    out
}

#[test]
fn a_file_truncated_while_it_is_read_is_named_not_a_signal() {
    // 50 MB (mapped, being above 32 MiB), truncated by "another program" after a while.
    let bytes = sphere_stl(500, 1000);
    assert!(bytes.len() > 40 << 20);
    let dir = std::env::temp_dir().join(format!("inertia-hostile-sigbus-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bin = assert_cmd::cargo::cargo_bin!("inertia");
    let mut named = 0;
    for delay_ms in [50u64, 300, 1000] {
        let p = dir.join(format!("sphere{delay_ms}.stl"));
        std::fs::write(&p, &bytes).unwrap();
        let child = std::process::Command::new(bin)
            .args(["mesh", p.to_str().unwrap()])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        std::fs::OpenOptions::new()
            .write(true)
            .open(&p)
            .unwrap()
            .set_len(1000)
            .unwrap();
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        // Finished before the cut (0), or refused with one line (2): never a signal.
        let code = out.status.code();
        assert!(
            code == Some(0) || code == Some(2),
            "{:?}: {err}",
            out.status
        );
        if code == Some(2) {
            assert_eq!(err.trim_end().lines().count(), 1, "{err}");
            assert!(out.stdout.is_empty());
            named += err.contains("the file changed while being read") as usize;
        }
    }
    // A debug build takes seconds over 10^6 triangles: some cut lands mid-run.
    assert!(named > 0, "no run was cut while reading");
}

#[test]
fn a_dxf_of_many_bulges_stays_small_and_exact() {
    // A circle of radius 100 as one LWPOLYLINE of 30,000 bulged segments (about 1 MB):
    // the arcs stay arcs (tessellated, this case took 9.8 GB), read under 512 MiB, and
    // the area is π r² to rounding.
    let n = 30_000;
    let theta = std::f64::consts::TAU / n as f64;
    let bulge = (theta / 4.0).tan();
    let mut body = format!("0\nLWPOLYLINE\n5\n1F\n8\n0\n90\n{n}\n70\n1\n");
    for k in 0..n {
        let a = theta * k as f64;
        body += &format!(
            "10\n{:?}\n20\n{:?}\n42\n{bulge:?}\n",
            100.0 * a.cos(),
            100.0 * a.sin()
        );
    }
    let text = format!("0\nSECTION\n2\nENTITIES\n{body}0\nENDSEC\n0\nEOF\n");
    assert!(text.len() > 1_000_000);
    let dir = std::env::temp_dir().join(format!("inertia-hostile-bulge-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("bulges.dxf");
    std::fs::write(&p, &text).unwrap();
    let (code, out, err) = limited(1 << 19, "true", &format!("polygon {} --json", p.display()));
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let area = v["area"].as_f64().unwrap();
    let exact = std::f64::consts::PI * 1e4;
    // The vertices are rounded to f64 on the circle: the region is a circle to ~1e-15.
    assert!((area - exact).abs() < 1e-12 * exact, "{area} vs {exact}");
}

#[test]
fn different_objects_nested_at_one_corner_are_refused_at_the_first_two() {
    // 2,000 cube objects of growing size (1 to 3) placed at one corner: every object's
    // faces lie on every other's there. They share the corner point, so they were one
    // body to the two-at-a-time check and the whole search listed the square of them
    // (33 s in a release build); pieces joined across edges tell them apart.
    let corners = [
        [0, 0, 0],
        [1, 0, 0],
        [0, 1, 0],
        [1, 1, 0],
        [0, 0, 1],
        [1, 0, 1],
        [0, 1, 1],
        [1, 1, 1],
    ];
    let faces = [
        [0, 1, 3],
        [0, 3, 2],
        [4, 6, 7],
        [4, 7, 5],
        [0, 4, 5],
        [0, 5, 1],
        [2, 3, 7],
        [2, 7, 6],
        [0, 2, 6],
        [0, 6, 4],
        [1, 5, 7],
        [1, 7, 3],
    ];
    let (mut objects, mut items) = (String::new(), String::new());
    for i in 0..2000 {
        let s = 1.0 + i as f64 * 1e-3;
        let v: String = corners
            .iter()
            .map(|c| {
                format!(
                    r#"<vertex x="{}" y="{}" z="{}"/>"#,
                    c[0] as f64 * s,
                    c[1] as f64 * s,
                    c[2] as f64 * s
                )
            })
            .collect();
        let t: String = faces
            .iter()
            .map(|f| format!(r#"<triangle v1="{}" v2="{}" v3="{}"/>"#, f[0], f[1], f[2]))
            .collect();
        objects += &format!(
            r#"<object id="{}" type="model"><mesh><vertices>{v}</vertices><triangles>{t}</triangles></mesh></object>"#,
            i + 1
        );
        items += &format!(r#"<item objectid="{}"/>"#, i + 1);
    }
    let model = format!(
        r#"<?xml version="1.0"?><model unit="millimeter" xmlns="http://schemas.microsoft.com/3dmanufacturing/core/2015/02"><resources>{objects}</resources><build>{items}</build></model>"#
    );
    let (code, stdout, stderr) = on_file("nested.3mf", &archive(&model), &["mesh"]);
    one_line_refusal(
        code,
        &stdout,
        &stderr,
        &["build items 1 (object 1) and 2 (object 2)", "coincide"],
    );
}

#[test]
fn a_prism_whose_caps_are_fanned_from_a_point_outside_them_is_the_prism() {
    // Each cap one fan from a point beside it, as some exporters write a face: its
    // triangles fold over each other in the cap's plane, no volume between the layers.
    // Its outline (the rim, 5,000 points in f32) was too long to be triangulated and the
    // fold was refused as a crossing; a constrained Delaunay triangulation takes any length.
    let n = 5000;
    let rim: Vec<[f32; 2]> = (0..n)
        .map(|k| {
            let a = std::f64::consts::TAU * k as f64 / n as f64;
            [a.cos() as f32, a.sin() as f32]
        })
        .collect();
    let mut tris: Vec<[[f32; 3]; 3]> = Vec::new();
    for k in 0..n {
        let (a, b) = (rim[k], rim[(k + 1) % n]);
        tris.push([[3.0, 0.0, 0.0], [b[0], b[1], 0.0], [a[0], a[1], 0.0]]);
        tris.push([[3.0, 0.0, 1.0], [a[0], a[1], 1.0], [b[0], b[1], 1.0]]);
        tris.push([[a[0], a[1], 0.0], [b[0], b[1], 0.0], [b[0], b[1], 1.0]]);
        tris.push([[a[0], a[1], 0.0], [b[0], b[1], 1.0], [a[0], a[1], 1.0]]);
    }
    let mut stl = vec![0u8; 80];
    stl.extend((tris.len() as u32).to_le_bytes());
    for t in &tris {
        stl.extend([0u8; 12]);
        for p in t {
            for x in p {
                stl.extend(x.to_le_bytes());
            }
        }
        stl.extend([0u8; 2]);
    }
    let (code, out, err) = on_file("fanned.stl", &stl, &["mesh", "--json"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("2 face(s) fold over themselves"), "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    // The rim's polygon, from its f32 points: ½ Σ x_k y_{k+1} − x_{k+1} y_k.
    let area: f64 = (0..n)
        .map(|k| {
            let (a, b) = (rim[k].map(f64::from), rim[(k + 1) % n].map(f64::from));
            a[0] * b[1] - b[0] * a[1]
        })
        .sum::<f64>()
        / 2.0;
    let volume = v["volume"].as_f64().unwrap();
    assert!((volume - area).abs() < 1e-12, "{volume} {area}");
}
