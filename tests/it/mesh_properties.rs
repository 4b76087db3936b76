//! Invariants of the mesh methods on random closed meshes (proptest).

use inertia::mesh::{Mesh, RawMesh};
use inertia::{MassProperties3d, MeshMethod};
use nalgebra::{Rotation3, Vector3};
use proptest::prelude::*;

/// A closed polyhedron star-shaped about the origin: a UV sphere (n segments, r rings) whose
/// every vertex is moved to a random radius in [0.5, 1.5]. Seen from the origin its triangles
/// keep the sphere's, so it never intersects itself.
fn star_mesh() -> impl Strategy<Value = RawMesh> {
    (4usize..12, 3usize..8).prop_flat_map(|(n, rings)| {
        let count = 2 + n * (rings - 1);
        prop::collection::vec(0.5f64..1.5, count).prop_map(move |radii| {
            let pi = std::f64::consts::PI;
            let mut vertices = vec![[0.0, 0.0, -radii[0]]];
            for k in 1..rings {
                let phi = -pi / 2.0 + pi * k as f64 / rings as f64;
                for j in 0..n {
                    let t = 2.0 * pi * j as f64 / n as f64;
                    let r = radii[vertices.len()];
                    vertices.push([
                        r * phi.cos() * t.cos(),
                        r * phi.cos() * t.sin(),
                        r * phi.sin(),
                    ]);
                }
            }
            vertices.push([0.0, 0.0, radii[count - 1]]);
            let top = (count - 1) as u32;
            let ring = |k: usize, j: usize| (1 + (k - 1) * n + j % n) as u32;
            let mut triangles = Vec::new();
            for j in 0..n {
                triangles.push([0, ring(1, j + 1), ring(1, j)]);
                triangles.push([top, ring(rings - 1, j), ring(rings - 1, j + 1)]);
                for k in 1..rings - 1 {
                    let (a, b, c, d) = (
                        ring(k, j),
                        ring(k, j + 1),
                        ring(k + 1, j + 1),
                        ring(k + 1, j),
                    );
                    triangles.push([a, b, c]);
                    triangles.push([a, c, d]);
                }
            }
            RawMesh {
                vertices,
                triangles,
                lines: vec![],
            }
        })
    })
}

fn moved(m: &RawMesh, r: &Rotation3<f64>, t: Vector3<f64>, s: f64) -> RawMesh {
    RawMesh {
        vertices: m
            .vertices
            .iter()
            .map(|p| (r * Vector3::from(*p) * s + t).into())
            .collect(),
        ..m.clone()
    }
}

fn union(parts: &[RawMesh]) -> RawMesh {
    let mut out = RawMesh::default();
    for p in parts {
        let off = out.vertices.len() as u32;
        out.vertices.extend(&p.vertices);
        out.triangles
            .extend(p.triangles.iter().map(|t| t.map(|v| v + off)));
    }
    out
}

fn tetra(m: &RawMesh) -> MassProperties3d {
    MeshMethod::Tetra
        .integrate(&Mesh::new(m).unwrap(), 0)
        .properties
}

fn close(a: f64, b: f64, scale: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * scale
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn rotation_translation_reversal_invariance(
        m in star_mesh(),
        angles in (-3.0f64..3.0, -3.0f64..3.0, -3.0f64..3.0),
        shift in prop::sample::select(vec![0.0, 1e3, 1e6]),
    ) {
        let p = tetra(&m);
        let pp = p.principal();
        // Physical checks: positive moments, triangle inequality.
        prop_assert!(pp.moments[0] > 0.0);
        prop_assert!(pp.moments[2] <= (pp.moments[0] + pp.moments[1]) * (1.0 + 1e-12));
        let r = Rotation3::from_euler_angles(angles.0, angles.1, angles.2);
        let t = Vector3::new(shift, -shift, 0.5 * shift);
        let q = moved(&m, &r, t, 1.0);
        let tol = if shift > 1e5 { 1e-8 } else { 1e-11 };
        let pq = tetra(&q);
        prop_assert!(close(pq.volume, p.volume, p.volume, tol));
        let want = r * p.centroid.coords + t;
        prop_assert!((pq.centroid.coords - want).norm() <= tol * want.norm().max(1.0));
        let qq = pq.principal();
        for k in 0..3 {
            prop_assert!(close(qq.moments[k], pp.moments[k], pp.moments[2], tol), "{:?} vs {:?}", qq.moments, pp.moments);
        }
        // The tensor rotates: R I Rᵀ.
        let w = r.matrix() * p.inertia * r.matrix().transpose();
        prop_assert!((pq.inertia - w).norm() <= tol * w.norm());
        // Reversed winding: the same body, flagged inside-out.
        let flipped = RawMesh { triangles: q.triangles.iter().map(|t| [t[0], t[2], t[1]]).collect(), ..q.clone() };
        let mesh = Mesh::new(&flipped).unwrap();
        prop_assert!(mesh.inside_out());
        let pf = MeshMethod::Tetra.integrate(&mesh, 0).properties;
        prop_assert!(close(pf.volume, pq.volume, pq.volume, 1e-12));
        prop_assert!((pf.inertia - pq.inertia).norm() <= 1e-12 * pq.inertia.norm());
    }

    #[test]
    fn scaling_laws(m in star_mesh(), s in prop::sample::select(vec![1e-6, 1e-2, 3.0, 1e5])) {
        let p = tetra(&m);
        let q = tetra(&moved(&m, &Rotation3::identity(), Vector3::zeros(), s));
        prop_assert!(close(q.volume, p.volume * s.powi(3), q.volume, 1e-12));
        prop_assert!((q.inertia - p.inertia * s.powi(5)).norm() <= 1e-12 * q.inertia.norm());
    }

    #[test]
    fn combine_is_associative_and_matches_one_mesh(a in star_mesh(), b in star_mesh(), c in star_mesh()) {
        let id = Rotation3::identity();
        let parts = [
            a,
            moved(&b, &id, Vector3::new(10.0, 0.0, 0.0), 1.0),
            moved(&c, &id, Vector3::new(0.0, -10.0, 5.0), 1.0),
        ];
        let [pa, pb, pc] = [0, 1, 2].map(|k| tetra(&parts[k]));
        let left = (pa + pb) + pc;
        let right = pa + (pb + pc);
        let whole = tetra(&union(&parts));
        prop_assert_eq!(Mesh::new(&union(&parts)).unwrap().shell_count(), 3);
        for x in [left, right] {
            prop_assert!(close(x.volume, whole.volume, whole.volume, 1e-12));
            prop_assert!((x.centroid - whole.centroid).norm() <= 1e-12 * 10.0);
            prop_assert!((x.inertia - whole.inertia).norm() <= 1e-11 * whole.inertia.norm(), "{} vs {}", x.inertia, whole.inertia);
        }
    }
}

/// What a random defect does to a mesh.
fn damaged(m: &RawMesh, defect: usize, pick: usize, other: &RawMesh) -> RawMesh {
    let mut m = m.clone();
    let t = pick % m.triangles.len();
    match defect {
        0 => {}
        1 => {
            m.triangles.remove(t);
        }
        2 => m.triangles[t].swap(1, 2),
        3 => m.triangles.push(m.triangles[t]),
        4 => {
            // A degenerate triangle: kept out of the integrals, counted.
            let v = m.triangles[t][0];
            m.triangles.push([v, v, m.triangles[t][1]]);
        }
        5 => {
            m = union(&[
                m,
                moved(
                    other,
                    &Rotation3::identity(),
                    Vector3::new(5.0, 0.0, 0.0),
                    1.0,
                ),
            ])
        }
        6 => {
            let far = moved(
                other,
                &Rotation3::identity(),
                Vector3::new(5.0, 0.0, 0.0),
                1.0,
            );
            let flipped = RawMesh {
                triangles: far.triangles.iter().map(|t| [t[0], t[2], t[1]]).collect(),
                ..far
            };
            m = union(&[m, flipped]);
        }
        7 => {
            for t in &mut m.triangles {
                t.swap(1, 2);
            }
        }
        _ => {
            // Two vertices made one: a pinch, usually an inconsistent surface.
            let [a, b, _] = m.triangles[t];
            m.vertices[b as usize] = m.vertices[a as usize];
        }
    }
    m
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// The parallel path (inertia::soup) answers exactly where the general path does, and
    /// agrees with it; indexed and binary STL alike.
    #[test]
    fn soup_path_agrees_with_the_general_path(
        m in star_mesh(), other in star_mesh(), defect in 0usize..9, pick in 0usize..1000,
        shift in prop::sample::select(vec![0.0, 1e6]),
    ) {
        let m = moved(&damaged(&m, defect, pick, &other), &Rotation3::identity(), Vector3::repeat(shift), 1.0);
        // Binary STL rounds to f32: both paths then read the same rounded file.
        let stl = inertia::io::stl::write_binary(&m);
        let rounded = inertia::io::stl::parse(&stl).unwrap();
        for (raw, fast) in [
            (&m, inertia::details::solid(&inertia::details::IndexedSoup(&m))),
            (&rounded, inertia::details::stl_solid(&stl).unwrap()),
        ] {
            let general = inertia::details::mesh_as_written(raw);
            match (&fast, &general) {
                (Some(s), Ok(mesh)) => {
                    let p = mesh.tetra_integral().unwrap();
                    prop_assert_eq!(s.body.shells, mesh.shell_count());
                    prop_assert_eq!(s.body.cavities, mesh.cavity_count());
                    prop_assert_eq!(s.body.inside_out, mesh.inside_out());
                    prop_assert_eq!(s.body.degenerate_triangles, mesh.degenerate_count());
                    prop_assert_eq!(s.body.vertices, mesh.vertex_count());
                    let size = p.volume.cbrt();
                    prop_assert!(close(s.properties.volume, p.volume, p.volume, 1e-11));
                    prop_assert!((s.properties.centroid - p.centroid).norm() <= 1e-11 * (size + shift));
                    let big = p.inertia.abs().max();
                    prop_assert!((s.properties.inertia - p.inertia).abs().max() <= 1e-8 * big);
                }
                (Some(_), Err(e)) => prop_assert!(false, "soup answered, general refused: {e}"),
                (None, Ok(mesh)) => prop_assert!(false, "soup refused what the general path accepts ({} shells)", mesh.shell_count()),
                (None, Err(_)) => {}
            }
        }
    }
}
