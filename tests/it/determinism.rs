//! The same input gives the same output bytes on every run and with any number of threads.

use assert_cmd::cargo::cargo_bin_cmd;

fn output(args: &[&str], threads: &str) -> Vec<u8> {
    let out = cargo_bin_cmd!("inertia")
        .env("RAYON_NUM_THREADS", threads)
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

#[test]
fn same_bytes_every_run_and_thread_count() {
    let dir = std::env::temp_dir().join(format!("inertia-determinism-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let stone = dir.join("stone.stl");
    let stone = stone.to_str().unwrap();
    cargo_bin_cmd!("inertia")
        .args([
            "shape",
            "biconvex",
            "--width",
            "2.2",
            "--height",
            "0.92",
            "--segments",
            "96",
            "--mesh-out",
            stone,
        ])
        .assert()
        .success();
    // A binary STL of several blocks and weld partitions (inertia::soup).
    let ball = dir.join("ball.stl");
    let raw = inertia::shape::Shape3d::Sphere { radius: 1.0 }.tessellate(160);
    assert!(raw.triangles.len() > 3 * inertia::details::BLOCK);
    let mut b = vec![0u8; 80];
    b.extend((raw.triangles.len() as u32).to_le_bytes());
    for t in &raw.triangles {
        b.extend([0u8; 12]);
        for &v in t {
            for x in raw.vertices[v as usize] {
                b.extend((x as f32 + 1000.0).to_le_bytes());
            }
        }
        b.extend([0u8; 2]);
    }
    std::fs::write(&ball, b).unwrap();
    let ball = ball.to_str().unwrap();
    let commands: Vec<Vec<&str>> = vec![
        vec!["mesh", ball, "--json"],
        vec!["mesh", ball, "--method", "all", "--json"],
        vec![
            "polygon",
            "fixtures/polygon/square_with_hole.json",
            "--method",
            "all",
            "--json",
        ],
        vec![
            "polygon",
            "fixtures/polygon/u_shape_cw.csv",
            "--method",
            "centroid",
        ],
        vec![
            "mesh",
            "fixtures/mesh/box_with_cavity.obj",
            "--method",
            "all",
            "--json",
        ],
        vec![
            "mesh",
            stone,
            "--method",
            "all",
            "--resolution",
            "300",
            "--json",
        ],
        vec!["mesh", stone, "--method", "voxel"],
    ];
    for args in &commands {
        let first = output(args, "1");
        for threads in ["1", "2", "3"] {
            assert_eq!(
                output(args, threads),
                first,
                "{args:?} with {threads} threads"
            );
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}
