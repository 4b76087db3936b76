//! The malformed-input catalogue: every input `inertia` must refuse, and how.
//!
//! Each case runs the binary and requires exit code 2, nothing on stdout, and exactly one
//! line on stderr that names the input and contains the expected words (the place: line,
//! vertex, edge, triangle). Cases come from files in `fixtures/bad/` (listed in
//! `fixtures/README.md`) and from inputs generated here (hostile sizes, noise, huge values).

use assert_cmd::cargo::cargo_bin_cmd;
use std::path::PathBuf;

/// Where an input comes from.
enum Input {
    /// A file under `fixtures/`.
    Fixture(&'static str),
    /// Bytes written to a temporary file with this extension.
    Bytes(&'static str, Vec<u8>),
    /// Bytes on standard input (the path argument is `-`).
    Stdin(Vec<u8>),
}

struct Case {
    name: &'static str,
    command: &'static str,
    input: Input,
    args: &'static [&'static str],
    expect: &'static [&'static str],
}

fn case(
    name: &'static str,
    command: &'static str,
    input: Input,
    args: &'static [&'static str],
    expect: &'static [&'static str],
) -> Case {
    Case {
        name,
        command,
        input,
        args,
        expect,
    }
}

fn binary_stl(count: u32, tris: &[[[f32; 3]; 3]]) -> Vec<u8> {
    let mut b = vec![0u8; 80];
    b.extend(count.to_le_bytes());
    for t in tris {
        b.extend([0u8; 12]);
        for v in t {
            for c in v {
                b.extend(c.to_le_bytes());
            }
        }
        b.extend([0u8; 2]);
    }
    b
}

fn noise(n: usize, seed: u64) -> Vec<u8> {
    let mut x = seed;
    (0..n)
        .map(|_| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (x >> 56) as u8
        })
        .collect()
}

fn cases() -> Vec<Case> {
    use Input::*;
    let tri = [[0.0f32, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
    vec![
        // --- polygons: files
        case("bowtie", "polygon", Fixture("bad/bowtie.json"), &[], &["outer ring edge 1 and outer ring edge 3 cross at (1.2, 1.2)"]),
        case("vertex touching an edge", "polygon", Fixture("bad/touching.json"), &[], &["touch at (2, 0)"]),
        case("hole outside", "polygon", Fixture("bad/hole_outside.json"), &[], &["hole 1 is not inside the outer ring"]),
        case("hole crossing the outer ring", "polygon", Fixture("bad/hole_crosses_outer.json"), &[], &["outer ring edge 2 and hole 1 edge 1 cross at (4, 1)"]),
        case("collinear points", "polygon", Fixture("bad/collinear.json"), &[], &["zero area"]),
        case("two points", "polygon", Fixture("bad/two_points.json"), &[], &["2 distinct point(s)"]),
        case("NaN cell", "polygon", Fixture("bad/nan.csv"), &[], &["line 4: y = nan is not a finite number"]),
        case("text cell", "polygon", Fixture("bad/text_cell.csv"), &[], &["line 4: y = \"abc\" is not a number"]),
        case("wrong JSON key", "polygon", Fixture("bad/wrong_key.json"), &[], &["line 1", "unknown key \"pts\""]),
        case("three coordinates", "polygon", Fixture("bad/three_coordinates.json"), &[], &["exactly 2 coordinates"]),
        case("truncated JSON", "polygon", Fixture("bad/truncated.json"), &[], &["line 3", "EOF"]),
        case("empty JSON", "polygon", Fixture("bad/empty.json"), &[], &["empty.json: the input is empty"]),
        case("binary noise as CSV", "polygon", Fixture("bad/garbage.csv"), &[], &["not text"]),
        // --- polygons: generated
        case("JSON string for a number", "polygon", Bytes("json", b"[[0,0],[1,\"0\"],[1,1]]".to_vec()), &[], &["line 1, column", "expected f64"]),
        case("JSON object of the wrong shape", "polygon", Bytes("json", br#"{"outer": {"x": 1}}"#.to_vec()), &[], &["expected a list of points"]),
        case("JSON number out of range", "polygon", Bytes("json", b"[[0,0],[1,0],[1,1e400]]".to_vec()), &[], &["number out of range"]),
        case("JSON null", "polygon", Bytes("json", b"null".to_vec()), &[], &["expected a polygon"]),
        case("deeply nested JSON", "polygon", Bytes("json", vec![b'['; 1_000_000]), &[], &["line 1, column 2"]),
        case("duplicate outer", "polygon", Bytes("json", br#"{"points": [[0,0],[1,0],[1,1]], "outer": [[0,0],[1,0],[1,1]]}"#.to_vec()), &[], &["given twice"]),
        case("point missing y", "polygon", Bytes("json", br#"[{"x": 0}, {"x": 1, "y": 0}, {"x": 1, "y": 1}]"#.to_vec()), &[], &["needs both"]),
        case("infinite CSV cell", "polygon", Bytes("csv", b"0,0\n1,0\n1,inf\n".to_vec()), &[], &["line 3: y = inf is not a finite number"]),
        case("CSV with a ragged row", "polygon", Bytes("csv", b"0,0\n1,0,2\n".to_vec()), &[], &["line 2: expected 2 columns"]),
        case("CSV header without x and y", "polygon", Bytes("csv", b"a,b,c\n0,0,0\n".to_vec()), &[], &["line 1: header has 3 columns"]),
        case("a 1 MB cell is quoted short", "polygon", Bytes("csv", [b"0,0\n1,".as_slice(), &vec![b'z'; 1 << 20]].concat()), &[], &["line 2: y = \"zzzz", "…"]),
        case("huge coordinates overflow", "polygon", Bytes("json", b"[[0,0],[1e300,0],[1e300,1e300]]".to_vec()), &[], &["overflows f64"]),
        case("a square with its closing point only", "polygon", Bytes("json", b"[[0,0],[0,0],[0,0]]".to_vec()), &[], &["1 distinct point(s)"]),
        case("self-overlapping spike", "polygon", Bytes("json", b"[[0,0],[4,0],[2,0],[2,3]]".to_vec()), &[], &["overlap"]),
        case("nested holes", "polygon", Bytes("json", br#"{"outer": [[0,0],[9,0],[9,9],[0,9]], "holes": [[[1,1],[8,1],[8,8],[1,8]], [[2,2],[3,2],[3,3]]]}"#.to_vec()), &[], &["hole 2 lies inside hole 1"]),
        case("zero-area hole", "polygon", Bytes("json", br#"{"outer": [[0,0],[9,0],[9,9],[0,9]], "holes": [[[1,1],[2,2],[3,3]]]}"#.to_vec()), &[], &["hole 1 has zero area"]),
        case("empty stdin", "polygon", Stdin(vec![]), &[], &["<stdin>: the input is empty"]),
        case("binary noise on stdin", "polygon", Stdin(noise(4096, 7)), &[], &["<stdin>"]),
        // --- meshes: files
        case("open mesh", "mesh", Fixture("bad/open_cube.stl"), &[], &["not closed: 3 boundary edges", "triangle"]),
        case("truncated binary STL", "mesh", Fixture("bad/truncated.stl"), &[], &["header says 12 triangles (684 bytes) but the file has 664 bytes"]),
        case("4 billion triangles claimed", "mesh", Fixture("bad/huge_count.stl"), &[], &["4000000000 triangles"]),
        case("NaN in binary STL", "mesh", Fixture("bad/nan.stl"), &[], &["triangle 5: vertex 2 has a non-finite coordinate"]),
        case("truncated ASCII STL", "mesh", Fixture("bad/truncated_ascii.stl"), &[], &["line 44", "truncated"]),
        case("inverted second body", "mesh", Fixture("bad/inverted_second_body.obj"), &[], &["shell 2 (from triangle 13 (line 32)) is wound inward"]),
        case("OBJ index out of range", "mesh", Fixture("bad/bad_index.obj"), &[], &["line 4: vertex index 4 is out of range"]),
        case("binary noise as STL", "mesh", Fixture("bad/garbage.stl"), &[], &["binary STL header says"]),
        case("empty STL", "mesh", Fixture("bad/empty.stl"), &[], &["the input is empty"]),
        case("open body in a 3MF", "mesh", Fixture("bad/cube_missing_face.3mf"), &[], &["cube: the mesh is not closed"]),
        case("3MF that is not a zip", "mesh", Bytes("3mf", b"PK\x03\x04 not really a zip".to_vec()), &[], &["not a 3MF (zip) file"]),
        case("PLY with a bad index", "mesh", Bytes("ply", b"ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1 9\n".to_vec()), &[], &["face 1: vertex index 9 is out of range"]),
        case("truncated binary PLY", "mesh", Bytes("ply", b"ply\nformat binary_little_endian 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n\x00\x00".to_vec()), &[], &["PLY"]),
        case("GeoJSON line", "polygon", Fixture("bad/linestring.geojson"), &[], &["a LineString has no area"]),
        case("open DXF polyline", "polygon", Fixture("bad/open_polyline.dxf"), &[], &["LWPOLYLINE E5: (0, 0)–(1, 1) is not part of a closed outline"]),
        case("DXF of loose lines", "polygon", Bytes("dxf", b"0\nSECTION\n2\nENTITIES\n0\nLINE\n5\n1\n8\n0\n10\n0\n20\n0\n11\n1\n21\n0\n0\nENDSEC\n0\nEOF\n".to_vec()), &[], &["LINE 1: (0, 0)–(1, 0) is not part of a closed outline", "the nearest other end is 1 away"]),
        case("DXF spline of fit points only (never dropped)", "polygon", Bytes("dxf", b"0\nSECTION\n2\nENTITIES\n0\nCIRCLE\n5\n2A\n8\n0\n10\n0\n20\n0\n30\n0\n40\n2\n0\nSPLINE\n5\n5A\n8\n0\n0\nENDSEC\n0\nEOF\n".to_vec()), &[], &["SPLINE 5A: is given by fit points only"]),
        case("DXF spline with too few knots", "polygon", Bytes("dxf", b"0\nSECTION\n2\nENTITIES\n0\nSPLINE\n5\n5B\n8\n0\n71\n2\n40\n0\n40\n1\n10\n0\n20\n0\n30\n0\n10\n1\n20\n1\n30\n0\n10\n2\n20\n0\n30\n0\n0\nENDSEC\n0\nEOF\n".to_vec()), &[], &["SPLINE 5B: 2 knots where 3 control points of degree 2 need 6"]),
        case("DXF MESH entity (a body, never dropped)", "polygon", Bytes("dxf", b"0\nSECTION\n2\nENTITIES\n0\nCIRCLE\n5\n2A\n8\n0\n10\n0\n20\n0\n30\n0\n40\n2\n0\nMESH\n5\n5C\n8\n0\n0\nENDSEC\n0\nEOF\n".to_vec()), &[], &["MESH: this kind of entity is not read"]),
        case("DXF lines that branch", "polygon", Bytes("dxf", b"0\nSECTION\n2\nENTITIES\n0\nLINE\n5\n1\n8\n0\n10\n0\n20\n0\n11\n1\n21\n0\n0\nLINE\n5\n2\n8\n0\n10\n1\n20\n0\n11\n0\n21\n1\n0\nLINE\n5\n3\n8\n0\n10\n0\n20\n1\n11\n0\n21\n0\n0\nLINE\n5\n4\n8\n0\n10\n0\n20\n0\n11\n-1\n21\n0\n0\nLINE\n5\n5\n8\n0\n10\n-1\n20\n0\n11\n0\n21\n-1\n0\nLINE\n5\n6\n8\n0\n10\n0\n20\n-1\n11\n0\n21\n0\n0\nENDSEC\n0\nEOF\n".to_vec()), &[], &["4 pieces meet at (0, 0)", "cannot branch"]),
        // --- meshes: generated
        case("a billion triangles claimed", "mesh", Bytes("stl", binary_stl(1_000_000_000, &[tri])), &[], &["1000000000 triangles"]),
        case("zero triangles claimed, one present", "mesh", Bytes("stl", binary_stl(0, &[tri])), &[], &["header says 0 triangles"]),
        case("header only", "mesh", Bytes("stl", binary_stl(0, &[])), &[], &["no triangles"]),
        case("infinity in binary STL", "mesh", Bytes("stl", binary_stl(1, &[[[0.0, 0.0, 0.0], [f32::INFINITY, 0.0, 0.0], [0.0, 1.0, 0.0]]])), &[], &["triangle 1: vertex 2 has a non-finite coordinate (inf)"]),
        case("a single triangle", "mesh", Bytes("stl", binary_stl(1, &[tri])), &[], &["not closed: 3 boundary edges"]),
        case("all triangles degenerate", "mesh", Bytes("stl", binary_stl(1, &[[[1.0, 1.0, 1.0]; 3]])), &[], &["degenerate"]),
        case("ASCII STL with a 4-vertex facet", "mesh", Bytes("stl", b"solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 1 1 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid\n".to_vec()), &[], &["line 7", "more than 3 vertices"]),
        case("ASCII STL with a word for a number", "mesh", Bytes("stl", b"solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 zero 0\n".to_vec()), &[], &["line 4: expected a number, found \"zero\""]),
        case("text that is not STL", "mesh", Bytes("stl", b"hello, this is not a mesh; it is a sentence that runs past eighty-four bytes for sure".to_vec()), &[], &["not an STL file"]),
        case("flat closed mesh", "mesh", Bytes("obj", b"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\nf 1 3 2\n".to_vec()), &[], &["encloses no volume"]),
        case("closed mesh of collinear triangles", "mesh", Bytes("obj", b"v 0 0 0\nv 1 1 1\nv 2 2 2\nf 1 2 3\nf 1 3 2\n".to_vec()), &[], &["all 2 triangles are degenerate", "encloses nothing"]),
        case("a spike 1e22 long (f64 cannot resolve)", "mesh", Bytes("obj", std::fs::read("fuzz/regressions/soup/spike_1e22_not_zero_area.obj").unwrap()), &[], &["triangle 9 and triangle 16 cross at"]),
        case("a sliver 1e16 long (f64 cannot resolve)", "mesh", Bytes("obj", b"v 0 0 0\nv 1e16 1 1\nv 1 1e16 1\nv 1e16 1e16 2\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n".to_vec()), &[], &["more than f64 can resolve"]),
        case("non-manifold fin", "mesh", Bytes("obj", b"v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nv 0 0 -1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\nf 1 2 5\n".to_vec()), &[], &["not closed"]),
        case("OBJ with a NaN vertex", "mesh", Bytes("obj", b"v 0 0 nan\n".to_vec()), &[], &["line 1: coordinate nan is not a finite number"]),
        case("OBJ face of two vertices", "mesh", Bytes("obj", b"v 0 0 0\nv 1 0 0\nf 1 2\n".to_vec()), &[], &["line 3: a face needs at least 3 vertices"]),
        case("OBJ with no faces", "mesh", Bytes("obj", b"v 0 0 0\nv 1 0 0\n".to_vec()), &[], &["no faces"]),
        case("OBJ index overflowing 64 bits", "mesh", Bytes("obj", b"v 0 0 0\nf 1 1 99999999999999999999999\n".to_vec()), &[], &["line 2", "is not a vertex reference"]),
        case("outward shell inside another", "mesh", Bytes("obj", nested_cubes()), &[], &["is wound outward but lies inside another shell"]),
        case("binary noise on stdin", "mesh", Stdin(noise(5000, 3)), &[], &["<stdin>"]),
        // --- flags
        case("density zero", "polygon", Fixture("polygon/unit_square.json"), &["--density", "0"], &["--density must be a positive finite number, got 0"]),
        case("negative density", "polygon", Fixture("polygon/unit_square.json"), &["--density", "-2"], &["got -2"]),
        case("NaN mass", "polygon", Fixture("polygon/unit_square.json"), &["--mass", "nan"], &["--mass must be a positive finite number, got NaN"]),
        case("infinite mass", "mesh", Fixture("mesh/right_tetrahedron.stl"), &["--mass", "inf"], &["--mass must be a positive finite number, got inf"]),
        case("mass and density", "polygon", Fixture("polygon/unit_square.json"), &["--mass", "1", "--density", "2"], &["cannot be used with"]),
        case("mesh method on a polygon", "polygon", Fixture("polygon/unit_square.json"), &["--method", "tetra"], &["invalid value 'tetra'"]),
        case("polygon method on a mesh", "mesh", Fixture("mesh/right_tetrahedron.stl"), &["--method", "fan"], &["invalid value 'fan'"]),
        case("3D point for a polygon", "polygon", Fixture("polygon/unit_square.json"), &["--about", "1,2,3"], &["--about needs 2 coordinates here, got 3"]),
        case("2D point for a mesh", "mesh", Fixture("mesh/right_tetrahedron.stl"), &["--about", "1,2"], &["--about needs 3 coordinates here, got 2"]),
        case("about a word", "polygon", Fixture("polygon/unit_square.json"), &["--about", "up"], &["expected centroid, origin or comma-separated"]),
        case("about NaN", "mesh", Fixture("mesh/right_tetrahedron.stl"), &["--about", "0,nan,0"], &["expected centroid, origin"]),
        case("unknown input format", "polygon", Fixture("polygon/unit_square.json"), &["--input-format", "xml"], &["invalid value 'xml'"]),
        case("wrong input format", "mesh", Fixture("mesh/right_tetrahedron.obj"), &["--input-format", "stl"], &["not an STL file"]),
        case("json and format", "polygon", Fixture("polygon/unit_square.json"), &["--json", "--format", "table"], &["cannot be used with"]),
        case("resolution zero", "mesh", Fixture("mesh/right_tetrahedron.stl"), &["--method", "voxel", "--resolution", "0"], &["--resolution must be between 1"]),
        case("negative tolerance", "polygon", Fixture("polygon/unit_square.json"), &["--method", "all", "--tolerance", "-1"], &["--tolerance"]),
        case("unknown flag", "polygon", Fixture("polygon/unit_square.json"), &["--frobnicate"], &["--frobnicate"]),
    ]
}

/// [0,4]³ and [1,2]³ both wound outward: the inner one would be counted twice.
fn nested_cubes() -> Vec<u8> {
    let mut s = String::new();
    for (o, k) in [(0.0, 4.0), (1.0, 1.0)] {
        for i in 0..8 {
            let b = |bit: i32| if i & bit != 0 { o + k } else { o };
            s += &format!("v {} {} {}\n", b(1), b(2), b(4));
        }
    }
    let quads = [
        [0, 2, 3, 1],
        [4, 5, 7, 6],
        [0, 1, 5, 4],
        [2, 6, 7, 3],
        [0, 4, 6, 2],
        [1, 3, 7, 5],
    ];
    for base in [1, 9] {
        for q in quads {
            s += &format!(
                "f {} {} {}\nf {} {} {}\n",
                q[0] + base,
                q[1] + base,
                q[2] + base,
                q[0] + base,
                q[2] + base,
                q[3] + base
            );
        }
    }
    s.into_bytes()
}

#[test]
fn every_bad_input_is_refused_cleanly() {
    let dir = std::env::temp_dir().join(format!("inertia-bad-input-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut failures = Vec::new();
    for (k, c) in cases().into_iter().enumerate() {
        let mut cmd = cargo_bin_cmd!("inertia");
        let (path, label) = match &c.input {
            Input::Fixture(f) => {
                let p = format!("fixtures/{f}");
                (p.clone(), p)
            }
            Input::Bytes(ext, bytes) => {
                let p: PathBuf = dir.join(format!("case{k}.{ext}"));
                std::fs::write(&p, bytes).unwrap();
                let s = p.to_str().unwrap().to_string();
                (s.clone(), s)
            }
            Input::Stdin(bytes) => {
                cmd.write_stdin(bytes.clone());
                ("-".to_string(), "<stdin>".to_string())
            }
        };
        let mut args = vec![c.command.to_string(), path];
        args.extend(c.args.iter().map(|a| a.to_string()));
        let out = cmd.args(&args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        let flag_case = c.name.contains("flag") || !c.args.is_empty();
        let mut problems = Vec::new();
        if out.status.code() != Some(2) {
            problems.push(format!("exit {:?}", out.status.code()));
        }
        if !out.stdout.is_empty() {
            problems.push("stdout not empty".into());
        }
        if err.trim_end().lines().count() != 1 {
            problems.push(format!("{} stderr lines", err.trim_end().lines().count()));
        }
        if err.len() > 600 {
            problems.push(format!("stderr is {} bytes long", err.len()));
        }
        if !flag_case && !err.contains(&label) {
            problems.push(format!("does not name {label}"));
        }
        for e in c.expect {
            if !err.contains(e) {
                problems.push(format!("lacks {e:?}"));
            }
        }
        if !problems.is_empty() {
            failures.push(format!(
                "{}: {} — stderr: {}",
                c.name,
                problems.join(", "),
                err.trim_end()
            ));
        }
    }
    std::fs::remove_dir_all(&dir).ok();
    assert!(
        failures.is_empty(),
        "{} case(s) failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
