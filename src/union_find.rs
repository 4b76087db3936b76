//! Union-find (disjoint sets) over `u32` indices: path halving, union by rank.
//!
//! The forest is a slice of `u32` links in which zero means "a root of rank 0", so a
//! forest of `n` singletons is `n` zeroed values: a large one can live in zeroed scratch
//! memory (see [`crate::scratch`]) and cost no pass to set up. A link below [`RANKS`] is a
//! root of that rank; any other is its parent's index plus [`RANKS`]. Ranks stay below
//! 32 (a root of rank `r` has at least `2^r` members), so indices up to
//! `u32::MAX - RANKS` fit. Union by rank (rather than by size) keeps a root's whole record
//! in the one value, which is what lets zeroed memory be a forest; the bound is the same,
//! O(α(n)) a step with path halving.

/// Links below this are roots (their value is the rank); others are parents plus this.
const RANKS: u32 = 32;

/// A forest of disjoint sets over `0..n` (`L`: its links, owned or borrowed).
pub(crate) struct UnionFind<L = Vec<u32>> {
    links: L,
}

impl UnionFind<Vec<u32>> {
    /// `n` singletons.
    pub(crate) fn new(n: usize) -> Self {
        UnionFind { links: vec![0; n] }
    }
}

impl<L: AsMut<[u32]>> UnionFind<L> {
    /// The forest whose links are `links`: zeroed (every element alone) or left by an
    /// earlier forest over the same memory.
    pub(crate) fn over(links: L) -> Self {
        UnionFind { links }
    }

    /// The root of `x`'s set, halving the path on the way.
    #[inline]
    pub(crate) fn find(&mut self, mut x: u32) -> u32 {
        let links = self.links.as_mut();
        loop {
            let p = links[x as usize];
            if p < RANKS {
                return x;
            }
            let up = p - RANKS;
            let g = links[up as usize];
            if g >= RANKS {
                links[x as usize] = g;
            }
            x = up;
        }
    }

    /// Whether `x` is the root of its set.
    pub(crate) fn is_root(&mut self, x: u32) -> bool {
        self.links.as_mut()[x as usize] < RANKS
    }

    /// Joins the sets of the two distinct roots `a` and `b`; the root of the whole.
    #[inline]
    pub(crate) fn link(&mut self, a: u32, b: u32) -> u32 {
        debug_assert!(a != b && self.is_root(a) && self.is_root(b));
        let links = self.links.as_mut();
        let (ra, rb) = (links[a as usize], links[b as usize]);
        let (top, under) = if ra < rb { (b, a) } else { (a, b) };
        links[under as usize] = top + RANKS;
        if ra == rb {
            links[top as usize] += 1;
        }
        top
    }

    /// Joins the sets of `a` and `b`; whether they were apart.
    #[inline]
    pub(crate) fn union(&mut self, a: u32, b: u32) -> bool {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra == rb {
            return false;
        }
        self.link(ra, rb);
        true
    }

    /// The label of the set of each of `of`'s elements, sets numbered from 0 in order of
    /// first appearance, and how many there are.
    pub(crate) fn labels(&mut self, of: impl IntoIterator<Item = u32>) -> (Vec<u32>, usize) {
        let mut label = vec![u32::MAX; self.links.as_mut().len()];
        let mut count = 0;
        let labels = of
            .into_iter()
            .map(|x| {
                let r = self.find(x) as usize;
                if label[r] == u32::MAX {
                    label[r] = count;
                    count += 1;
                }
                label[r]
            })
            .collect();
        (labels, count as usize)
    }

    /// Each element's set named by its least element.
    pub(crate) fn least(&mut self) -> Vec<u32> {
        let n = self.links.as_mut().len();
        let mut least = vec![u32::MAX; n];
        (0..n as u32)
            .map(|x| {
                let r = self.find(x) as usize;
                if least[r] == u32::MAX {
                    least[r] = x;
                }
                least[r]
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::UnionFind;

    /// The sets by brute force: labels spread over every pair until nothing changes.
    fn sets_by_hand(n: usize, pairs: &[(u32, u32)]) -> Vec<usize> {
        let mut set: Vec<usize> = (0..n).collect();
        loop {
            let mut changed = false;
            for &(a, b) in pairs {
                let m = set[a as usize].min(set[b as usize]);
                for x in [a, b] {
                    if set[x as usize] != m {
                        set[x as usize] = m;
                        changed = true;
                    }
                }
            }
            if !changed {
                return set;
            }
        }
    }

    #[test]
    fn sets_are_those_of_the_pairs() {
        let mut rng = crate::test_rng::Lcg(46);
        for case in 0..50 {
            let n = 1 + rng.below(200) as usize;
            let pairs: Vec<(u32, u32)> = (0..rng.below(2 * n as u64) as usize)
                .map(|_| (rng.below(n as u64) as u32, rng.below(n as u64) as u32))
                .collect();
            let mut uf = UnionFind::new(n);
            let mut joins = 0;
            for &(a, b) in &pairs {
                joins += uf.union(a, b) as usize;
            }
            let by_hand = sets_by_hand(n, &pairs);
            for a in 0..n {
                for b in 0..n {
                    assert_eq!(
                        uf.find(a as u32) == uf.find(b as u32),
                        by_hand[a] == by_hand[b],
                        "case {case}: {a} and {b}"
                    );
                }
            }
            let roots = (0..n as u32).filter(|&x| uf.is_root(x)).count();
            assert_eq!(roots, n - joins, "case {case}");
        }
    }

    #[test]
    fn labels_follow_first_appearance() {
        let mut uf = UnionFind::new(6);
        assert!(uf.union(4, 1));
        assert!(uf.union(1, 5));
        assert!(!uf.union(5, 4));
        assert!(uf.union(0, 3));
        assert_eq!(uf.labels([5, 2, 3, 4, 0, 2]), (vec![0, 1, 2, 0, 2, 1], 3));
    }

    #[test]
    fn zeroed_memory_is_a_forest_of_singletons_and_keeps_it() {
        let mut links = [0u32; 4];
        {
            let mut uf = UnionFind::over(&mut links[..]);
            assert!((0..4).all(|x| uf.find(x) == x));
            uf.union(0, 2);
        }
        let mut uf = UnionFind::over(&mut links[..]);
        assert_eq!(uf.find(0), uf.find(2));
        assert_ne!(uf.find(0), uf.find(1));
    }

    #[test]
    fn a_long_chain_stays_shallow() {
        // Union by rank: each root's rank is at most log2 of its set's size.
        let n = 1 << 12;
        let mut uf = UnionFind::new(n);
        for x in 1..n as u32 {
            uf.union(x - 1, x);
        }
        let r = uf.find(0);
        assert!((0..n as u32).all(|x| uf.find(x) == r));
        assert!(uf.links[r as usize] <= 12);
    }
}
