//! Triangles that cross or overlap: two bodies in one file that interpenetrate or coincide,
//! or a surface passing through itself.
//!
//! A closed, consistently wound mesh can still enclose some of space twice: `cat cube.stl
//! cube.stl`, two parts of an assembly exported into one STL that overlap, a shell that
//! folds through itself. The tetrahedron sum then counts that space twice, and nothing in
//! the edge checks sees it. Here every pair of triangles whose bounding boxes meet, but for
//! pairs within one patch (a piece of surface that cannot cross itself, see `patch.rs`), is
//! tested with exact orientation predicates (`robust`'s adaptive `orient3d`/`orient2d`);
//! the pairs come from a uniform grid of cells, or an R*-tree (`rstar`) for very unequal
//! triangles. Pairs sharing a hub (a point of many triangles: an apex, a pole, fans of
//! several bodies meeting at one point), whose boxes all meet there, are not listed by
//! either: they are found around the hub by the rays from it that they hold, and two
//! triangles sharing a corner that hold no ray from it in common meet only there
//! (`around.rs`). These configurations are refused:
//!
//! - **crossing**: an edge of one triangle passes through the interior of the other (its
//!   endpoints on opposite sides of the plane, the crossing point strictly inside). A
//!   corner exactly in the plane counts as just outside the face (the side its winding
//!   faces), so a body resting against a face only touches it and passes, while a surface
//!   passing through a face with a ring of vertices exactly in its plane is found.
//!   Neighbours that share a corner or an edge are not tested against each other.
//! - **coinciding**: two coplanar triangles facing the same way whose interiors overlap
//!   (no edge line of either separates them). Two bodies pressed face to face have such
//!   faces facing opposite ways, and pass; the same body twice, or two boxes overlapping by
//!   half, have them facing the same way. Unless both lie in one face folded over itself
//!   in its plane, whose outline is simple rings (an outer one and holes in it): a
//!   zero-volume fold, which counts as the flat face they bound (`fold.rs`).
//!
//! - **the same way round an edge**: where more than two faces meet at an edge (bodies
//!   sharing it), the faces in angular order around it must alternate in the direction
//!   they run along it, so that the wedges between them are in turn inside and outside;
//!   two neighbours running the same way enclose their wedge twice (a tetrahedron
//!   inscribed in a cube on the cube's face diagonals). Pairs sharing an edge the same way
//!   round are noted during the search and their edges examined afterwards.
//!
//! - **through an edge**: an edge of one triangle passing exactly through an edge of
//!   another, its ends strictly on either side of that triangle's plane (two cubes offset
//!   by half their size, whose crossings all fall on the diagonals splitting their faces).
//!   Such edges are noted during the search; afterwards each is refused if one of its ends
//!   lies inside the solid wedge between the two faces at the edge it passes through and
//!   the other outside (an edge resting on a ridge from outside only touches).
//!
//! - **through a corner**: an edge passing exactly through another triangle's corner, and
//!   nowhere through a face's interior or an edge, is decided by a symbolic perturbation
//!   of the edge against the faces around that corner (`vertex.rs`).
//!
//! What is not seen here: two bodies that share only corners and overlap without any edge
//! crossing a face (the same tetrahedron when the cube's faces are split on the other
//! diagonals; the shell check refuses it), and a fold between two neighbouring triangles.

use crate::boxes::{down, up};
use crate::soup::{Point, Soup, Welded};
use rayon::prelude::*;
use rstar::{AABB, RTree, primitives::GeomWithData, primitives::Rectangle};
use std::borrow::Cow;

mod alone;
mod around;
pub(crate) mod contact;
mod exact;
mod fold;
mod frame;
mod graze;
mod grid;
mod hub;
mod near;
mod patch;
mod repeated;
mod sheet;
mod under;
mod vertex;
mod wedge;
use exact::{
    across_corner, apart_across_edges, centroid, coplanar, crossing_depth, crossing_depth_with,
    doubled, far_edge_clear, in_plane_depth, meet, orient, parallel, separated,
};
use graze::{Grazing, grazes};
use grid::{Boxed, Cell, Grid, bounds, grid, pack, reaching, unpack};
pub(crate) use patch::faces_mask;
use patch::{UNIT, Verdict};
use vertex::{Passing, through_corners};
use wedge::{same_way_edge, unpaired_faces, wedges};

pub use crate::body::Contacts;
use crate::tolerance::reach;
use contact::Contact;
pub use sheet::doubled_faces;
pub(crate) use sheet::doubled_faces_welded;

/// How two triangles of a mesh meet wrongly (defined beside the error that reports it).
pub use crate::error::OverlapKind as Kind;

/// Two triangles (0-based, first < second) that cross or coincide.
#[derive(Clone, Debug, PartialEq)]
pub struct Overlap {
    /// The first triangle.
    pub first: usize,
    /// The second triangle.
    pub second: usize,
    /// How they meet.
    pub kind: Kind,
}

impl Overlap {
    /// A one-line description naming the triangles by `soup`'s places.
    ///
    /// # Examples
    /// ```
    /// use inertia::details::Overlap;
    /// use inertia::error::OverlapKind as Kind;
    /// use inertia::details::VertexSoup;
    /// let o = Overlap { first: 0, second: 4, kind: Kind::Cross([0.5, 0.0, 1.0]) };
    /// let pts = vec![[0.0; 3]; 15];
    /// assert_eq!(
    ///     o.describe(&VertexSoup(&pts)),
    ///     "triangle 1 and triangle 5 cross at (0.5, 0, 1)"
    /// );
    /// ```
    pub fn describe<S: Soup>(&self, soup: &S) -> String {
        self.at(soup).to_string()
    }

    /// The facts of the refusal: the triangles (numbered from 1), how they meet and, for a
    /// crossing, its depth beside what the rounding of `soup`'s coordinates explains.
    ///
    /// # Examples
    /// ```
    /// use inertia::details::Overlap;
    /// use inertia::error::OverlapKind as Kind;
    /// use inertia::details::VertexSoup;
    /// let o = Overlap { first: 0, second: 4, kind: Kind::Coincide([0.5, 0.0, 1.0]) };
    /// let pts = vec![[0.0; 3]; 15];
    /// assert_eq!(o.at(&VertexSoup(&pts)).triangles, [1, 5]);
    /// ```
    pub fn at<S: Soup>(&self, soup: &S) -> crate::error::OverlapAt {
        let corners = |t: usize| soup.triangle(t).map(|q| q.coords());
        let (a, b) = (corners(self.first), corners(self.second));
        let tolerance = reach(&[&a, &b]);
        let depth = match &self.kind {
            // The depth of the shallowest crossing edge's nearer end, when that is beyond
            // the reach (a crossing refused by how deep it runs under the surface,
            // followed face by face, has no depth to show here).
            Kind::Cross(_) => crossing_depth(&a, &b).filter(|d| *d > tolerance),
            _ => None,
        };
        crate::error::OverlapAt {
            triangles: [self.first + 1, self.second + 1],
            kind: self.kind.clone(),
            depth,
            tolerance,
        }
    }
}

/// What the broad phase keeps of a triangle: its box in `f32`, rounded outward (so that
/// boxes that meet in `f64` meet here; 40 bytes a triangle rather than 64, which matters
/// to a pass over millions in no particular order). Its corners' point numbers are kept
/// beside the records ([`ids_of`]).
#[derive(Clone, Copy)]
pub(super) struct Tri {
    pub(super) lo: [f32; 3],
    pub(super) hi: [f32; 3],
    /// Its patch (see [`patch`]): the triangle's own index when alone, with [`UNIT`] set
    /// when the patch is flat and checked as a whole, outside the broad phase.
    pub(super) patch: u32,
    /// Its box meets no other patch's box (see [`quiet`]): every pair it is in lies within
    /// its patch, so the broad phase leaves it out.
    pub(super) quiet: bool,
    /// A corner of it is a hub (see [`around`]): its pairs with the hub's other triangles
    /// are found there, not by the broad phase.
    pub(super) at_hub: bool,
}

/// Triangle `t`'s corners' point numbers among the corners' `ids` (the weld's,
/// [`Welded`]: equal exactly when the points are, so that neighbours are passed over
/// without reading their corners), widened for the edge and corner keys built from them.
#[inline]
pub(super) fn ids_of(ids: &[u32], t: usize) -> [u64; 3] {
    let c = &ids[3 * t..3 * t + 3];
    [c[0] as u64, c[1] as u64, c[2] as u64]
}

/// How many corners triangles `i` and `j` share (`ids` as for [`ids_of`]).
#[inline]
fn shared(ids: &[u32], i: usize, j: usize) -> usize {
    let (a, b) = (&ids[3 * i..3 * i + 3], &ids[3 * j..3 * j + 3]);
    a.iter()
        .filter(|x| **x == b[0] || **x == b[1] || **x == b[2])
        .count()
}

impl Tri {
    /// An empty box meets nothing: a degenerate triangle has no interior.
    fn is_empty(&self) -> bool {
        self.lo[0] > self.hi[0]
    }

    /// Whether the broad phase lists it: not degenerate, not of a flat patch checked as a
    /// whole, and not [`quiet`](Tri::quiet).
    fn in_grid(&self) -> bool {
        !self.is_empty() && self.patch & UNIT == 0 && !self.quiet
    }

    /// Whether both are of one patch (whose triangles cannot cross each other).
    fn same_patch(&self, o: &Tri) -> bool {
        self.patch & !UNIT == o.patch & !UNIT
    }

    fn meets(&self, o: &Tri) -> bool {
        self.lo[0] <= o.hi[0]
            && o.lo[0] <= self.hi[0]
            && self.lo[1] <= o.hi[1]
            && o.lo[1] <= self.hi[1]
            && self.lo[2] <= o.hi[2]
            && o.lo[2] <= self.hi[2]
    }
}

/// Triangles whose boxes span more grid cells than this go to a separate list, tested
/// against every box (a handful of big faces beside many small ones), or, when there are
/// many, the whole mesh goes through an R*-tree instead.
const MAX_CELLS: u64 = 27;
const MAX_LARGE: usize = 64;

/// The first pair of triangles (lowest first triangle, then lowest second) that cross or
/// coincide, or `None` when no two do. Degenerate (zero-area) triangles are skipped.
///
/// Candidate pairs come from a uniform grid of cells about twice the size of a mean
/// triangle (each triangle listed in the few cells its box covers, the list sorted by
/// cell, each pair tested in one cell only), so a mesh of a million triangles costs a sort
/// and some millions of box tests; neighbours, which share corners, are passed over by
/// their corners' point numbers. Meshes of very unequal triangles use an R*-tree (`rstar`).
/// Either way the result is the same.
///
/// # Examples
/// ```
/// use inertia::details::first_overlap;
/// use inertia::error::OverlapKind as Kind;
/// use inertia::details::VertexSoup;
/// // A unit cube, and the same cube again: every face coincides with its twin.
/// let cube = inertia::shape::Shape3d::Box { size: [1.0; 3] }.tessellate(0);
/// let corners: Vec<[f64; 3]> = cube.triangles.iter().flat_map(|t| t.map(|i| cube.vertices[i as usize])).collect();
/// assert_eq!(first_overlap(&VertexSoup(&corners)), None);
/// let twice = [corners.clone(), corners].concat();
/// let o = first_overlap(&VertexSoup(&twice)).unwrap();
/// assert_eq!((o.first, o.second), (0, 12));
/// assert!(matches!(o.kind, Kind::Coincide(_)));
/// ```
pub fn first_overlap<S: Soup>(soup: &S) -> Option<Overlap> {
    search(soup, Settings::FULL, Mode::Solid).err()
}

/// [`first_overlap`], and the contacts within reach (see [`crate::tolerance`]) that were taken
/// for touching (see [`Contacts`](crate::report::Contacts)): `Ok(None)` when nothing crosses at all.
///
/// # Errors
/// The first pair of triangles that cross or coincide beyond reach.
///
/// # Examples
/// ```
/// use inertia::details::check_overlap as check;
/// use inertia::details::VertexSoup;
/// // A unit cube, and a smaller box on top of it sunk by 1e-6 (as 6-digit rounding
/// // leaves it).
/// let cube = |x: f64, z: f64, w: f64, h: f64| -> Vec<[f64; 3]> {
///     let m = inertia::shape::Shape3d::Box { size: [w, w, h] }.tessellate(0);
///     m.triangles.iter().flat_map(|t| t.map(|i| {
///         let p = m.vertices[i as usize];
///         [p[0] + x, p[1] + 0.5, p[2] + z + h / 2.0]
///     })).collect()
/// };
/// let both = [cube(0.5, 0.0, 1.0, 1.0), cube(0.375, 0.999999, 0.5, 1.23457)].concat();
/// let contacts = check(&VertexSoup(&both)).unwrap().unwrap();
/// assert!(contacts.max_depth <= 1.000001e-6);
/// ```
pub fn check<S: Soup>(soup: &S) -> Result<Option<Contacts>, Overlap> {
    search(soup, Settings::FULL, Mode::Solid)
}

/// How [`search`] runs: [`Settings::FULL`] outside the tests, which switch its shortcuts
/// off one by one for the references they hold them to, and read what it did in `stats`.
#[derive(Clone, Copy)]
struct Settings<'a> {
    /// Whether the surface is cut into patches ([`patch`]): pairs within a patch are never
    /// tested, and a triangle whose box meets no other patch's box is not even listed
    /// ([`quiet`]), so that on a smooth surface the broad phase sees only the patches'
    /// borders. Without: every pair whose boxes meet is tested.
    patches: bool,
    /// Whether the pairs of triangles sharing a hub are found around it, and pairs sharing
    /// a corner holding no ray from it in common passed over ([`around`]). Without: they
    /// are listed like any other, and every pair sharing a corner is tested.
    around: bool,
    /// Whether a crowd of parallel slivers may be looked at in a turned frame ([`frame`]).
    turn: bool,
    /// Where the search says what it did, if anywhere.
    stats: Option<&'a Stats>,
}

impl Settings<'static> {
    /// Every shortcut on, nothing counted.
    const FULL: Settings<'static> = Settings {
        patches: true,
        around: true,
        turn: true,
        stats: None,
    };
}

/// What the last search with these stats did (read by the tests).
#[derive(Default)]
struct Stats {
    /// How many pairs the grid's cells and the hubs listed.
    listed: std::sync::atomic::AtomicUsize,
    /// Whether it took the R*-trees rather than the grid.
    tree: std::sync::atomic::AtomicBool,
    /// Whether it turned its frame ([`frame`]).
    turned: std::sync::atomic::AtomicBool,
    /// How many patches' boxes [`quiet`] found meeting more than [`NEAR`] others.
    crowded_patches: std::sync::atomic::AtomicUsize,
}

impl Stats {
    /// Counts one listed pair.
    fn list(stats: Option<&Stats>) {
        if let Some(s) = stats {
            s.listed.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
    }
}

/// What [`search`] looks for.
#[derive(Clone, Copy, PartialEq)]
enum Mode {
    /// The surface of solids: crossings, coinciding faces facing the same way, wedges
    /// enclosed twice ([`check`]).
    Solid,
    /// Thin walls: faces lying on one another, facing either way ([`doubled_faces`]).
    Sheet,
}

/// [`check`] (or, in [`Mode::Sheet`], [`doubled_faces`]), run as `settings` says.
fn search<S: Soup>(soup: &S, settings: Settings, mode: Mode) -> Result<Option<Contacts>, Overlap> {
    search_at(soup, settings, mode, 0)
}

/// [`search`] within `depth` reshapings of folded faces ([`fold::beyond`]).
fn search_at<S: Soup>(
    soup: &S,
    settings: Settings,
    mode: Mode,
    depth: u32,
) -> Result<Option<Contacts>, Overlap> {
    if soup.len() < 2 {
        return Ok(None);
    }
    match crate::soup::welded_points(soup) {
        Some(welded) => search_welded_at(soup, welded, settings, mode, depth),
        // More triangles than any reader lets in (see `mesh::MAX_TRIANGLES`).
        None => Ok(None),
    }
}

/// [`check`] on a soup whose corners the parallel pass has welded.
pub(crate) fn check_welded<S: Soup>(soup: &S, welded: Welded) -> Result<Option<Contacts>, Overlap> {
    search_welded(soup, welded, Settings::FULL, Mode::Solid)
}

/// The broad phase's record of triangle `t` (corners `c`), which faces the signed axes
/// `mask` ([`faces_mask`]: none for a degenerate triangle, whose box is empty).
fn record(c: &[[f64; 3]; 3], t: usize, mask: u8) -> Tri {
    let (lo, hi) = if mask == 0 {
        ([f32::INFINITY; 3], [f32::NEG_INFINITY; 3])
    } else {
        let (lo, hi) = bounds(c);
        (lo.map(down), hi.map(up))
    };
    Tri {
        lo,
        hi,
        // Alone until the patches are found.
        patch: t as u32,
        quiet: false,
        at_hub: false,
    }
}

/// Triangle `t`'s record, its corners read from `soup`.
#[cfg(test)]
fn record_of<S: Soup>(soup: &S, t: usize) -> Tri {
    let c = soup.triangle(t).map(|p| p.coords());
    record(&c, t, faces_mask(&c))
}

/// Every triangle's record, made on every core: in scratch memory whose pages the map
/// makes at once (huge pages were tried: faster at best, but direct compaction of
/// fragmented memory made them slower as often), or, if that cannot be had, a vector.
enum Records {
    Scratch(crate::scratch::Scratch<Tri>),
    Owned(Vec<Tri>),
}

impl Records {
    /// The records `make(t)` of triangles `0..n`.
    fn new(n: usize, make: impl Fn(usize) -> Tri + Sync) -> Records {
        match crate::scratch::Scratch::<Tri>::new(n, crate::scratch::Pages::Populated) {
            Some(mut s) => {
                s.uninit()
                    .par_chunks_mut(1 << 12)
                    .enumerate()
                    .for_each(|(b, out)| {
                        for (k, slot) in out.iter_mut().enumerate() {
                            slot.write(make((b << 12) + k));
                        }
                    });
                Records::Scratch(s)
            }
            None => Records::Owned((0..n).into_par_iter().map(&make).collect()),
        }
    }

    fn as_mut_slice(&mut self) -> &mut [Tri] {
        match self {
            // SAFETY: every entry was written when made.
            Records::Scratch(s) => unsafe { s.assume_init_mut() },
            Records::Owned(v) => v,
        }
    }
}

/// [`search`] with the corners welded.
fn search_welded<S: Soup>(
    soup: &S,
    welded: Welded,
    settings: Settings,
    mode: Mode,
) -> Result<Option<Contacts>, Overlap> {
    search_welded_at(soup, welded, settings, mode, 0)
}

/// [`search_welded`] within `depth` reshapings of folded faces ([`fold::beyond`]).
fn search_welded_at<S: Soup>(
    soup: &S,
    mut welded: Welded,
    settings: Settings,
    mode: Mode,
    depth: u32,
) -> Result<Option<Contacts>, Overlap> {
    if soup.len() < 2 {
        return Ok(None);
    }
    // Each edge's neighbour across it, from the fans around the points (then let go).
    let nbr = welded.neighbours();
    let weld = Weld {
        hubs: welded.take_hubs(),
        groups: welded.take_groups(),
        masks: welded.take_masks(),
    };
    match welded.into_parts() {
        // The corners read from the weld's points (the soup's memory was let go).
        (ids, Some(points)) => {
            let kept = crate::soup::PointSoup {
                ids: &ids,
                points: &points,
            };
            search_numbered(&kept, Cow::Borrowed(&ids), nbr, weld, settings, mode, depth)
        }
        (ids, None) => search_numbered(soup, Cow::Owned(ids), nbr, weld, settings, mode, depth),
    }
}

/// [`search`] with the corners' point numbers `ids`, each edge's neighbour across it
/// `nbr` and what else the weld found, within `depth` reshapings of folded faces.
fn search_numbered<S: Soup>(
    soup: &S,
    ids: Cow<'_, [u32]>,
    nbr: Vec<u32>,
    weld: Weld,
    settings: Settings,
    mode: Mode,
    depth: u32,
) -> Result<Option<Contacts>, Overlap> {
    let ids: &[u32] = &ids;
    if let Some(o) = repeated::first(soup, ids, &nbr, mode) {
        return Err(o);
    }
    if let Some(o) = near::first(soup, &near::groups(ids, &nbr), mode) {
        return Err(o);
    }
    let first = search_found(soup, ids, &nbr, weld, settings, mode);
    match first {
        // A pair refused where a face folds past its outline: judged again with the
        // folded face in the shape of its outline (see [`fold::beyond`]).
        Err(o) if mode == Mode::Solid => fold::beyond(soup, ids, &nbr, o, settings, depth),
        r => r,
    }
}

/// What the weld found besides each edge's neighbour: the hubs, the bodies if known, and
/// the signed axes each triangle faces if the pass found them.
struct Weld {
    hubs: crate::fans::Hubs,
    groups: Option<crate::soup::Groups>,
    masks: Option<Vec<u8>>,
}

/// [`search_numbered`], once, with what the weld found: the records, patches and grid
/// made ([`prepare`]), the broad phase's pairs tested ([`grid_pairs`], [`tree_pairs`]) and
/// the pairs it leaves to others ([`other_pairs`]), then what was noted for a later look
/// judged ([`judge_noted`]).
fn search_found<S: Soup>(
    soup: &S,
    ids: &[u32],
    nbr: &[u32],
    weld: Weld,
    settings: Settings,
    mode: Mode,
) -> Result<Option<Contacts>, Overlap> {
    let n = soup.len();
    if let Some(s) = settings.stats {
        s.listed.store(0, std::sync::atomic::Ordering::Relaxed);
    }
    let Prepared {
        mut records,
        alone,
        flats,
        around,
        placed,
        unturned,
    } = prepare(soup, ids, nbr, weld, settings);
    let pairs = Pairs {
        soup,
        ids,
        nbr,
        tris: records.as_mut_slice(),
        around: &around,
        mode,
        rule: settings.around,
        stats: settings.stats,
        same_way: std::sync::Mutex::new(Vec::new()),
        grazing: std::sync::Mutex::new(Bounded::new(n)),
        passing: std::sync::Mutex::new(Bounded::new(n)),
        contacts: std::sync::Mutex::new(Vec::new()),
        lying: std::sync::Mutex::new(fold::Lying::default()),
        paired: std::sync::OnceLock::new(),
    };
    let found = match &placed {
        Some(placed) => grid_pairs(&pairs, placed),
        None => tree_pairs(&pairs),
    };
    let found = other_pairs(&pairs, found, alone.as_ref(), &flats, unturned.as_deref());
    judge_noted(pairs, found)
}

/// What the broad phase works on: the triangles' records, the small bodies alone, the
/// flat patches, the triangles at hubs, and the grid (`None`: the R*-trees), with the
/// boxes in the file's frame if the grid's were turned.
struct Prepared {
    records: Records,
    alone: Option<alone::Alone>,
    flats: Vec<patch::Flat>,
    around: around::Around,
    placed: Option<Grid>,
    unturned: Option<Boxes32>,
}

/// Boxes of the broad phase, one a triangle (low and high corners, rounded outward).
type Boxes32 = Vec<([f32; 3], [f32; 3])>;

/// The corners of triangle `t` of `soup`.
fn corners_of<S: Soup>(soup: &S, t: usize) -> [[f64; 3]; 3] {
    let [a, b, c] = soup.triangle(t);
    [a.coords(), b.coords(), c.coords()]
}

/// The records, patches and grid of [`search_found`].
fn prepare<S: Soup>(
    soup: &S,
    ids: &[u32],
    nbr: &[u32],
    weld: Weld,
    settings: Settings,
) -> Prepared {
    let n = soup.len();
    let corners = |t: usize| corners_of(soup, t);
    let Weld {
        hubs,
        groups,
        masks,
    } = weld;
    // The signed axes each triangle faces (the patch walk reads a neighbour's byte, not
    // its record), if the pass did not find them.
    let masks = match masks {
        Some(m) if m.len() == n => m,
        _ => (0..n)
            .into_par_iter()
            .map(|t| faces_mask(&corners(t)))
            .collect(),
    };
    let make = |t: usize| record(&corners(t), t, masks[t]);
    // With one body, no triangle is quiet before the patches are found (see [`alone`]):
    // the patches' runs then grow on one core while the records are made on the others.
    let one_body = groups.as_ref().is_none_or(|g| g.count < 2);
    let (mut records, runs) = if one_body && settings.patches {
        let (records, runs) = rayon::join(
            || Records::new(n, make),
            || patch::grow(nbr, &masks, |_| false, corners),
        );
        (records, Some(runs))
    } else {
        (Records::new(n, make), None)
    };
    let tris = records.as_mut_slice();
    // Small bodies alone, left out of the broad phase (see [`alone`]), found first: their
    // triangles are marked quiet, and the patches leave them out (their pairs are tested
    // directly, patch or no patch).
    let alone = groups.as_ref().and_then(|g| alone::alone(tris, g));
    let flats = if settings.patches {
        let runs = runs.unwrap_or_else(|| patch::grow(nbr, &masks, |t| tris[t].quiet, corners));
        let flats = patch::find(soup, tris, ids, nbr, runs);
        quiet(tris, settings.stats);
        flats
    } else {
        // Every triangle is its own patch, as recorded.
        Vec::new()
    };
    // The triangles at each hub, whose pairs are found around it, not by the broad phase
    // (see [`around`]).
    let around = if settings.around {
        around::Around::new(&hubs, ids, nbr, tris)
    } else {
        around::Around::none()
    };
    drop(hubs);
    drop(groups);
    let (placed, unturned) = placed_grid(soup, tris, settings);
    Prepared {
        records,
        alone,
        flats,
        around,
        placed,
        unturned,
    }
}

/// The broad phase's grid, without the flat patches' triangles and the quiet ones. For a
/// crowd of parallel slivers (every box meeting nearly every other): boxes in a frame
/// turned along them, if that thins the crowd (see [`frame`]), and the boxes in the file's
/// frame, which the flat patches keep, and so do the boxes they are set against.
fn placed_grid<S: Soup>(
    soup: &S,
    tris: &mut [Tri],
    settings: Settings,
) -> (Option<Grid>, Option<Boxes32>) {
    let mut placed = grid(tris);
    let mut unturned: Option<Boxes32> = None;
    if let Some(g) = &placed
        && settings.turn
        && let (before, true) = frame::pairs(g)
        && let Some(f) = frame::along_slivers(soup, tris)
    {
        let saved: Boxes32 = tris.iter().map(|t| (t.lo, t.hi)).collect();
        frame::turn(soup, tris, &f);
        match grid(tris) {
            Some(turned) if frame::pairs(&turned).0 < before / 4 => {
                if let Some(s) = settings.stats {
                    s.turned.store(true, std::sync::atomic::Ordering::Relaxed);
                }
                placed = Some(turned);
                unturned = Some(saved);
            }
            _ => {
                // Back to the file's frame, and its grid.
                for (t, (lo, hi)) in tris.iter_mut().zip(saved) {
                    (t.lo, t.hi) = (lo, hi);
                }
            }
        }
    }
    (placed, unturned)
}

/// The exact test of pairs of triangles, and what it notes for a later look.
struct Pairs<'a, S> {
    soup: &'a S,
    ids: &'a [u32],
    nbr: &'a [u32],
    tris: &'a [Tri],
    around: &'a around::Around,
    mode: Mode,
    /// Whether pairs sharing a corner that hold no ray from it in common are passed over
    /// (see [`around`]).
    rule: bool,
    stats: Option<&'a Stats>,
    /// Pairs that share an edge and use it the same way round: possible only where more
    /// than two faces meet at an edge (two bodies along one edge), looked at afterwards.
    same_way: std::sync::Mutex<Vec<[u64; 2]>>,
    /// Edges passing exactly through another triangle's edge: looked at afterwards, with
    /// the face across that edge.
    grazing: std::sync::Mutex<Bounded<Grazing>>,
    /// Edges passing exactly through another triangle's corner: looked at afterwards, with
    /// every face around that corner.
    passing: std::sync::Mutex<Bounded<Passing>>,
    /// Crossings within reach: followed afterwards.
    contacts: std::sync::Mutex<Vec<Contact>>,
    /// Coplanar faces lying on each other facing the same way: refused afterwards unless
    /// they lie within one face folded over itself in its plane (see [`fold`]).
    lying: std::sync::Mutex<fold::Lying>,
    /// Around edges that more than two faces share (parts meeting along an edge), which
    /// have no face across in `nbr`: the faces paired about the edge across the solid
    /// between them (see [`wedge::pairs_at`]), found when a walk under the surface first
    /// needs one (on one core: this runs within the parallel search).
    paired: std::sync::OnceLock<std::collections::HashMap<(u32, u8), u32>>,
}

/// A pair's corners and what the exact test found them doing.
type Met = ([[f64; 3]; 3], [[f64; 3]; 3], Kind);

impl<S: Soup> Pairs<'_, S> {
    /// The corners of triangle `t`.
    fn corners(&self, t: usize) -> [[f64; 3]; 3] {
        corners_of(self.soup, t)
    }

    /// `o`, of faces lying on each other: noted for [`fold`] when looking at solids.
    fn coincide(&self, o: Overlap) -> Option<Overlap> {
        if self.mode == Mode::Solid
            && let Ok(mut v) = self.lying.lock()
        {
            v.add(o);
            return None;
        }
        Some(o)
    }

    /// The face paired with `f` across its edge `k` about the solid between them, where
    /// more than two faces share that edge.
    fn paired_across(&self, f: usize, k: usize) -> Option<usize> {
        let (soup, ids) = (self.soup, self.ids);
        let map = self.paired.get_or_init(|| {
            let faces = unpaired_faces(self.tris, self.nbr, ids);
            let mut map = std::collections::HashMap::new();
            for (e, x, y) in wedge::pairs_at(soup, ids, &faces) {
                let edge = |t: u32| {
                    let h = ids_of(ids, t as usize);
                    (0..3).find(|&k| {
                        let (u, v) = (h[k], h[(k + 1) % 3]);
                        [u.min(v), u.max(v)] == e
                    })
                };
                if let (Some(kx), Some(ky)) = (edge(x), edge(y)) {
                    map.insert((x, kx as u8), y);
                    map.insert((y, ky as u8), x);
                }
            }
            map
        });
        map.get(&(f as u32, k as u8)).map(|&g| g as usize)
    }

    /// The triangle across edge `k` of triangle `f`, and its corner off that edge.
    fn across(&self, f: usize, k: usize) -> Option<(usize, usize)> {
        let mut g = self.nbr[3 * f + k] as usize;
        if g >= self.soup.len() {
            g = self.paired_across(f, k)?;
        }
        let (hf, hg) = (ids_of(self.ids, f), ids_of(self.ids, g));
        let off = (0..3).find(|&m| hg[m] != hf[k] && hg[m] != hf[(k + 1) % 3])?;
        Some((g, off))
    }

    /// Whether coplanar faces facing the same way overlap by no more than the reach within
    /// their plane (parts side by side with flush walls, a corner of one rounded a little
    /// into the other's wall): then a contact, crossing nothing, noted.
    fn flush(
        &self,
        i: usize,
        j: usize,
        ci: &[[f64; 3]; 3],
        cj: &[[f64; 3]; 3],
        at: [f64; 3],
    ) -> bool {
        let depth = in_plane_depth(ci, cj);
        let tol = reach(&[ci, cj]);
        if depth > tol {
            return false;
        }
        if let Ok(mut v) = self.contacts.lock() {
            v.push(Contact {
                first: i.min(j),
                second: i.max(j),
                at,
                depth,
                crossings: Vec::new(),
            });
        }
        true
    }

    /// The pair (i, j), i < j, tested whatever their patches (a folded patch's own pairs):
    /// the overlap, if its boxes meet, it is not a pair of neighbours, and the exact test
    /// finds them crossing or coinciding beyond what a contact allows.
    fn pair(&self, i: usize, j: usize) -> Option<Overlap> {
        let (a, b) = (&self.tris[i], &self.tris[j]);
        if !a.meets(b) {
            return None;
        }
        if self.mode == Mode::Sheet {
            let (ci, cj) = (self.corners(i), self.corners(j));
            return doubled(&ci, &cj).then(|| Overlap {
                first: i,
                second: j,
                kind: Kind::Doubled(centroid(&ci)),
            });
        }
        let (ci, cj, found) = match shared(self.ids, i, j) {
            1 => match self.at_corner(i, j) {
                Ok(met) => met,
                Err(answer) => return answer,
            },
            2 => {
                if let Some(e) = same_way_edge(&ids_of(self.ids, i), &ids_of(self.ids, j))
                    && let Ok(mut v) = self.same_way.lock()
                {
                    v.push(e);
                }
                return None;
            }
            _ => self.apart(i, j)?,
        };
        self.judge(i, j, &ci, &cj, found)
    }

    /// The pair (i, j) sharing one corner: what the test found (`Ok`), or the pair's
    /// answer, found here (`Err`).
    fn at_corner(&self, i: usize, j: usize) -> Result<Met, Option<Overlap>> {
        // Two faces around a shared corner are wrong by lying on each other, facing the
        // same way (a box inside another, in its corner: tested when their planes are
        // parallel in floating point, exactly then), or when the edge of one opposite the
        // corner passes through the other.
        let (ci, cj) = (self.corners(i), self.corners(j));
        // Most such pairs (neighbours around a corner of a curved surface) have the far
        // edge of each clearly on one side of the other's plane (the float filter):
        // neither can pass through the other, nor can they be coplanar.
        let clear = [far_edge_clear(&ci, &cj), far_edge_clear(&cj, &ci)];
        if clear == [true, true] {
            return Err(None);
        }
        // Holding no ray from the corner in common, they meet only there (see [`around`]).
        if self.rule && around::apart(&ci, &cj) {
            return Err(None);
        }
        let coincide_kind = (clear == [false, false]
            && parallel(&ci, &cj)
            && cj.iter().all(|p| orient(&ci[0], &ci[1], &ci[2], p) == 0))
        .then(|| coplanar(&ci, &cj))
        .flatten();
        if let Some(kind) = coincide_kind {
            if let Kind::Coincide(at) = kind
                && self.flush(i, j, &ci, &cj, at)
            {
                return Err(None);
            }
            return Err(self.coincide(Overlap {
                first: i,
                second: j,
                kind,
            }));
        }
        match across_corner(&ci, &cj, clear) {
            Some(found) => Ok((ci, cj, found)),
            None => Err(None),
        }
    }

    /// The pair (i, j) sharing no corner: what the test found, if anything; edges passing
    /// exactly through the other's edge or corner are noted.
    fn apart(&self, i: usize, j: usize) -> Option<Met> {
        let (ci, cj) = (self.corners(i), self.corners(j));
        // Most candidates lie wholly on one side of the other's plane (neighbours of
        // neighbours on a curved surface): a floating-point test with a rigorous error
        // bound settles them before the exact predicates.
        if separated(&ci, &cj) || separated(&cj, &ci) || apart_across_edges(&ci, &cj) {
            return None;
        }
        let mut graze = None;
        let mut corner = None;
        let found = meet(&ci, &cj, &mut graze, &mut corner);
        let ids = self.ids;
        if found.is_none()
            && let Some(c) = corner
            && let Ok(mut v) = self.passing.lock()
        {
            v.push(
                Passing::new(c, (i, &ci, &ids_of(ids, i)), (j, &cj, &ids_of(ids, j))),
                |p| (p.first, p.second, p.at),
            );
        }
        if let Some(g) = graze
            && let Ok(mut v) = self.grazing.lock()
        {
            v.push(
                Grazing::new(g, i, j, &ids_of(ids, i), &ids_of(ids, j)),
                |g| (g.first, g.second, g.at),
            );
        }
        Some((ci, cj, found?))
    }

    /// The pair (i, j) (corners `ci`, `cj`) found doing `found`: a contact (flush faces, a
    /// crossing within reach), noted; faces lying on each other, noted for [`fold`]; else
    /// the overlap.
    fn judge(
        &self,
        i: usize,
        j: usize,
        ci: &[[f64; 3]; 3],
        cj: &[[f64; 3]; 3],
        found: Kind,
    ) -> Option<Overlap> {
        let ids = self.ids;
        let tol = || reach(&[ci, cj]);
        if let Kind::Coincide(at) = found
            && shared(ids, i, j) == 0
            && self.flush(i, j, ci, cj, at)
        {
            return None;
        }
        if let Kind::Cross(at) = found
            && let Some(depth) = crossing_depth_with(ci, cj, |w, t, a, b| {
                let f = if w == 0 { j } else { i };
                under::depth(
                    (f, t),
                    (a, b),
                    |t| self.corners(t),
                    |f, k| self.across(f, k),
                )
            })
            && depth <= tol()
        {
            let c = Contact::crossing(
                (i, ci, &ids_of(ids, i)),
                (j, cj, &ids_of(ids, j)),
                at,
                depth,
            );
            if let Ok(mut v) = self.contacts.lock() {
                v.push(c);
            }
            return None;
        }
        let lying = matches!(found, Kind::Coincide(_));
        let o = Overlap {
            first: i,
            second: j,
            kind: found,
        };
        if lying {
            return self.coincide(o);
        }
        Some(o)
    }

    /// [`Self::pair`] for triangles of different patches.
    fn test(&self, i: usize, j: usize) -> Option<Overlap> {
        if self.tris[i].same_patch(&self.tris[j]) {
            return None;
        }
        self.pair(i, j)
    }

    /// [`Self::test`] for a pair the broad phase lists: none of two triangles sharing a
    /// hub (found around it).
    fn listed_test(&self, i: usize, j: usize) -> Option<Overlap> {
        let (tris, around) = (self.tris, self.around);
        if tris[i].at_hub && tris[j].at_hub && around.any() && around.shares(self.ids, i, j) {
            return None;
        }
        self.test(i, j)
    }

    /// The hub a listed triangle is filed under (two filed under one share it).
    fn class(&self, t: usize) -> u32 {
        if self.tris[t].at_hub {
            self.around.class(self.ids, t)
        } else {
            around::NONE
        }
    }
}

/// The earliest overlap among the pairs the grid `placed` lists: pairs within a cell,
/// each tested only in the cell holding the low corner of the two boxes' intersection
/// (the larger of their low cells on each axis), so that no pair is tested twice, and the
/// large triangles against every box.
fn grid_pairs<S: Soup>(pairs: &Pairs<'_, S>, placed: &Grid) -> Option<Overlap> {
    let tris = pairs.tris;
    // SAFETY: every entry was written.
    let (cells, large) = (unsafe { placed.cells.assume_init() }, &placed.large);
    // Cells on every core, at least 64 to a task on a grid of many cells (a surface's,
    // mostly of one patch each), one to a task on a grid of few (long triangles' large
    // boxes: a few dozen cells of thousands of pairs each).
    let min_len = (placed.starts().len() / 4096).clamp(1, 64);
    let in_cells = placed
        .starts()
        .par_windows(2)
        .with_min_len(min_len)
        .map(|w| cell_pairs(pairs, placed, &cells[w[0]..w[1]]))
        .reduce(|| None, earliest);
    // Large triangles against every box; two large ones once, from the lower.
    let with_large = large
        .par_iter()
        .map(|&i| {
            let mut best: Option<Overlap> = None;
            for (j, other) in tris.iter().enumerate() {
                if j == i || !other.in_grid() || (j < i && large.binary_search(&j).is_ok()) {
                    continue;
                }
                best = earliest(best, pairs.listed_test(i.min(j), i.max(j)));
            }
            best
        })
        .reduce(|| None, earliest);
    earliest(in_cells, with_large)
}

/// The earliest overlap among the pairs of one cell's entries `group`.
fn cell_pairs<S: Soup>(pairs: &Pairs<'_, S>, placed: &Grid, group: &[Cell]) -> Option<Overlap> {
    let tris = pairs.tris;
    let mut best: Option<Overlap> = None;
    // A cell of one patch's triangles only (most of a smooth surface's cells): no pair to
    // test.
    let one = tris[group[0] as u32 as usize].patch;
    if group.iter().all(|&e| tris[e as u32 as usize].patch == one) {
        return best;
    }
    let key = unpack((group[0] >> 64) as u64);
    let pair_of = |e: u128, f: u128| {
        Stats::list(pairs.stats);
        let (i, j) = (e as u32, f as u32);
        let (i, j) = (i.min(j) as usize, i.max(j) as usize);
        // The cell of the low corner of the boxes' intersection.
        let (a, b) = (&tris[i].lo, &tris[j].lo);
        let low = [0, 1, 2].map(|k| a[k].max(b[k]));
        if tris[i].same_patch(&tris[j]) || pack(placed.index(&low)) != key {
            return None;
        }
        pairs.listed_test(i, j)
    };
    // Each entry against those after it that its box can reach.
    let scan = |e: u128, after: &[u128], best: &mut Option<Overlap>| {
        for f in reaching(e, after, tris) {
            *best = earliest(best.take(), pair_of(e, f));
        }
    };
    // Sets whose own pairs are never listed: most of the cell one patch's (a smooth patch
    // around a fan's apex, where every box meets every other: its pairs are of one
    // patch), and the triangles filed under one hub (a pole, an apex, fans of several
    // bodies at one point: their pairs are found around it, see [`around`]). Only pairs
    // with a triangle of none, and of two sets not both the patch's nor both one hub's,
    // are listed.
    let patch = major_patch(group, tris);
    let hubs = group.len() > LARGE_CELL
        && pairs.around.any()
        && group.iter().any(|&e| tris[e as u32 as usize].at_hub);
    if patch.is_none() && !hubs {
        for (x, &e) in group.iter().enumerate() {
            scan(e, &group[x + 1..], &mut best);
        }
        return best;
    }
    let of_patch = |e: u128| patch == Some(tris[e as u32 as usize].patch);
    // The entries by set (hub, of the patch), each set in the cell's order (by the boxes'
    // low x), and where each set starts.
    let mut keyed: Vec<((u32, bool), u128)> = group
        .iter()
        .map(|&e| {
            let h = if hubs {
                pairs.class(e as u32 as usize)
            } else {
                around::NONE
            };
            ((h, of_patch(e)), e)
        })
        .collect();
    keyed.sort_by_key(|k| k.0);
    let order: Vec<u128> = keyed.iter().map(|k| k.1).collect();
    let mut sets: Vec<((u32, bool), usize, usize)> = Vec::new();
    for (x, k) in keyed.iter().enumerate() {
        match sets.last_mut() {
            Some(s) if s.0 == k.0 => s.2 = x + 1,
            _ => sets.push((k.0, x, x + 1)),
        }
    }
    for (x, &((h, p), s, e)) in sets.iter().enumerate() {
        let own = &order[s..e];
        if h == around::NONE && !p {
            for (y, &f) in own.iter().enumerate() {
                scan(f, &own[y + 1..], &mut best);
            }
        }
        for &((h2, p2), s2, e2) in &sets[x + 1..] {
            if (p && p2) || (h == h2 && h != around::NONE) {
                continue;
            }
            for &f in own {
                scan(f, &order[s2..e2], &mut best);
            }
        }
    }
    best
}

/// The earliest overlap among the pairs whose boxes meet, found by R*-trees (the grid
/// did not suit the boxes). Boxes in f64 here (an f32 box of a point beyond f32's range
/// is infinite): in one R*-tree for the triangles filed under no hub, and one for each
/// hub's, so that a triangle never looks through its own hub's (whose pairs are found
/// around it).
fn tree_pairs<S: Soup>(pairs: &Pairs<'_, S>) -> Option<Overlap> {
    let (tris, n) = (pairs.tris, pairs.soup.len());
    if let Some(s) = pairs.stats {
        s.tree.store(true, std::sync::atomic::Ordering::Relaxed);
    }
    let boxed = |t: usize| {
        let (lo, hi) = bounds(&pairs.corners(t));
        GeomWithData::new(Rectangle::from_corners(lo, hi), t as u32)
    };
    let mut filed: Vec<(u32, u32)> = (0..n)
        .into_par_iter()
        .filter(|&t| tris[t].in_grid())
        .map(|t| (pairs.class(t), t as u32))
        .collect();
    filed.par_sort_unstable();
    let runs: Vec<&[(u32, u32)]> = filed.chunk_by(|a, b| a.0 == b.0).collect();
    let trees: Vec<(u32, RTree<Boxed>, AABB<[f64; 3]>)> = runs
        .par_iter()
        .map(|run| {
            let boxes: Vec<Boxed> = run.iter().map(|&(_, t)| boxed(t as usize)).collect();
            let env = boxes
                .iter()
                .map(rstar::RTreeObject::envelope)
                .reduce(|a, b| rstar::Envelope::merged(&a, &b))
                .unwrap_or_else(rstar::Envelope::new_empty);
            (run[0].0, RTree::bulk_load(boxes), env)
        })
        .collect();
    let envelopes: RTree<GeomWithData<Rectangle<[f64; 3]>, usize>> = RTree::bulk_load(
        trees
            .iter()
            .enumerate()
            .map(|(k, t)| GeomWithData::new(Rectangle::from_corners(t.2.lower(), t.2.upper()), k))
            .collect(),
    );
    (0..n).into_par_iter().find_map_first(|i| {
        if !tris[i].in_grid() {
            return None;
        }
        let (lo, hi) = bounds(&pairs.corners(i));
        let env = AABB::from_corners(lo, hi);
        let own = pairs.class(i);
        let mut best: Option<Overlap> = None;
        for k in envelopes.locate_in_envelope_intersecting(&env) {
            let (hub, tree, _) = &trees[k.data];
            if *hub == own && own != around::NONE {
                continue;
            }
            for other in tree.locate_in_envelope_intersecting(&env) {
                let j = other.data as usize;
                if j <= i || best.as_ref().is_some_and(|b| b.second < j) {
                    continue;
                }
                best = earliest(best, pairs.listed_test(i, j));
            }
        }
        best
    })
}

/// `found`, or an earlier overlap among the pairs the broad phase leaves to others: those
/// sharing a hub (around each), those within each body alone, those of flat patches (each
/// against the triangles whose boxes meet its box, `unturned` if the grid's were turned),
/// and a folded flat patch's own pairs that may overlap.
fn other_pairs<S: Soup>(
    pairs: &Pairs<'_, S>,
    found: Option<Overlap>,
    alone: Option<&alone::Alone>,
    flats: &[patch::Flat],
    unturned: Option<&[([f32; 3], [f32; 3])]>,
) -> Option<Overlap> {
    let (soup, ids, tris) = (pairs.soup, pairs.ids, pairs.tris);
    let test = |i: usize, j: usize| pairs.test(i, j);
    let found = earliest(
        found,
        pairs.around.search(|t| pairs.corners(t), ids, &|i, j| {
            Stats::list(pairs.stats);
            pairs.test(i, j)
        }),
    );
    let found = earliest(found, alone.and_then(|a| a.search(tris, &test)));
    let found = earliest(
        found,
        flat_overlaps(soup, tris, ids, unturned, flats, &test, pairs.mode),
    );
    flats
        .iter()
        .filter(|f| f.folded)
        .map(|f| {
            f.inner_pairs(soup, ids)
                .into_par_iter()
                .map(|(i, j)| pairs.pair(i as usize, j as usize))
                .reduce(|| None, earliest)
        })
        .fold(found, earliest)
}

/// The verdict once every pair is tested (`found`: the earliest overlap): pairs lying on
/// each other refused unless within a fold, then, if nothing is refused, the edges noted
/// through edges and corners, the edges of more than two faces and the contacts judged.
fn judge_noted<S: Soup>(
    pairs: Pairs<'_, S>,
    found: Option<Overlap>,
) -> Result<Option<Contacts>, Overlap> {
    let Pairs {
        soup,
        ids,
        nbr,
        tris,
        same_way,
        grazing,
        passing,
        contacts,
        lying,
        ..
    } = pairs;
    // Pairs lying on each other: refused unless within a fold.
    let (refused, folds, fold_area) =
        fold::judge(soup, ids, nbr, lying.into_inner().unwrap_or_default());
    let found = earliest(found, refused);
    if let Some(o) = found {
        return Err(o);
    }
    let (grazing, passing) = (
        grazing.into_inner().unwrap_or_else(|_| Bounded::new(0)),
        passing.into_inner().unwrap_or_else(|_| Bounded::new(0)),
    );
    // More edges through edges or corners than the triangles can make on a surface that
    // lies over itself nowhere: the surface is repeated over itself (bodies stacked many
    // times); refused at the earliest such pair, unjudged, rather than kept.
    if let Some((first, second, at)) = grazing.over.or(passing.over) {
        let crowded = Overlap {
            first,
            second,
            kind: Kind::Crowded(at),
        };
        return Err(match found {
            Some(f) if (f.first, f.second) < (first, second) => f,
            _ => crowded,
        });
    }
    let mut grazing = grazing.kept;
    let mut contacts = contacts.into_inner().unwrap_or_default();
    let through_edges = if grazing.is_empty() {
        None
    } else {
        grazing.sort_unstable_by_key(|g| (g.first, g.second));
        let (found, touching) = grazes(soup, tris, ids, &grazing);
        contacts.extend(touching);
        found
    };
    let mut passing = passing.kept;
    let through_edges = if passing.is_empty() {
        through_edges
    } else {
        passing.sort_unstable_by_key(|p| (p.first, p.second));
        let (found, touching) = through_corners(soup, tris, ids, &passing);
        contacts.extend(touching);
        earliest(through_edges, found)
    };
    let mut edges = same_way.into_inner().unwrap_or_default();
    let found = if edges.is_empty() {
        through_edges
    } else {
        edges.sort_unstable();
        edges.dedup();
        let (found, folds) = wedges(soup, tris, ids, &edges);
        contacts.extend(folds);
        earliest(through_edges, found)
    };
    if let Some(o) = found {
        return Err(o);
    }
    let touching = if contacts.is_empty() {
        None
    } else {
        contact::verify(soup, tris, ids, nbr, contacts)?
    };
    Ok(match (touching, folds) {
        (c, 0) => c,
        (Some(c), folds) => Some(Contacts {
            folds,
            fold_area,
            ..c
        }),
        (None, folds) => Some(Contacts {
            folds,
            fold_area,
            ..Contacts::default()
        }),
    })
}

/// Pairs noted for a later look (edges through edges or corners), at most a few per
/// triangle: past that the earliest pair alone is kept, and the check refuses it.
struct Bounded<T> {
    kept: Vec<T>,
    cap: usize,
    /// The earliest pair past the cap (triangles and where), if it was passed.
    over: Option<(usize, usize, [f64; 3])>,
}

impl<T> Bounded<T> {
    /// For a surface of `n` triangles: 8 a triangle, and 65,536 whatever `n`.
    fn new(n: usize) -> Bounded<T> {
        Bounded {
            kept: Vec::new(),
            cap: 8 * n + (1 << 16),
            over: None,
        }
    }

    /// Notes `x`, whose pair is `key(&x)`.
    fn push(&mut self, x: T, key: impl Fn(&T) -> (usize, usize, [f64; 3])) {
        if self.kept.len() < self.cap {
            self.kept.push(x);
            return;
        }
        let least = |a: (usize, usize, [f64; 3]), b: (usize, usize, [f64; 3])| {
            if (b.0, b.1) < (a.0, a.1) { b } else { a }
        };
        // The kept ones are looked at once, when the cap is first passed.
        let over = match self.over {
            Some(o) => o,
            None => self.kept.iter().map(&key).fold(key(&x), least),
        };
        self.over = Some(least(over, key(&x)));
    }
}

/// Cells of more entries than this are looked at for a major patch or for hubs whose own
/// pairs need not be listed ([`major_patch`], [`around`]).
const LARGE_CELL: usize = 64;

/// The patch more than half of a large cell's entries are of, if one is: the cell's pairs
/// are then listed without that patch's own (see [`search`]).
fn major_patch(group: &[u128], tris: &[Tri]) -> Option<u32> {
    if group.len() <= LARGE_CELL {
        return None;
    }
    let patch = |e: &u128| tris[*e as u32 as usize].patch;
    // Boyer and Moore's majority vote, then a count.
    let (mut candidate, mut votes) = (0, 0usize);
    for e in group {
        let p = patch(e);
        if votes == 0 {
            (candidate, votes) = (p, 1);
        } else if p == candidate {
            votes += 1;
        } else {
            votes -= 1;
        }
    }
    let count = group.iter().filter(|e| patch(e) == candidate).count();
    (2 * count > group.len()).then_some(candidate)
}

/// Marks [`Tri::quiet`] the triangles in the broad phase whose boxes meet no other
/// patch's box. A pair of triangles of two patches whose boxes meet has each triangle's
/// box meeting the other's patch's box, so a quiet triangle is in no pair the narrow phase
/// tests: on a smooth surface cut into a few patches, only the triangles along the
/// patches' borders are left in the broad phase. Nothing is marked when the patches are
/// mostly single triangles (the index of their boxes would be the grid again).
fn quiet(tris: &mut [Tri], stats: Option<&Stats>) {
    let n = tris.len();
    let meets = |b: &PatchBox, t: &Tri| (0..3).all(|k| b.0[k] <= t.hi[k] && t.lo[k] <= b.1[k]);
    // A few patches (a smooth part): their boxes found in one pass on every core, and
    // each looked at in turn.
    if let Some(boxes) = few_patch_boxes(tris) {
        if boxes.len() >= 2 && 4 * boxes.len() <= n {
            tris.par_iter_mut()
                .with_min_len(1 << 12)
                .filter(|t| t.in_grid())
                .for_each(|t| t.quiet = !boxes.iter().any(|b| b.2 != t.patch && meets(b, t)));
        }
        return;
    }
    // How many patches: each has one triangle whose index is its id (its seed, or a
    // triangle alone).
    let patches = tris
        .par_iter()
        .enumerate()
        .filter(|(t, tri)| tri.in_grid() && tri.patch == *t as u32)
        .count();
    if patches < 2 || 4 * patches > n {
        return;
    }
    // Each patch's box, by a compact number given in order of first member.
    let mut slot = vec![u32::MAX; n];
    let mut boxes: Vec<PatchBox> = Vec::new();
    for t in tris.iter().filter(|t| t.in_grid()) {
        let s = &mut slot[t.patch as usize];
        if *s == u32::MAX {
            *s = boxes.len() as u32;
            boxes.push((t.lo, t.hi, t.patch));
        } else {
            let b = &mut boxes[*s as usize];
            for k in 0..3 {
                b.0[k] = b.0[k].min(t.lo[k]);
                b.1[k] = b.1[k].max(t.hi[k]);
            }
        }
    }
    let index: RTree<GeomWithData<Rectangle<[f32; 3]>, u32>> = RTree::bulk_load(
        boxes
            .iter()
            .enumerate()
            .map(|(k, &(lo, hi, _))| GeomWithData::new(Rectangle::from_corners(lo, hi), k as u32))
            .collect(),
    );
    // Each patch's box's neighbours: the other patches' boxes that meet it, which are all
    // the boxes that can meet one of its triangles' boxes (a few, on a part of many smooth
    // bodies, where one lookup in the index for each triangle cost most of the check).
    // A patch whose box meets more than [`NEAR`] others (a crowd around one point) has its
    // triangles looked up in the index, as they come.
    let near: Vec<Option<Vec<u32>>> = boxes
        .par_iter()
        .enumerate()
        .map(|(k, &(lo, hi, _))| {
            let near: Vec<u32> = index
                .locate_in_envelope_intersecting(&AABB::from_corners(lo, hi))
                .map(|b| b.data)
                .filter(|&b| b != k as u32)
                .take(NEAR + 1)
                .collect();
            (near.len() <= NEAR).then_some(near)
        })
        .collect();
    if let Some(s) = stats {
        let crowded = near.iter().filter(|n| n.is_none()).count();
        s.crowded_patches
            .store(crowded, std::sync::atomic::Ordering::Relaxed);
    }
    let (slot, boxes, near, index) = (&slot, &boxes, &near, &index);
    tris.par_iter_mut()
        .with_min_len(1 << 10)
        .filter(|t| t.in_grid())
        .for_each(|t| {
            let own = slot[t.patch as usize];
            t.quiet = match &near[own as usize] {
                Some(near) => !near.iter().any(|&b| meets(&boxes[b as usize], t)),
                None => !index
                    .locate_in_envelope_intersecting(&AABB::from_corners(t.lo, t.hi))
                    .any(|b| b.data != own),
            };
        });
}

/// At most this many neighbours of a patch's box are listed by [`quiet`].
const NEAR: usize = 32;

/// A patch's box (low and high corners) and its id.
type PatchBox = ([f32; 3], [f32; 3], u32);

/// At most this many patches are looked at one by one by [`quiet`]; more go in an index.
const FEW_PATCHES: usize = 64;

/// The boxes of the patches of the triangles in the broad phase, if there are at most
/// [`FEW_PATCHES`] (in no set order); `None` if more. One pass on every core: each chunk
/// keeps its patches' boxes in a short list, and gives up past the limit.
fn few_patch_boxes(tris: &[Tri]) -> Option<Vec<PatchBox>> {
    let grow = |b: &mut PatchBox, lo: [f32; 3], hi: [f32; 3]| {
        for k in 0..3 {
            b.0[k] = b.0[k].min(lo[k]);
            b.1[k] = b.1[k].max(hi[k]);
        }
    };
    // `b` grown by box `(lo, hi)` of patch `patch`; `false` past the limit.
    let add = |boxes: &mut Vec<PatchBox>, last: &mut usize, (lo, hi, patch): PatchBox| {
        let i = if boxes.get(*last).is_some_and(|b| b.2 == patch) {
            *last
        } else if let Some(i) = boxes.iter().position(|b| b.2 == patch) {
            i
        } else if boxes.len() < FEW_PATCHES {
            boxes.push((lo, hi, patch));
            boxes.len() - 1
        } else {
            return false;
        };
        grow(&mut boxes[i], lo, hi);
        *last = i;
        true
    };
    tris.par_chunks(1 << 14)
        .map(|chunk| {
            let (mut boxes, mut last) = (Vec::new(), 0);
            for t in chunk.iter().filter(|t| t.in_grid()) {
                if !add(&mut boxes, &mut last, (t.lo, t.hi, t.patch)) {
                    return None;
                }
            }
            Some(boxes)
        })
        .try_reduce(Vec::new, |mut a, b| {
            let mut last = 0;
            for x in b {
                if !add(&mut a, &mut last, x) {
                    return None;
                }
            }
            Some(a)
        })
}

/// The earlier of two findings (by first triangle, then second), so that the pair reported
/// does not depend on the order the threads found them in.
fn earliest(a: Option<Overlap>, b: Option<Overlap>) -> Option<Overlap> {
    match (a, b) {
        (Some(a), Some(b)) => Some(if (b.first, b.second) < (a.first, a.second) {
            b
        } else {
            a
        }),
        (a, b) => a.or(b),
    }
}

/// The flat patches' boxes, found from each triangle's: the work follows the boxes that
/// meet, not the patches times the triangles (thousands of boxes with flat faces).
struct FlatBoxes {
    /// All of them, numbered by patch.
    index: RTree<GeomWithData<Rectangle<[f64; 3]>, usize>>,
    /// Each patch's.
    each: Vec<AABB<[f64; 3]>>,
    /// For each patch, the earlier patches whose boxes meet its box (ascending).
    earlier: Vec<Vec<usize>>,
}

impl FlatBoxes {
    fn new(flats: &[patch::Flat]) -> FlatBoxes {
        let index = RTree::bulk_load(
            flats
                .iter()
                .enumerate()
                .map(|(k, f)| GeomWithData::new(Rectangle::from_corners(f.lo, f.hi), k))
                .collect(),
        );
        let each: Vec<AABB<[f64; 3]>> = flats
            .iter()
            .map(|f| AABB::from_corners(f.lo, f.hi))
            .collect();
        let earlier = each
            .par_iter()
            .enumerate()
            .map(|(q, env)| {
                let mut k: Vec<usize> = index
                    .locate_in_envelope_intersecting(env)
                    .map(|b| b.data)
                    .filter(|&k| k < q)
                    .collect();
                k.sort_unstable();
                k
            })
            .collect();
        FlatBoxes {
            index,
            each,
            earlier,
        }
    }
}

/// The first overlap between a flat patch's triangles and any other triangle: each
/// triangle whose box meets the patch's box is judged by its corners' sides of the plane
/// ([`patch::Flat::verdict`]) and, when that cannot clear it, tested against the patch's
/// triangles near it. Two flat patches: the later one's triangles against the earlier.
fn flat_overlaps<S: Soup, F>(
    soup: &S,
    tris: &[Tri],
    ids: &[u32],
    unturned: Option<&[([f32; 3], [f32; 3])]>,
    flats: &[patch::Flat],
    test: &F,
    mode: Mode,
) -> Option<Overlap>
where
    F: Fn(usize, usize) -> Option<Overlap> + Sync,
{
    if flats.is_empty() {
        return None;
    }
    let FlatBoxes {
        index: boxes,
        each: boxes_of,
        earlier,
    } = FlatBoxes::new(flats);
    // Triangle `t` against the flat patches whose boxes meet its box; `own`, its own flat
    // patch, if any: a pair of patches is judged from the later one.
    let against = |t: usize, own: Option<usize>| {
        let tri = &tris[t];
        if tri.is_empty() {
            return None;
        }
        // In the file's frame, as the patches' boxes are.
        let (lo, hi) = unturned.map_or((tri.lo, tri.hi), |u| u[t]);
        let (lo, hi) = (lo.map(f64::from), hi.map(f64::from));
        let mut c = None;
        let mut best = None;
        let mut judge = |k: usize| {
            if own.is_some_and(|q| q <= k) {
                return;
            }
            let flat = &flats[k];
            let c = *c.get_or_insert_with(|| soup.triangle(t).map(|p| p.coords()));
            let found = match flat.verdict(&c, &ids_of(ids, t), mode) {
                Verdict::Clear => None,
                Verdict::Along(u) => test(u.min(t), u.max(t)),
                Verdict::Test(in_plane) => flat
                    .near(soup, ids, &c, in_plane)
                    .into_iter()
                    .map(|u| test(u.min(t), u.max(t)))
                    .fold(None, earliest),
            };
            best = earliest(best.take(), found);
        };
        let env = AABB::from_corners(lo, hi);
        match own {
            // A flat patch's triangle looks only at the earlier patches whose boxes
            // meet its own patch's (most of a face's triangles: none), not through the
            // index.
            Some(q) => earlier[q]
                .iter()
                .filter(|&&k| rstar::Envelope::intersects(&boxes_of[k], &env))
                .for_each(|&k| judge(k)),
            None => boxes
                .locate_in_envelope_intersecting(&env)
                .for_each(|b| judge(b.data)),
        }
        best
    };
    // A flat patch's triangles, if earlier patches' boxes meet its box (a face of a box
    // part: at most its four neighbours; the first face: none, and none of its triangles
    // is read).
    let in_flats = flats
        .par_iter()
        .enumerate()
        .filter(|(q, _)| !earlier[*q].is_empty())
        .map(|(q, f)| {
            // Most of its triangles meet none of those boxes (only those along the
            // patch's rim do): passed over by a test of their `f32` boxes against the
            // boxes rounded outward, before anything else is read.
            let near: Vec<([f32; 3], [f32; 3])> = earlier[q]
                .iter()
                .map(|&k| (flats[k].lo.map(down), flats[k].hi.map(up)))
                .collect();
            f.tris
                .par_iter()
                .with_min_len(1 << 12)
                .filter(|&&t| {
                    let tri = &tris[t as usize];
                    let (lo, hi) = unturned.map_or((tri.lo, tri.hi), |u| u[t as usize]);
                    near.iter()
                        .any(|(a, b)| (0..3).all(|k| lo[k] <= b[k] && a[k] <= hi[k]))
                })
                .map(|&t| against(t as usize, Some(q)))
                .reduce(|| None, earliest)
        })
        .reduce(|| None, earliest);
    // The others, through the index of the patches' boxes (none when every triangle is
    // of a flat patch, as on a part made of flat faces alone).
    if flats.iter().map(|f| f.tris.len()).sum::<usize>() == tris.len() {
        return in_flats;
    }
    let others = (0..tris.len())
        .into_par_iter()
        .with_min_len(1 << 10)
        .filter(|&t| tris[t].patch & UNIT == 0)
        .map(|t| against(t, None))
        .reduce(|| None, earliest);
    earliest(in_flats, others)
}

#[cfg(test)]
mod tests {

    #[test]
    fn the_float_filter_never_contradicts_the_exact_predicate() {
        // Triangles far from the origin, nearly coplanar, tiny and huge: whenever the
        // filter says "separated", the exact orientations agree, strictly, on one side.
        let mut x = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 11) as f64 / (1u64 << 53) as f64 - 0.5
        };
        let mut settled = 0;
        for k in 0..20_000 {
            let scale = [1e-9, 1.0, 1e9][k % 3];
            let offset = [0.0, 1e6, -1e8][k % 3];
            let flat = k % 2 == 0; // the second triangle almost in the first's plane
            let p = |next: &mut dyn FnMut() -> f64| {
                [
                    offset + scale * next(),
                    offset + scale * next(),
                    offset + scale * next(),
                ]
            };
            let t1 = [p(&mut next), p(&mut next), p(&mut next)];
            let t2 = if flat {
                // Points of t1's plane, nudged by a few ulps.
                let mut q = [[0.0; 3]; 3];
                for v in &mut q {
                    let (s, t) = (next(), next());
                    for c in 0..3 {
                        v[c] = t1[0][c] + s * (t1[1][c] - t1[0][c]) + t * (t1[2][c] - t1[0][c]);
                        v[c] += v[c].abs() * f64::EPSILON * next() * 4.0;
                    }
                }
                q
            } else {
                [p(&mut next), p(&mut next), p(&mut next)]
            };
            if separated(&t1, &t2) {
                settled += 1;
                let s: Vec<i8> = t2
                    .iter()
                    .map(|q| orient(&t1[0], &t1[1], &t1[2], q))
                    .collect();
                assert!(
                    s[0] != 0 && s.iter().all(|&v| v == s[0]),
                    "{t1:?} {t2:?} {s:?}"
                );
            }
        }
        assert!(settled > 3_000, "{settled}");
    }

    #[test]
    fn the_edge_axes_filter_never_calls_touching_or_crossing_triangles_apart() {
        use crate::test_rng::Lcg;
        let mut rng = Lcg(7);
        // Random pairs, far from the origin, tiny and huge: whenever the filter says
        // apart, the exact test finds no crossing, no coincidence, and nothing touching
        // (no graze, no corner passed through).
        let mut settled = 0;
        for k in 0..30_000 {
            let scale = [1e-9, 1.0, 1e9][k % 3];
            let offset = [0.0, 1e6, -1e8][k % 3];
            let mut p = || [0, 1, 2].map(|_| offset + scale * (rng.unit() - 0.5));
            let t1 = [p(), p(), p()];
            let t2 = [p(), p(), p()];
            if apart_across_edges(&t1, &t2) {
                settled += 1;
                let (mut graze, mut corner) = (None, None);
                assert!(
                    meet(&t1, &t2, &mut graze, &mut corner).is_none(),
                    "{t1:?} {t2:?}"
                );
                assert!(graze.is_none() && corner.is_none(), "{t1:?} {t2:?}");
            }
        }
        assert!(settled > 1_000, "{settled}");
        // Pairs that touch by construction, on a grid of even integers (midpoints exact),
        // scaled by powers of two and moved far away (exactly): a corner of one on an
        // edge of the other, an edge through an edge, a shared corner, a corner on the
        // other's face. Never apart.
        let mut g = || (2 * rng.below(9) as i64 - 8) as f64;
        for k in 0..20_000 {
            let (scale, offset) = (
                [0.5f64.powi(40), 1.0, 2f64.powi(30)][k % 3],
                [0.0, 1e6, -1e8][k % 3],
            );
            let mut q = || [g(), g(), g()];
            let t1 = [q(), q(), q()];
            let mid = |a: [f64; 3], b: [f64; 3]| [0, 1, 2].map(|c| (a[c] + b[c]) / 2.0);
            let (a, b) = (t1[k % 3], t1[(k + 1) % 3]);
            let m = mid(a, b);
            let other = q();
            let t2 = match (k / 3) % 4 {
                // A corner on an edge.
                0 => [m, q(), q()],
                // An edge through an edge: from `m + w` to `m - w`.
                1 => {
                    let w = q();
                    [
                        [0, 1, 2].map(|c| m[c] + w[c]),
                        [0, 1, 2].map(|c| m[c] - w[c]),
                        other,
                    ]
                }
                // A shared corner.
                2 => [a, q(), q()],
                // A corner on the face, at a quarter, a half and a quarter of the way to
                // its corners (exact: quarters).
                _ => {
                    let c = mid(m, mid(b, t1[(k + 2) % 3]));
                    [c, q(), q()]
                }
            };
            // Exact: powers of two, and offsets that keep every value an integer or a
            // half-integer below 2^53 (or add nothing).
            let place = |t: [[f64; 3]; 3]| t.map(|p| p.map(|x| offset + scale * x));
            let (t1, t2) = (place(t1), place(t2));
            assert!(!apart_across_edges(&t1, &t2), "{t1:?} {t2:?}");
            assert!(!apart_across_edges(&t2, &t1), "{t1:?} {t2:?}");
        }
    }
    use super::{
        Bounded, Kind, Mode, Overlap, Point, Settings, Soup, Tri, UNIT, apart_across_edges, check,
        check_welded, faces_mask, first_overlap, meet, orient, patch, quiet, record_of, search,
        separated,
    };
    use crate::soup::VertexSoup;

    fn soup_of(tris: &[[[f64; 3]; 3]]) -> Vec<[f64; 3]> {
        tris.iter().flat_map(|t| t.iter().copied()).collect()
    }

    fn cube(min: [f64; 3], size: [f64; 3]) -> Vec<[[f64; 3]; 3]> {
        let m = crate::shape::Shape3d::Box { size }.tessellate(0);
        m.triangles
            .iter()
            .map(|t| {
                t.map(|i| {
                    let v = m.vertices[i as usize];
                    [0, 1, 2].map(|k| v[k] + size[k] / 2.0 + min[k])
                })
            })
            .collect()
    }

    fn first(tris: &[[[f64; 3]; 3]]) -> Option<Overlap> {
        first_overlap(&VertexSoup(&soup_of(tris)))
    }

    #[test]
    fn touching_bodies_pass() {
        // Face to face, edge to edge, corner to corner, and apart.
        for offset in [
            [1.0, 0.0, 0.0],
            [1.0, 1.0, 0.0],
            [1.0, 1.0, 1.0],
            [3.0, 0.0, 0.0],
        ] {
            let t = [cube([0.0; 3], [1.0; 3]), cube(offset, [1.0; 3])].concat();
            assert_eq!(first(&t), None, "offset {offset:?}");
        }
        // A small box resting on a big one's face, sharing no vertex.
        let t = [cube([0.0; 3], [4.0; 3]), cube([1.0, 1.0, 4.0], [1.0; 3])].concat();
        assert_eq!(first(&t), None);
        // And one pressed against the big one's bottom face from below.
        let t = [cube([0.0; 3], [4.0; 3]), cube([1.0, 1.0, -1.0], [1.0; 3])].concat();
        assert_eq!(first(&t), None);
    }

    /// A soup that says it is a mapped file, and notes when it is told to let its memory go.
    struct AsMapped<'a>(VertexSoup<'a>, std::sync::atomic::AtomicBool);

    impl Soup for AsMapped<'_> {
        type Point = [u64; 3];
        fn len(&self) -> usize {
            self.0.len()
        }
        fn triangle(&self, t: usize) -> [[u64; 3]; 3] {
            self.0.triangle(t)
        }
        fn mapped(&self) -> bool {
            true
        }
        fn release(&self) {
            self.1.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    }

    #[test]
    fn a_mapped_file_is_checked_from_the_weld_s_points_alike() {
        // The parallel pass keeps the points and lets a mapped file go; the check then reads
        // the corners through the point numbers. It must find what the soup's own corners
        // give: nothing, contacts within rounding, or the same first pair.
        let (s, c) = 10.0_f64.to_radians().sin_cos();
        let turn = |p: [f64; 3]| {
            [
                p[0],
                (c * p[1] - s * p[2]) as f32 as f64,
                (s * p[1] + c * p[2]) as f32 as f64,
            ]
        };
        let cases: Vec<Vec<[[f64; 3]; 3]>> = vec![
            [cube([0.0; 3], [1.0; 3]), cube([1.0, 1.0, 0.0], [1.0; 3])].concat(),
            [cube([0.0; 3], [4.0; 3]), cube([1.0, 1.0, 4.0], [1.0; 3])].concat(),
            [
                cube([0.0; 3], [4.0, 4.0, 1.0]),
                cube([1.0, 1.0, 1.0], [1.0; 3]),
            ]
            .concat()
            .iter()
            .map(|t| t.map(turn))
            .collect(),
            [
                cube([0.0; 3], [4.0, 4.0, 1.0]),
                cube([1.0, 1.0, 0.9], [1.0; 3]),
            ]
            .concat(),
            [sphere([0.0; 3], 1.0, 24), sphere([1.5, 0.2, 0.1], 1.0, 24)].concat(),
            [sphere([0.0; 3], 1.0, 24), cube([3.0, 0.0, 0.0], [1.0; 3])].concat(),
            sphere([1e6, -2e6, 3e6], 1.0, 40),
        ];
        let mut welded_cases = 0;
        for (k, t) in cases.iter().enumerate() {
            let points = soup_of(t);
            let plain = check(&VertexSoup(&points));
            let mapped = AsMapped(VertexSoup(&points), false.into());
            // Closed bodies only (the pass refuses the rest).
            let Some((_, welded)) = crate::soup::solid_with(&mapped, true) else {
                continue;
            };
            welded_cases += 1;
            assert!(
                mapped.1.load(std::sync::atomic::Ordering::Relaxed),
                "case {k}"
            );
            assert!(welded.point_soup().is_some(), "case {k}");
            let kept = check_welded(&mapped, welded);
            match (&plain, &kept) {
                (Ok(a), Ok(b)) => assert_eq!(a, b, "case {k}"),
                (Err(a), Err(b)) => assert_eq!(a, b, "case {k}"),
                _ => panic!("case {k}: {plain:?} against {kept:?}"),
            }
        }
        assert!(welded_cases >= 5, "{welded_cases}");
    }

    /// The triangles of a convex solid wound outward (each turned to face away from a
    /// point inside).
    fn outward(tris: &[[[f64; 3]; 3]], inside: [f64; 3]) -> Vec<[[f64; 3]; 3]> {
        tris.iter()
            .map(|t| {
                if orient(&t[0], &t[1], &t[2], &inside) > 0 {
                    *t
                } else {
                    [t[0], t[2], t[1]]
                }
            })
            .collect()
    }

    #[test]
    fn touching_cubes_turned_and_rounded_to_f32_pass() {
        // Two unit cubes face to face, turned about z and written as a binary STL would
        // (f32): the faces around each shared edge include two coinciding ones whose
        // direction can fall at the start of the angular order (90°), which must not
        // break the alternation.
        for degrees in [0.0_f64, 30.0, 45.0, 90.0, 180.0, 270.0] {
            let (s, c) = degrees.to_radians().sin_cos();
            let turn = |p: [f64; 3]| {
                [
                    (c * p[0] - s * p[1]) as f32 as f64,
                    (s * p[0] + c * p[1]) as f32 as f64,
                    p[2],
                ]
            };
            let t: Vec<_> = [cube([0.0; 3], [1.0; 3]), cube([1.0, 0.0, 0.0], [1.0; 3])]
                .concat()
                .iter()
                .map(|t| t.map(turn))
                .collect();
            assert_eq!(first(&t), None, "{degrees}°");
        }
    }

    #[test]
    fn a_contact_within_rounding_passes_and_a_deeper_one_says_how_deep() {
        // A cube resting on a slab, turned 10° about x and rounded to f32: the contact
        // crosses by about 1e-8, within what f32 can say there: touching, reported.
        let (s, c) = 10.0_f64.to_radians().sin_cos();
        let turn = |p: [f64; 3]| {
            [
                p[0],
                (c * p[1] - s * p[2]) as f32 as f64,
                (s * p[1] + c * p[2]) as f32 as f64,
            ]
        };
        let t: Vec<_> = [
            cube([0.0; 3], [4.0, 4.0, 1.0]),
            cube([1.0, 1.0, 1.0], [1.0; 3]),
        ]
        .concat()
        .iter()
        .map(|t| t.map(turn))
        .collect();
        assert_eq!(first(&t), None);
        let contacts = check(&VertexSoup(&soup_of(&t))).unwrap().unwrap();
        assert!(
            contacts.count > 0 && contacts.max_depth < 1e-6,
            "{contacts:?}"
        );
        assert!(contacts.volume_bound < 1e-5, "{contacts:?}");
        // Sunk by a tenth: 0.1 deep, refused, with what the rounding could explain.
        let t = [
            cube([0.0; 3], [4.0, 4.0, 1.0]),
            cube([1.0, 1.0, 0.9], [1.0; 3]),
        ]
        .concat();
        let o = first(&t).unwrap();
        let text = o.describe(&VertexSoup(&soup_of(&t)));
        assert!(
            text.contains(", 0.1 deep (more than the ")
                && text.ends_with(" a repair may reach there)"),
            "{text}"
        );
    }

    #[test]
    fn crossings_only_through_face_diagonals_are_found() {
        // Two cubes offset by half their size along every axis: every edge of one that
        // enters the other passes exactly through a diagonal that splits a face (or a
        // cube's edge), never through a triangle's interior.
        for (shift, scale) in [(0.0, 1.0), (1e6, 1.0), (-3.0, 1e-3), (0.0, 1e5)] {
            let at = |v: f64| v * scale + shift;
            let t = [
                cube([at(0.0); 3], [2.0 * scale; 3]),
                cube([at(1.0); 3], [2.0 * scale; 3]),
            ]
            .concat();
            let o = first(&t);
            assert!(
                matches!(
                    o,
                    Some(Overlap {
                        kind: Kind::Cross(_),
                        ..
                    })
                ),
                "shift {shift} scale {scale}: {o:?}"
            );
        }
    }

    #[test]
    fn an_edge_through_a_ridge_from_outside_only_touches() {
        // A triangular prism (along y) whose face x + z = 4 rests on the cube's top
        // edge (x = 2, z = 2): the prism's edges cross that edge exactly, both ends
        // outside the cube, one above its top face and one beside its side face.
        let (a, b, c) = ([1.0, 3.0], [3.0, 1.0], [4.0, 4.0]);
        let v = |p: [f64; 2], y: f64| [p[0], y, p[1]];
        let (y0, y1) = (0.5, 1.5);
        let prism = outward(
            &[
                [v(a, y0), v(b, y0), v(c, y0)],
                [v(a, y1), v(b, y1), v(c, y1)],
                [v(a, y0), v(b, y0), v(b, y1)],
                [v(a, y0), v(b, y1), v(a, y1)],
                [v(b, y0), v(c, y0), v(c, y1)],
                [v(b, y0), v(c, y1), v(b, y1)],
                [v(c, y0), v(a, y0), v(a, y1)],
                [v(c, y0), v(a, y1), v(c, y1)],
            ],
            [8.0 / 3.0, 1.0, 8.0 / 3.0],
        );
        let t = [cube([0.0; 3], [2.0; 3]), prism.clone()].concat();
        assert_eq!(first(&t), None);
        // Pushed 0.25 into the cube along −x: the same edges now enter it.
        let pushed: Vec<_> = prism
            .iter()
            .map(|t| t.map(|p| [p[0] - 0.25, p[1], p[2]]))
            .collect();
        let t = [cube([0.0; 3], [2.0; 3]), pushed].concat();
        assert!(first(&t).is_some());
    }

    #[test]
    fn overlapping_and_duplicated_bodies_are_found() {
        // Overlapping by half along x (coplanar faces on y and z facing the same way).
        let t = [cube([0.0; 3], [1.0; 3]), cube([0.5, 0.0, 0.0], [1.0; 3])].concat();
        assert!(first(&t).is_some());
        // Overlapping in general position: edges cross faces.
        let t = [cube([0.0; 3], [1.0; 3]), cube([0.5, 0.25, 0.125], [1.0; 3])].concat();
        assert!(matches!(first(&t).unwrap().kind, Kind::Cross(_)));
        // The same body twice.
        let t = [cube([0.0; 3], [1.0; 3]), cube([0.0; 3], [1.0; 3])].concat();
        assert!(matches!(first(&t).unwrap().kind, Kind::Coincide(_)));
        // Far from the origin, exactly as near it.
        let t = [
            cube([1e8; 3], [1.0; 3]),
            cube([1e8 + 0.5, 1e8 + 0.25, 1e8 + 0.125], [1.0; 3]),
        ]
        .concat();
        assert!(first(&t).is_some());
    }

    #[test]
    fn notes_past_the_cap_keep_only_the_earliest_pair() {
        let mut b = Bounded::<(usize, usize)>::new(0);
        let key = |p: &(usize, usize)| (p.0, p.1, [p.0 as f64, 0.0, 0.0]);
        for k in (0..b.cap + 100).rev() {
            b.push((k + 5, k + 9), key);
        }
        assert_eq!(b.kept.len(), b.cap);
        assert_eq!(b.over.map(|o| (o.0, o.1)), Some((5, 9)));
        // Under the cap, nothing is over.
        let mut small = Bounded::<(usize, usize)>::new(0);
        small.push((1, 2), key);
        assert!(small.over.is_none() && small.kept == [(1, 2)]);
    }

    #[test]
    fn a_cube_stacked_on_copies_of_itself_is_refused_in_bounded_memory() {
        // 120 unit cubes, each 1/1024 along x from the last: every face lies on or crosses
        // a hundred others. Refused, naming the earliest pair; the pairs noted for a later
        // look stay within their cap (the abort was a 2 GiB list of them, at 2,000).
        let t: Vec<_> = (0..120)
            .flat_map(|k| cube([k as f64 / 1024.0, 0.0, 0.0], [1.0; 3]))
            .collect();
        let o = first(&t).unwrap();
        assert_eq!((o.first, o.second), (0, 12), "{o:?}");
        assert!(matches!(o.kind, Kind::Coincide(_)), "{o:?}");
    }

    #[test]
    fn boxes_kept_in_f32_lose_nothing() {
        // Near 1e6, f32 cannot tell 3.3e-9 apart; the boxes are rounded outward, and the
        // exact test decides: an overlap of 3.3e-9 is found (a contact, within reach), a
        // gap of 3.3e-9 is not one.
        let a = cube([1e6; 3], [1.0; 3]);
        let over = [
            a.clone(),
            cube([1e6 + 1.0 - 3.3e-9, 1e6 + 0.25, 1e6 + 0.125], [1.0; 3]),
        ];
        let found = check(&VertexSoup(&soup_of(&over.concat()))).unwrap();
        assert!(
            found.is_some_and(|c| c.count > 0 && c.max_depth < 1e-8),
            "{found:?}"
        );
        let gap = [
            a,
            cube([1e6 + 1.0 + 3.3e-9, 1e6 + 0.25, 1e6 + 0.125], [1.0; 3]),
        ];
        assert_eq!(first(&gap.concat()), None);
        // Beyond f32's range (its boxes would be infinite): the R*-tree, in f64.
        let t = [
            cube([1e39; 3], [1e39; 3]),
            cube([1.5e39, 1.25e39, 1.125e39], [1e39; 3]),
        ]
        .concat();
        assert!(matches!(first(&t).unwrap().kind, Kind::Cross(_)));
        let t = [cube([1e39; 3], [1e38; 3]), cube([2e39; 3], [1e38; 3])].concat();
        assert_eq!(first(&t), None);
    }

    #[test]
    fn a_tetrahedron_inscribed_in_a_cube_on_its_face_diagonals_is_found() {
        // The cube's faces split along the tetrahedron's edges (face diagonals), so the
        // two bodies share all four tetrahedron corners and six edges, and no edge of
        // either passes through a face of the other: only the order of the faces around
        // the shared edges shows the tetrahedron's space enclosed twice.
        let v = |x: f64, y: f64, z: f64| [x, y, z];
        let (o, a, b, c) = (
            v(0.0, 0.0, 0.0),
            v(1.0, 1.0, 0.0),
            v(1.0, 0.0, 1.0),
            v(0.0, 1.0, 1.0),
        );
        let (px, py, pz, pxyz) = (
            v(1.0, 0.0, 0.0),
            v(0.0, 1.0, 0.0),
            v(0.0, 0.0, 1.0),
            v(1.0, 1.0, 1.0),
        );
        // Outward cube faces, each split on the diagonal the tetrahedron uses.
        let cube = vec![
            [o, py, a],
            [o, a, px], // z = 0, diagonal o–a
            [o, px, b],
            [o, b, pz], // y = 0, diagonal o–b
            [o, pz, c],
            [o, c, py], // x = 0, diagonal o–c
            [px, a, pxyz],
            [px, pxyz, b], // x = 1, diagonal a–b
            [py, c, pxyz],
            [py, pxyz, a], // y = 1, diagonal a–c
            [pz, b, pxyz],
            [pz, pxyz, c], // z = 1, diagonal b–c
        ];
        let tet = vec![[o, a, b], [o, b, c], [o, c, a], [a, c, b]];
        // Each body alone is fine; the cube's volume is right-handed (outward).
        assert_eq!(first(&cube), None);
        assert_eq!(first(&tet), None);
        let both = [cube, tet].concat();
        let found = first(&both).expect("the inscribed tetrahedron overlaps the cube");
        assert!(matches!(found.kind, Kind::Wedge(..)), "{found:?}");
        let text = found.describe(&VertexSoup(&soup_of(&both)));
        assert!(
            text.contains("both turn the same way around the edge"),
            "{text}"
        );
    }

    #[test]
    fn a_cavity_is_not_an_overlap() {
        // A box with an inward box inside it: no triangle meets another.
        let mut inner = cube([1.0; 3], [1.0; 3]);
        for t in &mut inner {
            t.swap(1, 2);
        }
        let t = [cube([0.0; 3], [3.0; 3]), inner].concat();
        assert_eq!(first(&t), None);
    }

    #[test]
    fn crossing_point_is_reported() {
        // A triangle in z = 0 and one standing through it along x = 0.25.
        let flat = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
        let up = [[0.25, 0.25, -1.0], [0.25, 0.25, 1.0], [0.25, -5.0, 1.0]];
        // The upright edge pierces the flat one at (0.25, 0.25, 0); the flat one's bottom
        // edge pierces the upright one at (0.25, 0, 0). Either names the crossing.
        let o = first(&[flat, up]).unwrap();
        assert!(
            [
                Kind::Cross([0.25, 0.25, 0.0]),
                Kind::Cross([0.25, 0.0, 0.0])
            ]
            .contains(&o.kind),
            "{o:?}"
        );
        // Touching at a vertex on the face: not a crossing.
        let rest = [[0.25, 0.25, 0.0], [0.25, 0.25, 1.0], [0.25, -5.0, 1.0]];
        assert_eq!(first(&[flat, rest]), None);
    }

    fn sphere(centre: [f64; 3], r: f64, segments: usize) -> Vec<[[f64; 3]; 3]> {
        let m = crate::shape::Shape3d::Sphere { radius: r }.tessellate(segments);
        m.triangles
            .iter()
            .map(|t| {
                t.map(|i| {
                    let v = m.vertices[i as usize];
                    [0, 1, 2].map(|k| v[k] + centre[k])
                })
            })
            .collect()
    }

    #[test]
    fn big_faces_beside_small_triangles() {
        // A finely tessellated sphere poking through a box's face (the box's 12 triangles
        // are far larger than the grid's cells): found through the large-triangle list.
        let t = [cube([0.0; 3], [10.0; 3]), sphere([5.0, 5.0, 10.0], 1.0, 48)].concat();
        assert!(matches!(first(&t).unwrap().kind, Kind::Cross(_)));
        // The sphere wholly outside, just above the face: nothing meets.
        let t = [cube([0.0; 3], [10.0; 3]), sphere([5.0, 5.0, 11.5], 1.0, 48)].concat();
        assert_eq!(first(&t), None);
        // Many big faces (more than the large list takes) beside small triangles: the
        // R*-tree path, same answers.
        let mut big = Vec::new();
        for k in 0..8 {
            big.extend(cube([30.0 * k as f64, 0.0, 0.0], [10.0; 3]));
        }
        let t = [big.clone(), sphere([5.0, 5.0, 10.0], 1.0, 48)].concat();
        assert!(first(&t).is_some());
        let t = [big, sphere([5.0, 5.0, 11.5], 1.0, 48)].concat();
        assert_eq!(first(&t), None);
    }

    #[test]
    fn the_first_pair_is_the_same_on_both_paths() {
        // Two overlapping spheres: the grid path; the same with many big boxes far away
        // appended (their triangles come last, so the first pair cannot change): the tree.
        let spheres = [sphere([0.0; 3], 1.0, 24), sphere([0.5, 0.1, 0.2], 1.0, 24)].concat();
        let grid = first(&spheres).unwrap();
        let mut far = spheres.clone();
        for k in 0..8 {
            far.extend(cube([100.0 + 30.0 * k as f64, 0.0, 0.0], [10.0; 3]));
        }
        assert_eq!(first(&far).unwrap(), grid);
    }

    #[test]
    fn quiet_triangles_are_in_no_pair_across_patches() {
        // Spheres crossing, one touching another, one far away, a small sphere through a
        // big one's side (deep inside a patch, far from its border), a sphere on a box.
        let cases = [
            [sphere([0.0; 3], 1.0, 32), sphere([0.5, 0.1, 0.2], 1.0, 32)].concat(),
            [sphere([0.0; 3], 1.0, 32), sphere([2.0, 0.0, 0.0], 1.0, 32)].concat(),
            [sphere([0.0; 3], 1.0, 32), sphere([50.0, 0.0, 0.0], 1.0, 32)].concat(),
            [
                sphere([0.0; 3], 10.0, 48),
                sphere([0.0, 0.0, 10.0], 0.5, 16),
            ]
            .concat(),
            [
                cube([-2.0, -2.0, -4.0], [4.0, 4.0, 3.0]),
                sphere([0.0; 3], 1.0, 32),
            ]
            .concat(),
        ];
        for (c, t) in cases.iter().enumerate() {
            let points = soup_of(t);
            let soup = VertexSoup(&points);
            let mut welded = crate::soup::welded_points(&soup).unwrap();
            let nbr = welded.neighbours();
            let (ids, _) = welded.into_parts();
            let corners = |i: usize| soup.triangle(i).map(|p| p.coords());
            let masks: Vec<u8> = (0..t.len()).map(|i| faces_mask(&corners(i))).collect();
            let mut tris: Vec<Tri> = (0..t.len()).map(|i| record_of(&soup, i)).collect();
            let runs = patch::grow(&nbr, &masks, |_| false, corners);
            let _flats = patch::find(&soup, &mut tris, &ids, &nbr, runs);
            quiet(&mut tris, None);
            let quiet_count = tris.iter().filter(|t| t.quiet).count();
            // The filter does its work: apart from where the spheres cross, most of each
            // smooth surface is quiet (only the patches' borders and the parts near the
            // other body are listed).
            let share = if c == 0 { 0.25 } else { 0.8 };
            assert!(
                quiet_count as f64 > share * t.len() as f64,
                "case {c}: {quiet_count} of {}",
                t.len()
            );
            let listed = |t: &Tri| !t.is_empty() && t.patch & UNIT == 0;
            for i in 0..tris.len() {
                for j in i + 1..tris.len() {
                    let (a, b) = (&tris[i], &tris[j]);
                    if listed(a) && listed(b) && !a.same_patch(b) && a.meets(b) {
                        assert!(!a.quiet && !b.quiet, "case {c}: {i} and {j}");
                    }
                }
            }
            // And the search finds what the search without patches finds.
            let run = |p| search(&soup, p, Mode::Solid).map(|c| c.map(|c| c.count));
            assert_eq!(
                run(Settings::FULL),
                run(Settings {
                    patches: false,
                    ..Settings::FULL
                }),
                "case {c}"
            );
        }
        // The crossing cases are found.
        assert!(first(&cases[0]).is_some());
        assert!(first(&cases[3]).is_some());
        assert!(first(&cases[2]).is_none());
    }
}
