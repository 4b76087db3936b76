//! Sorted (or grouped) lists of `u128` entries made in place: each block of items makes
//! its entries twice, once to count them by bucket and once to write them where their
//! bucket starts, then each bucket is put in order on its own. The list here (the corners
//! of a mesh by point, `crate::fans`) is tens of millions of entries whose leading bits
//! spread evenly over the buckets: a comparison sort of the whole list touches every entry
//! some twenty times from memory, while each bucket here fits in the cache. No second
//! buffer is needed, since the entries are made, not moved.

use crate::scratch::{Scratch, Shared};
use rayon::prelude::*;

/// Items per block: the unit of parallel work and of counting.
const BLOCK: usize = 1 << 14;

/// The entries that `make(item, emit)` emits for each of `items` items, in order of their
/// buckets, each bucket put in order by `within` (given the bucket's entries in the order
/// of the items that made them; `<[u128]>::sort_unstable` sorts the whole list, a caller
/// that needs the entries only grouped by a key can do with less), in scratch memory
/// (`None` if it cannot be had). `bucket(entry)` must not decrease as entries grow, and be
/// below `buckets`; `make` must emit the same entries both times it is called for an item.
pub(crate) fn sorted<T, M, B, W>(
    items: usize,
    buckets: usize,
    bucket: B,
    make: M,
    within: W,
) -> Option<Scratch<T>>
where
    T: Copy + Send + Sync,
    M: Fn(usize, &mut dyn FnMut(T)) + Sync,
    B: Fn(T) -> usize + Sync,
    W: Fn(&mut [T]) + Sync,
{
    let blocks = items.div_ceil(BLOCK);
    let range = |b: usize| b * BLOCK..((b + 1) * BLOCK).min(items);
    // Each block's count per bucket.
    let counts: Vec<Vec<u32>> = (0..blocks)
        .into_par_iter()
        .map(|b| {
            let mut count = vec![0u32; buckets];
            for i in range(b) {
                make(i, &mut |e| count[bucket(e)] += 1);
            }
            count
        })
        .collect();
    // Where each bucket starts, and where each block writes in it.
    let mut starts = vec![0usize; buckets + 1];
    let mut at: Vec<Vec<usize>> = vec![Vec::with_capacity(buckets); blocks];
    let mut total = 0usize;
    for k in 0..buckets {
        starts[k] = total;
        for (b, count) in counts.iter().enumerate() {
            at[b].push(total);
            total += count[k] as usize;
        }
    }
    starts[buckets] = total;
    drop(counts);
    let mut scratch = Scratch::<T>::new(total, false)?;
    {
        // Every place is written below before any is read: the blocks' counts add up to
        // `total`, and `make` emits the same entries the second time.
        let shared = Shared(scratch.uninit().as_mut_ptr().cast::<T>());
        at.into_par_iter().enumerate().for_each(|(b, mut at)| {
            for i in range(b) {
                make(i, &mut |e| {
                    let k = bucket(e);
                    // SAFETY: block `b`'s entries of bucket `k` take the places from
                    // `at[k]` on, as many as it counted: disjoint from every other
                    // block's and bucket's, and below `total`.
                    unsafe { *shared.at(at[k]) = e };
                    at[k] += 1;
                });
            }
        });
        starts.par_windows(2).with_min_len(16).for_each(|w| {
            // SAFETY: the buckets' stretches are disjoint, within `total`.
            let part = unsafe { std::slice::from_raw_parts_mut(shared.at(w[0]), w[1] - w[0]) };
            within(part);
        });
    }
    Some(scratch)
}

/// How many buckets suit `entries` entries: about a thousand entries each, at most 2^12
/// (more buckets than that make each block scatter its entries over too many places).
pub(crate) fn bits_for(entries: usize) -> u32 {
    let mut bits = 0;
    while bits < 12 && entries >> (bits + 10) > 0 {
        bits += 1;
    }
    bits
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_come_out_sorted_and_complete() {
        // A few entries per item, some items none, keys spread or crowded into one bucket.
        for (items, bits, crowd) in [
            (0, 0, false),
            (1, 0, false),
            (100_000, 6, false),
            (70_000, 4, true),
        ] {
            let make = |i: usize, emit: &mut dyn FnMut(u128)| {
                let h = (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
                let key = if crowd { h >> 60 } else { h };
                for r in 0..(i % 4) as u128 {
                    emit((key as u128) << 64 | (i as u128) << 2 | r);
                }
            };
            let bucket =
                |e: u128| ((e >> 64) as u64 >> (64 - bits.max(1))) as usize * (bits > 0) as usize;
            let got = sorted(items, 1 << bits, bucket, make, |p| p.sort_unstable()).unwrap();
            let got = unsafe { got.assume_init() }.to_vec();
            let mut want = Vec::new();
            for i in 0..items {
                make(i, &mut |e| want.push(e));
            }
            want.sort_unstable();
            assert_eq!(got, want);
        }
    }
}
