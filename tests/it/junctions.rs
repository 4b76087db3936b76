//! T-junctions, as exporters that tessellate each face on its own write them: a box whose
//! top face is cut at points of its edges while its sides are not. Closed as a set of
//! points, open edge to edge: the sides are split at those points, with a warning, and the
//! volume is the box's, turned, far from the origin, in 17-digit OBJ, 6-digit ASCII STL and
//! f32 binary STL. A point off the edge by more than rounding is a gap, refused as open.

use super::contacts::{Body, obj, run, run_accepting, stl6, stl32, turned, volume};

/// A box `a × b × h` from the origin whose top face is fanned from its centre through the
/// midpoints of its four edges (`dent` moves the first midpoint out of the front face),
/// while each side face is two triangles: four T-junctions.
fn box_with_junctions(a: f64, b: f64, h: f64, dent: f64) -> Body {
    let v = vec![
        // Bottom 0-3, top 4-7.
        [0.0, 0.0, 0.0],
        [a, 0.0, 0.0],
        [a, b, 0.0],
        [0.0, b, 0.0],
        [0.0, 0.0, h],
        [a, 0.0, h],
        [a, b, h],
        [0.0, b, h],
        // The top edges' midpoints 8-11, the top's centre 12.
        [a / 2.0, -dent, h],
        [a, b / 2.0, h],
        [a / 2.0, b, h],
        [0.0, b / 2.0, h],
        [a / 2.0, b / 2.0, h],
    ];
    let mut t = vec![[0, 2, 1], [0, 3, 2]];
    let ring = [4, 8, 5, 9, 6, 10, 7, 11];
    for i in 0..8 {
        t.push([12, ring[i], ring[(i + 1) % 8]]);
    }
    for k in 0..4 {
        let (b0, b1, t0, t1) = (k, (k + 1) % 4, 4 + k, 4 + (k + 1) % 4);
        t.push([b0, b1, t1]);
        t.push([b0, t1, t0]);
    }
    (v, t)
}

#[test]
fn a_box_with_t_junctions_passes_with_its_volume() {
    let exact = 2.0 * 3.0 * 4.0;
    let body = box_with_junctions(2.0, 3.0, 4.0, 0.0);
    let turned_far = turned(&body, [1.0, 2.0, 3.0], 37.0, [1e6, -2e6, 5e5]);
    let turned_near = turned(&body, [1.0, 2.0, 3.0], 37.0, [10.0, 20.0, 30.0]);
    let cases: [(&str, Vec<u8>, f64); 5] = [
        (
            "plain.obj",
            obj(std::slice::from_ref(&body)).into_bytes(),
            0.0,
        ),
        ("far.obj", obj(&[turned_far]).into_bytes(), 1e-8),
        (
            "near.obj",
            obj(std::slice::from_ref(&turned_near)).into_bytes(),
            1e-12,
        ),
        (
            "near6.stl",
            stl6(std::slice::from_ref(&turned_near)).into_bytes(),
            1e-3,
        ),
        ("near32.stl", stl32(&[turned_near]), 1e-5),
    ];
    for (name, bytes, tol) in cases {
        // Six digits at 30 cannot say a corner's place to better than 5e-5: the split's
        // bound is more than a millionth of the volume, answered within the tolerance
        // the refusal names.
        let (code, json, err) = run_accepting(&format!("junctions-{name}"), &bytes);
        assert_eq!(code, 0, "{name}: {err}");
        assert!(
            (volume(&json) - exact).abs() <= tol * exact,
            "{name}: {}",
            volume(&json)
        );
        assert!(
            err.contains("4 corner(s) lying on another triangle's edge (T-junctions)")
                && err.contains("4 triangle(s) split"),
            "{name}: {err}"
        );
        // The file's 18 triangles and the 4 pieces added.
        assert_eq!(json["triangles"], 22, "{name}");
        let j = &json["junctions"];
        assert_eq!(
            (&j["points"], &j["triangles"]),
            (&4.into(), &4.into()),
            "{name}: {j}"
        );
        let offset = j["largest_offset"].as_f64().unwrap();
        // Exactly on the edges as written in full; off them by rounding when turned.
        assert!(
            (0.0..=10.0 * tol.max(1e-12)).contains(&offset),
            "{name}: {offset}"
        );
        if name == "plain.obj" {
            assert_eq!(offset, 0.0);
        }
    }
}

#[test]
fn a_corner_off_the_edge_beyond_reach_is_refused_as_open() {
    // Beyond a repair's reach (a thousandth of the edge): open.
    for dent in [1e-2, 0.1] {
        let body = turned(
            &box_with_junctions(2.0, 3.0, 4.0, dent),
            [1.0, 2.0, 3.0],
            37.0,
            [10.0, 20.0, 30.0],
        );
        let (code, json, err) = run("junctions-dent.obj", &obj(&[body]));
        assert_eq!(code, 2, "{dent}: {json}");
        assert!(err.contains("the mesh is not closed"), "{dent}: {err}");
        assert!(!err.contains("T-junctions"), "{dent}: {err}");
    }
}

#[test]
fn a_corner_off_the_edge_within_reach_is_judged_by_its_bound() {
    let body = |dent: f64| {
        turned(
            &box_with_junctions(2.0, 3.0, 4.0, dent),
            [1.0, 2.0, 3.0],
            37.0,
            [10.0, 20.0, 30.0],
        )
    };
    // 1e-3 off a 4-long edge: the split could change the volume by more than a
    // millionth of it: refused, naming the repair and the tolerance that would accept it.
    let (code, json, err) = run("junctions-dent.obj", &obj(&[body(1e-3)]));
    assert_eq!(code, 2, "{json}");
    assert!(
        err.contains("T-junctions") && err.contains("give --repair-tolerance 0.0005"),
        "{err}"
    );
    // 1e-7 off: answered, the split's bound stated and within the tolerance.
    let (code, json, err) = run("junctions-dent.obj", &obj(&[body(1e-7)]));
    assert_eq!(code, 0, "{err}");
    let bound = json["junctions"]["volume_bound"].as_f64().unwrap();
    assert!(bound > 0.0 && bound <= 1e-6 * volume(&json), "{json}");
    assert!((volume(&json) - 24.0).abs() <= 1e-6 * 24.0, "{json}");
}

#[test]
fn junctions_and_another_gap_are_refused_as_the_open_mesh_they_are() {
    // The T-junctions would close, but a bottom triangle is missing.
    let (v, mut t) = box_with_junctions(2.0, 3.0, 4.0, 0.0);
    t.remove(0);
    let (code, _, err) = run("junctions-missing.obj", &obj(&[(v, t)]));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("the mesh is not closed"), "{err}");
}
