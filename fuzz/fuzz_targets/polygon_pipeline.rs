//! Bytes to printed result for polygons, every method and format: never a panic, and a
//! valid polygon has a positive area and polar moment.
#![no_main]
use inertia::io::PolygonFormat;
use inertia::read::read_polygons;
use inertia::report::{OutputFormat, PolygonReport};
use inertia::{Amount, PolygonMethod};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let format = PolygonFormat::sniff(data);
    let Ok(polys) = read_polygons(data, format) else { return };
    for (m, (_, poly)) in PolygonMethod::ALL.iter().flat_map(|m| polys.iter().map(move |p| (*m, p))) {
        let r = PolygonReport::new("fuzz", poly, m, Amount::Density(1.0), None);
        let _ = OutputFormat::Table.polygon(&r);
        let _ = OutputFormat::Json.polygon(&r);
        assert!(r.area > 0.0, "a valid polygon has positive area");
        if r.inertia.is_finite() {
            assert!(r.inertia > 0.0, "a valid polygon has a positive polar moment");
        }
    }
});
