//! Writes a closed UV sphere of about N triangles, for benchmarks: binary STL, ASCII STL
//! (full precision) or OBJ, by the output's name.
//!
//! `cargo run --release --example sphere_mesh -- 1000000 sphere.stl [--ascii] [--bodies K]`
//!
//! `--bodies K` writes K such spheres side by side (K times the triangles), for the path
//! that sorts out several shells.
//!
//! The sphere has `s` segments and `s/2` rings, `2·s·(s/2 − 1)` triangles, with `s` the
//! smallest that reaches N. Triangles are written ring by ring, as exporters do; the
//! mass properties of the result do not depend on the order.

use inertia::io::{obj, stl};
use inertia::shape::Shape3d;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: sphere_mesh TRIANGLES OUT.{stl,obj} [--ascii] [--bodies K]";
    let target: usize = args.get(1).ok_or(usage)?.parse()?;
    let out = args.get(2).ok_or(usage)?;
    let ascii = args.iter().any(|a| a == "--ascii");
    let mut s = 4;
    while 2 * s * (s / 2 - 1) < target {
        s += 2;
    }
    let bodies: usize = match args.iter().position(|a| a == "--bodies") {
        Some(i) => args.get(i + 1).ok_or(usage)?.parse()?,
        None => 1,
    };
    let one = Shape3d::Sphere { radius: 1.0 }.tessellate(s);
    let mut mesh = one.clone();
    for k in 1..bodies {
        let base = mesh.vertices.len() as u32;
        let dx = 3.0 * k as f64;
        mesh.vertices
            .extend(one.vertices.iter().map(|p| [p[0] + dx, p[1], p[2]]));
        mesh.triangles
            .extend(one.triangles.iter().map(|t| t.map(|v| v + base)));
    }
    let bytes = if out.ends_with(".obj") {
        obj::write(&mesh).into_bytes()
    } else if ascii {
        stl::write_ascii(&mesh, "sphere").into_bytes()
    } else {
        stl::write_binary(&mesh)
    };
    std::fs::write(out, bytes)?;
    eprintln!("{out}: {} triangles", mesh.triangles.len());
    Ok(())
}
