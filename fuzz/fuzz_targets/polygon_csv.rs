//! The CSV polygon parser on arbitrary bytes: an error or finite points, never a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(rings) = inertia::io::csv::parse(data) {
        assert!(rings.outer.iter().flatten().all(|v| v.is_finite()));
    }
});
