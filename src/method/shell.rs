//! `--shell T`: a thin-walled part with its mass on the surface.
//!
//! Each triangle is a plate of the wall thickness `T`: mass `ρ·T·A`, and second moment
//! `∫x xᵀ dA = A/12 (a aᵀ + b bᵀ + c cᵀ + s sᵀ)` with `s = a + b + c` (the triangle's own
//! covariance, like the canonical tetrahedron's in Blow & Binstock). The surface need not be
//! closed, and its orientation does not matter. The moment of each plate through its own
//! thickness (`∝ T²`) is neglected: the usual thin-shell approximation (as in OpenFOAM's
//! `surfaceInertia -shellProperties` and MuJoCo's shell inertia), good while `T` is small
//! beside the part.

use crate::mass3d::MassProperties3d;
use crate::mesh::Mesh;
use nalgebra::{Matrix3, Vector3};

/// Mass properties of the surface as a wall of thickness `thickness`, unit density (the
/// `volume` is the wall's material volume, `T × area`).
///
/// # Examples
/// ```
/// use inertia::{Mesh, shape::Shape3d};
/// // A thin-walled cube of side 1: I = 5/18 M a² about every axis.
/// let cube = Mesh::surface(&Shape3d::Box { size: [1.0; 3] }.tessellate(0))?;
/// let p = inertia::method::shell::integrate(&cube, 0.01);
/// assert!((p.mass - 0.06).abs() < 1e-15);
/// assert!((p.inertia.m33 - 5.0 / 18.0 * 0.06).abs() < 1e-15);
/// # Ok::<(), inertia::Error>(())
/// ```
pub fn integrate(mesh: &Mesh, thickness: f64) -> MassProperties3d {
    let r = mesh.reference();
    let mut area = 0.0;
    let mut first = Vector3::zeros();
    let mut cov = Matrix3::zeros(); // 12 × ∫x xᵀ dA about r
    for t in 0..mesh.triangles().len() {
        let [a, b, c] = mesh.corners(t).map(|p| p - r);
        let da = 0.5 * (b - a).cross(&(c - a)).norm();
        let s = a + b + c;
        area += da;
        first += s * (da / 3.0);
        cov += (a * a.transpose() + b * b.transpose() + c * c.transpose() + s * s.transpose()) * da;
    }
    let g = first / area;
    let cov_g = cov / 12.0 - g * g.transpose() * area;
    let inertia = (Matrix3::identity() * cov_g.trace() - cov_g) * thickness;
    MassProperties3d {
        volume: area * thickness,
        mass: area * thickness,
        centroid: r + g,
        inertia: (inertia + inertia.transpose()) * 0.5,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::Shape3d;
    use approx::assert_relative_eq;

    #[test]
    fn open_box_and_sphere_shell() {
        // A cube without its top face (z = 1/2): 5 faces of mass m each, side 1.
        let mut raw = Shape3d::Box { size: [1.0; 3] }.tessellate(0);
        raw.triangles
            .retain(|t| !t.iter().all(|&v| raw.vertices[v as usize][2] > 0.0));
        let mesh = Mesh::surface(&raw).unwrap();
        let p = integrate(&mesh, 1.0);
        assert_relative_eq!(p.mass, 5.0, max_relative = 1e-15);
        // Centroid z: the bottom at −1/2 (mass 1) and four sides at 0 (mass 4): −1/10.
        assert_relative_eq!(p.centroid.z, -0.1, epsilon = 1e-15);
        // Izz: bottom m a²/6 + four sides m a²/3 (each side: a²/12 + (a/2)²).
        assert_relative_eq!(p.inertia.m33, 1.0 / 6.0 + 4.0 / 3.0, max_relative = 1e-14);
        // A sphere shell: I → 2/3 M r².
        let s = Mesh::surface(&Shape3d::Sphere { radius: 2.0 }.tessellate(256)).unwrap();
        let p = integrate(&s, 0.001);
        assert_relative_eq!(p.inertia.m11, 2.0 / 3.0 * p.mass * 4.0, max_relative = 1e-3);
    }
}
