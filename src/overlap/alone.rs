//! Bodies alone: small groups of triangles (a file's separate bodies) whose boxes meet no
//! other group's box. Two triangles of different groups can meet only where their groups'
//! boxes do, so such a group's triangles pair only among themselves: they are left out of
//! the broad phase, and each group's few pairs are tested directly. A file of a million
//! separate small bodies then puts a million group boxes on a grid rather than four
//! million triangle boxes, and lists no pair of the broad phase at all.
//!
//! The groups may be any partition of the triangles (the soup pass gives the bodies,
//! joined through shared points): the argument needs only that every pair across groups
//! has its two groups' boxes meeting.

use super::{Overlap, Tri, earliest};
use crate::body::BoundingBox;
use crate::soup::Groups;
use rayon::prelude::*;

/// Groups of more triangles stay in the broad phase (their pairs, tested directly, would
/// grow as the square of their size).
const SMALL: usize = 64;

/// A triangle in no group.
const NONE: u32 = Groups::NONE;

/// The groups alone: each one's triangles (with a box) in ascending order, one run after
/// another (`starts[g]..starts[g + 1]` for the g-th group alone).
pub(super) struct Alone {
    members: Vec<u32>,
    starts: Vec<usize>,
}

/// Finds the groups of at most [`SMALL`] triangles whose boxes meet no other group's box
/// and marks their triangles [`Tri::quiet`] (out of the broad phase); `None` when there
/// are none, or when the groups' boxes do not suit a grid. The shell check may have found
/// already which groups' boxes meet another's ([`Groups::meets`]), from boxes of all of
/// each group's corners (holding the boxes of its triangles here): then that is used.
pub(super) fn alone(tris: &mut [Tri], groups: &Groups) -> Option<Alone> {
    let count = groups.count;
    let labels = &groups.labels;
    if count < 2 || labels.len() != tris.len() {
        return None;
    }
    // How many triangles each group has.
    let mut size = vec![0u32; count];
    for &g in labels {
        if g != NONE {
            size[g as usize] += 1;
        }
    }
    if !size.iter().any(|&s| s as usize <= SMALL) {
        return None;
    }
    let found;
    let meets: &[bool] = match &groups.meets {
        Some(m) if m.len() == count => m,
        _ => {
            // Each group's box, of its triangles' boxes (rounded outward in f32 as they
            // are; a degenerate triangle's box is empty).
            let mut boxes = vec![BoundingBox::empty(); count];
            for (t, &g) in tris.iter().zip(labels) {
                if g == NONE || t.is_empty() {
                    continue;
                }
                let b = &mut boxes[g as usize];
                b.include(&t.lo.map(f64::from));
                b.include(&t.hi.map(f64::from));
            }
            found = crate::boxes::meets_another(&boxes)?;
            &found
        }
    };
    let lone = |g: u32| g != NONE && size[g as usize] as usize <= SMALL && !meets[g as usize];
    // The groups alone, numbered in order, and their triangles, in order within each.
    let mut slot = vec![u32::MAX; count];
    let mut starts = vec![0usize];
    for g in 0..count {
        if lone(g as u32) {
            slot[g] = (starts.len() - 1) as u32;
            starts.push(starts[starts.len() - 1] + size[g] as usize);
        }
    }
    if starts.len() < 2 {
        return None;
    }
    let mut members: Vec<u32> = (0..labels.len() as u32)
        .into_par_iter()
        .filter(|&t| lone(labels[t as usize]))
        .collect();
    let slot_of = |t: &u32| slot[labels[*t as usize] as usize];
    // Already grouped when the file lists its bodies one after another; else a stable
    // sort keeps each group's triangles in order.
    if !members
        .par_windows(2)
        .all(|w| slot_of(&w[0]) <= slot_of(&w[1]))
    {
        members.par_sort_by_key(slot_of);
    }
    tris.par_iter_mut()
        .with_min_len(1 << 12)
        .zip(labels.par_iter())
        .filter(|(_, g)| lone(**g))
        .for_each(|(t, _)| t.quiet = true);
    Some(Alone { members, starts })
}

impl Alone {
    /// The first pair `test` finds among each group's own triangles whose boxes meet.
    pub(super) fn search<F>(&self, tris: &[Tri], test: &F) -> Option<Overlap>
    where
        F: Fn(usize, usize) -> Option<Overlap> + Sync,
    {
        self.starts
            .par_windows(2)
            .with_min_len(256)
            .map(|w| {
                let own = &self.members[w[0]..w[1]];
                let mut best = None;
                for (x, &i) in own.iter().enumerate() {
                    for &j in &own[x + 1..] {
                        let (i, j) = (i as usize, j as usize);
                        if tris[i].meets(&tris[j]) {
                            best = earliest(best, test(i, j));
                        }
                    }
                }
                best
            })
            .reduce(|| None, earliest)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Mode, Settings, search, search_welded};
    use super::{BoundingBox, Groups, Tri, alone};
    use crate::soup::VertexSoup;
    use crate::test_rng::Lcg;

    type T3 = [[f64; 3]; 3];

    /// A closed body of few triangles at `at`: a tetrahedron, a cube, or (every seventh) an
    /// 80-triangle sphere (more than [`SMALL`]: it stays in the broad phase).
    fn body(kind: u64, at: [f64; 3], s: f64) -> Vec<T3> {
        let shape = match kind {
            0 => crate::shape::Shape3d::Box { size: [s; 3] },
            1 => crate::shape::Shape3d::Sphere { radius: s },
            _ => crate::shape::Shape3d::Box {
                size: [s, 0.5 * s, 2.0 * s],
            },
        };
        let m = shape.tessellate(if kind == 1 { 8 } else { 0 });
        m.triangles
            .iter()
            .map(|t| t.map(|i| [0, 1, 2].map(|k| m.vertices[i as usize][k] + at[k])))
            .collect()
    }

    /// The check with each body its own group agrees with the check without groups: the
    /// same pair named, or both passing with the same contacts.
    #[test]
    fn bodies_alone_change_nothing_found() {
        let mut rng = Lcg(0x5eed_a10e);
        let (mut refused, mut lone, mut told_apart) = (0, 0, 0);
        for case in 0..300 {
            let bodies = 2 + rng.below(40) as usize;
            // Sparse or crowded, so that some bodies are alone and some meet.
            let room = [4.0, 12.0, 40.0][case % 3];
            let mut tris: Vec<T3> = Vec::new();
            let mut labels = Vec::new();
            for b in 0..bodies {
                let at = [0, 1, 2].map(|_| (rng.unit() * room).round() / 2.0);
                let kind = if b % 7 == 3 { 1 } else { rng.below(3) * 2 % 3 };
                let t = body(kind, at, 1.0);
                labels.extend(std::iter::repeat_n(b as u32, t.len()));
                tris.extend(t);
            }
            let corners: Vec<[f64; 3]> = tris.iter().flat_map(|t| t.iter().copied()).collect();
            let soup = VertexSoup(&corners);
            let plain = search(&soup, Settings::FULL, Mode::Solid);
            let mut welded = crate::soup::welded_points(&soup).unwrap();
            welded.set_groups(Groups {
                labels: labels.clone(),
                count: bodies,
                meets: None,
            });
            let grouped = search_welded(&soup, welded, Settings::FULL, Mode::Solid);
            // And with the bodies' boxes (of their corners) said to meet or not by the
            // shell check's grid, as the soup path hands them over.
            let mut boxes = vec![BoundingBox::empty(); bodies];
            for (t, &g) in tris.iter().zip(&labels) {
                for p in t {
                    boxes[g as usize].include(p);
                }
            }
            let meets = crate::boxes::meets_another(&boxes);
            let mut welded = crate::soup::welded_points(&soup).unwrap();
            welded.set_groups(Groups {
                labels: labels.clone(),
                count: bodies,
                meets: meets.clone(),
            });
            let told = search_welded(&soup, welded, Settings::FULL, Mode::Solid);
            // Refused alike; which two triangles are named may differ with the grouping
            // (bodies at one spot are checked two at a time first, by their groups: see
            // `near.rs`).
            match (&grouped, &told) {
                (Err(_), Err(_)) => {}
                (Ok(a), Ok(b)) => assert_eq!(
                    a.as_ref().map(|c| c.count),
                    b.as_ref().map(|c| c.count),
                    "case {case}"
                ),
                _ => panic!("case {case}: told {:?}", told.is_ok()),
            }
            told_apart += meets.is_some_and(|m| m.contains(&false)) as usize;
            match (&plain, &grouped) {
                (Err(_), Err(_)) => refused += 1,
                (Ok(a), Ok(b)) => assert_eq!(
                    a.as_ref().map(|c| c.count),
                    b.as_ref().map(|c| c.count),
                    "case {case}"
                ),
                _ => panic!(
                    "case {case}: {:?} against {:?}",
                    plain.is_ok(),
                    grouped.is_ok()
                ),
            }
            // How many cases had a body alone.
            let mut records: Vec<Tri> = Vec::new();
            let mut w = crate::soup::welded_points(&soup).unwrap();
            for t in 0..tris.len() {
                records.push(super::super::record_of(&soup, t));
            }
            w.take_groups();
            if alone(
                &mut records,
                &Groups {
                    labels,
                    count: bodies,
                    meets: None,
                },
            )
            .is_some()
            {
                lone += 1;
            }
        }
        assert!(
            refused > 50 && lone > 50 && refused < 250 && told_apart > 50,
            "{refused} {lone} {told_apart}"
        );
    }

    /// A crowd of bodies whose boxes all meet is left to the broad phase whole, without
    /// listing the square of the bodies' pairs first.
    #[test]
    fn a_crowd_of_bodies_is_not_looked_at_body_by_body() {
        let bodies = 310;
        let mut tris: Vec<T3> = Vec::new();
        let mut labels = Vec::new();
        for b in 0..bodies {
            // Boxes sliding along x by a hundredth: every one meets every other; and ten
            // alone, far off, which are left in the broad phase with the crowd.
            let x = if b < 300 {
                0.01 * b as f64
            } else {
                100.0 * b as f64
            };
            let t = body(0, [x, 0.0, 0.0], 10.0);
            labels.extend(std::iter::repeat_n(b as u32, t.len()));
            tris.extend(t);
        }
        let corners: Vec<[f64; 3]> = tris.iter().flat_map(|t| t.iter().copied()).collect();
        let soup = VertexSoup(&corners);
        let mut records: Vec<Tri> = (0..tris.len())
            .map(|t| super::super::record_of(&soup, t))
            .collect();
        let groups = Groups {
            labels,
            count: bodies,
            meets: None,
        };
        assert!(alone(&mut records, &groups).is_none());
        assert!(records.iter().all(|t| !t.quiet));
        // Spread apart, the same bodies are each alone.
        let apart: Vec<[f64; 3]> = corners
            .chunks(36)
            .enumerate()
            .flat_map(|(b, c)| c.iter().map(move |p| [p[0] + 30.0 * b as f64, p[1], p[2]]))
            .collect();
        let soup = VertexSoup(&apart);
        let mut records: Vec<Tri> = (0..tris.len())
            .map(|t| super::super::record_of(&soup, t))
            .collect();
        let lone = alone(&mut records, &groups).expect("bodies alone");
        assert_eq!(lone.starts.len(), bodies + 1);
        assert!(records.iter().all(|t| t.quiet));
    }
}
