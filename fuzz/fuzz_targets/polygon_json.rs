//! The JSON and GeoJSON polygon parsers on arbitrary bytes: an error or rings, never a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(parts) = inertia::io::geojson::parse(data) {
        assert!(!parts.is_empty());
    }
    if let Ok(rings) = inertia::io::json::parse(data) {
        // Whatever parsed must round-trip through the writer.
        let text = inertia::io::json::write(&rings.outer);
        let again = inertia::io::json::parse(text.as_bytes()).expect("written JSON reads back");
        assert_eq!(again.outer.len(), rings.outer.len());
    }
});
