//! A flat patch's triangles found by where they lie in its plane, not only by their boxes:
//! those around a hub (a corner many of them share, a fan's apex) by the angle each spans
//! there.
//!
//! A cap fanned from a corner of its rim is a fan of long slivers across the cap, whose
//! boxes reach over much of it: a small triangle at the rim has its box met by a share of
//! the fan's boxes, so looking its neighbours up by boxes costs the square of the rim's
//! corners over a cap (a fan folded by rounding, which every triangle at the rim is tested
//! against). Seen from the hub, each fan triangle spans an angle of less than a half turn,
//! and a set of points that does not hold the hub is seen within an angle too: a fan
//! triangle can meet the set only where the two angles meet. Directions are compared by
//! exact turns (`orient2d`), turned into ranks among the fan's own directions, and the
//! angles kept as intervals of ranks in an R*-tree: a query costs a few binary searches
//! and the triangles whose angles meet its own, a handful at the rim.

use super::exact::{orient2, project};
use super::grid::{Boxed, bounds};
use super::ids_of;
use crate::body::BoundingBox;
use crate::soup::{Point, Soup};
use ahash::AHashMap as HashMap;
use rstar::{AABB, RTree, primitives::GeomWithData, primitives::Rectangle};
use std::cmp::Ordering;

/// Corners of a flat patch with more triangles around them than this are hubs.
pub(super) const HUB: usize = 16;

/// The hub a triangle with corners `ids` is filed under: of its corners that are hubs
/// (`hubs`: each hub's number of triangles), the one with the most triangles, the lowest
/// point number among equals.
pub(super) fn hub_of(hubs: &HashMap<u64, usize>, ids: &[u64; 3]) -> Option<u64> {
    ids.iter()
        .filter_map(|h| hubs.get(h).map(|&d| (std::cmp::Reverse(d), *h)))
        .min()
        .map(|(_, h)| h)
}

/// Whether the direction from `v` to `p` lies in the second half turn, [π, 2π) from the
/// first axis.
fn second_half(v: &[f64; 2], p: &[f64; 2]) -> bool {
    !(p[1] > v[1] || (p[1] == v[1] && p[0] > v[0]))
}

/// The order of the directions from `v` to `p` and to `q` by their angle from the first
/// axis, counter-clockwise in [0, 2π), exactly: `Equal` when they point the same way.
pub(super) fn turn(v: &[f64; 2], p: &[f64; 2], q: &[f64; 2]) -> Ordering {
    second_half(v, p)
        .cmp(&second_half(v, q))
        .then_with(|| 0.cmp(&orient2(v, p, q)))
}

/// Where a hub's triangles may meet a set of points, seen from the hub.
#[derive(Debug, PartialEq)]
enum Seen {
    /// Nowhere: none of them can.
    Nowhere,
    /// Anywhere: the set holds the hub, and may meet every one.
    Anywhere,
    /// Only those whose angle at the hub meets this one: its first and last direction,
    /// turning counter-clockwise, less than a half turn apart (equal for one direction).
    Within([f64; 2], [f64; 2]),
}

/// Where the hub `v`'s triangles may meet the hull of `points` (one to three, seen flat):
/// in the directions the hull is seen in from `v`. When `corner`, the points are a
/// triangle's corners in the plane and `v` is one of them: that triangle shares the corner
/// with every triangle around the hub, and a pair sharing a corner crosses, coincides or
/// shares an edge only at points other than that corner (see [`Lookup::near`]), so the
/// hull's angle at `v` is what counts.
fn seen_from(v: &[f64; 2], points: &[[f64; 2]], corner: bool) -> Seen {
    if corner {
        let others: Vec<[f64; 2]> = points.iter().copied().filter(|p| p != v).collect();
        // Another corner seen on the hub (an edge along the dropped axis): no angle.
        if others.len() + 1 < points.len() {
            return Seen::Anywhere;
        }
        return match others[..] {
            [] => Seen::Nowhere,
            [q] => Seen::Within(q, q),
            // The angle at `v` of the triangle `v q r`.
            [q, r] => seen_across(v, q, r),
            _ => Seen::Anywhere,
        };
    }
    if points.contains(v) {
        return Seen::Anywhere;
    }
    match *points {
        [p] => Seen::Within(p, p),
        [p, q] => seen_across(v, p, q),
        [a, b, c] => {
            let o = orient2(&a, &b, &c);
            if o == 0 {
                // Collinear: the hull is the segment between the two outermost.
                let mut s = [a, b, c];
                s.sort_by(|p, q| p[0].total_cmp(&q[0]).then(p[1].total_cmp(&q[1])));
                return seen_from(v, &[s[0], s[2]], false);
            }
            let s = [a, b, c];
            if (0..3).all(|k| orient2(&s[k], &s[(k + 1) % 3], v) * o >= 0) {
                return Seen::Anywhere;
            }
            // Outside the triangle, its corners span less than a half turn: the first is
            // the one every other turns counter-clockwise from (or lies along).
            let first = s.iter().find(|p| s.iter().all(|q| orient2(v, p, q) >= 0));
            let last = s.iter().find(|q| s.iter().all(|p| orient2(v, p, q) >= 0));
            match (first, last) {
                (Some(f), Some(l)) => Seen::Within(*f, *l),
                _ => Seen::Anywhere,
            }
        }
        _ => Seen::Anywhere,
    }
}

/// The directions from `v` in which the segment from `p` to `q` is seen (neither end at
/// `v`): from one end to the other counter-clockwise; on the segment's line, one direction
/// beyond an end, and every direction between them.
fn seen_across(v: &[f64; 2], p: [f64; 2], q: [f64; 2]) -> Seen {
    match orient2(v, &p, &q) {
        1 => Seen::Within(p, q),
        -1 => Seen::Within(q, p),
        _ if (0..2).all(|k| p[k].min(q[k]) <= v[k] && v[k] <= p[k].max(q[k])) => Seen::Anywhere,
        _ => Seen::Within(p, q),
    }
}

/// An interval of ranks (see [`Hub::rank`]) in an R*-tree, with the triangle spanning it.
type Span = GeomWithData<Rectangle<[f64; 2]>, u32>;

/// The triangles of a flat patch around one hub, by the angle each spans there, seen with
/// the patch's dropped coordinate left out.
struct Hub {
    /// The hub.
    at3: [f64; 3],
    /// The hub seen flat.
    at: [f64; 2],
    /// Its triangles, ascending.
    tris: Vec<u32>,
    /// The directions their sides leave the hub in (each as a point along it), distinct and
    /// in [`turn`] order.
    dirs: Vec<[f64; 2]>,
    /// Each triangle's angle as an interval of ranks, two intervals for an angle across
    /// the first axis (where the order starts).
    spans: RTree<Span>,
}

impl Hub {
    /// The triangles `tris` (at least one) around the hub with point number `hub` (`ids`:
    /// each triangle's corners' point numbers; `corners`: its corners), seen with
    /// coordinate `drop` left out.
    fn new(
        hub: u64,
        tris: Vec<u32>,
        ids: impl Fn(u32) -> [u64; 3],
        corners: impl Fn(u32) -> [[f64; 3]; 3],
        drop: usize,
    ) -> Hub {
        let mut at3 = [0.0; 3];
        // Each triangle's sides from the hub, counter-clockwise.
        let sides: Vec<(u32, [f64; 2], [f64; 2])> = tris
            .iter()
            .map(|&t| {
                let c3 = corners(t);
                let k = ids(t).iter().position(|&h| h == hub).unwrap_or(0);
                at3 = c3[k];
                let c = c3.map(|p| project(p, drop));
                let (v, a, b) = (c[k], c[(k + 1) % 3], c[(k + 2) % 3]);
                let (a, b) = if orient2(&v, &a, &b) < 0 {
                    (b, a)
                } else {
                    (a, b)
                };
                (t, a, b)
            })
            .collect();
        let at = project(at3, drop);
        let mut dirs: Vec<[f64; 2]> = sides.iter().flat_map(|s| [s.1, s.2]).collect();
        dirs.sort_by(|p, q| turn(&at, p, q));
        dirs.dedup_by(|p, q| turn(&at, p, q) == Ordering::Equal);
        dirs.shrink_to_fit();
        let mut hub = Hub {
            at3,
            at,
            tris,
            dirs,
            spans: RTree::new(),
        };
        let span = |lo: f64, hi: f64, t: u32| {
            GeomWithData::new(Rectangle::from_corners([lo, 0.0], [hi, 0.0]), t)
        };
        let mut spans: Vec<Span> = Vec::with_capacity(sides.len());
        for (t, a, b) in sides {
            let (ra, rb) = (hub.rank(&a), hub.rank(&b));
            if turn(&at, &a, &b) == Ordering::Greater {
                spans.extend([span(ra, hub.top(), t), span(0.0, rb, t)]);
            } else {
                spans.push(span(ra, rb, t));
            }
        }
        hub.spans = RTree::bulk_load(spans);
        hub
    }

    /// The rank of the direction from the hub to `p` among [`Hub::dirs`]: `2r + 1` for the
    /// r-th, `2r` between the (r − 1)-th and the r-th. Ranks order directions as [`turn`]
    /// does, and are equal for equal directions.
    fn rank(&self, p: &[f64; 2]) -> f64 {
        let below = self
            .dirs
            .partition_point(|d| turn(&self.at, d, p) == Ordering::Less);
        let on = self
            .dirs
            .get(below)
            .is_some_and(|d| turn(&self.at, d, p) == Ordering::Equal);
        (2 * below + on as usize) as f64
    }

    /// The highest rank (past the last direction).
    fn top(&self) -> f64 {
        (2 * self.dirs.len()) as f64
    }

    /// Adds to `out` every triangle around the hub that may meet the hull of `points` (one
    /// to three, as [`Lookup::near`] takes them; `flat`: the same seen flat) at a point
    /// that counts (see [`seen_from`]): those whose angles at the hub meet the angle the
    /// hull is seen in, or all of them when the hull holds the hub otherwise than as a
    /// corner.
    fn reach(&self, points: &[[f64; 3]], flat: &[[f64; 2]], out: &mut Vec<usize>) {
        let (first, last) = match seen_from(&self.at, flat, points.contains(&self.at3)) {
            Seen::Nowhere => return,
            Seen::Anywhere => {
                out.extend(self.tris.iter().map(|&t| t as usize));
                return;
            }
            Seen::Within(first, last) => (first, last),
        };
        let (a, b) = (self.rank(&first), self.rank(&last));
        let pieces = if turn(&self.at, &first, &last) == Ordering::Greater {
            vec![(a, self.top()), (0.0, b)]
        } else {
            vec![(a, b)]
        };
        for (lo, hi) in pieces {
            let env = AABB::from_corners([lo, 0.0], [hi, 0.0]);
            out.extend(
                self.spans
                    .locate_in_envelope_intersecting(&env)
                    .map(|s| s.data as usize),
            );
        }
    }
}

/// A flat patch's triangles as [`Lookup::near`] finds them: those around a hub by their
/// angles there ([`Hub`]), the others by their boxes.
pub(super) struct Lookup {
    /// The hubs.
    hubs: Vec<Hub>,
    /// Each hub's box (of its triangles), with its place in `hubs`.
    hub_boxes: RTree<GeomWithData<Rectangle<[f64; 3]>, usize>>,
    /// The triangles around no hub, by their boxes.
    rest: RTree<Boxed>,
    /// The coordinate left out to see the patch flat.
    drop: usize,
}

impl Lookup {
    /// The lookup of a flat patch's triangles `members`, seen flat with coordinate `drop`
    /// left out.
    pub(super) fn new<S: Soup>(soup: &S, ids: &[u32], members: &[u32], drop: usize) -> Lookup {
        let corners = |t: u32| soup.triangle(t as usize).map(|p| p.coords());
        let boxed = |t: u32| {
            let (lo, hi) = bounds(&corners(t));
            GeomWithData::new(Rectangle::from_corners(lo, hi), t)
        };
        let mut degree: HashMap<u64, usize> = HashMap::new();
        for &t in members {
            for h in ids_of(ids, t as usize) {
                *degree.entry(h).or_default() += 1;
            }
        }
        degree.retain(|_, d| *d > HUB);
        let mut classes: HashMap<u64, Vec<u32>> = HashMap::new();
        let mut rest = Vec::new();
        for &t in members {
            match hub_of(&degree, &ids_of(ids, t as usize)) {
                Some(h) => classes.entry(h).or_default().push(t),
                None => rest.push(boxed(t)),
            }
        }
        let mut hub_boxes = Vec::new();
        let hubs: Vec<Hub> = classes
            .into_iter()
            .enumerate()
            .map(|(k, (h, mut members))| {
                members.sort_unstable();
                let mut b = BoundingBox::empty();
                for &t in &members {
                    let (min, max) = bounds(&corners(t));
                    b = b.union(&BoundingBox { min, max });
                }
                hub_boxes.push(GeomWithData::new(Rectangle::from_corners(b.min, b.max), k));
                Hub::new(h, members, |t| ids_of(ids, t as usize), corners, drop)
            })
            .collect();
        Lookup {
            hubs,
            hub_boxes: RTree::bulk_load(hub_boxes),
            rest: RTree::bulk_load(rest),
            drop,
        }
    }

    /// The patch's triangles (ascending, each once) that the pair test may find anything
    /// with, for a triangle T not of the patch: `points` are T's corners in the plane when
    /// T meets the plane exactly in their hull (its other corners strictly on one side),
    /// or all three when T passes through the plane (its projection seen flat then holds
    /// where it meets the plane).
    ///
    /// Whatever the pair test finds (a crossing, a coincidence, an edge through an edge or
    /// a corner, a shared edge) is at a point the two closed triangles have in common, and
    /// that point lies in the plane: in T's part of the plane. So a triangle of the patch
    /// that does not meet that part is passed over: by boxes for most, by angles around a
    /// hub ([`Hub`]). A triangle around a hub and a T having the hub as a corner meet there
    /// whatever they do; but two triangles sharing a corner cross (an edge strictly through
    /// the other's interior), coincide (interiors overlapping) or share an edge only at
    /// points other than that corner, so only the angles of the two at the hub count.
    pub(super) fn near(&self, points: &[[f64; 3]]) -> Vec<usize> {
        if points.is_empty() {
            return Vec::new();
        }
        let b = BoundingBox::of_points(points);
        let env = AABB::from_corners(b.min, b.max);
        let mut found: Vec<usize> = self
            .rest
            .locate_in_envelope_intersecting(&env)
            .map(|b| b.data as usize)
            .collect();
        let flat: Vec<[f64; 2]> = points.iter().map(|p| project(*p, self.drop)).collect();
        for h in self.hub_boxes.locate_in_envelope_intersecting(&env) {
            self.hubs[h.data].reach(points, &flat, &mut found);
        }
        found.sort_unstable();
        found.dedup();
        found
    }
}

#[cfg(test)]
mod tests {
    use super::{Hub, Seen, orient2, project, seen_from};

    #[test]
    fn a_hull_is_seen_within_its_first_and_last_directions() {
        let v = [0.0, 0.0];
        let within = |p: [f64; 2], q: [f64; 2]| Seen::Within(p, q);
        let seen = |points: &[[f64; 2]]| seen_from(&v, points, false);
        // A point, a segment either way round, a segment pointing at the hub, one
        // through it, a triangle beside it and one around it.
        assert_eq!(seen(&[[1.0, 1.0]]), within([1.0, 1.0], [1.0, 1.0]));
        assert_eq!(
            seen(&[[1.0, 0.0], [0.0, 1.0]]),
            within([1.0, 0.0], [0.0, 1.0])
        );
        assert_eq!(
            seen(&[[0.0, 1.0], [1.0, 0.0]]),
            within([1.0, 0.0], [0.0, 1.0])
        );
        assert_eq!(
            seen(&[[1.0, 1.0], [2.0, 2.0]]),
            within([1.0, 1.0], [2.0, 2.0])
        );
        assert_eq!(seen(&[[-1.0, -1.0], [2.0, 2.0]]), Seen::Anywhere);
        assert_eq!(seen(&[[0.0, 0.0], [2.0, 2.0]]), Seen::Anywhere);
        assert_eq!(
            seen(&[[1.0, -1.0], [2.0, 0.0], [1.0, 1.0]]),
            within([1.0, -1.0], [1.0, 1.0])
        );
        assert_eq!(
            seen(&[[1.0, -1.0], [1.0, 1.0], [-2.0, 0.0]]),
            Seen::Anywhere
        );
        // Collinear corners: the outermost two.
        assert_eq!(
            seen(&[[1.0, 3.0], [1.0, 1.0], [1.0, 2.0]]),
            within([1.0, 1.0], [1.0, 3.0])
        );
        // The hub as a corner: the hull's angle there, nothing for the hub alone, and
        // everything when the hub lies between the other two on a line.
        let corner = |points: &[[f64; 2]]| seen_from(&v, points, true);
        assert_eq!(
            corner(&[[0.0, 1.0], [0.0, 0.0], [1.0, 0.0]]),
            within([1.0, 0.0], [0.0, 1.0])
        );
        assert_eq!(
            corner(&[[0.0, 0.0], [2.0, 1.0]]),
            within([2.0, 1.0], [2.0, 1.0])
        );
        assert_eq!(corner(&[[0.0, 0.0]]), Seen::Nowhere);
        assert_eq!(
            corner(&[[-1.0, 0.0], [0.0, 0.0], [1.0, 0.0]]),
            Seen::Anywhere
        );
    }

    /// Whether the closed triangle `t` (counter-clockwise) meets the hull of `points` at a
    /// point other than `but`: sampled on a fine grid of the hull (the queries below meet
    /// the triangles they meet over more than a cell of it).
    fn meets(t: [[f64; 2]; 3], points: &[[f64; 2]], but: Option<[f64; 2]>) -> bool {
        let inside = |x: [f64; 2]| (0..3).all(|k| orient2(&t[k], &t[(k + 1) % 3], &x) >= 0);
        let at = |k: usize| points[k.min(points.len() - 1)];
        let m = 200;
        (0..=m).any(|i| {
            (0..=m - i).any(|j| {
                let (s, r) = (i as f64 / m as f64, j as f64 / m as f64);
                let w = [1.0 - s - r, s, r];
                let x = [0, 1].map(|c| w[0] * at(0)[c] + w[1] * at(1)[c] + w[2] * at(2)[c]);
                Some(x) != but && inside(x)
            })
        })
    }

    #[test]
    fn a_fan_is_found_by_its_angles_every_way_round() {
        // A fan of 40 triangles about the origin over a full turn (one across the first
        // axis), against points, segments and triangles around it: what the hub reaches
        // holds every triangle the query meets (found by sampling), and little else.
        let n = 40;
        let rim = |k: usize| {
            let a = std::f64::consts::TAU * (k % n) as f64 / n as f64 + 0.05;
            [3.0 * a.cos(), 3.0 * a.sin(), 1.0]
        };
        let corners = |t: u32| [[0.0, 0.0, 1.0], rim(t as usize), rim(t as usize + 1)];
        let flat = |t: u32| corners(t).map(|p| project(p, 2));
        let ids = |t: u32| [0, t as u64 % n as u64 + 1, (t as u64 + 1) % n as u64 + 1];
        let hub = Hub::new(0, (0..n as u32).collect(), ids, corners, 2);
        let queries: Vec<(Vec<[f64; 2]>, usize)> = vec![
            (vec![[2.0, 0.1]], 2),
            (vec![[2.9, 0.0], [2.9, 0.4]], 3),
            (vec![[2.0, -0.5], [2.0, 0.5]], 4),
            (vec![[-1.0, 1.0], [-1.5, 0.5], [-1.2, 1.4]], 6),
            (vec![[1.0, 2.0], [-1.0, 2.0]], 9),
            (vec![[-1.0, -1.0], [1.0, 1.0]], n),
            // With the hub as a corner.
            (vec![[0.0, 0.0], [1.0, 0.2], [1.0, 0.4]], 3),
            (vec![[0.0, 0.0], [-1.0, 0.0]], 2),
        ];
        for (q, most) in &queries {
            let points: Vec<[f64; 3]> = q.iter().map(|p| [p[0], p[1], 1.0]).collect();
            let mut out = Vec::new();
            hub.reach(&points, q, &mut out);
            out.sort_unstable();
            out.dedup();
            let but = q.contains(&[0.0, 0.0]).then_some([0.0, 0.0]);
            for t in 0..n as u32 {
                if meets(flat(t), q, but) {
                    assert!(out.contains(&(t as usize)), "{q:?}: {t} missed");
                }
            }
            assert!(out.len() <= *most, "{q:?}: {out:?}");
        }
    }
}
