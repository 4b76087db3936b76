//! The broad phase: every triangle's box (in `f32`, rounded outward) on a uniform grid
//! whose cells are numbered along a Morton curve; pairs are tested in one cell only.

use super::{MAX_CELLS, MAX_LARGE, Tri};
use crate::body::BoundingBox;
use rayon::prelude::*;
use rstar::primitives::{GeomWithData, Rectangle};

pub(super) type Boxed = GeomWithData<Rectangle<[f64; 3]>, u32>;

/// A triangle listed in a cell: from the high bits, the cell's [`morton`] number (64 bits), the low x of the triangle's box as [`sortable`] bits (32) and the triangle
/// (32). Sorted, these group triangles by cell, and within a cell by their low x.
pub(super) type Cell = u128;

/// The bits of `x` as an integer of the same order (`total_cmp`'s order).
pub(super) fn sortable(x: f32) -> u32 {
    let b = x.to_bits();
    if b >> 31 == 1 { !b } else { b | (1 << 31) }
}

/// Bits per axis of a packed cell key.
pub(super) const BITS: u32 = 21;
pub(super) const MASK: u64 = (1 << BITS) - 1;

/// Cells along an axis at most.
pub(super) const AXIS_CELLS: u64 = 1 << 20;

/// The triangles' boxes on a uniform grid.
pub(super) struct Grid {
    /// Every (cell, triangle) pair for the boxes that cover at most [`MAX_CELLS`] cells,
    /// sorted (in scratch memory: tens of millions of entries, page faults count).
    pub(super) cells: crate::scratch::Scratch<Cell>,
    /// Where each cell's run of entries starts in `cells`, and its end: found when first
    /// asked for (a grid dropped for another one never needs them).
    starts: std::sync::OnceLock<Vec<usize>>,
    /// The other, large, triangles (ascending).
    pub(super) large: Vec<usize>,
    /// The grid's low corner, cells per unit length along each axis, and cells along each
    /// axis.
    pub(super) lo: [f64; 3],
    pub(super) inv: [f64; 3],
    pub(super) dims: [u64; 3],
}

impl Grid {
    /// Where each cell's run of entries starts in the sorted entries, and their end.
    pub(super) fn starts(&self) -> &[usize] {
        self.starts.get_or_init(|| {
            // SAFETY: every entry was written.
            let cells = unsafe { self.cells.assume_init() };
            (0..cells.len())
                .into_par_iter()
                .filter(|&k| k == 0 || cells[k] >> 64 != cells[k - 1] >> 64)
                .chain(rayon::iter::once(cells.len()))
                .collect()
        })
    }

    /// The cell holding `p`, per axis (monotone in each coordinate).
    pub(super) fn index(&self, p: &[f32; 3]) -> [u64; 3] {
        [0, 1, 2].map(|k| {
            // Truncation is the floor here (c ≥ 0), without a call to libm's floor.
            let c = (p[k] as f64 - self.lo[k]) * self.inv[k];
            if c > 0.0 {
                (c as u64).min(self.dims[k] - 1)
            } else {
                0
            }
        })
    }
}

/// The entries of `after` (those after `e` in a cell, sorted by their boxes' low x) up to
/// the high x of `e`'s box: past it none meets that box (read from the entries, without a
/// look at the other triangles' records).
pub(super) fn reaching<'a>(
    e: Cell,
    after: &'a [Cell],
    tris: &[Tri],
) -> impl Iterator<Item = Cell> + 'a {
    let end = sortable(tris[e as u32 as usize].hi[0]);
    after
        .iter()
        .copied()
        .take_while(move |&f| (f >> 32) as u32 <= end)
}

/// Per-axis cells packed into one key, [`BITS`] each.
pub(super) fn pack(c: [u64; 3]) -> u64 {
    c[0] | (c[1] << BITS) | (c[2] << (2 * BITS))
}

/// A cell's number along the Z-order (Morton) curve: the bits of its three indices
/// interleaved, so that cells near in space are mostly near in number, and a pass over
/// the cells in order reads triangles from a few places of the file at a time.
pub(super) fn morton(c: [u64; 3]) -> u64 {
    // Spreads 21 bits to every third bit.
    pub(super) fn spread(x: u64) -> u64 {
        let mut x = x & MASK;
        x = (x | x << 32) & 0x1f00000000ffff;
        x = (x | x << 16) & 0x1f0000ff0000ff;
        x = (x | x << 8) & 0x100f00f00f00f00f;
        x = (x | x << 4) & 0x10c30c30c30c30c3;
        (x | x << 2) & 0x1249249249249249
    }
    spread(c[0]) | spread(c[1]) << 1 | spread(c[2]) << 2
}

/// The per-axis cells of a [`morton`] number, packed.
pub(super) fn unpack(m: u64) -> u64 {
    pub(super) fn gather(x: u64) -> u64 {
        let mut x = x & 0x1249249249249249;
        x = (x | x >> 2) & 0x10c30c30c30c30c3;
        x = (x | x >> 4) & 0x100f00f00f00f00f;
        x = (x | x >> 8) & 0x1f0000ff0000ff;
        x = (x | x >> 16) & 0x1f00000000ffff;
        (x | x >> 32) & MASK
    }
    pack([gather(m), gather(m >> 1), gather(m >> 2)])
}

/// Puts each triangle's box on a uniform grid over the mesh (setting each `cell` to the
/// cell of its low corner); `None` when the R*-tree suits the mesh better (many large
/// triangles, or a mesh too large for `f32` boxes).
pub(super) fn grid(tris: &mut [Tri]) -> Option<Grid> {
    grid_of(tris, 2.0)
}

/// [`grid`] with cells `factor` times the mean box's longest side (along the axes where the
/// boxes are not thinner).
pub(super) fn grid_of(tris: &mut [Tri], factor: f64) -> Option<Grid> {
    let (lo, inv, dims) = cells_of(tris, factor)?;
    let mut grid = Grid {
        cells: crate::scratch::Scratch::new(0, crate::scratch::Pages::Lazy)?,
        starts: std::sync::OnceLock::new(),
        large: Vec::new(),
        lo,
        inv,
        dims,
    };
    let spans = |t: &Tri| (grid.index(&t.lo), grid.index(&t.hi));
    let covers =
        |(a, b): &([u64; 3], [u64; 3])| (b[0] - a[0] + 1) * (b[1] - a[1] + 1) * (b[2] - a[2] + 1);
    // One pass: how many cells each block's triangles are listed in, and the large
    // triangles. Then each block writes its entries straight into its own stretch of one
    // array (no per-block vectors to join).
    const BLOCK: usize = 1 << 14;
    let per_block: Vec<(usize, Vec<usize>)> = tris
        .par_chunks(BLOCK)
        .enumerate()
        .map(|(k, c)| {
            let (mut len, mut large) = (0, Vec::new());
            for (d, t) in c.iter().enumerate() {
                if !t.in_grid() {
                    continue;
                }
                match covers(&spans(t)) {
                    n if n > MAX_CELLS => large.push(k * BLOCK + d),
                    n => len += n as usize,
                }
            }
            (len, large)
        })
        .collect();
    let large: Vec<usize> = per_block.iter().flat_map(|b| b.1.iter().copied()).collect();
    if large.len() > MAX_LARGE {
        return None;
    }
    let block_len: Vec<usize> = per_block.iter().map(|b| b.0).collect();
    let tris = &*tris;
    let listed = |tri: &Tri| -> Option<([u64; 3], [u64; 3])> {
        if !tri.in_grid() {
            return None;
        }
        let s = spans(tri);
        (covers(&s) <= MAX_CELLS).then_some(s)
    };
    let mut scratch = crate::scratch::Scratch::<Cell>::new(
        block_len.iter().sum(),
        crate::scratch::Pages::Populated,
    )?;
    // SAFETY: zeroed integers.
    let cells = unsafe { scratch.assume_init_mut() };
    {
        let mut stretches = Vec::with_capacity(block_len.len());
        let mut rest = &mut cells[..];
        for &n in &block_len {
            let (head, tail) = rest.split_at_mut(n);
            stretches.push(head);
            rest = tail;
        }
        stretches.into_par_iter().enumerate().for_each(|(k, out)| {
            let mut i = 0;
            let first = k * BLOCK;
            let end = (first + BLOCK).min(tris.len());
            for (d, tri) in tris[first..end].iter().enumerate() {
                let Some((a, b)) = listed(tri) else { continue };
                let tx = (sortable(tri.lo[0]) as u128) << 32 | (first + d) as u128;
                for z in a[2]..=b[2] {
                    for y in a[1]..=b[1] {
                        for x in a[0]..=b[0] {
                            out[i] = (morton([x, y, z]) as u128) << 64 | tx;
                            i += 1;
                        }
                    }
                }
            }
        });
    }
    // By cell, then by the box's low x (for the sweep in each cell), then by triangle.
    cells.par_sort_unstable();
    grid.cells = scratch;
    grid.large = large;
    Some(grid)
}

/// The low corner, cells per unit length along each axis and cells along each axis of
/// [`grid_of`]'s grid of the listed triangles' boxes.
fn cells_of(tris: &[Tri], factor: f64) -> Option<([f64; 3], [f64; 3], [u64; 3])> {
    type Extent = (BoundingBox, [f64; 4], usize);
    let none = || (BoundingBox::empty(), [0.0; 4], 0usize);
    let (extent, sum, count) = tris
        .par_iter()
        .with_min_len(1 << 12)
        .filter(|t| t.in_grid())
        .fold(none, |(mut extent, mut sum, count): Extent, t| {
            let (lo, hi) = (t.lo.map(f64::from), t.hi.map(f64::from));
            extent.include(&lo);
            extent.include(&hi);
            let side = [0, 1, 2].map(|k| hi[k] - lo[k]);
            for k in 0..3 {
                sum[k] += side[k];
            }
            sum[3] += side[0].max(side[1]).max(side[2]);
            (extent, sum, count + 1)
        })
        .reduce(none, |a: Extent, b: Extent| {
            (
                a.0.union(&b.0),
                [0, 1, 2, 3].map(|k| a.1[k] + b.1[k]),
                a.2 + b.2,
            )
        });
    let (lo, hi) = (extent.min, extent.max);
    let size = [hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]];
    let longest = size[0].max(size[1]).max(size[2]);
    let mean = sum[3] / count.max(1) as f64;
    if !(longest.is_finite() && longest > 0.0 && mean.is_finite() && mean > 0.0) {
        return None;
    }
    // Cells twice the mean triangle's longest side (the fastest on a 10^6 sphere), shrunk
    // along an axis where the boxes are thinner on average than along the widest: the
    // slivers of a cylinder's wall (long in z, thin in x and y) would otherwise all share a
    // few tall cells. Fewer than 2^64 cells in all.
    let widest = sum[0].max(sum[1]).max(sum[2]);
    let inv = [0, 1, 2].map(|k| {
        // Only where clearly thinner: on a sphere all three are alike, and its cells stay
        // as they were tuned.
        let thin = if widest > 0.0 && sum[k] < 0.25 * widest {
            sum[k] / widest
        } else {
            1.0
        };
        // At most 1024 times thinner, so that a box long along the thin axis (a sliver
        // lying across it) is not listed in millions of cells.
        let cell = (factor * mean * thin)
            .max(factor * mean / 1024.0)
            .max(longest / AXIS_CELLS as f64);
        1.0 / cell
    });
    if !inv.iter().all(|x| x.is_finite()) {
        return None;
    }
    let dims = [0, 1, 2].map(|k| ((size[k] * inv[k]) as u64).clamp(1, AXIS_CELLS));
    Some((lo, inv, dims))
}

/// The box of three points.
pub(super) fn bounds(c: &[[f64; 3]; 3]) -> ([f64; 3], [f64; 3]) {
    let [a, b, c] = c;
    (
        [0, 1, 2].map(|k| a[k].min(b[k]).min(c[k])),
        [0, 1, 2].map(|k| a[k].max(b[k]).max(c[k])),
    )
}
