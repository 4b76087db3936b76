//! `cargo bench --bench mesh`: read, validate and integrate a UV-sphere binary STL.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

/// A closed UV sphere as binary STL bytes: 2·n·(rings−1) triangles.
fn sphere_stl(n: usize, rings: usize) -> Vec<u8> {
    let pt = |k: usize, j: usize| -> [f32; 3] {
        let phi = -std::f64::consts::FRAC_PI_2 + std::f64::consts::PI * k as f64 / rings as f64;
        let t = std::f64::consts::TAU * (j % n) as f64 / n as f64;
        [
            (phi.cos() * t.cos()) as f32,
            (phi.cos() * t.sin()) as f32,
            phi.sin() as f32,
        ]
    };
    let mut tris = Vec::new();
    for j in 0..n {
        tris.push([pt(0, 0), pt(1, j + 1), pt(1, j)]);
        tris.push([pt(rings, 0), pt(rings - 1, j), pt(rings - 1, j + 1)]);
        for k in 1..rings - 1 {
            let (a, b, c, d) = (pt(k, j), pt(k, j + 1), pt(k + 1, j + 1), pt(k + 1, j));
            tris.push([a, b, c]);
            tris.push([a, c, d]);
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

fn bench(c: &mut Criterion) {
    let bytes = sphere_stl(400, 250); // 199,200 triangles
    let mut g = c.benchmark_group("sphere_200k");
    g.sample_size(10);
    g.bench_function("parse_stl", |b| {
        b.iter(|| inertia::io::stl::parse(black_box(&bytes)).unwrap())
    });
    let raw = inertia::io::stl::parse(&bytes).unwrap();
    // The same triangles as ASCII STL (about 48 MB of text for 199,200 triangles).
    let raw_bin = inertia::io::stl::parse(&bytes).unwrap();
    let ascii = inertia::io::stl::write_ascii(&raw_bin, "sphere");
    g.throughput(criterion::Throughput::Bytes(ascii.len() as u64));
    g.bench_function("parse_ascii_stl", |b| {
        b.iter(|| inertia::io::stl::parse(black_box(ascii.as_bytes())).unwrap())
    });
    g.throughput(criterion::Throughput::Elements(
        raw_bin.triangles.len() as u64
    ));
    g.bench_function("weld_and_validate", |b| {
        b.iter(|| inertia::Mesh::new(black_box(&raw)).unwrap())
    });
    let mesh = inertia::Mesh::new(&raw).unwrap();
    for m in inertia::MeshMethod::ALL {
        g.bench_function(format!("integrate_{}", m.name()), |b| {
            b.iter(|| m.integrate(black_box(&mesh), inertia::method::voxel::DEFAULT_RESOLUTION))
        });
    }
    g.finish();
    // The voxel target: a 20k-triangle sphere at the default resolution.
    let sphere =
        inertia::Mesh::new(&inertia::shape::Shape3d::Sphere { radius: 1.0 }.tessellate(140))
            .unwrap();
    let mut g = c.benchmark_group("sphere_20k");
    g.sample_size(20);
    g.bench_function("voxel_default_resolution", |b| {
        b.iter(|| {
            inertia::MeshMethod::Voxel.integrate(
                black_box(&sphere),
                inertia::method::voxel::DEFAULT_RESOLUTION,
            )
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
