//! Hubs whose fan is a star: two of its triangles that share only the hub meet only there.
//!
//! A hub (a point with many triangles around it: a sphere's pole, a cone's apex, a cap
//! fanned from its centre) has slivers whose boxes all meet near it; when the patches
//! split its fan (a pole where the faces of several axes meet), every pair of them across
//! patches reaches the narrow phase, the square of the fan's size. Seen along an axis
//! that every triangle of the fan faces (each projects to a sector at the hub, turning
//! the way the faces do, of less than a half turn), a fan that goes round the hub exactly
//! once has its sectors apart: two triangles that share only the hub project to sectors
//! meeting only at the hub's projection, and a face projects one to one, so they meet
//! only at the hub. Going round exactly once is counted exactly, with no arithmetic: the
//! sectors are chained edge to edge around the hub (the neighbours across its edges), so
//! their angles add up to whole turns, and the number of sectors holding the direction of
//! the first projected axis (half-open, so that a spoke along it counts once) is the
//! number of turns. The test is the one the patches make of a whole surface (see
//! [`super::patch`]), made here of the fan alone.

use super::exact::project;
use crate::fans::Hubs;
use crate::soup::{Point, Soup};
use rayon::prelude::*;

/// The hubs whose fans are stars, in order.
pub(super) struct Stars(Vec<u32>);

impl Stars {
    /// The stars among `hubs`, from the triangles' corners (`soup`), point numbers
    /// (`ids`), neighbours across their edges (`nbr`) and the signed axes each faces
    /// (`masks`, as [`super::patch::faces_mask`] sets them, in bits 0 to 5).
    pub(super) fn find<S: Soup>(
        soup: &S,
        ids: &[u32],
        nbr: &[u32],
        masks: &[u8],
        hubs: &Hubs,
    ) -> Stars {
        Stars(
            hubs.par_iter()
                .filter(|&&hub| is_star(soup, ids, nbr, masks, hub))
                .map(|hub| hub[0])
                .collect(),
        )
    }

    /// Whether there is a star at all.
    #[inline]
    pub(super) fn any(&self) -> bool {
        !self.0.is_empty()
    }

    /// Whether point `p` is the hub of a star.
    #[inline]
    pub(super) fn holds(&self, p: u32) -> bool {
        self.0.binary_search(&p).is_ok()
    }
}

/// Whether the fan around `[hub, a triangle at it, how many triangles are]` is a star.
fn is_star<S: Soup>(soup: &S, ids: &[u32], nbr: &[u32], masks: &[u8], hub: [u32; 3]) -> bool {
    let [hub, first, count] = hub;
    // The hub's corner of triangle t (exactly one unless the triangle is degenerate, and
    // then it faces no axis: no star).
    let corner = |t: u32| (0..3).find(|&k| ids[3 * t as usize + k] == hub);
    // One cycle through every triangle, each to the one across its edge from the hub,
    // and a signed axis every one of them faces.
    let mut fan = Vec::with_capacity(count as usize);
    let mut common = 0x3f;
    let mut at = first;
    loop {
        let Some(k) = corner(at) else {
            return false;
        };
        fan.push((at, k));
        common &= masks[at as usize];
        at = nbr[3 * at as usize + k];
        if at == first || at == crate::fans::NONE || fan.len() >= count as usize {
            break;
        }
    }
    if at != first || fan.len() != count as usize || common & 0x3f == 0 {
        return false;
    }
    let bit = common.trailing_zeros() as usize;
    let (drop, up) = (bit / 2, bit.is_multiple_of(2));
    // Turns round the hub: sectors from the corner after the hub to the one before it
    // (their triangle's order) holding the first axis's direction, half-open.
    let mut turns = 0;
    for (t, k) in fan {
        let c = soup.triangle(t as usize).map(|p| project(p.coords(), drop));
        let (v, x, y) = (c[k], c[(k + 1) % 3], c[(k + 2) % 3]);
        let holds = if up {
            x[1] <= v[1] && v[1] < y[1]
        } else {
            y[1] < v[1] && v[1] <= x[1]
        };
        turns += holds as usize;
    }
    turns == 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::soup::VertexSoup;

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

    /// Which of the apex (0) and the base's centre (1) are stars.
    fn stars_of(points: &[[f64; 3]]) -> Vec<u32> {
        let soup = VertexSoup(points);
        let mut welded = crate::soup::welded_points(&soup).unwrap();
        let nbr = welded.neighbours();
        let hubs = welded.take_hubs();
        let (ids, _) = welded.into_parts();
        let masks: Vec<u8> = (0..points.len() / 3)
            .map(|t| super::super::patch::faces_mask(&[0, 1, 2].map(|k| points[3 * t + k])))
            .collect();
        let stars = Stars::find(&soup, &ids, &nbr, &masks, &hubs);
        [ids[0], ids[3]]
            .into_iter()
            .enumerate()
            .filter(|&(_, p)| stars.holds(p))
            .map(|(i, _)| i as u32)
            .collect()
    }

    fn even(n: usize) -> impl Fn(usize) -> f64 {
        move |k| std::f64::consts::TAU * k as f64 / n as f64
    }

    #[test]
    fn a_cone_s_apex_and_its_base_s_centre_are_stars() {
        // Apex below and above the base (then inside out: the same fans, wound the other
        // way); n = 40 has spokes along the axes.
        for n in [17, 40, 1000] {
            assert_eq!(stars_of(&cone(n, [0.0; 3], even(n))), [0, 1], "n = {n}");
            assert_eq!(
                stars_of(&cone(n, [0.0, 0.0, 2.0], even(n))),
                [0, 1],
                "n = {n}"
            );
        }
    }

    #[test]
    fn a_fan_going_round_twice_or_facing_no_one_axis_is_no_star() {
        // Round twice: the rim's angles doubled (a surface that overlaps itself), at
        // the apex and at the base's centre.
        let n = 40;
        let twice = move |k: usize| 2.0 * even(n)(k);
        let overlapping = cone(n, [0.0; 3], twice);
        assert_eq!(stars_of(&overlapping), Vec::<u32>::new());
        // The whole check refuses it, and passes the cone going round once.
        let check = |points: &[[f64; 3]]| {
            use super::super::{Mode, Patches, search};
            search(&VertexSoup(points), Patches::Always, Mode::Solid)
        };
        assert!(check(&overlapping).is_err());
        assert!(matches!(check(&cone(n, [0.0; 3], even(n))), Ok(None)));
        // An oblique cone whose apex lies outside the base's circle in every view along
        // an axis: its fan faces both ways along each (a star all the same, but not one
        // the test can see; the pairs go on to the narrow phase). The base is one.
        assert_eq!(stars_of(&cone(n, [2.0, 0.1, 0.0], even(n))), [1]);
    }

    #[test]
    fn random_double_cones_are_passed_once_round_and_refused_twice_round() {
        // Two fans on one rim, from (0, 0, 0) below and (0, 0, 3) above, the rim's points
        // at random heights between them (the upper fan is above the lower over every
        // sector), random radii and random increasing angles that go round once (a closed surface: both hubs are stars, and the check passes it)
        // or twice (it overlaps itself: no star, and the check refuses it).
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
            let want = if turns == 1 { vec![0, 1] } else { vec![] };
            assert_eq!(stars_of(&v), want, "case {case}");
            let verdict = {
                use super::super::{Mode, Patches, search};
                search(&VertexSoup(&v), Patches::Always, Mode::Solid)
            };
            if turns == 1 {
                assert!(matches!(verdict, Ok(None)), "case {case}");
            } else {
                assert!(verdict.is_err(), "case {case}");
            }
        }
    }

    #[test]
    fn pairs_at_a_star_s_hub_are_not_listed_when_the_patches_split_its_fan() {
        use super::super::{LISTED, Mode, Patches, STAR_CELLS, search};
        // The verdict, and how many pairs the cells listed, with the pairs of triangles
        // at a star's hub left out or not.
        let check = |v: &[[f64; 3]], star_cells: bool| {
            STAR_CELLS.set(star_cells);
            let verdict = search(&VertexSoup(v), Patches::Always, Mode::Solid);
            STAR_CELLS.set(true);
            (verdict, LISTED.get())
        };
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
            let ((left_out, fewer), (listed, all)) = (check(&v, true), check(&v, false));
            assert!(matches!(left_out, Ok(None)), "s = {s}");
            assert!(matches!(listed, Ok(None)), "s = {s}");
            // Around the second pole every box meets every other: listed, their pairs are
            // the square of the fan's size (the pairs left out, about half of them here).
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
                let found = check(&with, true).0.expect_err("the tetrahedron crosses");
                assert!(3 * found.second >= v.len(), "s = {s}: {found:?}");
                assert_eq!(Err(found), check(&with, false).0, "s = {s}");
            }
        }
    }
}
