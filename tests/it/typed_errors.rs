//! Mesh defects come back as typed `Error` variants a library user can match on, with the
//! facts in fields (not only in the message).

use crate::common::boxes_obj;
use inertia::error::ShellProblem;
use inertia::io::MeshFormat;
use inertia::shape::Shape3d;
use inertia::solid::{Options, read_solids};
use inertia::{Error, Mesh, RawMesh};

fn solids(obj: &str) -> Result<Vec<inertia::Solid>, Error> {
    read_solids(obj.as_bytes(), MeshFormat::Obj, &Options::default())
}

#[test]
fn an_open_mesh_says_how_open() {
    let mut raw = Shape3d::Box { size: [1.0; 3] }.tessellate(0);
    raw.triangles.pop();
    let e = Mesh::new(&raw).unwrap_err();
    assert!(
        matches!(
            e,
            Error::OpenMesh {
                boundary_edges: 3,
                nearest_gap: None,
                ..
            }
        ),
        "{e:?}"
    );
    // A corner moved by 1e-9 (far more than rounding, far less than an edge): the gap is
    // reported, with the tolerance that would close it.
    let obj = boxes_obj(&[([0.0; 3], [1.0; 3], false)]).replacen(
        "v 0 0 0\n",
        "v 0 0 0\nv 0.000000001 0 0\n",
        1,
    );
    let obj = renumber_first_face_corner(&obj);
    let e = solids(&obj).unwrap_err();
    let Error::OpenMesh {
        nearest_gap: Some(d),
        ..
    } = e
    else {
        panic!("{e:?}")
    };
    assert!((d - 1e-9).abs() < 1e-12, "{d}");
    assert!(e.to_string().contains("--weld-tolerance"), "{e}");
}

/// Makes the first face use vertex 2 (the moved copy of vertex 1) instead of vertex 1.
fn renumber_first_face_corner(obj: &str) -> String {
    let mut out = String::new();
    let mut done = false;
    for line in obj.lines() {
        let mut l = line.to_string();
        if let Some(rest) = line.strip_prefix("f ") {
            // Every index after the inserted vertex moves up by one; the first face's
            // vertex 1 becomes the moved copy (2).
            let idx: Vec<usize> = rest
                .split_whitespace()
                .map(|v| v.parse::<usize>().unwrap())
                .map(|v| if v == 1 { 1 } else { v + 1 })
                .collect();
            let idx: Vec<String> = idx
                .iter()
                .map(|&v| {
                    if !done && v == 1 {
                        "2".to_string()
                    } else {
                        v.to_string()
                    }
                })
                .collect();
            done = true;
            l = format!("f {}", idx.join(" "));
        }
        out += &l;
        out.push('\n');
    }
    out
}

#[test]
fn degenerate_flat_and_misplaced_shells() {
    let raw = RawMesh {
        vertices: vec![[0.0; 3], [1.0, 1.0, 1.0], [2.0, 2.0, 2.0]],
        triangles: vec![[0, 1, 2], [0, 2, 1]],
        lines: vec![],
    };
    assert!(matches!(
        Mesh::new(&raw).unwrap_err(),
        Error::AllDegenerate { triangles: 2 }
    ));
    // Two separate boxes, the second wound inward but inside nothing.
    let obj = boxes_obj(&[
        ([0.0; 3], [1.0; 3], false),
        ([5.0, 0.0, 0.0], [1.0; 3], true),
    ]);
    let e = solids(&obj).unwrap_err();
    assert!(
        matches!(
            e,
            Error::BadShell {
                shell: 2,
                problem: ShellProblem::InwardOutside,
                ..
            }
        ),
        "{e:?}"
    );
}

#[test]
fn overlapping_bodies_and_open_surfaces() {
    // Two bars crossing, neither holding a corner of the other: each is a sound body, so
    // summing them as they are (`--overlap sum`) is offered.
    let cross = boxes_obj(&[
        ([0.0, 1.0, 0.0], [4.0, 2.0, 2.0], false),
        ([1.0, 0.0, -1.0], [2.0, 4.0, 4.0], false),
    ]);
    let e = solids(&cross).unwrap_err();
    assert!(
        matches!(
            e,
            Error::Overlapping {
                sum_allowed: true,
                ..
            }
        ),
        "{e:?}"
    );
    // A box with a corner inside another: refused as overlapping too (not as a misplaced
    // shell), and summing offered, which adds them.
    let corner = boxes_obj(&[
        ([0.0; 3], [2.0; 3], false),
        ([1.0, 0.5, 0.5], [2.0, 1.0, 1.0], false),
    ]);
    let e = solids(&corner).unwrap_err();
    assert!(
        matches!(
            e,
            Error::Overlapping {
                sum_allowed: true,
                ..
            }
        ),
        "{e:?}"
    );
    let sum = Options {
        overlap: inertia::solid::OverlapPolicy::Sum,
        ..Options::default()
    };
    let s = read_solids(corner.as_bytes(), MeshFormat::Obj, &sum).unwrap();
    assert!((s[0].integrals[0].properties.volume - 10.0).abs() < 1e-12);
    // Two cubes offset by half: every crossing lies exactly on a face's diagonal. Refused
    // as an overlap, not with advice to fix the triangles' orientation.
    let half = boxes_obj(&[([0.0; 3], [2.0; 3], false), ([1.0; 3], [2.0; 3], false)]);
    let e = solids(&half).unwrap_err();
    assert!(matches!(e, Error::Overlapping { .. }), "{e:?}");
    let mut raw = Shape3d::Box { size: [1.0; 3] }.tessellate(0);
    raw.triangles.pop();
    let surface = Mesh::surface(&raw).unwrap();
    assert!(matches!(
        surface.mass_properties(1.0).unwrap_err(),
        Error::NotSolid
    ));
}
