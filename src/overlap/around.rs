//! Triangles around a shared point, by the rays from it that they hold.
//!
//! Two triangles sharing a corner `v` have in common, besides `v`, only points `x` whose
//! whole segment from `v` both hold (each triangle is convex and holds `v`): they meet
//! anywhere else only if some ray from `v` runs into both. A triangle holds the rays
//! between its two sides at `v` (its angle there, of less than a half turn), which on the
//! sphere of directions is the shorter arc between its sides' unit directions. A box
//! holding that arc ([`cone_box`]) is computed in floating point with a bound on its
//! rounding, so that two triangles at `v` whose boxes are apart hold no ray in common and
//! meet only at `v`: whatever the pair test looks for (an edge through the other's
//! interior, interiors lying on each other, a shared edge run the same way, an edge
//! through an edge or a corner) would be at a second common point. Such a pair is
//! passed over ([`apart`]).
//!
//! At a hub (a point of more than 16 triangles: an apex, a pole, a cap's centre, and any
//! number of fans of bodies that meet at one point) every triangle's box in space meets
//! every other's, and the broad phase would list the square of the hub's triangles. So it
//! lists no pair sharing a hub, and each hub's triangles are paired here instead, by their
//! boxes of directions, on an R*-tree ([`Around::search`]): a fan's slivers meet their
//! neighbours' arcs and a few others, two fans on either side of a plane through the hub
//! (two cones apex to apex, two bodies touching at a corner) none of each other's, so a
//! hub of `d` triangles costs `d log d` and the pairs that really hold rays near one
//! another, however many fans, bodies or turns meet there.

use super::{Overlap, Tri, earliest, ids_of};
use crate::body::BoundingBox;
use crate::fans::Hubs;
use rayon::prelude::*;
use rstar::{AABB, RTree, primitives::GeomWithData, primitives::Rectangle};

/// No hub.
pub(super) const NONE: u32 = u32::MAX;

/// A bound on the distance between a unit direction as [`unit`] computes it and the exact
/// one: `2⁻⁴⁷`, some 64 units in the last place of 1 (the differences are within `ε/2` of
/// the exact ones each, which turns the direction by at most `ε`; the scaling, the norm
/// and the division add at most `3ε` to each coordinate of a unit vector; eight times
/// that is left over).
const UNIT_ERROR: f64 = 1.0 / (1u64 << 47) as f64;

/// The unit direction from `v` to `a` (distinct points), computed with an error of at most
/// [`UNIT_ERROR`]; `None` when a difference is not finite. Scaled by its largest
/// coordinate first, so that tiny and huge differences neither underflow nor overflow
/// when squared (the scaled norm lies between 1 and √3).
fn unit(v: &[f64; 3], a: &[f64; 3]) -> Option<[f64; 3]> {
    let d = [a[0] - v[0], a[1] - v[1], a[2] - v[2]];
    if !d.iter().all(|x| x.is_finite()) {
        return None;
    }
    let m = d[0].abs().max(d[1].abs()).max(d[2].abs());
    if m == 0.0 {
        return None;
    }
    let w = d.map(|x| x / m);
    let r = (w[0] * w[0] + w[1] * w[1] + w[2] * w[2]).sqrt();
    Some(w.map(|x| x / r))
}

/// A box (low and high corners) holding every unit direction from `v` into the triangle
/// `v a b`: the shorter arc between the unit directions `p` and `q` of its sides. The arc
/// lies within its sagitta `1 − cos(φ/2) ≤ c²/4` of the chord from `p` to `q` (`c` the
/// chord's length, `φ ≤ π` the angle), so in the box of the two ends widened by that;
/// with the ends as computed, within [`UNIT_ERROR`] of the exact ones, the box is widened
/// by the error too, and `c` bounded through the computed ends' distance (at most their
/// distance along the axes) plus twice the error. Each rounding of the bound is covered by
/// a factor `1 + 2⁻⁵⁰` or a term `2⁻⁵⁰` (at least four times the rounding of numbers below
/// 5). A side that cannot be computed gives a box holding every direction.
pub(super) fn cone_box(v: &[f64; 3], a: &[f64; 3], b: &[f64; 3]) -> BoundingBox {
    let (Some(p), Some(q)) = (unit(v, a), unit(v, b)) else {
        return BoundingBox {
            min: [-2.0; 3],
            max: [2.0; 3],
        };
    };
    const ROUND: f64 = 1.0 / (1u64 << 50) as f64;
    let e = UNIT_ERROR;
    let l = (p[0] - q[0]).abs() + (p[1] - q[1]).abs() + (p[2] - q[2]).abs();
    let c = l * (1.0 + ROUND) + 2.0 * e;
    let margin = (e + 0.25 * c * c) * (1.0 + ROUND) + ROUND;
    BoundingBox {
        min: [0, 1, 2].map(|k| p[k].min(q[k]) - margin),
        max: [0, 1, 2].map(|k| p[k].max(q[k]) + margin),
    }
}

/// The [`cone_box`] of triangle `t` at its corner `k`.
fn cone_box_at(t: &[[f64; 3]; 3], k: usize) -> BoundingBox {
    cone_box(&t[k], &t[(k + 1) % 3], &t[(k + 2) % 3])
}

/// Whether two triangles with a corner in common (the same point, exactly) hold no ray
/// from it in common, by their [`cone_box`]es there: then they meet only at that corner,
/// and the pair test would find nothing. False when no corner is shared, or when the
/// boxes meet (as they do for triangles sharing two corners: both hold the ray along the
/// edge).
pub(super) fn apart(t1: &[[f64; 3]; 3], t2: &[[f64; 3]; 3]) -> bool {
    for k1 in 0..3 {
        if let Some(k2) = t2.iter().position(|p| *p == t1[k1]) {
            return !cone_box_at(t1, k1).meets(&cone_box_at(t2, k2));
        }
    }
    false
}

/// Every triangle at the hub `[point, a triangle at it, how many triangles]`, walked
/// across the neighbours `nbr` from the triangle given, each to the one across its edge
/// from the hub; `None` unless the walk closes after exactly as many steps as there are
/// triangles (one fan round the hub, so that it has met them all).
fn fan(ids: &[u32], nbr: &[u32], [hub, first, count]: [u32; 3]) -> Option<Vec<u32>> {
    let mut fan = Vec::with_capacity(count as usize);
    let mut at = first;
    loop {
        let k = (0..3).find(|&k| ids[3 * at as usize + k] == hub)?;
        fan.push(at);
        at = nbr[3 * at as usize + k];
        if at == first || at == crate::fans::NONE || fan.len() >= count as usize {
            break;
        }
    }
    (at == first && fan.len() == count as usize).then_some(fan)
}

/// The broad phase's triangles at each hub.
pub(super) struct Around {
    /// The hubs' point numbers, ascending.
    points: Vec<u32>,
    /// How many triangles each hub has (the weld's count, degenerate ones too).
    degree: Vec<u32>,
    /// Where each hub's triangles start in `members`, and after the last the end.
    starts: Vec<usize>,
    /// Each hub's triangles in the broad phase, ascending, one hub after another (none
    /// for a hub whose triangles are all of one patch).
    members: Vec<u32>,
}

/// A [`cone_box`] in an R*-tree, with the triangle's place among its hub's.
type Ray = GeomWithData<Rectangle<[f64; 3]>, u32>;

impl Around {
    /// No hub: every pair is the broad phase's.
    pub(super) fn none() -> Around {
        Around {
            points: Vec::new(),
            degree: Vec::new(),
            starts: vec![0],
            members: Vec::new(),
        }
    }

    /// The triangles in the broad phase ([`Tri::in_grid`]) at each of `hubs`, their
    /// corners' point numbers `ids` and neighbours across their edges `nbr`; marks
    /// [`Tri::at_hub`] those with a hub for a corner. A hub's triangles are found by
    /// walking its fan across the neighbours from the triangle the weld names (one fan
    /// closing after as many steps as the hub has triangles has met every one), or, if
    /// some hub's are not (several fans at one point, an open one), by a pass over all.
    pub(super) fn new(hubs: &Hubs, ids: &[u32], nbr: &[u32], tris: &mut [Tri]) -> Around {
        if hubs.is_empty() {
            return Around::none();
        }
        let mut hubs = hubs.clone();
        hubs.sort_unstable();
        hubs.dedup_by_key(|h| h[0]);
        let points: Vec<u32> = hubs.iter().map(|h| h[0]).collect();
        let degree: Vec<u32> = hubs.iter().map(|h| h[2]).collect();
        let walked: Option<Vec<Vec<u32>>> = hubs.par_iter().map(|&h| fan(ids, nbr, h)).collect();
        let mut at: Vec<(u32, u32)> = match walked {
            Some(fans) => {
                for &t in fans.iter().flatten() {
                    tris[t as usize].at_hub = true;
                }
                fans.iter()
                    .enumerate()
                    .flat_map(|(h, f)| f.iter().map(move |&t| (h as u32, t)))
                    .filter(|&(_, t)| tris[t as usize].in_grid())
                    .collect()
            }
            None => {
                let find = |p: u32| points.binary_search(&p).ok();
                tris.par_iter_mut()
                    .enumerate()
                    .with_min_len(1 << 12)
                    .flat_map_iter(|(t, tri)| {
                        let found = ids_of(ids, t).map(|p| find(p as u32));
                        tri.at_hub = found.iter().any(Option::is_some);
                        let listed = tri.in_grid();
                        found
                            .into_iter()
                            .flatten()
                            .filter(move |_| listed)
                            .map(move |h| (h as u32, t as u32))
                    })
                    .collect()
            }
        };
        at.par_sort_unstable();
        // A hub whose triangles are all of one patch has no pair to test (a cone's apex).
        let mut one_patch = vec![true; points.len()];
        for w in at.windows(2) {
            if w[0].0 == w[1].0 && !tris[w[0].1 as usize].same_patch(&tris[w[1].1 as usize]) {
                one_patch[w[0].0 as usize] = false;
            }
        }
        at.retain(|&(h, _)| !one_patch[h as usize]);
        let mut starts = vec![0usize; points.len() + 1];
        for &(h, _) in &at {
            starts[h as usize + 1] += 1;
        }
        for h in 0..points.len() {
            starts[h + 1] += starts[h];
        }
        Around {
            points,
            degree,
            starts,
            members: at.into_iter().map(|(_, t)| t).collect(),
        }
    }

    /// Whether there is a hub at all.
    #[inline]
    pub(super) fn any(&self) -> bool {
        !self.points.is_empty()
    }

    /// The place of point `p` among the hubs, if it is one.
    #[inline]
    fn hub(&self, p: u64) -> Option<usize> {
        self.points.binary_search(&(p as u32)).ok()
    }

    /// Whether triangles `i` and `j` (corners' point numbers `ids`) share a hub: then
    /// [`Around::search`] pairs them, and the broad phase passes them over.
    #[inline]
    pub(super) fn shares(&self, ids: &[u32], i: usize, j: usize) -> bool {
        let (a, b) = (ids_of(ids, i), ids_of(ids, j));
        a.iter().any(|p| b.contains(p) && self.hub(*p).is_some())
    }

    /// The hub triangle `t` is filed under in the broad phase: of its corners that are
    /// hubs, the one with the most triangles, the lowest point among equals; [`NONE`]
    /// when it has none. Two triangles filed under one hub share it.
    pub(super) fn class(&self, ids: &[u32], t: usize) -> u32 {
        ids_of(ids, t)
            .iter()
            .filter_map(|&p| {
                self.hub(p)
                    .map(|h| (std::cmp::Reverse(self.degree[h]), p as u32))
            })
            .min()
            .map_or(NONE, |(_, p)| p)
    }

    /// The first pair (by [`earliest`]) that `test(i, j)`, `i < j`, finds among the
    /// pairs of the broad phase's triangles sharing a hub: at each hub, the pairs whose
    /// [`cone_box`]es there meet (the others meet only at the hub, see [`apart`]); a pair
    /// sharing two hubs at the lower one only. `corners(t)` are triangle `t`'s corners.
    pub(super) fn search<C, F>(&self, corners: C, ids: &[u32], test: &F) -> Option<Overlap>
    where
        C: Fn(usize) -> [[f64; 3]; 3] + Sync,
        F: Fn(usize, usize) -> Option<Overlap> + Sync,
    {
        (0..self.points.len())
            .into_par_iter()
            .map(|h| {
                let members = &self.members[self.starts[h]..self.starts[h + 1]];
                if members.len() < 2 {
                    return None;
                }
                let point = self.points[h] as u64;
                let boxes: Vec<BoundingBox> = members
                    .par_iter()
                    .with_min_len(1 << 10)
                    .map(|&t| {
                        let k = ids_of(ids, t as usize)
                            .iter()
                            .position(|&p| p == point)
                            .unwrap_or(0);
                        cone_box_at(&corners(t as usize), k)
                    })
                    .collect();
                let tree: RTree<Ray> = RTree::bulk_load(
                    boxes
                        .iter()
                        .enumerate()
                        .map(|(x, b)| {
                            GeomWithData::new(Rectangle::from_corners(b.min, b.max), x as u32)
                        })
                        .collect(),
                );
                // Shares a hub below this one as well (paired there).
                let lower = |i: usize, j: usize| {
                    let (a, b) = (ids_of(ids, i), ids_of(ids, j));
                    a.iter()
                        .any(|&p| p < point && b.contains(&p) && self.hub(p).is_some())
                };
                members
                    .par_iter()
                    .enumerate()
                    .with_min_len(1 << 8)
                    .map(|(x, &i)| {
                        let i = i as usize;
                        let env = AABB::from_corners(boxes[x].min, boxes[x].max);
                        let mut best = None;
                        for r in tree.locate_in_envelope_intersecting(&env) {
                            let y = r.data as usize;
                            if y <= x {
                                continue;
                            }
                            let j = members[y] as usize;
                            if lower(i, j) {
                                continue;
                            }
                            best = earliest(best, test(i, j));
                        }
                        best
                    })
                    .reduce(|| None, earliest)
            })
            .reduce(|| None, earliest)
    }
}

#[cfg(test)]
mod tests {
    use super::{BoundingBox, Overlap, apart, cone_box};
    use crate::test_rng::Lcg;

    /// Whether the exact pair test finds anything at all for two triangles sharing one
    /// corner: an edge through the other's interior, interiors lying on each other (either
    /// way round), or (sharing two corners) a common edge.
    fn found(t1: &[[f64; 3]; 3], t2: &[[f64; 3]; 3]) -> bool {
        use super::super::exact::{across_corner, overlap_in_plane};
        use crate::predicates::orient;
        let shared = t1.iter().filter(|p| t2.contains(p)).count();
        if shared >= 2 {
            return true;
        }
        let coplanar = t2.iter().all(|p| orient(&t1[0], &t1[1], &t1[2], p) == 0);
        across_corner(t1, t2, [false, false]).is_some()
            || (coplanar && overlap_in_plane(t1, t2).is_some())
    }

    /// Whether two triangles sharing corner `v` (sides to `a1`, `b1` and to `a2`, `b2`)
    /// hold a ray from it in common, exactly, in integers: in one plane, when a side of
    /// one lies in the other's closed angle; else when the line where their planes meet
    /// lies, one way or the other, in both angles.
    fn share_a_ray(v: [i64; 3], a1: [i64; 3], b1: [i64; 3], a2: [i64; 3], b2: [i64; 3]) -> bool {
        type V = [i128; 3];
        let d = |p: [i64; 3]| [0, 1, 2].map(|k| (p[k] - v[k]) as i128);
        let cross = |a: V, b: V| -> V {
            [
                a[1] * b[2] - a[2] * b[1],
                a[2] * b[0] - a[0] * b[2],
                a[0] * b[1] - a[1] * b[0],
            ]
        };
        let dot = |a: V, b: V| a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
        let (u1, w1, u2, w2) = (d(a1), d(b1), d(a2), d(b2));
        let (n1, n2) = (cross(u1, w1), cross(u2, w2));
        // Direction `p` (in the angle's plane) within the closed angle from `u` to `w`.
        let within = |u: V, w: V, n: V, p: V| dot(cross(u, p), n) >= 0 && dot(cross(p, w), n) >= 0;
        let l = cross(n1, n2);
        if l == [0; 3] {
            within(u1, w1, n1, u2)
                || within(u1, w1, n1, w2)
                || within(u2, w2, n2, u1)
                || within(u2, w2, n2, w1)
        } else {
            [l, l.map(|x| -x)]
                .into_iter()
                .any(|r| within(u1, w1, n1, r) && within(u2, w2, n2, r))
        }
    }

    #[test]
    fn apart_is_exactly_no_ray_in_common_on_a_grid() {
        // Integer corners (exact in f64), far from the origin or not: sides along one
        // another (multiples), in one plane, nearly opposite. `apart` never says apart
        // for a pair holding a ray in common, and says it for most that hold none.
        let mut rng = Lcg(17);
        let (mut none, mut called) = (0, 0);
        for case in 0..100_000 {
            let offset = [0i64, 1 << 40, -(1 << 50)][case % 3];
            let r = |rng: &mut Lcg, m: i64| rng.below(2 * m as u64 + 1) as i64 - m;
            let m = [3, 50, 1 << 15][(case / 3) % 3];
            let v = [0, 1, 2].map(|_| offset + r(&mut rng, m));
            let side = |rng: &mut Lcg| [0, 1, 2].map(|_| r(rng, m));
            let at = |d: [i64; 3]| [0, 1, 2].map(|k| v[k] + d[k]);
            let (d1, d2) = (side(&mut rng), side(&mut rng));
            let (s1, s2) = match rng.below(4) {
                // A multiple of a side of the first.
                0 => {
                    let f = 2 + rng.below(2) as i64;
                    (d1.map(|x| x * f), side(&mut rng))
                }
                // The first's sides turned about the corner (apex to apex).
                1 => (d1.map(|x| -x), d2.map(|x| -x + rng.below(3) as i64 - 1)),
                // In the first's plane: sums of its sides.
                2 => {
                    let (p, q) = (r(&mut rng, 2), r(&mut rng, 2));
                    let (s, t) = (r(&mut rng, 2), r(&mut rng, 2));
                    (
                        [0, 1, 2].map(|k| p * d1[k] + q * d2[k]),
                        [0, 1, 2].map(|k| s * d1[k] + t * d2[k]),
                    )
                }
                _ => (side(&mut rng), side(&mut rng)),
            };
            let f = |p: [i64; 3]| p.map(|x| x as f64);
            let (t1, t2) = ([f(v), f(at(d1)), f(at(d2))], [f(v), f(at(s1)), f(at(s2))]);
            let flat = |t: &[[f64; 3]; 3]| super::super::patch::faces_mask(t) == 0;
            if flat(&t1) || flat(&t2) || t1[1..].iter().any(|p| t2.contains(p)) {
                continue;
            }
            let shared = share_a_ray(v, at(d1), at(d2), at(s1), at(s2));
            let is_apart = apart(&t1, &t2);
            if is_apart {
                called += 1;
                assert!(!shared, "case {case}: {t1:?} {t2:?}");
                assert!(!found(&t1, &t2), "case {case}: {t1:?} {t2:?}");
            }
            none += !shared as usize;
        }
        // Many pairs holding no ray in common are told apart (not all: the box of a wide
        // angle's arc is wide).
        assert!(called > 5_000 && none > 20_000, "{called} of {none}");
    }

    #[test]
    fn a_cone_box_holds_the_arc() {
        // Points along the arc, from many angles, near the origin and far from it, tiny
        // and huge: every one in the box.
        let mut rng = Lcg(3);
        for case in 0..20_000 {
            let scale: f64 = [1e-300, 1e-9, 1.0, 1e9, 1e300][case % 5];
            let offset = [0.0, 1e6, -1e8][case % 3] * scale.min(1.0);
            let p = |rng: &mut Lcg| [0, 1, 2].map(|_| offset + scale * (rng.unit() - 0.5));
            let (v, a, b) = (p(&mut rng), p(&mut rng), p(&mut rng));
            if a == v || b == v {
                continue;
            }
            let BoundingBox { min: lo, max: hi } = cone_box(&v, &a, &b);
            for s in 0..=16 {
                let w = s as f64 / 16.0;
                let d = [0, 1, 2].map(|k| (1.0 - w) * (a[k] - v[k]) + w * (b[k] - v[k]));
                let n = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
                if !(n > 0.0 && n.is_finite()) {
                    continue;
                }
                for k in 0..3 {
                    let u = d[k] / n;
                    assert!(lo[k] <= u && u <= hi[k], "case {case}: {v:?} {a:?} {b:?}");
                }
            }
        }
    }

    #[test]
    fn triangles_called_apart_at_a_corner_meet_only_there() {
        // Pairs sharing a corner, many of them holding a ray in common exactly (a side of
        // one along a side of the other, or inside the other's angle, or lying in its
        // plane), tiny and huge, far from the origin, and rounded to f32: whenever `apart`
        // says apart, the exact test finds nothing and no ray is shared.
        let mut rng = Lcg(11);
        let mut called = [0usize; 2];
        for case in 0..200_000 {
            let scale = [1e-6, 1.0, 1e6][case % 3];
            let offset = [0.0, 1e3, -1e7][(case / 3) % 3];
            let f32_ = case % 7 == 0;
            let r = |rng: &mut Lcg| scale * (rng.unit() - 0.5);
            let round = |p: [f64; 3]| if f32_ { p.map(|x| x as f32 as f64) } else { p };
            let v = round([0, 1, 2].map(|_| offset + r(&mut rng)));
            let side = |rng: &mut Lcg| [r(rng), r(rng), r(rng)];
            let at = |d: [f64; 3], t: f64| round([0, 1, 2].map(|k| v[k] + t * d[k]));
            let (d1, d2) = (side(&mut rng), side(&mut rng));
            let t1 = [v, at(d1, 1.0), at(d2, 1.0)];
            // The second: sides near the first's (a ray in common, or nearly), or anywhere.
            let t2 = match rng.below(6) {
                // A side along the first's side, longer or shorter.
                0 => [v, at(d1, 0.5 + rng.unit() * 2.0), at(side(&mut rng), 1.0)],
                // A side inside the first's angle.
                1 => {
                    let w = rng.unit();
                    let d = [0, 1, 2].map(|k| w * d1[k] + (1.0 - w) * d2[k]);
                    [v, at(d, 0.3 + rng.unit()), at(side(&mut rng), 1.0)]
                }
                // In the first's plane, overlapping it or beside it.
                2 => {
                    let (a, b) = (rng.unit() * 2.0 - 0.5, rng.unit() * 2.0 - 0.5);
                    let d = [0, 1, 2].map(|k| a * d1[k] + b * d2[k]);
                    let (a, b) = (rng.unit() * 2.0 - 0.5, rng.unit() * 2.0 - 0.5);
                    let e = [0, 1, 2].map(|k| a * d1[k] + b * d2[k]);
                    [v, at(d, 1.0), at(e, 1.0)]
                }
                // Sides nearly opposite the first's (apex to apex).
                3 => {
                    let n = |d: [f64; 3], rng: &mut Lcg| {
                        [0, 1, 2].map(|k| -d[k] + 1e-9 * scale * (rng.unit() - 0.5))
                    };
                    [v, at(n(d1, &mut rng), 1.0), at(n(d2, &mut rng), 1.0)]
                }
                // Nearly along the first's side.
                4 => {
                    let n = [0, 1, 2].map(|k| d1[k] * (1.0 + 1e-15 * (rng.unit() - 0.5)));
                    [v, at(n, 1.0), at(side(&mut rng), 1.0)]
                }
                _ => [v, at(side(&mut rng), 1.0), at(side(&mut rng), 1.0)],
            };
            let degenerate = |t: &[[f64; 3]; 3]| {
                t[0] == t[1]
                    || t[1] == t[2]
                    || t[0] == t[2]
                    || super::super::patch::faces_mask(t) == 0
            };
            if degenerate(&t1) || degenerate(&t2) {
                continue;
            }
            let is_apart = apart(&t1, &t2);
            assert_eq!(is_apart, apart(&t2, &t1), "case {case}");
            called[is_apart as usize] += 1;
            if is_apart {
                assert!(!found(&t1, &t2), "case {case}: {t1:?} {t2:?}");
            }
        }
        // Both answers are common.
        assert!(called[0] > 20_000 && called[1] > 5_000, "{called:?}");
    }

    use super::super::{Mode, Settings, Stats, search};
    use crate::soup::VertexSoup;

    /// What the search finds (the overlap, or how many contacts), and what it did, with
    /// the rule of this module or without it.
    fn search_stats(points: &[[f64; 3]], rule: bool) -> (Found, Stats) {
        let stats = Stats::default();
        let settings = Settings {
            around: rule,
            stats: Some(&stats),
            ..Settings::FULL
        };
        let verdict = search(&VertexSoup(points), settings, Mode::Solid);
        (verdict.map(|c| c.map(|c| c.count)), stats)
    }

    /// What the search finds, and how many pairs the broad phase and the hubs listed, with
    /// the rule of this module or without it.
    fn search_with(points: &[[f64; 3]], rule: bool) -> (Found, usize) {
        let (found, stats) = search_stats(points, rule);
        (found, stats.listed.into_inner())
    }

    type Found = Result<Option<usize>, Overlap>;

    /// The same verdict with the rule and without it; the verdict and the pairs listed
    /// with it and without.
    fn both(points: &[[f64; 3]]) -> (Found, usize, usize) {
        let (with, fewer) = search_with(points, true);
        let (without, all) = search_with(points, false);
        assert_eq!(with, without);
        (with, fewer, all)
    }

    /// A cone of `2n` triangles: its apex `apex`, its base the circle of radius 1 about
    /// (0, 0, 1) in the plane z = 1, fanned from its centre, rim point `k` at angle
    /// `angle(k)` and radius `1 + k / 100n` (no two alike, however the angles go round).
    /// Outward when the apex is below the base.
    fn cone(n: usize, apex: [f64; 3], angle: impl Fn(usize) -> f64) -> Vec<[f64; 3]> {
        let rim = |k: usize| {
            let (a, r) = (angle(k % n), 1.0 + (k % n) as f64 / (100 * n) as f64);
            [r * a.cos(), r * a.sin(), 1.0]
        };
        let centre = [0.0, 0.0, 1.0];
        let mut v = Vec::new();
        for k in 0..n {
            v.extend([apex, rim(k + 1), rim(k)]);
            v.extend([centre, rim(k), rim(k + 1)]);
        }
        v
    }

    fn even(n: usize) -> impl Fn(usize) -> f64 {
        move |k| std::f64::consts::TAU * k as f64 / n as f64
    }

    /// Two regular `n`-sided cones apex to apex at the origin, axes along ±z, bases of
    /// radius 1 at z = ±1 fanned from a corner of the rim: each cone's sides, then its cap.
    fn apex_to_apex(n: usize) -> Vec<[f64; 3]> {
        let rim = |k: usize, z: f64| {
            let a = std::f64::consts::TAU * (k % n) as f64 / n as f64;
            [a.cos(), a.sin(), z]
        };
        let o = [0.0; 3];
        let mut v = Vec::new();
        for z in [1.0, -1.0] {
            // Outward: seen from outside, counter-clockwise (the lower cone mirrored).
            let tri = |v: &mut Vec<[f64; 3]>, a, b, c| {
                if z > 0.0 {
                    v.extend([a, b, c])
                } else {
                    v.extend([a, c, b])
                }
            };
            for k in 0..n {
                tri(&mut v, o, rim(k + 1, z), rim(k, z));
            }
            for k in 1..n - 1 {
                tri(&mut v, rim(0, z), rim(k, z), rim(k + 1, z));
            }
        }
        v
    }

    #[test]
    fn a_fan_going_round_twice_is_refused_and_once_round_passes() {
        // Round twice: the rim's angles doubled (a surface that overlaps itself), at the
        // apex and at the base's centre; apex below and above the base.
        for n in [17, 40, 1000] {
            let twice = move |k: usize| 2.0 * even(n)(k);
            assert!(both(&cone(n, [0.0; 3], twice)).0.is_err(), "n = {n}");
            assert!(matches!(both(&cone(n, [0.0; 3], even(n))).0, Ok(None)));
            // Inside out: the same fans, wound the other way (refused by nothing here).
            let _ = both(&cone(n, [0.0, 0.0, 2.0], even(n)));
        }
        // An oblique cone whose apex lies outside the base's circle in every view along
        // an axis (no one axis faces all of its fan).
        assert!(matches!(
            both(&cone(40, [2.0, 0.1, 0.0], even(40))).0,
            Ok(None)
        ));
    }

    #[test]
    fn random_double_cones_are_passed_once_round_and_refused_twice_round() {
        // Two fans on one rim, from (0, 0, 0) below and (0, 0, 3) above, the rim's points
        // at random heights between them (the upper fan is above the lower over every
        // sector), random radii and random increasing angles that go round once (a closed
        // surface: the check passes it) or twice (it overlaps itself: refused), the same
        // with the rule and without.
        let mut rng = crate::test_rng::Lcg(5);
        for case in 0..60 {
            let n = 17 + rng.below(60) as usize;
            let turns = 1 + case % 2;
            // Each in its own n-th of the way round (no sector of half a turn or more).
            let angles: Vec<f64> = (0..n)
                .map(|k| (k as f64 + 0.8 * rng.unit()) / n as f64)
                .collect();
            let rim: Vec<[f64; 3]> = angles
                .iter()
                .map(|&u| {
                    let a = std::f64::consts::TAU * turns as f64 * u;
                    let r = 0.5 + rng.unit();
                    [r * a.cos(), r * a.sin(), 0.5 + 2.0 * rng.unit()]
                })
                .collect();
            let (below, above) = ([0.0; 3], [0.0, 0.0, 3.0]);
            let mut v = Vec::new();
            for k in 0..n {
                let (a, b) = (rim[k], rim[(k + 1) % n]);
                v.extend([below, b, a]);
                v.extend([above, a, b]);
            }
            let verdict = both(&v).0;
            if turns == 1 {
                assert!(matches!(verdict, Ok(None)), "case {case}");
            } else {
                assert!(verdict.is_err(), "case {case}");
            }
        }
    }

    #[test]
    fn pairs_at_a_hub_are_not_listed_when_the_patches_split_its_fan() {
        for s in [202, 402] {
            // A UV sphere, as the benchmarks' (`examples/sphere_mesh.rs`), rounded to
            // `f32` as a binary STL: its triangles listed from one pole to the other, and
            // an odd number of rings, so that the middle band faces neither way along z.
            // The patches grow one hemisphere from the first pole and split the other
            // among the axes its triangles face, and the second pole's fan with it.
            let m = crate::shape::Shape3d::Sphere { radius: 1.0 }.tessellate(s);
            let v: Vec<[f64; 3]> = m
                .triangles
                .iter()
                .flat_map(|t| t.map(|i| m.vertices[i as usize].map(|x| x as f32 as f64)))
                .collect();
            let (verdict, fewer, all) = both(&v);
            assert!(matches!(verdict, Ok(None)), "s = {s}");
            // Around the second pole every box meets every other: listed, their pairs are
            // the square of the fan's size (found around it, a few for each triangle).
            assert!(
                2 * fewer < all,
                "s = {s}: {fewer} pairs listed against {all}"
            );
            // A small tetrahedron through the surface near either pole: found, the same
            // pair either way.
            for z in [-1.0, 1.0] {
                let (c, d) = ([0.01, 0.0, 0.9999 * z], 0.003);
                let p = [
                    [c[0] - d, c[1] - d, c[2] - d],
                    [c[0] + d, c[1] - d, c[2] - d],
                    [c[0], c[1] + d, c[2] - d],
                    [c[0], c[1], c[2] + d],
                ];
                let mut with = v.clone();
                for [a, b, c] in [[0, 2, 1], [0, 1, 3], [1, 2, 3], [0, 3, 2]] {
                    with.extend([p[a], p[b], p[c]]);
                }
                let found = both(&with).0.expect_err("the tetrahedron crosses");
                assert!(3 * found.second >= v.len(), "s = {s}: {found:?}");
            }
        }
    }

    #[test]
    fn cones_apex_to_apex_pass_in_pairs_linear_in_their_sides() {
        // Two fans at one point (two bodies sharing a vertex): no one axis faces both,
        // and every pair of their triangles has boxes meeting at the apex. Found around
        // it, the pairs listed grow with the sides, not their square.
        for n in [100, 400, 1000] {
            let v = apex_to_apex(n);
            let (verdict, fewer, all) = both(&v);
            assert!(matches!(verdict, Ok(None)), "n = {n}: {verdict:?}");
            assert!(fewer <= 8 * n, "n = {n}: {fewer} pairs listed");
            assert!(all >= n * n, "n = {n}: {all} pairs listed without the rule");
        }
        // Turned and rounded to f32, as a binary STL has it (the caps no longer flat).
        let n = 200;
        let axis = [1.0, 2.0, 3.0].map(|x: f64| x / 14f64.sqrt());
        let (s, c) = 37f64.to_radians().sin_cos();
        let turned: Vec<[f64; 3]> = apex_to_apex(n)
            .iter()
            .map(|p| {
                let d = axis[0] * p[0] + axis[1] * p[1] + axis[2] * p[2];
                let x = super::super::exact::cross3(&axis, p);
                [0, 1, 2].map(|k| (p[k] * c + x[k] * s + axis[k] * d * (1.0 - c)) as f32 as f64)
            })
            .collect();
        assert!(matches!(both(&turned).0, Ok(None)));
    }

    /// `points` with eight cubes of side 100 far away (their faces' triangles, 96, far
    /// larger than the rest: the broad phase then takes the R*-tree), and whether it did.
    fn with_far_cubes(points: &[[f64; 3]]) -> (Vec<[f64; 3]>, bool) {
        let mut v = points.to_vec();
        for k in 0..8 {
            let m = crate::shape::Shape3d::Box { size: [100.0; 3] }.tessellate(0);
            for t in &m.triangles {
                v.extend(t.map(|i| {
                    let p = m.vertices[i as usize];
                    [p[0] + 1000.0 + 300.0 * k as f64, p[1], p[2]]
                }));
            }
        }
        let (_, stats) = search_stats(&v, true);
        (v, stats.tree.into_inner())
    }

    #[test]
    fn cones_apex_to_apex_on_the_r_tree_are_judged_alike() {
        // The R*-tree's path: its triangles filed under the apex never look through the
        // apex's own tree. Passed, and the tetrahedron lying on a side at the apex
        // refused, with the rule and without.
        let n = 2000;
        let (v, tree) = with_far_cubes(&apex_to_apex(n));
        assert!(tree);
        assert!(matches!(both(&v).0, Ok(None)));
        let mut points = tetrahedron_on([v[0], v[1], v[2]]);
        points.extend(&v);
        let found = both(&points)
            .0
            .expect_err("the tetrahedron lies on the side");
        assert_eq!((found.first, found.second), (0, 4), "{found:?}");
    }

    /// A small tetrahedron inside a cone at its apex (the origin), one face on half of the
    /// cone's side triangle `side` (its first corner the apex), facing the same way; its
    /// fourth corner lies towards the axis from that face's middle.
    fn tetrahedron_on(side: [[f64; 3]; 3]) -> Vec<[f64; 3]> {
        let (p, q) = (side[1].map(|x| x / 2.0), side[2].map(|x| x / 2.0));
        let mid = [0, 1, 2].map(|c| (p[c] + q[c]) / 2.0);
        let s = [0.5 * mid[0], 0.5 * mid[1], mid[2]];
        let o = [0.0; 3];
        vec![o, p, q, o, q, s, o, s, p, p, s, q]
    }

    #[test]
    fn a_cone_poking_into_the_other_beside_the_apex_is_refused() {
        // The lower cone's rim point k pulled up inside the upper cone near the apex: its
        // two side triangles there cross the upper cone's side (each pair sharing only the
        // apex), and the lower cap through it: refused, the same pair with the rule and
        // without.
        let n = 400;
        let k = n / 3;
        let a = std::f64::consts::TAU * k as f64 / n as f64;
        let rim = [a.cos(), a.sin(), -1.0];
        let inside = [0.02 * a.cos(), 0.02 * a.sin(), 0.05];
        let v: Vec<[f64; 3]> = apex_to_apex(n)
            .into_iter()
            .map(|p| if p == rim { inside } else { p })
            .collect();
        assert!(both(&v).0.is_err());
        // A small tetrahedron inside the upper cone at its apex, one face on a side
        // triangle of the cone (half of it, exactly), facing the same way: the two
        // coincide, sharing only the apex, and nothing else is wrong. Refused, that pair
        // first (the tetrahedron listed first).
        let v = apex_to_apex(n);
        let j = n / 5;
        let side = [v[3 * j], v[3 * j + 1], v[3 * j + 2]];
        assert_eq!(side[0], [0.0; 3]);
        let mut points = tetrahedron_on(side);
        points.extend(&v);
        let found = both(&points)
            .0
            .expect_err("the tetrahedron lies on the side");
        assert_eq!((found.first, found.second), (0, 4 + j), "{found:?}");
        assert!(
            matches!(found.kind, crate::error::OverlapKind::Coincide(_)),
            "{found:?}"
        );
    }

    #[test]
    fn bodies_meeting_at_one_point_are_judged_alike_with_the_rule_and_without() {
        // Random pyramids with one apex (17 to 40 sides each, so that the apex is a hub),
        // two to four of them, their axes anywhere (apart, touching, overlapping), some
        // with a side along another's side or in its plane exactly (integer corners), far
        // from the origin or not, rounded to f32 or not; caps fanned from a corner or from
        // the centre. The rule never changes the verdict (a crossing, a coincidence, an
        // edge through an edge or a corner, contacts), nor the first pair reported.
        let mut rng = Lcg(23);
        let mut refused = 0;
        let cases = 150;
        for case in 0..cases {
            let offset = [0.0, 1e3, -1e6][case % 3];
            let f32_ = case % 4 == 1;
            let grid = case % 5 == 2;
            let round = |p: [f64; 3]| {
                if grid {
                    p.map(|x| x.round())
                } else if f32_ {
                    p.map(|x| x as f32 as f64)
                } else {
                    p
                }
            };
            let o = round([offset; 3]);
            let scale = if grid { 256.0 } else { 1.0 };
            let bodies = 2 + rng.below(3) as usize;
            let mut v: Vec<[f64; 3]> = Vec::new();
            let mut earlier: Vec<[f64; 3]> = Vec::new();
            for _ in 0..bodies {
                let m = 17 + rng.below(24) as usize;
                // An axis, and two directions across it.
                let axis = {
                    let z = 2.0 * rng.unit() - 1.0;
                    let a = std::f64::consts::TAU * rng.unit();
                    let r = (1.0 - z * z).sqrt();
                    [r * a.cos(), r * a.sin(), z]
                };
                let pick = if axis[0].abs() < 0.9 {
                    [1.0, 0.0, 0.0]
                } else {
                    [0.0, 1.0, 0.0]
                };
                let e1 = {
                    let c = super::super::exact::cross3(&axis, &pick);
                    let l = (c[0] * c[0] + c[1] * c[1] + c[2] * c[2]).sqrt();
                    c.map(|x| x / l)
                };
                let e2 = super::super::exact::cross3(&axis, &e1);
                let (h, r) = (0.5 + rng.unit(), 0.2 + rng.unit());
                let mut rim: Vec<[f64; 3]> = (0..m)
                    .map(|k| {
                        let a = std::f64::consts::TAU * (k as f64 + 0.5 * rng.unit()) / m as f64;
                        round([0, 1, 2].map(|c| {
                            o[c] + scale * (h * axis[c] + r * (a.cos() * e1[c] + a.sin() * e2[c]))
                        }))
                    })
                    .collect();
                // Now and then a rim point on the ray to an earlier body's rim point (a
                // side along a side), twice as far, half as far or the same point (an
                // edge of four faces), exactly.
                if !earlier.is_empty() && rng.below(2) == 0 {
                    let q = earlier[rng.below(earlier.len() as u64) as usize];
                    let f = [2.0, 0.5, 1.0][rng.below(3) as usize];
                    let p = round([0, 1, 2].map(|c| o[c] + f * (q[c] - o[c])));
                    let k = rng.below(m as u64) as usize;
                    rim[k] = p;
                }
                earlier.extend(&rim);
                // Outward: the rim counter-clockwise about the axis seen from outside the
                // base, so the side triangles are (apex, next, this).
                let centre = round([0, 1, 2].map(|c| o[c] + scale * h * axis[c]));
                for k in 0..m {
                    v.extend([o, rim[(k + 1) % m], rim[k]]);
                }
                if rng.below(2) == 0 {
                    for k in 0..m {
                        v.extend([centre, rim[k], rim[(k + 1) % m]]);
                    }
                } else {
                    for k in 1..m - 1 {
                        v.extend([rim[0], rim[k], rim[k + 1]]);
                    }
                }
            }
            let (verdict, _, _) = both(&v);
            refused += verdict.is_err() as usize;
        }
        // Both verdicts are common.
        assert!(
            refused > cases / 10 && refused < cases * 9 / 10,
            "{refused} of {cases}"
        );
    }
}
