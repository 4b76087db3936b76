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
    // The message says how far apart they are, without naming a flag (the command line
    // adds "--weld-tolerance").
    assert!(e.to_string().contains("are 1e-9 apart"), "{e}");
    assert!(!e.to_string().contains("--"), "{e}");
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

// --- Every variant that carried words now carries facts: one test each, matching on the
// typed fields (the messages are checked only for naming no command-line flag).

use inertia::error::{
    CadFailure, DxfSpace, EdgesMeet, Excess, HoleProblem, InputTriangle, Missing, Need, OverlapAt,
    OverlapKind, Parameter, Repair, Unresolved,
};
use inertia::io::{PolygonFormat, read_raw_mesh, read_raw_meshes_limited};
use inertia::read::read_polygons;
use inertia::shape::Shape2d;

/// A DXF drawing whose ENTITIES section holds `body`.
fn dxf(body: &str) -> Vec<u8> {
    format!("0\nSECTION\n2\nENTITIES\n{body}0\nENDSEC\n0\nEOF\n").into_bytes()
}

/// A DXF LINE with handle `h` from `a` to `b`.
fn line(h: &str, a: (f64, f64), b: (f64, f64)) -> String {
    format!(
        "0\nLINE\n5\n{h}\n8\n0\n10\n{}\n20\n{}\n11\n{}\n21\n{}\n",
        a.0, a.1, b.0, b.1
    )
}

#[test]
fn empty_inputs_say_what_is_missing() {
    let e = read_raw_mesh(b"v 0 0 0\nv 1 0 0\n", MeshFormat::Obj).unwrap_err();
    assert!(
        matches!(
            e,
            Error::Empty {
                missing: Missing::ObjFaces
            }
        ),
        "{e:?}"
    );
    let e = read_raw_mesh(b"", MeshFormat::Stl).unwrap_err();
    assert!(
        matches!(
            e,
            Error::Empty {
                missing: Missing::Bytes
            }
        ),
        "{e:?}"
    );
    let e = Mesh::new(&RawMesh::default()).unwrap_err();
    assert!(
        matches!(
            e,
            Error::Empty {
                missing: Missing::Triangles
            }
        ),
        "{e:?}"
    );
    let e = read_polygons(
        b"{\"type\": \"FeatureCollection\", \"features\": []}",
        PolygonFormat::Geojson,
    )
    .unwrap_err();
    assert!(
        matches!(
            e,
            Error::Empty {
                missing: Missing::GeojsonPolygons
            }
        ),
        "{e:?}"
    );
    // A drawing of one loose line: no outline in the model space, nothing elsewhere.
    let e = read_polygons(&dxf(&line("1", (0.0, 0.0), (1.0, 0.0))), PolygonFormat::Dxf);
    assert!(matches!(e, Err(Error::OpenPiece { .. })), "{e:?}");
    let e = read_polygons(&dxf(""), PolygonFormat::Dxf).unwrap_err();
    assert!(
        matches!(
            &e,
            Error::Empty {
                missing: Missing::Outline {
                    space: DxfSpace::Model,
                    elsewhere: 0,
                    ..
                }
            }
        ),
        "{e:?}"
    );
}

#[test]
fn unresolvable_inputs_carry_their_numbers() {
    // A square 1e300 wide: its area overflows f64.
    let big = 1e300;
    let e = inertia::Polygon::new(vec![[0.0, 0.0], [big, 0.0], [big, big], [0.0, big]], vec![])
        .unwrap_err();
    assert!(
        matches!(
            e,
            Error::Unresolvable {
                what: Unresolved::PolygonAreaOverflow
            }
        ),
        "{e:?}"
    );
    // A cube 1e120 across: its volume fits, its moments do not.
    let mut raw = Shape3d::Box { size: [1.0; 3] }.tessellate(0);
    raw.vertices.iter_mut().flatten().for_each(|x| *x *= 1e120);
    let e = Mesh::new(&raw).unwrap_err();
    assert!(
        matches!(
            e,
            Error::Unresolvable {
                what: Unresolved::MeshOverflow { .. } | Unresolved::ShellOverflow { .. }
            }
        ),
        "{e:?}"
    );
}

#[test]
fn limits_are_too_large_not_parse_errors() {
    let stl = inertia::io::stl::write_binary(&Shape3d::Box { size: [1.0; 3] }.tessellate(0));
    let e = read_raw_meshes_limited(&stl, MeshFormat::Stl, 11).unwrap_err();
    assert!(
        matches!(
            e,
            Error::TooLarge {
                excess: Excess::Triangles { count: 12, max: 11 }
            }
        ),
        "{e:?}"
    );
    // The same limit through the whole pipeline.
    let options = Options {
        max_triangles: 11,
        ..Options::default()
    };
    let e = read_solids(&stl, MeshFormat::Stl, &options).unwrap_err();
    assert!(
        matches!(
            e,
            Error::TooLarge {
                excess: Excess::Triangles { .. }
            }
        ),
        "{e:?}"
    );
    // A voxel grid of 10^10 columns.
    let options = Options {
        methods: vec![inertia::MeshMethod::Voxel],
        resolution: 100_000,
        ..Options::default()
    };
    let e = read_solids(&stl, MeshFormat::Stl, &options).unwrap_err();
    assert!(
        matches!(
            e,
            Error::TooLarge {
                excess: Excess::VoxelColumns {
                    resolution: 100_000,
                    cells: [100_000, 100_000],
                    ..
                }
            }
        ),
        "{e:?}"
    );
    // A stream past its byte limit: the typed error inside the I/O error.
    if std::path::Path::new("/dev/zero").exists() {
        let e = inertia::io::Bytes::open_limited(std::path::Path::new("/dev/zero"), 100)
            .err()
            .unwrap();
        let inner = e.get_ref().and_then(|i| i.downcast_ref::<Error>());
        assert!(
            matches!(
                inner,
                Some(Error::TooLarge {
                    excess: Excess::Stream { max: 100 }
                })
            ),
            "{e:?}"
        );
    }
}

#[test]
fn open_and_badly_wound_meshes_name_triangles_and_points() {
    let mut raw = Shape3d::Box { size: [1.0; 3] }.tessellate(0);
    let gone = raw.triangles.pop().unwrap();
    let Error::OpenMesh { edge, triangle, .. } = Mesh::new(&raw).unwrap_err() else {
        panic!()
    };
    // The edge is one of the missing triangle's, by its points.
    let corners: Vec<[f64; 3]> = gone.iter().map(|&i| raw.vertices[i as usize]).collect();
    assert!(edge.iter().all(|p| corners.contains(p)), "{edge:?}");
    assert!(triangle.number >= 1 && triangle.number <= 11 && triangle.line.is_none());
    // An OBJ names the line too.
    let obj = boxes_obj(&[([0.0; 3], [1.0; 3], false)]);
    let mut lines: Vec<&str> = obj.lines().collect();
    lines.pop();
    let obj = lines.join("\n") + "\n";
    let e = solids(&obj).unwrap_err();
    let Error::OpenMesh {
        triangle: InputTriangle { line: Some(l), .. },
        ..
    } = e
    else {
        panic!("{e:?}")
    };
    assert!(l > 8, "{l}");
    // One face flipped: two triangles use an edge the same way (as written; the one path
    // turns it back).
    let mut raw = Shape3d::Box { size: [1.0; 3] }.tessellate(0);
    raw.triangles[0].swap(1, 2);
    let e = inertia::details::mesh_as_written(&raw).unwrap_err();
    let Error::InconsistentWinding {
        first,
        second,
        edge,
    } = e
    else {
        panic!("{e:?}")
    };
    assert!(first.number != second.number && (first.number == 1 || second.number == 1));
    assert!(edge[0] != edge[1]);
}

#[test]
fn a_misplaced_shell_names_its_first_triangle() {
    let obj = boxes_obj(&[
        ([0.0; 3], [1.0; 3], false),
        ([5.0, 0.0, 0.0], [1.0; 3], true),
    ]);
    let e = solids(&obj).unwrap_err();
    let Error::BadShell {
        shell: 2, first, ..
    } = e
    else {
        panic!("{e:?}")
    };
    // The second box's triangles are 13..=24, on lines 17.. of the OBJ.
    assert_eq!(first.number, 13);
    assert!(first.line.is_some());
}

#[test]
fn overlapping_bodies_say_which_triangles_and_where() {
    let cross = boxes_obj(&[
        ([0.0, 1.0, 0.0], [4.0, 2.0, 2.0], false),
        ([1.0, 0.0, -1.0], [2.0, 4.0, 4.0], false),
    ]);
    let e = solids(&cross).unwrap_err();
    let Error::Overlapping {
        at:
            OverlapAt {
                triangles: [a, b],
                kind: OverlapKind::Cross(p),
                ..
            },
        sum_allowed: true,
    } = &e
    else {
        panic!("{e:?}")
    };
    // One triangle of each box (12 each), the crossing inside both boxes' common box.
    assert!(*a <= 12 && *b > 12, "{a} {b}");
    assert!(
        (1.0..=3.0).contains(&p[0]) && (1.0..=3.0).contains(&p[1]),
        "{p:?}"
    );
    assert!((0.0..=2.0).contains(&p[2]), "{p:?}");
}

#[test]
fn polygon_defects_are_enums() {
    // A bow tie: two edges cross at (0.5, 0.5).
    let e = inertia::Polygon::new(vec![[0.0, 0.0], [1.0, 1.0], [0.0, 1.0], [1.0, 0.0]], vec![])
        .unwrap_err();
    let Error::SelfIntersection {
        kind: EdgesMeet::Cross,
        x,
        y,
        ..
    } = e
    else {
        panic!("{e:?}")
    };
    assert_eq!((x, y), (0.5, 0.5));
    let square = |o: f64, s: f64| vec![[o, o], [o + s, o], [o + s, o + s], [o, o + s]];
    let e = inertia::Polygon::new(square(0.0, 10.0), vec![square(20.0, 1.0)]).unwrap_err();
    assert!(
        matches!(
            e,
            Error::BadHole {
                hole: 1,
                problem: HoleProblem::OutsideOuter
            }
        ),
        "{e:?}"
    );
    let e = inertia::Polygon::new(square(0.0, 10.0), vec![square(1.0, 5.0), square(2.0, 1.0)])
        .unwrap_err();
    assert!(
        matches!(
            e,
            Error::BadHole {
                hole: 2,
                problem: HoleProblem::InsideHole(1)
            }
        ),
        "{e:?}"
    );
}

#[test]
fn overlapping_parts_of_a_file_say_how_they_meet() {
    // A MultiPolygon of two squares, the second inside the first, then crossing it.
    let multi = |second: &str| {
        format!(
            r#"{{"type": "MultiPolygon", "coordinates": [[[[0, 0], [4, 0], [4, 4], [0, 4], [0, 0]]], [{second}]]}}"#
        )
    };
    let inside = multi("[[1, 1], [2, 1], [2, 2], [1, 2], [1, 1]]");
    let e = read_polygons(inside.as_bytes(), PolygonFormat::Geojson).unwrap_err();
    assert!(
        matches!(
            e,
            Error::Overlap {
                how: inertia::error::PartsMeet::Inside,
                ..
            }
        ),
        "{e:?}"
    );
    let crossing = multi("[[3, 1], [5, 1], [5, 2], [3, 2], [3, 1]]");
    let e = read_polygons(crossing.as_bytes(), PolygonFormat::Geojson).unwrap_err();
    let Error::Overlap {
        how:
            inertia::error::PartsMeet::Edges {
                kind: EdgesMeet::Cross,
                at,
            },
        ..
    } = e
    else {
        panic!("{e:?}")
    };
    assert_eq!(at[0], 4.0);
}

#[test]
fn parameters_are_named_by_kind() {
    let e = inertia::positive(Parameter::Density, 0.0).unwrap_err();
    assert!(matches!(
        e,
        Error::InvalidParameter {
            name: Parameter::Density,
            need: Need::Positive,
            ..
        }
    ));
    let e = Shape2d::Regular {
        sides: 2,
        side: 1.0,
    }
    .validate()
    .unwrap_err();
    assert!(
        matches!(
            e,
            Error::InvalidParameter {
                name: Parameter::Sides,
                value: 2.0,
                need: Need::AtLeast(3.0),
            }
        ),
        "{e:?}"
    );
    let e = Shape3d::Biconvex {
        width: 1.0,
        height: 2.0,
    }
    .validate()
    .unwrap_err();
    assert!(
        matches!(
            e,
            Error::InvalidParameter {
                name: Parameter::Height,
                need: Need::AtMost {
                    other: Parameter::Width,
                    value: 1.0
                },
                ..
            }
        ),
        "{e:?}"
    );
    let e = inertia::About::Point(vec![1.0, 2.0, 3.0])
        .resolve(&[0.0, 0.0])
        .unwrap_err();
    assert!(
        matches!(e, Error::PointDimension { needed: 2, got: 3 }),
        "{e:?}"
    );
}

#[test]
fn drawing_pieces_that_do_not_close() {
    // A rectangle whose last side stops 0.0001 short: the gap is noise beside it.
    let body = [
        line("E1", (0.0, 0.0), (4.0, 0.0)),
        line("E2", (4.0, 0.0), (4.0, 2.0)),
        line("E3", (4.0, 2.0), (0.0, 2.0)),
        line("E4", (0.0, 2.0), (0.0, 0.0001)),
    ]
    .concat();
    let e = read_polygons(&dxf(&body), PolygonFormat::Dxf).unwrap_err();
    let Error::OpenPiece {
        piece,
        nearest: Some(d),
        joinable: true,
        ..
    } = &e
    else {
        panic!("{e:?}")
    };
    assert!(piece.starts_with("LINE E"), "{piece}");
    assert!((d - 0.0001).abs() < 1e-12, "{d}");
}

/// One value of every variant (and every kind of each) whose message the library words:
/// none names a command-line flag.
#[test]
fn no_library_message_names_a_flag() {
    let t = |n| InputTriangle {
        number: n,
        line: Some(3),
    };
    let at = |kind| OverlapAt {
        triangles: [1, 2],
        kind,
        depth: Some(1e-3),
        tolerance: 1e-6,
    };
    let p = [1.0, 2.0, 3.0];
    let mut all: Vec<Error> = vec![
        Error::parse("line 1", "x"),
        Error::NonFiniteCoordinate {
            ring: inertia::Ring::Outer,
            vertex: 1,
            value: f64::NAN,
        },
        Error::TooFewPoints {
            ring: inertia::Ring::Hole(1),
            count: 2,
        },
        Error::ZeroArea {
            ring: inertia::Ring::Outer,
        },
        Error::SelfIntersection {
            ring_a: inertia::Ring::Outer,
            edge_a: 1,
            ring_b: inertia::Ring::Outer,
            edge_b: 3,
            kind: EdgesMeet::Touch,
            x: 0.0,
            y: 1.0,
        },
        Error::BadHole {
            hole: 1,
            problem: HoleProblem::InsideHole(2),
        },
        Error::OpenMesh {
            boundary_edges: 3,
            edge: [p, p],
            triangle: t(4),
            nearest_gap: Some(1e-9),
        },
        Error::AllDegenerate { triangles: 2 },
        Error::ShellsIntersect { total_volume: -1.0 },
        Error::RepairTooLarge {
            repair: Repair::Contacts {
                count: 2,
                max_depth: 1e-4,
                crossing: Some([1, 2]),
            },
            bound: 1e-3,
            relative: 1e-5,
            tolerance: 1e-6,
        },
        Error::RepairTooLarge {
            repair: Repair::Junctions {
                points: 1,
                largest_offset: 1e-4,
            },
            bound: 1e-3,
            relative: 1e-5,
            tolerance: 1e-6,
        },
        Error::Unphysical {
            volume: 1.0,
            moments: [1.0, 2.0, 4.0],
        },
        Error::NotSolid,
        Error::InconsistentWinding {
            first: t(1),
            second: t(2),
            edge: [p, p],
        },
        Error::in_part("cube", Error::NotSolid),
        Error::Overlap {
            first: "a".into(),
            second: "b".into(),
            how: inertia::error::PartsMeet::Inside,
        },
        Error::Overlap {
            first: "a".into(),
            second: "b".into(),
            how: inertia::error::PartsMeet::Edges {
                kind: EdgesMeet::Overlap,
                at: [1.0, 2.0],
            },
        },
        Error::Cad {
            failure: CadFailure::Open,
            message: "open shell".into(),
        },
        Error::SolidsOverlap {
            first: "a".into(),
            second: "b".into(),
            volume: 1.0,
        },
        Error::PointDimension { needed: 3, got: 2 },
        Error::OpenPiece {
            piece: "LINE 1".into(),
            from: [0.0, 0.0],
            to: [1.0, 0.0],
            end: [0.0, 0.0],
            nearest: Some(1e-4),
            joinable: true,
        },
        Error::NearMiss {
            piece: "LINE 1".into(),
            end: [0.0, 0.0],
            other: None,
            gap: 1e-4,
            tolerance: 1e-6,
        },
        Error::FileChanged {
            path: "part.stl".into(),
        },
        Error::NotRepresentable {
            field: "volume".into(),
            problem: inertia::error::NumberProblem::Underflow,
        },
        Error::NotRepresentable {
            field: "centroid[0]".into(),
            problem: inertia::error::NumberProblem::NotFinite,
        },
        Error::Spline {
            entity: "SPLINE 5B".into(),
            problem: inertia::error::SplineProblem::TooManyPoints {
                max: 10,
                tolerance: 1e-9,
            },
        },
    ];
    for problem in [
        inertia::error::ShellProblem::Flat,
        inertia::error::ShellProblem::TouchesAnother,
        inertia::error::ShellProblem::InwardOutside,
        inertia::error::ShellProblem::OutwardInside,
        inertia::error::ShellProblem::CavityOutside,
    ] {
        all.push(Error::BadShell {
            shell: 2,
            first: t(13),
            problem,
        });
    }
    for kind in [
        OverlapKind::Cross(p),
        OverlapKind::Coincide(p),
        OverlapKind::Wedge(p, p),
        OverlapKind::Sunk(p, p),
        OverlapKind::Unsettled(p, 1e-7),
        OverlapKind::Doubled(p),
    ] {
        for sum_allowed in [false, true] {
            all.push(Error::Overlapping {
                at: at(kind.clone()),
                sum_allowed,
            });
        }
    }
    for missing in [
        Missing::Bytes,
        Missing::Points,
        Missing::Triangles,
        Missing::ObjFaces,
        Missing::PlyFaces,
        Missing::ReportParts,
        Missing::BuildItems {
            support: 1,
            other: 2,
            surface: 3,
        },
        Missing::Outline {
            space: DxfSpace::Model,
            layers: vec!["0".into()],
            elsewhere: 4,
        },
        Missing::Outline {
            space: DxfSpace::Layout("A".into()),
            layers: vec![],
            elsewhere: 0,
        },
        Missing::GeojsonPolygons,
        Missing::Layout {
            name: "A".into(),
            layouts: vec![],
        },
        Missing::Solid(2),
    ] {
        all.push(Error::Empty { missing });
    }
    all.push(Error::GeojsonDegrees {
        crs: inertia::crs::Crs::Unnamed,
        beyond: None,
        utm: Some(32632),
    });
    all.push(Error::GeojsonDegrees {
        crs: inertia::crs::Crs::Other("EPSG:32633".into()),
        beyond: Some([4.5e5, 5.4e6]),
        utm: None,
    });
    all.push(Error::GeojsonDegrees {
        crs: inertia::crs::Crs::Unnamed,
        beyond: Some([4.5e5, 5.4e6]),
        utm: None,
    });
    all.push(Error::GeojsonGeographic {
        crs: "EPSG:4326".into(),
    });
    all.push(Error::GeojsonWebMercator {
        crs: "EPSG:3857".into(),
        latitude: [50.0, 50.01],
        area_factor: [2.4175, 2.4184],
        utm: Some(32632),
    });
    let first = t(1);
    for what in [
        Unresolved::PolygonAreaOverflow,
        Unresolved::PolygonArea {
            about_first: 1.0,
            about_centroid: 2.0,
        },
        Unresolved::PolygonMoments {
            ixx: -1.0,
            iyy: 1.0,
            ixy: 0.0,
        },
        Unresolved::PolygonMethods {
            method: "fan",
            polar: 1.0,
            trace: 2.0,
        },
        Unresolved::CurvedEdge {
            ring: inertia::Ring::Outer,
            vertex: 1,
        },
        Unresolved::MeshVolume {
            volume: 1.0,
            error: 1.0,
        },
        Unresolved::MeshOverflow { moment: true },
        Unresolved::ShellOverflow { shell: 1, first },
        Unresolved::ShellVolume {
            shell: 1,
            first,
            volume: 1.0,
            error: 1.0,
        },
        Unresolved::VoxelGrid {
            cells: [2, 2],
            cell_size: [1.0, 1.0],
        },
    ] {
        all.push(Error::Unresolvable { what });
    }
    for excess in [
        Excess::Triangles { count: 5, max: 4 },
        Excess::BuildTriangles { count: 5, max: 4 },
        Excess::BuildVertices { count: 5, max: 4 },
        Excess::Memory {
            count: 5,
            triangles: true,
        },
        Excess::VoxelColumns {
            resolution: 100_000,
            cells: [100_000, 100_000],
            max: 1e10,
        },
        Excess::Vertices { count: 5, max: 4 },
        Excess::Entities {
            count: Some(u64::MAX),
            copies: false,
            max: 4,
        },
        Excess::Entities {
            count: None,
            copies: true,
            max: 4,
        },
        Excess::ChordPoints { count: 5, max: 4 },
        Excess::Stream { max: 4 },
    ] {
        all.push(Error::TooLarge { excess });
    }
    for name in [
        Parameter::Density,
        Parameter::Mass,
        Parameter::Thickness,
        Parameter::ShellThickness,
        Parameter::WeldTolerance,
        Parameter::JoinTolerance,
        Parameter::Size,
        Parameter::Radius,
        Parameter::Circumradius,
        Parameter::Height,
        Parameter::Width,
        Parameter::Side,
        Parameter::Sides,
    ] {
        for need in [
            Need::Positive,
            Need::AtLeast(3.0),
            Need::AtMost {
                other: Parameter::Width,
                value: 1.0,
            },
        ] {
            all.push(Error::InvalidParameter {
                name,
                value: -1.0,
                need,
            });
        }
    }
    for e in &all {
        let text = e.to_string();
        assert!(!text.contains("--"), "{e:?} says {text}");
        assert!(!text.contains('\n'), "{e:?} says {text}");
    }
}

#[test]
fn splines_and_unrepresentable_results_are_typed() {
    use inertia::error::{NumberProblem, SplineProblem};
    // A SPLINE of degree 2 with 3 control points and 2 knots.
    let spline = "0\nSPLINE\n5\n5B\n8\n0\n71\n2\n40\n0\n40\n1\n10\n0\n20\n0\n30\n0\n10\n1\n20\n1\n30\n0\n10\n2\n20\n0\n30\n0\n";
    let e = read_polygons(&dxf(spline), PolygonFormat::Dxf).unwrap_err();
    let Error::Spline {
        entity,
        problem:
            SplineProblem::KnotCount {
                knots: 2,
                points: 3,
                degree: 2,
            },
    } = &e
    else {
        panic!("{e:?}")
    };
    assert!(entity.starts_with("SPLINE 5B"), "{entity}");
    // A cube 1e-100 across: its moments underflow.
    let tiny = Mesh::new(&Shape3d::Box { size: [1e-100; 3] }.tessellate(0)).unwrap();
    let r = inertia::report::MeshReport::new(
        "tiny",
        &tiny,
        inertia::MeshMethod::Tetra,
        0,
        inertia::Amount::Density(1.0),
        None,
    );
    let e = inertia::report::check_numbers(&r).unwrap_err();
    assert!(
        matches!(
            &e,
            Error::NotRepresentable {
                problem: NumberProblem::Underflow,
                ..
            }
        ),
        "{e:?}"
    );
}

#[test]
fn parse_errors_say_where_as_a_place() {
    use inertia::error::Place;
    let e = read_raw_mesh(b"v 0 0 0\nv 1 0 x\n", MeshFormat::Obj).unwrap_err();
    assert!(
        matches!(
            e,
            Error::Parse {
                place: Place::Line {
                    line: 2,
                    column: None
                },
                ..
            }
        ),
        "{e:?}"
    );
    let e = read_polygons(b"[[0, 0], [1, 0],\n [1, 1], oops]", PolygonFormat::Json).unwrap_err();
    assert!(
        matches!(
            e,
            Error::Parse {
                place: Place::Line {
                    line: 2,
                    column: Some(_)
                },
                ..
            }
        ),
        "{e:?}"
    );
    // A binary STL whose second triangle holds an infinity.
    let mut raw = Shape3d::Box { size: [1.0; 3] }.tessellate(0);
    let bad = raw.triangles[1][0] as usize;
    raw.vertices.push([f64::INFINITY, 0.0, 0.0]);
    raw.triangles[1][0] = (raw.vertices.len() - 1) as u32;
    let stl = inertia::io::stl::write_binary(&raw);
    let e = read_raw_mesh(&stl, MeshFormat::Stl).unwrap_err();
    assert!(
        matches!(
            e,
            Error::Parse {
                place: Place::Triangle(2),
                ..
            }
        ),
        "{e:?} (vertex {bad})"
    );
    let ply = b"ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1 9\n";
    let e = read_raw_mesh(ply, MeshFormat::Ply).unwrap_err();
    assert!(
        matches!(
            e,
            Error::Parse {
                place: Place::Face(1),
                ..
            }
        ),
        "{e:?}"
    );
}
