//! `--overlap union` (feature `union`): the bodies of a mesh that overlap, replaced by the
//! solid they occupy together, through CGAL's exact corefinement (`cgal.cpp`).
//!
//! The mesh comes validated with bodies allowed to overlap (as for `--overlap sum`): closed,
//! consistently wound, each shell outward (a body) or inward (a cavity). CGAL splits it into
//! shells, gives each cavity to the innermost body holding it, and unites the bodies whose
//! boxes meet with `corefine_and_compute_union` on exact predicates and exact constructions,
//! so the union's surface is exact. Its new points (where surfaces cross) are rational; each
//! is rounded to `f64` (within a unit in the last place), and [`Union::volume_bound`] bounds
//! what that rounding can change: every point of a triangle moves at most `d` (its largest
//! corner's move), so the rounded surface sweeps at most the triangle's `d`-neighbourhood,
//! `2dA + π/2·d²P + 4π/3·d³` for area `A` and perimeter `P`, and the volume changes by no
//! more than the sum of these over the triangles with a rounded corner.

use crate::body::Union;
use crate::error::{Error, Result, UnionProblem};
use crate::mesh::Mesh;
use nalgebra::Point3;
use std::ffi::{CStr, c_char, c_void};

unsafe extern "C" {
    fn inertia_union(
        xyz: *const f64,
        nv: usize,
        tris: *const u32,
        nt: usize,
        seconds: f64,
        out: *mut *mut c_void,
    ) -> i32;
    fn inertia_union_vertices(r: *const c_void) -> usize;
    fn inertia_union_triangles(r: *const c_void) -> usize;
    fn inertia_union_xyz(r: *const c_void) -> *const f64;
    fn inertia_union_corners(r: *const c_void) -> *const u32;
    fn inertia_union_rounded(r: *const c_void) -> *const u8;
    fn inertia_union_counts(
        r: *const c_void,
        bodies: *mut u64,
        united: *mut u64,
        cavities: *mut u64,
        resolved: *mut u64,
    );
    fn inertia_union_message(r: *const c_void) -> *const c_char;
    fn inertia_union_free(r: *mut c_void);
}

/// The shim's result, freed when dropped.
struct Handle(*mut c_void);

impl Drop for Handle {
    fn drop(&mut self) {
        if !self.0.is_null() {
            // SAFETY: the pointer came from `inertia_union` and is freed once.
            unsafe { inertia_union_free(self.0) }
        }
    }
}

/// The union of `mesh`'s bodies as a validated mesh (every shell of it disjoint from the
/// others), and what uniting did.
///
/// # Errors
/// [`Error::Union`] when CGAL cannot unite them (a body's surface crosses itself, the
/// union's surface would not be a 2-manifold, or CGAL did not finish within
/// [`seconds`]); the union mesh's own refusals otherwise.
pub(crate) fn united(mesh: &Mesh) -> Result<(Mesh, Union)> {
    united_within(mesh, seconds(mesh.triangles().len()))
}

/// [`united`], CGAL given `limit` seconds.
fn united_within(mesh: &Mesh, limit: f64) -> Result<(Mesh, Union)> {
    let (points, tris) = separated(mesh);
    let xyz: Vec<f64> = points.iter().flat_map(|p| [p.x, p.y, p.z]).collect();
    let tris: Vec<u32> = tris.into_iter().flatten().collect();
    let mut out = std::ptr::null_mut();
    // SAFETY: the slices live across the call and hold `nv` points and `nt` triangles
    // whose corners index them; `out` receives an owned result (or null).
    let code = unsafe {
        inertia_union(
            xyz.as_ptr(),
            points.len(),
            tris.as_ptr(),
            tris.len() / 3,
            limit,
            &mut out,
        )
    };
    let handle = Handle(out);
    if handle.0.is_null() {
        return Err(Error::Union {
            problem: UnionProblem::Failed("out of memory".into()),
        });
    }
    if code != 0 {
        // SAFETY: the result holds a NUL-terminated message for its lifetime.
        let message = unsafe { CStr::from_ptr(inertia_union_message(handle.0)) };
        let problem = match code {
            1 => UnionProblem::NotManifold,
            2 => UnionProblem::SelfCrossing,
            3 => UnionProblem::UnionNotManifold,
            5 => UnionProblem::TimedOut {
                seconds: limit,
                triangles: tris.len() / 3,
            },
            _ => UnionProblem::Failed(message.to_string_lossy().into_owned()),
        };
        return Err(Error::Union { problem });
    }
    let (points, triangles, rounded, [bodies, united, resolved]) = read(&handle);
    let volume_bound = rounding_bound(&points, &triangles, &rounded);
    let (triangles, flat) = without_flat_shells(&points, triangles);
    let volume_bound = volume_bound + flat;
    let n = triangles.len();
    let used = points.len();
    let union = Mesh::closed(
        points,
        triangles,
        (0..n).collect(),
        (n, used),
        0,
        &|t| crate::error::InputTriangle {
            number: t + 1,
            line: None,
        },
        false,
    )
    .map_err(|e| Error::Union {
        problem: UnionProblem::Refused(Box::new(e)),
    })?;
    let sum = mesh.tetra_integral();
    let volume = |p: Option<crate::mass3d::MassProperties3d>| p.map_or(0.0, |p| p.volume);
    let shared_volume = volume(sum) - volume(union.tetra_integral());
    Ok((
        union,
        Union {
            bodies,
            united,
            resolved,
            shared_volume,
            volume_bound,
            sum,
        },
    ))
}

/// How long CGAL may take to unite `triangles` triangles before the union is refused: 5 s,
/// and 1 ms more a triangle. That is 7 times the slowest rate measured (100 boxes in a row,
/// 0.14 ms a triangle) and 50 times two spheres overlapping by half (20 µs a triangle).
/// CGAL 5.5 can loop without end, and a guard with no limit would not guard.
fn seconds(triangles: usize) -> f64 {
    5.0 + 1e-3 * triangles as f64
}

/// The mesh's triangles, a point copied for each fan of faces around it: faces are
/// neighbours across every edge of two faces, and around an edge of more (bodies or parts
/// of one body sharing it) face to face across the solid between them; the corners of
/// neighbours at the ends of their edge are one point. So every edge has two faces and
/// every point one fan: a 2-manifold, as CGAL needs it. Copies lie where the point lay,
/// so the surface, and the solid it bounds, are unchanged.
fn separated(mesh: &Mesh) -> (Vec<Point3<f64>>, Vec<[u32; 3]>) {
    let tris = mesh.triangles();
    let mut around: ahash::AHashMap<(u32, u32), Vec<u32>> = ahash::AHashMap::new();
    for (f, t) in tris.iter().enumerate() {
        for k in 0..3 {
            let (a, b) = (t[k], t[(k + 1) % 3]);
            around
                .entry((a.min(b), a.max(b)))
                .or_default()
                .push(f as u32);
        }
    }
    let corner = |f: u32, v: u32| {
        let k = tris[f as usize].iter().position(|&w| w == v).unwrap_or(0);
        3 * f + k as u32
    };
    let mut fans = crate::union_find::UnionFind::new(3 * tris.len());
    for (&(u, v), faces) in &around {
        let pairs = match faces.len() {
            2 => vec![(faces[0], faces[1])],
            _ => paired(mesh, u, v, faces),
        };
        for (a, b) in pairs {
            fans.union(corner(a, u), corner(b, u));
            fans.union(corner(a, v), corner(b, v));
        }
    }
    let (labels, count) = fans.labels(0..3 * tris.len() as u32);
    let mut points = vec![Point3::origin(); count];
    for (c, &l) in labels.iter().enumerate() {
        points[l as usize] = mesh.vertices()[tris[c / 3][c % 3] as usize];
    }
    let triangles = labels.chunks_exact(3).map(|l| [l[0], l[1], l[2]]).collect();
    (points, triangles)
}

/// The faces around edge `u`–`v` paired across the solid between them, by the angle of
/// their third corner about the edge.
fn paired(mesh: &Mesh, u: u32, v: u32, faces: &[u32]) -> Vec<(u32, u32)> {
    use nalgebra::Vector3;
    let p = |i: u32| mesh.vertices()[i as usize];
    let d = (p(v) - p(u)).normalize();
    let e1 = d
        .cross(&if d.x.abs() < 0.9 {
            Vector3::x()
        } else {
            Vector3::y()
        })
        .normalize();
    let e2 = d.cross(&e1);
    let mut sorted: Vec<(f64, bool, u32)> = faces
        .iter()
        .map(|&f| {
            let t = mesh.triangles()[f as usize];
            let k = (0..3).find(|&k| t[k] != u && t[k] != v).unwrap_or(0);
            let w = p(t[k]) - p(u);
            // The corner after the third is where the face's edge starts: `u` for u → v.
            let forward = t[(k + 1) % 3] == u;
            (w.dot(&e2).atan2(w.dot(&e1)), forward, f)
        })
        .collect();
    sorted.sort_by(|a, b| a.0.total_cmp(&b.0));
    // Going round by increasing angle, a face run `v → u` enters solid (the winding
    // number about the edge steps up) and one run `u → v` leaves it: matched as brackets,
    // from where the winding number is least, each pair bounds one wedge of solid.
    let step = |i: usize| if sorted[i].1 { -1 } else { 1 };
    let n = sorted.len();
    let (mut level, mut least, mut start) = (0, 0, 0);
    for i in 0..n {
        level += step(i);
        if level < least {
            (least, start) = (level, (i + 1) % n);
        }
    }
    let mut open = Vec::new();
    let mut pairs = Vec::new();
    for i in (0..n).map(|k| (start + k) % n) {
        if step(i) > 0 {
            open.push(sorted[i].2);
        } else if let Some(entered) = open.pop() {
            pairs.push((entered, sorted[i].2));
        }
    }
    pairs
}

/// The union's shells, but those that rounding made flat, and what those held: Σ |signed
/// volume| of them. A thin void of the exact union (between faces of two bodies that cross
/// each other only by the input's rounding) can round to a flat shell, which is no solid to
/// integrate; dropping it changes the volume by its rounded volume, and the exact one lies
/// within the rounding bound of its triangles, which [`rounding_bound`] counts.
fn without_flat_shells(points: &[Point3<f64>], triangles: Vec<[u32; 3]>) -> (Vec<[u32; 3]>, f64) {
    // Zero-area triangles enclose nothing, and the mesh leaves them out before it
    // counts its shells.
    let corners = |t: &[u32; 3]| t.map(|v| points[v as usize]).map(|p| [p.x, p.y, p.z]);
    let triangles: Vec<[u32; 3]> = triangles
        .into_iter()
        .filter(|t| crate::mesh::area_vector(corners(t)) != [0.0; 3])
        .collect();
    let (labels, count) = crate::mesh::shells(points.len(), &triangles);
    if count <= 1 {
        return (triangles, 0.0);
    }
    // Each shell's signed and unsigned volume, about its first corner.
    let mut origin: Vec<Option<Point3<f64>>> = vec![None; count];
    let mut signed = vec![0.0; count];
    let mut unsigned = vec![0.0; count];
    for (t, &s) in triangles.iter().zip(&labels) {
        let s = s as usize;
        let o = *origin[s].get_or_insert(points[t[0] as usize]);
        let [a, b, c] = t.map(|v| points[v as usize] - o);
        let six = a.dot(&b.cross(&c));
        signed[s] += six / 6.0;
        unsigned[s] += six.abs() / 6.0;
    }
    let flat: Vec<bool> = (0..count)
        .map(|s| crate::shells::encloses_no_volume(signed[s], unsigned[s]))
        .collect();
    let held = (0..count)
        .filter(|&s| flat[s])
        .map(|s| signed[s].abs())
        .sum();
    let kept = triangles
        .into_iter()
        .zip(labels)
        .filter(|&(_, s)| !flat[s as usize])
        .map(|(t, _)| t)
        .collect();
    (kept, held)
}

/// The result's points, triangles, which points were rounded, and its counts.
#[allow(clippy::type_complexity)]
fn read(h: &Handle) -> (Vec<Point3<f64>>, Vec<[u32; 3]>, Vec<bool>, [usize; 3]) {
    // SAFETY: the accessors read the result `h` owns; the arrays hold the lengths the
    // counting accessors give, and live until `h` is dropped (after the copies below).
    unsafe {
        let nv = inertia_union_vertices(h.0);
        let nt = inertia_union_triangles(h.0);
        let xyz = std::slice::from_raw_parts(inertia_union_xyz(h.0), 3 * nv);
        let corners = std::slice::from_raw_parts(inertia_union_corners(h.0), 3 * nt);
        let rounded = std::slice::from_raw_parts(inertia_union_rounded(h.0), nv);
        let (mut bodies, mut united, mut cavities, mut resolved) = (0, 0, 0, 0);
        inertia_union_counts(h.0, &mut bodies, &mut united, &mut cavities, &mut resolved);
        (
            xyz.chunks_exact(3)
                .map(|p| Point3::new(p[0], p[1], p[2]))
                .collect(),
            corners
                .chunks_exact(3)
                .map(|t| [t[0], t[1], t[2]])
                .collect(),
            rounded.iter().map(|&r| r != 0).collect(),
            [bodies, united, resolved].map(|n| n as usize),
        )
    }
}

/// A bound on the volume between the triangles as given and as they were before their
/// `rounded` points were rounded to `f64` (see the module's note): a rounded coordinate
/// `x` moved by less than its unit in the last place, so a point by less than `√3` of
/// the largest.
fn rounding_bound(points: &[Point3<f64>], triangles: &[[u32; 3]], rounded: &[bool]) -> f64 {
    use std::f64::consts::PI;
    let ulp = |x: f64| x.abs().next_up() - x.abs();
    let moved = |v: u32| {
        let p = points[v as usize];
        if rounded[v as usize] {
            3f64.sqrt() * ulp(p.x.abs().max(p.y.abs()).max(p.z.abs()))
        } else {
            0.0
        }
    };
    let bound: f64 = triangles
        .iter()
        .map(|&t| {
            let d = t.iter().map(|&v| moved(v)).fold(0.0, f64::max);
            if d == 0.0 {
                return 0.0;
            }
            let [a, b, c] = t.map(|v| points[v as usize]);
            let area = 0.5 * (b - a).cross(&(c - a)).norm();
            let perimeter = (b - a).norm() + (c - b).norm() + (a - c).norm();
            2.0 * d * area + PI / 2.0 * d * d * perimeter + 4.0 * PI / 3.0 * d * d * d
        })
        .sum();
    // The sum's own rounding: a relative 1e-12 is far above it for any count of terms.
    bound * (1.0 + 1e-12)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::test_meshes::{cuboid, union};
    use crate::tolerance::{Checks, OverlapPolicy};

    fn overlapping_cubes() -> Mesh {
        let raw = union(
            &cuboid([0.0; 3], [1.0; 3]),
            &cuboid([0.5, 0.0, 0.0], [1.0; 3]),
        );
        let checks = Checks {
            overlap: OverlapPolicy::Union,
            ..Checks::default()
        };
        Mesh::with_checks(&raw, &checks).unwrap()
    }

    #[test]
    fn two_cubes_overlapping_by_half_unite_within_their_time() {
        let (u, done) = united(&overlapping_cubes()).unwrap();
        assert_eq!(u.tetra_integral().unwrap().volume, 1.5);
        assert_eq!((done.bodies, done.united, done.shared_volume), (2, 2, 0.5));
    }

    #[test]
    fn a_union_past_its_time_is_refused_naming_it() {
        let e = united_within(&overlapping_cubes(), 0.0).unwrap_err();
        let Error::Union {
            problem: UnionProblem::TimedOut { seconds, triangles },
        } = e
        else {
            panic!("{e:?}");
        };
        assert_eq!((seconds, triangles), (0.0, 24));
        assert!(e.to_string().contains("did not finish within 0 s"), "{e}");
    }

    #[test]
    fn a_shell_rounding_made_flat_is_dropped_and_its_volume_bounded() {
        // A unit cube and, apart, a tetrahedron whose corners rounding put in one plane.
        let cube = cuboid([0.0; 3], [1.0; 3]);
        let flat = [
            [5.0, 0.0, 0.0],
            [6.0, 0.0, 0.0],
            [5.0, 1.0, 0.0],
            [5.5, 0.25, 0.0],
        ];
        let points: Vec<Point3<f64>> = cube
            .vertices
            .iter()
            .chain(&flat)
            .map(|&p| p.into())
            .collect();
        let mut triangles = cube.triangles.clone();
        triangles.extend([[8, 10, 9], [8, 9, 11], [9, 10, 11], [10, 8, 11]]);
        let (kept, held) = without_flat_shells(&points, triangles);
        assert_eq!(kept.len(), 12);
        assert_eq!(held, 0.0);
    }
}
