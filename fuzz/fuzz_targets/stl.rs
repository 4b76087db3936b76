//! The STL reader (binary and ASCII) on arbitrary bytes: an error or a finite triangle
//! mesh, never a panic, and nothing allocated beyond what the bytes hold.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(m) = inertia::io::stl::parse(data) {
        assert!(m.vertices.len() <= 3 * m.triangles.len());
        let n = m.vertices.len() as u32;
        assert!(m.triangles.iter().flatten().all(|&v| v < n));
        assert!(m.vertices.iter().flatten().all(|v| v.is_finite()));
        assert!(m.triangles.len() <= data.len() / 12);
    }
});
