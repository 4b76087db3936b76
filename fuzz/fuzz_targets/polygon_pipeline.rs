//! Bytes to printed result for polygons, every method and format: never a panic, and a
//! valid polygon has a positive area and polar moment.
#![no_main]
use inertia::io::{PolygonFormat, read_polygon};
use inertia::report::{OutputFormat, PolygonReport};
use inertia::{Amount, PolygonMethod};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let format = PolygonFormat::sniff(data);
    let Ok(poly) = read_polygon(data, format) else { return };
    for m in PolygonMethod::ALL {
        let r = PolygonReport::new("fuzz", &poly, m, Amount::Density(1.0), None);
        let _ = OutputFormat::Table.polygon(&r);
        let _ = OutputFormat::Json.polygon(&r);
        assert!(r.area > 0.0, "a valid polygon has positive area");
        if r.inertia.is_finite() {
            assert!(r.inertia > 0.0, "a valid polygon has a positive polar moment");
        }
    }
});
