//! The first pass over fixed blocks of triangles: sums, box, area, the closedness
//! certificate, and each block's own weld of its points.

use super::corners::{K, mix};
use super::{PARTITION, Point, Soup};
use crate::body::BoundingBox;
use crate::sums::Sums;

/// What one block of triangles contributes.
pub(super) struct Block<P> {
    pub(super) sums: Sums,
    /// Σ |det|: the scale against which a vanishing volume is judged.
    pub(super) magnitude: f64,
    pub(super) area: f64,
    /// The box of the corners.
    pub(super) bounds: BoundingBox,
    /// Σ f(a, b) over directed edges, wrapping.
    pub(super) edges: u128,
    /// Triangles repeating a corner.
    pub(super) repeated: usize,
    /// Triangles of zero area (distinct corners).
    pub(super) flat: usize,
    /// A corner with a non-finite coordinate.
    pub(super) non_finite: bool,
    /// The block's distinct points, grouped by weld partition (in order of first
    /// appearance within each); the block's corners are numbered by place in this list.
    pub(super) points: Vec<P>,
    /// Where each partition's run starts in `points` (one more for the end).
    pub(super) runs: Vec<u32>,
}

impl<P> Block<P> {
    /// Nothing summed, no point seen.
    fn empty() -> Self {
        Block {
            sums: Sums::default(),
            magnitude: 0.0,
            area: 0.0,
            bounds: BoundingBox::empty(),
            edges: 0,
            repeated: 0,
            flat: 0,
            non_finite: false,
            points: Vec::new(),
            runs: Vec::new(),
        }
    }
}

/// The second hash of a point, for the antisymmetric edge form.
#[inline]
pub(super) fn cohash(h: u64) -> u64 {
    mix(h ^ K[4], K[5])
}

/// `f(a, b) = u(a)·v(b) − u(b)·v(a)`, antisymmetric in (a, b).
#[inline]
pub(super) fn edge(ua: u64, va: u64, ub: u64, vb: u64) -> u128 {
    (ua as u128 * vb as u128).wrapping_sub(ub as u128 * va as u128)
}

pub(super) fn partition_bits(corners: usize) -> u32 {
    let mut bits = 0;
    while bits < 12 && corners >> bits > PARTITION {
        bits += 1;
    }
    bits
}

#[inline]
pub(super) fn partition(h: u64, bits: u32) -> usize {
    if bits == 0 {
        0
    } else {
        (h >> (64 - bits)) as usize
    }
}

pub(super) fn block<S: Soup>(
    soup: &S,
    range: std::ops::Range<usize>,
    r: [f64; 3],
    bits: u32,
    local: &mut [std::mem::MaybeUninit<u16>],
    mut masks: Option<&mut [u8]>,
) -> Block<S::Point> {
    let mut b = Block::empty();
    // First level of the weld, while the block is in cache.
    let mut weld = Local::new(range.len());
    let first = range.start;
    for t in range {
        let tri = soup.triangle(t);
        if !tri.iter().all(Point::is_finite) {
            b.non_finite = true;
            return b;
        }
        // The signed axes it faces, for the overlap check's patches, while its corners
        // are at hand (0 for a degenerate triangle).
        if let Some(m) = masks.as_deref_mut() {
            m[t - first] = crate::overlap::faces_mask(&tri.map(|q| q.coords()));
        }
        let h = [tri[0].hash(), tri[1].hash(), tri[2].hash()];
        for k in 0..3 {
            weld.add(tri[k], h[k]);
        }
        if tri[0] == tri[1] || tri[1] == tri[2] || tri[2] == tri[0] {
            b.repeated += 1;
            continue;
        }
        let v = [cohash(h[0]), cohash(h[1]), cohash(h[2])];
        b.edges = b
            .edges
            .wrapping_add(edge(h[0], v[0], h[1], v[1]))
            .wrapping_add(edge(h[1], v[1], h[2], v[2]))
            .wrapping_add(edge(h[2], v[2], h[0], v[0]));
        let p = [tri[0].coords(), tri[1].coords(), tri[2].coords()];
        let n = crate::mesh::area_vector(p);
        if n == [0.0; 3] {
            b.flat += 1;
            continue;
        }
        b.area += 0.5 * (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
        // Plain comparisons (the coordinates are finite): one instruction each, where
        // f64::min and max spend four on NaN rules.
        let (lo, hi) = (&mut b.bounds.min, &mut b.bounds.max);
        for q in &p {
            for (k, &x) in q.iter().enumerate() {
                lo[k] = if x < lo[k] { x } else { lo[k] };
                hi[k] = if x > hi[k] { x } else { hi[k] };
            }
        }
        let det = b.sums.add(sub(p[0], r), sub(p[1], r), sub(p[2], r));
        b.magnitude += det.abs();
    }
    debug_assert_eq!(weld.ids.len(), local.len());
    (b.points, b.runs) = weld.finish(bits, local);
    b
}

/// A block's corners numbered by [`Local`] alone, for a soup that is only welded (see
/// [`super::welded_points`]): no sums, and any coordinates, finite or not.
pub(super) fn numbered_block<S: Soup>(
    soup: &S,
    range: std::ops::Range<usize>,
    bits: u32,
    local: &mut [std::mem::MaybeUninit<u16>],
) -> Block<S::Point> {
    let mut weld = Local::new(range.len());
    for t in range {
        for p in soup.triangle(t) {
            weld.add(p, p.hash());
        }
    }
    let mut b = Block::empty();
    (b.points, b.runs) = weld.finish(bits, local);
    b
}

/// The first level of the weld, for one block while it is in cache: its distinct points,
/// numbered in order of first appearance (at most 3 · BLOCK < 2^16).
pub(super) struct Local<P> {
    table: Vec<u16>,
    seen: Vec<(P, u64)>,
    /// Each corner's number so far.
    ids: Vec<u16>,
}

impl<P: Point> Local<P> {
    pub(super) fn new(triangles: usize) -> Self {
        Local {
            table: vec![u16::MAX; (6 * triangles).next_power_of_two().max(16)],
            seen: Vec::with_capacity(triangles),
            ids: Vec::with_capacity(3 * triangles),
        }
    }

    /// Numbers the next corner, at `point` (whose hash is `h`).
    #[inline]
    pub(super) fn add(&mut self, point: P, h: u64) {
        let mask = self.table.len() - 1;
        let mut slot = h as usize & mask;
        let id = loop {
            let v = self.table[slot];
            if v == u16::MAX {
                self.table[slot] = self.seen.len() as u16;
                self.seen.push((point, h));
                break self.table[slot];
            }
            if self.seen[v as usize].0 == point {
                break v;
            }
            slot = (slot + 1) & mask;
        };
        self.ids.push(id);
    }

    /// The distinct points, sorted by weld partition (counting sort, stable), with where
    /// each partition's run starts; the corners renumbered to match into `local` (a
    /// point's number is its place in the points).
    pub(super) fn finish(
        self,
        bits: u32,
        local: &mut [std::mem::MaybeUninit<u16>],
    ) -> (Vec<P>, Vec<u32>) {
        let mut runs = vec![0u32; (1 << bits) + 1];
        for (_, h) in &self.seen {
            runs[partition(*h, bits) + 1] += 1;
        }
        for p in 1..runs.len() {
            runs[p] += runs[p - 1];
        }
        let mut at = runs.clone();
        let Some(&(first, _)) = self.seen.first() else {
            return (Vec::new(), runs);
        };
        let mut points = vec![first; self.seen.len()];
        let mut place = vec![0u16; self.seen.len()];
        for (id, (point, h)) in self.seen.into_iter().enumerate() {
            let p = partition(h, bits);
            points[at[p] as usize] = point;
            place[id] = at[p] as u16;
            at[p] += 1;
        }
        for (out, id) in local.iter_mut().zip(self.ids) {
            out.write(place[id as usize]);
        }
        (points, runs)
    }
}

#[inline]
pub(super) fn sub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
