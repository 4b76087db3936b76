//! GeoJSON input: each polygon a part, holes, names, and the total.

use assert_cmd::cargo::cargo_bin_cmd;
use serde_json::Value;

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

#[test]
fn feature_collection_parts_and_total() {
    let out = cargo_bin_cmd!("inertia")
        .args([
            "polygon",
            "fixtures/polygon/parcels.geojson",
            "--units",
            "m",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let parts = v["parts"].as_array().unwrap();
    assert_eq!(parts.len(), 3);
    // Lot 7: 30 × 20 minus the 5 × 5 pond at [10,15]×[5,10]: area 575,
    // centroid x = (600·15 − 25·12.5)/575.
    assert_eq!(
        parts[0]["source"],
        "fixtures/polygon/parcels.geojson: lot 7"
    );
    assert!((f(&parts[0]["area"]) - 575.0).abs() < 1e-12);
    assert!((f(&parts[0]["centroid"][0]) - (9000.0 - 312.5) / 575.0).abs() < 1e-12);
    assert_eq!(parts[0]["holes"], 1);
    assert_eq!(
        parts[1]["source"],
        "fixtures/polygon/parcels.geojson: sheds, polygon 1"
    );
    assert!((f(&parts[2]["area"]) - 2.0).abs() < 1e-15);
    // Total: 575 + 1 + 2.
    assert!((f(&v["total"]["area"]) - 578.0).abs() < 1e-12);
    // CSV: a header, one row per polygon, the total.
    let out = cargo_bin_cmd!("inertia")
        .args([
            "polygon",
            "fixtures/polygon/parcels.geojson",
            "--units",
            "m",
            "--format",
            "csv",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 5);
    assert!(
        text.lines()
            .last()
            .unwrap()
            .starts_with("total,total of 3 parts,fan,578,")
    );
}

#[test]
fn a_single_polygon_reads_like_json() {
    let doc = r#"{"type": "Polygon", "coordinates": [[[0,0],[2,0],[2,1],[0,1],[0,0]]]}"#;
    let out = cargo_bin_cmd!("inertia")
        .args(["polygon", "-", "--units", "m", "--json"])
        .write_stdin(doc)
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["area"], 2.0);
    assert!((f(&v["inertia"]) - 2.0 * 5.0 / 12.0).abs() < 1e-15);
}

#[test]
fn bad_geojson() {
    let out = cargo_bin_cmd!("inertia")
        .args(["polygon", "fixtures/bad/linestring.geojson"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("fixtures/bad/linestring.geojson: GeoJSON: a LineString has no area"),
        "{err}"
    );
    // A self-intersecting part is refused with its name.
    let doc = r#"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {"name": "bad lot"}, "geometry": {"type": "Polygon", "coordinates": [[[0,0],[2,2],[2,0],[0,3],[0,0]]]}}]}"#;
    let out = cargo_bin_cmd!("inertia")
        .args(["polygon", "-", "--units", "m"])
        .write_stdin(doc)
        .output()
        .unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        err.contains("bad lot: outer ring edge 1 and outer ring edge 3 cross"),
        "{err}"
    );
}

/// A field near Zürich, about 900 m × 800 m (0.7 km²), as a GIS writes it: longitude and
/// latitude in degrees, with or without a `crs` member naming the system.
fn field(crs: &str) -> String {
    format!(
        r#"{{"type": "FeatureCollection", {crs} "features": [{{"type": "Feature", "properties": {{"name": "field"}}, "geometry": {{"type": "Polygon", "coordinates": [[[8.54, 47.37], [8.552, 47.37], [8.552, 47.3772], [8.54, 47.3772], [8.54, 47.37]]]}}}}]}}"#
    )
}

fn named_crs(name: &str) -> String {
    format!(r#""crs": {{"type": "name", "properties": {{"name": "{name}"}}}},"#)
}

/// Runs `inertia polygon FILE ARGS`: exit code, stdout, stderr.
fn polygon(name: &str, doc: &str, args: &[&str]) -> (i32, String, String) {
    let dir = std::env::temp_dir().join(format!("inertia-geojson-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, doc).unwrap();
    let out = cargo_bin_cmd!("inertia")
        .arg("polygon")
        .arg(&path)
        .args(args)
        .output()
        .unwrap();
    let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
    (
        out.status.code().unwrap_or(-1),
        text(out.stdout),
        text(out.stderr),
    )
}

/// A refusal: exit 2, nothing on stdout, one line naming the file.
fn refused(name: &str, doc: &str, args: &[&str]) -> String {
    let (code, out, err) = polygon(name, doc, args);
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty(), "{out}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains(name), "{err}");
    err
}

#[test]
fn degrees_are_never_read_as_lengths() {
    // The field in degrees, whether or not its crs says so (and in a `.json` file): refused
    // with how to project it (its UTM zone, 32N) and that --units declares lengths.
    for (name, crs) in [
        ("field.geojson", named_crs("EPSG:4326")),
        ("field.geojson", String::new()),
        ("field.json", named_crs("urn:ogc:def:crs:OGC:1.3:CRS84")),
    ] {
        let e = refused(name, &field(&crs), &[]);
        assert!(
            e.contains("longitude and latitude in degrees (RFC 7946"),
            "{e}"
        );
        assert!(e.contains("ogr2ogr -t_srs EPSG:32632"), "{e}");
        assert!(e.contains("--units"), "{e}");
        if !crs.is_empty() {
            assert!(e.contains("its crs names"), "{e}");
        }
    }
    // Values that cannot be degrees are lengths in a unit the file does not state.
    let utm = r#"{"type": "Polygon", "coordinates": [[[450000, 5400000], [450100, 5400000], [450100, 5400100], [450000, 5400000]]]}"#;
    let e = refused("utm.geojson", utm, &[]);
    assert!(
        e.contains("beyond longitude ±180° or latitude ±90°") && e.contains("--units"),
        "{e}"
    );
    // A crs whose unit is not known here, without --units: refused, naming it.
    let projected = utm.replacen('{', &format!("{{{}", named_crs("EPSG:32633")), 1);
    let e = refused("utm33.geojson", &projected, &[]);
    assert!(
        e.contains("its crs names EPSG:32633, whose unit is not known here"),
        "{e}"
    );
    // With --units, they are lengths, and a warning says so (naming the crs).
    let (code, out, err) = polygon("utm33.geojson", &projected, &["--units", "m", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(f(&v["area"]), 5000.0);
    assert!(
        err.contains("GeoJSON coordinates read as lengths in --units, not as the degrees of longitude and latitude RFC 7946 says; its crs names EPSG:32633"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn units_on_a_file_in_a_geographic_system_are_a_contradiction() {
    for crs in [
        named_crs("EPSG:4326"),
        named_crs("urn:ogc:def:crs:EPSG::4326"),
        named_crs("urn:ogc:def:crs:OGC:1.3:CRS84"),
        named_crs("http://www.opengis.net/def/crs/EPSG/0/4258"),
        r#""crs": {"type": "EPSG", "properties": {"code": 4269}},"#.to_string(),
    ] {
        let e = refused("field.geojson", &field(&crs), &["--units", "m"]);
        assert!(e.contains("a geographic system (longitude and latitude in degrees), but its coordinates were declared lengths (--units)"), "{e}");
    }
}

#[test]
fn the_library_says_which_reading_it_took() {
    use inertia::crs::Crs;
    use inertia::io::geojson::Coordinates;
    use inertia::read::{ReadOptions, Warning, read_bytes};
    let read = |doc: &str, geojson: Coordinates| {
        let options = ReadOptions {
            geojson,
            ..ReadOptions::default()
        };
        let bytes = inertia::io::Bytes::Owned(doc.as_bytes().to_vec());
        read_bytes("field.geojson".as_ref(), bytes, &options)
    };
    let geographic = field(&named_crs("EPSG:4326"));
    match read(&geographic, Coordinates::Degrees) {
        Err(inertia::Error::GeojsonDegrees { crs, beyond, utm }) => {
            assert_eq!(crs, Crs::Geographic("EPSG:4326".into()));
            assert_eq!((beyond, utm), (None, Some(32632)));
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        read(&geographic, Coordinates::Lengths),
        Err(inertia::Error::GeojsonGeographic { .. })
    ));
    let plain = field("");
    let parts = read(&plain, Coordinates::Lengths).unwrap();
    assert_eq!(
        parts.warnings,
        [Warning::GeojsonLengths { crs: Crs::Unnamed }]
    );
    // The default is RFC 7946's reading.
    assert_eq!(ReadOptions::default().geojson, Coordinates::Degrees);
    // South of the equator and west of Greenwich: zone 18S (Lima).
    let lima = r#"{"type": "Polygon", "coordinates": [[[-77.03, -12.04], [-77.02, -12.04], [-77.02, -12.03], [-77.03, -12.04]]]}"#;
    assert!(matches!(
        read(lima, Coordinates::Degrees),
        Err(inertia::Error::GeojsonDegrees {
            utm: Some(32718),
            ..
        })
    ));
}
