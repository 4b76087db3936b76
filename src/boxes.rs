//! Boxes that meet: which of many axis-aligned boxes (bodies' or shells' bounds) meet
//! another, on a uniform grid filled by a counting sort on every core; and the outward
//! rounding of `f64` boxes to `f32` (boxes that meet in `f64` meet in `f32`) that the
//! overlap check's records use too.

use crate::body::BoundingBox;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

/// Candidate pairs per listed entry (a triangle, a box) beyond which a grid is crowded: a
/// sphere's grid has about 10 (its cells are tuned to hold a few triangles each).
const CROWDED: u64 = 64;

/// The pairs within a grid's cells (`Σ k(k−1)/2` over cells of `k` entries; cell `c`'s
/// entries are `starts[c]..starts[c + 1]`), and whether they exceed [`CROWDED`] per entry.
pub(crate) fn crowded(starts: &[usize]) -> (u64, bool) {
    let pairs: u64 = starts
        .par_windows(2)
        .with_min_len(1 << 10)
        .map(|w| {
            let k = (w[1] - w[0]) as u64;
            k * k.saturating_sub(1) / 2
        })
        .sum();
    let entries = starts.last().copied().unwrap_or(0) as u64;
    (pairs, pairs > CROWDED * entries)
}

/// The frame (as rows) whose first axis is the direction most of the triangles' longest
/// edges run along: the leading eigenvector of the sum of `u uᵀ` over those edges' unit
/// directions `u`, for the triangles `0..n` whose `corners` are given. `None` when the
/// edges run every way alike (the largest eigenvalue not twice the next: nothing to gain)
/// or the sum is not finite.
///
/// Needles or struts along a diagonal have boxes as wide as they are long, so that nearly
/// every box meets every other; seen in this frame, the same boxes are as thin as the
/// slivers. Any linear map keeps what a box test needs (a point common to two triangles
/// maps to a point common to their images), so the frame need not be exactly a rotation;
/// [`turn`] bounds the rounding of the turned coordinates.
pub(crate) fn along_slivers<F>(n: usize, corners: F) -> Option<nalgebra::Matrix3<f64>>
where
    F: Fn(usize) -> Option<[[f64; 3]; 3]> + Sync,
{
    use nalgebra::{Matrix3, SymmetricEigen, Vector3};
    let norm2 = |v: &[f64; 3]| v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
    let sum = (0..n)
        .into_par_iter()
        .with_min_len(1 << 12)
        .filter_map(&corners)
        .map(|c| {
            let e = (0..3)
                .map(|k| {
                    let (p, q) = (c[k], c[(k + 1) % 3]);
                    [q[0] - p[0], q[1] - p[1], q[2] - p[2]]
                })
                .max_by(|a, b| norm2(a).total_cmp(&norm2(b)))
                .unwrap_or([0.0; 3]);
            // Unit directions: every sliver counts alike, whatever its length.
            let l = norm2(&e).sqrt();
            let u = Vector3::from(e.map(|x| x / l));
            if l > 0.0 && l.is_finite() {
                u * u.transpose()
            } else {
                Matrix3::zeros()
            }
        })
        .reduce(Matrix3::zeros, |a, b| a + b);
    if !sum.iter().all(|x| x.is_finite()) {
        return None;
    }
    let eigen = SymmetricEigen::new(sum);
    let mut order = [0, 1, 2];
    order.sort_by(|&a, &b| eigen.eigenvalues[b].total_cmp(&eigen.eigenvalues[a]));
    if eigen.eigenvalues[order[0]] < 2.0 * eigen.eigenvalues[order[1]] {
        return None;
    }
    let row = |k: usize| eigen.eigenvectors.column(order[k]).transpose();
    Some(Matrix3::from_rows(&[row(0), row(1), row(2)]))
}

/// `p` turned by `frame` (rows), computed in `f64`, and for each coordinate a bound on how
/// far the computed value lies from the exact one (three products and two sums, each
/// within ε of its exact value, and the bound's own rounding).
#[inline]
pub(crate) fn turn(frame: &nalgebra::Matrix3<f64>, p: &[f64; 3]) -> ([f64; 3], [f64; 3]) {
    let mut x = [0.0; 3];
    let mut err = [0.0; 3];
    for k in 0..3 {
        let r = [frame[(k, 0)], frame[(k, 1)], frame[(k, 2)]];
        x[k] = r[0] * p[0] + r[1] * p[1] + r[2] * p[2];
        err[k] =
            8.0 * f64::EPSILON * ((r[0] * p[0]).abs() + (r[1] * p[1]).abs() + (r[2] * p[2]).abs());
    }
    (x, err)
}

/// At most this many boxes spanning many cells are tested against every box; more, and
/// the boxes do not suit a grid.
const MAX_LARGE: usize = 64;

/// The largest `f32` not above `x` (never `-0.0`, so that the broad phase's sort keys
/// order boxes as `<=` compares them).
#[inline]
pub(crate) fn down(x: f64) -> f32 {
    let f = x as f32;
    (if f as f64 > x { f.next_down() } else { f }) + 0.0
}

/// The smallest `f32` not below `x` (never `-0.0`).
#[inline]
pub(crate) fn up(x: f64) -> f32 {
    let f = x as f32;
    (if (f as f64) < x { f.next_up() } else { f }) + 0.0
}

/// For each box (low and high corners; an empty one has a low above its high), whether it
/// meets another: the boxes, rounded outward to `f32` (so that boxes meeting in `f64` meet
/// there), listed in the cells of a uniform grid (cells about four mean boxes wide, about
/// two per box in all) by a counting sort on every core, and each cell's boxes tested
/// against one another. `None` when the boxes do not suit a grid (all of them points, or
/// more than [`MAX_LARGE`] spanning many cells), or are a crowd (nearly
/// every box meeting every other, so that their pairs would grow as the square of their
/// number).
pub(crate) fn meets_another(boxes: &[BoundingBox]) -> Option<Vec<bool>> {
    let n = boxes.len();
    if n >= u32::MAX as usize {
        return None;
    }
    let b32: Vec<B> = boxes
        .par_iter()
        .map(|b| {
            if !b.is_empty() {
                (b.min.map(down), b.max.map(up))
            } else {
                ([f32::INFINITY; 3], [f32::NEG_INFINITY; 3])
            }
        })
        .collect();
    let (extent, sum, count) = extent(&b32);
    let (lo, hi) = (extent.min, extent.max);
    if count < 2 {
        return Some(vec![false; n]);
    }
    let size = [0, 1, 2].map(|k| hi[k] - lo[k]);
    let longest = size[0].max(size[1]).max(size[2]);
    let mut cell = (4.0 * sum / count as f64).max(longest / (1 << 20) as f64);
    if !(cell.is_finite() && cell > 0.0) {
        return None;
    }
    let dims_of = |cell: f64| size.map(|s| ((s / cell) as usize).clamp(1, 1 << 20));
    while dims_of(cell).iter().map(|&d| d as f64).product::<f64>() > (2 * count + 64) as f64 {
        cell *= 2.0;
    }
    let (inv, dims) = (1.0 / cell, dims_of(cell));
    let at = |p: f32, k: usize| {
        let c = (p as f64 - lo[k]) * inv;
        if c > 0.0 {
            (c as usize).min(dims[k] - 1)
        } else {
            0
        }
    };
    let span = |b: &B| {
        (
            [0, 1, 2].map(|k| at(b.0[k], k)),
            [0, 1, 2].map(|k| at(b.1[k], k)),
        )
    };
    let covers = |(a, b): &([usize; 3], [usize; 3])| {
        (b[0] - a[0] + 1) * (b[1] - a[1] + 1) * (b[2] - a[2] + 1)
    };
    let each_cell = |(a, b): ([usize; 3], [usize; 3]), f: &mut dyn FnMut(usize)| {
        for z in a[2]..=b[2] {
            for y in a[1]..=b[1] {
                for x in a[0]..=b[0] {
                    f(x + dims[0] * (y + dims[1] * z));
                }
            }
        }
    };
    // Boxes spanning more cells than this are tested against every box.
    const SPAN: usize = 64;
    let cells = dims[0] * dims[1] * dims[2];
    let counts: Vec<AtomicU32> = (0..=cells).map(|_| AtomicU32::new(0)).collect();
    let large: Vec<usize> = b32
        .par_iter()
        .enumerate()
        .with_min_len(1 << 12)
        .filter_map(|(i, b)| {
            if !filled(b) {
                return None;
            }
            let s = span(b);
            if covers(&s) > SPAN {
                return Some(i);
            }
            each_cell(s, &mut |c| {
                counts[c + 1].fetch_add(1, Ordering::Relaxed);
            });
            None
        })
        .collect();
    if large.len() > MAX_LARGE {
        return None;
    }
    let mut start: Vec<usize> = counts
        .into_iter()
        .map(|c| c.into_inner() as usize)
        .collect();
    for c in 1..start.len() {
        start[c] += start[c - 1];
    }
    // Listed in a crowd: as many pairs as the broad phase would call crowded. Or more
    // entries than 32-bit places can number (boxes spanning up to 64 cells each).
    if crowded(&start).1 || start[cells] > u32::MAX as usize {
        return None;
    }
    let fill: Vec<AtomicU32> = start[..cells]
        .iter()
        .map(|&s| AtomicU32::new(s as u32))
        .collect();
    let entries: Vec<AtomicU32> = (0..start[cells]).map(|_| AtomicU32::new(0)).collect();
    b32.par_iter()
        .enumerate()
        .with_min_len(1 << 12)
        .for_each(|(i, b)| {
            if !filled(b) {
                return;
            }
            let s = span(b);
            if covers(&s) > SPAN {
                return;
            }
            each_cell(s, &mut |c| {
                let e = fill[c].fetch_add(1, Ordering::Relaxed);
                entries[e as usize].store(i as u32, Ordering::Relaxed);
            });
        });
    let entries: Vec<u32> = entries.into_iter().map(AtomicU32::into_inner).collect();
    Some(meeting(&b32, &start, &entries, &large))
}

/// A box rounded outward to `f32` (low and high corners; empty: low +∞, high −∞).
type B = ([f32; 3], [f32; 3]);

/// Whether a box holds a point.
fn filled(b: &B) -> bool {
    b.0[0] <= b.1[0]
}

/// Whether two boxes meet.
fn meet(a: &B, b: &B) -> bool {
    (0..3).all(|k| a.0[k] <= b.1[k] && b.0[k] <= a.1[k])
}

/// The extent of the boxes that hold a point, the sum of their longest sides, and how
/// many they are.
fn extent(b32: &[B]) -> (BoundingBox, f64, usize) {
    type Extent = (BoundingBox, f64, usize);
    let none = || (BoundingBox::empty(), 0.0, 0);
    b32.par_iter()
        .with_min_len(1 << 12)
        .filter(|b| filled(b))
        .fold(none, |(mut extent, sum, count): Extent, b| {
            let (lo, hi) = (b.0.map(f64::from), b.1.map(f64::from));
            extent.include(&lo);
            extent.include(&hi);
            let longest = (0..3).fold(0.0f64, |l, k| l.max(hi[k] - lo[k]));
            (extent, sum + longest, count + 1)
        })
        .reduce(none, |a: Extent, b: Extent| {
            (a.0.union(&b.0), a.1 + b.1, a.2 + b.2)
        })
}

/// Whether each box meets another: every pair of boxes within a cell (`start`: where each
/// cell's run of `entries` starts), and the `large` boxes against every box.
fn meeting(b32: &[B], start: &[usize], entries: &[u32], large: &[usize]) -> Vec<bool> {
    let busy: Vec<AtomicBool> = (0..b32.len()).map(|_| AtomicBool::new(false)).collect();
    let mark = |i: usize, j: usize| {
        if meet(&b32[i], &b32[j]) {
            busy[i].store(true, Ordering::Relaxed);
            busy[j].store(true, Ordering::Relaxed);
        }
    };
    // In each cell, every pair of its boxes (a pair listed in several cells is tested in
    // each: it only sets the same two flags again).
    start.par_windows(2).with_min_len(1 << 10).for_each(|w| {
        let run = &entries[w[0]..w[1]];
        for (x, &i) in run.iter().enumerate() {
            for &j in &run[x + 1..] {
                mark(i as usize, j as usize);
            }
        }
    });
    // The boxes spanning many cells, against every box.
    large.par_iter().for_each(|&i| {
        for (j, b) in b32.iter().enumerate() {
            if j != i && filled(b) {
                mark(i, j);
            }
        }
    });
    busy.into_iter().map(AtomicBool::into_inner).collect()
}

#[cfg(test)]
mod tests {
    use super::{BoundingBox, MAX_LARGE, meets_another};
    use crate::test_rng::Lcg;

    type Box3 = BoundingBox;

    /// The box from `min` to `max`.
    fn b(min: [f64; 3], max: [f64; 3]) -> Box3 {
        BoundingBox { min, max }
    }

    /// Every pair, in `f64`.
    fn brute(boxes: &[Box3]) -> Vec<bool> {
        let meet =
            |a: &Box3, b: &Box3| (0..3).all(|k| a.min[k] <= b.max[k] && b.min[k] <= a.max[k]);
        let filled = |b: &Box3| (0..3).all(|k| b.min[k] <= b.max[k]);
        (0..boxes.len())
            .map(|i| {
                filled(&boxes[i])
                    && (0..boxes.len())
                        .any(|j| j != i && filled(&boxes[j]) && meet(&boxes[i], &boxes[j]))
            })
            .collect()
    }

    /// Boxes of every size at random, some empty, some spanning the whole field, some
    /// touching exactly (one's high corner on another's low), some far off: the grid says
    /// what every pair says, except that boxes apart by less than `f32` can tell may be
    /// said to meet (never the other way round).
    #[test]
    fn the_grid_finds_what_every_pair_finds() {
        let mut rng = Lcg(0x00b0_c5e5);
        let (mut decided, mut met) = (0, 0);
        for case in 0..200 {
            let n = 2 + rng.below(300) as usize;
            let field = [10.0, 100.0, 1e6][case % 3];
            let at = [0.0, 0.0, 1e7][case % 5 / 2];
            let mut boxes: Vec<Box3> = Vec::new();
            for k in 0..n {
                let lo = [0, 1, 2].map(|_| at + (rng.unit() * field).round());
                let side = match k % 17 {
                    0 => field, // spanning many cells
                    1 => -1.0,  // empty
                    2 => 0.0,   // a point
                    _ => (rng.unit() * 3.0).round(),
                };
                boxes.push(b(lo, lo.map(|x| x + side)));
                if k % 23 == 5 {
                    // Touching the last one at its high corner exactly.
                    let hi = boxes[k].max;
                    boxes.push(b(hi, hi.map(|x| x + 1.0)));
                }
            }
            let want = brute(&boxes);
            match meets_another(&boxes) {
                Some(got) => {
                    assert_eq!(got, want, "case {case}");
                    decided += 1;
                    met += got.iter().filter(|&&m| m).count();
                }
                // Too many large boxes, or a crowd: then every pair must be looked at.
                None => assert!(
                    boxes
                        .iter()
                        .filter(|b| b.max[0] - b.min[0] == field)
                        .count()
                        > MAX_LARGE
                        || want.iter().filter(|&&m| m).count() > n / 2,
                    "case {case}"
                ),
            }
        }
        assert!(decided > 150 && met > 1000, "{decided} {met}");
    }

    /// Boxes nearer than `f32` can tell are said to meet; nothing apart by more is.
    #[test]
    fn boxes_apart_by_less_than_f32_can_tell_are_said_to_meet() {
        let a = b([0.0; 3], [1.0; 3]);
        let near = b([1.0 + 1e-12, 0.0, 0.0], [2.0, 1.0, 1.0]);
        let far = b([5.0, 0.0, 0.0], [6.0, 1.0, 1.0]);
        assert_eq!(
            meets_another(&[a, near, far]),
            Some(vec![true, true, false])
        );
        assert_eq!(brute(&[a, near, far]), vec![false, false, false]);
    }

    /// Every box meeting every other (a bundle of boxes sliding along x): a crowd, left to
    /// the caller; spread apart, none meets another.
    #[test]
    fn a_crowd_is_left_to_the_caller() {
        let crowd: Vec<Box3> = (0..400)
            .map(|k| {
                b(
                    [0.01 * k as f64, 0.0, 0.0],
                    [0.01 * k as f64 + 10.0, 1.0, 1.0],
                )
            })
            .collect();
        assert_eq!(meets_another(&crowd), None);
        let apart: Vec<Box3> = (0..400)
            .map(|k| {
                b(
                    [20.0 * k as f64, 0.0, 0.0],
                    [20.0 * k as f64 + 10.0, 1.0, 1.0],
                )
            })
            .collect();
        assert_eq!(meets_another(&apart), Some(vec![false; 400]));
        // One box, or none with an inside: nothing to meet.
        assert_eq!(meets_another(&apart[..1]), Some(vec![false]));
        assert_eq!(
            meets_another(&[b([1.0; 3], [0.0; 3]); 3]),
            Some(vec![false; 3])
        );
    }
}
