//! `--plot FILE.svg`: a picture of the body with its centroid and principal axes.
//!
//! Everything drawn is in the report's output length unit (the geometry is read in the
//! input's unit and scaled here, as the report's numbers are): axes with ticks in that unit,
//! a scale bar, the centroid marked and labelled with its coordinates, and the principal
//! axes labelled where no label covers another (equal moments are said once: "any axis is
//! principal"). The legend's lines are fitted to its column (a long file name is shortened
//! in the middle; its full text is the line's `<title>`).
//!
//! Polygons: the outline and holes, the centroid, the principal axes, and the equivalent
//! uniform ellipse (the ellipse of the same area and second moments: semi-axis `2·k` where `k`
//! is the radius of gyration about the other principal axis). Meshes: three orthographic
//! views (top XY, front XZ, side YZ) at one scale, each drawing the silhouette of the
//! projection (the edges between a triangle facing the viewer and one facing away, and open
//! boundary edges) rather than every triangle, with the centroid and the projected principal
//! axes of the equivalent uniform ellipsoid (semi-axis along axis i:
//! `√(5 (Iⱼ + Iₖ − Iᵢ) / 2m)`).

use super::{MeshReport, PolygonReport};
use crate::mesh::Mesh;
use crate::polygon::Polygon;
use crate::text::num_to;
use crate::units::{LengthUnit, UnitLabels};
use std::collections::{HashMap, HashSet};
use std::fmt::Write;

/// Font size of every text, px.
const FONT: f64 = 12.0;
/// A generous estimate of one character's width at [`FONT`] (sans-serif digits are 0.64 em):
/// labels are placed and the legend fitted with it, so they never come out wider.
const CHAR_W: f64 = 0.64 * FONT;
/// Colour of the centroid marker.
const CENTROID: &str = "#c00000";
/// Colours of the principal axes I1, I2, I3.
const AXES: [&str; 3] = ["#2a8a3a", "#8a2a7a", "#c07000"];
/// Moments closer than this (relative) are drawn as equal: any axis among them is principal.
const EQUAL: f64 = 1e-9;

/// The plot's length unit: output lengths per input length, and the unit's name.
fn length_unit(u: &UnitLabels) -> (f64, String) {
    let input = u.input.as_deref().and_then(LengthUnit::from_symbol);
    match (input, LengthUnit::from_symbol(&u.length)) {
        (Some(i), Some(o)) => (i.metres() / o.metres(), u.length.clone()),
        _ => (1.0, "input units".to_string()),
    }
}

/// Maps model coordinates (output unit) into a box of the picture (y up).
struct Frame {
    min: [f64; 2],
    scale: f64,
    origin: [f64; 2],
    height: f64,
}

impl Frame {
    /// Fits `[min, max]` into the box at `origin` of `size` px, centred, at `scale` px per
    /// unit when given (the three views of a mesh share one), else as large as fits.
    fn new(
        min: [f64; 2],
        max: [f64; 2],
        origin: [f64; 2],
        size: [f64; 2],
        scale: Option<f64>,
    ) -> Self {
        let w = (max[0] - min[0]).max(1e-300);
        let h = (max[1] - min[1]).max(1e-300);
        let scale = scale.unwrap_or((size[0] / w).min(size[1] / h));
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

    /// The model coordinates of a picture point.
    fn unmap(&self, x: f64, y: f64) -> [f64; 2] {
        [
            self.min[0] + (x - self.origin[0]) / self.scale,
            self.min[1] + (self.origin[1] + self.height - y) / self.scale,
        ]
    }
}

/// A rectangle of the picture: x, y, width, height (px).
#[derive(Clone, Copy)]
struct Rect {
    x: f64,
    y: f64,
    w: f64,
    h: f64,
}

impl Rect {
    fn overlaps(&self, o: &Rect) -> bool {
        self.x < o.x + o.w && o.x < self.x + self.w && self.y < o.y + o.h && o.y < self.y + self.h
    }

    fn inside(&self, o: &Rect) -> bool {
        self.x >= o.x
            && self.y >= o.y
            && self.x + self.w <= o.x + o.w
            && self.y + self.h <= o.y + o.h
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
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="{FONT}">"#
    );
    let _ = writeln!(o, r#"<rect width="{w}" height="{h}" fill="white"/>"#);
}

/// The smallest of 1, 2, 5 × 10ⁿ at least `x`.
fn nice_up(x: f64) -> f64 {
    let e = 10f64.powf(x.log10().floor());
    let f = x / e;
    let m = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .find(|m| f <= m * (1.0 + 1e-12))
        .unwrap_or(10.0);
    m * e
}

/// The largest of 1, 2, 5 × 10ⁿ at most `x`.
fn nice_down(x: f64) -> f64 {
    let e = 10f64.powf(x.log10().floor());
    let f = x / e;
    let m = [5.0, 2.0, 1.0]
        .into_iter()
        .find(|m| f >= m * (1.0 - 1e-12))
        .unwrap_or(1.0);
    m * e
}

/// `v` written to the resolution `step` (a tick spacing, or a pixel's size): as many
/// decimals as `step` needs, or in exponent form for very large or small numbers.
fn short(v: f64, step: f64) -> String {
    let v = if v.abs() < step * 1e-6 { 0.0 } else { v };
    let decimals = (-(step.log10() + 1e-9).floor()).max(0.0);
    if decimals <= 9.0 && v.abs() < 1e12 && step >= 1e-9 {
        format!("{v:.*}", decimals as usize)
    } else {
        let digits = ((v.abs().max(step) / step).log10().ceil()).clamp(0.0, 15.0);
        format!("{v:.*e}", digits as usize)
    }
}

/// The width a text takes, px (estimated).
fn text_width(s: &str) -> f64 {
    s.chars().count() as f64 * CHAR_W
}

/// Tick positions from `lo` to `hi` spaced at least `min_px` apart and wide enough for
/// their labels, and the labels.
fn ticks(lo: f64, hi: f64, scale: f64, min_px: f64, vertical: bool) -> Vec<(f64, String)> {
    let mut step = nice_up((min_px / scale).max(f64::MIN_POSITIVE));
    for _ in 0..40 {
        let first = (lo / step).ceil();
        let count = ((hi / step).floor() - first + 1.0).max(0.0);
        if count > 200.0 {
            step = nice_up(step * 1.5);
            continue;
        }
        let out: Vec<(f64, String)> = (0..count as usize)
            .map(|i| {
                let v = (first + i as f64) * step;
                (v, short(v, step))
            })
            .collect();
        let need = if vertical {
            FONT + 6.0
        } else {
            out.iter().map(|(_, s)| text_width(s)).fold(0.0, f64::max) + 12.0
        };
        if step * scale >= need {
            return out;
        }
        step = nice_up(step * 1.5);
    }
    Vec::new()
}

/// Widest label of the vertical axis a frame would get (to size the left margin).
fn y_label_width(frame: &Frame, plot: Rect) -> f64 {
    let lo = frame.unmap(plot.x, plot.y + plot.h)[1];
    let hi = frame.unmap(plot.x, plot.y)[1];
    ticks(lo, hi, frame.scale, 40.0, true)
        .iter()
        .map(|(_, s)| text_width(s))
        .fold(0.0, f64::max)
}

/// The frame around the plot area, light grid lines, ticks and tick labels, and the two
/// axis titles (`names` with the unit).
fn axes(o: &mut String, frame: &Frame, plot: Rect, names: [&str; 2], unit: &str) {
    let (x_lo, y_lo) = {
        let p = frame.unmap(plot.x, plot.y + plot.h);
        (p[0], p[1])
    };
    let (x_hi, y_hi) = {
        let p = frame.unmap(plot.x + plot.w, plot.y);
        (p[0], p[1])
    };
    let xt = ticks(x_lo, x_hi, frame.scale, 60.0, false);
    let yt = ticks(y_lo, y_hi, frame.scale, 40.0, true);
    let bottom = plot.y + plot.h;
    let mut grid = String::new();
    let mut marks = String::new();
    let mut labels = String::new();
    for (v, s) in &xt {
        let x = frame.map([*v, 0.0]).0;
        let _ = write!(grid, "M{x:.2},{:.2}V{bottom:.2}", plot.y);
        let _ = write!(marks, "M{x:.2},{bottom:.2}v5");
        let _ = write!(
            labels,
            r#"<text x="{x:.2}" y="{:.2}" text-anchor="middle">{s}</text>"#,
            bottom + 18.0
        );
    }
    for (v, s) in &yt {
        let y = frame.map([0.0, *v]).1;
        let _ = write!(grid, "M{:.2},{y:.2}H{:.2}", plot.x, plot.x + plot.w);
        let _ = write!(marks, "M{:.2},{y:.2}h-5", plot.x);
        let _ = write!(
            labels,
            r#"<text x="{:.2}" y="{:.2}" text-anchor="end">{s}</text>"#,
            plot.x - 8.0,
            y + 4.0
        );
    }
    let _ = writeln!(
        o,
        r##"<g class="axes"><path d="{grid}" stroke="#e4e4e4" stroke-width="0.8" fill="none"/><rect x="{:.2}" y="{:.2}" width="{:.2}" height="{:.2}" fill="none" stroke="#444" stroke-width="1"/><path d="{marks}" stroke="#444" stroke-width="1"/>{labels}"##,
        plot.x, plot.y, plot.w, plot.h
    );
    let _ = writeln!(
        o,
        r#"<text x="{:.2}" y="{:.2}" text-anchor="middle">{} ({})</text>"#,
        plot.x + plot.w / 2.0,
        bottom + 34.0,
        names[0],
        escape(unit)
    );
    let _ = writeln!(
        o,
        r#"<text x="{:.2}" y="{:.2}">{} ({})</text></g>"#,
        plot.x,
        plot.y - 6.0,
        names[1],
        escape(unit)
    );
}

/// A scale bar at (`x`, `y`) (its left end), about `max_px` long at most.
fn scale_bar(o: &mut String, x: f64, y: f64, scale: f64, max_px: f64, unit: &str) {
    let len = nice_down(max_px / scale);
    let px = len * scale;
    let _ = writeln!(
        o,
        r##"<g class="scale-bar"><path d="M{x:.2},{:.2}v6h{px:.2}v-6" fill="none" stroke="#000" stroke-width="1.5"/><rect x="{x:.2}" y="{:.2}" width="{:.2}" height="3" fill="#000"/><text x="{:.2}" y="{:.2}">{} {}</text></g>"##,
        y - 3.0,
        y,
        px / 2.0,
        x + px + 8.0,
        y + 5.0,
        short(len, len),
        escape(unit)
    );
}

/// Labels placed where they cover no other label or marker and stay inside a box.
struct Labels {
    taken: Vec<Rect>,
    bounds: Rect,
}

impl Labels {
    fn new(bounds: Rect) -> Self {
        Labels {
            taken: Vec::new(),
            bounds,
        }
    }

    /// Keeps labels off a marker.
    fn block(&mut self, r: Rect) {
        self.taken.push(r);
    }

    /// Writes `text` next to the first anchor point where it fits (trying four corners
    /// around each, in order), or at the first anchor, kept inside the box, when none does.
    fn place(&mut self, o: &mut String, anchors: &[(f64, f64)], text: &str, colour: &str) {
        let w = text_width(text) + 4.0;
        let h = FONT + 4.0;
        let boxes = |&(x, y): &(f64, f64)| {
            [
                Rect {
                    x: x + 10.0,
                    y: y - 10.0 - h,
                    w,
                    h,
                },
                Rect {
                    x: x + 10.0,
                    y: y + 10.0,
                    w,
                    h,
                },
                Rect {
                    x: x - 10.0 - w,
                    y: y - 10.0 - h,
                    w,
                    h,
                },
                Rect {
                    x: x - 10.0 - w,
                    y: y + 10.0,
                    w,
                    h,
                },
            ]
        };
        let free = |r: &Rect| r.inside(&self.bounds) && !self.taken.iter().any(|t| t.overlaps(r));
        let chosen = anchors
            .iter()
            .flat_map(boxes)
            .find(free)
            .or_else(|| {
                // Nothing free: the least crowded place inside the box.
                anchors
                    .iter()
                    .flat_map(boxes)
                    .filter(|r| r.inside(&self.bounds))
                    .min_by_key(|r| self.taken.iter().filter(|t| t.overlaps(r)).count())
            })
            .unwrap_or_else(|| {
                let b = self.bounds;
                let (x, y) = anchors.first().copied().unwrap_or((b.x, b.y));
                Rect {
                    x: x.clamp(b.x, (b.x + b.w - w).max(b.x)),
                    y: y.clamp(b.y, (b.y + b.h - h).max(b.y)),
                    w,
                    h,
                }
            });
        self.taken.push(chosen);
        let _ = writeln!(
            o,
            r#"<text class="label" x="{:.2}" y="{:.2}" fill="{colour}" stroke="white" stroke-width="3" stroke-linejoin="round" paint-order="stroke">{}</text>"#,
            chosen.x + 2.0,
            chosen.y + FONT,
            escape(text)
        );
    }
}

/// The centroid `c` (in the output unit): a cross and a dot, labelled with its
/// coordinates to the picture's resolution.
fn centroid(o: &mut String, labels: &mut Labels, frame: &Frame, c: [f64; 2]) {
    let (x, y) = frame.map(c);
    let _ = writeln!(
        o,
        r#"<g class="centroid" stroke="{CENTROID}" stroke-width="1.5"><line x1="{:.2}" y1="{y:.2}" x2="{:.2}" y2="{y:.2}"/><line x1="{x:.2}" y1="{:.2}" x2="{x:.2}" y2="{:.2}"/><circle cx="{x:.2}" cy="{y:.2}" r="3.5" fill="{CENTROID}"/></g>"#,
        x - 8.0,
        x + 8.0,
        y - 8.0,
        y + 8.0
    );
    labels.block(Rect {
        x: x - 9.0,
        y: y - 9.0,
        w: 18.0,
        h: 18.0,
    });
    let px = 1.0 / frame.scale;
    labels.place(
        o,
        &[(x, y)],
        &format!("C ({}, {})", short(c[0], px), short(c[1], px)),
        CENTROID,
    );
}

/// A dashed principal axis through `c` along `d`, `half` long each way; returns its two
/// ends in the picture.
fn axis_line(
    o: &mut String,
    frame: &Frame,
    c: [f64; 2],
    d: [f64; 2],
    half: f64,
    colour: &str,
) -> [(f64, f64); 2] {
    let a = frame.map([c[0] + d[0] * half, c[1] + d[1] * half]);
    let b = frame.map([c[0] - d[0] * half, c[1] - d[1] * half]);
    let _ = writeln!(
        o,
        r#"<line x1="{:.2}" y1="{:.2}" x2="{:.2}" y2="{:.2}" stroke="{colour}" stroke-width="1.5" stroke-dasharray="6 3"/>"#,
        a.0, a.1, b.0, b.1
    );
    [a, b]
}

/// Which principal axes get which label: equal moments share one ("I1 = I2"), put on the
/// first of their axes.
fn axis_labels(moments: &[f64]) -> Vec<Option<String>> {
    let n = moments.len();
    let equal = |i: usize, j: usize| {
        (moments[i] - moments[j]).abs() <= EQUAL * moments[i].abs().max(moments[j].abs())
    };
    let mut out = vec![None; n];
    let mut i = 0;
    while i < n {
        let mut j = i;
        while j + 1 < n && equal(j, j + 1) {
            j += 1;
        }
        let names: Vec<String> = (i..=j).map(|k| format!("I{}", k + 1)).collect();
        out[i] = Some(names.join(" = "));
        i = j + 1;
    }
    out
}

/// What a shared label means: "I1 = I2: any axis is principal" when every moment is
/// equal, "… any axis in their plane …" for two of three.
fn equal_note(label: &str, dims: usize) -> Option<String> {
    let shared = label.matches('I').count();
    (shared > 1).then(|| {
        format!(
            "{label}: any axis{} is principal",
            if shared == dims {
                ""
            } else {
                " in their plane"
            }
        )
    })
}

/// Fits a legend line into `chars` characters: wrapped at spaces, a word too long for a
/// line (a path) shortened in the middle.
fn fit(line: &str, chars: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut cur = String::new();
    for word in line.split(' ') {
        let word = middle(word, chars);
        let len = cur.chars().count();
        if len > 0 && len + 1 + word.chars().count() > chars {
            out.push(std::mem::take(&mut cur));
        }
        if !cur.is_empty() {
            cur.push(' ');
        }
        cur.push_str(&word);
    }
    out.push(cur);
    out
}

/// `s` shortened to `chars` characters by an ellipsis in the middle.
fn middle(s: &str, chars: usize) -> String {
    let n = s.chars().count();
    if n <= chars || chars < 5 {
        return s.to_string();
    }
    let keep = chars - 1;
    // A path keeps its file name whole when that leaves room for a few characters of the
    // start; anything else is cut in the middle.
    let name = s.rfind(['/', '\\']).map(|i| s[i..].chars().count());
    let tail = match name {
        Some(t) if t + 4 <= keep => t.max(keep - keep / 2),
        _ => keep - keep / 2,
    };
    let head = keep - tail;
    let mut t: String = s.chars().take(head).collect();
    t.push('…');
    t.extend(s.chars().skip(n - tail));
    t
}

/// The legend: each line fitted to `width` px; a shortened line keeps its full text as
/// its `<title>`. Returns the y below the last line.
fn legend(o: &mut String, x: f64, y: f64, width: f64, lines: &[String]) -> f64 {
    let chars = ((width / CHAR_W).floor() as usize).max(8);
    let mut y = y;
    let _ = writeln!(o, r#"<g class="legend">"#);
    for line in lines {
        let parts = fit(line, chars);
        let shortened = parts.concat().chars().count() + parts.len() - 1 < line.chars().count();
        for p in parts {
            if shortened {
                let _ = writeln!(
                    o,
                    r#"<text x="{x:.2}" y="{y:.2}"><title>{}</title>{}</text>"#,
                    escape(line),
                    escape(&p)
                );
            } else {
                let _ = writeln!(o, r#"<text x="{x:.2}" y="{y:.2}">{}</text>"#, escape(&p));
            }
            y += FONT + 6.0;
        }
    }
    o.push_str("</g>\n");
    y
}

/// Significant digits of a legend's numbers: a reader's figure, not a data file's (the
/// JSON report has every digit).
const LEGEND_DIGITS: usize = 6;

/// A legend's number.
fn legend_num(v: f64) -> String {
    num_to(v, LEGEND_DIGITS)
}

/// `value unit` (to [`LEGEND_DIGITS`] digits, the unit in one notation: `kg·mm²`, `mm⁴`),
/// or the value alone when the run has no units.
fn with_unit(v: f64, unit: &str, unitless: bool) -> String {
    if unitless {
        legend_num(v)
    } else {
        format!("{} {}", legend_num(v), pretty_unit(unit))
    }
}

/// A unit as the legend writes every unit: `kg*mm^2` as `kg·mm²`, `m^4` as `m⁴`.
fn pretty_unit(unit: &str) -> String {
    unit.replace('*', "·")
        .replace("^2", "²")
        .replace("^3", "³")
        .replace("^4", "⁴")
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
/// assert!(s.contains(">I1<") && s.contains(">I2<") && s.contains(">C (2.00, 0.50)<"));
/// # Ok::<(), inertia::Error>(())
/// ```
pub fn polygon(poly: &Polygon, r: &PolygonReport) -> String {
    let (w, h) = (980.0, 560.0);
    let legend_x = 660.0;
    let (k, unit) = length_unit(&r.units);
    let unitless = r.units.input.is_none();
    let mut min = [f64::INFINITY; 2];
    let mut max = [f64::NEG_INFINITY; 2];
    for ring in poly.outline_rings() {
        for p in ring {
            min = [min[0].min(p.x * k), min[1].min(p.y * k)];
            max = [max[0].max(p.x * k), max[1].max(p.y * k)];
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
    let reach = a1.max(a2) * 1.15;
    if reach.is_finite() {
        min = [min[0].min(c[0] - reach), min[1].min(c[1] - reach)];
        max = [max[0].max(c[0] + reach), max[1].max(c[1] + reach)];
    }
    // The plot area; its left margin fits the vertical axis' labels.
    let (top, right, bottom) = (30.0, legend_x - 30.0, h - 50.0);
    let mut left = 70.0;
    let mut frame;
    loop {
        let plot = Rect {
            x: left,
            y: top,
            w: right - left,
            h: bottom - top,
        };
        frame = Frame::new(
            min,
            max,
            [plot.x + 12.0, plot.y + 12.0],
            [plot.w - 24.0, plot.h - 24.0],
            None,
        );
        let need = (y_label_width(&frame, plot) + 30.0).clamp(50.0, 260.0);
        if need <= left + 0.5 {
            break;
        }
        left = need;
    }
    let plot = Rect {
        x: left,
        y: top,
        w: right - left,
        h: bottom - top,
    };
    let mut o = String::new();
    header(&mut o, w, h);
    axes(&mut o, &frame, plot, ["x", "y"], &unit);
    // Outline and holes as one path, even-odd fill.
    let mut d = String::new();
    for ring in poly.outline_rings() {
        for (i, q) in ring.iter().enumerate() {
            let (x, y) = frame.map([q.x * k, q.y * k]);
            let _ = write!(d, "{}{x:.2},{y:.2} ", if i == 0 { "M" } else { "L" });
        }
        d.push_str("Z ");
    }
    let _ = writeln!(
        o,
        r##"<path class="outline" d="{d}" fill="#cfe0f5" fill-rule="evenodd" stroke="#1f4e8c" stroke-width="1.5"/>"##
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
    let ends = [
        axis_line(&mut o, &frame, c, u, a1 * 1.15, AXES[0]),
        axis_line(&mut o, &frame, c, v, a2 * 1.15, AXES[1]),
    ];
    let mut labels = Labels::new(plot);
    centroid(&mut o, &mut labels, &frame, c);
    let names = axis_labels(&p.moments);
    for (i, name) in names.iter().enumerate() {
        if let Some(name) = name {
            let text = equal_note(name, 2).unwrap_or_else(|| name.clone());
            labels.place(&mut o, &ends[i], &text, AXES[i]);
        }
    }
    // Legend.
    let mut lines = vec![
        r.source.clone(),
        format!("method {}", r.method),
        format!("area {}", with_unit(r.area, &format!("{unit}²"), unitless)),
        format!("mass {}", with_unit(r.mass, &r.units.mass, unitless)),
        format!("centroid x {}", with_unit(c[0], &unit, unitless)),
        format!("centroid y {}", with_unit(c[1], &unit, unitless)),
        format!(
            "polar I {}",
            with_unit(r.inertia, &r.units.inertia, unitless)
        ),
        format!("I1 {}", with_unit(p.moments[0], &r.units.inertia, unitless)),
        format!("I2 {}", with_unit(p.moments[1], &r.units.inertia, unitless)),
        format!("I1 axis at {}° from +x", legend_num(p.angle_deg)),
        format!(
            "second moment of area J {}",
            with_unit(
                r.area_moments.polar,
                r.units.area_moment.as_deref().unwrap_or_default(),
                unitless
            )
        ),
        "ellipse: the equivalent uniform ellipse".to_string(),
        format!("lengths in {unit}"),
    ];
    lines.splice(
        9..9,
        names.iter().flatten().filter_map(|n| equal_note(n, 2)),
    );
    let below = legend(&mut o, legend_x, 40.0, w - legend_x - 20.0, &lines);
    scale_bar(
        &mut o,
        legend_x,
        below + 14.0,
        frame.scale,
        w - legend_x - 120.0,
        &unit,
    );
    o.push_str("</svg>\n");
    o
}

/// The edges of the silhouette of `mesh` seen along coordinate axis `along` (0, 1, 2):
/// edges between a triangle facing the viewer and one facing away or edge-on, and edges
/// that do not join exactly two triangles (an open boundary).
fn silhouette(mesh: &Mesh, along: usize) -> Vec<[u32; 2]> {
    let v = mesh.vertices();
    // The side each triangle faces: +1, −1, or 0 when seen edge-on.
    let facing = |t: &[u32; 3]| {
        let [a, b, c] = t.map(|i| v[i as usize]);
        let n = (b - a).cross(&(c - a));
        let len = n.norm();
        let s = n[along];
        if len.is_nan() || len <= 0.0 || s.abs() <= 1e-9 * len {
            0i8
        } else if s > 0.0 {
            1
        } else {
            -1
        }
    };
    let mut edges: HashMap<(u32, u32), (i8, u32, bool)> = HashMap::new();
    for t in mesh.triangles() {
        let f = facing(t);
        for (a, b) in [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])] {
            let key = (a.min(b), a.max(b));
            edges
                .entry(key)
                .and_modify(|e| {
                    e.1 += 1;
                    e.2 |= e.0 != f;
                })
                .or_insert((f, 1, false));
        }
    }
    let mut out: Vec<[u32; 2]> = edges
        .into_iter()
        .filter(|(_, (_, count, differs))| *count != 2 || *differs)
        .map(|((a, b), _)| [a, b])
        .collect();
    out.sort_unstable();
    out
}

/// The mesh plot: three orthographic views at one scale, each the silhouette of the
/// projection.
///
/// # Examples
/// ```
/// let cube = inertia::Mesh::new(&inertia::shape::Shape3d::Box { size: [1.0; 3] }.tessellate(0))?;
/// let r = inertia::report::MeshReport::new("cube", &cube, inertia::MeshMethod::Tetra, 0, inertia::Amount::Density(1.0), None);
/// let s = inertia::report::svg::mesh(&cube, &r);
/// assert!(s.contains("top (x, y)") && s.contains(">I1 = I2 = I3<"));
/// assert!(s.contains("I1 = I2 = I3: any axis is principal"));
/// # Ok::<(), inertia::Error>(())
/// ```
pub fn mesh(mesh: &Mesh, r: &MeshReport) -> String {
    let (w, h) = (1000.0, 560.0);
    let (k, unit) = length_unit(&r.units);
    let unitless = r.units.input.is_none();
    let (lo, hi) = mesh.bounding_box();
    let (lo, hi) = (
        [lo.x * k, lo.y * k, lo.z * k],
        [hi.x * k, hi.y * k, hi.z * k],
    );
    let views = [
        ("top (x, y)", 0usize, 1usize, 2usize, ["x", "y"]),
        ("front (x, z)", 0, 2, 1, ["x", "z"]),
        ("side (y, z)", 1, 2, 0, ["y", "z"]),
    ];
    let pm = r.principal.moments;
    let m = r.mass;
    let semi = |i: usize| {
        let (j, l) = ((i + 1) % 3, (i + 2) % 3);
        (5.0 * (pm[j] + pm[l] - pm[i]).max(0.0) / (2.0 * m)).sqrt()
    };
    // The reach of the drawn axes, to keep them in the views.
    let reach = (0..3).map(semi).fold(0.0, f64::max);
    let reach = if reach.is_finite() { reach } else { 0.0 };
    let c3 = r.centroid;
    let lo = [0, 1, 2].map(|i| lo[i].min(c3[i] - reach));
    let hi = [0, 1, 2].map(|i| hi[i].max(c3[i] + reach));
    // One scale for all three views: the largest that fits each; the left margin of each
    // view fits its vertical axis' labels.
    let (vw, vh, top) = (330.0, 330.0, 40.0);
    let layout = |margin_left: f64| {
        let inner = [vw - margin_left - 30.0, vh - 60.0];
        let scale = views
            .iter()
            .map(|(_, a, b, _, _)| {
                let sx = inner[0] / (hi[*a] - lo[*a]).max(1e-300);
                let sy = inner[1] / (hi[*b] - lo[*b]).max(1e-300);
                sx.min(sy)
            })
            .fold(f64::INFINITY, f64::min);
        (inner, scale)
    };
    let place = |n: usize, margin_left: f64, inner: [f64; 2], scale: f64| {
        let (_, a, b, _, _) = views[n];
        let plot = Rect {
            x: 10.0 + n as f64 * vw + margin_left,
            y: top,
            w: inner[0] + 24.0,
            h: inner[1] + 24.0,
        };
        let frame = Frame::new(
            [lo[a], lo[b]],
            [hi[a], hi[b]],
            [plot.x + 12.0, plot.y + 12.0],
            inner,
            Some(scale),
        );
        (plot, frame)
    };
    let mut margin_left = 60.0;
    for _ in 0..3 {
        let (inner, scale) = layout(margin_left);
        let need = (0..3)
            .map(|n| {
                let (plot, frame) = place(n, margin_left, inner, scale);
                y_label_width(&frame, plot)
            })
            .fold(0.0, f64::max);
        let need = (need + 30.0).clamp(50.0, 160.0);
        if need <= margin_left + 0.5 {
            break;
        }
        margin_left = need;
    }
    let (inner, scale) = layout(margin_left);
    let mut o = String::new();
    header(&mut o, w, h);
    let labels_for = axis_labels(&pm);
    let mut edges_drawn = 0;
    for (n, (title, a, b, along, names)) in views.iter().enumerate() {
        let (plot, frame) = place(n, margin_left, inner, scale);
        let _ = writeln!(
            o,
            r#"<text x="{:.2}" y="{:.2}" font-weight="bold">{title}</text>"#,
            plot.x,
            top - 24.0
        );
        axes(&mut o, &frame, plot, *names, &unit);
        let mut d = String::new();
        let mut seen = HashSet::new();
        let v = mesh.vertices();
        for [p, q] in silhouette(mesh, *along) {
            let (p, q) = (v[p as usize] * k, v[q as usize] * k);
            let (x1, y1) = frame.map([p[*a], p[*b]]);
            let (x2, y2) = frame.map([q[*a], q[*b]]);
            let s1 = format!("{x1:.1},{y1:.1}");
            let s2 = format!("{x2:.1},{y2:.1}");
            // Edges that project onto one segment are drawn once; points not at all.
            if s1 == s2 {
                continue;
            }
            let key = if s1 < s2 { (s1, s2) } else { (s2, s1) };
            if seen.insert(key.clone()) {
                let _ = write!(d, "M{}L{}", key.0, key.1);
                edges_drawn += 1;
            }
        }
        let _ = writeln!(
            o,
            r##"<path class="silhouette" d="{d}" fill="none" stroke="#1f4e8c" stroke-width="1" stroke-linecap="round"/>"##
        );
        let c = [c3[*a], c3[*b]];
        let mut ends = Vec::new();
        for (i, (ax, colour)) in r.principal.axes.iter().zip(AXES).enumerate() {
            let d = [ax[*a], ax[*b]];
            if d[0].hypot(d[1]) > 1e-9 {
                ends.push((i, axis_line(&mut o, &frame, c, d, semi(i), colour)));
            }
        }
        let mut labels = Labels::new(plot);
        centroid(&mut o, &mut labels, &frame, c);
        // A label shared by equal moments goes on the first of their axes seen here.
        let mut pending: Option<&String> = None;
        for i in 0..3 {
            if let Some(text) = &labels_for[i] {
                pending = Some(text);
            }
            if let (Some(text), Some((_, e))) = (pending, ends.iter().find(|(j, _)| *j == i)) {
                labels.place(&mut o, e, text, AXES[i]);
                pending = None;
            }
        }
    }
    let iu = &r.units.inertia;
    let mut lines = vec![
        format!("{} (method {})", r.source, r.method),
        format!(
            "volume {}; mass {}; lengths in {unit}",
            with_unit(r.volume, &format!("{unit}³"), unitless),
            with_unit(r.mass, &r.units.mass, unitless)
        ),
        format!(
            "centroid ({}, {}, {}){}",
            legend_num(c3[0]),
            legend_num(c3[1]),
            legend_num(c3[2]),
            if unitless {
                String::new()
            } else {
                format!(" {unit}")
            }
        ),
        format!(
            "principal moments I1 {}; I2 {}; I3 {}",
            with_unit(pm[0], iu, unitless),
            with_unit(pm[1], iu, unitless),
            with_unit(pm[2], iu, unitless)
        ),
        format!(
            "axes drawn to the semi-axes of the equivalent uniform ellipsoid; outline: the silhouette of {} triangles ({edges_drawn} edges drawn)",
            mesh.triangles().len()
        ),
    ];
    lines.splice(
        4..4,
        labels_for.iter().flatten().filter_map(|n| equal_note(n, 3)),
    );
    let below = legend(&mut o, 20.0, top + vh + 20.0, w - 40.0, &lines);
    scale_bar(&mut o, 20.0, below + 12.0, scale, 200.0, &unit);
    o.push_str("</svg>\n");
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nice_numbers() {
        assert_eq!(nice_up(0.3), 0.5);
        assert_eq!(nice_up(3.0), 5.0);
        assert_eq!(nice_up(1.0), 1.0);
        assert_eq!(nice_down(0.3), 0.2);
        assert_eq!(nice_down(7.0), 5.0);
        assert_eq!(short(0.5, 0.5), "0.5");
        assert_eq!(short(100000000.25, 0.01), "100000000.25");
        assert_eq!(short(-1e-12, 0.1), "0.0");
        assert_eq!(short(2.0, 1.0), "2");
    }

    #[test]
    fn legend_lines_fit() {
        let path = "/a/very/long/directory/name/that/goes/on/and/on/part.json";
        let f = fit(path, 20);
        assert_eq!(f, vec!["/a/very/l…/part.json".to_string()]);
        assert_eq!(f[0].chars().count(), 20);
        assert_eq!(fit("a b c", 3), vec!["a b", "c"]);
        // The file name is kept whole where it fits.
        let f = fit("/home/someone/projects/brackets/bracket_rev_c.json", 24);
        assert_eq!(f, vec!["/hom…/bracket_rev_c.json".to_string()]);
    }

    #[test]
    fn equal_moments_are_said_once() {
        assert_eq!(axis_labels(&[1.0, 1.0]), vec![Some("I1 = I2".into()), None]);
        assert_eq!(
            equal_note("I1 = I2", 2).as_deref(),
            Some("I1 = I2: any axis is principal")
        );
        assert_eq!(
            axis_labels(&[1.0, 2.0, 2.0]),
            vec![Some("I1".into()), Some("I2 = I3".into()), None]
        );
        assert_eq!(
            equal_note("I2 = I3", 3).as_deref(),
            Some("I2 = I3: any axis in their plane is principal")
        );
        assert_eq!(equal_note("I2", 3), None);
        assert_eq!(
            axis_labels(&[1.0, 2.0]),
            vec![Some("I1".into()), Some("I2".into())]
        );
    }

    #[test]
    fn ticks_cover_the_range_with_room_for_labels() {
        let t = ticks(0.0, 2.0, 200.0, 60.0, false);
        let v: Vec<f64> = t.iter().map(|t| t.0).collect();
        assert_eq!(v, vec![0.0, 0.5, 1.0, 1.5, 2.0]);
        // Far from the origin the labels are long, so the ticks are sparser.
        let t = ticks(1e8, 1e8 + 2.0, 200.0, 60.0, false);
        assert!(t.len() >= 2, "{t:?}");
        assert_eq!(t[0].1, "100000000.0");
        assert!((t[1].0 - t[0].0) * 200.0 >= text_width(&t[0].1) + 12.0);
    }

    #[test]
    fn silhouette_of_a_box_is_its_rim() {
        let cube = Mesh::new(&crate::shape::Shape3d::Box { size: [1.0; 3] }.tessellate(0)).unwrap();
        // Seen from above: the four edges around the top and the four around the bottom.
        assert_eq!(silhouette(&cube, 2).len(), 8);
    }
}
