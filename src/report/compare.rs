//! `--method all`: every method side by side, and how far they disagree.
//!
//! For each quantity the spread is `(max − min) / scale` over the methods, where the scale
//! is the quantity's natural magnitude: the value itself for area, volume and mass; the
//! body's size for centroid coordinates (so a part far from the origin is not flattered);
//! the largest moment for every moment and product (so a product that should be 0 is judged
//! against the moments, not against itself).

use super::{MeshReport, PolygonReport};
use crate::text::{Notation, TENSOR_NOISE, notation, num_in};
use serde::Serialize;
use std::fmt::Write;

/// One compared quantity.
///
/// # Examples
/// ```
/// let sq = inertia::Polygon::new(vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], vec![])?;
/// let r = inertia::report::PolygonReport::new("sq", &sq, inertia::PolygonMethod::Fan, inertia::Amount::Density(1.0), None);
/// let c = inertia::report::compare::polygons(vec![r.clone(), r], 1e-9);
/// assert_eq!(c.rows[0].quantity, "area");
/// # Ok::<(), inertia::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    /// What it is ("area", "centroid.x", "inertia_tensor.xy", ...).
    pub quantity: String,
    /// Its value by each method, in the order of [`Comparison::methods`].
    pub values: Vec<f64>,
    /// Spread over all methods.
    pub spread: f64,
    /// Spread over the exact methods only.
    pub exact_spread: f64,
    /// The quantity's natural magnitude the spreads are relative to (a body's size for a
    /// coordinate, its largest moment for a moment or product).
    #[serde(skip)]
    pub scale: f64,
    /// Its value in each report shown beside the methods ([`Comparison::beside`]).
    #[serde(skip)]
    pub beside: Vec<f64>,
}

/// Every method's result and their disagreement.
///
/// # Examples
/// ```
/// let sq = inertia::Polygon::new(vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], vec![])?;
/// let r = inertia::report::PolygonReport::new("sq", &sq, inertia::PolygonMethod::Fan, inertia::Amount::Density(1.0), None);
/// let c = inertia::report::compare::polygons(vec![r.clone(), r], 1e-9);
/// assert_eq!(c.max_exact_spread, 0.0);
/// # Ok::<(), inertia::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Comparison<R> {
    /// The methods, in order.
    pub methods: Vec<&'static str>,
    /// Which of them are exact.
    pub exact: Vec<bool>,
    /// Each method's full report.
    pub reports: Vec<R>,
    /// The compared quantities.
    pub rows: Vec<Row>,
    /// The largest spread between exact methods.
    pub max_exact_spread: f64,
    /// The largest spread between all methods (approximate ones included).
    pub max_spread: f64,
    /// The exact methods must agree within this.
    pub tolerance: f64,
    /// `max_exact_spread <= tolerance`.
    pub agree: bool,
    /// Reports shown beside the methods, in no spread: with `--overlap union`, the bodies
    /// summed as they are (`sum`) beside the methods' union.
    pub beside: Vec<Beside<R>>,
}

/// A report shown beside the methods of a [`Comparison`], in no spread.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Beside<R> {
    /// Its column's name.
    pub name: &'static str,
    /// What it is, said under the table.
    pub what: &'static str,
    /// The report.
    pub report: R,
}

fn spread(values: &[f64], keep: &[bool], scale: f64) -> f64 {
    let kept: Vec<f64> = values
        .iter()
        .zip(keep)
        .filter(|(_, k)| **k)
        .map(|(v, _)| *v)
        .collect();
    if kept.len() < 2 {
        return 0.0;
    }
    let lo = kept.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = kept.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if hi == lo {
        0.0
    } else if scale > 0.0 {
        (hi - lo) / scale
    } else {
        f64::INFINITY
    }
}

fn build<R>(
    methods: Vec<&'static str>,
    exact: Vec<bool>,
    reports: Vec<R>,
    quantities: Vec<(String, Vec<f64>, f64)>,
    tolerance: f64,
) -> Comparison<R> {
    let all = vec![true; methods.len()];
    let rows: Vec<Row> = quantities
        .into_iter()
        .map(|(quantity, values, scale)| Row {
            spread: spread(&values, &all, scale),
            exact_spread: spread(&values, &exact, scale),
            scale,
            quantity,
            values,
            beside: Vec::new(),
        })
        .collect();
    let max_exact_spread = rows.iter().map(|r| r.exact_spread).fold(0.0, f64::max);
    let max_spread = rows.iter().map(|r| r.spread).fold(0.0, f64::max);
    Comparison {
        methods,
        exact,
        reports,
        rows,
        max_exact_spread,
        max_spread,
        tolerance,
        agree: max_exact_spread <= tolerance,
        beside: Vec::new(),
    }
}

/// Compares polygon reports (all polygon methods are exact).
///
/// # Examples
/// ```
/// use inertia::report::{compare, PolygonReport};
/// let sq = inertia::Polygon::new(vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], vec![])?;
/// let reports = inertia::PolygonMethod::ALL.iter().map(|m| PolygonReport::new("sq", &sq, *m, inertia::Amount::Density(1.0), None)).collect();
/// assert!(compare::polygons(reports, 1e-9).agree);
/// # Ok::<(), inertia::Error>(())
/// ```
pub fn polygons(reports: Vec<PolygonReport>, tolerance: f64) -> Comparison<PolygonReport> {
    let col = |f: &dyn Fn(&PolygonReport) -> f64| reports.iter().map(f).collect::<Vec<f64>>();
    let size = reports
        .iter()
        .map(|r| r.area.abs().sqrt())
        .fold(0.0, f64::max);
    let moment = reports.iter().map(|r| r.inertia.abs()).fold(0.0, f64::max);
    let q = |name: &str, values: Vec<f64>, scale: f64| (name.to_string(), values, scale);
    let area = col(&|r| r.area);
    let mass = col(&|r| r.mass);
    let quantities = vec![
        q(
            "area",
            area.clone(),
            area.iter().fold(0.0, |a, b| a.max(b.abs())),
        ),
        q(
            "mass",
            mass.clone(),
            mass.iter().fold(0.0, |a, b| a.max(b.abs())),
        ),
        q("centroid.x", col(&|r| r.centroid[0]), size),
        q("centroid.y", col(&|r| r.centroid[1]), size),
        q("inertia", col(&|r| r.inertia), moment),
        q("ixx", col(&|r| r.mass_moments.ixx), moment),
        q("iyy", col(&|r| r.mass_moments.iyy), moment),
        q("ixy", col(&|r| r.mass_moments.ixy), moment),
        q("principal.i1", col(&|r| r.principal.moments[0]), moment),
        q("principal.i2", col(&|r| r.principal.moments[1]), moment),
    ];
    let methods = reports.iter().map(|r| r.method).collect();
    let exact = vec![true; reports.len()];
    build(methods, exact, reports, quantities, tolerance)
}

/// Compares mesh reports; `exact[k]` says whether method k is exact.
///
/// # Examples
/// ```
/// use inertia::report::{compare, MeshReport};
/// let cube = inertia::Mesh::new(&inertia::shape::Shape3d::Box { size: [1.0; 3] }.tessellate(0))?;
/// let reports = inertia::MeshMethod::ALL.iter().map(|m| MeshReport::new("cube", &cube, *m, 8, inertia::Amount::Density(1.0), None)).collect();
/// let c = compare::meshes(reports, vec![true, false], 1e-9);
/// assert!(c.agree && c.max_spread < 1e-12); // a box on any grid is exact
/// # Ok::<(), inertia::Error>(())
/// ```
pub fn meshes(
    reports: Vec<MeshReport>,
    exact: Vec<bool>,
    tolerance: f64,
) -> Comparison<MeshReport> {
    let size = reports
        .iter()
        .map(|r| {
            let b = &r.bounding_box;
            (0..3)
                .map(|k| (b.max[k] - b.min[k]).powi(2))
                .sum::<f64>()
                .sqrt()
        })
        .fold(0.0, f64::max);
    let moment = reports
        .iter()
        .map(|r| {
            (0..3)
                .map(|k| r.inertia_tensor[k][k].abs())
                .fold(0.0, f64::max)
        })
        .fold(0.0, f64::max);
    let quantities = mesh_quantities(&reports, size, moment);
    let methods = reports.iter().map(|r| r.method).collect();
    build(methods, exact, reports, quantities, tolerance)
}

/// Each compared quantity of mesh reports: its name, its value in each report, and its
/// scale (the largest value for volume and mass, `size` for a coordinate, `moment` for a
/// moment or product).
fn mesh_quantities(reports: &[MeshReport], size: f64, moment: f64) -> Vec<(String, Vec<f64>, f64)> {
    let col = |f: &dyn Fn(&MeshReport) -> f64| reports.iter().map(f).collect::<Vec<f64>>();
    let q = |name: &str, values: Vec<f64>, scale: f64| (name.to_string(), values, scale);
    let largest = |v: &[f64]| v.iter().fold(0.0_f64, |a, b| a.max(b.abs()));
    let (volume, mass) = (col(&|r| r.volume), col(&|r| r.mass));
    let mut quantities = vec![
        q("volume", volume.clone(), largest(&volume)),
        q("mass", mass.clone(), largest(&mass)),
    ];
    for (k, axis) in ["x", "y", "z"].iter().enumerate() {
        quantities.push(q(
            &format!("centroid.{axis}"),
            col(&|r| r.centroid[k]),
            size,
        ));
    }
    for (i, j, name) in [
        (0, 0, "xx"),
        (1, 1, "yy"),
        (2, 2, "zz"),
        (0, 1, "xy"),
        (0, 2, "xz"),
        (1, 2, "yz"),
    ] {
        quantities.push(q(
            &format!("inertia_tensor.{name}"),
            col(&|r| r.inertia_tensor[i][j]),
            moment,
        ));
    }
    for k in 0..3 {
        quantities.push(q(
            &format!("principal.i{}", k + 1),
            col(&|r| r.principal.moments[k]),
            moment,
        ));
    }
    quantities
}

impl Comparison<MeshReport> {
    /// The same with `report` shown beside the methods as `name`, in no spread, `what` it
    /// is said under the table.
    ///
    /// # Examples
    /// ```
    /// use inertia::report::{compare, MeshReport};
    /// let cube = inertia::Mesh::new(&inertia::shape::Shape3d::Box { size: [1.0; 3] }.tessellate(0))?;
    /// let r = MeshReport::new("cube", &cube, inertia::MeshMethod::Tetra, 0, inertia::Amount::Density(1.0), None);
    /// let c = compare::meshes(vec![r.clone()], vec![true], 1e-9).with_beside("sum", "the same", r);
    /// assert_eq!(c.rows[0].beside, vec![1.0]);
    /// assert!(c.table("cube").contains("sum"));
    /// # Ok::<(), inertia::Error>(())
    /// ```
    #[must_use]
    pub fn with_beside(
        mut self,
        name: &'static str,
        what: &'static str,
        report: MeshReport,
    ) -> Self {
        let values = mesh_quantities(std::slice::from_ref(&report), 0.0, 0.0);
        for (row, (_, v, _)) in self.rows.iter_mut().zip(values) {
            row.beside.extend(v);
        }
        self.beside.push(Beside { name, what, report });
        self
    }
}

impl<R: Serialize> Comparison<R> {
    /// As JSON: `{"methods": {name: report, ...}, "spread": {quantity: spread, ...},
    /// "max_exact_spread", "max_spread", "tolerance", "agree"}`.
    ///
    /// # Examples
    /// ```
    /// use inertia::report::{compare, PolygonReport};
    /// let sq = inertia::Polygon::new(vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], vec![])?;
    /// let reports = vec![PolygonReport::new("sq", &sq, inertia::PolygonMethod::Fan, inertia::Amount::Density(1.0), None)];
    /// assert!(compare::polygons(reports, 1e-9).json().contains("\"agree\": true"));
    /// # Ok::<(), inertia::Error>(())
    /// ```
    pub fn json(&self) -> String {
        use super::schema::{ComparisonDoc, Named};
        super::json::pretty(&ComparisonDoc {
            methods: Named(self.methods.iter().copied().zip(&self.reports).collect()),
            spread: Named(
                self.rows
                    .iter()
                    .map(|row| (row.quantity.as_str(), row.spread))
                    .collect(),
            ),
            max_exact_spread: self.max_exact_spread,
            max_spread: self.max_spread,
            tolerance: self.tolerance,
            agree: self.agree,
            beside: Named(self.beside.iter().map(|b| (b.name, &b.report)).collect()),
        })
    }

    /// As a table: one column per method and the spread.
    ///
    /// # Examples
    /// ```
    /// use inertia::report::{compare, PolygonReport};
    /// let sq = inertia::Polygon::new(vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], vec![])?;
    /// let reports = inertia::PolygonMethod::ALL.iter().map(|m| PolygonReport::new("sq", &sq, *m, inertia::Amount::Density(1.0), None)).collect();
    /// assert!(compare::polygons(reports, 1e-9).table("sq").contains("agree"));
    /// # Ok::<(), inertia::Error>(())
    /// ```
    pub fn table(&self, title: &str) -> String {
        let mut o = String::new();
        let _ = writeln!(o, "{title}: every method");
        let mut header = vec!["quantity".to_string()];
        header.extend(self.methods.iter().map(|m| m.to_string()));
        header.push("spread".into());
        header.extend(self.beside.iter().map(|b| b.name.to_string()));
        let mut cells: Vec<Vec<String>> = vec![header];
        // Noise below the rounding of the quantity's scale (a product that is 0 exactly,
        // -3.66e-21 beside moments of 1e-9) prints as 0, as in the main table; each
        // method's column is in one notation.
        let shown: Vec<Vec<f64>> = self
            .rows
            .iter()
            .map(|row| {
                row.values
                    .iter()
                    .chain(&row.beside)
                    .map(|&v| {
                        if v.abs() < TENSOR_NOISE * row.scale {
                            0.0
                        } else {
                            v
                        }
                    })
                    .collect()
            })
            .collect();
        let n = self.methods.len();
        let forms: Vec<Notation> = (0..n + self.beside.len())
            .map(|m| notation(&shown.iter().map(|r| r[m]).collect::<Vec<f64>>()))
            .collect();
        let num = |values: &[f64], forms: &[Notation]| -> Vec<String> {
            values
                .iter()
                .zip(forms)
                .map(|(v, f)| num_in(*v, *f))
                .collect()
        };
        for (row, values) in self.rows.iter().zip(&shown) {
            let mut line = vec![row.quantity.clone()];
            line.extend(num(&values[..n], &forms[..n]));
            line.push(if row.spread == 0.0 {
                "0".into()
            } else {
                format!("{:.1e}", row.spread)
            });
            line.extend(num(&values[n..], &forms[n..]));
            cells.push(line);
        }
        let widths: Vec<usize> = (0..cells[0].len())
            .map(|c| {
                cells
                    .iter()
                    .map(|r| r[c].chars().count())
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        for line in &cells {
            let padded: Vec<String> = line
                .iter()
                .enumerate()
                .map(|(c, s)| {
                    if c == 0 {
                        format!("{s:<w$}", w = widths[c])
                    } else {
                        format!("{s:>w$}", w = widths[c])
                    }
                })
                .collect();
            let _ = writeln!(o, "  {}", padded.join("  "));
        }
        let exact: Vec<&str> = self
            .methods
            .iter()
            .zip(&self.exact)
            .filter(|(_, e)| **e)
            .map(|(m, _)| *m)
            .collect();
        if exact.len() > 1 {
            let _ = writeln!(
                o,
                "exact methods ({}) {} to {:.1e} (tolerance {:.0e})",
                exact.join(", "),
                if self.agree { "agree" } else { "DISAGREE" },
                self.max_exact_spread,
                self.tolerance
            );
        }
        if exact.len() < self.methods.len() {
            let _ = writeln!(
                o,
                "largest spread with the approximate methods: {:.1e}",
                self.max_spread
            );
        }
        for b in &self.beside {
            let _ = writeln!(o, "{}: {} (in no spread)", b.name, b.what);
        }
        o
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Amount, Polygon, PolygonMethod};

    #[test]
    fn polygon_methods_agree_on_a_u_shape_far_away() {
        let u: Vec<[f64; 2]> = [
            [0.0, 0.0],
            [3.0, 0.0],
            [3.0, 3.0],
            [2.0, 3.0],
            [2.0, 1.0],
            [1.0, 1.0],
            [1.0, 3.0],
            [0.0, 3.0],
        ]
        .iter()
        .map(|p| [p[0] + 1e6, p[1] - 1e6])
        .collect();
        let p = Polygon::new(u, vec![]).unwrap();
        let reports = PolygonMethod::ALL
            .iter()
            .map(|m| PolygonReport::new("u", &p, *m, Amount::Density(1.0), None))
            .collect();
        let c = polygons(reports, 1e-9);
        assert!(c.agree, "{}", c.table("u"));
        assert!(c.max_exact_spread < 1e-12, "{}", c.max_exact_spread);
        assert_eq!(c.methods, vec!["fan", "right-triangle", "centroid"]);
        let v: serde_json::Value = serde_json::from_str(&c.json()).unwrap();
        assert_eq!(v["agree"], true);
        assert!(v["methods"]["centroid"]["area"].as_f64().unwrap() == 7.0);
    }

    #[test]
    fn disagreement_is_reported() {
        let values = [1.0, 1.0 + 1e-6];
        assert!((spread(&values, &[true, true], 1.0) - 1e-6).abs() < 1e-12);
        assert_eq!(spread(&values, &[true, false], 1.0), 0.0);
        assert_eq!(spread(&[0.0, 0.0], &[true, true], 0.0), 0.0);
    }
}
