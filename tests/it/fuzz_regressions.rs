//! Every input a fuzz target once crashed on (kept in `fuzz/regressions/<target>/`) runs
//! through the same pipeline as the target, and must give an error or a sound result.

use inertia::io::{MeshFormat, PolygonFormat};
use inertia::read::read_polygon;
use inertia::report::{MeshReport, OutputFormat, PolygonReport, View};
use inertia::solid::{Options, read_solids};
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
        // The pipeline of `inertia mesh --method all --resolution 16`.
        let options = Options {
            methods: MeshMethod::ALL.to_vec(),
            resolution: 16,
            ..Options::default()
        };
        let Ok(solids) = read_solids(&data, MeshFormat::sniff(&data), &options) else {
            continue;
        };
        for (s, (m, i)) in solids.iter().flat_map(|s| {
            MeshMethod::ALL
                .into_iter()
                .zip(s.integrals.iter().cloned())
                .map(move |mi| (s, mi))
        }) {
            let r = MeshReport::from_integral(
                "fuzz",
                m.name(),
                s.body,
                i,
                Amount::Density(1.0),
                None,
                &View::default(),
            );
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
    use inertia::details::{IndexedSoup, solid};
    use inertia::io::{obj, stl};
    for (name, data) in inputs("soup") {
        let (fast, raw) = match MeshFormat::sniff(&data) {
            MeshFormat::Stl => match (inertia::details::stl_solid(&data), stl::parse(&data)) {
                (Ok(fast), Ok(raw)) => (fast, raw),
                (Ok(None) | Err(_), Err(_)) => continue,
                (a, b) => panic!("{name}: {:?} / {:?}", a.map(|s| s.is_some()), b.err()),
            },
            _ => {
                let Ok(raw) = obj::parse(&data) else { continue };
                (solid(&IndexedSoup(&raw)), raw)
            }
        };
        match (fast, inertia::details::mesh_as_written(&raw)) {
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
