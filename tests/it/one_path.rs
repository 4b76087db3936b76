//! One path from raw triangles to a validated mesh: the library's `Mesh::new` (and
//! `Mesh::with_checks`) runs every check and every repair the command line runs, so a
//! program answers exactly what `inertia mesh` answers and refuses what it refuses. Each
//! case below is given to both: as a `RawMesh` to the library, and as an OBJ (every value
//! exact) and a binary STL (values exact in `f32`) to `read_solids`, which takes the
//! parallel shortcut first on an STL. They must agree: the same volume and the same
//! repairs, or the same refusal.

use inertia::io::MeshFormat;
use inertia::mesh::Repairs;
use inertia::shape::Shape3d;
use inertia::solid::{Options, OverlapPolicy, read_solids};
use inertia::{Error, Mesh, RawMesh, Warning};

/// A box of `size` from `lo`, twelve triangles wound outward.
fn cuboid(lo: [f64; 3], size: [f64; 3]) -> RawMesh {
    let mut m = Shape3d::Box { size }.tessellate(0);
    let half = size.map(|s| s / 2.0);
    for p in &mut m.vertices {
        for a in 0..3 {
            p[a] += lo[a] + half[a];
        }
    }
    m
}

/// The bodies in one mesh.
fn together(bodies: &[RawMesh]) -> RawMesh {
    let mut m = RawMesh::default();
    for b in bodies {
        let base = m.vertices.len() as u32;
        m.vertices.extend_from_slice(&b.vertices);
        m.triangles
            .extend(b.triangles.iter().map(|t| t.map(|v| v + base)));
    }
    m
}

/// The unit cube with its top face's triangle `t` split at the middle of its edge `k`,
/// the new corner left out of the side face across that edge: a T-junction, open edge
/// to edge, closed as a set of points.
fn cube_with_junction() -> RawMesh {
    let mut m = cuboid([0.0; 3], [1.0; 3]);
    // A top triangle: every corner at z = 1.
    let t = (0..m.triangles.len())
        .find(|&t| {
            m.triangles[t]
                .iter()
                .all(|&v| m.vertices[v as usize][2] == 1.0)
        })
        .unwrap();
    let [a, b, c] = m.triangles[t];
    let (pa, pb) = (m.vertices[a as usize], m.vertices[b as usize]);
    m.vertices.push([0, 1, 2].map(|i| (pa[i] + pb[i]) / 2.0));
    let mid = m.vertices.len() as u32 - 1;
    m.triangles[t] = [a, mid, c];
    m.triangles.push([mid, b, c]);
    m
}

/// The cases: (name, mesh, whether its values are exact in `f32`).
fn cases() -> Vec<(&'static str, RawMesh, bool)> {
    let cube = cuboid([0.0; 3], [1.0; 3]);
    let mut turned = cube.clone();
    turned.triangles[4].swap(1, 2);
    let mut inside_out = cube.clone();
    for t in &mut inside_out.triangles {
        t.swap(1, 2);
    }
    let mut open = cube.clone();
    open.triangles.pop();
    // A corner written as -1.7e-17 beside its twin at 0 (as CAD exports write them).
    let mut noise = cube.clone();
    let zero = noise
        .vertices
        .iter()
        .position(|p| p.iter().all(|&x| x == 0.0))
        .unwrap();
    noise.vertices.push([-1.7e-17, 0.0, 0.0]);
    let twin = noise.vertices.len() as u32 - 1;
    let first = noise
        .triangles
        .iter()
        .position(|t| t.contains(&(zero as u32)))
        .unwrap();
    for v in &mut noise.triangles[first] {
        if *v == zero as u32 {
            *v = twin;
        }
    }
    let mut cavity = cuboid([0.25; 3], [0.5; 3]);
    for t in &mut cavity.triangles {
        t.swap(1, 2);
    }
    vec![
        ("a cube", cube.clone(), true),
        ("a triangle listed the other way round", turned, true),
        ("a cube inside out", inside_out, true),
        ("an open cube", open, true),
        ("a corner 1.7e-17 off its twin", noise, false),
        ("a T-junction", cube_with_junction(), true),
        (
            "a cube with a cavity",
            together(&[cube.clone(), cavity]),
            true,
        ),
        (
            "two cubes face to face",
            together(&[cube.clone(), cuboid([1.0, 0.25, 0.0], [1.0; 3])]),
            true,
        ),
        (
            "two cubes overlapping",
            together(&[cube.clone(), cuboid([0.5; 3], [1.0; 3])]),
            true,
        ),
        (
            "two cubes crossing 1e-9 deep",
            together(&[
                cube.clone(),
                cuboid([1.0 - 1e-9, -0.5, -0.5], [1.0, 2.0, 2.0]),
            ]),
            false,
        ),
        (
            "two cubes crossing 1e-9 deep, offset",
            together(&[cube.clone(), cuboid([1.0 - 1e-9, 0.25, 0.25], [1.0; 3])]),
            false,
        ),
        ("a cube twice", together(&[cube.clone(), cube]), true),
    ]
}

/// An OBJ of `m`, every value written exactly.
fn obj(m: &RawMesh) -> Vec<u8> {
    let mut s = String::new();
    for p in &m.vertices {
        s += &format!("v {:?} {:?} {:?}\n", p[0], p[1], p[2]);
    }
    for t in &m.triangles {
        s += &format!("f {} {} {}\n", t[0] + 1, t[1] + 1, t[2] + 1);
    }
    s.into_bytes()
}

/// What the command line's reader gives for the repairs, from a body's report and warnings.
fn repairs_said(s: &inertia::Solid) -> (Option<usize>, bool) {
    let reoriented = s.warnings.iter().find_map(|w| match w {
        Warning::Reoriented { count } => Some(*count),
        _ => None,
    });
    let joined = s
        .warnings
        .iter()
        .any(|w| matches!(w, Warning::PointsJoined { .. }));
    (reoriented, joined)
}

/// Holds the library's answer for `raw` to the command line's for `bytes`.
fn agree(name: &str, raw: &RawMesh, bytes: &[u8], format: MeshFormat, options: &Options) {
    let lib = Mesh::with_checks(raw, &options.checks());
    let cli = read_solids(bytes, format, options);
    match (lib, cli) {
        (Ok(mesh), Ok(solids)) => {
            assert_eq!(solids.len(), 1, "{name}");
            let s = &solids[0];
            let v = mesh.tetra_integral().unwrap().volume;
            let w = s.integrals[0].properties.volume;
            assert!((v - w).abs() <= 1e-14 * v.abs(), "{name}: {v} and {w}");
            let r: &Repairs = mesh.repairs();
            assert_eq!(r.junctions, s.body.junctions, "{name}");
            assert_eq!(r.contacts, s.body.contacts, "{name}");
            assert_eq!(
                (r.reoriented, r.joined.is_some()),
                repairs_said(s),
                "{name}"
            );
            assert_eq!(mesh.inside_out(), s.body.inside_out, "{name}");
        }
        (Err(a), Err(b)) => {
            // The same refusal (the reader's adds the file's line numbers).
            let b = match b {
                Error::InPart { error, .. } => *error,
                b => b,
            };
            assert_eq!(
                std::mem::discriminant(&a),
                std::mem::discriminant(&b),
                "{name}: {a} / {b}"
            );
        }
        (a, b) => panic!(
            "{name}: the library says {:?}, the command line {:?}",
            a.map(|m| m.tetra_integral().map(|p| p.volume)),
            b.map(|s| s[0].integrals[0].properties.volume)
        ),
    }
}

#[test]
fn the_library_answers_and_refuses_what_the_command_line_does() {
    let sum = Options {
        overlap: OverlapPolicy::Sum,
        ..Options::default()
    };
    let strict = Options {
        repair_tolerance: 1e-12,
        ..Options::default()
    };
    for (name, raw, f32_exact) in cases() {
        for options in [&Options::default(), &sum, &strict] {
            agree(name, &raw, &obj(&raw), MeshFormat::Obj, options);
            if f32_exact {
                let stl = inertia::io::stl::write_binary(&raw);
                agree(name, &raw, &stl, MeshFormat::Stl, options);
            }
        }
    }
}

#[test]
fn repairs_are_made_and_recorded_by_the_library() {
    let by_name = |wanted: &str| {
        cases()
            .into_iter()
            .find(|(name, _, _)| *name == wanted)
            .unwrap()
            .1
    };
    // Turned back: no point moves, the volume is the cube's.
    let m = Mesh::new(&by_name("a triangle listed the other way round")).unwrap();
    assert_eq!(m.repairs().reoriented, Some(1));
    assert_eq!(m.tetra_integral().unwrap().volume, 1.0);
    // Split at the junction: exact, its bound 0.
    let m = Mesh::new(&by_name("a T-junction")).unwrap();
    let j = m.repairs().junctions.unwrap();
    assert_eq!((j.points, j.volume_bound), (1, 0.0));
    assert_eq!(m.tetra_integral().unwrap().volume, 1.0);
    // Joined within the corner's own rounding.
    let m = Mesh::new(&by_name("a corner 1.7e-17 off its twin")).unwrap();
    assert_eq!(m.repairs().joined.map(|j| j.points), Some(1));
    // Two cubes crossing 1e-9 deep: touching, within a bound of 1e-9 of a unit face.
    let m = Mesh::new(&by_name("two cubes crossing 1e-9 deep")).unwrap();
    let c = m.repairs().contacts.unwrap();
    assert!(
        c.count > 0 && c.max_depth <= 1.1e-9 && c.volume_bound < 1e-8,
        "{c:?}"
    );
    // Refused by a strict tolerance, with the bound that would accept it.
    let strict = inertia::tolerance::Checks {
        repair_tolerance: 1e-12,
        ..Default::default()
    };
    let e = Mesh::with_checks(&by_name("two cubes crossing 1e-9 deep"), &strict).unwrap_err();
    assert!(matches!(e, Error::RepairTooLarge { .. }), "{e}");
    // A clean cube needs nothing.
    assert_eq!(
        *Mesh::new(&by_name("a cube")).unwrap().repairs(),
        Repairs::default()
    );
}

#[test]
fn copies_over_one_another_are_refused_as_overlapping() {
    // At one spot (a face written 300 times) and each 1e-4 from the last (every copy
    // crossing the next): the shell check stops at the first shell it cannot place, and
    // the overlap check names two triangles of the first copies.
    for step in [0.0, 1e-4] {
        let copies: Vec<RawMesh> = (0..300)
            .map(|k| cuboid([k as f64 * step, 0.0, 0.0], [1.0; 3]))
            .collect();
        let raw = together(&copies);
        for bytes in [obj(&raw), inertia::io::stl::write_binary(&raw)] {
            let format = if bytes.starts_with(b"v ") {
                MeshFormat::Obj
            } else {
                MeshFormat::Stl
            };
            let e = read_solids(&bytes, format, &Options::default()).unwrap_err();
            let Error::Overlapping { at, .. } = &e else {
                panic!("{step}: {e}")
            };
            assert!(at.triangles[1] <= 24 * 12, "{step}: {e}");
        }
        assert!(matches!(Mesh::new(&raw), Err(Error::Overlapping { .. })));
    }
}
