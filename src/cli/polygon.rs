//! `inertia polygon`: read polygon files, validate, integrate, report each and their total.

use super::*;

#[derive(Args, Debug)]
pub(super) struct PolygonArgs {
    /// Polygon files (JSON, CSV, GeoJSON, DXF), or `-` for standard input. With several (or
    /// a file of several polygons), each is reported and so is their total.
    pub(super) files: Vec<PathBuf>,
    /// Read more file names from this file, one per line (`-`: standard input).
    #[arg(long, help_heading = "Input", value_name = "LIST")]
    pub(super) files_from: Option<PathBuf>,
    /// Input format; by default from the extension, else from the content.
    #[arg(long, value_enum, help_heading = "Input", value_name = "FORMAT")]
    pub(super) input_format: Option<PolygonFormat>,
    /// Integration method.
    #[arg(long, value_enum, default_value_t = PolygonChoice::Fan, help_heading = "Method")]
    pub(super) method: PolygonChoice,
    /// With --method all: the largest relative spread allowed between exact methods.
    #[arg(
        long,
        default_value_t = 1e-9,
        allow_negative_numbers = true,
        help_heading = "Method",
        value_name = "RELATIVE"
    )]
    pub(super) tolerance: f64,
    /// Plate thickness (input units): the density is then per volume (kg/m³ with --units).
    #[arg(
        long,
        allow_negative_numbers = true,
        help_heading = "Mass",
        value_name = "THICKNESS"
    )]
    pub(super) thickness: Option<f64>,
    /// Also draw the polygon, its centroid and principal axes into this SVG file.
    #[arg(long, help_heading = "Output", value_name = "FILE.svg")]
    pub(super) plot: Option<PathBuf>,
    /// DXF: join the ends of lines, arcs and open polylines closer than this (input units).
    /// Default: 1e-6 of the drawing's extent (CAD programs write 11-12 digits); a gap
    /// joined beyond rounding is reported with the bound it puts on the area.
    #[arg(long, value_name = "DISTANCE", help_heading = "Input")]
    pub(super) join_tolerance: Option<f64>,
    /// DXF: what to do with pieces that belong to no closed outline (a centre line, a
    /// construction line): refuse the drawing (the default), or ignore them with a warning
    /// naming each with its length. A piece whose free end lies within 100 times the join
    /// tolerance of another end is refused even so (an outline drawn with a gap).
    #[arg(long, value_enum, default_value_t = OpenChoice::Refuse, help_heading = "Input")]
    pub(super) open: OpenChoice,
    /// DXF: read only this layer (repeat for several), even when it is off or frozen.
    /// Default: every layer that is on and thawed.
    #[arg(long, value_name = "NAME", help_heading = "Input")]
    pub(super) layer: Vec<String>,
    /// DXF: the space to read: `model` (the default: paper-space title blocks and
    /// viewport frames are left out and counted), `paper` (the active layout's paper
    /// space), or `layout:NAME` (one layout, by the name on its tab).
    #[arg(long, value_name = "SPACE", default_value = "model", value_parser = parse_space, help_heading = "Input")]
    pub(super) space: inertia::io::dxf::Space,
    /// DXF: the most entities INSERTs and MINSERT arrays may expand to, counted before
    /// anything is expanded (a small file of nested arrays is refused with its count).
    #[arg(long, value_name = "N", default_value_t = inertia::io::dxf::DEFAULT_MAX_ENTITIES, help_heading = "Input")]
    pub(super) max_entities: usize,
    /// Report as for several inputs even when there is one body: JSON
    /// `{"schema_version", "parts", "errors", "total"}`, a total row in tables and CSV, so that
    /// a script over `dir/*` reads one file's result as it reads many.
    #[arg(long, help_heading = "Output")]
    pub(super) parts: bool,
    #[command(flatten)]
    pub(super) common: Common,
}

/// `--space`: `model`, `paper` or `layout:NAME`.
fn parse_space(s: &str) -> std::result::Result<inertia::io::dxf::Space, String> {
    use inertia::io::dxf::Space;
    match s {
        "model" => Ok(Space::Model),
        "paper" => Ok(Space::Paper),
        _ => match s.strip_prefix("layout:") {
            Some(name) if !name.is_empty() => Ok(Space::Layout(name.to_string())),
            _ => Err("expected model, paper or layout:NAME".to_string()),
        },
    }
}

/// What `polygon` does with DXF pieces outside any closed outline.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(super) enum OpenChoice {
    /// Refuse the drawing, naming the piece.
    Refuse,
    /// Leave them out, naming them in a warning.
    Ignore,
}

pub(super) fn polygon(mut a: PolygonArgs) -> Result<Outcome> {
    let listed = gather_files(&a.files, a.files_from.as_deref())?;
    if a.input_format.is_none_or(|f| f == PolygonFormat::Dxf) {
        a.common.adopt_file_units(&listed, FileKind::Polygon)?;
    }
    let amount = a.common.amount(2, a.thickness)?;
    if let Some(t) = a.join_tolerance {
        positive(Parameter::JoinTolerance, t)?;
    }
    let dxf_options = inertia::io::dxf::Options {
        join_tolerance: a.join_tolerance,
        ignore_open: a.open == OpenChoice::Ignore,
        layers: a.layer.clone(),
        space: a.space.clone(),
        max_entities: Some(a.max_entities),
    };
    let view = a.common.view(2)?;
    let about = a.common.about::<2>()?.map(Point2::from);
    let tolerance = check_tolerance(a.tolerance)?;
    let files = listed;
    let output = a.common.format();
    check_batch(
        files.len(),
        a.files_from.is_some(),
        a.method == PolygonChoice::All,
        a.common.mass,
        a.plot.is_some(),
        output,
    )?;
    let methods: Vec<PolygonMethod> = match a.method {
        PolygonChoice::Fan => vec![PolygonMethod::Fan],
        PolygonChoice::RightTriangle => vec![PolygonMethod::RightTriangle],
        PolygonChoice::Centroid => vec![PolygonMethod::Centroid],
        PolygonChoice::All => PolygonMethod::ALL.to_vec(),
    };
    // Every polygon of a file: (name, outline, one integral per method). GeoJSON files may
    // hold several; the others hold one.
    type Integrated = (
        String,
        Outline,
        Vec<inertia::PolygonIntegral>,
        inertia::Polygon,
    );
    // A file's polygons, and what it held outside them.
    let read = |path: &PathBuf| -> Result<(Vec<Integrated>, Notes)> {
        let (bytes, name, label) = read_input(path)?;
        if a.input_format.is_none() && MeshFormat::from_path(path).is_some() {
            bail!(
                "{label}: a triangle mesh by its name: `inertia mesh` reads it (or give --input-format if it is a polygon)"
            );
        }
        let format = a
            .input_format
            .or_else(|| PolygonFormat::from_path(path))
            .unwrap_or_else(|| PolygonFormat::sniff(&bytes));
        let parsed = parse_polygons(&bytes, format, &dxf_options).with_context(|| label.clone())?;
        // A large file is mapped: let it go before the checks, which need only the points.
        drop(bytes);
        let (polys, left) = parsed.validate().with_context(|| label.clone())?;
        let mut notes = Notes {
            ignored: left.annotations,
        };
        if let Some(j) = left.joins {
            eprintln!(
                "inertia: warning: {label}: ends of pieces up to {} apart were joined (join tolerance {}, in the drawing's units): the area may differ from the drawn one by up to {} (gap × perimeter)",
                inertia::error::num(j.largest_gap),
                inertia::error::num(j.tolerance),
                inertia::error::num(j.area_bound)
            );
        }
        if !left.pieces.is_empty() {
            eprintln!(
                "inertia: warning: {label}: {} piece(s) in no closed outline left out (--open ignore): {}",
                left.pieces.len(),
                left.pieces.join(", ")
            );
            notes
                .ignored
                .insert("open pieces".into(), left.pieces.len());
        }
        let polys = polys
            .into_iter()
            .map(|(part, poly)| {
                let part_name = if part.is_empty() {
                    name.clone()
                } else {
                    format!("{name}: {part}")
                };
                let units = methods.iter().map(|m| m.integrate(&poly)).collect();
                (part_name, Outline::of(&poly), units, poly)
            })
            .collect();
        Ok((polys, notes))
    };
    let report = |name: &str,
                  method: PolygonMethod,
                  outline: Outline,
                  unit: inertia::PolygonIntegral|
     -> Result<PolygonReport> {
        let r =
            PolygonReport::from_integral(name, method.name(), outline, unit, amount, about, &view);
        checked(name, r)
    };
    // A lone file is read once here: one polygon is reported alone, several as parts below.
    let mut first = None;
    if files.len() == 1 && a.files_from.is_none() {
        let (mut parts, notes) = read(&files[0])?;
        if parts.len() == 1 && !a.parts {
            let (name, outline, units, poly) = parts.remove(0);
            let reports = methods
                .iter()
                .zip(units)
                .map(|(m, u)| {
                    report(&name, *m, outline, u).map(|mut r| {
                        notes.apply(&mut r);
                        r
                    })
                })
                .collect::<Result<Vec<_>>>()?;
            if let Some(path) = &a.plot {
                write_file(path, &inertia::report::svg::polygon(&poly, &reports[0]))?;
            }
            if a.method == PolygonChoice::All {
                let label = if name == "-" { "<stdin>" } else { &name };
                let c = compare::polygons(reports, tolerance);
                return Ok(compared(c, output, &format!("polygon {name}"), label));
            }
            return Ok(Outcome::ok(output.polygon(&reports[0])));
        }
        one_body_flags(
            parts.len(),
            [
                a.common.mass.is_some(),
                a.method == PolygonChoice::All,
                a.plot.is_some(),
            ],
            ("polygon", "parts"),
        )?;
        first = Some((parts, notes));
    }
    let method = methods[0];
    // (name, outline, integral, what its file held outside its polygons (carried by the
    // file's first part, to be summed in the total), whether to show them on the part:
    // only when it is its file's only polygon — a drawing's spline may be in any part)
    type Part = (String, Outline, inertia::PolygonIntegral, Notes, bool);
    let keep_first = |(parts, notes): (Vec<Integrated>, Notes)| -> Vec<Part> {
        let one = parts.len() == 1;
        let mut notes = Some(notes);
        parts
            .into_iter()
            .enumerate()
            .map(|(k, (n, o, mut u, _))| {
                let c = if one || k == 0 {
                    notes.take().unwrap_or_default()
                } else {
                    Notes::default()
                };
                (n, o, u.remove(0), c, one)
            })
            .collect()
    };
    let per_file: Vec<Result<Vec<Part>, (String, String)>> = match first {
        Some(parts) => vec![Ok(keep_first(parts))],
        None => {
            let progress = Progress::start(
                Some(files.len() as u64),
                "polygons".into(),
                output == OutputFormat::Table,
            );
            files
                .par_iter()
                .map(|p| {
                    let r = read(p)
                        .map(keep_first)
                        .map_err(|e| (p.display().to_string(), reason(&e)));
                    progress.inc();
                    r
                })
                .collect()
        }
    };
    let results: Vec<Result<Part, (String, String)>> = per_file
        .into_iter()
        .flat_map(|r| match r {
            Ok(parts) => parts.into_iter().map(Ok).collect::<Vec<_>>(),
            Err(e) => vec![Err(e)],
        })
        .collect();
    let rows: Vec<Result<PolygonReport, (String, String)>> = results
        .iter()
        .map(|r| match r {
            Ok((name, outline, unit, notes, show)) => report(name, method, *outline, *unit)
                .map(|mut r| {
                    if *show {
                        notes.apply(&mut r);
                    }
                    r
                })
                .map_err(|e| (name.clone(), reason(&e))),
            Err(e) => Err(e.clone()),
        })
        .collect();
    let good: Vec<&Part> = results.iter().filter_map(|r| r.as_ref().ok()).collect();
    let total = (good.len() > 1 || (a.parts && !good.is_empty())).then(|| {
        let props: inertia::MassProperties2d = good.iter().map(|g| g.2.properties).sum();
        let outline = Outline::sum(good.iter().map(|g| g.1));
        let unit = inertia::PolygonIntegral::from_properties(props);
        let name = format!(
            "total of {} part{}",
            good.len(),
            if good.len() == 1 { "" } else { "s" }
        );
        let mut r =
            PolygonReport::from_integral(&name, method.name(), outline, unit, amount, about, &view);
        for g in &good {
            g.3.apply(&mut r);
        }
        checked(&name, r)
    });
    let total = total.transpose()?;
    Ok(batch_outcome(
        output,
        rows,
        total,
        output_table_polygon,
        inertia::report::csv::polygons,
    ))
}

/// What a polygon file held besides its polygons, for its report: annotations ignored.
#[derive(Clone, Debug, Default)]
pub(super) struct Notes {
    ignored: std::collections::BTreeMap<String, usize>,
}

impl Notes {
    /// Adds these notes to a report (summing counts).
    fn apply(&self, r: &mut PolygonReport) {
        for (k, n) in &self.ignored {
            *r.ignored.entry(k.clone()).or_default() += n;
        }
    }
}

pub(super) fn output_table_polygon(r: &PolygonReport) -> String {
    OutputFormat::Table.polygon(r)
}
