//! The one path from a body's raw triangles to a validated mesh ([`validate`]), which
//! [`Mesh::new`] and the command line both take: the pipeline's one weld
//! ([`welded_points`]), the edges checked exactly (naming the triangle at fault), the
//! repairs that close an imperfect mesh, each made once and in a fixed order, the shell
//! check and integrals of [`Mesh::closed`](crate::Mesh), the overlap check on the same
//! weld, and the judgement of the repairs' bounds ([`crate::tolerance`]). The parallel
//! shortcut in [`crate::solid`] answers a file closed and clean as written without
//! building a mesh; it writes no rule of its own, and gives way to this path for anything
//! else.
//!
//! `Mesh::new` and `Mesh::surface` are written here rather than in `crate::mesh`, which
//! the weld's module imports.

use super::{IndexedSoup, Welded, welded_points};
use crate::body::{Contacts, Joined, Junctions, Repairs};
use crate::error::{Error, Missing, OverlapAt, Result};
use crate::mesh::{MAX_TRIANGLES, Mesh, RawMesh, area_vector};
use crate::tolerance::{Checks, OverlapPolicy};
use nalgebra::Point3;
use std::borrow::Cow;

/// A raw mesh welded: the distinct points its triangles use, in order of first use, each
/// input triangle's corners as their numbers, and the weld itself (for the checks after).
pub(crate) struct WeldedRaw {
    /// The distinct points, in order of first use by a triangle.
    pub(crate) vertices: Vec<Point3<f64>>,
    /// Every input triangle's corners, numbered among `vertices`.
    pub(crate) triangles: Vec<[u32; 3]>,
    /// The weld, for the overlap check.
    pub(crate) welded: Welded,
}

/// A vertex list seen as a soup of triangles, three vertices each (the last one repeated
/// to fill the last), so that the weld compares each vertex once rather than each corner.
struct VertexList<'a>(&'a [[f64; 3]]);

impl super::Soup for VertexList<'_> {
    type Point = [u64; 3];
    fn len(&self) -> usize {
        self.0.len().div_ceil(3)
    }
    fn triangle(&self, t: usize) -> [[u64; 3]; 3] {
        let last = self.0.len().saturating_sub(1);
        [0, 1, 2].map(|k| crate::mesh::key(self.0[(3 * t + k).min(last)]))
    }
}

/// Welds `raw` (see [`WeldedRaw`]).
///
/// # Errors
/// [`Error::Empty`] for no triangles, [`Error::TooLarge`] for more than
/// [`MAX_TRIANGLES`].
pub(crate) fn weld_raw(raw: &RawMesh) -> Result<WeldedRaw> {
    if raw.triangles.is_empty() {
        return Err(Error::Empty {
            missing: Missing::Triangles,
        });
    }
    let count = raw.triangles.len() as u64;
    let too_many = || Error::TooLarge {
        excess: crate::error::Excess::Triangles {
            count,
            max: MAX_TRIANGLES,
        },
    };
    if count > MAX_TRIANGLES {
        return Err(too_many());
    }
    // Each input vertex welded once (a reader lists a shared point once or a few times,
    // where the triangles list it about six times), then each corner given its vertex's
    // number.
    let welded = if raw.vertices.is_empty() {
        welded_points(&IndexedSoup(raw)).ok_or_else(too_many)?
    } else {
        let list = welded_points(&VertexList(&raw.vertices)).ok_or_else(too_many)?;
        use rayon::prelude::*;
        let ids = raw
            .triangles
            .par_iter()
            .flat_map_iter(|t| t.map(|v| list.ids[v as usize]))
            .collect();
        Welded::of(ids, list.points)
    };
    // Point numbers made dense in order of first use (a cheap pass: this path explains).
    let mut dense = vec![u32::MAX; welded.points];
    let mut vertices = Vec::new();
    let triangles = raw
        .triangles
        .iter()
        .enumerate()
        .map(|(t, tri)| {
            let ids = welded.corners(t);
            std::array::from_fn(|k| {
                let d = &mut dense[ids[k] as usize];
                if *d == u32::MAX {
                    *d = vertices.len() as u32;
                    vertices.push(Point3::from(raw.vertices[tri[k] as usize]));
                }
                *d
            })
        })
        .collect();
    Ok(WeldedRaw {
        vertices,
        triangles,
        welded,
    })
}

/// [`Mesh::new`], with bodies allowed to overlap when `overlapping` (`--overlap sum`: a
/// shell wound outward is a body even where it lies inside another); with the mesh or the
/// defect, the weld (none when the mesh could not be welded).
pub(crate) fn build(raw: &RawMesh, overlapping: bool) -> (Result<Mesh>, Option<Welded>) {
    let WeldedRaw {
        vertices,
        triangles: all,
        welded,
    } = match weld_raw(raw) {
        Ok(w) => w,
        Err(e) => return (Err(e), None),
    };
    let used = vertices.len();
    // Keep triangles with three distinct points (in place); remember each one's input
    // number.
    let mut triangles = all;
    let mut origin: Vec<usize> = Vec::with_capacity(triangles.len());
    let mut t = 0;
    triangles.retain(|w| {
        let keep = !super::weld::repeats(w);
        if keep {
            origin.push(t);
        }
        t += 1;
        keep
    });
    let degenerate = raw.triangles.len() - triangles.len();
    let mesh = (|| {
        if triangles.is_empty() {
            return Err(Error::AllDegenerate {
                triangles: raw.triangles.len(),
            });
        }
        crate::mesh::check_edges(&vertices, &triangles, &origin, raw)?;
        Mesh::closed(
            vertices,
            triangles,
            origin,
            (raw.triangles.len(), used),
            degenerate,
            &|t| raw.place(t),
            overlapping,
        )
    })();
    (mesh, Some(welded))
}

/// [`Mesh::surface`], with the weld.
pub(crate) fn surface(raw: &RawMesh) -> Result<(Mesh, Welded)> {
    let WeldedRaw {
        vertices,
        triangles,
        welded,
    } = weld_raw(raw)?;
    let used = vertices.len();
    let triangles: Vec<[u32; 3]> = triangles
        .into_iter()
        .filter(|w| {
            area_vector(w.map(|v| {
                let p = vertices[v as usize];
                [p.x, p.y, p.z]
            })) != [0.0; 3]
        })
        .collect();
    if triangles.is_empty() {
        return Err(Error::AllDegenerate {
            triangles: raw.triangles.len(),
        });
    }
    let mesh = Mesh::open_surface(vertices, triangles, raw.triangles.len(), used);
    Ok((mesh, welded))
}

/// A mesh validated by [`validate`], with what the overlap check found beyond its
/// contacts (which the mesh records).
pub(crate) struct Validated {
    pub(crate) mesh: Mesh,
    /// When bodies are summed or united: the first two triangles found crossing.
    pub(crate) summed: Option<OverlapAt>,
    /// When bodies are united: contacts too large for the repair tolerance, which the union
    /// resolves exactly instead.
    #[cfg_attr(not(feature = "union"), allow(dead_code))]
    pub(crate) unite: bool,
}

/// What [`overlap_judged`] found: the contacts taken for touching, and what
/// [`Validated`] says beyond them.
pub(crate) struct Judged {
    pub(crate) contacts: Option<Contacts>,
    pub(crate) summed: Option<OverlapAt>,
    pub(crate) unite: bool,
}

/// The one path from a body's raw triangles to a validated [`Mesh`], for the library and
/// the command line alike: welded, closed, wound consistently, its shells sorted into
/// bodies and cavities, checked for triangles that cross or coincide, and its repairs'
/// bounds judged ([`crate::tolerance`]).
///
/// A defect is mended only by the repair made for it, each at most once, in this order:
/// an open mesh by joining open corners within the weld tolerance, then by splitting
/// triangles at T-junctions; inconsistent winding by turning triangles to agree with their
/// neighbours. A mesh that no repair closes is refused with the defect of the last mesh
/// whose triangles are the file's (a split mesh's are not). `clean`: the caller knows that
/// no two triangles overlap (a 3MF object checked once for all its items).
pub(crate) fn validate(raw: &RawMesh, checks: &Checks, clean: bool) -> Result<Validated> {
    let Closed {
        mut mesh,
        welded,
        raw,
    } = closed(raw, checks)?;
    let soup = IndexedSoup(&raw);
    let volume = || mesh.tetra_integral().map_or(0.0, |p| p.volume);
    let junctions = mesh.repairs.junctions;
    let judged = overlap_judged(&soup, welded, junctions, volume, checks, clean)?;
    mesh.repairs.contacts = judged.contacts;
    Ok(Validated {
        mesh,
        summed: judged.summed,
        unite: judged.unite,
    })
}

/// The overlap check on a closed body's triangles (welded by `welded`, or not yet), then
/// the judgement of its repairs' bounds against its `volume`: the contacts taken for
/// touching and, when bodies are summed or united, the first two triangles found crossing.
/// Contacts are not judged when bodies are summed (the sum counts shared space twice by
/// request). When bodies are united, contacts whose bound (with the T-junctions') is more
/// than the repair tolerance allows are left to the union, which measures them exactly.
pub(crate) fn overlap_judged<S: super::Soup>(
    soup: &S,
    welded: Option<Welded>,
    junctions: Option<Junctions>,
    volume: impl FnOnce() -> f64,
    checks: &Checks,
    clean: bool,
) -> Result<Judged> {
    let found = match (clean, welded) {
        (true, _) => Ok(None),
        (false, Some(w)) => crate::overlap::check_welded(soup, w),
        (false, None) => crate::overlap::check(soup),
    };
    let (contacts, summed) = match (found, checks.overlap) {
        (Ok(c), _) => (c, None),
        (Err(o), policy) if policy.allows_overlap() => (None, Some(o.at(soup))),
        (Err(o), _) => {
            return Err(Error::Overlapping {
                at: o.at(soup),
                sum_allowed: true,
            });
        }
    };
    let judged = Judged {
        contacts,
        summed,
        unite: false,
    };
    let touching = contacts.filter(|c| c.count > 0 && checks.overlap != OverlapPolicy::Sum);
    if touching.is_none() && junctions.is_none() {
        return Ok(judged);
    }
    let volume = volume();
    let tolerance = checks.repair_tolerance;
    let both = crate::tolerance::judge(touching, junctions, volume, tolerance);
    #[cfg(feature = "union")]
    if both.is_err() && touching.is_some() && checks.overlap == OverlapPolicy::Union {
        crate::tolerance::judge(None, junctions, volume, tolerance)?;
        return Ok(Judged {
            contacts: None,
            unite: true,
            ..judged
        });
    }
    both?;
    Ok(judged)
}

/// A body closed by [`closed`]: its mesh, the weld of the raw triangles it was built from,
/// and those triangles (the file's, or repaired).
struct Closed<'a> {
    mesh: Mesh,
    welded: Option<Welded>,
    raw: Cow<'a, RawMesh>,
}

/// The repairs [`closed`] has tried.
#[derive(Default)]
struct Tried {
    join: bool,
    split: bool,
    orient: bool,
}

/// `raw` built into a mesh, repaired as [`validate`] says; the mesh records its repairs.
fn closed<'a>(raw: &'a RawMesh, checks: &Checks) -> Result<Closed<'a>> {
    let summing = checks.overlap.allows_overlap();
    let mut repairs = Repairs::default();
    let mut tried = Tried::default();
    let mut joined_within = checks.weld_tolerance.unwrap_or(0.0);
    let mut current = Cow::Borrowed(raw);
    // The refusal to give if no repair closes the body.
    let mut refusal = None;
    loop {
        let (built, welded) = build(&current, summing);
        let e = match built {
            Ok(mut mesh) => {
                mesh.repairs = repairs;
                return Ok(Closed {
                    mesh,
                    welded,
                    raw: current,
                });
            }
            Err(e) => e,
        };
        let split = repairs.junctions.is_some();
        let next = repaired(&current, &e, checks, &mut tried, &mut repairs);
        if !split {
            if let Some(j) = repairs.joined {
                joined_within = checks.weld_tolerance.unwrap_or(j.tolerance);
            }
            refusal = Some((e, welded, current));
        }
        match next {
            Some(r) => current = Cow::Owned(r),
            None => {
                let (e, welded, at) = refusal.expect("set above");
                return Err(explained(e, welded, &at, checks, joined_within));
            }
        }
    }
}

/// The repair for `e`, a refusal of `raw`, that has not been tried yet: the repaired
/// triangles, the repair recorded in `repairs`; `None` when none is left that changes
/// anything.
fn repaired(
    raw: &RawMesh,
    e: &Error,
    checks: &Checks,
    tried: &mut Tried,
    repairs: &mut Repairs,
) -> Option<RawMesh> {
    match e {
        Error::OpenMesh { .. } => {
            if !std::mem::replace(&mut tried.join, true) {
                let (joined, points, tolerance) = match checks.weld_tolerance {
                    Some(t) => {
                        let (w, m) = raw.welded_within(t);
                        (w, m, t)
                    }
                    None => raw.welded_by_rounding(),
                };
                if points > 0 {
                    repairs.joined = Some(Joined { points, tolerance });
                    return Some(joined);
                }
            }
            if !std::mem::replace(&mut tried.split, true) {
                let (split, found) = raw.split_at_junctions()?;
                repairs.junctions = Some(found);
                return Some(split);
            }
            None
        }
        Error::InconsistentWinding { .. } if !std::mem::replace(&mut tried.orient, true) => {
            let (turned, count) = raw.reoriented()?;
            repairs.reoriented = Some(count);
            Some(turned)
        }
        _ => None,
    }
}

/// Refusal `e` of `raw` (welded by `welded`) said as it is best understood: an open mesh
/// with the gap between its nearest open corners when that gap is noise beside its edges
/// (more than the `joined_within` tolerance the corners were joined within, less than a
/// thousandth of the edges); a closed mesh refused for its shells with the two triangles
/// that cross, when some do (overlapping bodies are the likelier cause).
fn explained(
    e: Error,
    welded: Option<Welded>,
    raw: &RawMesh,
    checks: &Checks,
    joined_within: f64,
) -> Error {
    match e {
        Error::OpenMesh {
            boundary_edges,
            edge,
            triangle,
            ..
        } => {
            let gap = nearest_open_corners(raw)
                .filter(|&(d, length)| d > joined_within && d < 1e-3 * length)
                .map(|(d, _)| d);
            Error::OpenMesh {
                boundary_edges,
                edge,
                triangle,
                nearest_gap: gap,
            }
        }
        Error::InconsistentWinding { .. } => e,
        e => {
            let soup = IndexedSoup(raw);
            match welded.map(|w| crate::overlap::check_welded(&soup, w)) {
                // Summing is still offered: with it, shells may lie in one another.
                Some(Err(o)) => Error::Overlapping {
                    at: o.at(&soup),
                    sum_allowed: checks.overlap == OverlapPolicy::Refuse,
                },
                _ => e,
            }
        }
    }
}

impl Mesh {
    /// Welds and validates a raw mesh by every check the command line runs, with its
    /// defaults ([`Checks::default`]): see [`Mesh::with_checks`].
    ///
    /// # Errors
    /// As [`Mesh::with_checks`].
    ///
    /// # Examples
    /// ```
    /// let cube = inertia::Mesh::new(&inertia::shape::Shape3d::Box { size: [1.0; 3] }.tessellate(0))?;
    /// assert_eq!(cube.shell_count(), 1);
    /// # Ok::<(), inertia::Error>(())
    /// ```
    pub fn new(raw: &RawMesh) -> Result<Self> {
        Self::with_checks(raw, &Checks::default())
    }

    /// Welds and validates a raw mesh by every check the command line runs, the one path
    /// the command line takes: closed (open corners joined within the weld tolerance, or
    /// split into T-junctions, when that closes it), consistently wound (triangles turned
    /// to agree with their neighbours when that is possible), its shells nested as bodies
    /// and cavities, no two triangles crossing or coinciding unless `checks` sums
    /// overlapping bodies; crossings within reach are taken for bodies touching. Each
    /// repair is recorded in [`Mesh::repairs`], and the mesh is refused when their bounds
    /// together could change its volume by more than the repair tolerance.
    ///
    /// # Errors
    /// [`Error::Empty`] for no triangles; [`Error::AllDegenerate`], [`Error::OpenMesh`],
    /// [`Error::InconsistentWinding`], [`Error::BadShell`], [`Error::ShellsIntersect`],
    /// [`Error::Overlapping`], [`Error::RepairTooLarge`] and [`Error::Unphysical`] for a
    /// surface that is not a solid's; [`Error::Unresolvable`] when f64 cannot resolve its
    /// volume; [`Error::TooLarge`] for more than [`MAX_TRIANGLES`] triangles.
    ///
    /// # Examples
    /// ```
    /// use inertia::{Mesh, tolerance::{Checks, OverlapPolicy}};
    /// use inertia::shape::Shape3d;
    /// let mut twice = Shape3d::Box { size: [1.0; 3] }.tessellate(0);
    /// let again = twice.triangles.clone();
    /// twice.triangles.extend(again); // the same cube twice: refused, or summed
    /// assert!(matches!(Mesh::new(&twice), Err(inertia::Error::Overlapping { .. })));
    /// let sum = Checks { overlap: OverlapPolicy::Sum, ..Checks::default() };
    /// assert_eq!(Mesh::with_checks(&twice, &sum)?.mass_properties(1.0)?.volume, 2.0);
    /// # Ok::<(), inertia::Error>(())
    /// ```
    pub fn with_checks(raw: &RawMesh, checks: &Checks) -> Result<Self> {
        validate(raw, checks, false).map(|v| v.mesh)
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
        surface(raw).map(|(m, _)| m)
    }
}

impl RawMesh {
    /// The same mesh with its open corners (those on an edge not matched by an edge the other
    /// way) closer than `tol` (Euclidean) joined: each triangle refers to the first-listed
    /// corner of its group, whose coordinates it then uses (no corner moves by more than
    /// `tol` times the length of the chain that joined it, in practice `tol`). Corners of a
    /// closed part of the surface never move: a gap of noise leaves corners open on both
    /// sides, and only those need joining. Also returns how many distinct points were joined
    /// to another. Neighbours are found with an R*-tree (`rstar`), so the cost is
    /// O(k log k) in the k open corners, whatever their layout.
    ///
    /// # Examples
    /// ```
    /// use inertia::RawMesh;
    /// let m = RawMesh {
    ///     vertices: vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [-1.7e-17, 0.0, 0.0]],
    ///     triangles: vec![[0, 1, 2], [3, 2, 1]],
    ///     lines: vec![],
    /// };
    /// let (w, merged) = m.welded_within(1e-15);
    /// assert_eq!(merged, 1);
    /// assert_eq!(w.triangles[1], [0, 2, 1]);
    /// ```
    pub fn welded_within(&self, tol: f64) -> (RawMesh, usize) {
        if !(tol > 0.0 && tol.is_finite()) {
            return (self.clone(), 0);
        }
        let (w, merged, _) = self.joined_open(|_, _| tol);
        (w, merged)
    }

    /// [`RawMesh::welded_within`] with each corner's own tolerance: 8 units in the last
    /// place of the larger of its largest coordinate and its longest edge (the scale of the
    /// part around it, so that `-1.7e-17` beside `0` in a part 100 long is noise), but never
    /// more than a thousandth of its shortest edge (so that a small part far from the
    /// origin, whose coordinates' last place is coarse, keeps its shape). Two corners join
    /// when they lie within both their tolerances. Returns the joined mesh, how many
    /// distinct points were joined to another, and the largest distance joined (0 if none).
    ///
    /// # Examples
    /// ```
    /// use inertia::RawMesh;
    /// // A sliver of noise at the origin (joined), and a unit triangle 1e15 away with a
    /// // corner 0.25 off its twin (not joined: a quarter of its edges, though 8 units in
    /// // the last place there are 1).
    /// let m = RawMesh {
    ///     vertices: vec![
    ///         [0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [-1.7e-17, 0.0, 0.0],
    ///         [1e15, 0.0, 0.0], [1e15 + 1.0, 0.0, 0.0], [1e15, 1.0, 0.0], [1e15 + 0.25, 0.0, 0.0],
    ///     ],
    ///     triangles: vec![[0, 1, 2], [3, 2, 1], [4, 5, 6], [7, 6, 5]],
    ///     lines: vec![],
    /// };
    /// let (w, merged, largest) = m.welded_by_rounding();
    /// assert_eq!((merged, largest), (1, 1.7e-17));
    /// assert_eq!(w.triangles[3], [7, 6, 5]);
    /// ```
    pub fn welded_by_rounding(&self) -> (RawMesh, usize, f64) {
        self.joined_open(|p, (shortest, longest)| {
            let scale = p.iter().fold(longest, |m, x| m.max(x.abs()));
            (8.0 * f64::EPSILON * scale).min(1e-3 * shortest)
        })
    }

    /// [`RawMesh::weld_open`] after the exact weld (nothing joined when there are no
    /// triangles to weld).
    fn joined_open(&self, tol: impl Fn(&[f64; 3], (f64, f64)) -> f64) -> (RawMesh, usize, f64) {
        match weld_raw(self) {
            Ok(w) => self.weld_open(&w.vertices, &w.triangles, tol),
            Err(_) => (self.clone(), 0, 0.0),
        }
    }
}

/// The distance between the two closest distinct corners that lie on the mesh's boundary
/// edges (after welding identical points), and the length of its shortest boundary edge,
/// or `None` if it has fewer than two such corners: how far apart the pieces of an open
/// mesh are beside its own edges, to suggest a weld tolerance only for a gap of noise.
///
/// # Examples
/// ```
/// use inertia::RawMesh;
/// // Two triangles that would share an edge but for 1e-9 of noise.
/// let m = RawMesh {
///     vertices: vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1e-9, 0.0, 0.0], [1.0, 1.0, 0.0]],
///     triangles: vec![[0, 1, 2], [3, 2, 1]],
///     lines: vec![],
/// };
/// assert_eq!(inertia::details::nearest_open_corners(&m), Some((1e-9, 0.999999999)));
/// ```
pub fn nearest_open_corners(raw: &RawMesh) -> Option<(f64, f64)> {
    let w = weld_raw(raw).ok()?;
    crate::mesh::open_gap(&w.vertices, &w.triangles)
}

#[cfg(test)]
mod tests {
    use super::{IndexedSoup, Mesh, RawMesh, surface};
    use crate::mesh::test_meshes::{cuboid, flipped, soup, union};
    use crate::shape::Shape3d;

    /// The one path and the parallel one reach the same mesh: the same points (as a
    /// set), triangles, counts and integrals.
    fn agree(raw: &RawMesh) {
        let general = Mesh::new(raw).unwrap();
        let fast = crate::soup::mesh(&IndexedSoup(raw)).expect("a sound mesh");
        let sorted = |m: &Mesh| {
            let mut v: Vec<[u64; 3]> = m
                .vertices()
                .iter()
                .map(|p| crate::mesh::key([p.x, p.y, p.z]))
                .collect();
            v.sort_unstable();
            v
        };
        assert_eq!(sorted(&general), sorted(&fast));
        assert_eq!(general.triangles().len(), fast.triangles().len());
        assert_eq!(
            (
                general.vertex_count(),
                general.degenerate_count(),
                general.shell_count(),
                general.cavity_count()
            ),
            (
                fast.vertex_count(),
                fast.degenerate_count(),
                fast.shell_count(),
                fast.cavity_count()
            )
        );
        let (g, f) = (
            general.tetra_integral().unwrap(),
            fast.tetra_integral().unwrap(),
        );
        assert!((g.volume - f.volume).abs() <= 1e-12 * f.volume.abs());
        assert!((g.inertia - f.inertia).abs().max() <= 1e-11 * f.inertia.abs().max());
    }

    #[test]
    fn the_general_path_welds_as_the_parallel_one() {
        let cube = cuboid([1e6, -2e6, 3e6], [1.0, 2.0, 3.0]);
        agree(&cube);
        agree(&soup(&cube));
        agree(&union(
            &cuboid([0.0; 3], [4.0; 3]),
            &flipped(&cuboid([1.0; 3], [1.0; 3])),
        ));
        agree(&Shape3d::Sphere { radius: 2.0 }.tessellate(24));
        // A vertex no triangle uses, a twin at -0.0, a triangle repeating a point.
        let mut odd = cuboid([0.0; 3], [1.0; 3]);
        odd.vertices.push([9.0; 3]);
        let zero = odd.vertices.iter().position(|p| *p == [0.0; 3]).unwrap() as u32;
        odd.vertices.push([-0.0, 0.0, -0.0]);
        let twin = (odd.vertices.len() - 1) as u32;
        for t in odd.triangles.iter_mut().take(2) {
            for v in t.iter_mut().filter(|v| **v == zero) {
                *v = twin;
            }
        }
        odd.triangles.push([zero, twin, 1]);
        agree(&odd);
        let m = Mesh::new(&odd).unwrap();
        assert_eq!((m.vertices().len(), m.degenerate_count()), (8, 1));
    }

    #[test]
    fn the_surface_and_its_weld_go_together() {
        let mut raw = cuboid([0.0; 3], [1.0; 3]);
        raw.triangles.pop();
        let (mesh, welded) = surface(&raw).unwrap();
        assert_eq!((mesh.vertices().len(), welded.points), (8, 8));
        assert_eq!(mesh.triangles().len(), 11);
    }
}
