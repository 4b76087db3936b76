//! Issue 46, item 3 ("Linear by construction"): bodies meeting at one point. Two cones apex
//! to apex share a vertex of tens of thousands of triangles, every pair of whose boxes
//! meet there; the overlap check finds their pairs around that vertex by the rays they
//! hold, so the file is answered (and a cone poking into the other beside the apex is
//! still refused).

use assert_cmd::cargo::cargo_bin_cmd;
use inertia::MeshMethod;
use inertia::mesh::{Mesh, RawMesh};
use serde_json::Value;

/// Two `n`-sided cones, apexes at the origin, axes along ±z, bases of radius 1 at z = ±1
/// (rim point k at angle 2πk/n, in `f32` when `f32_`), each cap fanned from its first rim
/// point or from its centre; and their exact polyhedral volume, from the rim as given: a
/// cone's is a third of its base's area (the shoelace sum, each term with one rounding,
/// summed with compensation) times its height, 1.
fn cones(n: usize, centre_caps: bool, f32_: bool) -> (RawMesh, f64) {
    let round = |x: f64| if f32_ { x as f32 as f64 } else { x };
    let rim: Vec<[f64; 2]> = (0..n)
        .map(|k| {
            let a = std::f64::consts::TAU * k as f64 / n as f64;
            [round(a.cos()), round(a.sin())]
        })
        .collect();
    let mut vertices = vec![[0.0; 3]];
    let mut triangles = Vec::new();
    for z in [1.0, -1.0] {
        let first = vertices.len() as u32;
        vertices.extend(rim.iter().map(|p| [p[0], p[1], z]));
        let r = |k: usize| first + (k % n) as u32;
        // Outward: the lower cone is the upper one mirrored, wound the other way.
        let mut tri = |a: u32, b: u32, c: u32| {
            triangles.push(if z > 0.0 { [a, b, c] } else { [a, c, b] });
        };
        for k in 0..n {
            tri(0, r(k + 1), r(k));
        }
        if centre_caps {
            let c = first + n as u32;
            for k in 0..n {
                tri(c, r(k), r(k + 1));
            }
        } else {
            for k in 1..n - 1 {
                tri(r(0), r(k), r(k + 1));
            }
        }
        if centre_caps {
            vertices.push([0.0, 0.0, z]);
        }
    }
    // Twice the base's area.
    let (mut sum, mut carry) = (0.0f64, 0.0f64);
    for k in 0..n {
        let (p, q) = (rim[k], rim[(k + 1) % n]);
        let term = p[0].mul_add(q[1], -(q[0] * p[1]));
        let t = sum + term;
        carry += if sum.abs() >= term.abs() {
            (sum - t) + term
        } else {
            (term - t) + sum
        };
        sum = t;
    }
    let area = (sum + carry) / 2.0;
    let mesh = RawMesh {
        vertices,
        triangles,
        lines: vec![],
    };
    (mesh, 2.0 * area / 3.0)
}

fn volume(m: &RawMesh) -> Result<f64, String> {
    let mesh = Mesh::new(m).map_err(|e| e.to_string())?;
    Ok(MeshMethod::Tetra.integrate(&mesh, 0).properties.volume)
}

#[test]
fn cones_apex_to_apex_are_answered_with_their_exact_volume() {
    for (n, centre) in [(1000, false), (20_000, false), (20_000, true)] {
        let (m, exact) = cones(n, centre, false);
        let v = volume(&m).unwrap_or_else(|e| panic!("n = {n}: {e}"));
        assert!(
            (v - exact).abs() <= 1e-12 * exact,
            "n = {n}, caps from the centre {centre}: {v} against {exact}"
        );
    }
}

/// The binary STL of a raw mesh's triangles (its corners in `f32`).
fn binary_stl(m: &RawMesh) -> Vec<u8> {
    let mut b = vec![0u8; 80];
    b.extend((m.triangles.len() as u32).to_le_bytes());
    for t in &m.triangles {
        b.extend([0u8; 12]);
        for &v in t {
            for c in m.vertices[v as usize] {
                b.extend((c as f32).to_le_bytes());
            }
        }
        b.extend([0u8; 2]);
    }
    b
}

#[test]
fn the_20000_sided_cones_apex_to_apex_as_a_binary_stl_are_answered() {
    // The file of the issue: 4 MB, two fans of 20,000 at one point, read by the command.
    let (m, exact) = cones(20_000, false, true);
    let out = cargo_bin_cmd!("inertia")
        .args(["mesh", "-", "--input-format", "stl", "--json"])
        .write_stdin(binary_stl(&m))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    let v = json["volume"].as_f64().unwrap();
    assert!((v - exact).abs() <= 1e-12 * exact, "{v} against {exact}");
}

#[test]
fn a_cone_poking_into_the_other_beside_the_apex_is_refused() {
    // The lower cone's rim point a third of the way round pulled up inside the upper
    // cone, 0.05 above the apex: its side triangles there cross the upper cone's side.
    for n in [1000, 4000] {
        let (mut m, _) = cones(n, false, false);
        let k = 1 + n + n / 3;
        let a = std::f64::consts::TAU * (n / 3) as f64 / n as f64;
        assert_eq!(m.vertices[k], [a.cos(), a.sin(), -1.0]);
        m.vertices[k] = [0.02 * a.cos(), 0.02 * a.sin(), 0.05];
        let e = volume(&m).expect_err("the cones overlap");
        assert!(e.contains("cross"), "n = {n}: {e}");
    }
}
