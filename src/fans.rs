//! Each point's fan: the triangles around it, listed by point. Made once from the welded
//! point numbers of a surface's corners, the list answers the two questions of topology
//! that the checks ask: which triangle lies across each edge ([`Fans::neighbours`]), and
//! where separate pieces of the surface meet at a point ([`Fans::pinches`]).
//!
//! A corner `k` of triangle `t`, at point `p`, is one *step* around `p`: from the
//! triangle's next corner `x` to its previous one `y`. The list holds each corner's slot
//! `3t + k`, grouped by point as a compressed sparse row: point `p`'s steps are the slots
//! from `start[p]` to `start[p + 1]`, in the order of their triangles. It is made by
//! counting (each core counts the points of its share of the corners, then writes its
//! slots where its share of each point's run begins), not by sorting: 4 bytes a corner
//! and 4 a point. `x` and `y` are read back from the corners' point numbers when a
//! point's run is looked at.
//! Point numbers are exact (the weld compares coordinates bit for bit), so two edges are
//! the same edge only when their ends are the same points: no hash can collide.

use crate::scratch::Shared;
use crate::union_find::UnionFind;
use rayon::prelude::*;

/// No triangle (an edge not shared by exactly two triangles running opposite ways).
pub(crate) const NONE: u32 = u32::MAX;

/// Every corner's step, grouped by point (see the module's documentation).
pub(crate) struct Fans {
    /// Where each point's run of slots starts, and after the last point the end.
    start: Vec<u32>,
    /// The corners' slots `3t + k`, point by point.
    slots: Vec<u32>,
    triangles: usize,
}

/// A step's parts.
#[derive(Clone, Copy)]
struct Step {
    point: u32,
    next: u32,
    prev: u32,
    /// `3t + k`: the corner, and the edge from it to `next`.
    slot: u32,
}

impl Step {
    #[inline]
    fn of(point: u32, slot: u32, ids: &[u32]) -> Step {
        let (k, t3) = (slot % 3, (slot - slot % 3) as usize);
        let at = |j: u32| ids[t3 + ((k + j) % 3) as usize];
        Step {
            point,
            next: at(1),
            prev: at(2),
            slot,
        }
    }

    /// Whether its triangle repeats a point (counts for no fan).
    #[inline]
    fn repeats(&self) -> bool {
        self.point == self.next || self.next == self.prev || self.prev == self.point
    }
}

/// Entries a parallel task takes at least.
const CHUNK: usize = 1 << 14;

impl Fans {
    /// The fans of the triangles whose corners are the point numbers `ids` (three a
    /// triangle), all below `points`; `None` when `ids.len()` does not fit in 32 bits (more
    /// than [`crate::mesh::MAX_TRIANGLES`] triangles). Its questions are asked with the
    /// same `ids`.
    pub(crate) fn new(ids: &[u32], points: usize) -> Option<Fans> {
        let n = ids.len() / 3;
        if 3 * n as u64 > u32::MAX as u64 {
            return None;
        }
        let ids = &ids[..3 * n];
        // One share of the corners a core, each counting its points over the span of
        // point numbers it has (a short span: the weld numbers a neighbourhood's points
        // together), then turning the counts into the places its slots go. Points
        // numbered with no such order (a span much longer than the share) are counted by
        // one share over them all, so that the counts never take more than a few times
        // the list's own memory, however many cores there are.
        let count = |share: &[u32], budget: usize| {
            let lo = share.iter().copied().min().unwrap_or(0) as usize;
            let hi = share.iter().copied().max().unwrap_or(0) as usize;
            if hi + 1 - lo > budget {
                return None;
            }
            let mut count = vec![0u32; hi + 1 - lo];
            for &p in share {
                count[p as usize - lo] += 1;
            }
            Some((lo, count))
        };
        let shares = rayon::current_num_threads().clamp(1, ids.len().div_ceil(CHUNK).max(1));
        let mut size = ids.len().div_ceil(shares).max(1);
        let spread: Option<Vec<(usize, Vec<u32>)>> = ids
            .par_chunks(size)
            .map(|share| count(share, 2 * share.len() + CHUNK))
            .collect();
        let mut counts = match spread {
            Some(counts) => counts,
            None => {
                size = ids.len().max(1);
                ids.chunks(size)
                    .filter_map(|all| count(all, usize::MAX))
                    .collect()
            }
        };
        let points = points.max(counts.iter().map(|(lo, c)| lo + c.len()).max().unwrap_or(0));
        let mut start = vec![0u32; points + 1];
        for (lo, count) in &counts {
            for (s, &c) in start[lo + 1..].iter_mut().zip(count) {
                *s += c;
            }
        }
        for p in 0..points {
            start[p + 1] += start[p];
        }
        // Each share's first place in each of its points' runs: after the earlier shares'.
        let mut fill = start.clone();
        for (lo, count) in &mut counts {
            for (f, c) in fill[*lo..].iter_mut().zip(count.iter_mut()) {
                let here = *c;
                *c = *f;
                *f += here;
            }
        }
        drop(fill);
        let mut slots = vec![0u32; ids.len()];
        let out = Shared(slots.as_mut_ptr());
        ids.par_chunks(size)
            .zip(counts)
            .enumerate()
            .for_each(|(i, (share, (lo, mut at)))| {
                for (j, &p) in share.iter().enumerate() {
                    let place = &mut at[p as usize - lo];
                    // SAFETY: each share writes the places its counts reserved in each
                    // point's run, disjoint from every other share's and below 3n.
                    unsafe { *out.at(*place as usize) = (i * size + j) as u32 };
                    *place += 1;
                }
            });
        Some(Fans {
            start,
            slots,
            triangles: n,
        })
    }

    /// Calls `f` on every point's run of steps (read with the corners' point numbers
    /// `ids`), on every core; the results in order of the points.
    fn runs<R: Send>(&self, ids: &[u32], f: impl Fn(&[Step]) -> R + Sync) -> Vec<R> {
        let (start, points) = (&self.start, self.start.len() - 1);
        // Points in chunks of about CHUNK steps (a hub point's run may be longer).
        let mut cuts = vec![0];
        let mut at = 0;
        while at < points {
            let next = start.partition_point(|&s| (s as u64) < start[at] as u64 + CHUNK as u64);
            at = next.clamp(at + 1, points);
            cuts.push(at);
        }
        cuts.par_windows(2)
            .flat_map_iter(|w| {
                let (lo, hi) = (w[0], w[1]);
                // The chunk's steps decoded in one loop first: its reads of the point
                // numbers do not wait on one another, nor on the runs' work.
                let base = start[lo] as usize;
                let mut steps = Vec::with_capacity(start[hi] as usize - base);
                for p in lo..hi {
                    let run = &self.slots[start[p] as usize..start[p + 1] as usize];
                    steps.extend(run.iter().map(|&slot| Step::of(p as u32, slot, ids)));
                }
                (lo..hi)
                    .filter(|&p| start[p + 1] > start[p])
                    .map(|p| f(&steps[start[p] as usize - base..start[p + 1] as usize - base]))
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    /// For each triangle's edge `k` (`3t + k`, from corner `k` to the next), the triangle
    /// across it when exactly two triangles use the edge, in opposite directions; else
    /// [`NONE`]. With it the hubs.
    pub(crate) fn neighbours(&self, ids: &[u32]) -> (Vec<u32>, Hubs) {
        let (nbr, _, hubs) = self.neighbours_then(ids, |_, _| false);
        (nbr, hubs)
    }

    /// [`Fans::neighbours`], and in the same pass whether some point is a pinch
    /// (a point where separate pieces of the surface meet: [`Fans::pinches`] finds them all).
    pub(crate) fn neighbours_and_pinched(&self, ids: &[u32]) -> (Vec<u32>, bool, Hubs) {
        self.neighbours_then(ids, |run, one| {
            run.len() >= 6 && !(one == Some(true) || pinch(run).is_empty())
        })
    }

    /// The neighbours, whether `then(run, one fan)` holds at some point, given whether its
    /// few steps were seen to make one fan (`None`: not looked at), and the hubs.
    fn neighbours_then<F>(&self, ids: &[u32], then: F) -> (Vec<u32>, bool, Hubs)
    where
        F: Fn(&[Step], Option<bool>) -> bool + Sync,
    {
        let mut nbr = vec![NONE; 3 * self.triangles];
        let out = Shared(nbr.as_mut_ptr());
        let hubs = std::sync::Mutex::new(Hubs::new());
        // Each corner's edge is decided at its start point, where its uses are: the steps
        // going to the same point (this way) and those coming from it (the other way).
        let found = self.runs(ids, |run| {
            let write = |slot: u32, u: u32| {
                // SAFETY: every slot is in exactly one entry, and each entry is looked at
                // once, so no place is written twice; slots are below 3n.
                unsafe { *out.at(slot as usize) = u };
            };
            if run.len() <= FEW {
                let one = few(run, write);
                then(run, Some(one))
            } else {
                hub(run, write);
                if let Ok(mut h) = hubs.lock() {
                    h.push([run[0].point, run[0].slot / 3, run.len() as u32]);
                }
                then(run, None)
            }
        });
        let mut hubs = hubs.into_inner().unwrap_or_default();
        hubs.sort_unstable();
        (nbr, found.contains(&true), hubs)
    }

    /// The points where separate pieces of a closed, consistently wound surface meet (see
    /// [`crate::shells::pinches`]): for each, `(point, triangle, group)` for every triangle
    /// at it that repeats no point, groups numbered from 0 in the order of the triangles;
    /// in order of the points.
    pub(crate) fn pinches(&self, ids: &[u32]) -> Vec<(u32, u32, u32)> {
        self.runs(ids, pinch).into_iter().flatten().collect()
    }
}

/// Runs of at most this many steps are read pairwise; a point with more is a hub.
const FEW: usize = 16;

/// `[point, its first triangle, how many triangles]` for each hub (a point with more than
/// [`FEW`] triangles around it, a fan's apex), in order of the points.
pub(crate) type Hubs = Vec<[u32; 3]>;

/// The neighbours across the edges starting at a point of few steps (`write(slot,
/// triangle)`), and whether the steps make one fan: each followed by the only step that
/// comes from where it goes, round all of them and back, none repeating a point (then the
/// point joins no separate pieces; `false` says nothing).
fn few(run: &[Step], write: impl Fn(u32, u32)) -> bool {
    let step = |i: usize| run[i];
    // The step that follows each (its index), if exactly one does.
    let mut after = [usize::MAX; FEW];
    for (i, &s) in run.iter().enumerate() {
        let (mut same, mut opposite, mut other) = (0, 0, 0);
        for (j, &o) in run.iter().enumerate() {
            same += (o.next == s.next) as u32;
            if o.prev == s.next {
                opposite += 1;
                other = j;
            }
        }
        if opposite == 1 {
            after[i] = other;
            let u = step(other).slot / 3;
            if s.next != s.point && same == 1 && u != s.slot / 3 {
                write(s.slot, u);
            }
        }
    }
    // A fan has at least three triangles: fewer steps than six are one fan or none.
    if run.len() < 6 {
        return false;
    }
    let mut at = 0;
    for taken in 1..=run.len() {
        if step(at).repeats() || after[at] == usize::MAX {
            return false;
        }
        at = after[at];
        if at == 0 {
            return taken == run.len();
        }
    }
    false
}

/// The neighbours across the edges starting at a hub (a fan's centre, many steps), found
/// by binary search.
fn hub(run: &[Step], write: impl Fn(u32, u32)) {
    let mut prevs: Vec<(u32, u32)> = run.iter().map(|o| (o.prev, o.slot / 3)).collect();
    prevs.sort_unstable();
    let mut nexts: Vec<u32> = run.iter().map(|o| o.next).collect();
    nexts.sort_unstable();
    let count = |v: &[u32], x: u32| v.partition_point(|&y| y <= x) - v.partition_point(|&y| y < x);
    for &s in run {
        if s.next == s.point || count(&nexts, s.next) != 1 {
            continue;
        }
        let lo = prevs.partition_point(|&(y, _)| y < s.next);
        let hi = prevs.partition_point(|&(y, _)| y <= s.next);
        if hi - lo == 1 && prevs[lo].1 != s.slot / 3 {
            write(s.slot, prevs[lo].1);
        }
    }
}

/// [`Fans::pinches`] at one point: around it, each of its triangles joins its neighbours
/// `next` and `prev`; a fan is a cycle of them, and fans that share a neighbour (bodies
/// sharing an edge through the point) stay one group, which the overlap check's wedge test
/// looks at. A fan has at least three triangles, so only points of six or more are looked
/// at.
fn pinch(run: &[Step]) -> Vec<(u32, u32, u32)> {
    if run.len() < 6 || (run.len() <= FEW && few(run, |_, _| ())) {
        return Vec::new();
    }
    let mut around: Vec<Step> = run.iter().copied().filter(|s| !s.repeats()).collect();
    if around.len() < 6 {
        return Vec::new();
    }
    // Union-find over the point's neighbours (sorted, found by binary search).
    let mut neighbours: Vec<u32> = around.iter().flat_map(|s| [s.next, s.prev]).collect();
    neighbours.sort_unstable();
    neighbours.dedup();
    let index = |q: u32| neighbours.binary_search(&q).unwrap_or(0);
    let mut fans = UnionFind::new(neighbours.len());
    let mut joins = 0;
    for s in &around {
        joins += fans.union(index(s.next) as u32, index(s.prev) as u32) as usize;
    }
    if neighbours.len() - joins < 2 {
        return Vec::new();
    }
    // Groups numbered in order of first appearance, triangle by triangle.
    around.sort_unstable_by_key(|s| s.slot);
    let (groups, _) = fans.labels(around.iter().map(|s| index(s.next) as u32));
    around
        .iter()
        .zip(groups)
        .map(|(s, group)| (s.point, s.slot / 3, group))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{FEW, Fans, NONE};

    /// Neighbours by brute force: the edge's uses counted over every triangle.
    fn neighbours_by_hand(tris: &[[u32; 3]]) -> Vec<u32> {
        let mut nbr = vec![NONE; 3 * tris.len()];
        for (t, a) in tris.iter().enumerate() {
            for k in 0..3 {
                let (p, x) = (a[k], a[(k + 1) % 3]);
                if p == x {
                    continue;
                }
                let mut same = 0;
                let mut opposite = vec![];
                for (u, b) in tris.iter().enumerate() {
                    for j in 0..3 {
                        let (q, y) = (b[j], b[(j + 1) % 3]);
                        same += (q == p && y == x) as usize;
                        if q == x && y == p {
                            opposite.push(u as u32);
                        }
                    }
                }
                if same == 1 && opposite.len() == 1 && opposite[0] != t as u32 {
                    nbr[3 * t + k] = opposite[0];
                }
            }
        }
        nbr
    }

    #[test]
    fn neighbours_agree_with_counting_every_use() {
        let mut rng = crate::test_rng::Lcg(7);
        for case in 0..300 {
            // Random triangles over few points (shared, doubled and repeated edges), and
            // now and then a hub of many triangles around point 0.
            let points = 3 + rng.below(12) as u32;
            let n = 1 + rng.below(60) as usize;
            let mut tris: Vec<[u32; 3]> = (0..n)
                .map(|_| [0; 3].map(|_| rng.below(points as u64) as u32))
                .collect();
            if case % 5 == 0 {
                tris.extend((1..50).map(|i| [0, i + 20, i + 21]));
            }
            let p = tris.iter().flatten().max().unwrap() + 1;
            let ids = tris.as_flattened();
            let fans = Fans::new(ids, p as usize).unwrap();
            let by_hand = neighbours_by_hand(&tris);
            assert_eq!(fans.neighbours(ids).0, by_hand, "{tris:?}");
            let pinched = !fans.pinches(ids).is_empty();
            let (nbr, found, hubs) = fans.neighbours_and_pinched(ids);
            assert_eq!((nbr, found), (by_hand, pinched), "{tris:?}");
            // The hubs: each point of more than FEW corners, its first triangle and count.
            let mut want = Vec::new();
            for q in 0..p {
                let at: Vec<u32> = (0..tris.len() as u32)
                    .flat_map(|t| tris[t as usize].iter().filter(|&&c| c == q).map(move |_| t))
                    .collect();
                if at.len() > FEW {
                    want.push([q, at[0], at.len() as u32]);
                }
            }
            assert_eq!(hubs, want, "{tris:?}");
        }
    }

    #[test]
    fn shares_counted_by_several_cores_give_the_fans_of_one() {
        // Enough corners for several shares, on points numbered at random (no short spans),
        // with hubs; counted by one core and by five, and the edges' uses by a hash map.
        let mut rng = crate::test_rng::Lcg(11);
        let points = 3000u32;
        let mut tris: Vec<[u32; 3]> = (0..20_000)
            .map(|_| [0; 3].map(|_| rng.below(points as u64) as u32))
            .collect();
        tris.extend((0..500).map(|i| [7, 100 + i, 101 + i]));
        let ids = tris.as_flattened();
        let mut uses = std::collections::HashMap::<(u32, u32), Vec<u32>>::new();
        for (t, a) in tris.iter().enumerate() {
            for k in 0..3 {
                uses.entry((a[k], a[(k + 1) % 3]))
                    .or_default()
                    .push(t as u32);
            }
        }
        let mut want = vec![NONE; ids.len()];
        for (t, a) in tris.iter().enumerate() {
            for k in 0..3 {
                let (p, x) = (a[k], a[(k + 1) % 3]);
                let back = uses.get(&(x, p)).map_or(&[][..], |v| &v[..]);
                if p != x && uses[&(p, x)].len() == 1 && back.len() == 1 && back[0] != t as u32 {
                    want[3 * t + k] = back[0];
                }
            }
        }
        let on = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| {
                let fans = Fans::new(ids, points as usize).unwrap();
                (fans.neighbours(ids).0, fans.pinches(ids))
            })
        };
        let (one, five) = (on(1), on(5));
        assert_eq!(one.0, want);
        assert_eq!(one, five);
        // Point numbers spread far apart (each share's span much longer than the share):
        // counted by one share, the same fans.
        let spread: Vec<u32> = ids.iter().map(|&p| p * 1000).collect();
        let fans = Fans::new(&spread, 1000 * points as usize).unwrap();
        assert_eq!(fans.neighbours(&spread).0, want);
    }

    #[test]
    fn two_tetrahedra_sharing_a_corner_pinch_there() {
        // Tetrahedra (0,1,2,3) and (0,4,5,6), outward, sharing point 0.
        let tet = |a: u32, b: u32, c: u32, d: u32| [[a, c, b], [a, b, d], [a, d, c], [b, c, d]];
        let tris: Vec<[u32; 3]> = [tet(0, 1, 2, 3), tet(0, 4, 5, 6)].concat();
        let ids = tris.as_flattened();
        let fans = Fans::new(ids, 7).unwrap();
        assert!(fans.neighbours_and_pinched(ids).1);
        let groups: Vec<(u32, u32)> = fans.pinches(ids).iter().map(|p| (p.1, p.2)).collect();
        assert_eq!(groups, [(0, 0), (1, 0), (2, 0), (4, 1), (5, 1), (6, 1)]);
        let one: Vec<[u32; 3]> = tet(0, 1, 2, 3).to_vec();
        let ids = one.as_flattened();
        assert!(!Fans::new(ids, 4).unwrap().neighbours_and_pinched(ids).1);
    }
}
