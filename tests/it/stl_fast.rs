//! The in-place STL path (`inertia::soup`, taken for one closed shell) against the general
//! path (`Mesh::new` and the `tetra` method) on binary STL, where both see the same f32
//! coordinates.

use inertia::RawMesh;
use inertia::io::stl;
use inertia::shape::Shape3d;
use nalgebra::{Rotation3, Vector3};

/// A binary STL of `m`, each vertex moved by `f`.
fn binary(m: &RawMesh, f: impl Fn([f64; 3]) -> [f64; 3]) -> Vec<u8> {
    let mut b = vec![0u8; 80];
    b.extend((m.triangles.len() as u32).to_le_bytes());
    for t in &m.triangles {
        b.extend([0u8; 12]);
        for &v in t {
            for x in f(m.vertices[v as usize]) {
                b.extend((x as f32).to_le_bytes());
            }
        }
        b.extend([0u8; 2]);
    }
    b
}

fn check(bytes: &[u8], what: &str) {
    let fast = inertia::details::stl_solid(bytes).unwrap().expect(what);
    let mesh = inertia::details::mesh_as_written(&stl::parse(bytes).unwrap()).unwrap();
    let slow = mesh.tetra_integral().unwrap();
    let body = inertia::report::Body::of(&mesh);
    assert_eq!(fast.body.triangles, body.triangles, "{what}");
    assert_eq!(fast.body.vertices, body.vertices, "{what}");
    assert_eq!(
        fast.body.degenerate_triangles, body.degenerate_triangles,
        "{what}"
    );
    assert_eq!(fast.body.inside_out, body.inside_out, "{what}");
    assert_eq!(fast.body.bounding_box, body.bounding_box, "{what}");
    let rel = |a: f64, b: f64, scale: f64| (a - b).abs() / scale;
    assert!(
        rel(fast.body.surface_area, body.surface_area, body.surface_area) < 1e-13,
        "{what}"
    );
    let p = fast.properties;
    assert!(
        rel(p.volume, slow.volume, slow.volume) < 1e-13,
        "{what}: {} {}",
        p.volume,
        slow.volume
    );
    let size = slow.volume.cbrt();
    assert!((p.centroid - slow.centroid).norm() / size < 1e-12, "{what}");
    let big = slow.inertia.abs().max();
    assert!(
        (p.inertia - slow.inertia).abs().max() / big < 1e-12,
        "{what}"
    );
}

#[test]
fn agrees_with_the_general_path() {
    let sphere = Shape3d::Sphere { radius: 3.0 }.tessellate(180);
    let stone = Shape3d::Biconvex {
        width: 2.2,
        height: 0.92,
    }
    .tessellate(120);
    let can = Shape3d::Cylinder {
        radius: 1.0,
        height: 4.0,
    }
    .tessellate(90);
    let turn = Rotation3::from_axis_angle(&Vector3::y_axis(), 0.7)
        * Rotation3::from_axis_angle(&Vector3::x_axis(), -1.1);
    for (name, m) in [("sphere", &sphere), ("stone", &stone), ("can", &can)] {
        check(&binary(m, |p| p), name);
        check(
            &binary(m, |p| (turn * Vector3::from(p)).into()),
            &format!("{name} rotated"),
        );
        check(
            &binary(m, |p| [p[0] + 1e6, p[1] - 2e6, p[2] + 5e5]),
            &format!("{name} at 1e6"),
        );
        check(&binary(m, |p| p.map(|x| x * 1e-4)), &format!("{name} tiny"));
        check(&binary(m, |p| p.map(|x| x * 1e5)), &format!("{name} huge"));
        let mut reversed = m.clone();
        for t in &mut reversed.triangles {
            t.swap(1, 2);
        }
        let bytes = binary(&reversed, |p| p);
        assert!(
            inertia::details::stl_solid(&bytes)
                .unwrap()
                .unwrap()
                .body
                .inside_out
        );
        check(&bytes, &format!("{name} reversed"));
    }
}

#[test]
fn a_unit_cube_far_out_is_exact() {
    // Coordinates exact in f32: 2^20 + {0, 1}.
    let cube = Shape3d::Box { size: [1.0; 3] }.tessellate(0);
    let bytes = binary(&cube, |p| p.map(|x| x + 0.5 + 1048576.0));
    let s = inertia::details::stl_solid(&bytes).unwrap().unwrap();
    assert_eq!(s.properties.volume, 1.0);
    assert_eq!(s.properties.centroid.coords, Vector3::repeat(1048576.5));
    for k in 0..3 {
        assert!((s.properties.inertia[(k, k)] - 1.0 / 6.0).abs() < 1e-15);
    }
    assert_eq!(
        (s.body.vertices, s.body.shells, s.body.surface_area),
        (8, 1, 6.0)
    );
}

#[test]
fn defects_take_the_general_path() {
    let cube = Shape3d::Box { size: [1.0; 3] }.tessellate(0);
    assert!(
        inertia::details::stl_solid(&binary(&cube, |p| p))
            .unwrap()
            .is_some()
    );
    let mut pair = cube.clone();
    let off = pair.vertices.len() as u32;
    pair.vertices
        .extend(cube.vertices.iter().map(|p| [p[0] + 3.0, p[1], p[2]]));
    pair.triangles
        .extend(cube.triangles.iter().map(|t| t.map(|v| v + off)));
    let s = inertia::details::stl_solid(&binary(&pair, |p| p))
        .unwrap()
        .unwrap();
    assert_eq!((s.body.shells, s.properties.volume), (2, 2.0));
    let mut flipped = pair.clone();
    for t in &mut flipped.triangles[12..] {
        t.swap(1, 2);
    }
    assert!(
        inertia::details::stl_solid(&binary(&flipped, |p| p))
            .unwrap()
            .is_none()
    );
    let mut open = cube.clone();
    open.triangles.pop();
    assert!(
        inertia::details::stl_solid(&binary(&open, |p| p))
            .unwrap()
            .is_none()
    );
    let nan = binary(&cube, |p| if p == [0.5; 3] { [f64::NAN; 3] } else { p });
    assert!(inertia::details::stl_solid(&nan).unwrap().is_none());
    // A header claiming four billion triangles is refused before anything is allocated.
    let mut liar = binary(&cube, |p| p);
    liar[80..84].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(
        inertia::details::stl_solid(&liar)
            .unwrap_err()
            .to_string()
            .contains("4294967295 triangles")
    );
}
