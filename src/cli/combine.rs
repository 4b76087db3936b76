//! `inertia combine`: sum parts from `--json` reports, each optionally turned and moved.

use super::*;

#[derive(Args, Debug)]
pub(super) struct CombineArgs {
    /// Reports printed by `inertia polygon|mesh|shape --json` (a single report, a multi-file
    /// `{"parts": ...}` report, or JSON Lines), or `-` for standard input.
    #[arg(required = true)]
    pub(super) files: Vec<PathBuf>,
    /// Move the parts of file N: N=X,Y,Z (or N=X,Y for plates), in the reports' length unit.
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
    for t in &a.translate {
        let (k, value) = indexed("--translate", t, n)?;
        let v = numbers("--translate", &value)?;
        let d = match v.len() {
            2 => Vector3::new(v[0], v[1], 0.0),
            3 => Vector3::new(v[0], v[1], v[2]),
            m => bail!("--translate takes X,Y or X,Y,Z, got {m} numbers"),
        };
        motions[k].translation += d;
    }
    let mut parts = Vec::new();
    for (k, path) in a.files.iter().enumerate() {
        let Input { bytes, label, .. } = read_input(path)?;
        let read = read_parts(&bytes).with_context(|| label.clone())?;
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
            bodies.push(*body);
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
