//! Mass properties as a few lines of text: `Display` for [`MassProperties2d`],
//! [`MassProperties3d`] (in the units of the input, not named) and the totals of
//! [`crate::Parts::total`] (in their units, named), through [`Summary`].

use crate::mass2d::MassProperties2d;
use crate::mass3d::MassProperties3d;
use crate::read::{MeshTotal, PolygonTotal, Total};
use crate::text::{num, tensor_cells};
use crate::units::{LengthUnit, Units};
use std::fmt;

/// Mass properties with the units they are in, to print: `{}` writes a compact summary
/// (measure, mass, centroid, moments, principal moments) with each unit named.
///
/// # Examples
/// ```
/// use inertia::units::{LengthUnit, Units};
/// let cube = inertia::shape::Shape3d::Box { size: [1.0; 3] }.exact().properties;
/// let m = Units { input: Some(LengthUnit::M), output: None };
/// let text = cube.summary(m).to_string();
/// assert!(text.starts_with("volume    1 m³\nmass      1 kg\n"));
/// assert!(text.contains("0.166666666667"));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Summary<'a, P> {
    properties: &'a P,
    units: Units,
}

impl MassProperties3d {
    /// These properties as text with `units` named (see [`Summary`]).
    ///
    /// # Examples
    /// ```
    /// let cube = inertia::shape::Shape3d::Box { size: [1.0; 3] }.exact().properties;
    /// assert!(cube.summary(Default::default()).to_string().contains("volume    1\n"));
    /// ```
    pub fn summary(&self, units: Units) -> Summary<'_, MassProperties3d> {
        Summary {
            properties: self,
            units,
        }
    }
}

impl MassProperties2d {
    /// These properties as text with `units` named (see [`Summary`]).
    ///
    /// # Examples
    /// ```
    /// use inertia::units::{LengthUnit, Units};
    /// let sq = inertia::Polygon::new(vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], vec![])?;
    /// let p = sq.mass_properties(2.0)?;
    /// let mm = Units { input: Some(LengthUnit::Mm), output: Some(LengthUnit::Mm) };
    /// assert!(p.summary(mm).to_string().starts_with("area      1 mm²\nmass      2 kg\n"));
    /// # Ok::<(), inertia::Error>(())
    /// ```
    pub fn summary(&self, units: Units) -> Summary<'_, MassProperties2d> {
        Summary {
            properties: self,
            units,
        }
    }
}

/// The unit names a summary writes: `None` each when the input's unit is not known.
struct Names {
    length: Option<&'static str>,
}

impl Names {
    fn of(units: Units) -> Names {
        Names {
            length: units
                .input
                .map(|_| units.output.unwrap_or(LengthUnit::M).symbol()),
        }
    }

    /// ` m³`, ` kg·m²`..., or nothing.
    fn with(&self, power: &str, mass: bool) -> String {
        match (self.length, mass) {
            (None, _) => String::new(),
            (Some(l), false) => format!(" {l}{power}"),
            (Some(_), true) if power.is_empty() => " kg".into(),
            (Some(l), true) => format!(" kg·{l}{power}"),
        }
    }

    /// The closing line of a summary in no named unit.
    fn unnamed(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.length.is_none() {
            writeln!(
                f,
                "(lengths in the input's unit; mass = density × measure; moments = mass × length²)"
            )?;
        }
        Ok(())
    }
}

impl fmt::Display for Summary<'_, MassProperties3d> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = self.properties;
        let n = Names::of(self.units);
        let c = p.centroid;
        writeln!(f, "volume    {}{}", num(p.volume), n.with("³", false))?;
        writeln!(f, "mass      {}{}", num(p.mass), n.with("", true))?;
        writeln!(
            f,
            "centroid  ({}, {}, {}){}",
            num(c.x),
            num(c.y),
            num(c.z),
            n.with("", false)
        )?;
        writeln!(
            f,
            "inertia tensor about the centroid{} (off-diagonals −∫xy dm):",
            n.with("²", true).replacen(' ', ", ", 1)
        )?;
        let t = &p.inertia;
        let principal = p.principal().moments;
        let mut values: Vec<f64> = t.iter().copied().collect();
        values.extend(principal);
        let cells = tensor_cells(&values, t.norm());
        let width = cells[..9]
            .iter()
            .map(|c| c.chars().count())
            .max()
            .unwrap_or(1);
        // nalgebra stores columns first: cell (r, c) is at c * 3 + r.
        for r in 0..3 {
            let row: Vec<String> = (0..3)
                .map(|col| format!("{:>width$}", cells[col * 3 + r]))
                .collect();
            writeln!(f, "  [ {} ]", row.join("  "))?;
        }
        writeln!(
            f,
            "principal {}  {}  {}{}",
            cells[9],
            cells[10],
            cells[11],
            n.with("²", true)
        )?;
        n.unnamed(f)
    }
}

impl fmt::Display for Summary<'_, MassProperties2d> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = self.properties;
        let n = Names::of(self.units);
        let m = &p.moments;
        writeln!(f, "area      {}{}", num(p.area), n.with("²", false))?;
        writeln!(f, "mass      {}{}", num(p.mass), n.with("", true))?;
        writeln!(
            f,
            "centroid  ({}, {}){}",
            num(p.centroid.x),
            num(p.centroid.y),
            n.with("", false)
        )?;
        let pr = m.principal();
        let values = [m.ixx, m.iyy, m.ixy, pr.moments[0], pr.moments[1]];
        let cells = tensor_cells(&values, m.ixx.hypot(m.iyy).hypot(m.ixy));
        writeln!(
            f,
            "moments   Ixx {}  Iyy {}  Ixy {} (+∫xy dm){}",
            cells[0],
            cells[1],
            cells[2],
            n.with("²", true)
        )?;
        writeln!(
            f,
            "principal {}  {}{}, I1 at {}° from +x",
            cells[3],
            cells[4],
            n.with("²", true),
            num(pr.angle_deg)
        )?;
        n.unnamed(f)
    }
}

/// In the input's units (not named): [`MassProperties3d::summary`] names them.
///
/// # Examples
/// ```
/// let cube = inertia::shape::Shape3d::Box { size: [2.0; 3] }.exact().properties;
/// let text = cube.to_string();
/// assert!(text.starts_with("volume    8\nmass      8\ncentroid  (0, 0, 0)\n"));
/// assert!(text.contains("[ 5.33333333333              0              0 ]"));
/// ```
impl fmt::Display for MassProperties3d {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.summary(Units::default()).fmt(f)
    }
}

/// In the input's units (not named): [`MassProperties2d::summary`] names them.
///
/// # Examples
/// ```
/// let sq = inertia::Polygon::new(vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], vec![])?;
/// let text = sq.mass_properties(1.0)?.to_string();
/// assert!(text.contains("area      1\n") && text.contains("Ixx 0.0833333333333"));
/// # Ok::<(), inertia::Error>(())
/// ```
impl fmt::Display for MassProperties2d {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.summary(Units::default()).fmt(f)
    }
}

/// How many parts, then their properties in their units.
///
/// # Examples
/// ```
/// use inertia::read::{read_path, ReadOptions};
/// let t = read_path("fixtures/mesh/two_parts.3mf".as_ref(), &ReadOptions::default())?.total()?;
/// let text = t.to_string();
/// assert!(text.starts_with("2 parts\nvolume    1.1e-8 m³\n"), "{text}");
/// # Ok::<(), inertia::Error>(())
/// ```
impl fmt::Display for Total {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Total::Polygons(t) => t.fmt(f),
            Total::Solids(t) => t.fmt(f),
        }
    }
}

/// How many parts, then their properties in their units.
impl fmt::Display for MeshTotal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        parts(f, self.parts)?;
        self.properties.summary(self.units).fmt(f)
    }
}

/// How many parts, then their properties in their units.
impl fmt::Display for PolygonTotal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        parts(f, self.parts)?;
        self.properties.summary(self.units).fmt(f)
    }
}

fn parts(f: &mut fmt::Formatter<'_>, n: usize) -> fmt::Result {
    writeln!(f, "{n} part{}", if n == 1 { "" } else { "s" })
}
