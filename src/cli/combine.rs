//! `inertia combine`: sum parts from `--json` reports, each optionally turned and moved.

use super::*;

#[derive(Args, Debug)]
pub(super) struct CombineArgs {
    /// Reports printed by `inertia polygon|mesh|shape --json` (a single report, a multi-file
    /// `{"parts": ...}` report, or JSON Lines), or `-` for standard input.
    #[arg(required = true)]
    pub(super) files: Vec<PathBuf>,
    /// Move the parts of file N: N=X,Y,Z (or N=X,Y for plates), in the unit written after
    /// the numbers (N=0,0,-4mm) or else in the reports' length unit; reports read in one
    /// unit and printed in another (--units mm: metres) need the unit written.
    #[arg(
        long,
        allow_hyphen_values = true,
        help_heading = "Motion",
        value_name = "N=X,Y,Z"
    )]
    pub(super) translate: Vec<String>,
    /// Turn the parts of file N about the origin before moving them: N=x:DEG, N=y:DEG,
    /// N=z:DEG, N=X,Y,Z:DEG (any axis), or N=DEG (about z; the only turn for plates).
    #[arg(
        long,
        allow_hyphen_values = true,
        help_heading = "Motion",
        value_name = "N=AXIS:DEG"
    )]
    pub(super) rotate: Vec<String>,
    #[command(flatten)]
    pub(super) present: Presentation,
}

/// Parses `N=VALUE` (N from 1 to `files`).
pub(super) fn indexed(flag: &str, text: &str, files: usize) -> Result<(usize, String)> {
    let (n, value) = text.split_once('=').with_context(|| {
        format!(
            "{flag} takes N=VALUE (N the file's position from 1), got \"{}\"",
            inertia::details::clip(text)
        )
    })?;
    let n: usize = n
        .trim()
        .parse()
        .ok()
        .filter(|n| (1..=files).contains(n))
        .with_context(|| {
            format!(
                "{flag}: \"{}\" is not a file position from 1 to {files}",
                inertia::details::clip(n)
            )
        })?;
    Ok((n - 1, value.trim().to_string()))
}

pub(super) fn numbers(flag: &str, text: &str) -> Result<Vec<f64>> {
    text.split(',')
        .map(|c| c.trim().parse::<f64>().ok().filter(|v| v.is_finite()))
        .collect::<Option<Vec<f64>>>()
        .with_context(|| {
            format!(
                "{flag}: \"{}\" is not a list of finite numbers",
                inertia::details::clip(text)
            )
        })
}

/// `X,Y,Z` and the length unit written after it (`0,0,-4mm`), if any.
fn split_unit(value: &str) -> Result<(&str, Option<LengthUnit>)> {
    let at = value
        .rfind(|c: char| c.is_ascii_digit() || c == '.')
        .map_or(0, |i| i + 1);
    let (numbers, unit) = value.split_at(at);
    let unit = unit.trim();
    if unit.is_empty() {
        return Ok((numbers, None));
    }
    let u = LengthUnit::from_str(unit, true).map_err(|_| {
        anyhow::anyhow!(
            "--translate: \"{}\" is not a length unit (mm, cm, m, in, ft, ...)",
            inertia::details::clip(unit)
        )
    })?;
    Ok((numbers, Some(u)))
}

/// The unit the first report of `bytes` says its input was read in (`units.input`).
fn read_in(bytes: &[u8]) -> Option<LengthUnit> {
    let first = bytes
        .split(|&b| b == b'\n')
        .find(|l| !l.trim_ascii().is_empty())?;
    let v: serde_json::Value = serde_json::from_slice(bytes)
        .or_else(|_| serde_json::from_slice(first))
        .ok()?;
    let report = v.get("parts").and_then(|p| p.get(0)).unwrap_or(&v);
    LengthUnit::from_symbol(report.get("units")?.get("input")?.as_str()?)
}

/// The reports' lengths in one of `unit` (1 without one), or the refusal of a bare number
/// where the reports were read in one unit (`read_in`) and printed in another.
fn translation_scale(
    unit: Option<LengthUnit>,
    units: inertia::units::Units,
    read_in: Option<LengthUnit>,
    text: &str,
    label: &str,
) -> Result<f64> {
    let printed = units.output.or(units.input);
    match (unit, printed) {
        (None, Some(out)) if read_in.is_some_and(|r| r != out) => bail!(
            "--translate {text}: {label} was read in {} and is printed in {}: write the unit after the numbers (e.g. {text}{})",
            read_in.map_or("?", LengthUnit::symbol),
            out.symbol(),
            read_in.map_or("", LengthUnit::symbol)
        ),
        (None, _) => Ok(1.0),
        (Some(u), Some(out)) => Ok(u.metres() / out.metres()),
        (Some(u), None) => bail!(
            "--translate {text}: {label} states no length unit, so a move in {} cannot be placed: print the reports with --units",
            u.symbol()
        ),
    }
}

pub(super) fn combine(a: CombineArgs) -> Result<Outcome> {
    use inertia::assembly::{Motion, Part, read_parts};
    use nalgebra::Vector3;
    let n = a.files.len();
    let mut motions = vec![Motion::default(); n];
    for t in &a.rotate {
        let (k, value) = indexed("--rotate", t, n)?;
        let (axis, deg) = match value.rsplit_once(':') {
            Some((axis, deg)) => {
                let axis = match axis.trim().to_ascii_lowercase().as_str() {
                    "x" => Vector3::x(),
                    "y" => Vector3::y(),
                    "z" => Vector3::z(),
                    other => {
                        let v = numbers("--rotate", other)?;
                        if v.len() != 3 || v.iter().all(|c| *c == 0.0) {
                            bail!("--rotate: the axis must be x, y, z or a non-zero X,Y,Z");
                        }
                        Vector3::new(v[0], v[1], v[2])
                    }
                };
                (axis, deg.to_string())
            }
            None => (Vector3::z(), value.clone()),
        };
        let deg: f64 = deg
            .trim()
            .parse()
            .ok()
            .filter(|d: &f64| d.is_finite())
            .with_context(|| {
                format!(
                    "--rotate: \"{}\" is not an angle in degrees",
                    inertia::details::clip(&deg)
                )
            })?;
        let r = Motion::rotate(axis, deg).rotation;
        motions[k].rotation = r * motions[k].rotation;
    }
    // Each file's moves: the vector, the unit written after it (if any), and the text.
    type Move = (Vector3<f64>, Option<LengthUnit>, String);
    let mut moves: Vec<Vec<Move>> = vec![Vec::new(); n];
    for t in &a.translate {
        let (k, value) = indexed("--translate", t, n)?;
        let (numbers_text, unit) = split_unit(&value)?;
        let v = numbers("--translate", numbers_text)?;
        let d = match v.len() {
            2 => Vector3::new(v[0], v[1], 0.0),
            3 => Vector3::new(v[0], v[1], v[2]),
            m => bail!("--translate takes X,Y or X,Y,Z, got {m} numbers"),
        };
        moves[k].push((d, unit, t.clone()));
    }
    let mut parts = Vec::new();
    for (k, path) in a.files.iter().enumerate() {
        let Input { bytes, label, .. } = read_input(path)?;
        let read = read_parts(&bytes).with_context(|| label.clone())?;
        if let Some(p) = read.first().filter(|_| !moves[k].is_empty()) {
            let units = match p {
                Part::Planar { units, .. } | Part::Solid { units, .. } => *units,
            };
            let read_in = read_in(&bytes);
            for (d, unit, text) in &moves[k] {
                motions[k].translation +=
                    d * translation_scale(*unit, units, read_in, text, &label)?;
            }
            moves[k].clear();
        }
        for p in read {
            if matches!(p, Part::Planar { .. }) && motions[k].leaves_the_plane() {
                bail!("{label}: a plate turns only about z and moves only in x and y");
            }
            parts.push((label.clone(), p.moved(&motions[k])));
        }
    }
    let units_of = |p: &Part| match p {
        Part::Planar { units, .. } | Part::Solid { units, .. } => *units,
    };
    let (first_label, first) = &parts[0];
    for (label, p) in &parts[1..] {
        if std::mem::discriminant(p) != std::mem::discriminant(first) {
            bail!("{label}: cannot combine a plate with a solid ({first_label} is the other kind)");
        }
        if units_of(p) != units_of(first) {
            bail!(
                "{label}: its units differ from {first_label}'s; print both reports with the same --units and --output-units"
            );
        }
    }
    let units = units_of(first);
    let format = a.present.format();
    let dim = if matches!(first, Part::Planar { .. }) {
        2
    } else {
        3
    };
    let view = a.present.view(units, dim)?;
    let source = format!(
        "assembly of {} part{}",
        parts.len(),
        if parts.len() == 1 { "" } else { "s" }
    );
    if dim == 2 {
        let about = a.present.about::<2>()?.map(Point2::from);
        let mut props = Vec::new();
        let mut outlines = Vec::new();
        for (_, p) in &parts {
            if let Part::Planar {
                properties,
                outline,
                ..
            } = p
            {
                props.push(*properties);
                outlines.push(*outline);
            }
        }
        // The winding the parts' reports share, else the one every ring is integrated in.
        let winding = match outlines.first() {
            Some(o) if outlines.iter().all(|p| p.winding == o.winding) => o.winding,
            _ => "ccw",
        };
        let outline = Outline {
            winding,
            ..Outline::sum(outlines)
        };
        let total: inertia::MassProperties2d = props.into_iter().sum();
        let density = units.density_to_si(total.mass / total.area, 2);
        let r = PolygonReport::from_properties(
            &source,
            "combine",
            outline,
            total,
            total.moments.polar(),
            density,
            about,
            &view,
        );
        let r = checked(&source, r)?;
        return Ok(lone(&r, format));
    }
    let about = a.present.about::<3>()?.map(Point3::from);
    let mut props = Vec::new();
    let mut bodies = Vec::new();
    for (_, p) in &parts {
        if let Part::Solid {
            properties, body, ..
        } = p
        {
            props.push(*properties);
            bodies.push(**body);
        }
    }
    let total: inertia::MassProperties3d = props.into_iter().sum();
    let body = Body::sum(bodies);
    let density = units.density_to_si(total.mass / total.volume, 3);
    let r =
        MeshReport::from_properties(&source, "combine", body, None, total, density, about, &view);
    let r = checked(&source, r)?;
    Ok(lone(&r, format))
}
