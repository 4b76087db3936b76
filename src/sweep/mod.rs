//! Shamos–Hoey sweep: does any pair of polygon edges meet, other than neighbours at their
//! shared vertex? O(n log n) in the worst case (a star or a comb of a million spikes costs
//! no more than a circle), with exact orientation predicates (a float filter with
//! Shewchuk's error bound, the `robust` crate's adaptive arithmetic where it cannot decide).
//!
//! geo's `sweep::Intersections` was tried first; it tests every pair of edges whose x-ranges
//! overlap, which is quadratic for spiky shapes (a 1M-vertex star did not finish in minutes).
//!
//! Edges run from their lexicographically smaller endpoint (x, then y) to the larger. The
//! events are the vertices in lexicographic order: at each, its two edges end (removals,
//! first) or begin (insertions). No two vertices may share a point: a point used twice is a
//! pinch, reported before the sweep starts. The vertices are sorted once, in parallel, on
//! x's order-preserving bit pattern (16-byte records), each run at one x then in order of
//! y read from the points.
//!
//! The active edges are kept in a B+ tree ordered bottom to top (`active.rs`: wide nodes with
//! the edges' coordinates inline, leaves linked in a list, so an edge is removed and its
//! neighbours found from its leaf without comparing anything). An edge is compared with an
//! active one where the later of the two starts, which is well defined while no two edges
//! have met, and the sweep stops at the first meeting. Each time two edges become neighbours
//! they are tested: exact orientation signs reject pairs that do not meet, and an exact
//! classification (`meet.rs`) says how the others meet.
//!
//! Two shortcuts spare most searches, without changing a single decision: where a vertex
//! ends one edge and begins the next (the ring passes through it), the new edge takes the
//! old one's place in the tree, since no other edge passes through the vertex (it would
//! have been found touching); where a vertex begins both its edges, the first is looked
//! for in the leaf of a nearby active edge of the ring (taken only where a search from the
//! root would go: the leaf's edges bracket it) and the second goes next to the first. The
//! tests check against the sweep as it was (`reference.rs`, one event
//! per edge end and a search per insertion) that the first contact found is the same.
//!
//! A single ring that turns once around a point of its own (a star, a circle, a convex
//! outline) is certified simple in linear time before any of this (`star.rs`), and not
//! swept: the sweep would find nothing, and on such shapes it holds a large share of the
//! edges at once.

mod active;
mod meet;
mod parts;
#[cfg(test)]
mod reference;
mod star;

use active::Active;
use nalgebra::Point2;
pub(crate) use parts::{Refusal, touching_parts};
use rayon::prelude::*;
use robust::orient2d;
use std::cmp::Ordering;

/// The most vertices one sweep takes (its indices are 32-bit: a polygon this large would
/// need more than 64 GB to read).
pub(crate) const MAX_VERTICES: usize = (u32::MAX - 1) as usize;

/// An edge: its ring (index into the caller's list) and its index within the ring (edge
/// `k` joins vertex `k` to the next).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct EdgeRef {
    /// Which ring.
    pub ring: usize,
    /// Which edge of the ring.
    pub index: usize,
}

/// Two edges that meet: how, and where.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Contact {
    /// First edge (the earlier in input order: rings in order, edges in order).
    pub a: EdgeRef,
    /// Second edge.
    pub b: EdgeRef,
    /// "cross", "touch" or "overlap".
    pub kind: &'static str,
    /// A point where they meet.
    pub at: [f64; 2],
}

/// The sign of the orientation of (a, b, c): positive if c is left of a → b. Exact: a float
/// evaluation decides when it is clearly away from zero (Shewchuk's error bound), the
/// `robust` crate's adaptive arithmetic otherwise.
#[inline]
fn orient(a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> f64 {
    let l = (a[0] - c[0]) * (b[1] - c[1]);
    let r = (a[1] - c[1]) * (b[0] - c[0]);
    let det = l - r;
    // Shewchuk's ccwerrboundA.
    let bound = 3.330_669_073_875_472e-16 * (l.abs() + r.abs());
    if det > bound || -det > bound {
        det
    } else {
        let k = |p: [f64; 2]| robust::Coord { x: p[0], y: p[1] };
        orient2d(k(a), k(b), k(c))
    }
}

fn lex_less(p: [f64; 2], q: [f64; 2]) -> bool {
    (p[0], p[1]) < (q[0], q[1])
}

fn lex_cmp(p: [f64; 2], q: [f64; 2]) -> Ordering {
    p[0].total_cmp(&q[0]).then(p[1].total_cmp(&q[1]))
}

/// An order-preserving bit pattern of a finite f64: unsigned comparison of the patterns is
/// the numeric comparison of the numbers (-0 counts as 0).
#[inline]
fn ordered_bits(v: f64) -> u64 {
    let b = (v + 0.0).to_bits(); // -0 + 0 = +0
    if b >> 63 == 1 { !b } else { b | 1 << 63 }
}

/// An edge oriented left to right, as the tree holds it.
#[derive(Clone, Copy, Debug)]
struct Seg {
    left: [f64; 2],
    right: [f64; 2],
    /// Global edge number (rings one after the other).
    edge: u32,
    ring: u32,
}

impl Seg {
    /// Where `other` lies relative to `self`, judged where `other` starts (it starts no
    /// earlier than `self`).
    #[inline]
    fn side_of(&self, other: &Seg) -> Ordering {
        let o = orient(self.left, self.right, other.left);
        let o = if o == 0.0 {
            orient(self.left, self.right, other.right)
        } else {
            o
        };
        if o > 0.0 {
            Ordering::Greater
        } else if o < 0.0 {
            Ordering::Less
        } else {
            // Collinear: they overlap and will be reported when they meet as neighbours.
            other.edge.cmp(&self.edge)
        }
    }

    /// The order of the active edges, bottom to top: compared where the later one starts.
    #[inline]
    fn cmp(&self, o: &Seg) -> Ordering {
        if self.edge == o.edge {
            return Ordering::Equal;
        }
        if lex_cmp(self.left, o.left) != Ordering::Less {
            o.side_of(self)
        } else {
            self.side_of(o).reverse()
        }
    }
}

/// The rings, numbered as one list of edges.
struct Rings<'a> {
    rings: &'a [&'a [Point2<f64>]],
    /// Global number of each ring's first edge, and the total at the end.
    start: Vec<u32>,
}

impl<'a> Rings<'a> {
    /// The rings, their edges numbered in order.
    fn new(rings: &'a [&'a [Point2<f64>]]) -> Self {
        let mut start = Vec::with_capacity(rings.len() + 1);
        let mut total = 0u32;
        for r in rings {
            start.push(total);
            total += r.len() as u32;
        }
        start.push(total);
        Rings { rings, start }
    }

    /// How many edges the rings have.
    fn edges(&self) -> u32 {
        self.start.last().copied().unwrap_or(0)
    }

    /// Every vertex, in ring order, keyed by its x for the sweep's sort.
    fn vertices(&self) -> Vec<Vertex> {
        let mut order = Vec::with_capacity(self.edges() as usize);
        for (k, r) in self.rings.iter().enumerate() {
            let s = self.start[k];
            order.extend(r.iter().enumerate().map(|(i, p)| Vertex {
                x: ordered_bits(p.x),
                v: s + i as u32,
                ring: k as u32,
            }));
        }
        order
    }

    #[inline]
    fn point(&self, ring: u32, k: u32) -> [f64; 2] {
        let p = self.rings[ring as usize][(k - self.start[ring as usize]) as usize];
        [p.x, p.y]
    }

    /// Asks the cache for global vertex `k` of `ring` (a hint only).
    #[inline]
    fn prefetch_point(&self, ring: u32, k: u32) {
        if let (Some(r), Some(&s)) = (self.rings.get(ring as usize), self.start.get(ring as usize))
        {
            prefetch(r.as_ptr().wrapping_add(k.wrapping_sub(s) as usize));
        }
    }

    /// The next vertex (and edge) of the ring after global vertex `k`.
    #[inline]
    fn next(&self, ring: u32, k: u32) -> u32 {
        if k + 1 == self.start[ring as usize + 1] {
            self.start[ring as usize]
        } else {
            k + 1
        }
    }

    #[inline]
    fn prev(&self, ring: u32, k: u32) -> u32 {
        if k == self.start[ring as usize] {
            self.start[ring as usize + 1] - 1
        } else {
            k - 1
        }
    }

    /// Edge `edge` of `ring` (global number), oriented left to right.
    fn seg(&self, ring: u32, edge: u32) -> Seg {
        let (from, to) = (
            self.point(ring, edge),
            self.point(ring, self.next(ring, edge)),
        );
        let (left, right) = if lex_less(from, to) {
            (from, to)
        } else {
            (to, from)
        };
        Seg {
            left,
            right,
            edge,
            ring,
        }
    }

    /// The edges of the ring on either side of the two edges `a` and `b` of one vertex,
    /// nearest first, alternating sides (back from the edge in, on from the edge out).
    #[inline]
    fn around(&self, a: &Seg, b: &Seg) -> [u32; 2 * NEAR_EDGES] {
        let (e_in, e_out) = if self.next(a.ring, a.edge) == b.edge {
            (a.edge, b.edge)
        } else {
            (b.edge, a.edge)
        };
        let (mut back, mut on) = (e_in, e_out);
        let mut out = [0; 2 * NEAR_EDGES];
        for pair in out.chunks_exact_mut(2) {
            back = self.prev(a.ring, back);
            on = self.next(a.ring, on);
            pair[0] = back;
            pair[1] = on;
        }
        out
    }

    fn edge_ref(&self, ring: u32, edge: u32) -> EdgeRef {
        EdgeRef {
            ring: ring as usize,
            index: (edge - self.start[ring as usize]) as usize,
        }
    }

    fn adjacent(&self, s: &Seg, t: &Seg) -> bool {
        s.ring == t.ring
            && (self.next(s.ring, s.edge) == t.edge || self.next(t.ring, t.edge) == s.edge)
    }

    /// How two edges meet, if they do in a way a simple polygon forbids.
    #[inline]
    fn meet(&self, s: &Seg, t: &Seg) -> Option<Contact> {
        // Boxes apart (x runs left to right in a Seg; y either way).
        let (sy0, sy1) = minmax(s.left[1], s.right[1]);
        let (ty0, ty1) = minmax(t.left[1], t.right[1]);
        if s.right[0] < t.left[0] || t.right[0] < s.left[0] || sy1 < ty0 || ty1 < sy0 {
            return None;
        }
        // Both ends of one strictly on one side of the other: exact signs, so this says no
        // exactly where `meet::meet` would.
        let strictly_one_side = |a: f64, b: f64| (a > 0.0 && b > 0.0) || (a < 0.0 && b < 0.0);
        let (o1, o2) = (
            orient(s.left, s.right, t.left),
            orient(s.left, s.right, t.right),
        );
        if strictly_one_side(o1, o2) {
            return None;
        }
        let (o3, o4) = (
            orient(t.left, t.right, s.left),
            orient(t.left, t.right, s.right),
        );
        if strictly_one_side(o3, o4) {
            return None;
        }
        let adjacent = self.adjacent(s, t);
        // Neighbours in a ring meet at their shared vertex; unless all four points are on a
        // line they meet nowhere else (`meet` would say they touch).
        if adjacent && !(o1 == 0.0 && o2 == 0.0 && o3 == 0.0 && o4 == 0.0) {
            return None;
        }
        self.how(s, t, adjacent)
    }

    /// How two edges that may meet do (`meet.rs`, on the edges as given, from → to).
    #[cold]
    fn how(&self, s: &Seg, t: &Seg, adjacent: bool) -> Option<Contact> {
        let ends = |g: &Seg| {
            let from = self.point(g.ring, g.edge);
            [from, self.point(g.ring, self.next(g.ring, g.edge))]
        };
        let m = meet::meet(ends(s), ends(t))?;
        if adjacent && !matches!(m, meet::Meeting::Overlap(_)) {
            return None;
        }
        let (a, b) = if s.edge < t.edge { (s, t) } else { (t, s) };
        Some(Contact {
            a: self.edge_ref(a.ring, a.edge),
            b: self.edge_ref(b.ring, b.edge),
            kind: m.kind(),
            at: m.at(),
        })
    }
}

#[inline]
fn minmax(a: f64, b: f64) -> (f64, f64) {
    if a <= b { (a, b) } else { (b, a) }
}

/// A vertex in sweep order: its x's order-preserving bits, its global number and its ring
/// (16 bytes: y, which breaks ties in x, is read from the points where x ties).
#[derive(Clone, Copy)]
struct Vertex {
    x: u64,
    v: u32,
    ring: u32,
}

impl Rings<'_> {
    /// Whether two vertices are at one point (y read only where x ties).
    #[inline]
    fn same_point(&self, a: &Vertex, b: &Vertex) -> bool {
        a.x == b.x && self.point(a.ring, a.v)[1] == self.point(b.ring, b.v)[1]
    }
}

/// The point of the vertex whose two events are `ev` (its edge out begins there, or ends
/// there), without reading the points again.
#[inline]
fn event_point(ev: &[Event; 2]) -> [f64; 2] {
    let (insert, out) = &ev[1];
    if *insert { out.left } else { out.right }
}

/// An event: an edge ends (`insert` false) or begins at a point.
type Event = (bool, Seg);

/// The sweep's state: the rings, the active edges.
struct Sweep<'a> {
    rings: &'a Rings<'a>,
    active: Active,
}

impl Sweep<'_> {
    /// An edge leaves: its neighbours become neighbours.
    fn remove(&mut self, seg: &Seg) -> Option<Contact> {
        // None: never inserted (a zero-length edge, which callers do not pass).
        let x = self.active.place_of(seg.edge)?;
        let t = &self.active;
        let (below, above) = (t.neighbour(x, 0), t.neighbour(x, 1));
        let pair = below.zip(above).map(|(b, a)| (*t.seg(b), *t.seg(a)));
        self.active.remove(x);
        let (b, a) = pair?;
        self.rings.meet(&b, &a)
    }

    /// Tests a newly placed edge against its two neighbours, below first.
    fn test_new(&self, x: active::Place) -> Option<Contact> {
        let t = &self.active;
        let seg = t.seg(x);
        for n in [t.neighbour(x, 0), t.neighbour(x, 1)].into_iter().flatten() {
            if let Some(c) = self.rings.meet(seg, t.seg(n)) {
                return Some(c);
            }
        }
        None
    }

    /// The events at one point, removals first, each kind in edge order, as the sweep has
    /// always taken them.
    fn events(&mut self, events: &mut [Event]) -> Option<Contact> {
        let key = |(insert, s): &Event| (*insert, s.edge);
        if let [a, b] = events {
            if key(b) < key(a) {
                std::mem::swap(a, b);
            }
        } else {
            events.sort_unstable_by_key(key);
        }
        match *events {
            // The ring passes through the point: the new edge takes the old one's place
            // (an insertion would find that place, since no other edge passes through the
            // point: it would have been found touching one of these two).
            [(false, old), (true, new)] => {
                let Some(x) = self.active.place_of(old.edge) else {
                    return self.generic(events);
                };
                let t = &self.active;
                if let (Some(b), Some(a)) = (t.neighbour(x, 0), t.neighbour(x, 1))
                    && let Some(c) = self.rings.meet(t.seg(b), t.seg(a))
                {
                    return Some(c);
                }
                self.active.replace(x, new);
                self.test_new(x)
            }
            // Both edges begin here: the second goes next to the first (once the first has
            // met nothing, no other edge passes through the point).
            [(true, first), (true, second)] => {
                // The ring's next few edges on either side are often active and close by
                // in the order (a zigzag): their leaves are looked in before the root.
                let near = self.rings.around(&first, &second);
                let x = self.active.insert_near(first, &near);
                if let Some(c) = self.test_new(x) {
                    return Some(c);
                }
                let side = (second.cmp(&first) == Ordering::Greater) as usize;
                let y = self.active.insert_beside(x, side, second);
                self.test_new(y)
            }
            _ => self.generic(events),
        }
    }

    /// Events one by one: a removal, or an insertion found by searching.
    fn generic(&mut self, events: &[Event]) -> Option<Contact> {
        for (insert, seg) in events {
            if *insert {
                let x = self.active.insert(*seg);
                if let Some(c) = self.test_new(x) {
                    return Some(c);
                }
            } else if let Some(c) = self.remove(seg) {
                return Some(c);
            }
        }
        None
    }
}

/// The first forbidden meeting of two edges found by the sweep, or `None` if the rings are
/// simple and mutually disjoint. Rings are closed (the last vertex joins the first) and
/// have no zero-length edges; together at most [`MAX_VERTICES`] vertices.
pub(crate) fn first_contact(rings: &[&[Point2<f64>]]) -> Option<Contact> {
    // One ring that turns once around a point of its own is simple: certified in linear
    // time, without the sweep (see `star.rs`).
    if let [ring] = rings
        && star::certified(ring)
    {
        return None;
    }
    first_contact_split(rings, SPLIT_FROM)
}

/// [`first_contact`], swept in two halves from `split_from` vertices.
fn first_contact_split(rings: &[&[Point2<f64>]], split_from: usize) -> Option<Contact> {
    let rings = Rings::new(rings);

    let mut order = rings.vertices();
    // Sorted on x alone (16-byte records move faster and take a third less memory than
    // 24-byte ones with y), then each run of vertices at one x in order of y.
    order.par_sort_unstable_by_key(|v| v.x);

    // A vertex used twice (a pinch, or two rings sharing a point) puts more than two edge
    // ends at one point: report two edges there that are not neighbours. The runs at one
    // x are ordered on every core, in pieces cut between runs; the first pinch in the
    // sweep's order is the first found in the first piece that finds one.
    let step = (order.len() / (4 * rayon::current_num_threads())).max(1 << 14);
    let mut pieces: Vec<&mut [Vertex]> = Vec::new();
    let mut rest: &mut [Vertex] = &mut order;
    while rest.len() > step {
        let mut cut = step;
        while cut < rest.len() && rest[cut].x == rest[cut - 1].x {
            cut += 1;
        }
        let (piece, after) = std::mem::take(&mut rest).split_at_mut(cut);
        pieces.push(piece);
        rest = after;
    }
    pieces.push(rest);
    let found: Vec<Option<Contact>> = pieces
        .into_par_iter()
        .map(|piece| order_ties(&rings, piece))
        .collect();
    if let Some(c) = found.into_iter().flatten().next() {
        return Some(c);
    }

    match split(&rings, &order, split_from) {
        // The left half is swept as it would be alone; the right half starts from the
        // edges active where it begins, inserted in the order the sweep would have
        // inserted them. While the left half finds nothing, no edges have met before the
        // cut, so they take the places they would have had, and the right half goes on
        // exactly as one sweep would: the first contact is the left half's, else the
        // right half's.
        Some((m, crossing)) => {
            let (left, right) = rayon::join(
                || sweep_range(&rings, &order[..m], &[]),
                || sweep_range(&rings, &order[m..], &crossing),
            );
            left.or(right)
        }
        None => sweep_range(&rings, &order, &[]),
    }
}

/// Puts each run of `order` (sorted on x) at one x in order of y, read from the points;
/// returns the first pinch (see [`pinch`]) in that order, if any, with the runs after it
/// left as they are.
fn order_ties(rings: &Rings, order: &mut [Vertex]) -> Option<Contact> {
    let mut ties: Vec<(u64, Vertex)> = Vec::new();
    let mut i = 0;
    while i < order.len() {
        let mut j = i + 1;
        while j < order.len() && order[j].x == order[i].x {
            j += 1;
        }
        if j - i > 1 {
            ties.clear();
            ties.extend(
                order[i..j]
                    .iter()
                    .map(|w| (ordered_bits(rings.point(w.ring, w.v)[1]), *w)),
            );
            ties.sort_unstable_by_key(|t| t.0);
            for (slot, t) in order[i..j].iter_mut().zip(&ties) {
                *slot = t.1;
            }
            let mut a = 0;
            while a < ties.len() {
                let mut b = a + 1;
                while b < ties.len() && ties[b].0 == ties[a].0 {
                    b += 1;
                }
                if b - a > 1
                    && let Some(c) = pinch(rings, &order[i + a..i + b])
                {
                    return Some(c);
                }
                a = b;
            }
        }
        i = j;
    }

    None
}

/// Polygons of this many vertices and more are swept in two halves at once.
const SPLIT_FROM: usize = 1 << 16;

/// Where to cut the sweep in two (a position in `order` between two points), and the
/// edges active there in the order the sweep inserts them; `None` for small inputs or
/// one core. The cut is placed, between 3/8 and 5/8 of the vertices, where the fewest
/// edges are active (the middle of a star: a few).
fn split(rings: &Rings, order: &[Vertex], split_from: usize) -> Option<(usize, Vec<Seg>)> {
    let n = order.len();
    if n < split_from.max(8) || rayon::current_num_threads() < 2 {
        return None;
    }
    let mut rank = vec![0u32; n];
    for (i, v) in order.iter().enumerate() {
        rank[v.v as usize] = i as u32;
    }
    // An edge is active from its first event to its last: before event i exactly when
    // lo < i <= hi. Counted for every i by a running sum of +1 at lo + 1, -1 at hi + 1.
    let span = |ring: u32, e: u32| {
        let (a, b) = (rank[e as usize], rank[rings.next(ring, e) as usize]);
        (a.min(b) as usize, a.max(b) as usize)
    };
    let mut diff = vec![0i32; n + 1];
    for ring in 0..rings.rings.len() as u32 {
        for e in rings.start[ring as usize]..rings.start[ring as usize + 1] {
            let (lo, hi) = span(ring, e);
            diff[lo + 1] += 1;
            diff[hi + 1] -= 1;
        }
    }
    let (from, to) = (3 * n / 8, 5 * n / 8);
    let mut active = diff[..from].iter().sum::<i32>();
    let mut best: Option<(i32, usize)> = None;
    for m in from..to {
        active += diff[m];
        if best.is_none_or(|(a, _)| active < a) && !rings.same_point(&order[m], &order[m - 1]) {
            best = Some((active, m));
        }
    }
    let (_a, m) = best?;

    let mut crossing: Vec<(usize, Seg)> = Vec::new();
    for ring in 0..rings.rings.len() as u32 {
        for e in rings.start[ring as usize]..rings.start[ring as usize + 1] {
            let (lo, hi) = span(ring, e);
            if lo < m && m <= hi {
                crossing.push((lo, rings.seg(ring, e)));
            }
        }
    }
    // The sweep inserts edges by their first event, two beginning at one point by number.
    crossing.sort_unstable_by_key(|(lo, s)| (*lo, s.edge));
    Some((m, crossing.into_iter().map(|(_, s)| s).collect()))
}

/// Sweeps the vertices `order` (a stretch of the sweep order), starting with the edges
/// `active` (in the order the sweep inserts them).
fn sweep_range(rings: &Rings, order: &[Vertex], active: &[Seg]) -> Option<Contact> {
    let mut sweep = Sweep {
        rings,
        active: Active::new(*rings.start.last().unwrap_or(&0) as usize),
    };
    for s in active {
        sweep.active.insert(*s);
    }
    // The vertices' edges are gathered a block ahead, on another core: reading a vertex's
    // neighbours in the ring misses the cache (sweep order is not ring order), and the
    // sweep itself need not wait for it.
    let block_end = |from: usize| {
        let mut end = (from + SWEEP_BLOCK).min(order.len());
        // A point shared by several vertices stays in one block.
        while end < order.len() && rings.same_point(&order[end], &order[end - 1]) {
            end += 1;
        }
        end
    };
    // The points of the vertex `GATHER_AHEAD` places on are asked for before each vertex is
    // read, so that many of these misses are under way at once.
    let gather = |from: usize, to: usize, out: &mut Vec<[Event; 2]>| {
        out.clear();
        for i in from..to {
            if let Some(w) = order.get(i + GATHER_AHEAD) {
                rings.prefetch_point(w.ring, w.v);
            }
            out.push(vertex_events(rings, order[i]));
        }
    };
    let mut from = 0;
    let mut to = block_end(0);
    let (mut gathered, mut next) = (Vec::new(), Vec::new());
    gather(from, to, &mut gathered);
    let mut events: Vec<Event> = Vec::new();
    while from < order.len() {
        let next_to = block_end(to);
        let (found, ()) = rayon::join(
            || sweep.block(&order[from..to], &mut gathered, &mut events),
            || gather(to, next_to, &mut next),
        );
        if found.is_some() {
            return found;
        }
        std::mem::swap(&mut gathered, &mut next);
        (from, to) = (to, next_to);
    }
    None
}

/// How many edges of the ring on each side of a vertex whose two edges begin there are
/// looked at for one that is active, whose leaf may then hold the place of the new edges.
const NEAR_EDGES: usize = 4;

/// How many vertices ahead of the one it reads the gathering asks for points.
const GATHER_AHEAD: usize = 16;

/// Vertices gathered and swept at a time.
const SWEEP_BLOCK: usize = 1 << 14;

impl Sweep<'_> {
    /// Sweeps the vertices `order`, whose events are `gathered`.
    fn block(
        &mut self,
        order: &[Vertex],
        gathered: &mut [[Event; 2]],
        events: &mut Vec<Event>,
    ) -> Option<Contact> {
        let mut i = 0;
        while i < order.len() {
            self.prefetch(gathered, i);
            let mut j = i + 1;
            let at = event_point(&gathered[i]);
            while j < order.len() && order[j].x == order[i].x && event_point(&gathered[j]) == at {
                j += 1;
            }
            if j - i == 1 {
                if let Some(c) = self.events(&mut gathered[i]) {
                    return Some(c);
                }
            } else {
                events.clear();
                events.extend(gathered[i..j].iter().flatten());
                if let Some(c) = self.events(events) {
                    return Some(c);
                }
            }
            i = j;
        }
        None
    }
}

/// How many vertices ahead the sweep asks for the tree nodes it will touch: an edge that
/// ends there is looked up in the tree's index this far ahead, its leaf half as far (each
/// load then finds the line in cache). 64 rather than 32: 0.97 of the CPU on the slotted
/// 10⁷ star in paired runs, the same at 10⁶; 128 was no better.
const AHEAD: usize = 64;

impl Sweep<'_> {
    /// Asks the cache for what the vertices `AHEAD` and `AHEAD / 2` after `i` will read:
    /// hints only, whatever the tree holds by then.
    #[inline]
    fn prefetch(&self, gathered: &[[Event; 2]], i: usize) {
        if let Some(ev) = gathered.get(i + AHEAD) {
            for (insert, seg) in ev {
                if !insert {
                    self.active.prefetch_entry(seg.edge);
                }
            }
        }
        if let Some(ev) = gathered.get(i + AHEAD / 2) {
            for (insert, seg) in ev {
                if !insert {
                    self.active.prefetch_leaf_of(seg.edge);
                }
            }
        }
    }
}

/// A hint that the line holding `p` will be read soon.
#[inline(always)]
fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch never faults and changes nothing but the cache, whatever the
    // address (it need not be valid).
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p as *const i8);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// The two events at vertex `v`: its edge in (from the previous vertex) and its edge out.
#[inline]
fn vertex_events(rings: &Rings, v: Vertex) -> [Event; 2] {
    let (ring, k) = (v.ring, v.v);
    let prev = rings.prev(ring, k);
    let e_in = rings.seg(ring, prev);
    let e_out = rings.seg(ring, k);
    let p = rings.point(ring, k);
    // An edge begins at its left end.
    [
        (e_in.left == p && e_in.right != p, e_in),
        (e_out.left == p && e_out.right != p, e_out),
    ]
}

/// Two edges at a point several vertices share that are not neighbours, taken in the
/// sweep's order of events (removals first, then by edge).
#[cold]
fn pinch(rings: &Rings, group: &[Vertex]) -> Option<Contact> {
    let mut events: Vec<(bool, Seg, [f64; 2])> = group
        .iter()
        .flat_map(|&v| {
            let at = rings.point(v.ring, v.v);
            vertex_events(rings, v).map(|(insert, s)| (insert, s, at))
        })
        .collect();
    events.sort_by(|x, y| {
        lex_cmp(x.2, y.2)
            .then(x.0.cmp(&y.0))
            .then(x.1.edge.cmp(&y.1.edge))
    });
    for (x, gx) in events.iter().enumerate() {
        for gy in &events[x + 1..] {
            let (s, t) = (&gx.1, &gy.1);
            if s.edge != t.edge && !rings.adjacent(s, t) {
                let (a, b) = if s.edge < t.edge { (s, t) } else { (t, s) };
                return Some(Contact {
                    a: rings.edge_ref(a.ring, a.edge),
                    b: rings.edge_ref(b.ring, b.edge),
                    kind: "touch",
                    at: gx.2,
                });
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn pts(points: &[[f64; 2]]) -> Vec<Point2<f64>> {
        points.iter().map(|p| Point2::new(p[0], p[1])).collect()
    }

    /// The first contact, found by one sweep and by two halves at once, which must agree.
    fn contact(rings: &[Vec<Point2<f64>>]) -> Option<Contact> {
        let r: Vec<&[Point2<f64>]> = rings.iter().map(Vec::as_slice).collect();
        let one = first_contact_split(&r, usize::MAX);
        assert_eq!(first_contact_split(&r, 0), one, "split");
        one
    }

    fn one(points: &[[f64; 2]]) -> Option<Contact> {
        contact(&[pts(points)])
    }

    /// The sweep as it was, on the same rings, in the same terms.
    fn reference(rings: &[Vec<Point2<f64>>]) -> Option<Contact> {
        let mut edges = Vec::new();
        let mut at = Vec::new();
        for (k, r) in rings.iter().enumerate() {
            let n = r.len();
            for i in 0..n {
                let (a, b) = (r[i], r[(i + 1) % n]);
                edges.push(reference::SweepEdge {
                    from: [a.x, a.y],
                    to: [b.x, b.y],
                    ring: k,
                    index: i,
                    ring_len: n,
                });
                at.push(EdgeRef { ring: k, index: i });
            }
        }
        reference::first_contact(&edges).map(|c| Contact {
            a: at[c.a],
            b: at[c.b],
            kind: c.kind,
            at: c.at,
        })
    }

    /// Brute force: does any pair of edges meet?
    fn brute(rings: &[Vec<Point2<f64>>]) -> bool {
        let r: Vec<&[Point2<f64>]> = rings.iter().map(Vec::as_slice).collect();
        let mut start = vec![0u32];
        for x in &r {
            start.push(start.last().unwrap() + x.len() as u32);
        }
        let rings = Rings { rings: &r, start };
        let mut segs = Vec::new();
        for k in 0..r.len() {
            for e in rings.start[k]..rings.start[k + 1] {
                segs.push(rings.seg(k as u32, e));
            }
        }
        (0..segs.len())
            .any(|i| (i + 1..segs.len()).any(|j| rings.meet(&segs[i], &segs[j]).is_some()))
    }

    fn edge(ring: usize, index: usize) -> EdgeRef {
        EdgeRef { ring, index }
    }

    #[test]
    fn ordered_bits_keep_the_order() {
        let v = [
            -f64::MAX,
            -1e300,
            -1.5,
            -1e-310,
            -0.0,
            0.0,
            1e-310,
            1.0,
            1.5,
            1e300,
            f64::MAX,
        ];
        for w in v.windows(2) {
            assert!(ordered_bits(w[0]) <= ordered_bits(w[1]), "{w:?}");
            assert_eq!(
                ordered_bits(w[0]) == ordered_bits(w[1]),
                w[0] == w[1],
                "{w:?}"
            );
        }
    }

    #[test]
    fn simple_shapes_pass() {
        assert_eq!(one(&[[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]]), None);
        // A comb: vertical edges, collinear horizontal runs, many teeth.
        let mut p = vec![[0.0, -1.0], [100.0, -1.0], [100.0, 0.0]];
        for k in (0..50).rev() {
            let x = 2.0 * k as f64;
            p.extend([[x + 1.0, 0.0], [x + 1.0, 10.0], [x, 10.0], [x, 0.0]]);
        }
        assert!(!brute(&[pts(&p)]));
        assert_eq!(one(&p), None);
    }

    #[test]
    fn crossings_touches_overlaps() {
        let c = one(&[[0.0, 0.0], [2.0, 2.0], [2.0, 0.0], [0.0, 2.0]]).unwrap();
        assert_eq!(
            (c.a, c.b, c.kind, c.at),
            (edge(0, 0), edge(0, 2), "cross", [1.0, 1.0])
        );
        // Vertex on an edge.
        let c = one(&[
            [0.0, 0.0],
            [4.0, 0.0],
            [4.0, 4.0],
            [2.0, 4.0],
            [2.0, 0.0],
            [0.0, 4.0],
        ])
        .unwrap();
        assert_eq!((c.kind, c.at), ("touch", [2.0, 0.0]));
        // Pinch: a vertex used twice.
        let c = one(&[
            [0.0, 0.0],
            [2.0, 1.0],
            [4.0, 0.0],
            [4.0, 2.0],
            [2.0, 1.0],
            [0.0, 2.0],
        ])
        .unwrap();
        assert_eq!((c.kind, c.at), ("touch", [2.0, 1.0]));
        // A spike back along the previous edge.
        let c = one(&[[0.0, 0.0], [4.0, 0.0], [2.0, 0.0], [2.0, 3.0]]).unwrap();
        assert_eq!(c.kind, "overlap");
        // Vertical spike: the return vertex also touches the first edge; either is a finding.
        let c = one(&[[0.0, 0.0], [0.0, 4.0], [0.0, 2.0], [-3.0, 2.0]]).unwrap();
        assert!(c.kind == "overlap" || c.kind == "touch");
        // Two rings: a hole crossing the outer ring, named by ring and edge.
        let outer = pts(&[[0.0, 0.0], [4.0, 0.0], [4.0, 4.0], [0.0, 4.0]]);
        let hole = pts(&[[3.0, 1.0], [5.0, 1.0], [5.0, 2.0], [3.0, 2.0]]);
        let c = contact(&[outer, hole]).unwrap();
        assert_eq!(
            (c.a, c.b, c.kind, c.at),
            (edge(0, 1), edge(1, 0), "cross", [4.0, 1.0])
        );
    }

    /// A small random ring on a coarse grid (shared points, collinear runs and vertical
    /// edges are common), moved to `offset` and scaled by `scale`.
    fn grid_ring(
        rnd: &mut impl FnMut(u64) -> u64,
        offset: f64,
        scale: f64,
    ) -> Option<Vec<Point2<f64>>> {
        let n = 3 + rnd(6) as usize;
        let mut p: Vec<[f64; 2]> = (0..n)
            .map(|_| {
                [
                    offset + scale * rnd(5) as f64,
                    offset + scale * rnd(5) as f64,
                ]
            })
            .collect();
        p.dedup();
        if p.len() < 3 || p.first() == p.last() {
            return None;
        }
        Some(pts(&p))
    }

    #[test]
    fn agrees_with_brute_force_and_the_old_sweep_on_random_rings() {
        let mut rng = crate::test_rng::Lcg(12345u64);
        let mut rnd = |m: u64| rng.below(m);
        let mut seen = [0, 0];
        for t in 0..20000 {
            // Near the origin, and far from it with steps of a few units in the last place.
            let (offset, scale) = match t % 3 {
                0 => (0.0, 1.0),
                1 => (1e8, 1.0),
                _ => (1e6, 1e-9),
            };
            let mut rings = Vec::new();
            for _ in 0..1 + rnd(2) {
                if let Some(r) = grid_ring(&mut rnd, offset, scale) {
                    rings.push(r);
                }
            }
            if rings.is_empty() {
                continue;
            }
            let found = contact(&rings);
            assert_eq!(found, reference(&rings), "{rings:?}");
            let b = brute(&rings);
            assert_eq!(found.is_some(), b, "{rings:?}");
            seen[b as usize] += 1;
        }
        assert!(seen[0] > 100 && seen[1] > 100, "{seen:?}");
    }

    #[test]
    fn star_is_fast_enough_to_test_here() {
        // 20k spikes: quadratic pair tests would take seconds even in release.
        let n = 40_000;
        let p: Vec<[f64; 2]> = (0..n)
            .map(|k| {
                let t = std::f64::consts::TAU * k as f64 / n as f64;
                let r = if k % 2 == 0 { 1.0 } else { 2.0 };
                [r * t.cos(), r * t.sin()]
            })
            .collect();
        assert_eq!(one(&p), None);
    }

    #[test]
    fn minus_zero_is_zero() {
        // Edge 0 runs along y = 0 from x = -2 to 2; edge 2 crosses it near x = 1.17. Edge 4
        // runs from (0, 1) to (-0, 3): the old sweep sorted its end at x = -0 before its
        // start at x = 0 (it found this crossing all the same); the new one takes -0 as 0.
        let p = [
            [-2.0, 0.0],
            [2.0, 0.0],
            [1.0, -1.0],
            [1.5, 2.0],
            [0.0, 1.0],
            [-0.0, 3.0],
        ];
        let c = one(&p).expect("the crossing is found");
        assert_eq!((c.a, c.b, c.kind), (edge(0, 0), edge(0, 2), "cross"));
        assert!(brute(&[pts(&p)]));
    }

    #[test]
    fn halves_agree_with_one_sweep_on_large_stars_with_a_defect_anywhere() {
        let n = 4000;
        let mut rng = crate::test_rng::Lcg(99);
        let mut rnd = move || rng.unit();
        let radii: Vec<f64> = (0..n).map(|_| 1.0 + 0.3 * rnd()).collect();
        let mut found = 0;
        for trial in 0..40 {
            let centre = [0.0, 1e6, -1e8][trial % 3];
            // One or two points moved onto others: pinches, spikes crossing, or nothing.
            let nudge: Vec<(usize, usize)> = (0..trial % 3)
                .map(|_| ((rnd() * n as f64) as usize, (rnd() * n as f64) as usize))
                .collect();
            let p = star(n, &radii, centre, &nudge);
            found += contact(&[p]).is_some() as usize;
        }
        assert!(found > 5, "{found}");
    }

    /// A star of `n` points with radii in [1, 1 + spread), about `centre`, and a few
    /// of its points moved onto a neighbour's spoke or to another's radius (near-degenerate).
    fn star(n: usize, radii: &[f64], centre: f64, nudge: &[(usize, usize)]) -> Vec<Point2<f64>> {
        let mut p: Vec<[f64; 2]> = (0..n)
            .map(|k| {
                let t = std::f64::consts::TAU * k as f64 / n as f64;
                [centre + radii[k] * t.cos(), centre + radii[k] * t.sin()]
            })
            .collect();
        for &(a, b) in nudge {
            let (a, b) = (a % n, b % n);
            p[a] = p[b];
        }
        p.dedup();
        while p.len() > 1 && p.first() == p.last() {
            p.pop();
        }
        pts(&p)
    }

    /// A seeded generator of floats in [0, 1).
    fn uniform(seed: u64) -> impl FnMut() -> f64 {
        let mut rng = crate::test_rng::Lcg(seed);
        move || rng.unit()
    }

    /// A comb whose `teeth` point right, each a long thin horizontal tooth: every tooth's
    /// two edges are active at once (thousands of edges in the tree, several levels).
    fn comb(teeth: usize, at: f64) -> Vec<[f64; 2]> {
        let mut p = vec![[at, at], [at + 1.0, at]];
        for k in 0..teeth {
            let y = at + 2.0 * k as f64;
            p.extend([
                [at + 1.0, y + 1.0],
                [at + 100.0, y + 1.0],
                [at + 100.0, y + 2.0],
            ]);
            p.push([at + 1.0, y + 2.0]);
        }
        p.push([at, at + 2.0 * teeth as f64]);
        p
    }

    #[test]
    fn combs_with_a_defect_agree_with_the_old_sweep() {
        let mut rnd = uniform(2022);
        let mut found = [0usize; 2];
        for trial in 0..24 {
            let at = [0.0, 1e6, -1e7][trial % 3];
            let mut p = comb(1500, at);
            let n = p.len();
            // Nothing, a tip moved onto the next tooth (touch), across it (cross), or a
            // tooth's edge laid along the next one's (overlap).
            let k = 4 + 4 * (rnd() * 1400.0) as usize;
            match trial % 4 {
                1 => p[k][1] += 1.0,
                2 => p[k][1] += 1.5,
                3 => {
                    p[k][1] += 1.0;
                    p[k + 1][1] += 1.0;
                }
                _ => {}
            }
            assert!(k + 1 < n);
            let rings = [pts(&p)];
            let c = contact(&rings);
            assert_eq!(c, reference(&rings), "trial {trial}");
            found[c.is_some() as usize] += 1;
        }
        assert_eq!(found, [6, 18]);
    }

    /// A ring that spirals out along one arm and back along another, `turns` times round:
    /// at every x about half its edges are active.
    fn spiral(turns: usize, per_turn: usize, at: f64) -> Vec<[f64; 2]> {
        let arm = |r0: f64| -> Vec<[f64; 2]> {
            (0..=turns * per_turn)
                .map(|k| {
                    let t = std::f64::consts::TAU * k as f64 / per_turn as f64;
                    let r = r0 + t;
                    [at + r * t.cos(), at + r * t.sin()]
                })
                .collect()
        };
        let mut p = arm(1.0);
        p.extend(arm(4.0).into_iter().rev());
        p
    }

    #[test]
    fn spirals_with_a_defect_agree_with_the_old_sweep() {
        let mut rnd = uniform(7);
        let mut found = [0usize; 2];
        for trial in 0..12 {
            let at = [0.0, 1e6, -3e7][trial % 3];
            let mut p = spiral(40, 64, at);
            let n = p.len();
            if trial % 2 == 1 {
                // A point of one arm moved onto a point of the other, or of the next turn.
                let a = (rnd() * n as f64) as usize;
                let b = (a + 64 + (rnd() * 200.0) as usize) % n;
                p[a] = p[b];
            }
            p.dedup();
            let rings = [pts(&p)];
            let c = contact(&rings);
            assert_eq!(c, reference(&rings), "trial {trial}");
            found[c.is_some() as usize] += 1;
        }
        assert_eq!(found, [6, 6]);
    }

    #[test]
    fn many_holes_with_a_defect_agree_with_the_old_sweep() {
        let mut rnd = uniform(11);
        let mut found = [0usize; 2];
        for trial in 0..16 {
            let at = [0.0, 1e6][trial % 2];
            let sq =
                |x: f64, y: f64, w: f64| pts(&[[x, y], [x + w, y], [x + w, y + w], [x, y + w]]);
            let mut rings = vec![sq(at, at, 100.0)];
            for i in 0..40 {
                for j in 0..40 {
                    rings.push(sq(
                        at + 1.0 + 2.4 * i as f64,
                        at + 1.0 + 2.4 * j as f64,
                        1.2,
                    ));
                }
            }
            let k = 1 + (rnd() * 1600.0) as usize;
            match trial % 4 {
                // A hole grown to touch its neighbour, to overlap it, or moved onto the
                // outer ring.
                1 => rings[k] = sq(rings[k][0].x, rings[k][0].y, 2.4),
                2 => rings[k] = sq(rings[k][0].x, rings[k][0].y, 3.0),
                3 => rings[k] = sq(at + 99.0, rings[k][0].y, 2.0),
                _ => {}
            }
            let c = contact(&rings);
            assert_eq!(c, reference(&rings), "trial {trial}");
            found[c.is_some() as usize] += 1;
        }
        assert_eq!(found, [4, 12]);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// Random stars, near the origin and far from it, some with points moved onto
        /// others (pinches, spikes crossing): the same first contact as the old sweep, and
        /// a contact exactly when brute force finds one.
        #[test]
        fn stars_agree_with_the_old_sweep(
            radii in proptest::collection::vec(1.0f64..1.3, 8..120),
            centre in prop_oneof![Just(0.0), Just(1e6), Just(1e8), Just(-3e7)],
            nudge in proptest::collection::vec((0usize..200, 0usize..200), 0..3),
        ) {
            let p = star(radii.len(), &radii, centre, &nudge);
            prop_assume!(p.len() >= 3);
            let rings = [p];
            let found = contact(&rings);
            prop_assert_eq!(found, reference(&rings));
            prop_assert_eq!(found.is_some(), brute(&rings));
        }

        /// Combs of 300-800 horizontal teeth of random lengths (hundreds of edges active at
        /// once, so the tree has several levels and its leaves split and merge as teeth
        /// begin and end), with a tooth's tip moved up by 0 to 2 tooth pitches: nothing,
        /// a touch, a collinear overlap or a crossing, anywhere. The same first contact as
        /// the old sweep.
        #[test]
        fn random_combs_agree_with_the_old_sweep(
            lengths in proptest::collection::vec(2u32..400, 300..800),
            defect in (0usize..800, 0u8..5),
            centre in prop_oneof![Just(0.0), Just(1e6), Just(-1e7)],
        ) {
            let mut p = vec![[centre, centre], [centre + 1.0, centre]];
            for (k, &len) in lengths.iter().enumerate() {
                let y = centre + 2.0 * k as f64;
                let x = centre + 1.0 + len as f64;
                p.extend([[centre + 1.0, y + 1.0], [x, y + 1.0], [x, y + 2.0]]);
                p.push([centre + 1.0, y + 2.0]);
            }
            p.push([centre, centre + 2.0 * lengths.len() as f64]);
            let (tooth, lift) = defect;
            let k = 3 + 4 * (tooth % lengths.len());
            // Both tip corners of the tooth move up by lift/2 pitches (of 2 units).
            if k + 1 < p.len() - 1 {
                p[k][1] += lift as f64;
                p[k + 1][1] += lift as f64;
            }
            let rings = [pts(&p)];
            prop_assert_eq!(contact(&rings), reference(&rings));
        }

        /// Points on a grid of a few units in the last place, far from the origin: nearly
        /// every orientation is within the float filter's error bound or exactly zero.
        #[test]
        fn near_degenerate_rings_agree_with_the_old_sweep(
            cells in proptest::collection::vec((0u8..6, 0u8..6), 3..12),
            centre in prop_oneof![Just(1e6), Just(1e8)],
        ) {
            let ulp = centre * f64::EPSILON;
            let mut p: Vec<[f64; 2]> = cells
                .iter()
                .map(|&(x, y)| [centre + ulp * x as f64, centre + ulp * 0.75 * y as f64])
                .collect();
            p.dedup();
            while p.len() > 1 && p.first() == p.last() {
                p.pop();
            }
            prop_assume!(p.len() >= 3);
            let rings = [pts(&p)];
            let found = contact(&rings);
            prop_assert_eq!(found, reference(&rings));
            prop_assert_eq!(found.is_some(), brute(&rings));
        }
    }
}
