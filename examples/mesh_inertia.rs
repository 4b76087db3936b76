//! A part's mass properties from an STL file, with the library: read, validate, integrate,
//! then the tensor about a joint and the principal axes.
//!
//! `cargo run --example mesh_inertia -- fixtures/mesh/right_tetrahedron.stl`

use inertia::io::{Bytes, MeshFormat};
use inertia::mass3d::principal;
use inertia::solid::{Options, read_solids};
use nalgebra::Point3;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "fixtures/mesh/right_tetrahedron.stl".into());
    let bytes = Bytes::open(path.as_ref())?;
    let format = MeshFormat::from_path(path.as_ref()).unwrap_or_else(|| MeshFormat::sniff(&bytes));
    // The pipeline of `inertia mesh`: every body validated (closed, consistently wound, not
    // overlapping another) and integrated by the exact `tetra` method.
    let solids =
        read_solids(&bytes, format, &Options::default()).map_err(|e| format!("{path}: {e}"))?;
    // Aluminium, coordinates in millimetres: density in kg/mm³; every body of the file.
    let p: inertia::MassProperties3d = solids
        .iter()
        .map(|s| s.integrals[0].properties.scaled_mass(2700e-9))
        .sum();
    println!("mass {:.6e} kg, centre of mass {:?} mm", p.mass, p.centroid);
    let joint = Point3::origin();
    println!(
        "tensor about the joint (kg·mm²):\n{}",
        p.inertia_about(joint)
    );
    let pr = principal(&p.inertia);
    for (m, a) in pr.moments.iter().zip(pr.axes) {
        println!(
            "principal {m:.6e} along ({:.4}, {:.4}, {:.4})",
            a.x, a.y, a.z
        );
    }
    Ok(())
}
