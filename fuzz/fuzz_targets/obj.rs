//! The OBJ reader on arbitrary bytes: an error or in-range indices, never a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(m) = inertia::io::obj::parse(data) {
        let n = m.vertices.len() as u32;
        assert!(m.triangles.iter().flatten().all(|&i| i < n));
        assert_eq!(m.lines.len(), m.triangles.len());
    }
});
