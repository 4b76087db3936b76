//! `cargo bench --bench polygon`: parse, validate and integrate million-vertex polygons.
//!
//! Two shapes: a circle (convex, the common case) and a star of alternating radii (every
//! edge spans half the shape: the worst case for sweep-line validation).

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

fn ring(n: usize, spiky: bool) -> Vec<[f64; 2]> {
    (0..n)
        .map(|k| {
            let t = std::f64::consts::TAU * k as f64 / n as f64;
            let r = if spiky && k % 2 == 1 { 500.0 } else { 1000.0 };
            [r * t.cos(), r * t.sin()]
        })
        .collect()
}

fn json(points: &[[f64; 2]]) -> Vec<u8> {
    serde_json::to_vec(points).unwrap()
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("polygon_1m");
    g.sample_size(10);
    for (name, spiky) in [("circle", false), ("star", true)] {
        let pts = ring(1_000_000, spiky);
        let bytes = json(&pts);
        g.bench_function(format!("{name}/parse_json"), |b| {
            b.iter(|| inertia::io::json::parse(black_box(&bytes)).unwrap())
        });
        g.bench_function(format!("{name}/validate"), |b| {
            b.iter(|| inertia::Polygon::new(black_box(pts.clone()), vec![]).unwrap())
        });
        let poly = inertia::Polygon::new(pts.clone(), vec![]).unwrap();
        for m in inertia::PolygonMethod::ALL {
            g.bench_function(format!("{name}/integrate_{}", m.name()), |b| {
                b.iter(|| m.integrate(black_box(&poly)))
            });
        }
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
