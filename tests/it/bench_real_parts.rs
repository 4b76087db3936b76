//! `bench/real_parts.py`, the bench of real parts, run on fixtures laid out as its corpus
//! (one folder per repository): its table reads inertia's answers and refusals right, and a
//! missing file stops it before anything is timed.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A corpus folder `fix/mesh/...` holding copies of the named fixtures and `open.stl`, one
/// triangle (an open mesh).
fn corpus(tag: &str, names: &[&str]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("inertia-real-parts-{tag}-{}", std::process::id()));
    let sub = dir.join("fix/mesh");
    std::fs::create_dir_all(&sub).unwrap();
    for n in names {
        std::fs::copy(Path::new("fixtures/mesh").join(n), sub.join(n)).unwrap();
    }
    let open = "solid open\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid open\n";
    std::fs::write(sub.join("open.stl"), open).unwrap();
    dir
}

/// Runs the bench helper without trimesh, one round, the right tetrahedron standing in for
/// the sphere.
fn bench(dir: &Path, parts: &[&str]) -> Output {
    let bin = assert_cmd::cargo::cargo_bin!("inertia");
    Command::new("python3")
        .arg("bench/real_parts.py")
        .arg(bin)
        .arg("fixtures/mesh/right_tetrahedron.stl")
        .arg(dir)
        .args(parts)
        .env("RUNS", "1")
        .env("TRIMESH", "0")
        .output()
        .unwrap()
}

/// The table row of a part, split into its cells.
fn row(table: &str, part: &str) -> Vec<String> {
    let line = table
        .lines()
        .find(|l| l.starts_with(&format!("| {part} |")))
        .unwrap_or_else(|| panic!("no row for {part} in\n{table}"));
    line.trim_matches('|')
        .split('|')
        .map(|c| c.trim().to_string())
        .collect()
}

#[test]
fn rows_say_what_inertia_answered_and_refused() {
    let names = [
        "right_tetrahedron.obj",
        "one_triangle_reversed.stl",
        "two_parts.3mf",
    ];
    let dir = corpus("rows", &names);
    let parts: Vec<String> = names
        .iter()
        .chain(&["open.stl"])
        .map(|n| format!("fix/mesh/{n}"))
        .collect();
    let out = bench(&dir, &parts.iter().map(String::as_str).collect::<Vec<_>>());
    let table = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let tet = row(&table, "fix/mesh/right_tetrahedron.obj");
    assert_eq!(tet.len(), 10, "{tet:?}");
    assert_eq!((tet[1].as_str(), tet[8].as_str()), ("4", "answered"));
    // The stand-in "sphere" has 4 triangles too: the paired ratio per triangle is the ratio
    // of the two times, a positive number.
    assert!(tet[5].parse::<f64>().unwrap() > 0.0, "{tet:?}");
    // Without trimesh there is nothing to compare.
    assert_eq!(
        (tet[6].as_str(), tet[7].as_str(), tet[9].as_str()),
        ("—", "—", "—")
    );

    // A repaired cube is answered, its warning listed below the table without the file's name.
    let turned = row(&table, "fix/mesh/one_triangle_reversed.stl");
    assert_eq!((turned[1].as_str(), turned[8].as_str()), ("12", "answered"));
    assert!(table.contains(
        "- fix/mesh/one_triangle_reversed.stl: warning: 1 triangle(s) listed the other way round"
    ));
    assert_eq!(row(&table, "fix/mesh/two_parts.3mf")[1], "16");

    let open = row(&table, "fix/mesh/open.stl");
    assert_eq!(
        open[1], "0",
        "no triangle count without an answer or trimesh: {open:?}"
    );
    assert_eq!(open[8], "refused: the mesh is not closed: 3 boundary edges");
    // The refusal in full below the table, coordinates left out.
    assert!(table.contains(
        "- fix/mesh/open.stl: refused: the mesh is not closed: 3 boundary edges, e.g. (…) of triangle 1"
    ), "{table}");

    let summary = row(&table, "**summary**");
    assert_eq!(
        (summary[1].as_str(), summary[8].as_str()),
        ("4 parts", "3 answered")
    );
    // The open triangle, counted by no tool, is in neither class of size.
    assert!(summary[3].starts_with("< 1k triangles: ") && summary[3].ends_with(" of 3 under 3 ms"));
    assert!(summary[5].ends_with(" of 0 within 2×"), "{summary:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_missing_file_stops_the_bench_naming_its_repository() {
    let dir = corpus("missing", &[]);
    let out = bench(&dir, &["trimesh/models/featuretype.STL"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("missing") && err.contains("github.com/mikedh/trimesh at a513c0e2"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
