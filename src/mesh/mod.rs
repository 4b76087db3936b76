//! A validated closed triangle mesh.

use crate::error::{Error, Result};
use nalgebra::Point3;

mod junctions;
mod numerics;
mod raw;
mod topology;
mod validate;
mod winding;
pub use crate::body::{Joined, Repairs};
pub use numerics::area_vector;
pub(crate) use numerics::physical;
pub use raw::RawMesh;
pub(crate) use raw::open_gap;
pub(crate) use topology::check_edges;
#[cfg(feature = "union")]
pub(crate) use topology::shells;

/// The most triangles a mesh may have, whatever limit is asked for: each corner is
/// numbered in 32 bits (1,431,655,765 triangles, about 69 GB as binary STL).
pub const MAX_TRIANGLES: u64 = u32::MAX as u64 / 3;

/// A closed, consistently oriented triangle mesh, possibly of several shells.
///
/// Construction welds vertices with identical coordinates (the one weld every path to a
/// mesh uses), drops triangles that use a vertex twice, counts zero-area triangles (kept
/// for the topology check, left out of the integrals), and then refuses:
/// - an open mesh: an edge not matched by an edge in the opposite direction;
/// - inconsistent winding: two triangles using an edge in the same direction;
/// - a shell that is inside-out while others are not (a shell wound inward must lie inside
///   another shell: it is then a cavity and subtracts).
///
/// A mesh whose every shell is inside-out is accepted, turned right way out, and
/// [`Mesh::inside_out`] says so (the CLI warns on stderr).
///
/// # Examples
/// ```
/// use inertia::mesh::{Mesh, RawMesh};
/// let tet = RawMesh {
///     vertices: vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
///     triangles: vec![[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]],
///     lines: vec![],
/// };
/// let m = Mesh::new(&tet)?;
/// assert_eq!(m.triangles().len(), 4);
/// assert!(!m.inside_out());
///
/// let open = RawMesh { triangles: tet.triangles[..3].to_vec(), ..tet.clone() };
/// let e = Mesh::new(&open).unwrap_err();
/// assert!(e.to_string().starts_with("the mesh is not closed: 3 boundary edges"));
/// assert!(matches!(e, inertia::Error::OpenMesh { boundary_edges: 3, .. }));
/// // A triangle listed the other way round is turned back, and the repair recorded.
/// let mut turned = tet.clone();
/// turned.triangles[3] = [1, 3, 2];
/// assert_eq!(Mesh::new(&turned)?.repairs().reoriented, Some(1));
/// # Ok::<(), inertia::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Mesh {
    vertices: Vec<Point3<f64>>,
    triangles: Vec<[u32; 3]>,
    input_triangles: usize,
    /// Distinct points the input triangles use.
    used: usize,
    degenerate: usize,
    shells: usize,
    cavities: usize,
    /// Bodies lying inside another (built with bodies allowed to overlap).
    nested: usize,
    inside_out: bool,
    bbox: (Point3<f64>, Point3<f64>),
    /// The `tetra` integral, computed once by the physical check in [`Mesh::new`].
    tetra: Option<crate::mass3d::MassProperties3d>,
    /// What validation repaired or accepted to build it.
    pub(crate) repairs: crate::body::Repairs,
}

impl crate::body::Body {
    /// The description of a validated mesh.
    ///
    /// # Examples
    /// ```
    /// let cube = inertia::Mesh::new(&inertia::shape::Shape3d::Box { size: [1.0; 3] }.tessellate(0))?;
    /// assert_eq!(inertia::report::Body::of(&cube).surface_area, 6.0);
    /// # Ok::<(), inertia::Error>(())
    /// ```
    pub fn of(mesh: &Mesh) -> Self {
        let (lo, hi) = mesh.bounding_box();
        crate::body::Body {
            triangles: mesh.input_triangle_count(),
            degenerate_triangles: mesh.degenerate_count(),
            vertices: mesh.vertex_count(),
            shells: mesh.shell_count(),
            cavities: mesh.cavity_count(),
            inside_out: mesh.inside_out(),
            // A fold's turned-over layers are no surface: their area is taken off.
            surface_area: mesh.surface_area()
                - mesh.repairs().contacts.map_or(0.0, |c| c.fold_area),
            bounding_box: crate::body::BoundingBox {
                min: lo.into(),
                max: hi.into(),
            },
            contacts: mesh.repairs().contacts,
            left_out: None,
            junctions: mesh.repairs().junctions,
            union: None,
        }
    }
}

/// Weld key: the coordinate bits, with -0.0 folded into 0.0.
#[inline(always)]
pub(crate) fn key(p: [f64; 3]) -> [u64; 3] {
    let b = |v: f64| if v == 0.0 { 0 } else { v.to_bits() };
    [b(p[0]), b(p[1]), b(p[2])]
}

impl Mesh {
    /// Volume, mass, centre of mass and inertia tensor (about the centre of mass) of this
    /// solid at uniform `density` (mass per unit volume), by the exact `tetra` method: one
    /// call, as parry's `shape.mass_properties(density)`.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] for a density that is not positive and finite;
    /// [`Error::NotSolid`] for a surface from [`Mesh::surface`], which need not enclose
    /// anything (integrate it as a thin shell: [`crate::method::shell`]).
    ///
    /// # Examples
    /// ```
    /// let cube = inertia::Mesh::new(&inertia::shape::Shape3d::Box { size: [2.0; 3] }.tessellate(0))?;
    /// let p = cube.mass_properties(3.0)?;
    /// assert_eq!((p.volume, p.mass), (8.0, 24.0));
    /// assert!((p.inertia.m11 - 24.0 * 8.0 / 12.0).abs() < 1e-12);
    /// # Ok::<(), inertia::Error>(())
    /// ```
    pub fn mass_properties(&self, density: f64) -> Result<crate::mass3d::MassProperties3d> {
        if !(density.is_finite() && density > 0.0) {
            return Err(Error::InvalidParameter {
                name: crate::error::Parameter::Density,
                value: density,
                need: crate::error::Need::Positive,
            });
        }
        let p = self.tetra.ok_or(Error::NotSolid)?;
        Ok(p.scaled_mass(density))
    }

    /// What validation repaired or accepted on the way to this mesh (nothing for a mesh
    /// closed and clean as written).
    pub fn repairs(&self) -> &Repairs {
        &self.repairs
    }

    /// Bodies lying inside another body: 0 unless built with bodies allowed to overlap
    /// (`--overlap sum`), when their shared space counts twice.
    pub(crate) fn nested_count(&self) -> usize {
        self.nested
    }

    /// The `tetra` integral of a validated solid, if [`Mesh::new`] computed it.
    ///
    /// # Examples
    /// ```
    /// let m = inertia::Mesh::new(&inertia::shape::Shape3d::Box { size: [2.0; 3] }.tessellate(0))?;
    /// assert!((m.tetra_integral().unwrap().volume - 8.0).abs() < 1e-12);
    /// # Ok::<(), inertia::Error>(())
    /// ```
    pub fn tetra_integral(&self) -> Option<crate::mass3d::MassProperties3d> {
        self.tetra
    }

    /// Welded vertices: the distinct points the input's triangles use (a vertex no triangle
    /// uses is left out), on either path to a mesh.
    ///
    /// # Examples
    /// ```
    /// let m = inertia::Mesh::new(&inertia::shape::Shape3d::Box { size: [1.0; 3] }.tessellate(0))?;
    /// assert_eq!(m.vertices().len(), 8);
    /// # Ok::<(), inertia::Error>(())
    /// ```
    pub fn vertices(&self) -> &[Point3<f64>] {
        &self.vertices
    }

    /// Triangles (indices into [`Mesh::vertices`]), oriented outward.
    ///
    /// # Examples
    /// ```
    /// let m = inertia::Mesh::new(&inertia::shape::Shape3d::Box { size: [1.0; 3] }.tessellate(0))?;
    /// assert_eq!(m.triangles().len(), 12);
    /// # Ok::<(), inertia::Error>(())
    /// ```
    pub fn triangles(&self) -> &[[u32; 3]] {
        &self.triangles
    }

    /// The three corners of triangle `t`.
    ///
    /// # Examples
    /// ```
    /// let m = inertia::Mesh::new(&inertia::shape::Shape3d::Box { size: [1.0; 3] }.tessellate(0))?;
    /// assert!(m.corners(0).iter().all(|p| p.x.abs() == 0.5));
    /// # Ok::<(), inertia::Error>(())
    /// ```
    #[inline]
    pub fn corners(&self, t: usize) -> [Point3<f64>; 3] {
        let [a, b, c] = self.triangles[t];
        let v = &self.vertices;
        [v[a as usize], v[b as usize], v[c as usize]]
    }

    /// Distinct points the input's triangles use (welded; degenerate triangles' included,
    /// vertices no triangle uses left out).
    ///
    /// # Examples
    /// ```
    /// let mut raw = inertia::shape::Shape3d::Box { size: [1.0; 3] }.tessellate(0);
    /// raw.vertices.push([9.0; 3]); // used by no triangle
    /// let m = inertia::Mesh::new(&raw)?;
    /// assert_eq!((m.vertex_count(), m.vertices().len()), (8, 8));
    /// # Ok::<(), inertia::Error>(())
    /// ```
    pub fn vertex_count(&self) -> usize {
        self.used
    }

    /// Triangles in the input, degenerate ones included.
    ///
    /// # Examples
    /// ```
    /// let m = inertia::Mesh::new(&inertia::shape::Shape3d::Box { size: [1.0; 3] }.tessellate(0))?;
    /// assert_eq!(m.input_triangle_count(), 12);
    /// # Ok::<(), inertia::Error>(())
    /// ```
    pub fn input_triangle_count(&self) -> usize {
        self.input_triangles
    }

    /// Degenerate triangles: those repeating a vertex (dropped) and those of zero area
    /// (kept for the topology, contributing nothing).
    ///
    /// # Examples
    /// ```
    /// let mut raw = inertia::shape::Shape3d::Box { size: [1.0; 3] }.tessellate(0);
    /// raw.triangles.push([0, 0, 1]);
    /// assert_eq!(inertia::Mesh::new(&raw)?.degenerate_count(), 1);
    /// # Ok::<(), inertia::Error>(())
    /// ```
    pub fn degenerate_count(&self) -> usize {
        self.degenerate
    }

    /// Connected closed surfaces (bodies and cavities).
    ///
    /// # Examples
    /// ```
    /// let m = inertia::Mesh::new(&inertia::shape::Shape3d::Box { size: [1.0; 3] }.tessellate(0))?;
    /// assert_eq!((m.shell_count(), m.cavity_count()), (1, 0));
    /// # Ok::<(), inertia::Error>(())
    /// ```
    pub fn shell_count(&self) -> usize {
        self.shells
    }

    /// Shells wound inward that lie inside another shell (they subtract).
    ///
    /// # Examples
    /// ```
    /// let m = inertia::Mesh::new(&inertia::shape::Shape3d::Sphere { radius: 1.0 }.tessellate(16))?;
    /// assert_eq!(m.cavity_count(), 0);
    /// # Ok::<(), inertia::Error>(())
    /// ```
    pub fn cavity_count(&self) -> usize {
        self.cavities
    }

    /// True if the input was entirely inside-out and has been turned right way out.
    ///
    /// # Examples
    /// ```
    /// let mut raw = inertia::shape::Shape3d::Box { size: [1.0; 3] }.tessellate(0);
    /// for t in &mut raw.triangles { t.swap(1, 2); }
    /// assert!(inertia::Mesh::new(&raw)?.inside_out());
    /// # Ok::<(), inertia::Error>(())
    /// ```
    pub fn inside_out(&self) -> bool {
        self.inside_out
    }

    /// The centre of the axis-aligned bounding box: the reference point of the `voxel` and
    /// thin-shell integrals and of the shell check (`tetra` sums about a vertex).
    ///
    /// # Examples
    /// ```
    /// let m = inertia::Mesh::new(&inertia::shape::Shape3d::Box { size: [1.0; 3] }.tessellate(0))?;
    /// assert_eq!(m.reference(), nalgebra::Point3::origin());
    /// # Ok::<(), inertia::Error>(())
    /// ```
    pub fn reference(&self) -> Point3<f64> {
        let (lo, hi) = self.bounding_box();
        nalgebra::center(&lo, &hi)
    }

    /// Axis-aligned bounding box `(min, max)` of the triangles.
    ///
    /// # Examples
    /// ```
    /// let m = inertia::Mesh::new(&inertia::shape::Shape3d::Box { size: [2.0, 4.0, 6.0] }.tessellate(0))?;
    /// assert_eq!(m.bounding_box().1, nalgebra::Point3::new(1.0, 2.0, 3.0));
    /// # Ok::<(), inertia::Error>(())
    /// ```
    pub fn bounding_box(&self) -> (Point3<f64>, Point3<f64>) {
        self.bbox
    }

    /// Total area of the triangles.
    ///
    /// # Examples
    /// ```
    /// let m = inertia::Mesh::new(&inertia::shape::Shape3d::Box { size: [1.0; 3] }.tessellate(0))?;
    /// assert_eq!(m.surface_area(), 6.0);
    /// # Ok::<(), inertia::Error>(())
    /// ```
    pub fn surface_area(&self) -> f64 {
        // Fixed blocks on every core, added in order: the same bits on any number of threads.
        use rayon::prelude::*;
        let n = self.triangles.len();
        let block = crate::sums::BLOCK;
        let parts: Vec<f64> = (0..n.div_ceil(block))
            .into_par_iter()
            .map(|k| {
                (k * block..((k + 1) * block).min(n))
                    .map(|t| {
                        let [a, b, c] = self.corners(t);
                        let n = area_vector([a.into(), b.into(), c.into()]);
                        0.5 * (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt()
                    })
                    .sum::<f64>()
            })
            .collect();
        parts.iter().sum()
    }
}

#[cfg(test)]
pub(crate) mod test_meshes {
    //! Meshes with exact mass properties, shared by tests.
    use super::RawMesh;

    /// An axis-aligned box [min, min + size], outward winding.
    pub fn cuboid(min: [f64; 3], size: [f64; 3]) -> RawMesh {
        let mut vertices = Vec::new();
        for k in 0..8 {
            vertices.push([
                min[0] + if k & 1 != 0 { size[0] } else { 0.0 },
                min[1] + if k & 2 != 0 { size[1] } else { 0.0 },
                min[2] + if k & 4 != 0 { size[2] } else { 0.0 },
            ]);
        }
        // Faces as quads (outward), split into two triangles each.
        let quads = [
            [0, 2, 3, 1],
            [4, 5, 7, 6],
            [0, 1, 5, 4],
            [2, 6, 7, 3],
            [0, 4, 6, 2],
            [1, 3, 7, 5],
        ];
        let triangles = quads
            .iter()
            .flat_map(|q| [[q[0], q[1], q[2]], [q[0], q[2], q[3]]])
            .collect();
        RawMesh {
            vertices,
            triangles,
            lines: vec![],
        }
    }

    /// The same mesh as a triangle soup (three fresh vertices per triangle, like STL).
    pub fn soup(m: &RawMesh) -> RawMesh {
        let mut vertices = Vec::new();
        let mut triangles = Vec::new();
        for t in &m.triangles {
            let base = vertices.len() as u32;
            vertices.extend(t.map(|v| m.vertices[v as usize]));
            triangles.push([base, base + 1, base + 2]);
        }
        RawMesh {
            vertices,
            triangles,
            lines: vec![],
        }
    }

    /// Every triangle reversed.
    pub fn flipped(m: &RawMesh) -> RawMesh {
        RawMesh {
            triangles: m.triangles.iter().map(|t| [t[0], t[2], t[1]]).collect(),
            ..m.clone()
        }
    }

    /// Two meshes in one.
    pub fn union(a: &RawMesh, b: &RawMesh) -> RawMesh {
        let off = a.vertices.len() as u32;
        RawMesh {
            vertices: a.vertices.iter().chain(&b.vertices).copied().collect(),
            triangles: a
                .triangles
                .iter()
                .copied()
                .chain(b.triangles.iter().map(|t| t.map(|v| v + off)))
                .collect(),
            lines: vec![],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::test_meshes::{cuboid, flipped, soup, union};
    use super::{Mesh, Point3, RawMesh};

    fn err(m: &RawMesh) -> String {
        Mesh::new(m).unwrap_err().to_string()
    }

    #[test]
    fn cube_welds_from_a_soup() {
        let m = Mesh::new(&soup(&cuboid([0.0; 3], [1.0, 2.0, 3.0]))).unwrap();
        assert_eq!(m.vertices().len(), 8);
        assert_eq!(m.triangles().len(), 12);
        assert_eq!(m.shell_count(), 1);
        assert_eq!(m.surface_area(), 2.0 * (2.0 + 3.0 + 6.0));
        assert_eq!(m.reference(), Point3::new(0.5, 1.0, 1.5));
    }

    #[test]
    fn inside_out_is_turned_and_flagged() {
        let m = Mesh::new(&flipped(&cuboid([0.0; 3], [1.0; 3]))).unwrap();
        assert!(m.inside_out());
        let [a, b, c] = m.corners(0);
        let n = (b - a).cross(&(c - a));
        assert!(
            n.dot(&(a - Point3::new(0.5, 0.5, 0.5))) > 0.0,
            "outward again"
        );
    }

    #[test]
    fn cavity_subtracts_and_inverted_body_is_refused() {
        let outer = cuboid([0.0; 3], [4.0; 3]);
        let inner = cuboid([1.0; 3], [1.0; 3]);
        let m = Mesh::new(&union(&outer, &flipped(&inner))).unwrap();
        assert_eq!(
            (m.shell_count(), m.cavity_count(), m.inside_out()),
            (2, 1, false)
        );
        // Both flipped: an inside-out body with an outward "cavity".
        let m = Mesh::new(&union(&flipped(&outer), &inner)).unwrap();
        assert_eq!((m.cavity_count(), m.inside_out()), (1, true));
        // Two separate bodies, one inverted: refused.
        let far = cuboid([10.0; 3], [1.0; 3]);
        let e = err(&union(&outer, &flipped(&far)));
        assert!(
            e.starts_with("shell 2 (from triangle 13) is wound inward"),
            "{e}"
        );
        // A body wound outward inside another: refused (its volume would count twice).
        let e = err(&union(&outer, &inner));
        assert!(
            e.contains("is wound outward but lies inside another shell"),
            "{e}"
        );
    }

    #[test]
    fn open_and_badly_wound_meshes_are_refused() {
        let mut m = cuboid([0.0; 3], [1.0; 3]);
        m.triangles.pop();
        let e = err(&m);
        assert!(
            e.starts_with("the mesh is not closed: 3 boundary edges, e.g."),
            "{e}"
        );
        let mut m = cuboid([0.0; 3], [1.0; 3]);
        m.triangles[3] = [m.triangles[3][0], m.triangles[3][2], m.triangles[3][1]];
        // As written, refused; the one path turns the triangle back.
        let e = crate::soup::general::build(&m, false)
            .0
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("inconsistent winding: triangle"), "{e}");
        assert!(e.contains("in the same direction"), "{e}");
        let mesh = Mesh::new(&m).unwrap();
        assert_eq!(mesh.repairs().reoriented, Some(1));
        assert_eq!(mesh.tetra_integral().unwrap().volume, 1.0);
    }

    #[test]
    fn degenerate_triangles_are_counted() {
        let mut m = cuboid([0.0; 3], [1.0; 3]);
        m.triangles.push([0, 0, 1]); // repeats a vertex: dropped
        let mesh = Mesh::new(&m).unwrap();
        assert_eq!(mesh.degenerate_count(), 1);
        assert_eq!(mesh.input_triangle_count(), 13);
        // A T-junction closed by a zero-area sliver: the side triangle [0, 1, 5] is split at
        // the midpoint of its edge 0→1, and the sliver [1, mid, 0] balances the edges. The
        // sliver is counted and integrates to nothing.
        let mut m = cuboid([0.0; 3], [1.0; 3]);
        m.vertices.push([0.5, 0.0, 0.0]);
        let mid = 8;
        let side = m.triangles.iter().position(|t| *t == [0, 1, 5]).unwrap();
        m.triangles[side] = [0, mid, 5];
        m.triangles.push([mid, 1, 5]);
        m.triangles.push([1, mid, 0]);
        let mesh = Mesh::new(&m).unwrap();
        assert_eq!(mesh.degenerate_count(), 1);
        assert_eq!(mesh.triangles().len(), 13);
        let all_bad = RawMesh {
            vertices: vec![[0.0; 3]; 3],
            triangles: vec![[0, 1, 2]],
            lines: vec![],
        };
        assert!(err(&all_bad).contains("degenerate"));
    }
}
