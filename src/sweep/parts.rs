//! Parts of one whole that may touch (the outlines of a drawing, the members of a
//! MultiPolygon): which of their contacts make two parts share an area.
//!
//! Each ring bounds its part's interior on one side: the inside of an outer ring, the
//! outside of a hole. Two parts share an area exactly when
//! 1. an edge of one crosses an edge of the other (each through the other's interior), or
//! 2. at a point where their boundaries meet, the angular sectors their interiors fill
//!    about that point overlap, or
//! 3. a ring of one, meeting no ring of another part, lies inside the other.
//!
//! Why this is enough: let U be a component of the common interior. If U's closure holds a
//! point where the two boundaries meet, U lies near it in both parts' sectors (2), or the
//! point is a crossing (1). Otherwise U's boundary is made of whole rings of one part
//! lying in the other's interior (3). Boundaries that meet without crossing meet at points
//! and along stretches of common lines, and every such point or stretch holds a vertex (a
//! stretch ends at one): there each part that passes fills a sector bounded by its two
//! edges at the vertex, or the half-plane beside an edge that runs through. Two squares
//! touching at a corner fill sectors that only meet along a line; sharing an edge from
//! opposite sides, half-planes on either side of it; one square on top of another, the
//! same sector at every corner.
//!
//! The sweep is `mod.rs`'s Shamos–Hoey sweep without its shortcuts and without stopping
//! at contacts that do not cross: edges that touch without crossing keep a well defined
//! order bottom to top (collinear ones by number, as there), so it goes on to the first
//! crossing, and until then the edges through a vertex are found next to the edges it
//! begins or ends. Every decision is an exact orientation sign or a comparison of
//! coordinates. Edges of one part that meet (anywhere but a ring's neighbours at their
//! vertex) are refused as [`first_contact`](super::first_contact) refuses them.

use super::active::{Active, Place};
use super::{Contact, Event, Rings, Seg, Vertex, ordered_bits, orient, vertex_events};
use nalgebra::Point2;
use rayon::prelude::*;
use std::cmp::Ordering;

/// Why parts of one whole cannot be summed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Refusal {
    /// Two edges of different parts cross, or two edges of one part meet.
    Edges(Contact),
    /// The interiors of the parts of rings `a` and `b` overlap beside the point `at`.
    Area {
        /// A ring of one part.
        a: usize,
        /// A ring of the other.
        b: usize,
        /// The vertex where their sectors overlap.
        at: [f64; 2],
    },
}

/// Checks that the parts of one whole share no area (see the module's rule), the rings
/// being numbered as for [`first_contact`](super::first_contact); `part[r]` is the part of
/// ring `r` and `hole[r]` whether it is one of its holes. Returns, for each ring, whether
/// it meets a ring of another part (the rings that do not are left for the caller's test
/// of rule 3).
pub(crate) fn touching_parts(
    rings: &[&[Point2<f64>]],
    part: &[usize],
    hole: &[bool],
) -> Result<Vec<bool>, Refusal> {
    let rings = Rings::new(rings);
    let total = rings.edges();
    // The part's interior is left of a counter-clockwise outer ring and of a clockwise
    // hole: each ring's turn read exactly at its lowest vertex (x, then y), which is convex.
    let left: Vec<bool> = rings
        .rings
        .iter()
        .zip(hole)
        .map(|(r, &h)| counter_clockwise(r) != h)
        .collect();
    let mut order = rings.vertices();
    let key = |v: &Vertex| (v.x, ordered_bits(rings.point(v.ring, v.v)[1]));
    order.par_sort_unstable_by_key(key);
    let mut sweep = PartSweep {
        rings: &rings,
        part,
        left: &left,
        active: Active::new(total as usize),
        touched: vec![false; rings.rings.len()],
    };
    let mut i = 0;
    while i < order.len() {
        let k = key(&order[i]);
        let mut j = i + 1;
        while j < order.len() && key(&order[j]) == k {
            j += 1;
        }
        sweep.point(&order[i..j])?;
        i = j;
    }
    Ok(sweep.touched)
}

/// Whether a simple ring turns counter-clockwise: the sign of its turn at its lowest
/// vertex (x, then y), exact.
fn counter_clockwise(r: &[Point2<f64>]) -> bool {
    let n = r.len();
    let low = (0..n)
        .min_by(|&a, &b| r[a].x.total_cmp(&r[b].x).then(r[a].y.total_cmp(&r[b].y)))
        .unwrap_or(0);
    let q = |k: usize| [r[k].x, r[k].y];
    orient(q((low + n - 1) % n), q(low), q((low + 1) % n)) > 0.0
}

/// The angular sector a part's interior fills about a vertex: from the direction towards
/// `from` counter-clockwise to the direction towards `to` (both excluded).
#[derive(Clone, Copy, Debug)]
struct Sector {
    from: [f64; 2],
    to: [f64; 2],
    ring: u32,
    /// An edge of the ring at the vertex (global number), to name it.
    edge: u32,
}

struct PartSweep<'a> {
    rings: &'a Rings<'a>,
    part: &'a [usize],
    /// Whether each ring has its part's interior on its left.
    left: &'a [bool],
    active: Active,
    touched: Vec<bool>,
}

impl PartSweep<'_> {
    /// A contact the neighbour tests found: refused if it is a crossing or within a part;
    /// otherwise the sectors at its vertex decide.
    fn judge(&self, s: &Seg, t: &Seg) -> Result<(), Refusal> {
        match self.rings.meet(s, t) {
            Some(c) if c.kind == "cross" || self.part[c.a.ring] == self.part[c.b.ring] => {
                Err(Refusal::Edges(c))
            }
            _ => Ok(()),
        }
    }

    /// The events at one point (the vertices `group`, all there): edges ended, then edges
    /// begun, each tested against its neighbours; then the sectors of every ring there.
    fn point(&mut self, group: &[Vertex]) -> Result<(), Refusal> {
        let p = self.rings.point(group[0].ring, group[0].v);
        let mut events: Vec<Event> = group
            .iter()
            .flat_map(|&v| vertex_events(self.rings, v))
            .collect();
        events.sort_unstable_by_key(|(insert, s)| (*insert, s.edge));
        // An edge begun here, else the neighbours of the last edge ended here: the edges
        // that run through the point are next to them.
        let mut begun: Option<u32> = None;
        let mut beside: [Option<u32>; 2] = [None, None];
        for (insert, seg) in &events {
            if *insert {
                let x = self.active.insert(*seg);
                let t = &self.active;
                for n in [t.neighbour(x, 0), t.neighbour(x, 1)].into_iter().flatten() {
                    self.judge(t.seg(x), t.seg(n))?;
                }
                begun = Some(seg.edge);
            } else if let Some(x) = self.active.place_of(seg.edge) {
                let t = &self.active;
                let [below, above] = [0, 1].map(|side| t.neighbour(x, side).map(|n| *t.seg(n)));
                self.active.remove(x);
                if let (Some(b), Some(a)) = (&below, &above) {
                    self.judge(b, a)?;
                }
                beside = [below.map(|s| s.edge), above.map(|s| s.edge)];
            }
        }
        let mut through = Vec::new();
        let place = |e: u32| self.active.place_of(e);
        match begun.and_then(place) {
            Some(x) => {
                for side in [0, 1] {
                    self.walk(self.active.neighbour(x, side), side, p, &mut through);
                }
            }
            None => {
                for (side, e) in beside.into_iter().enumerate() {
                    self.walk(e.and_then(place), side, p, &mut through);
                }
            }
        }
        self.sectors(group, &through, p)
    }

    /// Gathers, from `from` on towards `side`, the edges that run through `p` (past those
    /// that begin there), up to the first edge that misses it.
    fn walk(&self, from: Option<Place>, side: usize, p: [f64; 2], out: &mut Vec<Seg>) {
        let mut at = from;
        while let Some(x) = at {
            let s = self.active.seg(x);
            if s.left != p {
                if orient(s.left, s.right, p) != 0.0 {
                    return;
                }
                out.push(*s);
            }
            at = self.active.neighbour(x, side);
        }
    }

    /// The sector of each ring at `p` (a vertex of the rings of `group`; the edges
    /// `through` run through it), checked: no two of one part, none empty, no two that
    /// overlap.
    fn sectors(&mut self, group: &[Vertex], through: &[Seg], p: [f64; 2]) -> Result<(), Refusal> {
        if group.len() + through.len() < 2 {
            return Ok(());
        }
        let r = self.rings;
        let mut all: Vec<Sector> = Vec::with_capacity(group.len() + through.len());
        for v in group {
            let (prev, next) = (r.prev(v.ring, v.v), r.next(v.ring, v.v));
            let (a, b) = (r.point(v.ring, prev), r.point(v.ring, next));
            all.push(self.sector(b, a, v.ring, v.v));
        }
        for s in through {
            let (from, to) = (
                r.point(s.ring, s.edge),
                r.point(s.ring, r.next(s.ring, s.edge)),
            );
            all.push(self.sector(to, from, s.ring, s.edge));
        }
        for s in &all {
            self.touched[s.ring as usize] = true;
        }
        let contact = |a: &Sector, b: &Sector, kind: &'static str| {
            let (a, b) = if a.edge <= b.edge { (a, b) } else { (b, a) };
            Refusal::Edges(Contact {
                a: r.edge_ref(a.ring, a.edge),
                b: r.edge_ref(b.ring, b.edge),
                kind,
                at: p,
            })
        };
        // Two rings of one part (or one ring twice) meet here.
        all.sort_unstable_by_key(|s| (self.part[s.ring as usize], s.edge));
        for w in all.windows(2) {
            if self.part[w[0].ring as usize] == self.part[w[1].ring as usize] {
                return Err(contact(&w[0], &w[1], "touch"));
            }
        }
        // A ring that doubles back on itself here fills no sector.
        if let Some(s) = all.iter().find(|s| relative(p, s.from, s.to) == 0) {
            return Err(contact(s, s, "overlap"));
        }
        // In counter-clockwise order of where they begin, each sector must end before the
        // next begins (then all are apart: each lies between its start and the next's).
        all.sort_unstable_by(|a, b| around(p, a.from, b.from));
        let k = all.len();
        for i in 0..k {
            let (a, b) = (&all[i], &all[(i + 1) % k]);
            if around(p, a.from, b.from) == Ordering::Equal || strictly_within(p, a, b.from) {
                return Err(Refusal::Area {
                    a: a.ring as usize,
                    b: b.ring as usize,
                    at: p,
                });
            }
        }
        Ok(())
    }

    /// The sector of `ring` between its edge towards `out` and its edge towards `back`
    /// (the edge on after the vertex and the edge back before it), on its part's side.
    fn sector(&self, out: [f64; 2], back: [f64; 2], ring: u32, edge: u32) -> Sector {
        let (from, to) = if self.left[ring as usize] {
            (out, back)
        } else {
            (back, out)
        };
        Sector {
            from,
            to,
            ring,
            edge,
        }
    }
}

/// The half-turn the direction from `p` to `q` lies in, counter-clockwise from +x: 0 along
/// +x, 1 above, 2 along −x, 3 below.
fn half(p: [f64; 2], q: [f64; 2]) -> u8 {
    if q[1] == p[1] {
        if q[0] > p[0] { 0 } else { 2 }
    } else if q[1] > p[1] {
        1
    } else {
        3
    }
}

/// The order of the directions from `p` to `a` and to `b`, counter-clockwise from +x.
fn around(p: [f64; 2], a: [f64; 2], b: [f64; 2]) -> Ordering {
    half(p, a).cmp(&half(p, b)).then_with(|| turn(p, a, b))
}

/// Within one open half-turn: `a` before `b` when `b` lies counter-clockwise of it.
fn turn(p: [f64; 2], a: [f64; 2], b: [f64; 2]) -> Ordering {
    let o = orient(p, a, b);
    if o > 0.0 {
        Ordering::Less
    } else if o < 0.0 {
        Ordering::Greater
    } else {
        Ordering::Equal
    }
}

/// As [`half`], counter-clockwise from the direction towards `s` instead of +x: 0 the
/// same direction as `s`, 1 less than a half-turn on, 2 opposite, 3 more.
fn relative(p: [f64; 2], s: [f64; 2], q: [f64; 2]) -> u8 {
    let o = orient(p, s, q);
    if o > 0.0 {
        1
    } else if o < 0.0 {
        3
    } else {
        // On the line through p and s: the same side of p as s or not.
        let same = if s[0] != p[0] {
            (s[0] > p[0]) == (q[0] > p[0])
        } else {
            (s[1] > p[1]) == (q[1] > p[1])
        };
        if same { 0 } else { 2 }
    }
}

/// Whether the direction from `p` towards `d` lies strictly inside sector `s`.
fn strictly_within(p: [f64; 2], s: &Sector, d: [f64; 2]) -> bool {
    let (cd, ce) = (relative(p, s.from, d), relative(p, s.from, s.to));
    cd != 0 && cd.cmp(&ce).then_with(|| turn(p, d, s.to)) == Ordering::Less
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ring(points: &[[f64; 2]]) -> Vec<Point2<f64>> {
        points.iter().map(|p| Point2::new(p[0], p[1])).collect()
    }

    fn square(x: f64, y: f64, s: f64) -> Vec<Point2<f64>> {
        ring(&[[x, y], [x + s, y], [x + s, y + s], [x, y + s]])
    }

    /// Rings as (part, hole, points).
    fn check(rings: &[(usize, bool, Vec<Point2<f64>>)]) -> Result<Vec<bool>, Refusal> {
        let r: Vec<&[Point2<f64>]> = rings.iter().map(|x| x.2.as_slice()).collect();
        let part: Vec<usize> = rings.iter().map(|x| x.0).collect();
        let hole: Vec<bool> = rings.iter().map(|x| x.1).collect();
        touching_parts(&r, &part, &hole)
    }

    fn reversed(mut r: Vec<Point2<f64>>) -> Vec<Point2<f64>> {
        r[1..].reverse();
        r
    }

    #[test]
    fn corners_and_edges_shared_from_opposite_sides_pass() {
        for at in [0.0, 1e8, -3e7] {
            // Corner to corner, either winding.
            let a = square(at, at, 1.0);
            let b = square(at + 1.0, at + 1.0, 1.0);
            assert_eq!(
                check(&[(0, false, a.clone()), (1, false, b.clone())]),
                Ok(vec![true; 2])
            );
            let rb = reversed(b.clone());
            assert!(check(&[(0, false, a.clone()), (1, false, rb)]).is_ok());
            // Side by side (a vertical edge shared), above one another (a horizontal one),
            // and half an edge shared.
            for b in [
                square(at + 1.0, at, 1.0),
                square(at, at + 1.0, 1.0),
                square(at + 0.5, at + 1.0, 1.0),
                square(at + 1.0, at + 0.25, 0.5),
            ] {
                assert!(
                    check(&[(0, false, a.clone()), (1, false, b)]).is_ok(),
                    "{at}"
                );
            }
            // A corner on the middle of an edge (a T).
            let t = ring(&[[at + 0.5, at + 1.0], [at + 1.0, at + 2.0], [at, at + 2.0]]);
            assert!(check(&[(0, false, a.clone()), (1, false, t)]).is_ok());
        }
    }

    #[test]
    fn a_shared_area_is_refused_where_it_begins() {
        let a = square(0.0, 0.0, 2.0);
        // The same square twice: the same sector at the first corner.
        let e = check(&[(0, false, a.clone()), (1, false, a.clone())]).unwrap_err();
        assert_eq!(
            e,
            Refusal::Area {
                a: 0,
                b: 1,
                at: [0.0, 0.0]
            }
        );
        // Overlapping by a sliver along a common line: the second's corner at (1, 0) on
        // the first's bottom edge, both above it.
        let b = square(1.0, 0.0, 2.0);
        let e = check(&[(0, false, a.clone()), (1, false, b)]).unwrap_err();
        assert_eq!(
            e,
            Refusal::Area {
                a: 0,
                b: 1,
                at: [1.0, 0.0]
            }
        );
        // A triangle hanging from the top edge inside: the same side of that edge.
        let hang = ring(&[[0.5, 2.0], [1.0, 1.0], [1.5, 2.0]]);
        let e = check(&[(0, false, a.clone()), (1, false, hang)]).unwrap_err();
        assert_eq!(
            e,
            Refusal::Area {
                a: 0,
                b: 1,
                at: [0.5, 2.0]
            }
        );
        // Side by side, overlapping by a sliver (the second's corners on the first's
        // bottom and top edges), near the origin and far from it.
        for (at, sliver) in [(0.0, 1e-12), (1e8, 1e-6)] {
            let (a, d) = (square(at, at, 2.0), 2.0 - sliver);
            let b = square(at + d, at, 2.0);
            let e = check(&[(0, false, a), (1, false, b)]).unwrap_err();
            assert_eq!(
                e,
                Refusal::Area {
                    a: 0,
                    b: 1,
                    at: [at + d, at]
                }
            );
        }
        // A crossing alone is refused as one.
        let cross = square(1.0, 1.0, 2.0);
        let e = check(&[(0, false, a), (1, false, cross)]).unwrap_err();
        assert!(
            matches!(e, Refusal::Edges(Contact { kind: "cross", .. })),
            "{e:?}"
        );
    }

    #[test]
    fn islands_in_holes_may_touch_the_shore() {
        // A 4 × 4 lake with a 2 × 2 hole; islands in the hole.
        let lake = square(0.0, 0.0, 4.0);
        let water = reversed(square(1.0, 1.0, 2.0));
        let with = |island: Vec<Point2<f64>>| {
            check(&[
                (0, false, lake.clone()),
                (0, true, water.clone()),
                (1, false, island),
            ])
        };
        // Touching the shore at a corner, along half a side, filling it exactly.
        assert_eq!(with(square(2.0, 2.0, 1.0)), Ok(vec![false, true, true]));
        assert!(with(square(1.0, 1.5, 1.0)).is_ok());
        assert!(with(square(1.0, 1.0, 2.0)).is_ok());
        // A triangle in the hole with a corner on the shore's edge.
        assert!(with(ring(&[[2.0, 1.0], [2.5, 2.0], [1.5, 2.0]])).is_ok());
        // Bigger than the hole, from its corner: it covers the lake beside the hole's
        // top left corner, which lies on its left edge.
        let e = with(square(1.0, 1.0, 2.5)).unwrap_err();
        assert_eq!(
            e,
            Refusal::Area {
                a: 2,
                b: 1,
                at: [1.0, 3.0]
            }
        );
        // A square beside the lake touching its outer corner from outside.
        let out = check(&[
            (0, false, lake.clone()),
            (0, true, water.clone()),
            (1, false, square(4.0, 4.0, 1.0)),
        ]);
        assert_eq!(out, Ok(vec![true, false, true]));
    }

    #[test]
    fn many_parts_around_one_point() {
        // Eight triangles around the origin filling it, then one sector taken twice.
        let n = 8;
        let tri = |k: usize| {
            let t = |k: usize| std::f64::consts::TAU * k as f64 / n as f64;
            let (a, b) = (t(k), t(k + 1));
            ring(&[[0.0, 0.0], [a.cos(), a.sin()], [b.cos(), b.sin()]])
        };
        let fan: Vec<_> = (0..n).map(|k| (k, false, tri(k))).collect();
        assert!(check(&fan).is_ok());
        let mut twice = fan.clone();
        twice.push((n, false, tri(1)));
        assert!(matches!(
            check(&twice),
            Err(Refusal::Area { at: [0.0, 0.0], .. })
        ));
    }

    #[test]
    fn rings_of_one_part_may_not_meet() {
        let a = square(0.0, 0.0, 2.0);
        let b = square(2.0, 2.0, 1.0);
        let e = check(&[(0, false, a), (0, false, b)]).unwrap_err();
        assert!(
            matches!(e, Refusal::Edges(Contact { kind: "touch", .. })),
            "{e:?}"
        );
    }
}
