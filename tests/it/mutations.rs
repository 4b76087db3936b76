//! Never a panic: every fixture, mutated at random (bytes flipped, cut, repeated, numbers
//! blown up), goes through the readers, validation and integration with an answer or an
//! error, never a panic. A cheap complement to the fuzz targets (`fuzz/`) that runs in
//! every `cargo test`, aimed at the readers written by hand (PLY, DXF curves and splines).

use inertia::io::{MeshFormat, PolygonFormat};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// One random change: a byte flipped, a stretch cut or repeated, a number made huge.
fn mutate(bytes: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut b = bytes.to_vec();
    if b.is_empty() {
        return b;
    }
    let at = rng.below(b.len());
    match rng.below(5) {
        0 => b[at] = rng.next() as u8,
        1 => b.truncate(at),
        2 => {
            let len = rng.below(64).min(b.len() - at);
            let piece = b[at..at + len].to_vec();
            b.splice(at..at, piece);
        }
        3 => {
            let len = rng.below(16).min(b.len() - at);
            b.drain(at..at + len);
        }
        _ => {
            let word = [
                &b"1e300"[..],
                b"-0",
                b"nan",
                b"4294967295",
                b"1e-300",
                b"-1",
            ][rng.below(6)];
            b.splice(at..at, word.iter().copied());
        }
    }
    b
}

fn run_all(paths: &[&str], seed: u64, rounds: usize, each: impl Fn(&[u8])) {
    let inputs: Vec<(String, Vec<u8>)> = paths
        .iter()
        .map(|p| (p.to_string(), std::fs::read(p).unwrap()))
        .collect();
    run_bytes(&inputs, seed, rounds, each);
}

fn run_bytes(inputs: &[(String, Vec<u8>)], seed: u64, rounds: usize, each: impl Fn(&[u8])) {
    let mut rng = Rng(seed);
    for (p, original) in inputs {
        for _ in 0..rounds {
            let mut b = original.clone();
            for _ in 0..1 + rng.below(3) {
                b = mutate(&b, &mut rng);
            }
            let ok = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| each(&b)));
            assert!(
                ok.is_ok(),
                "{p}: a mutation panicked: {:?}",
                String::from_utf8_lossy(&b)
            );
        }
    }
}

#[test]
fn mutated_meshes_never_panic() {
    let paths = [
        "fixtures/mesh/right_tetrahedron.ply",
        "fixtures/mesh/unit_cube_quads.ply",
        "fixtures/mesh/right_tetrahedron.obj",
        "fixtures/mesh/unit_cube_ascii.stl",
        "fixtures/mesh/right_tetrahedron.stl",
    ];
    run_all(&paths, 0x9e37_79b9_7f4a_7c15, 300, |b| {
        for format in [MeshFormat::Ply, MeshFormat::Obj, MeshFormat::Stl] {
            let options = inertia::solid::Options::default();
            let _ = inertia::solid::read_solids(b, format, &options);
        }
    });
}

/// A drawing of every curve the reader keeps: a bulged polyline, LINEs and ARCs joined,
/// a full and a partial ELLIPSE, a SPLINE closed by a LINE, and a block placed mirrored.
fn curves_drawing() -> Vec<u8> {
    let e = [
        "0\nLWPOLYLINE\n5\n10\n8\n0\n90\n4\n70\n1\n10\n0\n20\n0\n10\n4\n20\n0\n42\n1\n10\n4\n20\n2\n10\n0\n20\n2\n42\n1\n",
        "0\nLINE\n5\n11\n8\n0\n10\n10\n20\n-5\n11\n50\n21\n-5\n",
        "0\nARC\n5\n12\n8\n0\n10\n50\n20\n0\n40\n5\n50\n270\n51\n90\n",
        "0\nLINE\n5\n13\n8\n0\n10\n50\n20\n5\n11\n10\n21\n5\n",
        "0\nARC\n5\n14\n8\n0\n10\n10\n20\n0\n40\n5\n50\n90\n51\n270\n",
        "0\nELLIPSE\n5\n15\n8\n0\n10\n100\n20\n0\n11\n4\n21\n3\n40\n0.5\n41\n0\n42\n6.283185307179586\n",
        "0\nSPLINE\n5\n16\n8\n0\n70\n8\n71\n3\n72\n8\n73\n4\n40\n0\n40\n0\n40\n0\n40\n0\n40\n1\n40\n1\n40\n1\n40\n1\n10\n200\n20\n0\n30\n0\n10\n200\n20\n10\n30\n0\n10\n210\n20\n10\n30\n0\n10\n210\n20\n0\n30\n0\n",
        "0\nLINE\n5\n17\n8\n0\n10\n210\n20\n0\n11\n200\n21\n0\n",
        "0\nINSERT\n5\n18\n8\n0\n2\nB\n10\n300\n20\n0\n41\n-1\n42\n2\n50\n30\n",
    ]
    .concat();
    let block = "0\nSECTION\n2\nBLOCKS\n0\nBLOCK\n8\n0\n2\nB\n70\n0\n10\n0\n20\n0\n30\n0\n0\nCIRCLE\n5\n20\n8\n0\n10\n0\n20\n0\n40\n3\n0\nENDBLK\n0\nENDSEC\n";
    format!("{block}0\nSECTION\n2\nENTITIES\n{e}0\nENDSEC\n0\nEOF\n").into_bytes()
}

#[test]
fn mutated_drawings_never_panic() {
    // Open pieces are left out (the default).
    let options = inertia::io::dxf::Options::default();
    // The unmutated drawing reads: five parts.
    let (parts, _) =
        inertia::read::read_polygons_with(&curves_drawing(), PolygonFormat::Dxf, &options).unwrap();
    assert_eq!(parts.len(), 5);
    let inputs = vec![
        (
            "slot_plate.dxf".to_string(),
            std::fs::read("fixtures/polygon/slot_plate.dxf").unwrap(),
        ),
        ("curves".to_string(), curves_drawing()),
    ];
    run_bytes(&inputs, 0x2545_f491_4f6c_dd1d, 300, |b| {
        if let Ok((parts, _)) = inertia::read::read_polygons_with(b, PolygonFormat::Dxf, &options) {
            for (_, p) in parts {
                for m in inertia::PolygonMethod::ALL {
                    let _ = m.integrate(&p);
                }
            }
        }
    });
}
