//! `cargo bench --bench mesh`: read, validate and integrate a UV sphere of 200k triangles,
//! from binary STL, ASCII STL and OBJ, by the parallel single-shell path (`soup`) and by
//! the general one (`Mesh::new`), and the kernels on their own.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let sphere = inertia::shape::Shape3d::Sphere { radius: 1.0 }.tessellate(448);
    let bytes = inertia::io::stl::write_binary(&sphere); // 199,808 triangles, 10 MB
    let obj = inertia::io::obj::write(&sphere);
    let mut g = c.benchmark_group("sphere_200k");
    g.sample_size(10);
    g.throughput(criterion::Throughput::Bytes(bytes.len() as u64));
    g.bench_function("solid_binary_stl", |b| {
        b.iter(|| {
            inertia::details::stl_solid(black_box(&bytes))
                .unwrap()
                .unwrap()
        })
    });
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
    g.bench_function("solid_ascii_stl", |b| {
        b.iter(|| {
            inertia::details::stl_solid(black_box(ascii.as_bytes()))
                .unwrap()
                .unwrap()
        })
    });
    g.throughput(criterion::Throughput::Bytes(obj.len() as u64));
    g.bench_function("parse_obj", |b| {
        b.iter(|| inertia::io::obj::parse(black_box(obj.as_bytes())).unwrap())
    });
    g.throughput(criterion::Throughput::Elements(
        raw_bin.triangles.len() as u64
    ));
    g.bench_function("weld_and_validate", |b| {
        b.iter(|| inertia::Mesh::new(black_box(&raw)).unwrap())
    });
    g.bench_function("soup_indexed", |b| {
        b.iter(|| {
            inertia::details::solid(&inertia::details::IndexedSoup(black_box(&sphere))).unwrap()
        })
    });
    let mesh = inertia::Mesh::new(&raw).unwrap();
    // The kernels alone (Mesh::new caches the tetra integral: call the kernel itself).
    g.bench_function("integrate_tetra", |b| {
        b.iter(|| inertia::method::tetra::integrate(black_box(&mesh)))
    });
    g.bench_function("integrate_voxel", |b| {
        b.iter(|| {
            inertia::MeshMethod::Voxel
                .integrate(black_box(&mesh), inertia::method::voxel::DEFAULT_RESOLUTION)
        })
    });
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
