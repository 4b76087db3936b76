//! `inertia mesh`: read mesh files through the library's pipeline, report each body and their total.

use super::*;

#[derive(Args, Debug)]
pub(super) struct MeshArgs {
    /// Mesh files (STL binary or ASCII, OBJ, PLY, 3MF), or `-` for standard input. With
    /// several (or a 3MF of several bodies), each is reported and so is their total. STEP,
    /// IGES and BREP solids are integrated exactly on their B-rep when inertia is built
    /// with the feature `step` (OpenCASCADE).
    pub(super) files: Vec<PathBuf>,
    /// Read more file names from this file, one per line (`-`: standard input).
    #[arg(long, help_heading = "Input", value_name = "LIST")]
    pub(super) files_from: Option<PathBuf>,
    /// Refuse a mesh file that holds or expands to more triangles than this (a 3MF whose
    /// objects place each other over and over is counted before it is expanded).
    #[arg(long, value_name = "N", help_heading = "Limits", default_value_t = inertia::io::threemf::DEFAULT_MAX_TRIANGLES)]
    pub(super) max_triangles: u64,
    /// Input format; by default from the extension, else from the content.
    #[arg(long, value_enum, help_heading = "Input", value_name = "FORMAT")]
    pub(super) input_format: Option<MeshFormat>,
    /// Integration method.
    #[arg(long, value_enum, default_value_t = MeshChoice::Tetra, help_heading = "Method")]
    pub(super) method: MeshChoice,
    /// Voxel method: grid cells along the longest side of the bounding box.
    #[arg(long, default_value_t = DEFAULT_RESOLUTION, help_heading = "Method", value_name = "CELLS")]
    pub(super) resolution: usize,
    /// A thin-walled part: the mass lies in a wall of this thickness (input units) on the
    /// surface, which may be open; --density is that of the wall material.
    #[arg(
        long,
        allow_negative_numbers = true,
        help_heading = "Mass",
        value_name = "THICKNESS"
    )]
    pub(super) shell: Option<f64>,
    /// Also draw three orthographic views with the centroid and principal axes into this
    /// SVG file.
    #[arg(long, help_heading = "Output", value_name = "FILE.svg")]
    pub(super) plot: Option<PathBuf>,
    /// With --method all: the largest relative spread allowed between exact methods.
    #[arg(
        long,
        default_value_t = 1e-9,
        allow_negative_numbers = true,
        help_heading = "Method",
        value_name = "RELATIVE"
    )]
    pub(super) tolerance: f64,
    /// Join corners closer than this (input units) when a mesh is open only by rounding
    /// noise. Default: a few units in the last place of the largest coordinate.
    #[arg(long, value_name = "DISTANCE", help_heading = "Checks")]
    pub(super) weld_tolerance: Option<f64>,
    /// Triangles that cross or coincide (bodies that overlap, a surface through itself):
    /// refuse (the default), or sum the bodies as they are, counting shared space twice,
    /// with a warning.
    #[arg(long, value_enum, default_value_t = OverlapChoice::Refuse, help_heading = "Checks")]
    pub(super) overlap: OverlapChoice,
    /// Report as for several inputs even when there is one body: JSON
    /// `{"schema_version", "parts", "errors", "total"}`, a total row in tables and CSV, so that
    /// a script over `dir/*` reads one file's result as it reads many.
    #[arg(long, help_heading = "Output")]
    pub(super) parts: bool,
    #[command(flatten)]
    pub(super) common: Common,
}

/// What `mesh` does with triangles that cross or coincide.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(super) enum OverlapChoice {
    /// Refuse the file, naming two triangles that meet and where.
    Refuse,
    /// Add overlapping bodies as separate parts (shared space counts twice), with a warning.
    Sum,
}

pub(super) fn mesh(mut a: MeshArgs) -> Result<Outcome> {
    let listed = gather_files(&a.files, a.files_from.as_deref())?;
    if a.input_format.is_none() {
        refuse_cad(&listed)?;
    }
    if a.input_format.is_none_or(|f| f == MeshFormat::ThreeMf) {
        a.common.adopt_file_units(&listed, FileKind::Mesh)?;
    }
    let amount = a.common.amount(3, None)?;
    let view = a.common.view(3)?;
    let about = a.common.about::<3>()?.map(Point3::from);
    let tolerance = check_tolerance(a.tolerance)?;
    if a.resolution == 0 || a.resolution > 100_000 {
        bail!(
            "--resolution must be between 1 and 100000, got {}",
            a.resolution
        );
    }
    let files = listed;
    let output = a.common.format();
    check_batch(
        files.len(),
        a.files_from.is_some(),
        a.method == MeshChoice::All,
        a.common.mass,
        a.plot.is_some(),
        output,
    )?;
    let methods: Vec<MeshMethod> = match a.method {
        MeshChoice::Tetra => vec![MeshMethod::Tetra],
        MeshChoice::Voxel => vec![MeshMethod::Voxel],
        MeshChoice::All => MeshMethod::ALL.to_vec(),
    };
    if let Some(w) = a.weld_tolerance {
        positive(Parameter::WeldTolerance, w)?;
    }
    if let Some(t) = a.shell {
        positive(Parameter::ShellThickness, t)?;
        if a.method != MeshChoice::Tetra {
            bail!("--shell is a method of its own; leave out --method");
        }
    }
    let cad = |p: &PathBuf| a.input_format.is_none() && cad_name(p).is_some();
    if let Some(p) = files.iter().find(|p| cad(p)) {
        let what = cad_name(p).unwrap_or("CAD");
        if a.shell.is_some() {
            bail!(
                "--shell reads a triangle surface; {} is a {what} file of solids",
                p.display()
            );
        }
        if a.plot.is_some() {
            bail!(
                "--plot draws a mesh; {} is a {what} file of solids",
                p.display()
            );
        }
        if a.method == MeshChoice::Voxel {
            bail!(
                "--method voxel integrates a mesh; {} is integrated on its B-rep (leave out --method, or give --method all to compare it with its tessellation)",
                p.display()
            );
        }
        #[cfg(feature = "step")]
        if a.method == MeshChoice::All && !a.parts {
            return compare_tessellations(p, a.overlap, amount, about, &view, output);
        }
    }
    // (name, label, body, one integral per method, the mesh if it is to be drawn, warnings,
    // the relative tolerance of a B-rep integration)
    type Part = (
        String,
        String,
        Body,
        Vec<MeshIntegral>,
        Option<inertia::Mesh>,
        Vec<String>,
        Option<f64>,
    );
    let solid_options = inertia::solid::Options {
        methods: methods.clone(),
        resolution: a.resolution,
        shell: a.shell,
        keep_mesh: a.plot.is_some(),
        weld_tolerance: a.weld_tolerance,
        overlap: match a.overlap {
            OverlapChoice::Refuse => inertia::solid::OverlapPolicy::Refuse,
            OverlapChoice::Sum => inertia::solid::OverlapPolicy::Sum,
        },
        max_triangles: a.max_triangles,
    };
    // Every body of a file (3MF files may hold several), each validated and integrated.
    let read = |path: &PathBuf| -> Result<Vec<Part>> {
        #[cfg(feature = "step")]
        if cad(path) {
            let name = path.display().to_string();
            let cad = read_cad(path, a.overlap)?;
            let several = cad.solids.len() > 1;
            let file_warnings: Vec<String> = cad
                .warnings
                .iter()
                .map(|w| format!("warning: {name}: {w}"))
                .collect();
            return Ok(cad
                .solids
                .iter()
                .enumerate()
                .map(|(k, s)| {
                    let part = if s.name.is_empty() && several {
                        format!("solid {}", k + 1)
                    } else {
                        s.name.clone()
                    };
                    let name = if part.is_empty() {
                        name.clone()
                    } else {
                        format!("{name}: {part}")
                    };
                    let unit = MeshIntegral {
                        properties: s.properties,
                        grid: None,
                    };
                    let warnings = if k == 0 {
                        file_warnings.clone()
                    } else {
                        vec![]
                    };
                    (
                        name.clone(),
                        name,
                        body_of(s),
                        vec![unit],
                        None,
                        warnings,
                        Some(s.tolerance),
                    )
                })
                .collect());
        }
        let (bytes, name, label) = read_input(path)?;
        if bytes.is_empty() {
            bail!("{label}: the input is empty");
        }
        let known = a.input_format.or_else(|| MeshFormat::from_path(path));
        // (Not .txt or .dat: those are sniffed, and may hold an STL.)
        let polygon_named = path.extension().and_then(|e| e.to_str()).is_some_and(|e| {
            ["json", "geojson", "dxf", "csv"].contains(&e.to_ascii_lowercase().as_str())
        });
        if known.is_none() && polygon_named {
            bail!(
                "{label}: a polygon file by its name: `inertia polygon` reads it (or give --input-format if it is a mesh)"
            );
        }
        if known.is_none()
            && let Some(what) = foreign_format(path)
        {
            bail!(
                "{label}: {what} is not a mesh format inertia reads: export the part as STL, OBJ, PLY or 3MF"
            );
        }
        let format = known.unwrap_or_else(|| MeshFormat::sniff(&bytes));
        // Content that only fell through to OBJ and holds no OBJ face is not a mesh at all.
        if known.is_none()
            && format == MeshFormat::Obj
            && !bytes
                .split(|b| *b == b'\n')
                .any(|l| l.trim_ascii_start().starts_with(b"f "))
        {
            bail!(
                "{label}: not a mesh file inertia reads (binary or ASCII STL, OBJ, PLY, 3MF): give --input-format if it is one"
            );
        }
        // The library's pipeline: the STL fast path, or each body parsed, validated (the
        // parallel path, else Mesh::new to explain a defect), checked for overlaps, welded
        // within a tolerance when open by noise, and integrated.
        let solids = inertia::solid::read_solids(&bytes, format, &solid_options)
            .with_context(|| label.clone())?;
        let parts = solids
            .into_iter()
            .map(|s| {
                let file_warnings = s
                    .file_warnings
                    .iter()
                    .map(|w| format!("warning: {label}: {w}"));
                let (name, label) = if s.name.is_empty() {
                    (name.clone(), label.clone())
                } else {
                    (
                        format!("{name}: {}", s.name),
                        format!("{label}: {}", s.name),
                    )
                };
                let warnings = file_warnings
                    .chain(s.warnings.iter().map(|w| format!("warning: {label}: {w}")))
                    .collect();
                (name, label, s.body, s.integrals, s.mesh, warnings, None)
            })
            .collect();
        Ok(parts)
    };
    let method_name = |m: MeshMethod| if a.shell.is_some() { "shell" } else { m.name() };
    let report = |name: &str,
                  method: MeshMethod,
                  body: Body,
                  unit: MeshIntegral,
                  brep: Option<f64>|
     -> Result<MeshReport> {
        let method = if brep.is_some() {
            "brep"
        } else {
            method_name(method)
        };
        let mut r = MeshReport::from_integral(name, method, body, unit, amount, about, &view);
        r.tolerance = brep;
        checked(name, r)
    };
    let inside_out = |body: &Body, label: &str| {
        body.inside_out.then(|| {
            format!("warning: {label}: the mesh is inside-out (its triangles face inward); computed as if turned right way out")
        })
    };
    // A lone file is read once here: one body is reported alone, several as parts below.
    let mut first = None;
    let table = output == OutputFormat::Table;
    if files.len() == 1 && a.files_from.is_none() {
        let progress = Progress::start(None, files[0].display().to_string(), table);
        let mut parts = read(&files[0])?;
        drop(progress);
        if parts.len() == 1 && !a.parts {
            let (name, label, body, units, mesh, overlap, brep) = parts.remove(0);
            let reports = methods
                .iter()
                .zip(units)
                .map(|(m, u)| report(&name, *m, body, u, brep))
                .collect::<Result<Vec<_>>>()?;
            if let (Some(path), Some(mesh)) = (&a.plot, &mesh) {
                write_file(path, &inertia::report::svg::mesh(mesh, &reports[0]))?;
            }
            let mut out = if a.method == MeshChoice::All {
                let exact = methods.iter().map(|m| m.is_exact()).collect();
                let c = compare::meshes(reports, exact, tolerance);
                compared(c, output, &format!("mesh {name}"), &label)
            } else {
                Outcome::ok(output.mesh(&reports[0]))
            };
            out.warnings
                .splice(0..0, inside_out(&body, &label).into_iter().chain(overlap));
            return Ok(out);
        }
        one_body_flags(
            parts.len(),
            [
                a.common.mass.is_some(),
                a.method == MeshChoice::All,
                a.plot.is_some(),
            ],
            ("body", "bodies"),
        )?;
        first = Some(parts);
    }
    let method = methods[0];
    let per_file: Vec<Result<Vec<Part>, (String, String)>> = match first {
        Some(parts) => vec![Ok(parts)],
        None => {
            let progress = Progress::start(Some(files.len() as u64), "meshes".into(), table);
            files
                .par_iter()
                .map(|p| {
                    let r = read(p).map_err(|e| (p.display().to_string(), reason(&e)));
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
    let mut warnings: Vec<String> = results
        .iter()
        .filter_map(|r| r.as_ref().ok())
        .flat_map(|(_, label, body, _, _, notes, _)| {
            inside_out(body, label)
                .into_iter()
                .chain(notes.iter().map(|n| surface_hint(n, body)))
        })
        .collect();
    let rows: Vec<Result<MeshReport, (String, String)>> = results
        .iter()
        .map(|r| match r {
            Ok((name, _, body, units, _, _, brep)) => {
                report(name, method, *body, units[0], *brep).map_err(|e| (name.clone(), reason(&e)))
            }
            Err(e) => Err(e.clone()),
        })
        .collect();
    let good: Vec<&Part> = results.iter().filter_map(|r| r.as_ref().ok()).collect();
    let total = (good.len() > 1 || (a.parts && !good.is_empty())).then(|| {
        let props: inertia::MassProperties3d = good.iter().map(|g| g.3[0].properties).sum();
        let body = Body::sum(good.iter().map(|g| g.2));
        let unit = MeshIntegral {
            properties: props,
            grid: None,
        };
        let name = format!(
            "total of {} part{}",
            good.len(),
            if good.len() == 1 { "" } else { "s" }
        );
        // A total of B-rep solids only is one too, to the loosest of their tolerances.
        let brep = good
            .iter()
            .map(|g| g.6)
            .try_fold(0.0f64, |t, b| b.map(|b| t.max(b)));
        report(&name, method, body, unit, brep)
    });
    let total = total.transpose()?;
    let mut out = batch_outcome(
        output,
        rows,
        total,
        |r| OutputFormat::Table.mesh(r),
        inertia::report::csv::meshes,
    );
    warnings.append(&mut out.warnings);
    out.warnings = warnings;
    Ok(out)
}

/// A 3MF note with the flag that would keep what it left out: the library says that its
/// surface items were left out (`body.left_out`), the command line names `--shell`.
fn surface_hint(note: &str, body: &Body) -> String {
    let surfaces = body.left_out.is_some_and(|l| l.surface > 0);
    if surfaces && note.ends_with("an open surface has no volume") {
        format!("{note} (--shell integrates it as a wall)")
    } else {
        note.to_string()
    }
}
