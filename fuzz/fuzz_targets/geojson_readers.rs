//! GeoJSON's two readers on arbitrary bytes: the typed one (`geojson::parse`, which hands
//! every document it does not take to the other) and the one-piece tree reader must give
//! the same parts, to the last bit of every coordinate, or the same error.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let typed = inertia::io::geojson::parse(data);
    let tree = inertia::details::geojson_one_piece(data);
    match (&typed, &tree) {
        // `{:?}` prints each coordinate in its shortest round-trip form (and -0 as -0.0),
        // so equal text is equal bits.
        (Ok(a), Ok(b)) => assert_eq!(format!("{a:?}"), format!("{b:?}")),
        (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
        _ => panic!("the readers disagree: {typed:?} against {tree:?}"),
    }
});
