//! The sweep's active edges, bottom to top: a B+ tree with wide nodes.
//!
//! On shapes that hold a large share of their edges at once (a slotted star of 10⁷ vertices
//! holds 7.7·10⁵ in each half of the sweep) every search runs through memory that is not in
//! the caches. The treap this replaces took ~23 levels per search, one node (one cache miss)
//! each; here a node holds up to 16 edges with their coordinates inline, its lines are
//! requested together as it is entered, and a search passes 4 or 5 nodes, the upper of which
//! stay cached.
//!
//! Leaves hold the edges in order and are linked in a list (neighbours are found without
//! comparing anything); an inner node holds, for each child but the first, a copy of the
//! lowest edge under it. Those copies are always of edges that are active: whenever the lowest
//! edge under a node changes (an insertion or a removal at the front of a leaf, an edge that
//! takes another's place there), the copy above is replaced. So every comparison in a search
//! is between two active edges, which the sweep's order is defined for.
//!
//! An edge is found from its number through `leaf_of` (which leaf), then by its number among
//! the leaf's few edges: entries move within a leaf without bookkeeping, and only the edges
//! moved to another leaf (half a leaf at a split, a small leaf at a merge) are re-filed.
//! Leaves that fall under a quarter full are merged with a sibling when the two fit in
//! three quarters of one; inner nodes are freed when they have no child left, and a root with
//! one child gives way to it. Freed nodes are reused, so the tree lives in the memory of the
//! edges active at once.

use super::{Seg, prefetch};
use std::cmp::Ordering;

const NIL: u32 = u32::MAX;
/// The most edges a leaf holds.
const LEAF: usize = 16;
/// The most children an inner node has.
const FAN: usize = 16;

const BLANK: Seg = Seg {
    left: [0.0; 2],
    right: [0.0; 2],
    edge: NIL,
    ring: NIL,
};

/// A leaf: up to [`LEAF`] active edges in order, and its neighbours in the list of leaves.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Leaf {
    segs: [Seg; LEAF],
    len: u32,
    parent: u32,
    prev: u32,
    next: u32,
}

/// An inner node: up to [`FAN`] children, and the lowest edge under each child but the first.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Inner {
    /// `keys[i]`: a copy of the lowest edge under `child[i + 1]`.
    keys: [Seg; FAN - 1],
    child: [u32; FAN],
    len: u32,
    parent: u32,
}

/// Where an active edge is: its leaf and its place in the leaf. Valid until the tree next
/// changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Place {
    leaf: u32,
    slot: u32,
}

/// The active edges, bottom to top.
pub(super) struct Active {
    leaves: Vec<Leaf>,
    inners: Vec<Inner>,
    free_leaves: Vec<u32>,
    free_inners: Vec<u32>,
    root: u32,
    /// Levels of inner nodes above the leaves (0: the root is a leaf).
    height: u32,
    /// The leaf of each edge while it is active.
    leaf_of: Vec<u32>,
}

/// Asks the cache for every line of `node`.
#[inline(always)]
fn prefetch_all<T>(node: &T) {
    let p = node as *const T as *const u8;
    let mut off = 0;
    while off < size_of::<T>() {
        prefetch(p.wrapping_add(off));
        off += 64;
    }
}

impl Active {
    /// An empty tree for edges numbered below `edges`.
    pub(super) fn new(edges: usize) -> Self {
        let leaf_of = vec![NIL; edges];
        // Room for the leaves of a tree of all edges at half fill, up to 92 MB: reserved,
        // not touched (the Vec then grows without copying itself over and over).
        let leaves = Vec::with_capacity((edges / (LEAF / 2) + 1).min(1 << 17));
        let mut t = Active {
            leaves,
            inners: Vec::new(),
            free_leaves: Vec::new(),
            free_inners: Vec::new(),
            root: NIL,
            height: 0,
            leaf_of,
        };
        t.root = t.new_leaf(NIL);
        t
    }

    fn new_leaf(&mut self, parent: u32) -> u32 {
        let leaf = Leaf {
            segs: [BLANK; LEAF],
            len: 0,
            parent,
            prev: NIL,
            next: NIL,
        };
        match self.free_leaves.pop() {
            Some(x) => {
                self.leaves[x as usize] = leaf;
                x
            }
            None => {
                self.leaves.push(leaf);
                (self.leaves.len() - 1) as u32
            }
        }
    }

    fn new_inner(&mut self, parent: u32) -> u32 {
        let inner = Inner {
            keys: [BLANK; FAN - 1],
            child: [NIL; FAN],
            len: 0,
            parent,
        };
        match self.free_inners.pop() {
            Some(x) => {
                self.inners[x as usize] = inner;
                x
            }
            None => {
                self.inners.push(inner);
                (self.inners.len() - 1) as u32
            }
        }
    }

    #[inline]
    fn leaf(&self, x: u32) -> &Leaf {
        &self.leaves[x as usize]
    }

    #[inline]
    fn leaf_mut(&mut self, x: u32) -> &mut Leaf {
        &mut self.leaves[x as usize]
    }

    #[inline]
    fn inner(&self, x: u32) -> &Inner {
        &self.inners[x as usize]
    }

    #[inline]
    fn inner_mut(&mut self, x: u32) -> &mut Inner {
        &mut self.inners[x as usize]
    }

    /// Sets the parent of node `x`, a leaf or an inner node.
    fn set_parent(&mut self, x: u32, is_leaf: bool, parent: u32) {
        if is_leaf {
            self.leaf_mut(x).parent = parent;
        } else {
            self.inner_mut(x).parent = parent;
        }
    }

    /// The edge at `p`.
    #[inline]
    pub(super) fn seg(&self, p: Place) -> &Seg {
        &self.leaf(p.leaf).segs[p.slot as usize]
    }

    /// Where edge `edge` is, if it is active.
    #[inline]
    pub(super) fn place_of(&self, edge: u32) -> Option<Place> {
        let leaf = *self.leaf_of.get(edge as usize)?;
        if leaf == NIL {
            return None;
        }
        let l = self.leaf(leaf);
        let slot = l.segs[..l.len as usize]
            .iter()
            .position(|s| s.edge == edge)?;
        Some(Place {
            leaf,
            slot: slot as u32,
        })
    }

    /// The neighbour of `p` on `side` (0: below, 1: above). Every leaf in the list holds at
    /// least one edge (only a root leaf is ever empty).
    #[inline]
    pub(super) fn neighbour(&self, p: Place, side: usize) -> Option<Place> {
        let l = self.leaf(p.leaf);
        if side == 0 {
            if p.slot > 0 {
                return Some(Place {
                    leaf: p.leaf,
                    slot: p.slot - 1,
                });
            }
            (l.prev != NIL).then(|| Place {
                leaf: l.prev,
                slot: self.leaf(l.prev).len - 1,
            })
        } else {
            if p.slot + 1 < l.len {
                return Some(Place {
                    leaf: p.leaf,
                    slot: p.slot + 1,
                });
            }
            (l.next != NIL).then_some(Place {
                leaf: l.next,
                slot: 0,
            })
        }
    }

    /// Where `seg` belongs: before the first edge above it.
    fn search(&self, seg: &Seg) -> Place {
        let mut node = self.root;
        for _ in 0..self.height {
            let n = self.inner(node);
            prefetch_all(n);
            let keys = &n.keys[..n.len as usize - 1];
            let c = keys.partition_point(|k| seg.cmp(k) == Ordering::Greater);
            node = n.child[c];
        }
        let l = self.leaf(node);
        prefetch_all(l);
        let slot = l.segs[..l.len as usize].partition_point(|s| seg.cmp(s) == Ordering::Greater);
        Place {
            leaf: node,
            slot: slot as u32,
        }
    }

    /// Inserts `seg` where it belongs, searching from the root.
    pub(super) fn insert(&mut self, seg: Seg) -> Place {
        let p = self.search(&seg);
        self.insert_at(p, seg)
    }

    /// Where `seg` belongs, found in the leaf of the active edge `near` when `seg` lies
    /// strictly between that leaf's lowest and highest edges; `None` otherwise. Then the
    /// place is the one [`Active::search`] finds: each inner node's keys are the lowest
    /// edges of its children, so a descent from the root takes, at every level, the child
    /// that holds this leaf, and the leaf is searched the same way.
    fn place_near(&self, seg: &Seg, near: u32) -> Option<Place> {
        let leaf = *self.leaf_of.get(near as usize)?;
        if leaf == NIL {
            return None;
        }
        let l = self.leaf(leaf);
        let segs = &l.segs[..l.len as usize];
        let (first, last) = (segs.first()?, segs.last()?);
        if seg.cmp(first) != Ordering::Greater || seg.cmp(last) != Ordering::Less {
            return None;
        }
        let slot = segs.partition_point(|s| seg.cmp(s) == Ordering::Greater);
        Some(Place {
            leaf,
            slot: slot as u32,
        })
    }

    /// [`Active::insert`], looking first in the leaves of the first two of the edges
    /// `near` that are active (the same place, found without a descent from the root when
    /// one of them brackets `seg`).
    pub(super) fn insert_near(&mut self, seg: Seg, near: &[u32]) -> Place {
        let mut tries = 0;
        for &e in near {
            if self.leaf_of.get(e as usize).is_some_and(|&l| l != NIL) {
                if let Some(p) = self.place_near(&seg, e) {
                    return self.insert_at(p, seg);
                }
                tries += 1;
                if tries == 2 {
                    break;
                }
            }
        }
        let p = self.search(&seg);
        self.insert_at(p, seg)
    }

    /// Inserts `seg` right next to `at`: above it (`side` 1) or below (0).
    pub(super) fn insert_beside(&mut self, at: Place, side: usize, seg: Seg) -> Place {
        self.insert_at(
            Place {
                leaf: at.leaf,
                slot: at.slot + side as u32,
            },
            seg,
        )
    }

    /// Gives the place `p` to another edge, which takes the old one's place in the order.
    pub(super) fn replace(&mut self, p: Place, seg: Seg) {
        let old = self.seg(p).edge;
        self.leaf_of[old as usize] = NIL;
        self.leaf_mut(p.leaf).segs[p.slot as usize] = seg;
        self.leaf_of[seg.edge as usize] = p.leaf;
        if p.slot == 0 {
            self.lowest_changed(p.leaf, seg);
        }
    }

    /// Removes the edge at `p`.
    pub(super) fn remove(&mut self, p: Place) {
        let (leaf, slot) = (p.leaf, p.slot as usize);
        let l = self.leaf_mut(leaf);
        let edge = l.segs[slot].edge;
        let len = l.len as usize;
        l.segs.copy_within(slot + 1..len, slot);
        l.len -= 1;
        let (len, first) = (l.len as usize, l.segs[0]);
        self.leaf_of[edge as usize] = NIL;
        if len == 0 {
            if self.height > 0 {
                self.drop_leaf(leaf);
            }
            return;
        }
        if slot == 0 {
            self.lowest_changed(leaf, first);
        }
        if len < LEAF / 4 {
            self.merge(leaf);
        }
    }

    /// Inserts `seg` at `p` (a place between two edges, or at the end of a leaf).
    fn insert_at(&mut self, p: Place, seg: Seg) -> Place {
        let (mut leaf, mut slot) = (p.leaf, p.slot as usize);
        if self.leaf(leaf).len as usize == LEAF {
            let right = self.split_leaf(leaf);
            if slot > LEAF / 2 {
                (leaf, slot) = (right, slot - LEAF / 2);
            }
        }
        let l = self.leaf_mut(leaf);
        let len = l.len as usize;
        l.segs.copy_within(slot..len, slot + 1);
        l.segs[slot] = seg;
        l.len += 1;
        self.leaf_of[seg.edge as usize] = leaf;
        if slot == 0 {
            self.lowest_changed(leaf, seg);
        }
        Place {
            leaf,
            slot: slot as u32,
        }
    }

    /// Moves the upper half of a full leaf to a new leaf after it; returns the new leaf.
    fn split_leaf(&mut self, leaf: u32) -> u32 {
        const HALF: usize = LEAF / 2;
        let (parent, next) = (self.leaf(leaf).parent, self.leaf(leaf).next);
        let right = self.new_leaf(parent);
        let mut moved = [BLANK; LEAF - HALF];
        moved.copy_from_slice(&self.leaf(leaf).segs[HALF..]);
        {
            let r = self.leaf_mut(right);
            r.segs[..LEAF - HALF].copy_from_slice(&moved);
            r.len = (LEAF - HALF) as u32;
            r.prev = leaf;
            r.next = next;
        }
        for s in &moved {
            self.leaf_of[s.edge as usize] = right;
        }
        let l = self.leaf_mut(leaf);
        l.len = HALF as u32;
        l.next = right;
        if next != NIL {
            self.leaf_mut(next).prev = right;
        }
        self.add_child(parent, leaf, moved[0], right, true);
        right
    }

    /// Adds node `new` (whose lowest edge is `key`) to `parent` right after its child
    /// `after`, splitting `parent` if it is full; a new root if `parent` is `NIL`.
    fn add_child(&mut self, parent: u32, after: u32, key: Seg, new: u32, is_leaf: bool) {
        if parent == NIL {
            let root = self.new_inner(NIL);
            let r = self.inner_mut(root);
            r.child[0] = after;
            r.child[1] = new;
            r.keys[0] = key;
            r.len = 2;
            self.set_parent(after, is_leaf, root);
            self.set_parent(new, is_leaf, root);
            self.root = root;
            self.height += 1;
            return;
        }
        let p = self.inner(parent);
        let len = p.len as usize;
        let at = p.child[..len]
            .iter()
            .position(|&c| c == after)
            .expect("a child is listed in its parent");
        if len < FAN {
            let p = self.inner_mut(parent);
            p.child.copy_within(at + 1..len, at + 2);
            p.child[at + 1] = new;
            p.keys.copy_within(at..len - 1, at + 1);
            p.keys[at] = key;
            p.len += 1;
            self.set_parent(new, is_leaf, parent);
            return;
        }
        // Full: the FAN + 1 children, split in two.
        let mut child = [NIL; FAN + 1];
        let mut keys = [BLANK; FAN];
        child[..=at].copy_from_slice(&p.child[..=at]);
        child[at + 1] = new;
        child[at + 2..].copy_from_slice(&p.child[at + 1..]);
        keys[..at].copy_from_slice(&p.keys[..at]);
        keys[at] = key;
        keys[at + 1..].copy_from_slice(&p.keys[at..]);
        let m = FAN.div_ceil(2);
        let grand = p.parent;
        let right = self.new_inner(grand);
        {
            let p = self.inner_mut(parent);
            p.child[..m].copy_from_slice(&child[..m]);
            p.child[m..].fill(NIL);
            p.keys[..m - 1].copy_from_slice(&keys[..m - 1]);
            p.len = m as u32;
        }
        {
            let r = self.inner_mut(right);
            r.child[..FAN + 1 - m].copy_from_slice(&child[m..]);
            r.keys[..FAN - m].copy_from_slice(&keys[m..]);
            r.len = (FAN + 1 - m) as u32;
        }
        for &c in &child[m..] {
            self.set_parent(c, is_leaf, right);
        }
        if at + 1 < m {
            self.set_parent(new, is_leaf, parent);
        }
        self.add_child(grand, parent, keys[m - 1], right, false);
    }

    /// The lowest edge under node `x` (a leaf) is now `seg`: the copy above it follows.
    fn lowest_changed(&mut self, x: u32, seg: Seg) {
        self.lowest_changed_above(x, self.leaf(x).parent, seg);
    }

    /// As [`Self::lowest_changed`], from inner node `x`.
    fn lowest_changed_inner(&mut self, x: u32, seg: Seg) {
        self.lowest_changed_above(x, self.inner(x).parent, seg);
    }

    /// The lowest edge under node `cur`, a child of `parent`, is now `seg`: the first
    /// ancestor in which that subtree is not the first child holds the copy.
    fn lowest_changed_above(&mut self, mut cur: u32, mut parent: u32, seg: Seg) {
        while parent != NIL {
            let p = self.inner_mut(parent);
            let at = p.child[..p.len as usize]
                .iter()
                .position(|&c| c == cur)
                .expect("a child is listed in its parent");
            if at > 0 {
                p.keys[at - 1] = seg;
                return;
            }
            (cur, parent) = (parent, p.parent);
        }
    }

    /// Unlinks an emptied (or merged away) leaf and frees it.
    fn drop_leaf(&mut self, leaf: u32) {
        let l = *self.leaf(leaf);
        if l.prev != NIL {
            self.leaf_mut(l.prev).next = l.next;
        }
        if l.next != NIL {
            self.leaf_mut(l.next).prev = l.prev;
        }
        self.free_leaves.push(leaf);
        self.remove_child(l.parent, leaf);
    }

    /// Takes child `x` out of inner node `parent`; frees nodes left without children and
    /// lets a root with one child give way to it.
    fn remove_child(&mut self, parent: u32, x: u32) {
        let p = self.inner_mut(parent);
        let len = p.len as usize;
        let at = p.child[..len]
            .iter()
            .position(|&c| c == x)
            .expect("a child is listed in its parent");
        p.child.copy_within(at + 1..len, at);
        p.child[len - 1] = NIL;
        let lowest = p.keys[0];
        if len >= 2 {
            // keys[at - 1] goes with child `at`; for the first child, keys[0] (its
            // successor's, which is now the lowest under `parent`).
            let k = at.saturating_sub(1);
            p.keys.copy_within(k + 1..len - 1, k);
        }
        p.len -= 1;
        let (left, grand) = (p.len, p.parent);
        if left == 0 {
            self.free_inners.push(parent);
            if grand != NIL {
                self.remove_child(grand, parent);
            }
            return;
        }
        if at == 0 {
            self.lowest_changed_inner(parent, lowest);
        }
        // A root with one child gives way to it.
        while self.height > 0 && self.inner(self.root).len == 1 {
            let old = self.root;
            let child = self.inner(old).child[0];
            self.free_inners.push(old);
            self.root = child;
            self.height -= 1;
            self.set_parent(child, self.height == 0, NIL);
        }
    }

    /// A leaf under a quarter full joins a sibling (same parent) if the two fit in three
    /// quarters of a leaf.
    fn merge(&mut self, leaf: u32) {
        let l = *self.leaf(leaf);
        let fits = |o: &Leaf| o.parent == l.parent && (o.len + l.len) as usize <= LEAF * 3 / 4;
        let (into, from) = if l.next != NIL && fits(self.leaf(l.next)) {
            (leaf, l.next)
        } else if l.prev != NIL && fits(self.leaf(l.prev)) {
            (l.prev, leaf)
        } else {
            return;
        };
        let f = *self.leaf(from);
        let at = self.leaf(into).len as usize;
        let n = f.len as usize;
        {
            let i = self.leaf_mut(into);
            i.segs[at..at + n].copy_from_slice(&f.segs[..n]);
            i.len += n as u32;
        }
        for s in &f.segs[..n] {
            self.leaf_of[s.edge as usize] = into;
        }
        self.drop_leaf(from);
    }

    /// Asks the cache for the leaf that holds `edge`, if `leaf_of` says one.
    #[inline]
    pub(super) fn prefetch_leaf_of(&self, edge: u32) {
        if let Some(&x) = self.leaf_of.get(edge as usize)
            && let Some(l) = self.leaves.get(x as usize)
        {
            prefetch_all(l);
        }
    }

    /// Asks the cache for `leaf_of`'s entry for `edge`.
    #[inline]
    pub(super) fn prefetch_entry(&self, edge: u32) {
        prefetch(self.leaf_of.as_ptr().wrapping_add(edge as usize));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    impl Active {
        /// The edges in order, walking the list of leaves; checks every invariant on the way.
        fn check(&self) -> Vec<u32> {
            // Down the tree: parents, keys, heights.
            let mut leaves = Vec::new();
            self.collect(self.root, self.height, NIL, &mut leaves);
            // The list of leaves agrees with the tree's order.
            let mut order = Vec::new();
            let mut x = leaves[0];
            assert_eq!(self.leaf(x).prev, NIL);
            let mut seen = 0;
            while x != NIL {
                assert_eq!(x, leaves[seen], "list order");
                seen += 1;
                let l = self.leaf(x);
                if self.height > 0 {
                    assert!(l.len > 0, "empty leaf in a tree");
                }
                for s in &l.segs[..l.len as usize] {
                    assert_eq!(self.leaf_of[s.edge as usize], x, "leaf_of");
                    order.push(s.edge);
                }
                if l.next != NIL {
                    assert_eq!(self.leaf(l.next).prev, x);
                }
                x = l.next;
            }
            assert_eq!(seen, leaves.len());
            if self.height > 0 {
                assert!(self.inner(self.root).len >= 2, "root with one child");
            }
            order
        }

        /// The leaves under `x` in order; returns the lowest edge under `x`.
        fn collect(&self, x: u32, height: u32, parent: u32, out: &mut Vec<u32>) -> Option<u32> {
            if height == 0 {
                let l = self.leaf(x);
                assert_eq!(l.parent, parent);
                out.push(x);
                return (l.len > 0).then(|| l.segs[0].edge);
            }
            let n = self.inner(x);
            assert_eq!(n.parent, parent);
            assert!(n.len >= 1 && n.len as usize <= FAN);
            let mut lowest = None;
            for i in 0..n.len as usize {
                let low = self.collect(n.child[i], height - 1, x, out);
                if i == 0 {
                    lowest = low;
                } else {
                    assert_eq!(Some(n.keys[i - 1].edge), low, "key copy");
                }
            }
            lowest
        }
    }

    /// Horizontal edges of one x-range: ordered by height, then by number.
    fn flat(edge: u32, y: f64) -> Seg {
        Seg {
            left: [0.0, y],
            right: [1.0, y],
            edge,
            ring: 0,
        }
    }

    /// The model's order: by height, then by number.
    fn key(y: &[f64], e: u32) -> (f64, u32) {
        (y[e as usize], e)
    }

    #[test]
    fn random_operations_keep_the_order_and_the_invariants() {
        let mut rng = crate::test_rng::Lcg(7u64);
        let mut rnd = |m: u64| rng.below(m);
        let n = 4000u32;
        let mut y: Vec<f64> = (0..n).map(|_| rnd(1000) as f64).collect();
        let mut t = Active::new(n as usize);
        // The model: active edges sorted as the tree must hold them.
        let mut model: Vec<u32> = Vec::new();
        let mut max_height = 0;
        let mut near_found = 0;
        for step in 0..60_000 {
            // Grow for a while, then shrink, then grow again: splits, merges, collapses.
            let grow = match step / 10_000 {
                0 | 2 | 4 => rnd(10) < 7,
                _ => rnd(10) < 3,
            };
            let inactive: Vec<u32> = if grow {
                (0..8)
                    .map(|_| rnd(n as u64) as u32)
                    .filter(|e| t.place_of(*e).is_none())
                    .collect()
            } else {
                Vec::new()
            };
            if let Some(&e) = inactive.first() {
                let s = flat(e, y[e as usize]);
                let p = match rnd(3) {
                    // Beside a neighbour in the model, as the sweep does for a second edge.
                    0 if !model.is_empty() => {
                        let i = model.partition_point(|&m| key(&y, m) < key(&y, e));
                        if i > 0 {
                            t.insert_beside(t.place_of(model[i - 1]).unwrap(), 1, s)
                        } else {
                            t.insert_beside(t.place_of(model[0]).unwrap(), 0, s)
                        }
                    }
                    // Near an active edge (one a few places away in the order, as the
                    // ring's edges often are in the sweep, or any), found from its leaf
                    // only when that is where a search from the root goes.
                    1 if !model.is_empty() => {
                        let i = model.partition_point(|&m| key(&y, m) < key(&y, e));
                        let k = if rnd(4) == 0 {
                            rnd(model.len() as u64) as usize
                        } else {
                            (i + rnd(6) as usize).saturating_sub(3).min(model.len() - 1)
                        };
                        let near = model[k];
                        if let Some(q) = t.place_near(&s, near) {
                            assert_eq!(q, t.search(&s), "place near {near}");
                            near_found += 1;
                        }
                        t.insert_near(s, &[near])
                    }
                    _ => t.insert(s),
                };
                assert_eq!(t.seg(p).edge, e);
                let i = model.partition_point(|&m| key(&y, m) < key(&y, e));
                model.insert(i, e);
                let below = t.neighbour(p, 0).map(|q| t.seg(q).edge);
                let above = t.neighbour(p, 1).map(|q| t.seg(q).edge);
                assert_eq!(below, i.checked_sub(1).map(|j| model[j]));
                assert_eq!(above, model.get(i + 1).copied());
            } else if !model.is_empty() {
                let i = rnd(model.len() as u64) as usize;
                let e = model[i];
                let p = t.place_of(e).unwrap();
                // Sometimes an inactive edge of the same height takes its place (the
                // sweep's pass-through vertex), else it leaves.
                let h = y[e as usize];
                let fits = |f: u32| {
                    (i == 0 || key(&y, model[i - 1]) < (h, f))
                        && (i + 1 == model.len() || (h, f) < key(&y, model[i + 1]))
                };
                let swap = (0..64)
                    .map(|_| rnd(n as u64) as u32)
                    .find(|&f| t.place_of(f).is_none() && fits(f));
                if let (Some(f), true) = (swap, rnd(2) == 0) {
                    t.replace(p, flat(f, h));
                    y[f as usize] = h;
                    model[i] = f;
                } else {
                    t.remove(p);
                    model.remove(i);
                }
            }
            if step % 7 == 0 {
                assert_eq!(t.check(), model, "step {step}");
            }
            max_height = max_height.max(t.height);
        }
        assert_eq!(t.check(), model);
        assert!(max_height >= 2, "{max_height}");
        assert!(near_found > 100, "{near_found}");
    }
}
