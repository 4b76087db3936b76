//! Every input a fuzz target once crashed on (kept in `fuzz/regressions/<target>/`) runs
//! through the same pipeline as the target, and must give an error or a sound result.

use inertia::io::{MeshFormat, PolygonFormat, read_mesh, read_polygon};
use inertia::report::{MeshReport, OutputFormat, PolygonReport};
use inertia::{Amount, MeshMethod, PolygonMethod};

fn inputs(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = format!("fuzz/regressions/{target}");
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| {
            let p = e.unwrap().path();
            (p.display().to_string(), std::fs::read(&p).unwrap())
        })
        .collect();
    out.sort();
    assert!(!out.is_empty(), "no regression inputs in {dir}");
    out
}

#[test]
fn polygon_pipeline_regressions() {
    for (name, data) in inputs("polygon_pipeline") {
        let Ok(poly) = read_polygon(&data, PolygonFormat::sniff(&data)) else {
            continue;
        };
        for m in PolygonMethod::ALL {
            let r = PolygonReport::new("fuzz", &poly, m, Amount::Density(1.0), None);
            let _ = OutputFormat::Table.polygon(&r);
            assert!(r.area > 0.0, "{name}: area {}", r.area);
            if r.inertia.is_finite() {
                assert!(r.inertia > 0.0, "{name}: polar moment {}", r.inertia);
            }
        }
    }
}

#[test]
fn mesh_pipeline_regressions() {
    for (name, data) in inputs("mesh_pipeline") {
        let Ok(mesh) = read_mesh(&data, MeshFormat::sniff(&data)) else {
            continue;
        };
        for m in MeshMethod::ALL {
            let r = MeshReport::new("fuzz", &mesh, m, 16, Amount::Density(1.0), None);
            let _ = OutputFormat::Json.mesh(&r);
            if m == MeshMethod::Tetra {
                assert!(r.volume > 0.0, "{name}: volume {}", r.volume);
            }
        }
    }
}

/// The `soup` target: the parallel single-shell path against the general path.
#[test]
fn soup_regressions() {
    use inertia::io::{obj, stl};
    use inertia::soup::{IndexedSoup, solid};
    for (name, data) in inputs("soup") {
        let (fast, raw) = match MeshFormat::sniff(&data) {
            MeshFormat::Stl => match (stl::solid(&data), stl::parse(&data)) {
                (Ok(fast), Ok(raw)) => (fast, raw),
                (Ok(None) | Err(_), Err(_)) => continue,
                (a, b) => panic!("{name}: {:?} / {:?}", a.map(|s| s.is_some()), b.err()),
            },
            _ => {
                let Ok(raw) = obj::parse(&data) else { continue };
                (solid(&IndexedSoup(&raw)), raw)
            }
        };
        match (fast, inertia::Mesh::new(&raw)) {
            (Some(s), Ok(mesh)) => {
                let v = mesh.tetra_integral().unwrap().volume;
                assert!(
                    (s.properties.volume - v).abs() <= 1e-9 * v,
                    "{name}: {} {v}",
                    s.properties.volume
                );
            }
            (Some(_), Err(e)) => panic!("{name}: parallel path answered, general refused: {e}"),
            (None, Ok(_)) => panic!("{name}: parallel path refused what the general path accepts"),
            (None, Err(_)) => {}
        }
    }
}
