//! Section properties of a plate from the library: an I-beam profile with a bolt hole.
//!
//! `cargo run --example section_properties`

use inertia::{Polygon, PolygonMethod};

fn main() -> Result<(), inertia::Error> {
    // An I-section 100 wide, 200 tall, flanges 15 thick, web 10 thick (mm), with a 10 × 10
    // square hole in the web.
    let outline = vec![
        [0.0, 0.0],
        [100.0, 0.0],
        [100.0, 15.0],
        [55.0, 15.0],
        [55.0, 185.0],
        [100.0, 185.0],
        [100.0, 200.0],
        [0.0, 200.0],
        [0.0, 185.0],
        [45.0, 185.0],
        [45.0, 15.0],
        [0.0, 15.0],
    ];
    let hole = vec![[46.0, 95.0], [54.0, 95.0], [54.0, 105.0], [46.0, 105.0]];
    let section = Polygon::new(outline, vec![hole])?;
    // Second moments of area: unit density.
    let r = PolygonMethod::Fan.integrate(&section);
    let p = r.properties;
    println!("area {:.3} mm²", p.area);
    println!("centroid ({:.3}, {:.3}) mm", p.centroid.x, p.centroid.y);
    println!(
        "Ixx {:.6e} mm⁴ (bending about the strong axis)",
        p.moments.ixx
    );
    println!("Iyy {:.6e} mm⁴", p.moments.iyy);
    // The three methods agree.
    for m in PolygonMethod::ALL {
        println!(
            "{:>15}: polar {:.12e}",
            m.name(),
            m.integrate(&section).polar
        );
    }
    // A steel beam cut from it: steel is 7850 kg/m³ = 7.85e-6 kg/mm³, so one millimetre of
    // length weighs 7.85e-6 kg per mm² of section.
    let per_mm = r.with_density(7.85e-6);
    println!(
        "mass per metre of length {:.3} kg",
        per_mm.properties.mass * 1000.0
    );
    Ok(())
}
