//! The second level of the weld (the blocks' points merged by partition) and union-find
//! over the welded points: shells and their labels.

use super::pass::Block;
use super::{KeptPoints, Point};
use crate::scratch::{Pages, Scratch, Shared};
use crate::sums::BLOCK;
use crate::union_find::UnionFind;
use rayon::prelude::*;

/// The second level of the weld: the blocks' distinct points merged by exact coordinates,
/// each partition on its own core. Returns, for every block, the global number of each of
/// its points, and the points by number: numbered densely in order of the first block
/// that has each ([`renumbered`]), as one partition.
pub(super) fn weld<P: Point>(blocks: &[Block<P>], bits: u32) -> Weld<P> {
    let parts = 1usize << bits;
    let mut start = vec![0usize; parts + 1];
    for b in blocks {
        for p in 0..parts {
            start[p + 1] += (b.runs[p + 1] - b.runs[p]) as usize;
        }
    }
    for p in 0..parts {
        start[p + 1] += start[p];
    }
    let mut global: Vec<Vec<u32>> = blocks.iter().map(|b| vec![0; b.points.len()]).collect();
    let out: Vec<Shared<u32>> = global.iter_mut().map(|g| Shared(g.as_mut_ptr())).collect();
    // Each partition's points in order of their numbers, and the runs of them that each
    // block brought in (block, how many): blocks are merged in order, so the points a block
    // is the first to have are numbered together.
    let merged: Vec<Merged<P>> = (0..parts)
        .into_par_iter()
        .map(|p| {
            let size = (2 * (start[p + 1] - start[p])).next_power_of_two().max(16);
            let mut table = vec![u32::MAX; size];
            let mut seen: Vec<P> = Vec::with_capacity(start[p + 1] - start[p]);
            let mut firsts: Vec<(u32, u32)> = Vec::new();
            for (k, (b, out)) in blocks.iter().zip(&out).enumerate() {
                let before = seen.len();
                let run = b.runs[p] as usize..b.runs[p + 1] as usize;
                for (point, i) in b.points[run.clone()].iter().zip(run) {
                    let mut slot = point.hash() as usize & (size - 1);
                    let id = loop {
                        let v = table[slot];
                        if v == u32::MAX {
                            table[slot] = seen.len() as u32;
                            seen.push(*point);
                            break table[slot];
                        }
                        if seen[v as usize] == *point {
                            break v;
                        }
                        slot = (slot + 1) & (size - 1);
                    };
                    // SAFETY: `i` < the block's point count (the length of its `global`
                    // vector), and each of a block's points lies in exactly one partition's
                    // run, so each place is written once, by one thread.
                    unsafe { *out.at(i) = start[p] as u32 + id };
                }
                if seen.len() > before {
                    firsts.push((k as u32, (seen.len() - before) as u32));
                }
            }
            (seen, firsts)
        })
        .collect();
    renumbered(global, &start, merged)
}

/// A weld partition's points, in order of their numbers, and the runs of them each block
/// brought in: (block, how many).
type Merged<P> = (Vec<P>, Vec<(u32, u32)>);

/// The weld with its points numbered densely in order of the first block that has each
/// (then by partition and rank), as one partition: the partitions' numbers follow the
/// points' hashes, which scatters the points of neighbouring triangles over the
/// numbering; now they lie together, and what reads points by number (the fans, the
/// union-find, the checks reading corners from the kept points) reads nearby memory.
/// `merged`: each partition's points, numbered from `start[p]`, and the runs of them
/// each block brought in.
fn renumbered<P: Point>(
    mut global: Vec<Vec<u32>>,
    start: &[usize],
    merged: Vec<Merged<P>>,
) -> Weld<P> {
    // Where each block's new points start, and each run's first new number within them
    // (partitions in order).
    let mut at = vec![0usize; global.len()];
    for (_, firsts) in &merged {
        for &(b, count) in firsts {
            at[b as usize] += count as usize;
        }
    }
    let mut total = 0;
    for a in at.iter_mut() {
        (*a, total) = (total, total + *a);
    }
    let bases: Vec<Vec<usize>> = merged
        .iter()
        .map(|(_, firsts)| {
            firsts
                .iter()
                .map(|&(b, count)| {
                    let base = at[b as usize];
                    at[b as usize] += count as usize;
                    base
                })
                .collect()
        })
        .collect();
    drop(at);
    let size = start.last().copied().unwrap_or(0);
    let mut new = vec![0u32; size];
    let mut ordered: Vec<P> = Vec::with_capacity(total);
    {
        let (new_at, point_at) = (Shared(new.as_mut_ptr()), Shared(ordered.as_mut_ptr()));
        merged
            .par_iter()
            .zip(&bases)
            .enumerate()
            .for_each(|(p, ((seen, firsts), bases))| {
                let mut r = 0;
                for (&(_, count), &base) in firsts.iter().zip(bases) {
                    for k in 0..count as usize {
                        // SAFETY: partition `p`'s old numbers `start[p] + r` are its own,
                        // and the runs' new numbers (below `total`, the capacity of
                        // `ordered`) are disjoint: each place is written once, by one
                        // thread.
                        unsafe {
                            *new_at.at(start[p] + r) = (base + k) as u32;
                            point_at.at(base + k).write(seen[r]);
                        }
                        r += 1;
                    }
                }
            });
    }
    // SAFETY: the runs cover every point once, and number `total` of them.
    unsafe { ordered.set_len(total) };
    drop(merged);
    global.par_iter_mut().for_each(|g| {
        for x in g.iter_mut() {
            *x = new[*x as usize];
        }
    });
    Weld {
        global,
        start: vec![0, total],
        points: vec![ordered],
    }
}

/// What the weld found.
pub(super) struct Weld<P> {
    /// For each block, the number of each of its points.
    pub(super) global: Vec<Vec<u32>>,
    /// Each partition's first number (one more for the end: the size of the numbering).
    pub(super) start: Vec<usize>,
    /// Each partition's distinct points, in order of their numbers.
    pub(super) points: Vec<Vec<P>>,
}

impl<P: Point> Weld<P> {
    pub(super) fn distinct(&self) -> usize {
        self.points.iter().map(Vec::len).sum()
    }

    /// Each point number's coordinates, by number (the numbering is dense, one partition
    /// once renumbered), in `f32` when every coordinate is exactly one.
    pub(super) fn coords(&self) -> KeptPoints {
        debug_assert!(self.points.len() <= 1);
        let all: &[P] = self.points.first().map_or(&[], Vec::as_slice);
        let mut single = vec![[0.0f32; 3]; all.len()];
        let exact = single
            .par_iter_mut()
            .zip(all)
            .with_min_len(1 << 12)
            .all(|(out, p)| {
                let c = p.coords();
                *out = c.map(|x| x as f32);
                (0..3).all(|k| f64::from(out[k]) == c[k])
            });
        if exact {
            KeptPoints::Single(single)
        } else {
            drop(single);
            KeptPoints::Double(all.par_iter().map(|p| p.coords()).collect())
        }
    }
}

/// The connected components of the triangles that do not repeat a vertex, by union-find
/// over point numbers below `ids` (`repeated`: whether some triangles do).
pub(super) struct Components {
    /// The points' forest ([`UnionFind`] links; zeroed: every point alone).
    pub(super) parent: Scratch<u32>,
    /// How many there are.
    pub(super) count: usize,
}

/// The triangle `t` of a block as point numbers.
#[inline]
pub(super) fn numbered(t: &[u16], g: &[u32]) -> [u32; 3] {
    [g[t[0] as usize], g[t[1] as usize], g[t[2] as usize]]
}

/// Whether a triangle repeats a point.
#[inline]
pub(super) fn repeats(t: &[u32; 3]) -> bool {
    t[0] == t[1] || t[1] == t[2] || t[2] == t[0]
}

pub(super) fn components(
    local: &[u16],
    global: &[Vec<u32>],
    ids: usize,
    distinct: usize,
    repeated: bool,
) -> Option<Components> {
    let mut scratch = Scratch::<u32>::new(ids, Pages::Populated)?;
    // SAFETY: zeroed u32s.
    let parent: &mut [u32] = unsafe { &mut *(scratch.uninit() as *mut [_] as *mut [u32]) };
    let mut points = UnionFind::over(parent);
    let mut unions = 0;
    for (l, g) in local.chunks(3 * BLOCK).zip(global) {
        for t in l.chunks_exact(3) {
            let t = numbered(t, g);
            if repeats(&t) {
                continue;
            }
            // One find of the first corner's root, as linking keeps it current.
            let mut r0 = points.find(t[0]);
            for &v in &t[1..] {
                let r = points.find(v);
                if r != r0 {
                    r0 = points.link(r0, r);
                    unions += 1;
                }
            }
        }
    }
    // Each union joins two components of the points in use.
    let used = if repeated {
        let mut used = vec![false; ids];
        for (l, g) in local.chunks(3 * BLOCK).zip(global) {
            for t in l.chunks_exact(3) {
                let t = numbered(t, g);
                if !repeats(&t) {
                    for v in t {
                        used[v as usize] = true;
                    }
                }
            }
        }
        used.iter().filter(|u| **u).count()
    } else {
        distinct
    };
    Some(Components {
        parent: scratch,
        count: used - unions,
    })
}

impl Components {
    /// Each triangle's component, numbered in order of first appearance
    /// ([`crate::shells::NONE`] for a triangle that repeats a point), as the one path
    /// numbers its shells.
    pub(super) fn labels(&mut self, local: &[u16], global: &[Vec<u32>]) -> Option<Vec<u32>> {
        // SAFETY: zeroed or written u32s.
        let parent: &mut [u32] = unsafe { &mut *(self.parent.uninit() as *mut [_] as *mut [u32]) };
        let len = parent.len();
        let mut points = UnionFind::over(parent);
        // Each root's label plus one (0: not numbered yet).
        let mut scratch = Scratch::<u32>::new(len, Pages::Lazy)?;
        // SAFETY: zeroed u32s.
        let label_of: &mut [u32] = unsafe { scratch.assume_init_mut() };
        let mut labels = Vec::with_capacity(local.len() / 3);
        let mut next = 0u32;
        for (l, g) in local.chunks(3 * BLOCK).zip(global) {
            for t in l.chunks_exact(3) {
                let t = numbered(t, g);
                if repeats(&t) {
                    labels.push(crate::shells::NONE);
                    continue;
                }
                let r = points.find(t[0]) as usize;
                if label_of[r] == 0 {
                    next += 1;
                    label_of[r] = next;
                }
                labels.push(label_of[r] - 1);
            }
        }
        Some(labels)
    }
}

/// Each corner's point number (see [`weld`]), block by block on every core.
pub(super) fn point_numbers(local: &[u16], global: &[Vec<u32>]) -> Vec<u32> {
    let mut ids = vec![0u32; local.len()];
    ids.par_chunks_mut(3 * BLOCK)
        .zip(local.par_chunks(3 * BLOCK))
        .zip(global)
        .for_each(|((out, l), g)| {
            for (o, &c) in out.iter_mut().zip(l) {
                *o = g[c as usize];
            }
        });
    ids
}
