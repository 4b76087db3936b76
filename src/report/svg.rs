//! `--plot FILE.svg`: a picture of the body with its centroid and principal axes.
//!
//! Polygons: the outline and holes, the centroid, the principal axes, and the equivalent
//! uniform ellipse (the ellipse of the same area and second moments: semi-axis `2·k` where `k`
//! is the radius of gyration about the other principal axis), with a legend of the key
//! numbers. Meshes: three orthographic views (top XY, front XZ, side YZ) of the triangles,
//! each with the centroid and the projected principal axes of the equivalent uniform
//! ellipsoid (semi-axis along axis i: `√(5 (Iⱼ + Iₖ − Iᵢ) / 2m)`).

use super::table::num;
use super::{MeshReport, PolygonReport};
use crate::mesh::Mesh;
use crate::polygon::Polygon;
use std::fmt::Write;

/// Triangles drawn at most per view; a larger mesh draws every k-th triangle (and says so).
///
/// # Examples
/// ```
/// assert!(inertia::report::svg::MAX_TRIANGLES >= 10_000);
/// ```
pub const MAX_TRIANGLES: usize = 40_000;

/// Maps model coordinates into a box of the picture (y up).
struct Frame {
    min: [f64; 2],
    scale: f64,
    origin: [f64; 2],
    height: f64,
}

impl Frame {
    fn new(min: [f64; 2], max: [f64; 2], origin: [f64; 2], size: [f64; 2]) -> Self {
        let w = (max[0] - min[0]).max(1e-300);
        let h = (max[1] - min[1]).max(1e-300);
        let scale = (size[0] / w).min(size[1] / h);
        // Centre the drawing in the box.
        let ox = origin[0] + (size[0] - w * scale) / 2.0;
        let oy = origin[1] + (size[1] - h * scale) / 2.0;
        Frame {
            min,
            scale,
            origin: [ox, oy],
            height: h * scale,
        }
    }

    fn map(&self, p: [f64; 2]) -> (f64, f64) {
        (
            self.origin[0] + (p[0] - self.min[0]) * self.scale,
            self.origin[1] + self.height - (p[1] - self.min[1]) * self.scale,
        )
    }
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn header(o: &mut String, w: f64, h: f64) {
    let _ = writeln!(
        o,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(o, r#"<rect width="{w}" height="{h}" fill="white"/>"#);
}

fn cross(o: &mut String, x: f64, y: f64) {
    let _ = writeln!(
        o,
        r##"<g stroke="#c00" stroke-width="1.5"><line x1="{}" y1="{y}" x2="{}" y2="{y}"/><line x1="{x}" y1="{}" x2="{x}" y2="{}"/></g><circle cx="{x}" cy="{y}" r="3" fill="#c00"/>"##,
        x - 7.0,
        x + 7.0,
        y - 7.0,
        y + 7.0
    );
}

fn axis(
    o: &mut String,
    frame: &Frame,
    c: [f64; 2],
    d: [f64; 2],
    half: f64,
    colour: &str,
    label: &str,
) {
    let (x1, y1) = frame.map([c[0] - d[0] * half, c[1] - d[1] * half]);
    let (x2, y2) = frame.map([c[0] + d[0] * half, c[1] + d[1] * half]);
    let _ = writeln!(
        o,
        r#"<line x1="{x1:.2}" y1="{y1:.2}" x2="{x2:.2}" y2="{y2:.2}" stroke="{colour}" stroke-width="1.5" stroke-dasharray="6 3"/><text x="{x2:.2}" y="{y2:.2}" fill="{colour}" dx="4" dy="-4">{label}</text>"#
    );
}

/// The polygon plot.
///
/// # Examples
/// ```
/// use inertia::{Amount, Polygon, PolygonMethod, report::{svg, PolygonReport}};
/// let p = Polygon::new(vec![[0.0, 0.0], [4.0, 0.0], [4.0, 1.0], [0.0, 1.0]], vec![])?;
/// let r = PolygonReport::new("bar", &p, PolygonMethod::Fan, Amount::Density(1.0), None);
/// let s = svg::polygon(&p, &r);
/// assert!(s.starts_with("<svg") && s.trim_end().ends_with("</svg>"));
/// assert!(s.contains("I1"));
/// # Ok::<(), inertia::Error>(())
/// ```
pub fn polygon(poly: &Polygon, r: &PolygonReport) -> String {
    let (w, h, legend_w) = (860.0, 520.0, 320.0);
    let mut min = [f64::INFINITY; 2];
    let mut max = [f64::NEG_INFINITY; 2];
    for ring in poly.outline_rings() {
        for p in ring {
            min = [min[0].min(p.x), min[1].min(p.y)];
            max = [max[0].max(p.x), max[1].max(p.y)];
        }
    }
    // The ellipse may reach beyond the outline: include it.
    let p = r.principal;
    let m = r.mass;
    let (a1, a2) = (
        2.0 * (p.moments[1] / m).sqrt(),
        2.0 * (p.moments[0] / m).sqrt(),
    );
    let c = r.centroid;
    let reach = a1.max(a2);
    min = [min[0].min(c[0] - reach), min[1].min(c[1] - reach)];
    max = [max[0].max(c[0] + reach), max[1].max(c[1] + reach)];
    let frame = Frame::new(min, max, [20.0, 20.0], [w - legend_w - 40.0, h - 40.0]);
    let mut o = String::new();
    header(&mut o, w, h);
    // Outline and holes as one path, even-odd fill.
    let mut d = String::new();
    for ring in poly.outline_rings() {
        for (i, q) in ring.iter().enumerate() {
            let (x, y) = frame.map([q.x, q.y]);
            let _ = write!(d, "{}{x:.2},{y:.2} ", if i == 0 { "M" } else { "L" });
        }
        d.push_str("Z ");
    }
    let _ = writeln!(
        o,
        r##"<path d="{d}" fill="#cfe0f5" fill-rule="evenodd" stroke="#1f4e8c" stroke-width="1.5"/>"##
    );
    // Principal axes and the equivalent ellipse.
    let t = p.angle_deg.to_radians();
    let (u, v) = ([t.cos(), t.sin()], [-t.sin(), t.cos()]);
    let (cx, cy) = frame.map(c);
    let _ = writeln!(
        o,
        r##"<ellipse cx="{cx:.2}" cy="{cy:.2}" rx="{:.2}" ry="{:.2}" transform="rotate({:.4} {cx:.2} {cy:.2})" fill="none" stroke="#2a8a3a" stroke-width="1.2"/>"##,
        a1 * frame.scale,
        a2 * frame.scale,
        -p.angle_deg
    );
    axis(&mut o, &frame, c, u, a1 * 1.15, "#2a8a3a", "I1");
    axis(&mut o, &frame, c, v, a2 * 1.15, "#8a2a7a", "I2");
    cross(&mut o, cx, cy);
    // Legend.
    let lx = w - legend_w;
    let lines = [
        r.source.clone(),
        format!("method {}", r.method),
        format!("area {}", num(r.area)),
        format!("mass {}", num(r.mass)),
        format!("centroid ({}, {})", num(c[0]), num(c[1])),
        format!("polar I {}", num(r.inertia)),
        format!("I1 {} at {}°", num(p.moments[0]), num(p.angle_deg)),
        format!("I2 {}", num(p.moments[1])),
        "ellipse: equivalent uniform ellipse".to_string(),
        format!("units: {}", r.units.length),
    ];
    for (k, line) in lines.iter().enumerate() {
        let _ = writeln!(
            o,
            r#"<text x="{lx}" y="{}">{}</text>"#,
            36 + 18 * k,
            escape(line)
        );
    }
    o.push_str("</svg>\n");
    o
}

/// The mesh plot: three orthographic views.
///
/// # Examples
/// ```
/// let cube = inertia::Mesh::new(&inertia::shape::Shape3d::Box { size: [1.0; 3] }.tessellate(0))?;
/// let r = inertia::report::MeshReport::new("cube", &cube, inertia::MeshMethod::Tetra, 0, inertia::Amount::Density(1.0), None);
/// assert!(inertia::report::svg::mesh(&cube, &r).contains("top (x, y)"));
/// # Ok::<(), inertia::Error>(())
/// ```
pub fn mesh(mesh: &Mesh, r: &MeshReport) -> String {
    let (w, h) = (960.0, 500.0);
    let (lo, hi) = mesh.bounding_box();
    let views = [
        ("top (x, y)", 0usize, 1usize),
        ("front (x, z)", 0, 2),
        ("side (y, z)", 1, 2),
    ];
    let boxes = [[20.0, 40.0], [340.0, 40.0], [660.0, 40.0]];
    let size = [280.0, 280.0];
    let n = mesh.triangles().len();
    let step = n.div_ceil(MAX_TRIANGLES).max(1);
    let mut o = String::new();
    header(&mut o, w, h);
    let m = r.mass;
    let pm = r.principal.moments;
    let semi = |i: usize| {
        let (j, k) = ((i + 1) % 3, (i + 2) % 3);
        (5.0 * (pm[j] + pm[k] - pm[i]).max(0.0) / (2.0 * m)).sqrt()
    };
    for ((title, a, b), origin) in views.iter().zip(boxes) {
        let frame = Frame::new([lo[*a], lo[*b]], [hi[*a], hi[*b]], origin, size);
        let _ = writeln!(o, r#"<text x="{}" y="28">{}</text>"#, origin[0], title);
        let _ = write!(
            o,
            r##"<g fill="#1f4e8c" fill-opacity="0.08" stroke="#1f4e8c" stroke-opacity="0.25" stroke-width="0.3">"##
        );
        for t in (0..n).step_by(step) {
            let pts = mesh.corners(t).map(|p| frame.map([p[*a], p[*b]]));
            let _ = write!(
                o,
                r#"<path d="M{:.1},{:.1}L{:.1},{:.1}L{:.1},{:.1}Z"/>"#,
                pts[0].0, pts[0].1, pts[1].0, pts[1].1, pts[2].0, pts[2].1
            );
        }
        o.push_str("</g>\n");
        let c = [r.centroid[*a], r.centroid[*b]];
        for (i, colour) in ["#2a8a3a", "#8a2a7a", "#c07000"].iter().enumerate() {
            let ax = r.principal.axes[i];
            let d = [ax[*a], ax[*b]];
            if d[0].hypot(d[1]) > 1e-9 {
                axis(
                    &mut o,
                    &frame,
                    c,
                    d,
                    semi(i),
                    colour,
                    &format!("I{}", i + 1),
                );
            }
        }
        let (cx, cy) = frame.map(c);
        cross(&mut o, cx, cy);
    }
    let lines = [
        format!("{} (method {})", r.source, r.method),
        format!(
            "volume {}   mass {}   centroid ({}, {}, {})   units: {}",
            num(r.volume),
            num(r.mass),
            num(r.centroid[0]),
            num(r.centroid[1]),
            num(r.centroid[2]),
            r.units.length
        ),
        format!(
            "principal moments I1 {}   I2 {}   I3 {}",
            num(pm[0]),
            num(pm[1]),
            num(pm[2])
        ),
        "axes drawn to the semi-axes of the equivalent uniform ellipsoid".to_string(),
        if step > 1 {
            format!("{n} triangles: every {step}th drawn")
        } else {
            format!("{n} triangles")
        },
    ];
    for (k, line) in lines.iter().enumerate() {
        let _ = writeln!(
            o,
            r#"<text x="20" y="{}">{}</text>"#,
            360 + 22 * k,
            escape(line)
        );
    }
    o.push_str("</svg>\n");
    o
}
