//! Finishing a `Mesh` once welded (by the pipeline's one weld, in `crate::soup`, which
//! also writes `Mesh::new`): sorting it into shells and deciding cavities
//! (`crate::shells`), and checking the result is physical.

use super::Mesh;
use super::numerics::{area_vector, physical};
use super::topology::shells;
use crate::body::BoundingBox;
use crate::error::{Error, Result, ShellProblem};
use nalgebra::Point3;

/// The corners of triangle `t` as coordinate arrays.
#[inline]
fn points(vertices: &[Point3<f64>], t: [u32; 3]) -> [[f64; 3]; 3] {
    let p = |v: u32| -> [f64; 3] { vertices[v as usize].into() };
    [p(t[0]), p(t[1]), p(t[2])]
}

/// Axis-aligned bounds of the vertices the triangles use.
fn bounds(vertices: &[Point3<f64>], triangles: &[[u32; 3]]) -> (Point3<f64>, Point3<f64>) {
    // Minima and maxima are exact in any order: on every core.
    use rayon::prelude::*;
    let b = triangles
        .par_iter()
        .fold(BoundingBox::empty, |mut b, t| {
            for &v in t {
                b.include(&vertices[v as usize].into());
            }
            b
        })
        .reduce(BoundingBox::empty, |a, b| a.union(&b));
    (b.min.into(), b.max.into())
}

impl Mesh {
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
        place: &dyn Fn(usize) -> crate::error::InputTriangle,
        overlapping: bool,
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
            return Err(Error::AllDegenerate { triangles: input.0 });
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
            nested: 0,
            inside_out: false,
            bbox,
            tetra: None,
            repairs: Default::default(),
        };
        mesh.check_shells(&origin, place, overlapping)?;
        // A closed surface that passes through itself has no well-defined inside; its signed
        // integrals come out unphysical (negative moments). Finding every self-intersection
        // is costly, but the physical checks on the result catch the ones that matter.
        // Several shells were summed each about its own corner (see `shells::check`).
        let p = match mesh.tetra {
            Some(p) => p,
            None => {
                let r = mesh.corners(0)[0];
                let sums = crate::sums::of_triangles(mesh.triangles.len(), r, |t| mesh.corners(t));
                sums.check_resolution()?;
                sums.finish(r)
            }
        };
        physical(&p)?;
        mesh.tetra = Some(p);
        Ok(mesh)
    }

    /// A surface that need not be closed (for thin shells), welded already: `triangles`
    /// (each of some area) index `vertices`, `input` input triangles used `used` distinct
    /// points. Its shells are counted; nothing else is checked.
    pub(crate) fn open_surface(
        vertices: Vec<Point3<f64>>,
        triangles: Vec<[u32; 3]>,
        input: usize,
        used: usize,
    ) -> Self {
        let bbox = bounds(&vertices, &triangles);
        let (_, shells) = shells(vertices.len(), &triangles);
        Mesh {
            degenerate: input - triangles.len(),
            used,
            vertices,
            triangles,
            input_triangles: input,
            shells,
            cavities: 0,
            nested: 0,
            inside_out: false,
            bbox,
            tetra: None,
            repairs: Default::default(),
        }
    }

    /// Splits the mesh into shells, checks each one's orientation (see [`crate::shells`]),
    /// and turns an entirely inside-out mesh right way out.
    fn check_shells(
        &mut self,
        origin: &[usize],
        place: &dyn Fn(usize) -> crate::error::InputTriangle,
        overlapping: bool,
    ) -> Result<()> {
        use crate::error::Unresolved;
        use crate::shells::Refusal;
        let (labels, n_shells) = shells(self.vertices.len(), &self.triangles);
        let bad = |shell: usize, first: usize, problem| Error::BadShell {
            shell: shell + 1,
            first: place(origin[first]),
            problem,
        };
        let verdict = crate::shells::check(&labels, n_shells, |t| self.corners(t), overlapping);
        let verdict = verdict.map_err(|refusal| match refusal {
            Refusal::Overflow { shell, first } => Error::Unresolvable {
                what: Unresolved::ShellOverflow {
                    shell: shell + 1,
                    first: place(origin[first]),
                },
            },
            Refusal::Flat { shell, first } => bad(shell, first, ShellProblem::Flat),
            Refusal::Unresolvable {
                shell,
                first,
                volume,
                error,
            } => Error::Unresolvable {
                what: Unresolved::ShellVolume {
                    shell: shell + 1,
                    first: place(origin[first]),
                    volume,
                    error,
                },
            },
            Refusal::Touches { shell, first } => bad(shell, first, ShellProblem::TouchesAnother),
            Refusal::Misplaced {
                shell,
                first,
                inward,
            } => bad(
                shell,
                first,
                if inward {
                    ShellProblem::InwardOutside
                } else {
                    ShellProblem::OutwardInside
                },
            ),
            Refusal::CavityOutside { shell, first } => {
                bad(shell, first, ShellProblem::CavityOutside)
            }
            Refusal::Outweighed { total } => Error::ShellsIntersect {
                total_volume: total,
            },
        })?;
        self.shells = verdict.shells;
        self.cavities = verdict.cavities;
        self.nested = verdict.nested;
        self.inside_out = verdict.inside_out;
        self.tetra = verdict.properties;
        if self.inside_out {
            for t in &mut self.triangles {
                t.swap(1, 2);
            }
        }
        Ok(())
    }
}
