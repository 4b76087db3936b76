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

/// A Web Mercator northing (metres) of `latitude` (degrees): y = R ln tan(π/4 + φ/2).
fn mercator_y(latitude: f64) -> f64 {
    inertia::crs::WEB_MERCATOR_RADIUS
        * (std::f64::consts::FRAC_PI_4 + 0.5 * latitude.to_radians())
            .tan()
            .ln()
}

/// A 1 km square in Web Mercator metres from easting 950,000 (8.5° E), northings `y0` to
/// `y1`, its crs named by `crs`.
fn mercator_field(crs: &str, y0: f64, y1: f64) -> String {
    format!(
        r#"{{"type": "FeatureCollection", {crs} "features": [{{"type": "Feature", "properties": {{"name": "field"}}, "geometry": {{"type": "Polygon", "coordinates": [[[950000, {y0}], [951000, {y0}], [951000, {y1}], [950000, {y1}], [950000, {y0}]]]}}}}]}}"#
    )
}

/// The area factor of Web Mercator against the WGS 84 ellipsoid, worked from its closed
/// form: (1 − e² sin²φ)² / ((1 − e²) cos²φ).
fn closed_form_factor(latitude: f64) -> f64 {
    let f = 1.0 / 298.257223563;
    let e2 = f * (2.0 - f);
    let (s, c) = latitude.to_radians().sin_cos();
    (1.0 - e2 * s * s).powi(2) / ((1.0 - e2) * c * c)
}

#[test]
fn web_mercator_is_refused_with_its_area_factor_at_the_latitude() {
    // A 1 km square whose southern edge is at 50° N: areas 2.42 times too large there
    // (1/cos² 50° = 2.4203 on a sphere, 2.4175 on the ellipsoid), with or without --units.
    let (y0, y1) = (mercator_y(50.0), mercator_y(50.0) + 1000.0);
    for crs in [
        named_crs("EPSG:3857"),
        named_crs("urn:ogc:def:crs:EPSG::3857"),
        named_crs("http://www.opengis.net/def/crs/EPSG/0/3857"),
        named_crs("EPSG:900913"),
        named_crs("EPSG:3785"),
        named_crs("WGS 84 / Pseudo-Mercator"),
        r#""crs": {"type": "EPSG", "properties": {"code": 3857}},"#.to_string(),
    ] {
        for args in [&["--units", "m"][..], &[]] {
            let e = refused("mercator.geojson", &mercator_field(&crs, y0, y1), args);
            assert!(
                e.contains(" (Web Mercator) are 2.42× too large at latitude 50.0°: reproject it to an equal-area or local projected system first"),
                "{e}"
            );
            assert!(e.contains("ogr2ogr -t_srs EPSG:32632"), "{e}");
            let name = crs.split('"').nth(11).unwrap_or("EPSG:3857");
            assert!(e.contains(&format!("areas in {name} ")), "{e}");
        }
    }
    // The library's error carries the latitudes and factors, against the closed forms.
    use inertia::read::{ReadOptions, read_bytes};
    let read = |doc: String| {
        let options = ReadOptions {
            geojson: inertia::io::geojson::Coordinates::Lengths,
            ..ReadOptions::default()
        };
        read_bytes(
            "field.geojson".as_ref(),
            inertia::io::Bytes::Owned(doc.into_bytes()),
            &options,
        )
    };
    let crs = named_crs("EPSG:3857");
    let Err(inertia::Error::GeojsonWebMercator {
        latitude,
        area_factor,
        utm,
        ..
    }) = read(mercator_field(&crs, y0, y1))
    else {
        panic!("not refused as Web Mercator")
    };
    assert!((latitude[0] - 50.0).abs() < 1e-12, "{latitude:?}");
    // 1 km north of 50°: 1000 m / (R sec φ) radians further.
    let dphi =
        (1000.0 / (inertia::crs::WEB_MERCATOR_RADIUS / 50f64.to_radians().cos())).to_degrees();
    assert!((latitude[1] - 50.0 - dphi).abs() < 1e-6, "{latitude:?}");
    assert!((area_factor[0] / closed_form_factor(50.0) - 1.0).abs() < 1e-14);
    assert!((area_factor[1] / closed_form_factor(latitude[1]) - 1.0).abs() < 1e-14);
    let sphere = 1.0 / 50f64.to_radians().cos().powi(2);
    assert!(
        (area_factor[0] / sphere - 1.0).abs() < 2e-3,
        "{area_factor:?}"
    );
    assert_eq!(utm, Some(32632));
    // From 40° to 60°: the range, least and most.
    let tall = read(mercator_field(&crs, mercator_y(40.0), mercator_y(60.0)));
    let Err(e @ inertia::Error::GeojsonWebMercator { area_factor, .. }) = tall else {
        panic!("{tall:?}")
    };
    assert!((area_factor[0] / closed_form_factor(40.0) - 1.0).abs() < 1e-13);
    assert!((area_factor[1] / closed_form_factor(60.0) - 1.0).abs() < 1e-13);
    assert!(
        e.to_string()
            .contains("are 1.71× to 3.99× too large between latitudes 40.0° and 60.0°"),
        "{e}"
    );
    // Across the equator (10° S to 20° N): least at the equator, 1/(1 − e²); most at 20°.
    let across = read(mercator_field(&crs, mercator_y(-10.0), mercator_y(20.0)));
    let Err(inertia::Error::GeojsonWebMercator { area_factor, .. }) = across else {
        panic!("{across:?}")
    };
    assert!((area_factor[0] / closed_form_factor(0.0) - 1.0).abs() < 1e-15);
    assert!((area_factor[1] / closed_form_factor(20.0) - 1.0).abs() < 1e-13);
}
