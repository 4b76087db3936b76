//! A part's mass properties from an STL file, with the library: read, validate, integrate,
//! then the tensor about a joint and the principal axes.
//!
//! `cargo run --example mesh_inertia -- fixtures/mesh/right_tetrahedron.stl`

use inertia::io::{Bytes, MeshFormat, read_mesh};
use inertia::{MeshMethod, mass3d::principal};
use nalgebra::Point3;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "fixtures/mesh/right_tetrahedron.stl".into());
    let bytes = Bytes::open(path.as_ref())?;
    let format = MeshFormat::from_path(path.as_ref()).unwrap_or_else(|| MeshFormat::sniff(&bytes));
    let mesh = read_mesh(&bytes, format).map_err(|e| format!("{path}: {e}"))?;
    // Aluminium, coordinates in millimetres: density in kg/mm³.
    let p = MeshMethod::Tetra
        .integrate(&mesh, 0)
        .properties
        .scaled_mass(2700e-9);
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
