//! Random assemblies of boxes on an integer grid, the way CAD places parts: touching face
//! to face, along edges and at corners (every exact alignment the checks must get right),
//! and the same with one box overlapping another. Touching sets must pass with the exact
//! volume; overlapping ones must be refused.

use crate::common::boxes_obj;
use inertia::io::MeshFormat;
use inertia::solid::{Options, read_solids};

/// A small deterministic generator (so that a failure names a seed one can rerun).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

type Cuboid = ([f64; 3], [f64; 3]);

fn overlap(a: &Cuboid, b: &Cuboid) -> bool {
    (0..3).all(|i| a.0[i] < b.0[i] + b.1[i] && b.0[i] < a.0[i] + a.1[i])
}

/// Up to six disjoint (possibly touching) boxes in a 9-cube.
fn disjoint(rng: &mut Lcg) -> Vec<Cuboid> {
    let mut boxes: Vec<Cuboid> = Vec::new();
    for _ in 0..2000 {
        if boxes.len() == 6 {
            break;
        }
        let b = (
            [0, 1, 2].map(|_| rng.below(7) as f64),
            [0, 1, 2].map(|_| 1.0 + rng.below(3) as f64),
        );
        if !boxes.iter().any(|o| overlap(&b, o)) {
            boxes.push(b);
        }
    }
    boxes
}

fn volume(boxes: &[Cuboid]) -> Result<f64, String> {
    let obj = boxes_obj(&boxes.iter().map(|b| (b.0, b.1, false)).collect::<Vec<_>>());
    read_solids(obj.as_bytes(), MeshFormat::Obj, &Options::default())
        .map(|s| s.iter().map(|s| s.integrals[0].properties.volume).sum())
        .map_err(|e| e.to_string())
}

#[test]
fn touching_boxes_pass_with_their_exact_volume() {
    for seed in 0..150 {
        let boxes = disjoint(&mut Lcg(seed));
        let exact: f64 = boxes.iter().map(|b| b.1.iter().product::<f64>()).sum();
        match volume(&boxes) {
            Ok(v) => assert_eq!(v, exact, "seed {seed}: {boxes:?}"),
            Err(e) => panic!("seed {seed}: {e}: {boxes:?}"),
        }
    }
}

#[test]
fn a_box_overlapping_another_is_refused() {
    let mut tried = 0;
    for seed in 0..300 {
        let mut rng = Lcg(seed);
        let mut boxes = disjoint(&mut rng);
        // A box starting inside the first one (at its corner or halfway), maybe one cell
        // before it: it overlaps the first, crossing it, touching its faces, or inside it.
        let a = boxes[0];
        let b = (
            [0, 1, 2].map(|i| {
                a.0[i]
                    + if rng.below(2) == 0 {
                        (a.1[i] / 2.0).floor()
                    } else {
                        0.0
                    }
                    - rng.below(2) as f64
            }),
            [0, 1, 2].map(|_| 1.0 + rng.below(3) as f64),
        );
        if !overlap(&a, &b) {
            continue;
        }
        boxes.push(b);
        tried += 1;
        assert!(volume(&boxes).is_err(), "seed {seed}: {boxes:?}");
    }
    assert!(tried > 150, "{tried}");
}
