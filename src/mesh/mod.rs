//! A validated closed triangle mesh.

use crate::error::{Error, Result};
use ahash::AHashMap as HashMap;
use nalgebra::Point3;

mod numerics;
mod raw;
mod topology;
pub use numerics::area_vector;
pub(crate) use numerics::physical;
pub use raw::{RawMesh, default_weld_tolerance, nearest_open_corners};
use topology::*;

/// A closed, consistently oriented triangle mesh, possibly of several shells.
///
/// Construction welds vertices with identical coordinates, drops triangles that use a
/// vertex twice, counts zero-area triangles (kept for the topology check, left out of the
/// integrals), and then refuses:
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
/// let mut bad = tet.clone();
/// bad.triangles[3] = [1, 3, 2];
/// assert!(matches!(Mesh::new(&bad), Err(inertia::Error::InconsistentWinding { .. })));
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
    inside_out: bool,
    bbox: (Point3<f64>, Point3<f64>),
    /// The `tetra` integral, computed once by the physical check in [`Mesh::new`].
    tetra: Option<crate::mass3d::MassProperties3d>,
}

/// Weld key: the coordinate bits, with -0.0 folded into 0.0.
#[inline(always)]
pub(crate) fn key(p: [f64; 3]) -> [u64; 3] {
    let b = |v: f64| if v == 0.0 { 0 } else { v.to_bits() };
    [b(p[0]), b(p[1]), b(p[2])]
}

/// Merges vertices with identical coordinates: the distinct vertices, and for each input
/// vertex its index among them.
fn weld(raw: &RawMesh) -> (Vec<Point3<f64>>, Vec<u32>) {
    let mut index: HashMap<[u64; 3], u32> = HashMap::with_capacity(raw.vertices.len() / 2);
    let mut vertices = Vec::new();
    let remap = raw
        .vertices
        .iter()
        .map(|&p| {
            *index.entry(key(p)).or_insert_with(|| {
                vertices.push(Point3::from(p));
                (vertices.len() - 1) as u32
            })
        })
        .collect();
    (vertices, remap)
}

/// The corners of triangle `t` as coordinate arrays.
#[inline]
fn points(vertices: &[Point3<f64>], t: [u32; 3]) -> [[f64; 3]; 3] {
    let p = |v: u32| -> [f64; 3] { vertices[v as usize].into() };
    [p(t[0]), p(t[1]), p(t[2])]
}

/// Distinct welded vertices that some input triangle uses (degenerate ones included).
fn used_vertices(raw: &RawMesh, remap: &[u32], welded: usize) -> usize {
    let mut used = vec![false; welded];
    for t in &raw.triangles {
        for &v in t {
            used[remap[v as usize] as usize] = true;
        }
    }
    used.iter().filter(|u| **u).count()
}

/// Axis-aligned bounds of the vertices the triangles use.
fn bounds(vertices: &[Point3<f64>], triangles: &[[u32; 3]]) -> (Point3<f64>, Point3<f64>) {
    // Minima and maxima are exact in any order: on every core.
    use rayon::prelude::*;
    let empty = || {
        (
            Point3::from([f64::INFINITY; 3]),
            Point3::from([f64::NEG_INFINITY; 3]),
        )
    };
    triangles
        .par_iter()
        .fold(empty, |mut b, t| {
            for &v in t {
                let p = vertices[v as usize];
                b = (b.0.inf(&p), b.1.sup(&p));
            }
            b
        })
        .reduce(empty, |a, b| (a.0.inf(&b.0), a.1.sup(&b.1)))
}

fn fmt_point(p: Point3<f64>) -> String {
    format!("({}, {}, {})", p.x, p.y, p.z)
}

impl Mesh {
    /// Welds and validates a raw mesh.
    ///
    /// # Examples
    /// ```
    /// let cube = inertia::Mesh::new(&inertia::shape::Shape3d::Box { size: [1.0; 3] }.tessellate(0))?;
    /// assert_eq!(cube.shell_count(), 1);
    /// # Ok::<(), inertia::Error>(())
    /// ```
    pub fn new(raw: &RawMesh) -> Result<Self> {
        if raw.triangles.is_empty() {
            return Err(Error::Empty("no triangles in the input".into()));
        }
        let (vertices, remap) = weld(raw);

        // Keep triangles with three distinct vertices; remember each one's input number.
        let mut triangles: Vec<[u32; 3]> = Vec::with_capacity(raw.triangles.len());
        let mut origin: Vec<usize> = Vec::with_capacity(raw.triangles.len());
        let mut degenerate = 0;
        for (t, tri) in raw.triangles.iter().enumerate() {
            let w = tri.map(|v| remap[v as usize]);
            if w[0] == w[1] || w[1] == w[2] || w[2] == w[0] {
                degenerate += 1;
            } else {
                triangles.push(w);
                origin.push(t);
            }
        }
        if triangles.is_empty() {
            return Err(Error::InvalidMesh(format!(
                "all {} triangles are degenerate (they repeat a vertex)",
                raw.triangles.len()
            )));
        }
        check_edges(&vertices, &triangles, &origin, raw)?;
        let used = used_vertices(raw, &remap, vertices.len());
        Mesh::closed(
            vertices,
            triangles,
            origin,
            (raw.triangles.len(), used),
            degenerate,
            &|t| raw.place(t),
        )
    }

    /// The rest of [`Mesh::new`], for a surface already known to be closed and consistently
    /// wound: `triangles` (none repeating a vertex) index `vertices`, `origin[i]` is the
    /// input number of triangle `i`, `input` the numbers of input triangles and of distinct
    /// points they use, `degenerate`
    /// those dropped for repeating a vertex, and `place` names an input triangle in a
    /// message. Sorts out shells and cavities and integrates.
    pub(crate) fn closed(
        vertices: Vec<Point3<f64>>,
        triangles: Vec<[u32; 3]>,
        origin: Vec<usize>,
        input: (usize, usize),
        degenerate: usize,
        place: &dyn Fn(usize) -> String,
    ) -> Result<Self> {
        // Zero-area triangles have served the topology check; they enclose nothing.
        let before = triangles.len();
        let (triangles, origin): (Vec<[u32; 3]>, Vec<usize>) = {
            use rayon::prelude::*;
            triangles
                .into_par_iter()
                .zip(origin)
                .filter(|(t, _)| area_vector(points(&vertices, *t)) != [0.0; 3])
                .unzip()
        };
        let zero_area = before - triangles.len();
        if triangles.is_empty() {
            return Err(Error::InvalidMesh(
                "every triangle has zero area: the mesh encloses nothing".into(),
            ));
        }
        let bbox = bounds(&vertices, &triangles);

        let mut mesh = Mesh {
            vertices,
            triangles,
            input_triangles: input.0,
            used: input.1,
            degenerate: degenerate + zero_area,
            shells: 0,
            cavities: 0,
            inside_out: false,
            bbox,
            tetra: None,
        };
        mesh.check_shells(&origin, place)?;
        // A closed surface that passes through itself has no well-defined inside; its signed
        // integrals come out unphysical (negative moments). Finding every self-intersection
        // is costly, but the physical checks on the result catch the ones that matter.
        let r = mesh.corners(0)[0];
        let sums = crate::sums::of_triangles(mesh.triangles.len(), r, |t| mesh.corners(t));
        sums.check_resolution()?;
        let p = sums.finish(r);
        physical(&p)?;
        mesh.tetra = Some(p);
        Ok(mesh)
    }

    /// Welds a surface that need not be closed (for thin shells): identical vertices are
    /// merged and degenerate triangles dropped and counted, nothing else is checked.
    ///
    /// # Examples
    /// ```
    /// use inertia::{Mesh, shape::Shape3d};
    /// let mut raw = Shape3d::Box { size: [1.0; 3] }.tessellate(0);
    /// raw.triangles.pop(); // open: refused as a solid, fine as a surface
    /// assert!(Mesh::new(&raw).is_err());
    /// assert_eq!(Mesh::surface(&raw)?.triangles().len(), 11);
    /// # Ok::<(), inertia::Error>(())
    /// ```
    pub fn surface(raw: &RawMesh) -> Result<Self> {
        if raw.triangles.is_empty() {
            return Err(Error::Empty("no triangles in the input".into()));
        }
        let (vertices, remap) = weld(raw);
        let used = used_vertices(raw, &remap, vertices.len());
        let triangles: Vec<[u32; 3]> = raw
            .triangles
            .iter()
            .map(|t| t.map(|v| remap[v as usize]))
            .filter(|w| area_vector(points(&vertices, *w)) != [0.0; 3])
            .collect();
        if triangles.is_empty() {
            return Err(Error::InvalidMesh("every triangle is degenerate".into()));
        }
        let bbox = bounds(&vertices, &triangles);
        let (_, shells) = shells(vertices.len(), &triangles);
        Ok(Mesh {
            degenerate: raw.triangles.len() - triangles.len(),
            used,
            vertices,
            triangles,
            input_triangles: raw.triangles.len(),
            shells,
            cavities: 0,
            inside_out: false,
            bbox,
            tetra: None,
        })
    }

    /// Volume, mass, centre of mass and inertia tensor (about the centre of mass) of this
    /// solid at uniform `density` (mass per unit volume), by the exact `tetra` method: one
    /// call, as parry's `shape.mass_properties(density)`.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] for a density that is not positive and finite;
    /// [`Error::InvalidMesh`] for a surface from [`Mesh::surface`], which need not enclose
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
                name: "density".into(),
                value: density,
            });
        }
        let p = self.tetra.ok_or_else(|| {
            Error::InvalidMesh(
                "an open surface encloses no volume: integrate it as a thin shell".into(),
            )
        })?;
        Ok(p.scaled_mass(density))
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

    /// Welded vertices.
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
    /// assert_eq!((m.vertex_count(), m.vertices().len()), (8, 9));
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

    /// Splits the mesh into shells, checks each one's orientation (see [`crate::shells`]),
    /// and turns an entirely inside-out mesh right way out.
    fn check_shells(&mut self, origin: &[usize], place: &dyn Fn(usize) -> String) -> Result<()> {
        use crate::shells::Refusal;
        use rayon::prelude::*;
        let (shell_of, n_shells) = shells(self.vertices.len(), &self.triangles);
        let labels: Vec<u32> = self
            .triangles
            .par_iter()
            .map(|t| shell_of[t[0] as usize] as u32)
            .collect();
        let r = self.corners(0)[0];
        let verdict = crate::shells::check(&labels, n_shells, r, |t| self.corners(t));
        let at = |shell: usize, first: usize| {
            format!("shell {} (from {})", shell + 1, place(origin[first]))
        };
        let verdict = verdict.map_err(|refusal| {
            Error::InvalidMesh(match refusal {
                Refusal::Overflow { shell, first } => {
                    return Error::Unresolvable(format!(
                        "{}: its volume overflows f64 (coordinates too large: give them in a larger unit)",
                        at(shell, first)
                    ));
                }
                Refusal::Flat { shell, first } => format!(
                    "{} encloses no volume (it is flat, or folds back onto itself)",
                    at(shell, first)
                ),
                Refusal::Touches { shell, first } => format!(
                    "{} touches another shell: cannot tell whether it is a cavity",
                    at(shell, first)
                ),
                Refusal::Misplaced {
                    shell,
                    first,
                    inward,
                } => format!(
                    "{} {}: fix the orientation of its triangles",
                    at(shell, first),
                    if inward {
                        "is wound inward (negative volume) but is not inside another shell"
                    } else {
                        "is wound outward but lies inside another shell"
                    }
                ),
                Refusal::CavityOutside { shell, first } => format!(
                    "{} is a cavity that reaches outside the body around it: shells intersect",
                    at(shell, first)
                ),
                Refusal::Outweighed { total } => format!(
                    "the shells intersect: cavities enclose more volume than the bodies ({total})"
                ),
            })
        })?;
        self.shells = verdict.shells;
        self.cavities = verdict.cavities;
        self.inside_out = verdict.inside_out;
        if self.inside_out {
            for t in &mut self.triangles {
                t.swap(1, 2);
            }
        }
        Ok(())
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
    use super::test_meshes::*;
    use super::*;

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
        let e = err(&m);
        assert!(e.starts_with("inconsistent winding: triangle"), "{e}");
        assert!(e.contains("in the same direction"), "{e}");
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
