//! The sweep as it was before the vertex-ordered rewrite (one event per edge end, a
//! comparison sort of the events, a treap indexed by edge): kept for the tests, which check
//! that the new sweep reports the same first contact on random and degenerate rings.

use super::meet::Meeting;
use robust::orient2d;
use std::cmp::Ordering;

/// One edge: its endpoints as given (`from` → `to`) and who it is.
#[derive(Clone, Copy, Debug)]
pub(super) struct SweepEdge {
    /// Start vertex.
    pub from: [f64; 2],
    /// End vertex.
    pub to: [f64; 2],
    /// Which ring (index into the caller's list).
    pub ring: usize,
    /// Index of the edge within its ring.
    pub index: usize,
    /// Number of edges in its ring (to tell neighbours).
    pub ring_len: usize,
}

/// Two edges that meet: their indices into the input slice, how, and where.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Contact {
    /// First edge (index into the input).
    pub a: usize,
    /// Second edge.
    pub b: usize,
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

/// An active edge, oriented left to right, ordered bottom to top.
#[derive(Clone, Copy, Debug)]
struct Key {
    left: [f64; 2],
    right: [f64; 2],
    id: usize,
}

impl Key {
    /// Where `other` lies relative to `self`, judged where `other` starts (it starts no
    /// earlier than `self`).
    fn side_of(&self, other: &Key) -> Ordering {
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
            other.id.cmp(&self.id)
        }
    }
}

impl PartialEq for Key {
    fn eq(&self, o: &Self) -> bool {
        self.id == o.id
    }
}
impl Eq for Key {}
impl PartialOrd for Key {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Key {
    fn cmp(&self, o: &Self) -> Ordering {
        if self.id == o.id {
            return Ordering::Equal;
        }
        // Compare at the later start of the two.
        if lex_cmp(self.left, o.left) != Ordering::Less {
            o.side_of(self)
        } else {
            self.side_of(o).reverse()
        }
    }
}

const NIL: usize = usize::MAX;

/// A node of the treap; node `i` holds edge `i`.
#[derive(Clone, Copy)]
struct Node {
    prio: u64,
    child: [usize; 2],
    parent: usize,
}

/// The active edges, bottom to top: a treap (a binary search tree that is also a heap on
/// random priorities, so expected depth O(log n)) with parent links.
struct Treap {
    keys: Vec<Key>,
    nodes: Vec<Node>,
    root: usize,
}

impl Treap {
    fn new(keys: Vec<Key>) -> Self {
        // Deterministic priorities (splitmix64 of the index): the same input, the same run.
        let nodes = (0..keys.len())
            .map(|i| {
                let mut z = (i as u64).wrapping_add(0x9E37_79B9_7F4A_7C15);
                z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
                Node {
                    prio: z ^ (z >> 31),
                    child: [NIL, NIL],
                    parent: NIL,
                }
            })
            .collect();
        Treap {
            keys,
            nodes,
            root: NIL,
        }
    }

    /// Replaces the link from `parent` (or the root) to `old` by `new`.
    fn relink(&mut self, parent: usize, old: usize, new: usize) {
        if parent == NIL {
            self.root = new;
        } else {
            let side = (self.nodes[parent].child[1] == old) as usize;
            self.nodes[parent].child[side] = new;
        }
        if new != NIL {
            self.nodes[new].parent = parent;
        }
    }

    /// Lifts `x` above its parent.
    fn rotate_up(&mut self, x: usize) {
        let p = self.nodes[x].parent;
        let g = self.nodes[p].parent;
        let side = (self.nodes[p].child[1] == x) as usize; // x is p's child on `side`
        let inner = self.nodes[x].child[1 - side];
        self.nodes[p].child[side] = inner;
        if inner != NIL {
            self.nodes[inner].parent = p;
        }
        self.nodes[x].child[1 - side] = p;
        self.nodes[p].parent = x;
        self.relink(g, p, x);
    }

    fn insert(&mut self, id: usize) {
        let key = self.keys[id];
        let (mut parent, mut side, mut cur) = (NIL, 0, self.root);
        while cur != NIL {
            parent = cur;
            side = (key > self.keys[cur]) as usize;
            cur = self.nodes[cur].child[side];
        }
        self.nodes[id].child = [NIL, NIL];
        self.nodes[id].parent = parent;
        if parent == NIL {
            self.root = id;
        } else {
            self.nodes[parent].child[side] = id;
        }
        while self.nodes[id].parent != NIL
            && self.nodes[self.nodes[id].parent].prio > self.nodes[id].prio
        {
            self.rotate_up(id);
        }
    }

    fn remove(&mut self, id: usize) {
        // Rotate the node down until it has at most one child, then splice it out.
        loop {
            let [l, r] = self.nodes[id].child;
            if l == NIL || r == NIL {
                let only = if l == NIL { r } else { l };
                let parent = self.nodes[id].parent;
                self.relink(parent, id, only);
                return;
            }
            let lift = if self.nodes[l].prio < self.nodes[r].prio {
                l
            } else {
                r
            };
            self.rotate_up(lift);
        }
    }

    /// The neighbour of `id` on `side` (0: below, 1: above).
    fn neighbour(&self, id: usize, side: usize) -> Option<usize> {
        let mut x = self.nodes[id].child[side];
        if x != NIL {
            while self.nodes[x].child[1 - side] != NIL {
                x = self.nodes[x].child[1 - side];
            }
            return Some(x);
        }
        let mut x = id;
        loop {
            let p = self.nodes[x].parent;
            if p == NIL {
                return None;
            }
            if self.nodes[p].child[1 - side] == x {
                return Some(p);
            }
            x = p;
        }
    }

    fn below(&self, id: usize) -> Option<usize> {
        self.neighbour(id, 0)
    }

    fn above(&self, id: usize) -> Option<usize> {
        self.neighbour(id, 1)
    }
}

fn adjacent(e: &SweepEdge, f: &SweepEdge) -> bool {
    e.ring == f.ring
        && ((e.index + 1) % e.ring_len == f.index || (f.index + 1) % f.ring_len == e.index)
}

/// How edges `i` and `j` meet, if they do in a way a simple polygon forbids.
fn meet(edges: &[SweepEdge], i: usize, j: usize) -> Option<Contact> {
    let (e, f) = (&edges[i], &edges[j]);
    let m = super::meet::meet([e.from, e.to], [f.from, f.to])?;
    if adjacent(e, f) && !matches!(m, Meeting::Overlap(_)) {
        return None;
    }
    let (kind, at) = (m.kind(), m.at());
    let (a, b) = if i < j { (i, j) } else { (j, i) };
    Some(Contact { a, b, kind, at })
}

/// The first forbidden meeting of two edges found by the sweep, or `None` if the edges form
/// simple, mutually disjoint rings. Zero-length edges must not be passed.
pub(super) fn first_contact(edges: &[SweepEdge]) -> Option<Contact> {
    let keys: Vec<Key> = edges
        .iter()
        .enumerate()
        .map(|(id, e)| {
            let (left, right) = if lex_less(e.from, e.to) {
                (e.from, e.to)
            } else {
                (e.to, e.from)
            };
            Key { left, right, id }
        })
        .collect();
    // (point, is_insert, edge): removals (false) sort before insertions at the same point.
    let mut events: Vec<([f64; 2], bool, usize)> = Vec::with_capacity(2 * keys.len());
    for k in &keys {
        events.push((k.left, true, k.id));
        events.push((k.right, false, k.id));
    }
    events.sort_unstable_by(|x, y| lex_cmp(x.0, y.0).then(x.1.cmp(&y.1)).then(x.2.cmp(&y.2)));

    // A vertex used twice (a pinch, or two rings sharing a point) puts more than two edge
    // ends at one point: report two edges there that are not neighbours.
    let mut start = 0;
    while start < events.len() {
        let mut end = start + 1;
        while end < events.len() && events[end].0 == events[start].0 {
            end += 1;
        }
        if end - start > 2 {
            let group = &events[start..end];
            for (x, gx) in group.iter().enumerate() {
                for gy in &group[x + 1..] {
                    if gx.2 != gy.2 && !adjacent(&edges[gx.2], &edges[gy.2]) {
                        let (a, b) = (gx.2.min(gy.2), gx.2.max(gy.2));
                        return Some(Contact {
                            a,
                            b,
                            kind: "touch",
                            at: gx.0,
                        });
                    }
                }
            }
        }
        start = end;
    }

    let mut active = Treap::new(keys);
    for &(_, insert, id) in &events {
        if insert {
            active.insert(id);
            for n in [active.below(id), active.above(id)].into_iter().flatten() {
                if let Some(c) = meet(edges, id, n) {
                    return Some(c);
                }
            }
        } else {
            let (below, above) = (active.below(id), active.above(id));
            active.remove(id);
            if let (Some(b), Some(a)) = (below, above)
                && let Some(c) = meet(edges, b, a)
            {
                return Some(c);
            }
        }
    }
    None
}
