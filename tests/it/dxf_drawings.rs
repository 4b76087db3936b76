//! DXF drawings made the way CAD programs make them, written by the `dxf` crate itself in
//! R12 and R2000 ASCII and in binary DXF: outlines of LINEs and ARCs, circle holes, blocks
//! placed by INSERTs (moved, rotated, mirrored, in arrays), and the refusals.

// The dxf crate's entities have many fields; setting the few that matter reads best.
#![allow(clippy::field_reassign_with_default)]

use assert_cmd::cargo::cargo_bin_cmd;
use dxf::entities::{Arc, Circle, Entity, EntityType, Insert, Line};
use dxf::enums::AcadVersion;
use dxf::{Block, Drawing, Point};
use serde_json::Value;
use std::f64::consts::PI;

fn line(a: (f64, f64), b: (f64, f64)) -> Entity {
    Entity::new(EntityType::Line(Line::new(
        Point::new(a.0, a.1, 0.0),
        Point::new(b.0, b.1, 0.0),
    )))
}

fn arc(c: (f64, f64), r: f64, start: f64, end: f64) -> Entity {
    Entity::new(EntityType::Arc(Arc::new(
        Point::new(c.0, c.1, 0.0),
        r,
        start,
        end,
    )))
}

fn circle(c: (f64, f64), r: f64) -> Entity {
    Entity::new(EntityType::Circle(Circle::new(
        Point::new(c.0, c.1, 0.0),
        r,
    )))
}

fn insert(block: &str, at: (f64, f64), scale: (f64, f64), rotation: f64) -> Entity {
    let mut i = Insert::default();
    i.name = block.to_string();
    i.location = Point::new(at.0, at.1, 0.0);
    i.x_scale_factor = scale.0;
    i.y_scale_factor = scale.1;
    i.rotation = rotation;
    Entity::new(EntityType::Insert(i))
}

/// A 100 × 50 plate drawn as four LINEs (out of order, two reversed) with two hole circles
/// of radius 5, and a slot of two LINEs and two ARCs beside it.
fn plate_and_slot() -> Vec<Entity> {
    vec![
        line((0.0, 0.0), (100.0, 0.0)),
        line((100.0, 50.0), (0.0, 50.0)),
        line((100.0, 50.0), (100.0, 0.0)),
        line((0.0, 0.0), (0.0, 50.0)),
        circle((25.0, 25.0), 5.0),
        circle((75.0, 25.0), 5.0),
        line((200.0, -5.0), (240.0, -5.0)),
        arc((240.0, 0.0), 5.0, 270.0, 90.0),
        line((240.0, 5.0), (200.0, 5.0)),
        arc((200.0, 0.0), 5.0, 90.0, 270.0),
    ]
}

/// The drawing's bytes in each flavour.
fn flavours(d: &mut Drawing) -> Vec<(&'static str, Vec<u8>)> {
    let mut out = Vec::new();
    for (name, version, binary) in [
        ("R12", AcadVersion::R12, false),
        ("R2000", AcadVersion::R2000, false),
        ("binary R2000", AcadVersion::R2000, true),
    ] {
        d.header.version = version;
        let mut bytes = Vec::new();
        if binary {
            d.save_binary(&mut bytes).unwrap();
        } else {
            d.save(&mut bytes).unwrap();
        }
        out.push((name, bytes));
    }
    out
}

fn run(bytes: &[u8], args: &[&str]) -> (i32, Value, String) {
    let dir = std::env::temp_dir().join(format!("inertia-dxf-drawings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    static COUNTER: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let k = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let p = dir.join(format!("d{k}.dxf"));
    std::fs::write(&p, bytes).unwrap();
    let mut all = vec!["polygon", p.to_str().unwrap()];
    all.extend_from_slice(args);
    all.push("--json");
    let out = cargo_bin_cmd!("inertia").args(&all).output().unwrap();
    let v = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    (
        out.status.code().unwrap_or(-1),
        v,
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

/// Arcs, circles and ellipses are integrated in closed form: within rounding of the exact
/// values.
const ARC_TOLERANCE: f64 = 1e-13;

#[test]
fn lines_arcs_and_circles_in_every_flavour() {
    let mut d = Drawing::new();
    for e in plate_and_slot() {
        d.add_entity(e);
    }
    for (name, bytes) in flavours(&mut d) {
        let (code, v, err) = run(&bytes, &[]);
        assert_eq!(code, 0, "{name}: {err}");
        let parts = v["parts"].as_array().unwrap();
        assert_eq!(parts.len(), 2, "{name}");
        let plate = 5000.0 - 2.0 * PI * 25.0;
        let slot = 400.0 + PI * 25.0;
        let mut areas: Vec<f64> = parts.iter().map(|p| f(&p["area"])).collect();
        areas.sort_by(f64::total_cmp);
        assert!(
            (areas[0] - slot).abs() < ARC_TOLERANCE * slot,
            "{name}: slot {}",
            areas[0]
        );
        assert!(
            (areas[1] - plate).abs() < ARC_TOLERANCE * plate,
            "{name}: plate {}",
            areas[1]
        );
        // The plate's centroid is its centre, by symmetry; its holes are counted.
        let p = parts.iter().find(|p| p["holes"] == 2).unwrap();
        assert!(
            (f(&p["centroid"][0]) - 50.0).abs() < 1e-9
                && (f(&p["centroid"][1]) - 25.0).abs() < 1e-9
        );
    }
}

#[test]
fn blocks_placed_moved_rotated_mirrored_and_in_arrays() {
    // Block "L": an L of six LINEs (area 3, centroid (5/6, 5/6) from its corner), base
    // point (0, 0).
    let mut block = Block::default();
    block.name = "L".to_string();
    block.entities = vec![
        line((0.0, 0.0), (2.0, 0.0)),
        line((2.0, 0.0), (2.0, 1.0)),
        line((2.0, 1.0), (1.0, 1.0)),
        line((1.0, 1.0), (1.0, 2.0)),
        line((1.0, 2.0), (0.0, 2.0)),
        line((0.0, 2.0), (0.0, 0.0)),
    ];
    let mut d = Drawing::new();
    d.add_block(block);
    // Moved to (10, 0); rotated 90° at (20, 0); mirrored (x scale −1) at (30, 0); scaled 2×.
    d.add_entity(insert("L", (10.0, 0.0), (1.0, 1.0), 0.0));
    d.add_entity(insert("L", (20.0, 0.0), (1.0, 1.0), 90.0));
    d.add_entity(insert("L", (30.0, 0.0), (-1.0, 1.0), 0.0));
    d.add_entity(insert("L", (40.0, 0.0), (2.0, 2.0), 0.0));
    for (name, bytes) in flavours(&mut d) {
        let (code, v, err) = run(&bytes, &[]);
        assert_eq!(code, 0, "{name}: {err}");
        let parts = v["parts"].as_array().unwrap();
        assert_eq!(parts.len(), 4, "{name}");
        let c = 5.0 / 6.0;
        let want = [
            (3.0, (10.0 + c, c)),
            (3.0, (20.0 - c, c)),
            (3.0, (30.0 - c, c)),
            (12.0, (40.0 + 2.0 * c, 2.0 * c)),
        ];
        for (p, (area, (x, y))) in parts.iter().zip(want) {
            assert!(
                (f(&p["area"]) - area).abs() < 1e-12,
                "{name}: {}",
                p["source"]
            );
            assert!(
                (f(&p["centroid"][0]) - x).abs() < 1e-12,
                "{name}: {} x {}",
                p["source"],
                p["centroid"]
            );
            assert!(
                (f(&p["centroid"][1]) - y).abs() < 1e-12,
                "{name}: {} y {}",
                p["source"],
                p["centroid"]
            );
        }
        // Every copy has the L's own principal moments: the same up to rounding.
        let i0 = f(&parts[0]["principal"]["moments"][0]);
        for p in &parts[..3] {
            assert!((f(&p["principal"]["moments"][0]) - i0).abs() < 1e-12 * i0);
        }
        assert!(parts[1]["source"].as_str().unwrap().contains("in INSERT"));
    }
}

#[test]
fn an_array_of_holes_from_a_block() {
    // A 60 × 40 plate of LINEs and a block of one circle (r = 2) placed as a 3 × 2 array.
    let mut hole = Block::default();
    hole.name = "HOLE".to_string();
    hole.entities = vec![circle((0.0, 0.0), 2.0)];
    let mut d = Drawing::new();
    d.add_block(hole);
    for e in [
        line((0.0, 0.0), (60.0, 0.0)),
        line((60.0, 0.0), (60.0, 40.0)),
        line((60.0, 40.0), (0.0, 40.0)),
        line((0.0, 40.0), (0.0, 0.0)),
    ] {
        d.add_entity(e);
    }
    let mut array = Insert::default();
    array.name = "HOLE".to_string();
    array.location = Point::new(10.0, 10.0, 0.0);
    array.column_count = 3;
    array.row_count = 2;
    array.column_spacing = 20.0;
    array.row_spacing = 20.0;
    d.add_entity(Entity::new(EntityType::Insert(array)));
    for (name, bytes) in flavours(&mut d) {
        let (code, v, err) = run(&bytes, &[]);
        assert_eq!(code, 0, "{name}: {err}");
        assert_eq!(v["holes"], 6, "{name}");
        let want = 2400.0 - 6.0 * PI * 4.0;
        assert!(
            (f(&v["area"]) - want).abs() < ARC_TOLERANCE * want,
            "{name}: {}",
            v["area"]
        );
        assert!(
            (f(&v["centroid"][0]) - 30.0).abs() < 1e-9
                && (f(&v["centroid"][1]) - 20.0).abs() < 1e-9
        );
    }
}

#[test]
fn refusals_name_the_entity() {
    // A dangling LINE beside the plate.
    let mut d = Drawing::new();
    for e in plate_and_slot() {
        d.add_entity(e);
    }
    d.add_entity(line((300.0, 0.0), (310.0, 0.0)));
    let (_, bytes) = flavours(&mut d).remove(1);
    let (code, _, err) = run(&bytes, &["--open", "error"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("(300, 0)–(310, 0) is not part of a closed outline"),
        "{err}"
    );
    // Left out by default, and said.
    let (code, v, err) = run(&bytes, &[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(v["parts"].as_array().unwrap().len(), 2);
    assert!(
        err.contains("1 piece in no closed outline left out (1 LINE"),
        "{err}"
    );
    // A block that places itself.
    let mut b = Block::default();
    b.name = "LOOP".to_string();
    b.entities = vec![insert("LOOP", (1.0, 0.0), (1.0, 1.0), 0.0)];
    let mut d = Drawing::new();
    d.add_block(b);
    d.add_entity(insert("LOOP", (0.0, 0.0), (1.0, 1.0), 0.0));
    let (_, bytes) = flavours(&mut d).remove(1);
    let (code, _, err) = run(&bytes, &[]);
    assert_eq!(code, 2);
    assert!(err.contains("places itself"), "{err}");
    // An INSERT of a block the drawing lacks.
    let mut d = Drawing::new();
    d.add_entity(insert("NOWHERE", (0.0, 0.0), (1.0, 1.0), 0.0));
    let (_, bytes) = flavours(&mut d).remove(1);
    let (code, _, err) = run(&bytes, &[]);
    assert_eq!(code, 2);
    assert!(err.contains("does not define"), "{err}");
}

fn on(layer: &str, mut e: Entity) -> Entity {
    e.common.layer = layer.to_string();
    e
}

#[test]
fn layers_select_and_name_the_parts() {
    // The plate on layer PLATE, a centre line on CENTER, and a block on layer 0 placed by
    // an INSERT on layer PLATE (its entities take the INSERT's layer).
    let mut block = Block::default();
    block.name = "SQ".to_string();
    block.entities = vec![
        line((0.0, 0.0), (1.0, 0.0)),
        line((1.0, 0.0), (1.0, 1.0)),
        line((1.0, 1.0), (0.0, 1.0)),
        line((0.0, 1.0), (0.0, 0.0)),
    ];
    let mut d = Drawing::new();
    d.add_block(block);
    for e in plate_and_slot().into_iter().take(6) {
        d.add_entity(on("PLATE", e));
    }
    d.add_entity(on("CENTER", line((-10.0, 25.0), (110.0, 25.0))));
    d.add_entity(on("PLATE", insert("SQ", (200.0, 0.0), (1.0, 1.0), 0.0)));
    let (_, bytes) = flavours(&mut d).remove(1);
    // All layers: the centre line belongs to no outline, refused when asked, else left
    // out with its layer named.
    let (code, _, err) = run(&bytes, &["--open", "error"]);
    assert_eq!(code, 2);
    assert!(err.contains("(layer CENTER)"), "{err}");
    let (code, _, err) = run(&bytes, &[]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("on layer CENTER (1)"), "{err}");
    // Only PLATE: the plate and the block's square, named with their layer.
    let (code, v, err) = run(&bytes, &["--layer", "PLATE"]);
    assert_eq!(code, 0, "{err}");
    let parts = v["parts"].as_array().unwrap();
    assert_eq!(parts.len(), 2);
    assert!(
        parts
            .iter()
            .any(|p| p["source"].as_str().unwrap().contains("(layer PLATE)"))
    );
    assert!(parts.iter().any(|p| f(&p["area"]) == 1.0));
    // A layer with nothing on it.
    let (code, _, err) = run(&bytes, &["--layer", "NOTHING"]);
    assert_eq!(code, 2);
    assert!(err.contains("on layer NOTHING"), "{err}");
}

fn ellipse(c: (f64, f64), major: (f64, f64), ratio: f64, t0: f64, t1: f64) -> Entity {
    let mut e = dxf::entities::Ellipse::default();
    e.center = Point::new(c.0, c.1, 0.0);
    e.major_axis = dxf::Vector::new(major.0, major.1, 0.0);
    e.minor_axis_ratio = ratio;
    e.start_parameter = t0;
    e.end_parameter = t1;
    Entity::new(EntityType::Ellipse(e))
}

#[test]
fn ellipses_full_and_partial() {
    // A full ellipse with semi-axes 4 and 2 turned 30°: area 8π, Ix'x' = π a b³/4 about its
    // major axis; and an obround: two half ellipses (semi-axes 3 along y, 1.5 along x)
    // joined by two LINEs 10 long: 10·6 + π·3·1.5.
    let (s, c) = 30f64.to_radians().sin_cos();
    let mut d = Drawing::new();
    d.add_entity(ellipse((0.0, 0.0), (4.0 * c, 4.0 * s), 0.5, 0.0, 2.0 * PI));
    d.add_entity(ellipse((100.0, 0.0), (0.0, 3.0), 0.5, 0.0, PI));
    d.add_entity(line((100.0, -3.0), (110.0, -3.0)));
    d.add_entity(ellipse((110.0, 0.0), (0.0, -3.0), 0.5, 0.0, PI));
    d.add_entity(line((110.0, 3.0), (100.0, 3.0)));
    for (name, bytes) in flavours(&mut d) {
        if name == "R12" {
            continue; // ELLIPSE is an R13+ entity: R12 files do not hold it.
        }
        let (code, v, err) = run(&bytes, &[]);
        assert_eq!(code, 0, "{name}: {err}");
        let parts = v["parts"].as_array().unwrap();
        assert_eq!(parts.len(), 2, "{name}");
        let e = &parts[0];
        // The exact values for the axis as the file holds it (ASCII DXF rounds the
        // digits of 4 cos 30°).
        let read = Drawing::load(&mut std::io::Cursor::new(&bytes)).unwrap();
        let (a, b) = read
            .entities()
            .find_map(|x| match &x.specific {
                EntityType::Ellipse(el) if el.center.x == 0.0 => {
                    let a = el.major_axis.x.hypot(el.major_axis.y);
                    Some((a, a * el.minor_axis_ratio))
                }
                _ => None,
            })
            .unwrap();
        let area = PI * a * b;
        assert!(
            (f(&e["area"]) - area).abs() < ARC_TOLERANCE * area,
            "{name}: {}",
            e["area"]
        );
        let i1 = PI * a * b * b * b / 4.0; // about the major axis (unit density)
        let i2 = PI * a * a * a * b / 4.0;
        assert!(
            (f(&e["principal"]["moments"][0]) - i1).abs() < ARC_TOLERANCE * i1
                && (f(&e["principal"]["moments"][1]) - i2).abs() < ARC_TOLERANCE * i2,
            "{name}: {}",
            e["principal"]
        );
        assert!(
            (f(&e["principal"]["angle_deg"]) - 30.0).abs() < 1e-9,
            "{name}: {}",
            e["principal"]
        );
        let obround = 60.0 + PI * 4.5;
        assert!(
            (f(&parts[1]["area"]) - obround).abs() < ARC_TOLERANCE * obround,
            "{name}: {}",
            parts[1]["area"]
        );
    }
}

#[test]
fn an_insert_array_too_large_is_refused() {
    // An array of 32767 × 32767 copies of an empty block: refused at once, not walked.
    let mut b = Block::default();
    b.name = "EMPTY".to_string();
    let mut d = Drawing::new();
    d.add_block(b);
    let mut i = Insert::default();
    i.name = "EMPTY".to_string();
    i.column_count = 32767;
    i.row_count = 32767;
    i.column_spacing = 1.0;
    i.row_spacing = 1.0;
    d.add_entity(Entity::new(EntityType::Insert(i)));
    d.add_entity(circle((0.0, 0.0), 1.0));
    let (_, bytes) = flavours(&mut d).remove(1);
    let (code, _, err) = run(&bytes, &[]);
    assert_eq!(code, 2);
    // Counted before anything is expanded: 32767² copies.
    assert!(
        err.contains("its INSERTs expand to 1073676289 entities, more than 1048576: refused before expanding (the limit: --max-entities)"),
        "{err}"
    );
}

#[test]
fn annotations_are_counted_in_the_report() {
    let mut text = dxf::entities::Text::default();
    text.value = "PLATE 5 mm".into();
    let dim = dxf::entities::RotatedDimension::default();
    let mut d = Drawing::new();
    for e in plate_and_slot().into_iter().take(6) {
        d.add_entity(e);
    }
    d.add_entity(Entity::new(EntityType::Text(text)));
    d.add_entity(Entity::new(EntityType::RotatedDimension(dim)));
    for (name, bytes) in flavours(&mut d) {
        let (code, v, err) = run(&bytes, &[]);
        assert_eq!(code, 0, "{name}: {err}");
        assert_eq!(v["ignored"]["TEXT"], 1, "{name}: {v}");
        // The dxf crate writes no DIMENSION into an R12 file.
        if name != "R12" {
            assert_eq!(v["ignored"]["DIMENSION"], 1, "{name}: {v}");
        }
    }
    // Several parts: the total says what the drawing left out.
    let mut d = Drawing::new();
    for e in plate_and_slot() {
        d.add_entity(e);
    }
    d.add_entity(Entity::new(
        EntityType::Text(dxf::entities::Text::default()),
    ));
    let (_, bytes) = flavours(&mut d).remove(1);
    let (code, v, err) = run(&bytes, &[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(v["total"]["ignored"]["TEXT"], 1, "{v}");
    // And the table says it too.
    let dir = std::env::temp_dir().join(format!("inertia-dxf-table-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("plate.dxf");
    std::fs::write(&p, &bytes).unwrap();
    let out = cargo_bin_cmd!("inertia")
        .args(["polygon", p.to_str().unwrap()])
        .output()
        .unwrap();
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(
        table
            .lines()
            .any(|l| l.starts_with("  ignored") && l.contains("1 TEXT")),
        "{table}"
    );
}

#[test]
fn splines_are_integrated_exactly() {
    // A cubic Bézier from (0, 0) to (10, 0) through control points (0, 10) and (10, 10),
    // closed by a LINE: ∫y dx = 1800 ∫t²(1 − t)² dt = 60.
    let mut sp = dxf::entities::Spline::default();
    sp.degree_of_curve = 3;
    sp.flags = 8; // planar
    sp.knot_values = vec![0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0];
    sp.control_points = [(0.0, 0.0), (0.0, 10.0), (10.0, 10.0), (10.0, 0.0)]
        .iter()
        .map(|&(x, y)| Point::new(x, y, 0.0))
        .collect();
    sp.weight_values = vec![1.0; 4];
    let mut d = Drawing::new();
    d.add_entity(Entity::new(EntityType::Spline(sp)));
    d.add_entity(line((10.0, 0.0), (0.0, 0.0)));
    for (name, bytes) in flavours(&mut d) {
        if name == "R12" {
            continue; // SPLINE is an R13+ entity.
        }
        let (code, v, err) = run(&bytes, &[]);
        assert_eq!(code, 0, "{name}: {err}");
        // A polynomial span: integrated in closed form, not approximated by chords.
        assert!(v.get("approximate").is_none(), "{name}: {v}");
        assert!(v.get("max_deviation").is_none(), "{name}: {v}");
        let area = f(&v["area"]);
        assert!((area - 60.0).abs() <= 1e-13 * 60.0, "{name}: {area}");
    }
}
