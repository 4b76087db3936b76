//! Building a `Mesh`: welding identical vertices, proving the surface closed and
//! consistently wound (the exact edge sort of `topology.rs`), sorting it into shells and
//! deciding cavities (`crate::shells`), and checking the result is physical.

use super::numerics::*;
use super::raw::RawMesh;
use super::topology::*;
use super::{Mesh, key};
use crate::error::{Error, Result, ShellProblem};
use nalgebra::Point3;

/// Merges vertices with identical coordinates: the distinct vertices, in order of first
/// appearance, and for each input vertex its index among them. The vertices are sorted by
/// their coordinates' bits on every core (a hash map, one insertion after another, was
/// the slowest part of explaining a large open mesh, which welds more than once).
pub(super) fn weld(raw: &RawMesh) -> (Vec<Point3<f64>>, Vec<u32>) {
    use rayon::prelude::*;
    let n = raw.vertices.len();
    let mut order: Vec<([u64; 3], u32)> = raw
        .vertices
        .par_iter()
        .enumerate()
        .map(|(i, &p)| (key(p), i as u32))
        .collect();
    order.par_sort_unstable();
    // Each vertex's first twin (the least index with its coordinates).
    let mut first = vec![0u32; n];
    for run in order.chunk_by(|a, b| a.0 == b.0) {
        for &(_, i) in run {
            first[i as usize] = run[0].1;
        }
    }
    drop(order);
    // Numbered in order of first appearance.
    let mut id = vec![0u32; n];
    let mut vertices = Vec::new();
    for i in 0..n {
        let f = first[i] as usize;
        id[i] = if f == i {
            vertices.push(Point3::from(raw.vertices[i]));
            (vertices.len() - 1) as u32
        } else {
            id[f]
        };
    }
    (vertices, id)
}

/// Refuses more than [`MAX_TRIANGLES`](super::MAX_TRIANGLES) triangles.
fn too_many(raw: &RawMesh) -> Result<()> {
    let count = raw.triangles.len() as u64;
    if count > super::MAX_TRIANGLES {
        return Err(Error::TooLarge {
            excess: crate::error::Excess::Triangles {
                count,
                max: super::MAX_TRIANGLES,
            },
        });
    }
    Ok(())
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

impl Mesh {
    /// Welds and validates a raw mesh.
    ///
    /// # Errors
    /// [`Error::Empty`] for no triangles; [`Error::AllDegenerate`], [`Error::OpenMesh`],
    /// [`Error::InconsistentWinding`], [`Error::BadShell`], [`Error::ShellsIntersect`] and
    /// [`Error::Unphysical`] for a surface that is not a solid's; [`Error::Unresolvable`]
    /// when f64 cannot resolve its volume; [`Error::TooLarge`] for more than
    /// [`MAX_TRIANGLES`](super::MAX_TRIANGLES) triangles.
    ///
    /// # Examples
    /// ```
    /// let cube = inertia::Mesh::new(&inertia::shape::Shape3d::Box { size: [1.0; 3] }.tessellate(0))?;
    /// assert_eq!(cube.shell_count(), 1);
    /// # Ok::<(), inertia::Error>(())
    /// ```
    pub fn new(raw: &RawMesh) -> Result<Self> {
        Self::build(raw, false)
    }

    /// [`Mesh::new`]; with `overlapping`, bodies may overlap (`--overlap sum`): a shell
    /// wound outward is a body even where it lies inside another.
    pub(crate) fn build(raw: &RawMesh, overlapping: bool) -> Result<Self> {
        if raw.triangles.is_empty() {
            return Err(Error::Empty {
                missing: crate::error::Missing::Triangles,
            });
        }
        too_many(raw)?;
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
            return Err(Error::AllDegenerate {
                triangles: raw.triangles.len(),
            });
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
            overlapping,
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

    /// Welds a surface that need not be closed (for thin shells): identical vertices are
    /// merged and degenerate triangles dropped and counted, nothing else is checked.
    ///
    /// # Errors
    /// [`Error::Empty`] for no triangles, [`Error::AllDegenerate`] when none has an area.
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
            return Err(Error::Empty {
                missing: crate::error::Missing::Triangles,
            });
        }
        too_many(raw)?;
        let (vertices, remap) = weld(raw);
        let used = used_vertices(raw, &remap, vertices.len());
        let triangles: Vec<[u32; 3]> = raw
            .triangles
            .iter()
            .map(|t| t.map(|v| remap[v as usize]))
            .filter(|w| area_vector(points(&vertices, *w)) != [0.0; 3])
            .collect();
        if triangles.is_empty() {
            return Err(Error::AllDegenerate {
                triangles: raw.triangles.len(),
            });
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
            nested: 0,
            inside_out: false,
            bbox,
            tetra: None,
        })
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
