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
    /// With --method all: the largest relative spread allowed between exact methods (beyond
    /// it, exit code 1).
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
    /// Also draw the polygon, its centroid and principal axes into this SVG file (one
    /// polygon of one file named on the command line).
    #[arg(long, help_heading = "Output", value_name = "FILE.svg")]
    pub(super) plot: Option<PathBuf>,
    /// DXF: join the ends of lines, arcs and open polylines closer than this (input units).
    /// Default: 1e-6 of the larger of the two pieces' extents (CAD programs write 11-12
    /// digits), judged pair by pair; a gap joined beyond rounding is reported with the
    /// bound it puts on the area.
    #[arg(long, value_name = "DISTANCE", help_heading = "Input")]
    pub(super) join_tolerance: Option<f64>,
    /// DXF: what to do with pieces that belong to no closed outline (centre lines,
    /// construction lines, leaders, stray arcs): `leave` them out, with one warning
    /// counting them by entity type and layer (the default), or refuse the drawing naming
    /// the first (`error`). Even when leaving them out, a free end within 100 times the
    /// join tolerance of another end is refused (an outline drawn with a gap: the message
    /// gives the --join-tolerance that closes it), and so is a drawing in which nothing
    /// closed is left.
    #[arg(long, value_enum, default_value_t = OpenChoice::Leave, help_heading = "Input")]
    pub(super) open: OpenChoice,
    /// DXF: read only this layer (repeat for several), even when it is off or frozen.
    /// Default: every layer that is on and thawed.
    #[arg(long, value_name = "NAME", help_heading = "Input")]
    pub(super) layer: Vec<String>,
    /// DXF: the space to read: `model` (paper-space title blocks and viewport frames are
    /// left out and counted), `paper` (the active layout's paper space), or `layout:NAME`
    /// (one layout, by the name on its tab). Default: model space, or, when it holds no
    /// geometry (nothing but annotations), the active layout's paper space, with a
    /// warning.
    #[arg(long, value_name = "SPACE", value_parser = parse_space, help_heading = "Input")]
    pub(super) space: Option<inertia::io::dxf::Space>,
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
    /// Leave them out, counted in one warning (also: `ignore`).
    #[value(alias = "ignore")]
    Leave,
    /// Refuse the drawing, naming the first (also: `refuse`).
    #[value(alias = "refuse")]
    Error,
}

/// One polygon of a file, integrated by every method asked for.
struct PolygonPart {
    /// Its name in reports: the file's, and the polygon's within it when it has one.
    name: String,
    outline: Outline,
    /// One integral per method.
    integrals: Vec<PolygonIntegral>,
    polygon: inertia::Polygon,
}

/// A polygon file read: its polygons, what it held besides them, its warnings (as
/// printed) and the unit it states.
pub(super) struct PolygonFile {
    parts: Vec<PolygonPart>,
    notes: Notes,
    warnings: Vec<String>,
    unit: Option<LengthUnit>,
}

/// One polygon of a batch, with what its file held outside its polygons (carried by the
/// file's first part, to be summed in the total).
pub(super) struct BatchPart {
    name: String,
    outline: Outline,
    integral: PolygonIntegral,
    notes: Notes,
    /// Whether to show the notes on the part: only when it is its file's only polygon (a
    /// drawing's spline may be in any part).
    show_notes: bool,
}

pub(super) fn polygon(mut a: PolygonArgs) -> Result<Outcome> {
    let listed = gather_files(&a.files, a.files_from.as_deref())?;
    // The flags are checked before anything is read; the density once the files have said
    // their unit.
    a.common.check_amount(2, a.thickness)?;
    let methods: Vec<PolygonMethod> = match a.method {
        PolygonChoice::Fan => vec![PolygonMethod::Fan],
        PolygonChoice::RightTriangle => vec![PolygonMethod::RightTriangle],
        PolygonChoice::Centroid => vec![PolygonMethod::Centroid],
        PolygonChoice::All => PolygonMethod::ALL.to_vec(),
    };
    let options = ReadOptions {
        kind: Some(Kind::Polygon),
        format: a.input_format.map(Format::Polygon),
        dxf: inertia::io::dxf::Options {
            join_tolerance: a.join_tolerance,
            open: match a.open {
                OpenChoice::Leave => inertia::io::dxf::OpenPolicy::Leave,
                OpenChoice::Error => inertia::io::dxf::OpenPolicy::Refuse,
            },
            layers: a.layer.clone(),
            space: a.space.clone().unwrap_or_default(),
            max_entities: Some(a.max_entities),
        },
        // GeoJSON coordinates are degrees (RFC 7946) unless --units declares them lengths.
        geojson: if a.common.units.is_some() {
            inertia::io::geojson::Coordinates::Lengths
        } else {
            inertia::io::geojson::Coordinates::Degrees
        },
        max_input_bytes: max_input_bytes(),
        polygon_method: methods[0],
        ..a.common.read_options(a.thickness)?
    };
    // Every flag the library takes, checked by it.
    options.check()?;
    a.common.view(2)?;
    let about = a.common.about::<2>()?.map(Point2::from);
    let tolerance = check_tolerance(a.tolerance)?;
    let files = listed;
    let output = a.common.format();
    let one = OneBody {
        mass: a.common.mass.is_some(),
        all: a.method == PolygonChoice::All,
        plot: a.plot.is_some(),
    };
    check_batch(files.len(), a.files_from.is_some(), one, output)?;
    // A file's polygons (GeoJSON and DXF files may hold several), each integrated.
    let read = |path: &PathBuf| -> Result<PolygonFile> {
        let Input { bytes, name, label } = read_input(path)?;
        if bytes.is_empty() {
            bail!("{label}: the input is empty");
        }
        let read =
            inertia::read::read_bytes(path, bytes, &options).with_context(|| label.clone())?;
        let Shapes::Polygons(polys) = read.shapes else {
            bail!("{label}: not a polygon file");
        };
        let parts = polys
            .into_iter()
            .map(|p| {
                let name = if read.named {
                    format!("{name}: {}", p.name)
                } else {
                    name.clone()
                };
                let integrals = methods.iter().map(|m| m.integrate(&p.polygon)).collect();
                PolygonPart {
                    name,
                    outline: Outline::of(&p.polygon),
                    integrals,
                    polygon: p.polygon,
                }
            })
            .collect();
        Ok(PolygonFile {
            parts,
            notes: Notes {
                ignored: read.ignored,
            },
            warnings: read
                .warnings
                .iter()
                .filter(|w| !light_density(w))
                .map(|w| warning_line(&label, w, false))
                .collect(),
            unit: read.unit,
        })
    };
    // A lone file is read once here: one polygon is reported alone, several as parts below.
    if files.len() == 1 && a.files_from.is_none() {
        let file = read(&files[0])?;
        a.common.adopt_units(&[StatedUnit {
            name: files[0].display().to_string(),
            unit: file.unit,
        }])?;
        let amount = a.common.amount(2, a.thickness)?;
        let view = a.common.view(2)?;
        let at = |method| PolygonAt {
            method,
            amount,
            about,
            view: view.clone(),
        };
        let PolygonFile {
            mut parts,
            notes,
            warnings,
            ..
        } = file;
        if parts.len() == 1 && !a.parts {
            let part = parts.remove(0);
            let reports = methods
                .iter()
                .zip(part.integrals)
                .map(|(m, u)| at(m.name()).report_named(&part.name, part.outline, u, Some(&notes)))
                .collect::<Result<Vec<_>>>()?;
            if let Some(path) = &a.plot {
                write_file(
                    path,
                    &inertia::report::svg::polygon(&part.polygon, &reports[0]),
                )?;
            }
            let mut out = if a.method == PolygonChoice::All {
                let name = &part.name;
                let label = if name == "-" { "<stdin>" } else { name };
                let c = compare::polygons(reports, tolerance);
                compared(c, output, &format!("polygon {name}"), label)
            } else {
                lone(&reports[0], output)
            };
            out.warnings.splice(0..0, warnings);
            return Ok(out);
        }
        one_body_flags(parts.len(), one, ("polygon", "parts"))?;
        let file = PolygonFile {
            parts,
            notes,
            warnings,
            unit: None,
        };
        return batch(vec![Ok(file)], &a, methods[0], about, output);
    }
    // JSON Lines of a batch are printed file by file as they are read, when no file can
    // change the unit (it is fixed by the flags, or no input's format states one): the
    // lines are then the same as those printed at the end.
    let input_format = a.input_format;
    let stream = output == OutputFormat::Jsonl
        && a.common.unit_fixed(|| {
            files.iter().all(|p| {
                input_format
                    .or_else(|| PolygonFormat::from_path(p))
                    .is_some_and(|f| f != PolygonFormat::Dxf)
            })
        });
    let method = methods[0];
    let streaming = Streaming::new(stream, || {
        Ok(PolygonAt {
            method: method.name(),
            amount: a.common.amount(2, a.thickness)?,
            about,
            view: a.common.view(2)?,
        })
    })?;
    let (per_file, stated) = read_files(&files, "polygons", read, |f| f.unit, &streaming);
    a.common.adopt_units(&stated)?;
    let mut out = batch(per_file, &a, method, about, output)?;
    if let Some(s) = streaming {
        s.finish(&mut out)?;
    }
    Ok(out)
}

/// How a polygon's report is made: the method's name, the density or mass, the point of
/// the moments and the view (also `shape`'s, for a plate).
pub(super) struct PolygonAt {
    /// The method's name in reports (`fan`, `closed-form`, ...).
    pub(super) method: &'static str,
    pub(super) amount: Amount,
    pub(super) about: Option<Point2<f64>>,
    pub(super) view: View,
}

impl PolygonAt {
    /// The report of one polygon, with its file's notes when given.
    pub(super) fn report_named(
        &self,
        name: &str,
        outline: Outline,
        unit: PolygonIntegral,
        notes: Option<&Notes>,
    ) -> Result<PolygonReport> {
        let mut r = PolygonReport::from_integral(
            name,
            self.method,
            outline,
            unit,
            self.amount,
            self.about,
            &self.view,
        );
        if let Some(n) = notes {
            n.apply(&mut r);
        }
        checked(name, r)
    }
}

impl Reporter for PolygonAt {
    type File = PolygonFile;
    type Part = BatchPart;
    type Report = PolygonReport;

    fn report(&self, p: &BatchPart) -> Result<PolygonReport> {
        let notes = p.show_notes.then_some(&p.notes);
        self.report_named(&p.name, p.outline, p.integral, notes)
    }

    fn name(p: &BatchPart) -> &str {
        &p.name
    }

    fn total(&self, parts: &[&BatchPart], name: &str) -> Result<PolygonReport> {
        let t = PolygonTotal::of(
            parts
                .iter()
                .map(|g| PolygonTotal::part(g.integral.properties, g.outline)),
        )
        .context("no parts")?;
        let mut r = PolygonReport::from_integral(
            name,
            self.method,
            t.outline,
            t.integral(),
            self.amount,
            self.about,
            &self.view,
        );
        for g in parts {
            g.notes.apply(&mut r);
        }
        checked(name, r)
    }

    fn file_reports(&self, file: &PolygonFile) -> Vec<Result<PolygonReport, FileError>> {
        batch_parts(file)
            .iter()
            .map(|p| self.report(p).map_err(|e| failed(&p.name, e)))
            .collect()
    }
}

/// A file's polygons as parts of a batch: the file's notes on its first part (to be
/// summed in the total), shown on it only when it is the file's only polygon.
fn batch_parts(file: &PolygonFile) -> Vec<BatchPart> {
    let one = file.parts.len() == 1;
    file.parts
        .iter()
        .enumerate()
        .map(|(k, part)| BatchPart {
            name: part.name.clone(),
            outline: part.outline,
            integral: part.integrals[0],
            notes: if k == 0 {
                file.notes.clone()
            } else {
                Notes::default()
            },
            show_notes: one,
        })
        .collect()
}

/// The report of several polygons (of several files, or of one file of several): each
/// part, the total, the errors, and the files' warnings.
fn batch(
    per_file: Vec<Result<PolygonFile, FileError>>,
    a: &PolygonArgs,
    method: PolygonMethod,
    about: Option<Point2<f64>>,
    output: OutputFormat,
) -> Result<Outcome> {
    let at = PolygonAt {
        method: method.name(),
        amount: a.common.amount(2, a.thickness)?,
        about,
        view: a.common.view(2)?,
    };
    let mut warnings = Vec::new();
    let mut parts = Vec::new();
    for file in per_file {
        match file {
            Err(e) => parts.push(Err(e)),
            Ok(file) => {
                parts.extend(batch_parts(&file).into_iter().map(Ok));
                warnings.extend(file.warnings);
            }
        }
    }
    let mut out = at.outcome(parts, output, a.parts)?;
    out.warnings.splice(0..0, warnings);
    Ok(out)
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
