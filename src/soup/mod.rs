//! Closed meshes validated and integrated in place, in parallel blocks.
//!
//! [`Mesh::new`](crate::Mesh::new) (the one path, [`general`]) sorts a mesh's edges
//! and explains every defect by triangle and line. For a sound mesh this module reaches the
//! same answer from the triangles where they lie (a memory-mapped binary STL is
//! never copied; [`IndexedSoup`] reads OBJ, PLY and 3MF meshes), on every core:
//!
//! 1. **One pass in fixed blocks** of [`BLOCK`] triangles: the `tetra` sums, bounding box,
//!    surface area, degenerate triangles, and a *closedness certificate*: the sum, over every
//!    directed edge, of an antisymmetric hash `f(a, b) = −f(b, a)` of its end points, in
//!    wrapping 128-bit arithmetic. On a closed, consistently wound surface every edge is used
//!    once in each direction and the sum cancels exactly; an edge left open or used twice the
//!    same way leaves a residue that vanishes only if an integer relation among random
//!    64-bit point hashes holds by chance (about one in 2⁶³).
//! 2. **A weld** by exact coordinates, in two levels: each block first numbers its own
//!    distinct points while its triangles are in cache (a mesh file lists neighbouring
//!    triangles together, so this removes most duplicates), sorted into partitions by the
//!    top bits of their hash; then each partition merges the blocks' points on its own core,
//!    with a table that fits in cache. Scratch memory is 2 bytes a corner plus 16 a point
//!    per block it appears in, never a copy of the triangles.
//! 3. **Union-find** over the welded vertices: the number of shells.
//!
//! Block sums are merged in block order and partitions are laid out in file order, so the
//! result is the same to the bit on any number of threads.
//!
//! Several shells (bodies, cavities) are then sorted out by the one path's shell check
//! on the welded mesh. Anything wrong (an open or badly wound surface, a non-finite
//! coordinate, a flat, inverted or self-crossing shell) gives `None`: the caller then takes
//! the one path, which names the triangle at fault.

use crate::body::{Body, BoundingBox};
use crate::fans::{Fans, Hubs};
use crate::io::stl;
use crate::mass3d::MassProperties3d;
use crate::scratch::{Pages, Scratch};
use crate::sums::Sums;
use nalgebra::Point3;
use rayon::prelude::*;

pub(crate) mod corners;
pub(crate) mod general;
mod pass;
mod weld;
pub use corners::{IndexedSoup, Point, Soup, VertexSoup};
pub(crate) use corners::{KeptPoints, PointSoup};
use pass::{Block, block, numbered_block, partition_bits};
use weld::{Weld, components, point_numbers, weld};

use crate::sums::BLOCK;

/// Corners per weld partition, about: small enough for a partition's table to stay in cache.
const PARTITION: usize = 1 << 16;

/// The fast path's result: a closed mesh it certified, with what [`Body`] and the `tetra`
/// method report of it (the library's solid is [`crate::Solid`], built from this).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Certified {
    /// Counts, area and box.
    pub body: Body,
    /// Volume, centroid and inertia tensor at unit density (the `tetra` method).
    pub properties: MassProperties3d,
}

/// The first pass and the weld, when they find nothing wrong.
struct Pass<P> {
    sums: Sums,
    /// The reference point of `sums`.
    r: [f64; 3],
    area: f64,
    /// The box of the corners.
    bounds: BoundingBox,
    repeated: usize,
    flat: usize,
    /// Each corner's point, numbered within its block.
    local: Scratch<u16>,
    /// The signed axes each triangle faces, if asked for.
    masks: Option<Vec<u8>>,
    weld: Weld<P>,
}

/// Runs the pass over the triangles and the weld, and finds the signed axes each triangle
/// faces if `masks` (for the overlap check); `None` for a soup that is empty, open, badly
/// wound, flat, degenerate throughout or not finite.
fn run<S: Soup>(soup: &S, masks: bool) -> Option<Pass<S::Point>> {
    let n = soup.len();
    // Corner numbers are u32.
    if n == 0 || n > (u32::MAX / 3) as usize {
        return None;
    }
    // The reference point: the first corner of the first triangle that counts (three
    // distinct corners, some area), the same vertex the one path sums about.
    let r = (0..n).find_map(|t| {
        let tri = soup.triangle(t);
        if !tri.iter().all(Point::is_finite) {
            return Some(None);
        }
        let p = [tri[0].coords(), tri[1].coords(), tri[2].coords()];
        let kept = tri[0] != tri[1]
            && tri[1] != tri[2]
            && tri[2] != tri[0]
            && crate::mesh::area_vector(p) != [0.0; 3];
        kept.then_some(Some(p[0]))
    })??;
    let bits = partition_bits(3 * n);
    let mut masks = masks.then(|| vec![0u8; n]);
    let (local, blocks) = in_blocks(n, masks.as_deref_mut(), |range, out, m| {
        block(soup, range, r, bits, out, m)
    })?;
    let mut sums = Sums::default();
    let (mut magnitude, mut area, mut edges) = (0.0, 0.0, 0u128);
    let mut bounds = BoundingBox::empty();
    let (mut repeated, mut flat) = (0, 0);
    for b in &blocks {
        if b.non_finite {
            return None;
        }
        sums.merge(&b.sums);
        magnitude += b.magnitude;
        area += b.area;
        edges = edges.wrapping_add(b.edges);
        bounds = bounds.union(&b.bounds);
        repeated += b.repeated;
        flat += b.flat;
    }
    // Open or badly wound, or every triangle degenerate, or flat: the one path explains.
    if edges != 0 || repeated + flat == n || sums.det.abs() <= 1e-9 * magnitude {
        return None;
    }
    let weld = weld(&blocks, bits);
    Some(Pass {
        masks,
        sums,
        r,
        area,
        bounds,
        repeated,
        flat,
        local,
        weld,
    })
}

/// Validates a closed soup into a [`Mesh`](crate::Mesh), welded in parallel, for the
/// methods that need one (`voxel`, pictures): the edge check is the certificate, the rest
/// is [`Mesh::new`](crate::Mesh::new)'s. `None` if anything is wrong (the one path then
/// explains).
///
/// # Examples
/// ```
/// use inertia::details::{mesh, IndexedSoup};
/// let cube = inertia::shape::Shape3d::Box { size: [2.0; 3] }.tessellate(0);
/// let m = mesh(&IndexedSoup(&cube)).unwrap();
/// assert_eq!((m.vertices().len(), m.triangles().len()), (8, 12));
/// assert_eq!(m.tetra_integral().unwrap().volume, 8.0);
/// ```
pub fn mesh<S: Soup>(soup: &S) -> Option<crate::Mesh> {
    mesh_with(soup).map(|(m, _)| m)
}

/// [`mesh`], with the soup's corners welded, for the overlap check.
pub(crate) fn mesh_with<S: Soup>(soup: &S) -> Option<(crate::Mesh, Welded)> {
    let mut pass = run(soup, true)?;
    // SAFETY: `run` returns only when every block ran to its end, numbering each corner.
    let local = unsafe { pass.local.assume_init() };
    let mesh = welded_mesh(soup, local, &pass.weld).ok()?;
    let mut welded = pass.welded();
    welded.keep_points(soup, &pass.weld);
    Some((mesh, welded))
}

/// Validates and integrates a closed soup (one shell in parallel; several through the
/// general shell check), or says `None` if something is wrong with it (the one path,
/// [`Mesh::new`](crate::Mesh::new), then explains what).
///
/// The result matches what [`Mesh::new`](crate::Mesh::new) and the `tetra` method give, to
/// rounding: both sum about the same vertex, in a different grouping.
///
/// # Examples
/// ```
/// use inertia::details::{solid, VertexSoup};
/// // The right tetrahedron (0,0,0), (5,0,0), (0,4,0), (0,0,3), as STL would list it.
/// let (o, x, y, z) = ([0.0; 3], [5.0, 0.0, 0.0], [0.0, 4.0, 0.0], [0.0, 0.0, 3.0]);
/// let pts = [o, y, x, o, x, z, o, z, y, x, y, z];
/// let s = solid(&VertexSoup(&pts)).unwrap();
/// assert_eq!((s.body.vertices, s.body.shells), (4, 1));
/// assert!((s.properties.volume - 10.0).abs() < 1e-13);
/// // Open: one triangle missing. Not for this path.
/// assert!(solid(&VertexSoup(&pts[..9])).is_none());
/// ```
pub fn solid<S: Soup>(soup: &S) -> Option<Certified> {
    solid_with(soup, true).map(|(s, _)| s)
}

/// Validates and integrates an STL that is one closed shell, straight from its bytes
/// (the STL's triangles, then [`solid`]); `Ok(None)` when the file needs the
/// general path ([`crate::io::stl::parse`], then [`Mesh::new`](crate::Mesh::new)): several
/// shells, or a defect to explain. Triangles that cross are not looked for here.
///
/// # Errors
/// As [`crate::io::stl::parse`] for a malformed file.
///
/// # Examples
/// ```
/// let bytes = std::fs::read("fixtures/mesh/right_tetrahedron.stl").unwrap();
/// let s = inertia::details::stl_solid(&bytes)?.unwrap();
/// assert!((s.properties.volume - 10.0).abs() < 1e-12);
/// # Ok::<(), inertia::Error>(())
/// ```
pub fn stl_solid(bytes: &[u8]) -> crate::Result<Option<Certified>> {
    Ok(match stl::triangles(bytes)? {
        stl::Triangles::Binary(soup) => solid(&soup),
        stl::Triangles::Ascii(c) => solid(&VertexSoup(&c.points)),
    })
}

/// Validates a closed STL into a [`Mesh`](crate::Mesh), welded in parallel (see
/// [`mesh`]), for the methods that need one; `Ok(None)` when the file needs the
/// general path to explain a defect. Triangles that cross are not looked for here.
///
/// # Errors
/// As [`stl_solid`].
///
/// # Examples
/// ```
/// let bytes = std::fs::read("fixtures/mesh/two_bodies.stl").unwrap();
/// let m = inertia::details::stl_mesh(&bytes)?.unwrap();
/// assert_eq!(m.shell_count(), 2);
/// # Ok::<(), inertia::Error>(())
/// ```
pub fn stl_mesh(bytes: &[u8]) -> crate::Result<Option<crate::Mesh>> {
    Ok(match stl::triangles(bytes)? {
        stl::Triangles::Binary(soup) => mesh(&soup),
        stl::Triangles::Ascii(c) => mesh(&VertexSoup(&c.points)),
    })
}

/// A closed soup's corners welded by the parallel pass (see [`solid`]); `None` when the
/// soup is not closed (or is empty, flat, degenerate throughout or not finite).
pub(crate) fn closed_welded<S: Soup>(soup: &S) -> Option<Welded> {
    run(soup, true).map(|mut pass| pass.welded())
}

/// A soup's corners welded: each corner's point number (two corners have the same number
/// exactly when their points have the same coordinates), and, made when first asked for,
/// the fans around the points ([`Fans`]). The parallel pass makes it once, and the checks
/// after it (pinches, shells, the overlap check's neighbours) all read the same.
pub(crate) struct Welded {
    ids: Vec<u32>,
    points: usize,
    fans: std::sync::OnceLock<Fans>,
    neighbours: Option<Vec<u32>>,
    /// The hubs, found with the neighbours ([`Hubs`]).
    hubs: Hubs,
    /// Each point number's coordinates, when kept so that the checks read the corners
    /// from here rather than from the soup (a mapped file, whose pages are let go).
    coords: Option<KeptPoints>,
    /// The triangles' bodies, when the pass counted them (for the overlap check's bodies
    /// alone and at one spot; no labels when there is one).
    groups: Option<Groups>,
    /// The signed axes each triangle faces, if the pass found them (the overlap check's
    /// patches grow along them, [`crate::overlap::faces_mask`]).
    masks: Option<Vec<u8>>,
}

impl Welded {
    /// Corners numbered `ids` (three a triangle), all below `points`; nothing found yet.
    fn of(ids: Vec<u32>, points: usize) -> Welded {
        Welded {
            ids,
            points,
            fans: Default::default(),
            neighbours: None,
            hubs: Hubs::new(),
            coords: None,
            groups: None,
            masks: None,
        }
    }

    /// Keeps the weld's points' coordinates and lets the pages of `soup` go, if it is a
    /// mapped file ([`Soup::release`]): the checks after the pass then read the corners
    /// from the points (a third of the file's memory), not from the file.
    fn keep_points<S: Soup>(&mut self, soup: &S, weld: &Weld<S::Point>) {
        if soup.mapped() {
            soup.release();
            self.coords = Some(weld.coords());
        }
    }

    /// The corners read through the point numbers, if the points were kept.
    pub(crate) fn point_soup(&self) -> Option<PointSoup<'_>> {
        self.coords.as_ref().map(|points| PointSoup {
            ids: &self.ids,
            points,
        })
    }

    /// The corners' point numbers, and the points if they were kept (for a check that
    /// has taken what else it needs).
    pub(crate) fn into_parts(self) -> (Vec<u32>, Option<KeptPoints>) {
        (self.ids, self.coords)
    }

    /// Tells the overlap check the triangles' bodies.
    pub(crate) fn set_groups(&mut self, groups: Groups) {
        self.groups = Some(groups);
    }

    /// The triangles' bodies, if known; let go here.
    pub(crate) fn take_groups(&mut self) -> Option<Groups> {
        self.groups.take()
    }

    /// Triangle `t`'s corners' point numbers.
    #[inline]
    pub(crate) fn corners(&self, t: usize) -> [u32; 3] {
        [self.ids[3 * t], self.ids[3 * t + 1], self.ids[3 * t + 2]]
    }

    /// For each triangle's edge, the triangle across it ([`Fans::neighbours`]); the fans
    /// are let go.
    pub(crate) fn neighbours(&mut self) -> Vec<u32> {
        if let Some(nbr) = self.neighbours.take() {
            return nbr;
        }
        let (nbr, hubs) = self.fans().neighbours(&self.ids);
        self.fans.take();
        self.hubs = hubs;
        nbr
    }

    /// The signed axes each triangle faces, if the pass found them; let go here.
    pub(crate) fn take_masks(&mut self) -> Option<Vec<u8>> {
        self.masks.take()
    }

    /// The hubs found with the neighbours; let go here.
    pub(crate) fn take_hubs(&mut self) -> Hubs {
        std::mem::take(&mut self.hubs)
    }

    /// Whether some point is where separate pieces of the surface meet
    /// ([`Fans::pinches`]); the neighbours are found in the same pass, and the fans let go.
    pub(crate) fn pinched(&mut self) -> bool {
        let (nbr, pinched, hubs) = self.fans().neighbours_and_pinched(&self.ids);
        self.fans.take();
        self.neighbours = Some(nbr);
        self.hubs = hubs;
        pinched
    }

    /// If the fans were made, finds the neighbours now and lets the fans go: a quarter of
    /// their memory, kept through what comes before the overlap check.
    fn settle(&mut self) {
        if self.fans.get().is_some() {
            self.neighbours = Some(self.neighbours());
        }
    }

    /// The fans around the points.
    pub(crate) fn fans(&self) -> &Fans {
        self.fans.get_or_init(|| {
            Fans::new(&self.ids, self.points)
                .expect("at most MAX_TRIANGLES triangles, checked when welded")
        })
    }
}

/// Triangles in groups (a surface's bodies, joined through shared points), each labelled
/// with its group, below `count`, or [`Groups::NONE`]: the overlap check leaves a small
/// body whose box meets no other out of its broad phase.
pub(crate) struct Groups {
    /// Each triangle's group.
    pub(crate) labels: Vec<u32>,
    /// How many groups.
    pub(crate) count: usize,
    /// Whether each group's box (of its corners) meets another group's box, if the shell
    /// check found it ([`crate::shells::check_apart`]).
    pub(crate) meets: Option<Vec<bool>>,
}

impl Groups {
    /// A triangle in no group (one repeating a point: it counts for nothing).
    pub(crate) const NONE: u32 = crate::shells::NONE;
}

/// `block(range, corners, masks)` on each block of [`BLOCK`] of `n` triangles, on every
/// core, each writing its corners' numbers within the block (and, if `masks` is given, its
/// triangles' facing axes into its stretch of it); the numbers (in scratch memory) and
/// the blocks.
fn in_blocks<P, F>(
    n: usize,
    masks: Option<&mut [u8]>,
    block: F,
) -> Option<(Scratch<u16>, Vec<Block<P>>)>
where
    P: Point,
    F: Fn(std::ops::Range<usize>, &mut [std::mem::MaybeUninit<u16>], Option<&mut [u8]>) -> Block<P>
        + Sync,
{
    let mut local = Scratch::<u16>::new(3 * n, Pages::Huge)?;
    let range = |b: usize| b * BLOCK..((b + 1) * BLOCK).min(n);
    let blocks = match masks {
        Some(masks) => local
            .uninit()
            .par_chunks_mut(3 * BLOCK)
            .zip(masks.par_chunks_mut(BLOCK))
            .enumerate()
            .map(|(b, (out, m))| block(range(b), out, Some(m)))
            .collect(),
        None => local
            .uninit()
            .par_chunks_mut(3 * BLOCK)
            .enumerate()
            .map(|(b, out)| block(range(b), out, None))
            .collect(),
    };
    Some((local, blocks))
}

/// Welds any soup (open, inside out, not finite: its points compared by their bits) for a
/// check that needs its topology; `None` for more than [`crate::mesh::MAX_TRIANGLES`]
/// triangles.
pub(crate) fn welded_points<S: Soup>(soup: &S) -> Option<Welded> {
    let n = soup.len();
    if n as u64 > crate::mesh::MAX_TRIANGLES {
        return None;
    }
    let bits = partition_bits(3 * n);
    let (local, blocks) = in_blocks(n, None, |range, out, _| {
        numbered_block(soup, range, bits, out)
    })?;
    let weld = weld(&blocks, bits);
    // SAFETY: every block numbered each of its corners.
    let local = unsafe { local.assume_init() };
    Some(Welded::of(
        point_numbers(local, &weld.global),
        weld.start.last().copied().unwrap_or(0),
    ))
}

impl<P: Point> Pass<P> {
    /// The corners' point numbers, with the axes the triangles face if found (moved).
    fn welded(&mut self) -> Welded {
        // SAFETY: `run` returns only when every block ran to its end, numbering each corner.
        let local = unsafe { self.local.assume_init() };
        let mut welded = Welded::of(
            point_numbers(local, &self.weld.global),
            self.weld.start.last().copied().unwrap_or(0),
        );
        welded.masks = self.masks.take();
        welded
    }
}

/// [`solid`]; `pinch_check` false when the caller knows that no point joins separate
/// pieces and that no overlap check follows (an item of a 3MF build whose object was
/// checked once): then neither the pinch check is made nor the axes the triangles face
/// found. With the solid, its corners welded, for the overlap check.
pub(crate) fn solid_with<S: Soup>(soup: &S, pinch_check: bool) -> Option<(Certified, Welded)> {
    let mut pass = run(soup, pinch_check)?;
    let mut welded = pass.welded();
    // SAFETY: `run` returns only when every block ran to its end, numbering each corner.
    let local = unsafe { pass.local.assume_init() };
    let ids = *pass.weld.start.last()?;
    let vertices = pass.weld.distinct();
    // The shells (a walk on one core) while the fans are made and read on the others.
    let (parts, pinched) = rayon::join(
        || components(local, &pass.weld.global, ids, vertices, pass.repeated > 0),
        || {
            // From here the corners are read from the points, if the soup is a mapped
            // file: its pages go before the fans are made (only a pinch or a flat
            // triangle among several shells, which rebuild the mesh, read the file
            // again).
            welded.keep_points(soup, &pass.weld);
            // Components join triangles through shared points, so bodies meeting only
            // at a corner (a tetrahedron inside a box, touching its corner) would be one
            // shell, and one inside the other unseen: such a surface is welded into a
            // mesh, whose shell check separates the fans at such a point.
            pinch_check && welded.pinched()
        },
    );
    let mut parts = parts?;
    if pinched {
        let mesh = welded_mesh(soup, local, &pass.weld).ok()?;
        let solid = Certified {
            body: Body::of(&mesh),
            properties: mesh.tetra_integral()?,
        };
        return Some((solid, welded));
    }
    welded.settle();
    // Several shells, and no zero-area triangle that the one path would drop before
    // finding them (and might then find more): decided here, as the one path decides.
    let verdict = if parts.count == 1 {
        // One body: the overlap check need not look for bodies at one spot.
        welded.set_groups(Groups {
            labels: Vec::new(),
            count: 1,
            meets: None,
        });
        None
    } else if pass.flat == 0 {
        let labels = parts.labels(local, &pass.weld.global)?;
        let kept = welded.point_soup();
        let corners = |t: usize| match &kept {
            Some(k) => k.triangle(t).map(|p| Point3::from(p.coords())),
            None => soup.triangle(t).map(|p| Point3::from(p.coords())),
        };
        let (verdict, meets) =
            crate::shells::check_apart(&labels, parts.count, corners, false).ok()?;
        welded.set_groups(Groups {
            labels,
            count: parts.count,
            meets,
        });
        Some(verdict)
    } else {
        let mesh = welded_mesh(soup, local, &pass.weld).ok()?;
        let solid = Certified {
            body: Body::of(&mesh),
            properties: mesh.tetra_integral()?,
        };
        return Some((solid, welded));
    };
    let Pass {
        sums,
        r,
        area,
        bounds,
        repeated,
        flat,
        ..
    } = pass;
    let n = soup.len();
    let inside_out = verdict.map_or(sums.det < 0.0, |v| v.inside_out);
    // Several shells: each summed about its own corner (see `shells::check`).
    let properties = match verdict.and_then(|v| v.properties) {
        Some(p) => p,
        None => {
            sums.check_resolution().ok()?;
            let sums = if inside_out { sums.reversed() } else { sums };
            sums.finish(Point3::from(r))
        }
    };
    crate::mesh::physical(&properties).ok()?;
    let solid = Certified {
        body: Body {
            triangles: n,
            degenerate_triangles: repeated + flat,
            vertices,
            shells: verdict.map_or(1, |v| v.shells),
            cavities: verdict.map_or(0, |v| v.cavities),
            inside_out,
            surface_area: area,
            bounding_box: bounds,
            contacts: None,
            left_out: None,
            junctions: None,
            union: None,
        },
        properties,
    };
    Some((solid, welded))
}

/// The welded mesh, handed to the one path's shell check and integration
/// ([`Mesh::closed`](crate::Mesh)); its edge check was the certificate.
fn welded_mesh<S: Soup>(
    soup: &S,
    local: &[u16],
    weld: &Weld<S::Point>,
) -> crate::Result<crate::Mesh> {
    // Point numbers made dense, in partition order.
    let mut dense = vec![0u32; weld.start.last().copied().unwrap_or(0)];
    let mut vertices = Vec::with_capacity(weld.distinct());
    for (p, points) in weld.points.iter().enumerate() {
        for (rank, point) in points.iter().enumerate() {
            dense[weld.start[p] + rank] = vertices.len() as u32;
            vertices.push(Point3::from(point.coords()));
        }
    }
    let mut triangles = Vec::with_capacity(soup.len());
    let mut origin = Vec::with_capacity(soup.len());
    let mut repeated = 0;
    for (b, (l, g)) in local.chunks(3 * BLOCK).zip(&weld.global).enumerate() {
        for (k, t) in l.chunks_exact(3).enumerate() {
            let v = [0, 1, 2].map(|i| dense[g[t[i] as usize] as usize]);
            if v[0] == v[1] || v[1] == v[2] || v[2] == v[0] {
                repeated += 1;
            } else {
                triangles.push(v);
                origin.push(b * BLOCK + k);
            }
        }
    }
    let distinct = weld.distinct();
    crate::Mesh::closed(
        vertices,
        triangles,
        origin,
        (soup.len(), distinct),
        repeated,
        &|t| soup.place(t),
        false,
    )
}

#[cfg(test)]
mod tests {
    use super::pass::{cohash, edge};
    use super::{BLOCK, Body, MassProperties3d, Point, VertexSoup, mesh, partition_bits, solid};
    use crate::mesh::RawMesh;
    use crate::mesh::test_meshes::{cuboid, flipped, union};
    use crate::shape::Shape3d;

    fn points(m: &RawMesh) -> Vec<[f64; 3]> {
        m.triangles
            .iter()
            .flat_map(|t| t.map(|v| m.vertices[v as usize]))
            .collect()
    }

    fn general(m: &RawMesh) -> (Body, MassProperties3d) {
        let mesh = crate::Mesh::new(m).unwrap();
        (Body::of(&mesh), crate::method::tetra::integrate(&mesh))
    }

    fn agree(m: &RawMesh) {
        let s = solid(&VertexSoup(&points(m))).expect("one closed shell");
        let (body, p) = general(m);
        assert_eq!(
            (
                s.body.triangles,
                s.body.degenerate_triangles,
                s.body.vertices
            ),
            (body.triangles, body.degenerate_triangles, body.vertices)
        );
        assert_eq!((s.body.shells, s.body.inside_out), (1, body.inside_out));
        assert_eq!(s.body.bounding_box, body.bounding_box);
        let scale = p.volume.abs().cbrt();
        assert!((s.body.surface_area - body.surface_area).abs() <= 1e-12 * body.surface_area);
        assert!((s.properties.volume - p.volume).abs() <= 1e-12 * p.volume);
        assert!(
            (s.properties.centroid - p.centroid).norm()
                <= 1e-12 * scale.max(p.centroid.coords.norm())
        );
        let big = p.inertia.abs().max();
        assert!((s.properties.inertia - p.inertia).abs().max() <= 1e-11 * big);
    }

    #[test]
    fn agrees_with_the_general_path() {
        agree(&cuboid([0.0; 3], [1.0, 2.0, 3.0]));
        agree(&cuboid([1e6, -2e6, 3e6], [1.0, 2.0, 3.0]));
        agree(&flipped(&cuboid([0.0; 3], [1.0, 2.0, 3.0])));
        agree(&Shape3d::Sphere { radius: 2.0 }.tessellate(40));
        agree(
            &Shape3d::Cylinder {
                radius: 3.0,
                height: 1.0,
            }
            .tessellate(40),
        );
        agree(
            &Shape3d::Biconvex {
                width: 2.0,
                height: 0.5,
            }
            .tessellate(40),
        );
    }

    #[test]
    fn several_shells_take_the_general_shell_check() {
        // Two bodies, and a body with a cavity: the same answers as the one path.
        let two = union(
            &cuboid([0.0; 3], [1.0; 3]),
            &cuboid([3.0; 3], [1.0, 2.0, 3.0]),
        );
        let s = solid(&VertexSoup(&points(&two))).unwrap();
        assert_eq!(
            (s.body.shells, s.body.cavities, s.properties.volume),
            (2, 0, 7.0)
        );
        let hollow = union(
            &cuboid([0.0; 3], [4.0; 3]),
            &flipped(&cuboid([1.0; 3], [1.0; 3])),
        );
        let s = solid(&VertexSoup(&points(&hollow))).unwrap();
        assert_eq!(
            (s.body.shells, s.body.cavities, s.properties.volume),
            (2, 1, 63.0)
        );
        let (body, p) = general(&hollow);
        assert_eq!(s.body, body);
        assert_eq!(s.properties, p);
    }

    #[test]
    fn many_shells_are_decided_as_the_general_path_decides() {
        // A lattice of 900 boxes (two blocks), a hollow box holding a body in its
        // cavity, all of it again inside out: the parallel shell check and the general
        // one agree on every count and on the integrals.
        let mut m = cuboid([-20.0; 3], [10.0; 3]);
        m = union(&m, &flipped(&cuboid([-19.0; 3], [8.0; 3])));
        m = union(&m, &cuboid([-17.0; 3], [2.0, 3.0, 4.0]));
        for i in 0..30 {
            for j in 0..30 {
                let at = [3.0 * i as f64, 3.0 * j as f64, (i * j % 7) as f64];
                m = union(&m, &cuboid(at, [1.0, 2.0, 0.5 + j as f64 / 8.0]));
            }
        }
        assert!(m.triangles.len() > BLOCK);
        // The same triangles with the bodies' lists interleaved (no longer one body after
        // another).
        let mut mixed = m.clone();
        let half = m.triangles.len() / 2;
        mixed.triangles = (0..half)
            .flat_map(|k| [m.triangles[k], m.triangles[half + k]])
            .chain(m.triangles[2 * half..].iter().copied())
            .collect();
        for m in [&m, &flipped(&m), &mixed] {
            let s = solid(&VertexSoup(&points(m))).expect("valid shells");
            let (body, p) = general(m);
            assert_eq!((s.body.shells, s.body.cavities), (903, 1));
            assert_eq!(
                (s.body.shells, s.body.cavities, s.body.inside_out),
                (body.shells, body.cavities, body.inside_out)
            );
            assert!((s.properties.volume - p.volume).abs() <= 1e-12 * p.volume);
            assert!((s.properties.inertia - p.inertia).norm() <= 1e-12 * p.inertia.norm());
        }
        // Shells that cross: a cavity reaching out of its body at a corner, one passing
        // through it: refused here (the one path says why).
        let none = |m: &RawMesh| solid(&VertexSoup(&points(m))).is_none();
        let body = cuboid([0.0; 3], [4.0; 3]);
        assert!(none(&union(&body, &flipped(&cuboid([3.0; 3], [2.0; 3])))));
        assert!(none(&union(
            &body,
            &flipped(&cuboid([1.0, 1.0, -1.0], [2.0, 2.0, 6.0]))
        )));
        for m in [
            union(&body, &flipped(&cuboid([3.0; 3], [2.0; 3]))),
            union(&body, &flipped(&cuboid([1.0, 1.0, -1.0], [2.0, 2.0, 6.0]))),
        ] {
            assert!(crate::Mesh::new(&m).is_err());
        }
    }

    #[test]
    fn mesh_is_the_general_paths_mesh() {
        let hollow = union(
            &cuboid([0.0; 3], [4.0; 3]),
            &flipped(&cuboid([1.0; 3], [1.0; 3])),
        );
        let sphere = Shape3d::Sphere { radius: 1.0 }.tessellate(120);
        for m in [&hollow, &flipped(&hollow), &sphere] {
            let fast = mesh(&VertexSoup(&points(m))).unwrap();
            let slow = crate::Mesh::new(m).unwrap();
            assert_eq!(fast.triangles().len(), slow.triangles().len());
            for t in 0..fast.triangles().len() {
                assert_eq!(fast.corners(t), slow.corners(t));
            }
            assert_eq!(Body::of(&fast), Body::of(&slow));
            assert_eq!(fast.tetra_integral(), slow.tetra_integral());
            let voxel = crate::MeshMethod::Voxel;
            assert_eq!(voxel.integrate(&fast, 40), voxel.integrate(&slow, 40));
        }
    }

    #[test]
    fn several_blocks_and_partitions() {
        // Enough triangles for several blocks and weld partitions.
        let m = Shape3d::Sphere { radius: 1.0 }.tessellate(300);
        assert!(m.triangles.len() > 2 * BLOCK);
        assert!(partition_bits(3 * m.triangles.len()) > 1);
        agree(&m);
    }

    #[test]
    fn degenerate_triangles_are_counted_as_the_general_path_counts_them() {
        let mut m = cuboid([0.0; 3], [1.0; 3]);
        m.triangles.push([0, 0, 1]);
        m.vertices.push([0.5, 0.0, 0.0]);
        let side = m.triangles.iter().position(|t| *t == [0, 1, 5]).unwrap();
        m.triangles[side] = [0, 8, 5];
        m.triangles.push([8, 1, 5]);
        m.triangles.push([1, 8, 0]);
        agree(&m);
    }

    #[test]
    fn everything_else_goes_to_the_general_path() {
        let cube = cuboid([0.0; 3], [1.0; 3]);
        let none = |m: &RawMesh| solid(&VertexSoup(&points(m))).is_none();
        // Open.
        let mut open = cube.clone();
        open.triangles.pop();
        assert!(none(&open));
        // One triangle wound the wrong way.
        let mut bad = cube.clone();
        bad.triangles[3].swap(1, 2);
        assert!(none(&bad));
        // A second body wound inward, and a body inside another wound outward.
        assert!(none(&union(&cube, &flipped(&cuboid([3.0; 3], [1.0; 3])))));
        assert!(none(&union(
            &cuboid([0.0; 3], [4.0; 3]),
            &cuboid([1.0; 3], [1.0; 3])
        )));
        // Non-finite.
        let mut inf = cube.clone();
        inf.vertices[7][2] = f64::INFINITY;
        assert!(none(&inf));
        // A triangle and its reverse: closed, but encloses nothing.
        let sheet = RawMesh {
            vertices: cube.vertices.clone(),
            triangles: vec![[0, 1, 2], [0, 2, 1]],
            lines: vec![],
        };
        assert!(none(&sheet));
        assert!(solid(&VertexSoup(&[])).is_none());
    }

    #[test]
    fn the_same_bits_on_any_number_of_threads() {
        let pts = points(&Shape3d::Sphere { radius: 1.0 }.tessellate(200));
        let run = |threads| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| solid(&VertexSoup(&pts)).unwrap())
        };
        let one = run(1);
        assert_eq!(one, run(2));
        assert_eq!(one, run(3));
    }

    #[test]
    fn edge_form_is_antisymmetric_and_cancels_on_a_closed_surface() {
        let (a, b) = ([1u32, 2, 3].hash(), [4u32, 5, 6].hash());
        let (va, vb) = (cohash(a), cohash(b));
        assert_eq!(edge(a, va, b, vb).wrapping_add(edge(b, vb, a, va)), 0);
        assert_ne!(edge(a, va, b, vb), 0);
    }
}
