//! A certificate, in linear time, that one ring is simple: it turns strictly around a point
//! exactly once. Star polygons, circles, convex and most regular outlines have such a point
//! (any point of their kernel); for them the sweep, whose ordered structure holds a large
//! share of the edges at once on such shapes and so grows out of the caches, is not needed.
//!
//! The test, for a point `c` and a ring `p0 … pn-1`: every edge turns strictly the same
//! way about `c` (exact orientation signs, so no edge passes through `c` and each spans
//! less than half a turn as seen from it), and the ring winds exactly once around `c`
//! (the crossings of a ray from `c`, counted exactly as in Sunday's winding-number test).
//! Then the angles of the vertices about `c` increase by less than half a turn at each step
//! and by exactly one turn in all, so each edge lies in its own wedge from `c` (the open
//! wedges are disjoint): two edges that are not neighbours never meet, and neighbours meet
//! only at their shared vertex. Every decision is exact, whatever `c` is, so `c` may come
//! from floating point: first the mean of the vertices, else the middle of the kernel's
//! extreme points found by Seidel's linear programming on a sample of the edges, grown by
//! the edges that point fails until it fails none (Clarkson's scheme; the kernel is where
//! every edge sees the point on its inner side). A ring that passes neither is left to the sweep, which
//! then gives the same answer as always: the certificate only ever says "simple", and only
//! of rings the sweep finds simple.

use super::orient;
use nalgebra::Point2;
use rayon::prelude::*;

/// Vertices from which the passes over a ring run on every core.
const PARALLEL_FROM: usize = 1 << 15;

/// Whether the ring (closed, no zero-length edges) is certainly simple: it turns strictly
/// around some point exactly once. `false` says nothing (the sweep decides).
pub(super) fn certified(ring: &[Point2<f64>]) -> bool {
    let n = ring.len();
    if n < 3 || n > u32::MAX as usize {
        return false;
    }
    let Some((mean, ccw)) = mean_and_winding(ring) else {
        return false;
    };
    if turns_once_around(ring, mean) {
        return true;
    }
    kernel_point(ring, ccw).is_some_and(|c| turns_once_around(ring, c))
}

/// The mean of the vertices, and whether the ring runs counter-clockwise (its signed area,
/// in floating point, is positive); `None` for an area of zero or not finite.
fn mean_and_winding(ring: &[Point2<f64>]) -> Option<([f64; 2], bool)> {
    let n = ring.len();
    // Both about the first vertex.
    let o = ring[0];
    let sums = |i: usize| {
        let (p, q) = (ring[i] - o, ring[(i + 1) % n] - o);
        [p.x, p.y, p.x * q.y - p.y * q.x]
    };
    let add = |a: [f64; 3], b: [f64; 3]| [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
    let [sx, sy, area] = if n >= PARALLEL_FROM {
        (0..n)
            .into_par_iter()
            .with_min_len(PARALLEL_FROM / 2)
            .map(sums)
            .reduce(|| [0.0; 3], add)
    } else {
        (0..n).map(sums).fold([0.0; 3], add)
    };
    if !(area.is_finite() && sx.is_finite() && sy.is_finite()) || area == 0.0 {
        return None;
    }
    Some(([o.x + sx / n as f64, o.y + sy / n as f64], area > 0.0))
}

/// Whether every edge turns strictly the same way about `c` and the ring winds exactly once
/// around it (exact).
fn turns_once_around(ring: &[Point2<f64>], c: [f64; 2]) -> bool {
    let n = ring.len();
    let pt = |i: usize| [ring[i].x, ring[i].y];
    let first = orient(c, pt(0), pt(1));
    if first == 0.0 {
        return false;
    }
    let ccw = first > 0.0;
    // Sunday's winding number: an upward crossing of the line y = c.y with c on the left
    // counts +1, a downward one with c on the right -1; with every edge turning one way,
    // only one kind can occur, so counting it is the winding number's size.
    let edge = |count: u64, i: usize| -> Option<u64> {
        let (p, q) = (pt(i), pt(if i + 1 == n { 0 } else { i + 1 }));
        let o = orient(c, p, q);
        if (o > 0.0) != ccw || o == 0.0 {
            return None;
        }
        let crosses = if ccw {
            p[1] <= c[1] && q[1] > c[1]
        } else {
            p[1] > c[1] && q[1] <= c[1]
        };
        Some(count + crosses as u64)
    };
    let count = if n >= PARALLEL_FROM {
        (0..n)
            .into_par_iter()
            .with_min_len(PARALLEL_FROM / 2)
            .try_fold(|| 0u64, edge)
            .try_reduce(|| 0, |a, b| Some(a + b))
    } else {
        (0..n).try_fold(0u64, edge)
    };
    count == Some(1)
}

/// Edges the kernel is first sought with, spread evenly along the ring.
const SAMPLE: usize = 1024;

/// The most edges the kernel is sought with before leaving the ring to the sweep.
const MAX_SET: usize = 1 << 17;

/// A point in the middle of the ring's kernel, in floating point (it need not be exact: the
/// test that follows is), or `None` when the linear programs find no kernel or give up.
///
/// Clarkson's scheme: the middle of the kernel of a sample of the edges is tested against
/// every edge (one pass in memory order, on every core); those it fails join the sample,
/// until it fails none, or the sample grows past [`MAX_SET`] or a few rounds.
fn kernel_point(ring: &[Point2<f64>], ccw: bool) -> Option<[f64; 2]> {
    let n = ring.len();
    // About the first vertex, so that coordinates far from the origin keep their digits.
    let o = ring[0];
    let corners = |p: &Point2<f64>| {
        let v = p - o;
        ([v.x, v.y], [v.x, v.y])
    };
    let join = |a: ([f64; 2], [f64; 2]), b: ([f64; 2], [f64; 2])| {
        (
            [a.0[0].min(b.0[0]), a.0[1].min(b.0[1])],
            [a.1[0].max(b.1[0]), a.1[1].max(b.1[1])],
        )
    };
    let empty = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
    let (lo, hi) = if n >= PARALLEL_FROM {
        ring.par_iter()
            .with_min_len(PARALLEL_FROM / 2)
            .map(corners)
            .reduce(|| empty, join)
    } else {
        ring.iter().map(corners).fold(empty, join)
    };
    let m = n.min(SAMPLE);
    let mut set: Vec<u32> = (0..m).map(|k| (k * n / m) as u32).collect();
    for _round in 0..8 {
        let lp = Kernel {
            ring,
            edges: &set,
            o,
            ccw,
            lo,
            hi,
            stride: stride(set.len()),
        };
        let c = lp.middle()?;
        let c = [o.x + c[0], o.y + c[1]];
        let failed = failing_edges(ring, c, ccw);
        if failed.is_empty() {
            return Some(c);
        }
        if set.len() + failed.len() > MAX_SET {
            return None;
        }
        set.extend(failed);
    }
    None
}

/// The edges that do not turn strictly the right way about `c` (exact).
fn failing_edges(ring: &[Point2<f64>], c: [f64; 2], ccw: bool) -> Vec<u32> {
    let n = ring.len();
    let fails = |i: &usize| {
        let (p, q) = (ring[*i], ring[if *i + 1 == n { 0 } else { *i + 1 }]);
        let o = orient(c, [p.x, p.y], [q.x, q.y]);
        o == 0.0 || (o > 0.0) != ccw
    };
    if n >= PARALLEL_FROM {
        (0..n)
            .into_par_iter()
            .with_min_len(PARALLEL_FROM / 2)
            .filter(fails)
            .map(|i| i as u32)
            .collect()
    } else {
        (0..n).filter(fails).map(|i| i as u32).collect()
    }
}

/// A step through `0..n` that visits every index once in a well-spread order (a multiple
/// of the golden ratio of `n`, coprime with it).
fn stride(n: usize) -> usize {
    fn gcd(a: usize, b: usize) -> usize {
        if b == 0 { a } else { gcd(b, a % b) }
    }
    let mut s = ((n as f64 * 0.618_033_988_749_895) as usize).max(1);
    while gcd(s, n) != 1 {
        s += 1;
    }
    s
}

/// The kernel of some of a ring's edges as a linear program: a point on the inner side of
/// each one's line, inside the ring's bounding box, coordinates about the first vertex.
struct Kernel<'a> {
    ring: &'a [Point2<f64>],
    /// The edges taken.
    edges: &'a [u32],
    o: Point2<f64>,
    ccw: bool,
    lo: [f64; 2],
    hi: [f64; 2],
    stride: usize,
}

impl Kernel<'_> {
    /// The middle of the four extreme points of the kernel, or `None` if it is empty.
    fn middle(&self) -> Option<[f64; 2]> {
        let mut c = [0.0, 0.0];
        for d in [[1.0, 0.0], [-1.0, 0.0], [0.0, 1.0], [0.0, -1.0]] {
            let e = self.extreme(d)?;
            c = [c[0] + e[0] / 4.0, c[1] + e[1] / 4.0];
        }
        Some(c)
    }

    /// The edges in the spread order: the first, then a stride on at each step, wrapping.
    fn order(&self) -> impl Iterator<Item = usize> + '_ {
        let n = self.edges.len();
        std::iter::successors(Some(0), move |&i| {
            let j = i + self.stride;
            Some(if j >= n { j - n } else { j })
        })
        .take(n)
    }

    /// The constraint of the edge at `k` in the list, as `a · x <= b`.
    #[inline]
    fn constraint(&self, k: usize) -> ([f64; 2], f64) {
        let n = self.ring.len();
        let i = self.edges[k] as usize;
        let next = if i + 1 == n { 0 } else { i + 1 };
        let (p, q) = (self.ring[i] - self.o, self.ring[next] - self.o);
        let d = q - p;
        // The inner side of p → q is its left for a counter-clockwise ring.
        let a = if self.ccw { [d.y, -d.x] } else { [-d.y, d.x] };
        (a, a[0] * p.x + a[1] * p.y)
    }

    /// The box's four sides as constraints.
    fn sides(&self) -> [([f64; 2], f64); 4] {
        [
            ([1.0, 0.0], self.hi[0]),
            ([-1.0, 0.0], -self.lo[0]),
            ([0.0, 1.0], self.hi[1]),
            ([0.0, -1.0], -self.lo[1]),
        ]
    }

    /// The point of the kernel farthest along `dir` (Seidel's incremental linear
    /// programming, constraints in the spread order), or `None` if it finds the kernel
    /// empty or its work passes a bound (six times the edges taken; the expected work is
    /// about twice it).
    fn extreme(&self, dir: [f64; 2]) -> Option<[f64; 2]> {
        let n = self.edges.len();
        let dot = |a: [f64; 2], b: [f64; 2]| a[0] * b[0] + a[1] * b[1];
        let mut x = [
            if dir[0] >= 0.0 {
                self.hi[0]
            } else {
                self.lo[0]
            },
            if dir[1] >= 0.0 {
                self.hi[1]
            } else {
                self.lo[1]
            },
        ];
        let mut budget = 6 * n as u64 + 1024;
        for (k, i) in self.order().enumerate() {
            let (a, b) = self.constraint(i);
            if dot(a, x) <= b {
                continue;
            }
            budget = budget.checked_sub(k as u64 + 4)?;
            // The new optimum is on the line a · x = b: x = p0 + t u.
            let aa = dot(a, a);
            if !aa.is_finite() || aa == 0.0 {
                return None;
            }
            let p0 = [a[0] * b / aa, a[1] * b / aa];
            let u = [-a[1], a[0]];
            let (mut tmin, mut tmax) = (f64::NEG_INFINITY, f64::INFINITY);
            let mut limit = |(aj, bj): ([f64; 2], f64)| {
                let s = dot(aj, u);
                let r = bj - dot(aj, p0);
                if s > 0.0 {
                    tmax = tmax.min(r / s);
                } else if s < 0.0 {
                    tmin = tmin.max(r / s);
                } else if r < 0.0 {
                    tmin = f64::INFINITY;
                }
            };
            for side in self.sides() {
                limit(side);
            }
            for j in self.order().take(k) {
                limit(self.constraint(j));
            }
            if !(tmin.is_finite() && tmax.is_finite()) || tmin > tmax {
                return None;
            }
            let t = if dot(dir, u) >= 0.0 { tmax } else { tmin };
            x = [p0[0] + t * u[0], p0[1] + t * u[1]];
        }
        Some(x)
    }
}

#[cfg(test)]
mod tests {
    use super::super::first_contact_split;
    use super::*;
    use proptest::prelude::*;

    fn pts(points: &[[f64; 2]]) -> Vec<Point2<f64>> {
        points.iter().map(|p| Point2::new(p[0], p[1])).collect()
    }

    /// The certificate, checked against the sweep: it may only say "simple" of a ring the
    /// sweep finds simple.
    fn check(ring: &[Point2<f64>]) -> bool {
        let c = certified(ring);
        if c {
            assert_eq!(first_contact_split(&[ring], usize::MAX), None, "{ring:?}");
        }
        c
    }

    fn star(
        n: usize,
        radius: impl Fn(usize) -> f64,
        centre: [f64; 2],
        cw: bool,
    ) -> Vec<Point2<f64>> {
        let mut p: Vec<[f64; 2]> = (0..n)
            .map(|k| {
                let t = std::f64::consts::TAU * k as f64 / n as f64;
                let r = radius(k);
                [centre[0] + r * t.cos(), centre[1] + r * t.sin()]
            })
            .collect();
        if cw {
            p.reverse();
        }
        pts(&p)
    }

    fn lcg(seed: u64) -> impl FnMut() -> f64 {
        let mut rng = crate::test_rng::Lcg(seed);
        move || rng.unit()
    }

    #[test]
    fn stars_circles_and_convex_rings_are_certified() {
        for centre in [[0.0, 0.0], [1e6, -1e6], [1e8, 3e7]] {
            for cw in [false, true] {
                assert!(check(&star(4, |_| 1.0, centre, cw)));
                assert!(check(&star(1000, |_| 1.0, centre, cw)));
                assert!(check(&star(
                    1000,
                    |k| if k % 2 == 0 { 1000.0 } else { 500.0 },
                    centre,
                    cw
                )));
                let mut rnd = lcg(7);
                let radii: Vec<f64> = (0..5000).map(|_| 1.0 + 0.3 * rnd()).collect();
                assert!(
                    check(&star(5000, |k| radii[k], centre, cw)),
                    "{centre:?} {cw}"
                );
            }
        }
        // An L: its kernel is the corner square, away from the vertices' mean.
        let l = pts(&[
            [0.0, 0.0],
            [10.0, 0.0],
            [10.0, 1.0],
            [1.0, 1.0],
            [1.0, 10.0],
            [0.0, 10.0],
        ]);
        assert!(check(&l));
    }

    /// A random star of 10^5 points, one quadrant of it twice as large: its kernel is a
    /// few 1e-5 across, about the origin, and the vertices' mean misses it (the linear
    /// programs find it).
    #[test]
    fn a_thin_kernel_is_found() {
        let n = 100_000;
        let mut rnd = lcg(22);
        let radii: Vec<f64> = (0..n)
            .map(|k| 1.0 + 0.3 * rnd() + if k < n / 4 { 1.0 } else { 0.0 })
            .collect();
        let ring = star(n, |k| radii[k], [0.0, 0.0], false);
        let (mean, ccw) = mean_and_winding(&ring).unwrap();
        assert!(
            ccw && !turns_once_around(&ring, mean),
            "the mean is in the kernel"
        );
        assert!(kernel_point(&ring, true).is_some());
        assert!(certified(&ring));
        // Far from the origin too.
        let ring = star(n, |k| radii[k], [-2e6, 5e5], true);
        assert!(certified(&ring));
    }

    #[test]
    fn rings_that_wind_twice_or_cross_are_not() {
        // A pentagram: every edge turns the same way about its centre, twice around.
        let pentagram: Vec<[f64; 2]> = (0..5)
            .map(|k| {
                let t = std::f64::consts::TAU * (2 * k) as f64 / 5.0;
                [t.cos(), t.sin()]
            })
            .collect();
        assert!(!check(&pts(&pentagram)));
        // Two turns of a spiral, closed.
        let spiral: Vec<[f64; 2]> = (0..200)
            .map(|k| {
                let t = std::f64::consts::TAU * k as f64 / 100.0;
                let r = 1.0 + k as f64 / 200.0;
                [r * t.cos(), r * t.sin()]
            })
            .collect();
        assert!(!check(&pts(&spiral)));
        // A bow tie, and a square with one vertex pulled across the far side.
        assert!(!check(&pts(&[
            [0.0, 0.0],
            [2.0, 2.0],
            [2.0, 0.0],
            [0.0, 2.0]
        ])));
        assert!(!check(&pts(&[
            [0.0, 0.0],
            [4.0, 0.0],
            [4.0, 4.0],
            [-1.0, -1.0]
        ])));
        // A star with one spike bent back across its neighbour.
        let mut s = star(
            100,
            |k| if k % 2 == 0 { 2.0 } else { 1.0 },
            [0.0, 0.0],
            false,
        );
        s[10] = Point2::new(s[12].x * 1.1, s[12].y * 1.1);
        assert!(!check(&s));
        // Collinear rings have no kernel with room in it.
        assert!(!check(&pts(&[[0.0, 0.0], [1.0, 0.0], [2.0, 0.0]])));
    }

    #[test]
    fn simple_rings_without_a_kernel_are_left_to_the_sweep() {
        // A comb: simple, but no point sees every tooth.
        let mut p = vec![[0.0, -1.0], [100.0, -1.0], [100.0, 0.0]];
        for k in (0..50).rev() {
            let x = 2.0 * k as f64;
            p.extend([[x + 1.0, 0.0], [x + 1.0, 10.0], [x, 10.0], [x, 0.0]]);
        }
        assert!(!check(&pts(&p)));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        /// Random stars with points moved onto others (pinches, spikes crossing), near the
        /// origin and far from it: certified only if the sweep finds them simple, and every
        /// untouched one certified.
        #[test]
        fn stars_are_certified_only_when_simple(
            radii in proptest::collection::vec(1.0f64..1.3, 8..150),
            centre in prop_oneof![Just(0.0), Just(1e6), Just(1e8), Just(-3e7)],
            nudge in proptest::collection::vec((0usize..200, 0usize..200, 0.5f64..2.0), 0..3),
            cw in any::<bool>(),
        ) {
            let n = radii.len();
            let mut p = star(n, |k| radii[k], [centre, centre], cw);
            for &(a, b, s) in &nudge {
                let (a, b) = (a % n, b % n);
                p[a] = Point2::new(centre + (p[b].x - centre) * s, centre + (p[b].y - centre) * s);
            }
            p.dedup();
            while p.len() > 1 && p.first() == p.last() {
                p.pop();
            }
            prop_assume!(p.len() >= 3);
            let c = check(&p);
            if nudge.is_empty() {
                prop_assert!(c);
            }
        }

        /// Rings on a grid of a few units in the last place far from the origin, where
        /// nearly every orientation is exactly zero or within the float filter's bound.
        #[test]
        fn near_degenerate_rings_are_certified_only_when_simple(
            cells in proptest::collection::vec((0u8..6, 0u8..6), 3..12),
            centre in prop_oneof![Just(0.0), Just(1e6), Just(1e8)],
        ) {
            let ulp = if centre == 0.0 { 1.0 } else { centre * f64::EPSILON };
            let mut p: Vec<[f64; 2]> = cells
                .iter()
                .map(|&(x, y)| [centre + ulp * x as f64, centre + ulp * 0.75 * y as f64])
                .collect();
            p.dedup();
            while p.len() > 1 && p.first() == p.last() {
                p.pop();
            }
            prop_assume!(p.len() >= 3);
            check(&pts(&p));
        }
    }
}
