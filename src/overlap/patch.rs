//! Patches: pieces of the surface that cannot cross themselves, so that pairs of their own
//! triangles are never tested.
//!
//! The idea is Volino and Magnenat Thalmann's ("Efficient self-collision detection on
//! smoothly discretized surface animations using geometrical shape regularity", 1994): a
//! connected piece of surface whose normals all lie within less than a right angle of one
//! direction, and whose outline seen along that direction does not cross itself, cannot
//! cross itself. Here the direction is a coordinate axis, so that every decision is an
//! exact orientation sign on the file's own numbers (dropping a coordinate rounds nothing):
//!
//! - A patch grows from a triangle across edges used by exactly two triangles, in opposite
//!   directions, to neighbours that face the same way along the seed's axis: the exact
//!   `orient2d` of their corners with that coordinate dropped has the seed's sign.
//! - Seen along the axis, each point of the plane is covered by as many of the patch's
//!   triangles as the winding number of the patch's boundary (its edges not shared within
//!   it, each as its triangle runs it) around that point: every triangle covers its inside
//!   once, the same way round, and shared edges cancel. So if the boundary forms rings that
//!   neither cross nor touch (the polygon sweep, `crate::sweep`), with exactly one of them
//!   turning the triangles' way, every point is covered at most once: the projection is
//!   one-to-one, and no two of the patch's triangles cross, coincide or meet edge through
//!   edge. A patch whose outline fails this is dissolved (its triangles are tested pair by
//!   pair, as before).
//!
//! A sphere is a few patches (its upper and lower halves), a CAD part's flat faces and
//! the smooth bands between its edges are patches: the pairs left to test lie along the
//! patches' borders. A triangle whose box meets no other patch's box is not even listed in
//! the broad phase (`quiet` in the parent module), so a smooth surface costs the finding of
//! its patches: each edge's neighbour across it, read from the fans around the points
//! (`crate::fans`, made once from the weld's point numbers), the signed axes each
//! triangle faces found once in parallel, and a walk across the edges.
//!
//! A **flat** patch of many triangles (a cap fanned from its centre or from a corner, a
//! face split into a grid) is checked as a whole: any other triangle is set against the
//! patch's plane (the same plane for all its triangles), and most are cleared by the signs
//! of their corners alone: lying on the patch's outer side touching the plane nowhere or
//! at one of the patch's corners, or inside it and touching the plane only at the patch's
//! own corners or along its outline. Only the rest (a triangle passing through the plane,
//! one lying in it facing the same way, one touching it elsewhere, where an edge of the
//! patch may pass exactly through its corner or edge) is tested, pair by pair, against the
//! patch's triangles that meet its part of the plane: found by their boxes, or, around a
//! fan's apex, by their angles there (`hub.rs`), since a fan's slivers have boxes that
//! reach across the cap. This removes the long thin triangles of fans from the broad
//! phase, where their boxes meet every small triangle along the rim.

use super::exact::{cross3, orient, orient2, project};
use super::grid::{Boxed, bounds};
use super::hub::{HUB, Lookup, hub_of, turn};
use super::{Mode, Tri, ids_of};
use crate::body::BoundingBox;
use crate::soup::{Point, Soup};
use crate::union_find::UnionFind;
use ahash::{AHashMap as HashMap, AHashSet as HashSet};
use rayon::prelude::*;
use rstar::primitives::{GeomWithData, Rectangle};
use rstar::{AABB, RTree};
use std::sync::OnceLock;

/// In [`Tri::patch`]: the triangle belongs to a flat patch checked as a whole.
pub(super) const UNIT: u32 = 1 << 31;

/// No neighbour across an edge (or more than one).
const NONE: u32 = u32::MAX;

/// How many times a failed joined patch is tried again without the runs where its outline
/// fails.
const MEND_ROUNDS: usize = 8;

/// Flat patches of fewer triangles go through the broad phase with the others.
const FLAT_MIN: usize = 16;

/// A flat patch checked as a whole.
pub(super) struct Flat {
    /// Its triangles, ascending.
    pub(super) tris: Vec<u32>,
    /// One of its triangles' corners, as wound: the patch's plane and facing.
    plane: [[f64; 3]; 3],
    /// When the plane is `x[axis] = value`: the axis, the value, and the orientation sign
    /// of a point with a larger coordinate.
    aligned: Option<(usize, f64, i8)>,
    /// The coordinate dropped to see the patch flat, and its triangles' orientation sign
    /// there.
    drop: usize,
    sign: i8,
    /// Its box.
    pub(super) lo: [f64; 3],
    pub(super) hi: [f64; 3],
    /// Its corners' point numbers.
    corners: Corners,
    /// Its outline's edges (corners' point numbers, ascending) and the triangle of the patch on each.
    outline: HashMap<[u64; 2], u32>,
    /// Its triangles as [`Flat::near`] finds them, built when a triangle is first tested
    /// pair by pair.
    lookup: OnceLock<Lookup>,
    /// Its outline failed (see [`outline`]): its triangles may lie on one another, and the
    /// pairs of them that can are tested ([`Flat::inner_pairs`]).
    pub(super) folded: bool,
}

/// A flat patch's corners' point numbers: bits over their range when it is at most 64
/// numbers a corner wide (the weld numbers the points of nearby triangles together, so a
/// face's points mostly lie in a short range), else a hash set.
enum Corners {
    /// Bit `x - first` for point `x`.
    Bits {
        first: u64,
        bits: Vec<u64>,
    },
    Hash(HashSet<u64>),
}

impl Corners {
    /// The corners of triangles `members` (point numbers `ids`, as for [`ids_of`]).
    fn of(ids: &[u32], members: &[u32]) -> Corners {
        let all = || members.iter().flat_map(|&t| ids_of(ids, t as usize));
        let (lo, hi) = all().fold((u64::MAX, 0), |(lo, hi), x| (lo.min(x), hi.max(x)));
        if lo > hi {
            return Corners::Hash(HashSet::new());
        }
        let span = hi - lo + 1;
        if span > 64 * 3 * members.len() as u64 {
            return Corners::Hash(all().collect());
        }
        let mut bits = vec![0u64; span.div_ceil(64) as usize];
        for x in all() {
            let k = x - lo;
            bits[(k / 64) as usize] |= 1 << (k % 64);
        }
        Corners::Bits { first: lo, bits }
    }

    fn contains(&self, x: &u64) -> bool {
        match self {
            Corners::Bits { first, bits } => x.checked_sub(*first).is_some_and(|k| {
                bits.get((k / 64) as usize)
                    .is_some_and(|w| w >> (k % 64) & 1 != 0)
            }),
            Corners::Hash(set) => set.contains(x),
        }
    }
}

/// What a triangle's corners say of its meeting with a flat patch.
pub(super) enum Verdict {
    /// It cannot cross or coincide with any of the patch's triangles.
    Clear,
    /// It shares this outline edge with the patch's triangle (tested, to note an edge both
    /// run the same way round), and is otherwise clear.
    Along(usize),
    /// Test it against the patch's triangles near it ([`Flat::near`]). `Some(m)`: it meets
    /// the plane exactly in the hull of its corners in the plane, the bits of `m` (bit `k`
    /// for corner `k`), its other corners lying strictly on one side; `None`: its corners
    /// lie strictly on both sides.
    Test(Option<u8>),
}

impl Flat {
    /// The exact orientation sign of `p` against the patch's plane (`orient`'s sign:
    /// negative on the side the patch faces).
    fn side(&self, p: &[f64; 3]) -> i8 {
        match self.aligned {
            Some((axis, value, above)) => match p[axis].partial_cmp(&value) {
                Some(std::cmp::Ordering::Greater) => above,
                Some(std::cmp::Ordering::Less) => -above,
                _ => 0,
            },
            None => orient(&self.plane[0], &self.plane[1], &self.plane[2], p),
        }
    }

    /// How a triangle (corners `c`, point numbers `h`), not of the patch, can meet it. Exactly
    /// what testing it against each of the patch's triangles would find when `Clear`: a
    /// corner in the plane counts as outside (see [`meet`]), so a triangle on the outer
    /// side only touches; one inside touching the plane at a corner of the patch, or along
    /// an edge of its outline, meets the patch only on its triangles' edges.
    pub(super) fn verdict(&self, c: &[[f64; 3]; 3], h: &[u64; 3], mode: Mode) -> Verdict {
        let s = c.map(|p| self.side(&p));
        // Where it meets the plane, when its corners say so exactly (see `Verdict::Test`).
        let in_plane = (!(s.contains(&1) && s.contains(&-1)))
            .then(|| (0..3).filter(|&k| s[k] == 0).fold(0, |m, k| m | 1 << k));
        if mode == Mode::Sheet {
            // Only a face in the plane can lie on the patch.
            return if s == [0, 0, 0] {
                Verdict::Test(in_plane)
            } else {
                Verdict::Clear
            };
        }
        if s == [0, 0, 0] {
            // In the plane: facing the other way, it only touches (two bodies face to face),
            // unless it shares an edge with the patch: both may run it the same way, which
            // the pair test notes for the check of the faces around that edge.
            let p = c.map(|q| project(q, self.drop));
            let shared = h.iter().filter(|x| self.corners.contains(x)).count();
            return if orient2(&p[0], &p[1], &p[2]) == -self.sign && shared < 2 {
                Verdict::Clear
            } else {
                Verdict::Test(in_plane)
            };
        }
        if !s.contains(&1) {
            // On the outer side. Touching the plane nowhere, or only at one corner of the
            // patch (where no edge of a patch that is not folded passes through), it only
            // touches. A corner or an edge lying in the plane elsewhere may have an edge of
            // the patch pass exactly through it, which the pair test examines (through a
            // corner, through an edge): tested.
            let zeros: Vec<usize> = (0..3).filter(|&k| s[k] == 0).collect();
            return match zeros[..] {
                [] => Verdict::Clear,
                [k] if !self.folded && self.corners.contains(&h[k]) => Verdict::Clear,
                _ => Verdict::Test(in_plane),
            };
        }
        if s.contains(&-1) {
            return Verdict::Test(in_plane);
        }
        // Inside, touching the plane at the corners with sign 0. A corner of a folded patch
        // may lie inside another of its triangles, and a corner in the plane counts as on
        // the side a face faces, so a triangle touching it there from inside crosses that
        // face: tested.
        if self.folded && s.contains(&0) {
            return Verdict::Test(in_plane);
        }
        let zeros: Vec<usize> = (0..3).filter(|&k| s[k] == 0).collect();
        match zeros[..] {
            [] => Verdict::Clear,
            [k] if self.corners.contains(&h[k]) => Verdict::Clear,
            [a, b] => {
                let key = [h[a].min(h[b]), h[a].max(h[b])];
                match self.outline.get(&key) {
                    Some(&t) => Verdict::Along(t as usize),
                    None => Verdict::Test(in_plane),
                }
            }
            _ => Verdict::Test(in_plane),
        }
    }

    /// For a [`folded`](Flat::folded) patch: the pairs of its triangles (ascending, each
    /// once) whose interiors may overlap, which are all the pairs of it that can cross or
    /// coincide. Its triangles lie in one plane and turn one way seen along the dropped
    /// axis, so two of them meet wrongly only where their interiors overlap there:
    ///
    /// - two sharing a corner overlap exactly when their angles at that corner do (both
    ///   are convex and hold the corner, so an overlap reaches it): around each corner the
    ///   angles are sorted by their first side (exact turns), and each is set against the
    ///   ones that start inside it, which follow it in that order;
    /// - two sharing no corner are found by their boxes, but for the triangles around a
    ///   corner of more than [`HUB`] of them (a fan's apex, where every box meets every
    ///   other), which are set against the others and not against one another.
    ///
    /// A fan of n triangles costs O(n log n), not the n² pairs whose boxes meet.
    pub(super) fn inner_pairs<S: Soup>(&self, soup: &S, ids: &[u32]) -> Vec<(u32, u32)> {
        let corners = |t: u32| {
            soup.triangle(t as usize)
                .map(|p| project(p.coords(), self.drop))
        };
        // Every corner's uses, by point number.
        let mut uses: Vec<(u64, u32, u8)> = self
            .tris
            .iter()
            .flat_map(|&t| (0..3u8).map(move |k| (ids_of(ids, t as usize)[k as usize], t, k)))
            .collect();
        uses.par_sort_unstable();
        let mut hubs: HashMap<u64, usize> = HashMap::new();
        let runs: Vec<&[(u64, u32, u8)]> = uses.chunk_by(|a, b| a.0 == b.0).collect();
        for run in &runs {
            if run.len() > HUB {
                hubs.insert(run[0].0, run.len());
            }
        }
        let mut pairs: Vec<(u32, u32)> = runs
            .par_iter()
            .filter(|run| run.len() > 1)
            .flat_map_iter(|run| {
                // Each angle as (corner, first side, second side), turning the triangles'
                // way; seen with the axis dropped, a sign of -1 is turned round.
                let angles: Vec<Angle> = run
                    .iter()
                    .map(|&(_, t, k)| {
                        let c = corners(t);
                        let k = k as usize;
                        let (a, b) = (c[(k + 1) % 3], c[(k + 2) % 3]);
                        let (a, b) = if self.sign > 0 { (a, b) } else { (b, a) };
                        (c[k], a, b, t)
                    })
                    .collect();
                overlapping_angles(angles)
            })
            .collect();
        // Pairs sharing no corner, by their boxes.
        let hub = |t: u32| hub_of(&hubs, &ids_of(ids, t as usize));
        let mut classes: HashMap<Option<u64>, Vec<Boxed>> = HashMap::new();
        let boxed = |t: u32| {
            let c = soup.triangle(t as usize).map(|p| p.coords());
            let (lo, hi) = bounds(&c);
            GeomWithData::new(Rectangle::from_corners(lo, hi), t)
        };
        for &t in &self.tris {
            classes.entry(hub(t)).or_default().push(boxed(t));
        }
        let classes: Vec<(Option<u64>, RTree<Boxed>)> = classes
            .into_iter()
            .map(|(h, b)| (h, RTree::bulk_load(b)))
            .collect();
        // The classes by their boxes, so that a triangle looks only into those its box
        // meets (a face of many fans is many classes).
        let class_boxes: RTree<GeomWithData<Rectangle<[f64; 3]>, usize>> = RTree::bulk_load(
            classes
                .iter()
                .enumerate()
                .map(|(k, (_, tree))| {
                    let e = tree.root().envelope();
                    GeomWithData::new(Rectangle::from_corners(e.lower(), e.upper()), k)
                })
                .collect(),
        );
        let shares = |t: u32, u: u32| {
            let (a, b) = (&ids_of(ids, t as usize), &ids_of(ids, u as usize));
            a.iter().any(|x| b.contains(x))
        };
        pairs.par_extend(self.tris.par_iter().flat_map_iter(|&t| {
            let own = hub(t);
            let env = {
                let b = boxed(t);
                let r = b.geom();
                AABB::from_corners(r.lower(), r.upper())
            };
            let mut found = Vec::new();
            for c in class_boxes.locate_in_envelope_intersecting(&env) {
                let (h, tree) = &classes[c.data];
                if h.is_some() && *h == own {
                    continue;
                }
                for u in tree.locate_in_envelope_intersecting(&env) {
                    let u = u.data;
                    if u > t && !shares(t, u) {
                        found.push((t, u));
                    }
                }
            }
            found
        }));
        pairs.par_sort_unstable();
        pairs.dedup();
        pairs
    }

    /// The patch's triangles (ascending, each once) that the pair test may find anything
    /// with, for a triangle with corners `c` not of the patch that meets the plane as
    /// `in_plane` says ([`Verdict::Test`]): see [`Lookup::near`].
    pub(super) fn near<S: Soup>(
        &self,
        soup: &S,
        ids: &[u32],
        c: &[[f64; 3]; 3],
        in_plane: Option<u8>,
    ) -> Vec<usize> {
        let lookup = self
            .lookup
            .get_or_init(|| Lookup::new(soup, ids, &self.tris, self.drop));
        let m = in_plane.unwrap_or(0b111);
        let points: Vec<[f64; 3]> = (0..3).filter(|k| m >> k & 1 != 0).map(|k| c[k]).collect();
        lookup.near(&points)
    }
}

/// A triangle's angle at a corner: the corner, its first side's end, its second side's
/// end (counter-clockwise from the first), and the triangle.
type Angle = ([f64; 2], [f64; 2], [f64; 2], u32);

/// The pairs (ascending) of triangles whose angles at one shared corner overlap: each angle
/// given as (the corner, its first side's end, its second side's end, the triangle), all
/// turning counter-clockwise (less than a half turn) from first to second side.
fn overlapping_angles(mut angles: Vec<Angle>) -> Vec<(u32, u32)> {
    let v = angles[0].0;
    angles.sort_by(|a, b| turn(&v, &a.1, &b.1).then(a.3.cmp(&b.3)));
    let n = angles.len();
    let mut pairs = Vec::new();
    for i in 0..n {
        let (_, s, e, t) = angles[i];
        for step in 1..n {
            let (_, q, _, u) = angles[(i + step) % n];
            // Starting along the same side, or strictly inside the angle.
            let inside = turn(&v, &s, &q) == std::cmp::Ordering::Equal
                || (orient2(&v, &s, &q) > 0 && orient2(&v, &q, &e) > 0);
            if !inside {
                break;
            }
            pairs.push((t.min(u), t.max(u)));
        }
    }
    pairs
}

/// The signed axis a triangle faces most (the coordinate to drop and the `orient2d` sign
/// there), checked exactly; `None` for a degenerate triangle.
pub(super) fn facing(c: &[[f64; 3]; 3]) -> Option<(usize, i8)> {
    let n = cross3(
        &[c[1][0] - c[0][0], c[1][1] - c[0][1], c[1][2] - c[0][2]],
        &[c[2][0] - c[0][0], c[2][1] - c[0][1], c[2][2] - c[0][2]],
    );
    let mut axes = [0, 1, 2];
    axes.sort_by(|&a, &b| n[b].abs().total_cmp(&n[a].abs()));
    axes.into_iter().find_map(|d| {
        let p = c.map(|q| project(q, d));
        match orient2(&p[0], &p[1], &p[2]) {
            0 => None,
            s => Some((d, s)),
        }
    })
}

/// Sets each triangle's [`Tri::patch`] (left at its own index, as recorded, when alone or
/// already [`quiet`](Tri::quiet): of a body alone) and returns the flat patches to check as a whole (their triangles marked [`UNIT`]).
pub(super) fn find<S: Soup>(
    soup: &S,
    tris: &mut [Tri],
    ids: &[u32],
    nbr: &[u32],
    grown: Runs,
) -> Vec<Flat> {
    let n = tris.len();
    if n < 2 || n >= UNIT as usize / 3 {
        return Vec::new();
    }
    // Each triangle's patch, apart from the records (they are 40 bytes apart there), set
    // into them at the end.
    let mut of: Vec<u32> = tris.par_iter().map(|t| t.patch).collect();

    let Runs {
        run_of,
        order,
        runs,
        masks: run_masks,
        touching,
    } = grown;
    let finder = Finder {
        soup,
        ids,
        nbr,
        runs: &runs,
        order: &order,
        run_of: &run_of,
    };
    let mut groups = join(run_masks, touching, &runs, &run_of);
    // Patch ids are set before the outlines are read (an edge is inside a patch when both
    // its triangles carry its id): a group's first member's index.
    for g in &groups {
        set_patch(&mut of, &g.0);
    }
    let ro = &*of;
    let mut verdicts: Vec<(bool, Option<Flat>)> = groups
        .par_iter()
        .map(|g| finder.check(ro, &g.0, g.1, g.2))
        .collect();
    // A joined patch that failed is tried again without the runs on its outline where it
    // fails (a few triangles folded over at its rim, that face its axis too and joined
    // it there), a few times, and then, if it still fails, as its parts. Keeping the big
    // patch matters: its parts often all meet at one corner (a cone's apex), where every
    // pair of their triangles' boxes meets.
    let mut retry: Vec<Group> = Vec::new();
    let failed_joins: Vec<usize> = (0..groups.len())
        .filter(|&g| !verdicts[g].0 && groups[g].3.len() > 1)
        .collect();
    let mut mended: Vec<(Group, (bool, Option<Flat>))> = Vec::new();
    for g in failed_joins {
        mended.extend(finder.mend(&mut of, &groups[g], &mut retry));
    }
    for (g, v) in mended {
        set_patch(&mut of, &g.0);
        groups.push(g);
        verdicts.push(v);
    }
    if !retry.is_empty() {
        for g in &retry {
            set_patch(&mut of, &g.0);
        }
        let ro = &*of;
        verdicts.extend(
            retry
                .par_iter()
                .map(|g| finder.check(ro, &g.0, g.1, g.2))
                .collect::<Vec<_>>(),
        );
        groups.extend(retry);
    }
    let flats = finder.settle(&mut of, &groups, verdicts);
    tris.par_iter_mut()
        .with_min_len(1 << 12)
        .zip(&of)
        .for_each(|(t, &p)| t.patch = p);
    flats
}

/// Sets the patch of `members` to its first member's index.
fn set_patch(of: &mut [u32], members: &[u32]) {
    for &t in members {
        of[t as usize] = members[0];
    }
}

/// What [`find`] reads: the surface, and the runs grown ([`Runs`]).
struct Finder<'a, S> {
    soup: &'a S,
    ids: &'a [u32],
    nbr: &'a [u32],
    runs: &'a [(usize, usize, usize, i8)],
    order: &'a [u32],
    run_of: &'a [u32],
}

impl<S: Soup> Finder<'_, S> {
    /// A patch's flat form if it is one, or the triangles where its outline fails.
    fn check_why(
        &self,
        of: &[u32],
        members: &[u32],
        drop: usize,
        sign: i8,
    ) -> Result<Option<Flat>, Vec<u32>> {
        let (soup, ids) = (self.soup, self.ids);
        let outline = outline(soup, of, ids, self.nbr, members, drop, sign)?.edges;
        Ok((members.len() >= FLAT_MIN)
            .then(|| flat(soup, ids, members, drop, sign, outline))
            .flatten())
    }

    /// Whether a patch passes, and its flat form if it is one.
    fn check(&self, of: &[u32], members: &[u32], drop: usize, sign: i8) -> (bool, Option<Flat>) {
        match self.check_why(of, members, drop, sign) {
            Ok(flat) => (true, flat),
            Err(_) => (false, None),
        }
    }

    /// Run `r` as a group of its own.
    fn part(&self, r: usize) -> Group {
        let (start, end, drop, sign) = self.runs[r];
        let mut members = self.order[start..end].to_vec();
        members.sort_unstable();
        (members, drop, sign, vec![r])
    }

    /// The failed joined `group` tried again without the runs on its outline where it
    /// fails, at most [`MEND_ROUNDS`] times: the group kept and its verdict if one passes.
    /// The runs left out (all of them when none passes) go to `retry`.
    fn mend(
        &self,
        of: &mut [u32],
        group: &Group,
        retry: &mut Vec<Group>,
    ) -> Option<(Group, (bool, Option<Flat>))> {
        let (drop, sign, parts) = (group.1, group.2, &group.3);
        let size = |r: usize| self.runs[r].1 - self.runs[r].0;
        let largest = parts.iter().copied().max_by_key(|&r| size(r)).unwrap_or(0);
        let mut dropped: Vec<usize> = Vec::new();
        let mut kept_group = None;
        for _ in 0..MEND_ROUNDS {
            let kept: Vec<usize> = parts
                .iter()
                .copied()
                .filter(|r| !dropped.contains(r))
                .collect();
            if kept.len() < 2 {
                break;
            }
            let mut members: Vec<u32> = kept.iter().flat_map(|&r| self.part(r).0).collect();
            members.sort_unstable();
            for &t in &group.0 {
                of[t as usize] = t;
            }
            set_patch(of, &members);
            match self.check_why(of, &members, drop, sign) {
                Ok(f) => {
                    kept_group = Some(((members, drop, sign, kept), (true, f)));
                    break;
                }
                Err(at) => {
                    let mut more: Vec<usize> = at
                        .iter()
                        .map(|&t| self.run_of[t as usize] as usize)
                        .filter(|&r| r != largest && !dropped.contains(&r))
                        .collect();
                    more.sort_unstable();
                    more.dedup();
                    if more.is_empty() {
                        break;
                    }
                    dropped.extend(more);
                }
            }
        }
        match kept_group {
            Some(k) => {
                retry.extend(dropped.iter().map(|&r| self.part(r)));
                Some(k)
            }
            None => {
                for &t in &group.0 {
                    of[t as usize] = t;
                }
                retry.extend(parts.iter().map(|&r| self.part(r)));
                None
            }
        }
    }

    /// Every triangle's patch set from the groups' `verdicts`, and the flat patches.
    fn settle(
        &self,
        of: &mut [u32],
        groups: &[Group],
        verdicts: Vec<(bool, Option<Flat>)>,
    ) -> Vec<Flat> {
        let (soup, ids) = (self.soup, self.ids);
        let mut flats = Vec::new();
        // Failed groups first (a retried part that passes is then set again).
        let mut undo: Vec<usize> = (0..groups.len()).filter(|&g| !verdicts[g].0).collect();
        // Failed groups not tried again as their parts: perhaps folded flat patches.
        let failed: Vec<usize> = undo
            .iter()
            .copied()
            .filter(|&g| groups[g].3.len() <= 1 && groups[g].0.len() >= FLAT_MIN)
            .collect();
        undo.sort_by_key(|&g| std::cmp::Reverse(groups[g].0.len()));
        for g in undo {
            for &t in &groups[g].0 {
                of[t as usize] = t;
            }
        }
        for (g, (ok, flat)) in groups.iter().zip(verdicts) {
            if !ok {
                continue;
            }
            set_patch(of, &g.0);
            if let Some(flat) = flat {
                for &t in &g.0 {
                    of[t as usize] |= UNIT;
                }
                flats.push(flat);
            }
        }
        // A failed patch lying in one plane (a fan whose rim rounding folded it over
        // itself, two flat faces touching at a corner) is still checked against every
        // other triangle as a whole: the signs of a triangle's corners against the plane
        // clear it whatever the outline. Only its own pairs are left, and those that can
        // overlap are found from its corners ([`Flat::inner_pairs`]), not from boxes that
        // all meet at a fan's apex.
        for g in failed {
            let (members, drop, sign, _) = &groups[g];
            if members.iter().any(|&t| of[t as usize] != t) {
                continue; // a part of it passed, and is a patch
            }
            set_patch(of, members);
            let folded = open_edges(of, ids, self.nbr, members, members[0])
                .and_then(|edges| flat(soup, ids, members, *drop, *sign, edges));
            match folded {
                Some(mut f) => {
                    f.folded = true;
                    for &t in members {
                        of[t as usize] |= UNIT;
                    }
                    flats.push(f);
                }
                None => {
                    for &t in members {
                        of[t as usize] = t;
                    }
                }
            }
        }
        flats
    }
}

/// The runs grown by [`grow`], and their triangles in `order`, one run after another.
pub(super) struct Runs {
    /// Each triangle's run, or [`NONE`].
    run_of: Vec<u32>,
    order: Vec<u32>,
    /// Each run's stretch of `order`, and its axis (the coordinate dropped, the sign).
    runs: Vec<(usize, usize, usize, i8)>,
    /// The axes each run's triangles all face.
    masks: Vec<u8>,
    /// Neighbouring runs, `(earlier, later)`, perhaps repeated.
    touching: Vec<(u32, u32)>,
}

/// The first step of [`find`]: grows runs from seeds in triangle order, breadth first,
/// each along its seed's axis, across edges used by two triangles (`nbr`) to neighbours
/// that face that axis (`masks`, [`faces_mask`]), leaving out quiet triangles (of a body
/// alone, see `alone`) and degenerate ones; `corners` reads a seed's corners. Each grown
/// triangle's run is read again when the runs are joined and mended, and so are the pairs
/// of neighbouring runs, found as the later one grows: an edge between two runs is met
/// from the later run's side, its far triangle seen.
///
/// It needs no records (boxes), so the check grows the runs on one core while the records
/// are made on the others. It is one walk: walks over blocks of triangles on several
/// cores, joined where they meet, were tried and cut a sphere into other patches, with
/// more triangles on their borders, which cost the broad phase more than the walk saved.
pub(super) fn grow(
    nbr: &[u32],
    masks: &[u8],
    quiet: impl Fn(usize) -> bool,
    corners: impl Fn(usize) -> [[f64; 3]; 3],
) -> Runs {
    let n = masks.len();
    let mut run_of = vec![NONE; n];
    let mut seen = vec![false; n];
    let mut g = Runs {
        run_of: Vec::new(),
        order: Vec::new(),
        runs: Vec::new(),
        masks: Vec::new(),
        touching: Vec::new(),
    };
    for seed in 0..n {
        // An empty mask is a degenerate triangle. A quiet triangle is of a body alone (see
        // `alone`), whose pairs are all tested: it grows no patch, and no patch grows into
        // it (its neighbours are of its body).
        if seen[seed] || masks[seed] == 0 || quiet(seed) {
            continue;
        }
        let Some((drop, sign)) = facing(&corners(seed)) else {
            continue;
        };
        let bit = axis_bit(drop, sign);
        let r = g.runs.len() as u32;
        seen[seed] = true;
        run_of[seed] = r;
        let (start, met) = (g.order.len(), g.touching.len());
        g.order.push(seed as u32);
        // The axes every triangle of the run faces.
        let mut common = masks[seed];
        let mut next = start;
        while next < g.order.len() {
            let t = g.order[next] as usize;
            next += 1;
            for k in 0..3 {
                let u = nbr[3 * t + k];
                if u == NONE {
                    continue;
                }
                // An empty triangle's mask is 0: the mask alone is read, not the record.
                let u = u as usize;
                if seen[u] {
                    let q = run_of[u];
                    if q != NONE && q != r {
                        g.touching.push((q, r));
                    }
                    continue;
                }
                if masks[u] & bit != 0 {
                    seen[u] = true;
                    run_of[u] = r;
                    g.order.push(u as u32);
                    common &= masks[u];
                }
            }
        }
        if g.order.len() - start > 1 {
            g.runs.push((start, g.order.len(), drop, sign));
            g.masks.push(common);
        } else {
            // A seed alone is no run: seen, but of none.
            g.order.truncate(start);
            g.touching.truncate(met);
            run_of[seed] = NONE;
        }
    }
    g.run_of = run_of;
    g
}

/// A failed patch's edges not shared within it (corners' point numbers, ascending, and the patch's
/// triangle on each), if no edge is such an edge of two of its triangles; else `None`.
fn open_edges(
    of: &[u32],
    ids: &[u32],
    nbr: &[u32],
    members: &[u32],
    id: u32,
) -> Option<HashMap<[u64; 2], u32>> {
    let mut edges = HashMap::new();
    for &t in members {
        let t = t as usize;
        let h = ids_of(ids, t);
        for k in 0..3 {
            let u = nbr[3 * t + k];
            if u != NONE && of[u as usize] == id {
                continue;
            }
            let j = (k + 1) % 3;
            if edges
                .insert([h[k].min(h[j]), h[k].max(h[j])], t as u32)
                .is_some()
            {
                return None;
            }
        }
    }
    Some(edges)
}

/// A patch to check: its triangles, its axis (the coordinate dropped and the turn there),
/// and the grown runs it joins.
type Group = (Vec<u32>, usize, i8, Vec<usize>);

/// The bit of [`faces_mask`] for facing `sign` along axis `d`.
fn axis_bit(d: usize, sign: i8) -> u8 {
    1 << (2 * d + (sign < 0) as usize)
}

/// The signed axes a triangle faces, as bits: `2d` for +, `2d + 1` for − along axis d;
/// none exactly when its corners are collinear (every projection's orientation 0).
pub(crate) fn faces_mask(c: &[[f64; 3]; 3]) -> u8 {
    let mut m = 0;
    for d in 0..3 {
        let p = c.map(|q| project(q, d));
        match orient2(&p[0], &p[1], &p[2]) {
            1 => m |= 1 << (2 * d),
            -1 => m |= 1 << (2 * d + 1),
            _ => {}
        }
    }
    m
}

/// The grown runs, joined where neighbouring runs' triangles all face an axis in common
/// (`mask`: the axes each run's triangles all face; `pairs`: neighbouring runs, earlier
/// first, perhaps repeated; `run_of`: each grown triangle's run, else [`NONE`]).
fn join(
    mut mask: Vec<u8>,
    mut pairs: Vec<(u32, u32)>,
    runs: &[(usize, usize, usize, i8)],
    run_of: &[u32],
) -> Vec<Group> {
    // Joined in order of the pairs, whatever order they were found in.
    pairs.sort_unstable();
    pairs.dedup();
    let mut joined = UnionFind::new(runs.len());
    for (a, b) in pairs {
        let (ra, rb) = (joined.find(a), joined.find(b));
        let common = mask[ra as usize] & mask[rb as usize];
        if ra != rb && common != 0 {
            mask[joined.link(ra, rb) as usize] = common;
        }
    }
    let mut groups: Vec<Group> = Vec::new();
    let mut slot = vec![usize::MAX; runs.len()];
    let mut sizes: Vec<usize> = Vec::new();
    for (r, &(start, end, drop, sign)) in runs.iter().enumerate() {
        let top = joined.find(r as u32) as usize;
        if slot[top] == usize::MAX {
            slot[top] = groups.len();
            groups.push((Vec::new(), drop, sign, Vec::new()));
            sizes.push(0);
        }
        sizes[slot[top]] += end - start;
        let g = &mut groups[slot[top]];
        g.3.push(r);
        if g.3.len() == 2 {
            // Joined: the axis they all face.
            let b = mask[top].trailing_zeros() as usize;
            g.1 = b / 2;
            g.2 = if b.is_multiple_of(2) { 1 } else { -1 };
        }
    }
    // Each group's triangles in ascending order (the outline and flat checks read their
    // records in file order, and the least, a grown run's seed, is the patch's id): one
    // pass over the triangles instead of a sort of each group.
    for (g, size) in groups.iter_mut().zip(sizes) {
        g.0.reserve_exact(size);
    }
    let group_of: Vec<usize> = (0..runs.len() as u32)
        .map(|r| slot[joined.find(r) as usize])
        .collect();
    for (t, &r) in run_of.iter().enumerate() {
        if r != NONE {
            groups[group_of[r as usize]].0.push(t as u32);
        }
    }
    groups
}

/// A patch's outline (of `members`, its triangles, ascending: its edges not shared within
/// it, [`Outline`]), if they form rings that neither cross nor touch, exactly one of them
/// turning the way the triangles do (seen with coordinate `drop` left out); else the
/// triangles on the outline where it fails (none when no place can be named: a ring not
/// closed, or not one ring turning the triangles' way).
pub(super) fn outline<S: Soup>(
    soup: &S,
    of: &[u32],
    ids: &[u32],
    nbr: &[u32],
    members: &[u32],
    drop: usize,
    sign: i8,
) -> Result<Outline, Vec<u32>> {
    if members.is_empty() {
        return Err(Vec::new());
    }
    let edges = outline_edges(soup, of, ids, nbr, members, drop)?;
    let succ = successors(&edges);
    let next = |e: usize| {
        (succ[e] != u32::MAX)
            .then_some(succ[e] as usize)
            .ok_or_else(Vec::new)
    };
    let mut used = vec![false; edges.len()];
    // Each ring's points, one after another (`starts` where each begins).
    let mut points: Vec<nalgebra::Point2<f64>> = Vec::with_capacity(edges.len());
    // Each point's number.
    let mut point_ids: Vec<u64> = Vec::with_capacity(edges.len());
    // The edge each point starts.
    let mut edge_of: Vec<u32> = Vec::with_capacity(edges.len());
    let mut starts = Vec::new();
    let mut turning = 0;
    // The ring turning the triangles' way.
    let mut outer = 0;
    for first in 0..edges.len() {
        if used[first] {
            continue;
        }
        let start = points.len();
        let mut e = first;
        while !used[e] {
            used[e] = true;
            points.push(nalgebra::Point2::from(edges[e].2));
            point_ids.push(edges[e].0);
            edge_of.push(e as u32);
            e = next(e)?;
        }
        if e != first || points.len() - start < 3 {
            return Err(Vec::new());
        }
        starts.push(start);
        // The ring's turn at its lowest point (x, then y), where it cannot be straight.
        let r = &points[start..];
        let len = r.len();
        let low = (0..len)
            .min_by(|&a, &b| r[a].x.total_cmp(&r[b].x).then(r[a].y.total_cmp(&r[b].y)))
            .unwrap_or(0);
        let at = |k: usize| [r[k % len].x, r[k % len].y];
        if orient2(&at(low + len - 1), &at(low), &at(low + 1)) == sign {
            turning += 1;
            outer = starts.len() - 1;
        }
    }
    if turning != 1 {
        return Err(Vec::new());
    }
    starts.push(points.len());
    let rings: Vec<&[nalgebra::Point2<f64>]> =
        starts.windows(2).map(|w| &points[w[0]..w[1]]).collect();
    if let Some(c) = crate::sweep::first_contact(&rings) {
        let tri = |r: crate::sweep::EdgeRef| edges[edge_of[starts[r.ring] + r.index] as usize].4;
        return Err(vec![tri(c.a), tri(c.b)]);
    }
    Ok(Outline {
        edges: edges
            .iter()
            .map(|e| ([e.0.min(e.1), e.0.max(e.1)], e.4))
            .collect(),
        points,
        point_ids,
        starts,
        outer,
    })
}

/// An edge of a patch's outline: from, to, from's point, to's point (seen with a
/// coordinate left out), triangle.
type Edge = (u64, u64, [f64; 2], [f64; 2], u32);

/// The edges of the outline of the patch `id` = `members[0]` (see [`outline`]), sorted by
/// where they start; else the triangles where the outline fails (an edge seen end on, or
/// two edges from one corner: the outline touches itself there).
fn outline_edges<S: Soup>(
    soup: &S,
    of: &[u32],
    ids: &[u32],
    nbr: &[u32],
    members: &[u32],
    drop: usize,
) -> Result<Vec<Edge>, Vec<u32>> {
    // The patch's id: its first member's index.
    let id = members[0];
    let mut edges: Vec<Edge> = Vec::new();
    for &t in members {
        let t = t as usize;
        let inner = |k: usize| {
            let u = nbr[3 * t + k];
            u != NONE && of[u as usize] == id
        };
        if (0..3).all(inner) {
            continue;
        }
        let h = ids_of(ids, t);
        let c = soup.triangle(t).map(|p| project(p.coords(), drop));
        for k in 0..3 {
            if inner(k) {
                continue;
            }
            let j = (k + 1) % 3;
            if c[k] == c[j] {
                // Seen end on: the sweep takes no point-like edges.
                return Err(vec![t as u32]);
            }
            edges.push((h[k], h[j], c[k], c[j], t as u32));
        }
    }
    edges.sort_unstable_by_key(|e| e.0);
    // Two edges from one corner: the outline touches itself there (a pinch).
    let pinched: Vec<u32> = edges
        .chunk_by(|a, b| a.0 == b.0)
        .filter(|run| run.len() > 1)
        .flat_map(|run| run.iter().map(|e| e.4))
        .collect();
    if !pinched.is_empty() {
        return Err(pinched);
    }
    Ok(edges)
}

/// Each edge's successor (the edge from its end; `u32::MAX` for none) among `edges`,
/// sorted by where they start.
fn successors(edges: &[Edge]) -> Vec<u32> {
    // Each edge's successor (the edge from its end), by a merge of the edges in order of
    // their ends with the edges in order of their starts: a binary search per edge over a
    // million outline edges missed the cache at every step.
    let mut ends: Vec<(u64, u32)> = edges
        .iter()
        .enumerate()
        .map(|(k, e)| (e.1, k as u32))
        .collect();
    ends.sort_unstable();
    let mut succ = vec![u32::MAX; edges.len()];
    let mut f = 0;
    for (to, k) in ends {
        while f < edges.len() && edges[f].0 < to {
            f += 1;
        }
        if f < edges.len() && edges[f].0 == to {
            succ[k as usize] = f as u32;
        }
    }
    succ
}

/// A patch's outline ([`outline`]).
pub(super) struct Outline {
    /// Its edges (corners' point numbers, ascending) and the patch's triangle on each.
    pub(super) edges: HashMap<[u64; 2], u32>,
    /// Its rings' points, one ring after another, each as its triangles run it.
    pub(super) points: Vec<nalgebra::Point2<f64>>,
    /// Each of those points' number (the weld's).
    pub(super) point_ids: Vec<u64>,
    /// Where each ring starts in `points`, and after the last the end.
    pub(super) starts: Vec<usize>,
    /// The ring turning the triangles' way (the others turn the other way).
    pub(super) outer: usize,
}

impl Outline {
    /// Ring `k`'s points.
    pub(super) fn ring(&self, k: usize) -> &[nalgebra::Point2<f64>] {
        &self.points[self.starts[k]..self.starts[k + 1]]
    }

    /// How many rings.
    pub(super) fn rings(&self) -> usize {
        self.starts.len() - 1
    }
}

/// The patch as a [`Flat`], if all its corners lie exactly in one plane.
fn flat<S: Soup>(
    soup: &S,
    ids: &[u32],
    members: &[u32],
    drop: usize,
    sign: i8,
    outline: HashMap<[u64; 2], u32>,
) -> Option<Flat> {
    let corners = |t: u32| soup.triangle(t as usize).map(|p| p.coords());
    let plane = corners(members[0]);
    let aligned = (0..3).find(|&a| plane[1][a] == plane[0][a] && plane[2][a] == plane[0][a]);
    let inside = |p: &[f64; 3]| match aligned {
        Some(a) => p[a] == plane[0][a],
        None => orient(&plane[0], &plane[1], &plane[2], p) == 0,
    };
    let mut extent = BoundingBox::empty();
    for &t in members {
        let c = corners(t);
        if !c.iter().all(inside) {
            return None;
        }
        let (a, b) = bounds(&c);
        extent = extent.union(&BoundingBox { min: a, max: b });
    }
    let (lo, hi) = (extent.min, extent.max);
    let aligned = aligned.map(|a| {
        // `orient` of a point beyond the plane along +axis: minus the sign of the normal's
        // component there, which is the plane's turn seen with that axis left out. (Not
        // `orient` of a point one ulp off: at 0 that is a subnormal step, and the
        // predicate's products underflow to 0.)
        let p = plane.map(|q| project(q, a));
        (a, plane[0][a], -orient2(&p[0], &p[1], &p[2]))
    });
    let mut sorted = members.to_vec();
    sorted.sort_unstable();
    Some(Flat {
        tris: sorted,
        plane,
        aligned,
        drop,
        sign,
        lo,
        hi,
        corners: Corners::of(ids, members),
        outline,
        lookup: OnceLock::new(),
        folded: false,
    })
}

#[cfg(test)]
mod tests {
    use super::super::{Kind, Settings, Stats, search};
    use super::{Corners, HashSet, ids_of};

    #[test]
    fn a_flat_patch_s_corners_are_found_in_bits_or_in_a_hash_set_alike() {
        let mut rng = crate::test_rng::Lcg(11);
        let (mut bits, mut hashed) = (0, 0);
        for case in 0..200 {
            // Point numbers near one another (bits) or spread over a wide range (a hash
            // set), for a few triangles.
            let spread = if case % 2 == 0 { 40 } else { 1 << 30 };
            let n = 1 + rng.below(30) as usize;
            let ids: Vec<u32> = (0..3 * n)
                .map(|_| 1000 + rng.below(spread) as u32)
                .collect();
            let members: Vec<u32> = (0..n as u32).filter(|t| t % 3 != 1).collect();
            let want: HashSet<u64> = members
                .iter()
                .flat_map(|&t| ids_of(&ids, t as usize))
                .collect();
            let got = Corners::of(&ids, &members);
            match got {
                Corners::Bits { .. } => bits += 1,
                Corners::Hash(_) => hashed += 1,
            }
            for x in 0..1100 + spread.min(5000) {
                assert_eq!(got.contains(&x), want.contains(&x), "case {case}, {x}");
            }
            assert!(!got.contains(&u64::MAX));
        }
        assert!(bits > 50 && hashed > 50, "{bits} {hashed}");
    }
    use crate::soup::VertexSoup;
    use proptest::prelude::*;

    type T3 = [[f64; 3]; 3];

    fn soup(tris: &[T3]) -> Vec<[f64; 3]> {
        tris.iter().flat_map(|t| t.iter().copied()).collect()
    }

    /// A closed cylinder of `n` sections about the z axis through `at` (its bottom centre),
    /// wound outward, its caps fanned from their centres or from one rim corner.
    fn cylinder(at: [f64; 3], r: f64, h: f64, n: usize, rim: bool) -> Vec<T3> {
        let p = |k: usize, z: f64| {
            let a = std::f64::consts::TAU * (k % n) as f64 / n as f64;
            [at[0] + r * a.cos(), at[1] + r * a.sin(), at[2] + z]
        };
        let mut t = Vec::new();
        for k in 0..n {
            t.push([p(k, 0.0), p(k + 1, 0.0), p(k + 1, h)]);
            t.push([p(k, 0.0), p(k + 1, h), p(k, h)]);
        }
        let (top, bottom) = ([at[0], at[1], at[2] + h], at);
        if rim {
            for k in 1..n - 1 {
                t.push([p(0, h), p(k, h), p(k + 1, h)]);
                t.push([p(0, 0.0), p(k + 1, 0.0), p(k, 0.0)]);
            }
        } else {
            for k in 0..n {
                t.push([top, p(k, h), p(k + 1, h)]);
                t.push([bottom, p(k + 1, 0.0), p(k, 0.0)]);
            }
        }
        t
    }

    /// A box from `lo` of `size`, each face a `k` × `k` grid of squares, wound outward.
    fn grid_box(lo: [f64; 3], size: [f64; 3], k: usize) -> Vec<T3> {
        let mut t = Vec::new();
        for axis in 0..3 {
            let (u, v) = ((axis + 1) % 3, (axis + 2) % 3);
            for high in [false, true] {
                let at = |i: usize, j: usize| {
                    let mut p = lo;
                    p[axis] += if high { size[axis] } else { 0.0 };
                    p[u] += size[u] * i as f64 / k as f64;
                    p[v] += size[v] * j as f64 / k as f64;
                    p
                };
                for i in 0..k {
                    for j in 0..k {
                        let (a, b, c, d) = (at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j + 1));
                        // (u, v, axis) is right-handed: a, b, c turns about +axis.
                        if high {
                            t.extend([[a, b, c], [a, c, d]]);
                        } else {
                            t.extend([[a, c, b], [a, d, c]]);
                        }
                    }
                }
            }
        }
        t
    }

    /// Every point turned by `degrees` about (1, 2, 3) through the origin, rounded to f32
    /// when asked (as a binary STL stores it).
    fn turned(tris: &[T3], degrees: f64, f32_: bool) -> Vec<T3> {
        let n = [1.0, 2.0, 3.0].map(|x: f64| x / 14f64.sqrt());
        let (s, c) = degrees.to_radians().sin_cos();
        let turn = |p: [f64; 3]| {
            let d = n[0] * p[0] + n[1] * p[1] + n[2] * p[2];
            let x = [
                n[1] * p[2] - n[2] * p[1],
                n[2] * p[0] - n[0] * p[2],
                n[0] * p[1] - n[1] * p[0],
            ];
            [0, 1, 2].map(|k| {
                let v = p[k] * c + x[k] * s + n[k] * d * (1.0 - c);
                if f32_ { v as f32 as f64 } else { v }
            })
        };
        tris.iter().map(|t| t.map(turn)).collect()
    }

    /// What the search finds with patches and without: the overlap, or how many contacts.
    fn both(tris: &[T3]) -> (Found, Found) {
        let (with, without, _) = both_crowded(tris);
        (with, without)
    }

    /// [`both`], and how many patches' boxes met too many others with patches.
    fn both_crowded(tris: &[T3]) -> (Found, Found, usize) {
        let s = soup(tris);
        let stats = Stats::default();
        let run = |patches| {
            let settings = Settings {
                patches,
                stats: Some(&stats),
                ..Settings::FULL
            };
            search(&VertexSoup(&s), settings, super::Mode::Solid).map(|c| c.map(|c| c.count))
        };
        let with = run(true);
        let crowded = stats
            .crowded_patches
            .load(std::sync::atomic::Ordering::Relaxed);
        (with, run(false), crowded)
    }

    type Found = Result<Option<usize>, super::super::Overlap>;

    /// The patch of each triangle, as [`super::find`] sets it, the flat patches, and how
    /// many other triangles their corners alone do not clear.
    fn patches_of(t: &[T3]) -> (Vec<u32>, usize, usize) {
        let s = soup(t);
        let v = VertexSoup(&s);
        let (tris, ids, flats) = found(&v);
        let unclear = flats
            .iter()
            .map(|f| {
                (0..t.len())
                    .filter(|&i| f.tris.binary_search(&(i as u32)).is_err())
                    .filter(|&i| {
                        matches!(
                            f.verdict(&t[i], &super::super::ids_of(&ids, i), super::Mode::Solid),
                            super::Verdict::Test(_)
                        )
                    })
                    .count()
            })
            .sum();
        let patch = tris.iter().map(|t| t.patch & !super::UNIT).collect();
        (patch, flats.len(), unclear)
    }

    #[test]
    fn a_cone_fanned_from_its_apex_is_one_patch() {
        // Its side grows from a seed facing x; the patches grown beside it all face up too,
        // and are joined. Its base, fanned from the centre, is flat.
        let n = 96;
        let p = |k: usize| {
            let a = std::f64::consts::TAU * (k % n) as f64 / n as f64;
            [3.0 * a.cos(), 3.0 * a.sin(), 0.0]
        };
        let mut t: Vec<T3> = (0..n).map(|k| [p(k), p(k + 1), [0.0, 0.0, 5.0]]).collect();
        t.extend((0..n).map(|k| [[0.0; 3], p(k + 1), p(k)]));
        let (patch, flats, _) = patches_of(&t);
        assert!(patch[..n].iter().all(|&q| q == patch[0]), "{patch:?}");
        assert!(patch[n..].iter().all(|&q| q == patch[n] && q != patch[0]));
        assert_eq!(flats, 1);
        assert_eq!(both(&t), (Ok(None), Ok(None)));
    }

    #[test]
    fn fans_and_grids_are_flat_patches() {
        for rim in [false, true] {
            // At the origin: the bottom cap's plane is z = 0 (where a point one ulp off
            // is subnormal).
            let t = cylinder([0.0; 3], 10.0, 20.0, 64, rim);
            let (_, flats, unclear) = patches_of(&t);
            assert_eq!((flats, unclear), (2, 0), "rim {rim}");
            assert_eq!(both(&t), (Ok(None), Ok(None)));
        }
        assert_eq!(
            both(&grid_box([0.0; 3], [1.0, 2.0, 3.0], 8)),
            (Ok(None), Ok(None))
        );
    }

    #[test]
    fn a_box_sunk_into_another_names_one_pair_every_time() {
        // Found by the property test: a box inside another, sharing three of its walls'
        // planes, turned 10° and rounded to f32. Its contacts' crossings did not add up,
        // and which pair was named followed a hash map's order, which changes from map to
        // map. Counted again with the points perturbed, they add up, and the small box's
        // corners inside the other, a unit from its walls, are named (the same on every
        // run); a crossing or crossings that do not add up would be as good a refusal, and
        // so are its walls lying on the other's, facing the same way (now found first).
        let t = [
            grid_box([1.0, 0.5, 0.5], [2.0, 2.0, 1.0], 1),
            grid_box([1.5, 0.5, 0.5], [1.0, 1.0, 1.0], 2),
        ]
        .concat();
        let t = turned(&t, 10.0, true);
        let first = both(&t);
        assert!(matches!(
            first.0,
            Err(super::super::Overlap {
                kind: Kind::Cross(..) | Kind::Unsettled(..) | Kind::Sunk(..) | Kind::Coincide(..),
                ..
            })
        ));
        assert_eq!(first.0, first.1);
        for _ in 0..20 {
            assert_eq!(both(&t), first);
        }
    }

    #[test]
    fn through_a_fan_cap_on_it_and_twice() {
        for rim in [false, true] {
            let cyl = cylinder([0.0; 3], 10.0, 20.0, 48, rim);
            // A box poking up through the top cap: found, as by testing every pair.
            let t = [
                cyl.clone(),
                grid_box([-2.0, -2.0, 18.0], [4.0, 4.0, 4.0], 2),
            ]
            .concat();
            let (a, b) = both(&t);
            assert!(
                matches!(
                    a,
                    Err(super::super::Overlap {
                        kind: Kind::Cross(_),
                        ..
                    })
                ),
                "{a:?}"
            );
            assert_eq!(a, b);
            // Resting on the cap (from outside), and a second cylinder standing on it.
            for other in [
                grid_box([-2.0, -2.0, 20.0], [4.0, 4.0, 4.0], 2),
                cylinder([0.0, 0.0, 20.0], 10.0, 5.0, 48, !rim),
                cylinder([3.0, 1.0, 20.0], 2.0, 5.0, 48, rim),
            ] {
                let t = [cyl.clone(), other].concat();
                assert_eq!(both(&t), (Ok(None), Ok(None)), "rim {rim}");
            }
            // The same cylinder twice: its caps coincide.
            let (a, b) = both(&[cyl.clone(), cyl.clone()].concat());
            assert!(a.is_err());
            assert_eq!(a, b);
            // Turned 37° about (1, 2, 3), at full precision and rounded to f32.
            for f in [false, true] {
                let t = turned(&cyl, 37.0, f);
                assert_eq!(both(&t), (Ok(None), Ok(None)), "rim {rim} f32 {f}");
            }
        }
    }

    /// A cylinder of 64 sections, caps fanned from a rim corner, whose rim corners `m` and
    /// `m + 1` (of both caps, and so of the side) are moved to `angles` (in turns of the
    /// section's angle).
    fn moved_rim(m: usize, angles: [f64; 2]) -> Vec<T3> {
        let n = 64;
        let t = cylinder([0.0; 3], 10.0, 5.0, n, true);
        let at = |k: f64, z: f64| {
            let a = std::f64::consts::TAU * k / n as f64;
            [10.0 * a.cos(), 10.0 * a.sin(), z]
        };
        let (from, to) = (
            [m, m + 1].map(|k| at(k as f64, 0.0)),
            [0, 1].map(|i| at(angles[i], 0.0)),
        );
        t.into_iter()
            .map(|tri| {
                tri.map(|p| {
                    let flat = [p[0], p[1], 0.0];
                    match from.iter().position(|q| *q == flat) {
                        Some(i) => [to[i][0], to[i][1], p[2]],
                        None => p,
                    }
                })
            })
            .collect()
    }

    #[test]
    fn fans_folded_or_notched() {
        // Corners 40 and 41 swapped: the fan's triangle on them turns over, and its
        // neighbours lie on each other (two flat patches, on either side of it).
        let t = moved_rim(40, [41.0, 40.0]);
        let (a, b) = both(&t);
        assert!(a.is_err(), "{a:?}");
        assert_eq!(a, b);
        // Corner 41 moved half way back towards 40: a rim no longer convex there, but no
        // fan triangle lies on another.
        let t = moved_rim(40, [40.0, 40.5]);
        assert_eq!(both(&t), (Ok(None), Ok(None)));
        // Caps fanned from their centres, corner 41 moved to half way along the spoke to
        // corner 40: the fan triangle on them is degenerate (skipped), the outline of each
        // cap's other triangles runs in to the centre and out along one line, so the cap
        // fails as a patch; it lies in one plane, so it is a folded flat patch, and its
        // triangles' angles at each corner show that none lies on another.
        let t = notched([0.0; 3], 10.0, 5.0, 64, 40);
        assert_eq!(both(&t), (Ok(None), Ok(None)));
        assert_eq!(folded_flats(&t), 2);
    }

    /// A cylinder with caps fanned from their centres whose rim corner `k + 1` is moved
    /// half way along the spoke to corner `k`: each cap's fan triangle on them is
    /// degenerate, and each cap a folded flat patch (see `fans_folded_or_notched`).
    fn notched(at: [f64; 3], r: f64, h: f64, n: usize, k: usize) -> Vec<T3> {
        let on = |k: usize, r: f64| {
            let a = std::f64::consts::TAU * (k % n) as f64 / n as f64;
            [at[0] + r * a.cos(), at[1] + r * a.sin()]
        };
        let (from, to) = (on(k + 1, r), on(k, r / 2.0));
        cylinder(at, r, h, n, false)
            .into_iter()
            .map(|tri| {
                tri.map(|p| {
                    if [p[0], p[1]] == from {
                        [to[0], to[1], p[2]]
                    } else {
                        p
                    }
                })
            })
            .collect()
    }

    #[test]
    fn a_patch_joined_by_folded_rim_triangles_is_mended() {
        // A cone of 80,000 sections, its base fanned from a rim corner, rounded to f32 as
        // a binary STL stores it (bench/cad_meshes.py's rim-cone): where the rim crosses
        // an axis, corners round onto one line and some base triangles turn over to face
        // up, as the side does, joining it along the rim. The side's patch is found again
        // without them rather than cut into its parts, which all meet at the apex.
        let n = 80_000;
        let t = rim_cone(n, |x| x as f32 as f64);
        let (patch, _, _) = patches_of(&t);
        let side = patch[0];
        assert!(patch[..n].iter().all(|&p| p == side));
    }

    /// A cone of `n` sections (radius 10, height 20) whose base is fanned from its rim
    /// corner 0, as bench/cad_meshes.py's rim-cone writes it, the rim's coordinates passed
    /// through `round`: its side first, then its base.
    fn rim_cone(n: usize, round: impl Fn(f64) -> f64) -> Vec<T3> {
        let rim = |k: usize| {
            let a = std::f64::consts::TAU * (k % n) as f64 / n as f64;
            [round(10.0 * a.cos()), round(10.0 * a.sin()), 0.0]
        };
        let apex = [0.0, 0.0, 20.0];
        let mut t: Vec<T3> = (0..n).map(|k| [rim(k), rim(k + 1), apex]).collect();
        t.extend((1..n - 1).map(|k| [rim(0), rim(k + 1), rim(k)]));
        t
    }

    #[test]
    fn a_rim_fan_folded_by_rounding_is_judged_as_its_rim_where_every_pair_judges_it() {
        // The rim rounded to a coarse step, as f32 rounds a rim of 10^5 corners: near
        // the x axis corners fall on one line, base triangles turn over or lie on one
        // another, and the side's triangles there touch the folded base. The patch's
        // triangles around the fan's corner are looked up by their angles there: the
        // search finds what testing every pair finds, the same first pair. The folded
        // base is a zero-volume fold of the base the rim bounds (`fold`): where the
        // rounded rim is a simple polygon, the cone passes, its volume the cone's over
        // that polygon; where it is not (corners rounded onto one point, or onto the
        // rim's other edges), it is refused.
        let mut refusals = 0;
        for (n, step) in [
            (96, 0.05),
            (128, 0.2),
            (200, 0.05),
            (300, 0.01),
            (300, 0.02),
            (300, 0.2),
            (64, 1.0),
            (400, 0.5),
            (1000, 0.3),
        ] {
            let round = |x: f64| (x / step).round() * step;
            let t = rim_cone(n, round);
            let (a, b) = both(&t);
            assert_eq!(a, b, "{n} sections, step {step}");
            let refused = a.is_err();
            refusals += usize::from(refused);
            // The rim as a polygon, its repeated corners once.
            let mut rim: Vec<[f64; 2]> = (0..n)
                .map(|k| {
                    let a = std::f64::consts::TAU * k as f64 / n as f64;
                    [round(10.0 * a.cos()), round(10.0 * a.sin())]
                })
                .collect();
            rim.dedup();
            let ring: Vec<nalgebra::Point2<f64>> = rim
                .iter()
                .map(|p| nalgebra::Point2::new(p[0], p[1]))
                .collect();
            let simple = crate::sweep::first_contact(&[&ring]).is_none();
            assert_eq!(simple, !refused, "{n} sections, step {step}");
            if !refused {
                assert_is_the_cone_over(&t, &rim);
            }
        }
        // Both verdicts were met.
        assert!(refusals > 0 && refusals < 9, "{refusals}");
        // At full precision the fan is sound, whatever its size.
        for n in [96, 400] {
            assert_eq!(both(&rim_cone(n, |x| x)), (Ok(None), Ok(None)), "{n}");
        }
    }

    #[test]
    fn the_f32_rim_cone_passes_as_the_cone_over_its_rounded_rim() {
        // bench/cad_meshes.py's rim-cone of 80,000 sections as a binary STL stores it:
        // f32 folds the base fan (corner 5 of the rim lies inside base triangle 80,006,
        // which the fold laid over it), and the side triangles there touch the folded
        // base. The rounded rim is a simple polygon, so the base is a zero-volume fold of
        // the face the rim bounds: the cone passes, its volume the cone's over that rim.
        // (Its outline was once too long to triangulate, and the cone was refused.) In
        // f64 the same cone is sound, no fold.
        let n = 80_000;
        let run = |t: &[T3]| {
            let s = soup(t);
            search(&VertexSoup(&s), Settings::FULL, super::Mode::Solid)
        };
        let f32_ = |x: f64| x as f32 as f64;
        let t = rim_cone(n, f32_);
        let c = run(&t).unwrap().unwrap();
        assert_eq!(c.folds, 1, "{c:?}");
        let rim: Vec<[f64; 2]> = (0..n)
            .map(|k| {
                let a = std::f64::consts::TAU * k as f64 / n as f64;
                [f32_(10.0 * a.cos()), f32_(10.0 * a.sin())]
            })
            .collect();
        let ring: Vec<nalgebra::Point2<f64>> = rim
            .iter()
            .map(|p| nalgebra::Point2::new(p[0], p[1]))
            .collect();
        assert!(crate::sweep::first_contact(&[&ring]).is_none());
        assert_is_the_cone_over(&t, &rim);
        assert_eq!(run(&rim_cone(n, |x| x)), Ok(None));
    }

    /// Checks that the volume of `t` (a [`rim_cone`]) is the cone's of height 20 over the
    /// polygon `rim`.
    fn assert_is_the_cone_over(t: &[T3], rim: &[[f64; 2]]) {
        let n = rim.len();
        let area: f64 = (0..n)
            .map(|k| {
                let (p, q) = (rim[k], rim[(k + 1) % n]);
                p[0] * q[1] - p[1] * q[0]
            })
            .sum::<f64>()
            / 2.0;
        let v = crate::soup::solid(&VertexSoup(&soup(t)))
            .map(|s| s.properties.volume)
            .unwrap_or(f64::NAN);
        assert!((v - area * 20.0 / 3.0).abs() < 1e-12 * v, "{n}: {v}");
    }

    /// The broad phase's records of the triangles of `v`, and the patches [`super::find`]
    /// makes of them.
    fn found(v: &VertexSoup) -> (Vec<super::super::Tri>, Vec<u32>, Vec<super::Flat>) {
        use crate::soup::Soup;
        let mut welded = crate::soup::welded_points(v).unwrap();
        let nbr = welded.neighbours();
        let (ids, _) = welded.into_parts();
        let corners =
            |t: usize| crate::soup::Soup::triangle(v, t).map(|p| crate::soup::Point::coords(&p));
        let masks: Vec<u8> = (0..v.len())
            .map(|t| super::faces_mask(&corners(t)))
            .collect();
        let mut tris: Vec<_> = (0..v.len())
            .map(|t| super::super::record(&corners(t), t, masks[t]))
            .collect();
        let runs = super::grow(&nbr, &masks, |_| false, corners);
        let flats = super::find(v, &mut tris, &ids, &nbr, runs);
        (tris, ids, flats)
    }

    /// How many flat patches [`super::find`] makes folded ones.
    fn folded_flats(t: &[T3]) -> usize {
        let s = soup(t);
        let v = VertexSoup(&s);
        found(&v).2.iter().filter(|f| f.folded).count()
    }

    /// A fan about (0, 0) whose rim spirals out over two turns: flat, it covers the plane
    /// twice (its outline crosses itself, so it is no patch, and the pair test finds the
    /// overlap); lifted into a ramp, it covers the plane twice without crossing itself.
    #[test]
    fn a_spiral_fan_is_not_one_patch() {
        let n = 40;
        let spiral = |lift: f64| -> Vec<T3> {
            let p = |k: usize| {
                let a = std::f64::consts::TAU * k as f64 / 20.0;
                let r = 1.0 + k as f64 / n as f64;
                [r * a.cos(), r * a.sin(), lift * k as f64]
            };
            (0..n)
                .map(|k| [[0.0, 0.0, lift * k as f64 + lift / 2.0], p(k), p(k + 1)])
                .collect()
        };
        let flat: Vec<T3> = spiral(0.0)
            .into_iter()
            .map(|t| [[0.0; 3], t[1], t[2]])
            .collect();
        let (a, b) = both(&flat);
        assert!(
            matches!(
                a,
                Err(super::super::Overlap {
                    kind: Kind::Coincide(_),
                    ..
                })
            ),
            "{a:?}"
        );
        assert_eq!(a, b);
        // Flat, it is checked as one folded patch: its own pairs from their angles.
        assert_eq!(folded_flats(&flat), 1);
        let (a, b) = both(&spiral(0.01));
        assert_eq!(a, b);
    }

    #[test]
    fn a_box_on_a_cylinder_cap_beside_its_rim() {
        // Found by the property test below: a box of grid faces standing on a fan-capped
        // cylinder's top, across its rim. The box's face at x = 0 is a flat patch; its side
        // of the plane was taken from a point one ulp off, subnormal at 0, and `orient3d`
        // underflowed to 0: every triangle seemed to lie in the plane facing the other way,
        // and was cleared. The first crossing (triangles 7 and 132) was missed; another
        // pair still refused the file.
        let t = [
            grid_box([0.0, 0.0, 1.5], [1.0, 1.0, 1.0], 3),
            cylinder([0.0, 1.5, 1.0], 1.0, 1.0, 15, false),
        ]
        .concat();
        let (a, b) = both(&t);
        assert_eq!(a, b);
    }

    /// A row of 40 grid-faced cubes and a rod above them, turned so that the rod's faces'
    /// boxes meet nearly every cube's (a patch with more neighbours than are listed, whose
    /// triangles are looked up one by one) while each cube's meet a few: with the rod clear
    /// of the cubes, resting on them, and sunk into them, the patches find what every pair
    /// finds, and both take the resting rod for touching (its long bottom edges pass
    /// through the cubes' side faces within rounding of their top edges: see `under`).
    /// The rod lies off the cubes' grid lines, or with its bottom edge along the cubes'
    /// top edges and its grid lines over theirs (both split at y = 0.5: edges through
    /// rounded corners, whose crossings add up once counted with the points perturbed).
    #[test]
    fn quiet_triangles_of_many_patches_and_a_crowded_one() {
        for (rod_at, at, refused) in [
            (1.3, [-1.1, 0.2], false),
            (1.0, [-1.1, 0.2], false),
            (1.0, [-1.0, 0.0], false),
            (0.9, [-1.1, 0.2], true),
            (0.9, [-1.0, 0.0], true),
        ] {
            let mut t = Vec::new();
            for k in 0..40 {
                t.extend(grid_box([1.5 * k as f64, 0.0, 0.0], [1.0; 3], 2));
            }
            let width = if at[1] == 0.0 { 1.0 } else { 0.5 };
            t.extend(grid_box([at[0], at[1], rod_at], [62.0, width, 0.5], 2));
            let t = turned(&t, 37.0, false);
            let (a, b, crowded) = both_crowded(&t);
            assert_eq!(a, b, "rod at {rod_at} {at:?}");
            assert_eq!(a.is_err(), refused, "rod at {rod_at} {at:?}: {a:?}");
            assert!(crowded > 0, "rod at {rod_at}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(192))]
        /// Assemblies of fan-capped cylinders and grid-faced boxes at offsets that make
        /// them touch, rest on each other, coincide or overlap, turned or not: passing over
        /// the pairs within patches finds exactly what testing every pair finds.
        #[test]
        fn patches_find_what_every_pair_finds(
            bodies in proptest::collection::vec(
                (0..5usize, 3..20usize, [0..6i32, 0..6i32, 0..6i32], 1..4usize),
                2..4,
            ),
            turn in 0..3usize,
        ) {
            let mut t = Vec::new();
            for (kind, n, at, size) in bodies {
                let at = at.map(|x| x as f64 * 0.5);
                let s = size as f64;
                match kind {
                    0 => t.extend(cylinder(at, s, s, n, false)),
                    1 => t.extend(cylinder(at, s, s, n, true)),
                    2 => t.extend(grid_box(at, [s, s, 1.0], n % 5 + 1)),
                    // Caps that are folded flat patches (16 sections or more).
                    3 => t.extend(notched(at, s, s, n + 16, n)),
                    _ => t.extend(grid_box(at, [1.0, s, s], 2)),
                }
            }
            let t = match turn {
                0 => t,
                1 => turned(&t, 37.0, false),
                _ => turned(&t, 10.0, true),
            };
            let (a, b) = both(&t);
            prop_assert_eq!(a, b);
        }
    }
}
