//! An assembly from the library: parts from shapes and meshes, placed and summed, then the
//! inertia about a pivot — what `inertia combine` does from JSON reports.
//!
//! `cargo run --example assembly`

use inertia::shape::Shape3d;
use inertia::{MassProperties3d, Mesh, MeshMethod};
use nalgebra::{Point3, Rotation3, Vector3};

/// A part of the given density, turned and moved into place.
fn placed(
    p: MassProperties3d,
    density: f64,
    turn: Rotation3<f64>,
    at: Vector3<f64>,
) -> MassProperties3d {
    let p = p.scaled_mass(density);
    MassProperties3d {
        centroid: turn * p.centroid + at,
        inertia: turn.matrix() * p.inertia * turn.matrix().transpose(),
        ..p
    }
}

fn main() -> Result<(), inertia::Error> {
    // A pendulum in SI units: a 1 m steel rod (20 mm square) and a 0.1 m brass ball at its end.
    let rod = Shape3d::Box {
        size: [0.02, 0.02, 1.0],
    }
    .exact()
    .properties;
    // The bob from a tessellated sphere, integrated like any mesh (exact for the polyhedron).
    let bob = Mesh::new(&Shape3d::Sphere { radius: 0.05 }.tessellate(96))?;
    let bob = MeshMethod::Tetra.integrate(&bob, 0).properties;
    let id = Rotation3::identity();
    let parts = [
        placed(rod, 7850.0, id, Vector3::new(0.0, 0.0, -0.5)),
        placed(bob, 8500.0, id, Vector3::new(0.0, 0.0, -1.05)),
    ];
    let total: MassProperties3d = parts.iter().copied().sum();
    println!(
        "mass {:.4} kg, centre of mass z = {:.4} m",
        total.mass, total.centroid.z
    );
    // About the pivot at the origin: the moment the pendulum swings with.
    let pivot = total.inertia_about(Point3::origin());
    println!("I about the pivot (x axis): {:.5} kg·m²", pivot.m11);
    // Small-oscillation period of the compound pendulum: T = 2π √(I / (m g d)).
    let period = 2.0
        * std::f64::consts::PI
        * (pivot.m11 / (total.mass * 9.80665 * -total.centroid.z)).sqrt();
    println!("period {period:.4} s");
    Ok(())
}
