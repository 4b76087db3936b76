//! The default output: an aligned, labelled table for people.
//!
//! Numbers are shown to 12 significant digits; use `--format json` for full precision.

use super::{MeshReport, PolygonReport};
use crate::units::{Products, UnitLabels};
use std::fmt::Write;

use crate::text::{TENSOR_NOISE, notation, num, num_in, tensor_cells};

fn row(out: &mut String, label: &str, value: &str) {
    let _ = writeln!(out, "  {label:<22} {value}");
}

/// The polygon report as a table.
///
/// # Examples
/// ```
/// use inertia::{Polygon, PolygonMethod, report::{table, PolygonReport}};
/// let p = Polygon::new(vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], vec![])?;
/// let t = table::polygon(&PolygonReport::new("sq", &p, PolygonMethod::Fan, inertia::Amount::Density(1.0), None));
/// assert!(t.contains("0.166666666667"));
/// # Ok::<(), inertia::Error>(())
/// ```
pub fn polygon(r: &PolygonReport) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "polygon {} (method: {})", r.source, r.method);
    let winding = if r.winding == "ccw" {
        "counter-clockwise"
    } else {
        "clockwise"
    };
    row(
        &mut o,
        "vertices",
        &format!(
            "{} (outer ring {winding}, {} hole{})",
            r.vertices,
            r.holes,
            if r.holes == 1 { "" } else { "s" }
        ),
    );
    row(&mut o, "perimeter", &num(r.perimeter));
    if let Some(b) = &r.bounding_box {
        row(
            &mut o,
            "bounding box",
            &format!(
                "({}, {}) to ({}, {})",
                num(b.min[0]),
                num(b.min[1]),
                num(b.max[0]),
                num(b.max[1])
            ),
        );
    }
    row(&mut o, "area", &num(r.area));
    row(&mut o, "density", &num(r.density));
    row(&mut o, "mass", &num(r.mass));
    row(&mut o, "centroid", &{
        let size = r
            .bounding_box
            .map_or(0.0, |b| (b.max[0] - b.min[0]).max(b.max[1] - b.min[1]));
        let [x, y] = r.centroid.map(|x| noise_free(x, size));
        labelled(&[("x", x), ("y", y)])
    });
    row(&mut o, "units", &units_line(&r.units));
    if !r.ignored.is_empty() {
        let list: Vec<String> = r.ignored.iter().map(|(k, n)| format!("{n} {k}")).collect();
        row(&mut o, "ignored", &list.join(", "));
    }
    if let Some(d) = r.max_deviation {
        row(
            &mut o,
            "approximate",
            &format!("curves cut into chords within {} of them", num(d)),
        );
    }
    let _ = writeln!(o);
    if r.about_centroid() {
        let _ = writeln!(o, "mass moments of inertia about the centroid");
    } else {
        let _ = writeln!(
            o,
            "mass moments of inertia about ({}, {})",
            num(r.about[0]),
            num(r.about[1])
        );
    }
    let m = &r.mass_moments;
    let (ixy_label, ixy_area_label, what) = match r.products {
        Products::Cad => ("Ixy = +∫xy dm", "Ixy = +∫xy dA", "product of inertia"),
        Products::Tensor => ("Ixy = −∫xy dm", "Ixy = −∫xy dA", "tensor off-diagonal"),
    };
    // One notation and one last digit for the moments of one tensor; noise below its
    // norm's rounding prints as 0.
    let pm = r.principal.moments;
    let norm = m.ixx.hypot(m.iyy).hypot(m.ixy * std::f64::consts::SQRT_2);
    let axis_moment = r.axis_moment.unwrap_or(0.0);
    let cells = tensor_cells(&[r.inertia, m.ixx, m.iyy, m.ixy, axis_moment], norm);
    // The principal moments about a far point keep the body's own digits (the smallest is
    // the moment about the line through the centroid): judged against the centroidal
    // tensor, each to its own 12 digits.
    let own = r.centroidal_mass_moments.as_ref().map_or(norm, |c| {
        c.ixx.hypot(c.iyy).hypot(c.ixy * std::f64::consts::SQRT_2)
    });
    let principal = shared(&pm, own);
    row(&mut o, "polar  Iz = ∫r² dm", &cells[0]);
    row(&mut o, "Ixx = ∫y² dm", &cells[1]);
    row(&mut o, "Iyy = ∫x² dm", &cells[2]);
    row(&mut o, ixy_label, &format!("{}  ({what})", cells[3]));
    row(
        &mut o,
        "principal I1",
        &format!(
            "{}  axis at {}° from +x",
            principal[0],
            num(clean(r.principal.angle_deg, 90.0))
        ),
    );
    row(&mut o, "principal I2", &principal[1]);
    if let (Some(axis), Some(_)) = (r.axis, r.axis_moment) {
        row(
            &mut o,
            &format!("about axis ({}, {})", num(axis[0]), num(axis[1])),
            &cells[4],
        );
    }
    let g = &r.radii_of_gyration;
    row(
        &mut o,
        "radii of gyration",
        &labelled(&[("x", g.x), ("y", g.y), ("polar", g.polar)]),
    );
    let a = &r.area_moments;
    let _ = writeln!(o);
    let unit = r
        .units
        .area_moment
        .as_deref()
        .map_or_else(String::new, |u| format!(", {u}"));
    let _ = writeln!(o, "second moments of area (geometry alone{unit})");
    let norm = a.ixx.hypot(a.iyy).hypot(a.ixy * std::f64::consts::SQRT_2);
    let cells = tensor_cells(&[a.ixx, a.iyy, a.ixy, a.polar], norm);
    row(&mut o, "Ixx = ∫y² dA", &cells[0]);
    row(&mut o, "Iyy = ∫x² dA", &cells[1]);
    row(&mut o, ixy_area_label, &cells[2]);
    row(&mut o, "J = ∫r² dA", &cells[3]);
    o
}

/// `x`, or 0 when it is below 1e-15 of `scale` (rounding noise: an `Ixy` of −8.67e-19
/// beside moments of 0.1, an axis at 1.9e-18°). Tables only; JSON and CSV keep every digit.
fn clean(x: f64, scale: f64) -> f64 {
    if x.abs() < 1e-15 * scale { 0.0 } else { x }
}

/// Numbers of one quantity in one notation, each to its own 12 digits, those below
/// [`TENSOR_NOISE`] of `scale` as 0.
fn shared(values: &[f64], scale: f64) -> Vec<String> {
    let kept: Vec<f64> = values.iter().map(|&x| noise_free(x, scale)).collect();
    let n = notation(&kept);
    kept.iter().map(|&x| num_in(x, n)).collect()
}

/// `x`, or 0 when it is below [`TENSOR_NOISE`] of `scale`.
fn noise_free(x: f64, scale: f64) -> f64 {
    if x.abs() < TENSOR_NOISE * scale {
        0.0
    } else {
        x
    }
}

/// A unit vector with its noise components cleaned.
fn unit_triple(v: [f64; 3]) -> String {
    triple(v.map(|x| clean(x, 1.0)))
}

/// Labelled numbers of one quantity (`x 1.2  y 3.4`), in one notation.
fn labelled(items: &[(&str, f64)]) -> String {
    let values: Vec<f64> = items.iter().map(|(_, v)| *v).collect();
    let n = notation(&values);
    let cells: Vec<String> = items
        .iter()
        .map(|(label, v)| format!("{label} {}", num_in(*v, n)))
        .collect();
    cells.join("  ")
}

/// Three coordinates in one notation.
fn triple(v: [f64; 3]) -> String {
    let n = notation(&v);
    format!(
        "({}, {}, {})",
        num_in(v[0], n),
        num_in(v[1], n),
        num_in(v[2], n)
    )
}

/// The mesh report as a table.
///
/// # Examples
/// ```
/// let cube = inertia::Mesh::new(&inertia::shape::Shape3d::Box { size: [1.0; 3] }.tessellate(0))?;
/// let r = inertia::report::MeshReport::new("cube", &cube, inertia::MeshMethod::Tetra, 0, inertia::Amount::Density(1.0), None);
/// assert!(inertia::report::table::mesh(&r).contains("principal moments"));
/// # Ok::<(), inertia::Error>(())
/// ```
pub fn mesh(r: &MeshReport) -> String {
    let mut o = String::new();
    match &r.resolution {
        Some(g) => {
            let _ = writeln!(
                o,
                "mesh {} (method: {}, {} × {} columns of {} × {})",
                r.source,
                r.method,
                g.cells[0],
                g.cells[1],
                num(g.cell_size[0]),
                num(g.cell_size[1])
            );
        }
        None => match r.tolerance {
            Some(t) => {
                let _ = writeln!(
                    o,
                    "mesh {} (method: {}, relative tolerance {:.0e})",
                    r.source, r.method, t
                );
            }
            None => {
                let _ = writeln!(o, "mesh {} (method: {})", r.source, r.method);
            }
        },
    }
    if let (Some(t), Some(d), Some(v)) = (r.triangles, r.degenerate_triangles, r.vertices) {
        row(
            &mut o,
            "triangles",
            &format!("{t} ({d} degenerate), {v} vertices after welding"),
        );
    }
    row(
        &mut o,
        "shells",
        &format!(
            "{} ({} cavit{}){}",
            r.shells,
            r.cavities,
            if r.cavities == 1 { "y" } else { "ies" },
            if r.inside_out {
                ", input was inside-out"
            } else {
                ""
            }
        ),
    );
    row(
        &mut o,
        "bounding box",
        &format!(
            "{} to {}",
            triple(r.bounding_box.min),
            triple(r.bounding_box.max)
        ),
    );
    row(&mut o, "surface area", &num(r.surface_area));
    row(&mut o, "volume", &num(r.volume));
    row(&mut o, "density", &num(r.density));
    if let Some(m) = &r.material {
        let density = match (m.density, m.density_used) {
            (Some(d), true) => format!(", {} kg/m^3 (the density used)", num(d)),
            (Some(d), false) => format!(", {} kg/m^3 (not used)", num(d)),
            (None, _) => String::new(),
        };
        row(&mut o, "material", &format!("\"{}\"{density}", m.name));
    }
    if let Some([red, green, blue]) = r.color {
        row(
            &mut o,
            "colour",
            &format!("({}, {}, {}) sRGB", num(red), num(green), num(blue)),
        );
    }
    row(&mut o, "mass", &num(r.mass));
    // A coordinate below the rounding of the body's size (its first moments are sums as
    // the tensor's are) prints as 0.
    let b = &r.bounding_box;
    let size = (0..3).fold(0.0_f64, |m, k| m.max(b.max[k] - b.min[k]));
    row(
        &mut o,
        "centroid",
        &triple(r.centroid.map(|x| noise_free(x, size))),
    );
    row(&mut o, "units", &units_line(&r.units));
    let _ = writeln!(o);
    let convention = match r.products {
        Products::Tensor => "off-diagonals are −∫xy dm",
        Products::Cad => "off-diagonals are products +∫xy dm",
    };
    if r.about_centroid() {
        let _ = writeln!(o, "inertia tensor about the centroid ({convention})");
    } else {
        let _ = writeln!(o, "inertia tensor about {} ({convention})", triple(r.about));
    }
    // The tensor and its principal moments: one notation, one last digit, and the noise
    // below the rounding of its norm as 0.
    let t = &r.inertia_tensor;
    let norm = t.iter().flatten().fold(0.0_f64, |n, x| n.hypot(*x));
    let mut values: Vec<f64> = t.iter().flatten().copied().collect();
    values.push(r.axis_moment.unwrap_or(0.0));
    let all = tensor_cells(&values, norm);
    // The principal moments about a far point keep the body's own digits: judged against
    // the centroidal tensor, each to its own 12 digits.
    let own = r.centroidal_inertia_tensor.as_ref().map_or(norm, |c| {
        c.iter().flatten().fold(0.0_f64, |n, x| n.hypot(*x))
    });
    let principal = shared(&r.principal.moments, own);
    let width = all[..9]
        .iter()
        .map(|c| c.chars().count())
        .max()
        .unwrap_or(1);
    for (label, row_cells) in ["x", "y", "z"].iter().zip(all[..9].chunks(3)) {
        let line: Vec<String> = row_cells.iter().map(|c| format!("{c:>width$}")).collect();
        let _ = writeln!(o, "  {label}  [ {} ]", line.join("  "));
    }
    row(
        &mut o,
        "principal moments",
        &format!("{}  {}  {}", principal[0], principal[1], principal[2]),
    );
    for (k, a) in r.principal.axes.iter().enumerate() {
        row(&mut o, &format!("axis of I{}", k + 1), &unit_triple(*a));
    }
    let g = &r.radii_of_gyration;
    row(
        &mut o,
        "radii of gyration",
        &labelled(&[("x", g.x), ("y", g.y), ("z", g.z)]),
    );
    if let (Some(axis), Some(_)) = (r.axis, r.axis_moment) {
        row(&mut o, &format!("about axis {}", triple(axis)), &all[9]);
    }
    o
}

fn units_line(u: &UnitLabels) -> String {
    if u.length == "input" {
        "as the input (lengths), density × measure (mass)".into()
    } else {
        let read = match &u.input {
            Some(i) if *i != u.length => format!(" (input in {i})"),
            _ => String::new(),
        };
        let area = u
            .area_moment
            .as_deref()
            .map_or_else(String::new, |a| format!(", area moments {a}"));
        format!(
            "length {}{read}, mass {}, density {}, inertia {}{area}",
            u.length, u.mass, u.density, u.inertia
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers() {
        assert_eq!(num(123456789012.0), "123456789012");
        assert_eq!(num(1234567890123.0), "1.23456789012e12");
        assert_eq!(num(-2.5e-7), "-2.5e-7");
        assert_eq!(num(0.000012), "1.2e-5");
        assert_eq!(num(0.00012), "0.00012");
    }
}
