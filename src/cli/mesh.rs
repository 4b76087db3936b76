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
    /// objects place each other over and over is counted before it is expanded). Never more
    /// than 1431655765, whatever this says (corners are numbered in 32 bits).
    #[arg(long, value_name = "N", help_heading = "Limits", default_value_t = inertia::io::threemf::DEFAULT_MAX_TRIANGLES)]
    pub(super) max_triangles: u64,
    /// Input format; by default from the extension, else from the content (STEP, IGES and
    /// BREP by their extension only).
    #[arg(long, value_enum, help_heading = "Input", value_name = "FORMAT")]
    pub(super) input_format: Option<MeshInput>,
    /// Integration method.
    #[arg(long, value_enum, default_value_t = MeshChoice::Tetra, help_heading = "Method")]
    pub(super) method: MeshChoice,
    /// Voxel method: grid cells along the longest side of the bounding box.
    #[arg(long, default_value_t = DEFAULT_RESOLUTION, help_heading = "Method", value_name = "CELLS")]
    pub(super) resolution: usize,
    /// A thin-walled part: the mass lies in a wall of this thickness (input units) on the
    /// surface, which may be open; --density is that of the wall material. Method `shell`
    /// (no --method); not for a CAD file.
    #[arg(
        long,
        allow_negative_numbers = true,
        help_heading = "Mass",
        value_name = "THICKNESS"
    )]
    pub(super) shell: Option<f64>,
    /// Also draw three orthographic views with the centroid and principal axes into this
    /// SVG file (one body of one mesh file named on the command line).
    #[arg(long, help_heading = "Output", value_name = "FILE.svg")]
    pub(super) plot: Option<PathBuf>,
    /// With --method all: the largest relative spread allowed between exact methods (beyond
    /// it, exit code 1). A CAD file's tessellations are judged by their chords instead.
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
    /// How much the repairs that make a mesh a closed solid (corners split into another
    /// triangle's edge, crossings taken for bodies touching) may change its volume,
    /// relative to it. A body whose repairs could change more is refused, naming the
    /// repair and its bound; the bound is reported with the answer.
    #[arg(
        long,
        default_value_t = inertia::solid::DEFAULT_REPAIR_TOLERANCE,
        value_name = "RELATIVE",
        help_heading = "Checks"
    )]
    pub(super) repair_tolerance: f64,
    /// Triangles that cross or coincide (bodies that overlap, a surface through itself):
    /// refuse (the default); sum the bodies as they are, counting shared space twice, with
    /// a warning; or (built with the feature `union`) integrate the union of the bodies,
    /// computed exactly by CGAL, with the shared volume reported. A surface through
    /// itself is refused with every choice but sum.
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
    /// The union of overlapping bodies (shared space counted once), computed exactly.
    #[cfg(feature = "union")]
    Union,
}

/// One body of a file, integrated, as its report needs it.
pub(super) struct MeshPart {
    /// Its name in reports: the file's, and the body's within it when it has one.
    pub(super) name: String,
    /// Its name in messages (`<stdin>` for standard input).
    pub(super) label: String,
    body: Body,
    /// One integral per method.
    pub(super) integrals: Vec<MeshIntegral>,
    /// The mesh, when it is to be drawn.
    mesh: Option<inertia::Mesh>,
    /// Its warnings and its file's (on its file's first body), each with the label to
    /// print it with.
    warnings: Vec<(String, Warning)>,
    /// The relative tolerance of a B-rep integration.
    brep: Option<f64>,
    /// Its colour, as a CAD file gives it.
    color: Option<[f64; 3]>,
    /// Its material, as a CAD file names it.
    material: Option<inertia::report::MaterialReport>,
    /// Its own density (kg/m³), when the parts' densities from their files differ.
    density: Option<f64>,
}

/// What `--input-format` names: a mesh format, or a CAD format (read through OpenCASCADE,
/// with the feature `step`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(super) enum MeshInput {
    /// STL, binary or ASCII.
    Stl,
    /// Wavefront OBJ.
    Obj,
    /// PLY, ASCII or binary.
    Ply,
    /// 3MF: each build item a body.
    #[value(name = "3mf")]
    ThreeMf,
    /// STEP (feature `step`).
    Step,
    /// IGES (feature `step`).
    Iges,
    /// OpenCASCADE BREP (feature `step`).
    Brep,
}

impl MeshInput {
    /// The mesh format, if it is one.
    fn mesh(self) -> Option<MeshFormat> {
        match self {
            MeshInput::Stl => Some(MeshFormat::Stl),
            MeshInput::Obj => Some(MeshFormat::Obj),
            MeshInput::Ply => Some(MeshFormat::Ply),
            MeshInput::ThreeMf => Some(MeshFormat::ThreeMf),
            _ => None,
        }
    }

    /// The extension of a CAD format ("step", "iges", "brep"), if it is one.
    fn cad(self) -> Option<&'static str> {
        match self {
            MeshInput::Step => Some("step"),
            MeshInput::Iges => Some("iges"),
            MeshInput::Brep => Some("brep"),
            _ => None,
        }
    }
}

/// The library's format for a CAD extension (`--input-format step`).
#[cfg(feature = "step")]
fn cad_format(ext: Option<&str>) -> Option<Format> {
    let path = PathBuf::from(format!("input.{}", ext?));
    inertia::io::step::CadFormat::from_path(&path).map(Format::Cad)
}

/// Without the feature `step`, no CAD format (refused before this is asked).
#[cfg(not(feature = "step"))]
fn cad_format(_ext: Option<&str>) -> Option<Format> {
    None
}

/// Without the feature `step` nothing is copied (a CAD format is refused before).
#[cfg(not(feature = "step"))]
struct StdinCopy;

#[cfg(not(feature = "step"))]
impl StdinCopy {
    fn path(&self) -> &Path {
        Path::new("-")
    }
}

/// Without the feature `step`, refused (never reached: a CAD format is refused before).
#[cfg(not(feature = "step"))]
fn stdin_to_file(ext: &str, _limit: u64) -> Result<StdinCopy> {
    refuse_cad_format(ext)?;
    Ok(StdinCopy)
}

/// Standard input, up to `limit` bytes, copied to a temporary file named `*.{ext}` (for
/// OpenCASCADE, which reads a path); the file goes when the value is dropped.
#[cfg(feature = "step")]
fn stdin_to_file(ext: &str, limit: u64) -> Result<tempfile::NamedTempFile> {
    use std::io::{Read, Write};
    let mut file = tempfile::Builder::new()
        .prefix("inertia-stdin-")
        .suffix(&format!(".{ext}"))
        .tempfile()
        .context("<stdin>: cannot make a temporary file to hand it to OpenCASCADE")?;
    let copied = std::io::copy(&mut std::io::stdin().lock().take(limit + 1), &mut file)
        .context("<stdin>: cannot read")?;
    if copied > limit {
        bail!("<stdin>: more than --max-input-bytes ({limit} bytes)");
    }
    if copied == 0 {
        bail!("<stdin>: the input is empty");
    }
    file.flush()
        .context("<stdin>: cannot write the temporary copy")?;
    Ok(file)
}

/// A mesh file read: its bodies and the unit it states.
pub(super) struct MeshFile {
    pub(super) parts: Vec<MeshPart>,
    unit: Option<LengthUnit>,
}

impl MeshFile {
    /// A file's parts as `mesh` reports them ([`mesh_parts`]), and the unit it states.
    pub(super) fn of(parts: Parts, name: &str, label: &str) -> MeshFile {
        MeshFile {
            unit: parts.unit,
            parts: mesh_parts(parts, name, label),
        }
    }
}

impl MeshPart {
    /// Its warnings as printed; `shell_hint`: a 3MF's surfaces left out name `--shell`.
    pub(super) fn warning_lines(&self, shell_hint: bool) -> impl Iterator<Item = String> + '_ {
        self.warnings
            .iter()
            .map(move |(label, w)| warning_line(label, w, shell_hint))
    }
}

/// A file's parts as `mesh` reports them: each named after the file (and its name within
/// it), its warnings labelled, the inside-out one first, then the file's.
fn mesh_parts(read: Parts, name: &str, label: &str) -> Vec<MeshPart> {
    let file_warnings: Vec<(String, Warning)> = read
        .warnings
        .iter()
        .filter(|w| !light_density(w))
        .map(|w| (label.to_string(), w.clone()))
        .collect();
    let named = |part: &str| {
        if part.is_empty() || !read.named {
            (name.to_string(), label.to_string())
        } else {
            (format!("{name}: {part}"), format!("{label}: {part}"))
        }
    };
    let with_file = |k: usize, label: &str, own: &[Warning]| {
        let inside_out = own.iter().filter(|w| **w == Warning::InsideOut);
        let rest = own.iter().filter(|w| **w != Warning::InsideOut);
        let file = if k == 0 { &file_warnings[..] } else { &[] };
        inside_out
            .map(|w| (label.to_string(), w.clone()))
            .chain(file.iter().cloned())
            .chain(rest.map(|w| (label.to_string(), w.clone())))
            .collect::<Vec<_>>()
    };
    match read.shapes {
        Shapes::Solids(solids) => solids
            .into_iter()
            .enumerate()
            .map(|(k, s)| {
                let (name, label) = named(&s.name);
                MeshPart {
                    warnings: with_file(k, &label, &s.warnings),
                    name,
                    label,
                    body: s.body,
                    integrals: s.integrals,
                    mesh: s.mesh,
                    brep: None,
                    color: None,
                    material: None,
                    density: None,
                }
            })
            .collect(),
        #[cfg(feature = "step")]
        Shapes::Cad(solids) => {
            let several = solids.len() > 1;
            solids
                .iter()
                .enumerate()
                .map(|(k, s)| {
                    let part = if s.name.is_empty() && several {
                        format!("solid {}", k + 1)
                    } else {
                        s.name.clone()
                    };
                    let (name, _) = named(&part);
                    MeshPart {
                        warnings: with_file(k, label, &[]),
                        label: name.clone(),
                        name,
                        body: body_of(s),
                        integrals: vec![MeshIntegral {
                            properties: s.properties,
                            grid: None,
                        }],
                        mesh: None,
                        brep: Some(s.tolerance),
                        color: s.color,
                        material: s
                            .material
                            .as_ref()
                            .map(|m| inertia::report::MaterialReport {
                                name: m.name.clone(),
                                density: m.density,
                                density_used: false,
                            }),
                        density: None,
                    }
                })
                .collect()
        }
        // Not read as a mesh: `Kind::Mesh` reads no polygons.
        Shapes::Polygons(_) => vec![],
    }
}

pub(super) fn mesh(mut a: MeshArgs) -> Result<Outcome> {
    let mut listed = gather_files(&a.files, a.files_from.as_deref())?;
    let cad_input = a.input_format.and_then(MeshInput::cad);
    match cad_input {
        None => refuse_cad(&listed)?,
        // Every file is read as that format: refused without the feature, as a file named
        // so would be.
        Some(ext) => refuse_cad_format(ext)?,
    }
    // OpenCASCADE reads a path: a CAD file on standard input is first written to a
    // temporary file (removed when the command ends), reported as `-`.
    let stdin_copy = match cad_input {
        Some(ext) if listed.iter().any(|p| p.as_os_str() == "-") => {
            Some(stdin_to_file(ext, max_input_bytes())?)
        }
        _ => None,
    };
    if let Some(copy) = &stdin_copy {
        for p in listed.iter_mut().filter(|p| p.as_os_str() == "-") {
            *p = copy.path().to_path_buf();
        }
    }
    let shown = |p: &Path| -> String {
        match &stdin_copy {
            Some(copy) if copy.path() == p => "<stdin>".to_string(),
            _ => p.display().to_string(),
        }
    };
    // The flags are checked before anything is read; the density once the files have said
    // their unit.
    a.common.check_amount(3, None)?;
    a.common.view(3)?;
    let about = a.common.about::<3>()?.map(Point3::from);
    let tolerance = check_tolerance(a.tolerance)?;
    let files = listed;
    let output = a.common.format();
    let one = OneBody {
        mass: a.common.mass.is_some(),
        all: a.method == MeshChoice::All,
        plot: a.plot.is_some(),
    };
    check_batch(files.len(), a.files_from.is_some(), one, output)?;
    let methods: Vec<MeshMethod> = match a.method {
        MeshChoice::Tetra => vec![MeshMethod::Tetra],
        MeshChoice::Voxel => vec![MeshMethod::Voxel],
        MeshChoice::All => MeshMethod::ALL.to_vec(),
    };
    let options = ReadOptions {
        kind: Some(Kind::Mesh),
        format: a.input_format.and_then(|f| match f.mesh() {
            Some(m) => Some(Format::Mesh(m)),
            None => cad_format(f.cad()),
        }),
        mesh: inertia::solid::Options {
            methods: methods.clone(),
            resolution: a.resolution,
            shell: a.shell,
            keep_mesh: a.plot.is_some(),
            weld_tolerance: a.weld_tolerance,
            overlap: match a.overlap {
                OverlapChoice::Refuse => inertia::solid::OverlapPolicy::Refuse,
                OverlapChoice::Sum => inertia::solid::OverlapPolicy::Sum,
                #[cfg(feature = "union")]
                OverlapChoice::Union => inertia::solid::OverlapPolicy::Union,
            },
            repair_tolerance: a.repair_tolerance,
            max_triangles: a.max_triangles,
        },
        #[cfg(feature = "step")]
        cad: cad_options(a.overlap),
        max_input_bytes: max_input_bytes(),
        ..a.common.read_options(None)?
    };
    // Every flag the library takes, checked by it.
    options.check()?;
    let input_format = a.input_format;
    let cad = move |p: &PathBuf| match input_format {
        Some(f) => f.cad().is_some(),
        None => cad_name(p).is_some(),
    };
    if let Some(p) = files.iter().find(|p| cad(p)) {
        let what = cad_input
            .map(|e| e.to_ascii_uppercase())
            .unwrap_or_else(|| cad_name(p).unwrap_or("CAD").to_string());
        if a.shell.is_some() {
            bail!(
                "--shell reads a triangle surface; {} is a {what} file of solids",
                shown(p)
            );
        }
        if a.plot.is_some() {
            bail!(
                "--plot draws a mesh; {} is a {what} file of solids",
                shown(p)
            );
        }
        if a.method == MeshChoice::Voxel {
            bail!(
                "--method voxel integrates a mesh; {} is integrated on its B-rep (leave out --method, or give --method all to compare it with its tessellation)",
                shown(p)
            );
        }
        #[cfg(feature = "step")]
        if a.method == MeshChoice::All && !a.parts {
            // Read once, keeping OpenCASCADE's shapes to tessellate: the solids and the unit
            // the file states, as any CAD file's.
            let label = shown(p);
            let (cad, parts) = read_cad(p, cad_input, a.overlap).with_context(|| label.clone())?;
            let name = if label == "<stdin>" { "-" } else { &label };
            let mut files = vec![Ok(MeshFile::of(parts, name, &label))];
            a.common.adopt_units(&[StatedUnit {
                name: label.clone(),
                unit: cad.unit(),
            }])?;
            let (amount, notes) = weigh(&a.common, &mut files)?;
            let at = MeshAt {
                amount,
                view: a.common.view(3)?,
                about,
                method: "brep",
                shell: false,
            };
            let Some(Ok(file)) = files.pop() else {
                unreachable!("one file, read")
            };
            let mut out = compare_tessellations(&label, &file, cad, &at, output)?;
            out.warnings.extend(notes);
            return Ok(out);
        }
    }
    // Every body of a file (3MF files may hold several), each validated and integrated by
    // the library's pipeline (see `inertia::read_path`).
    let read = |path: &PathBuf| -> Result<MeshFile> {
        if cad(path) {
            // OpenCASCADE reads a CAD file by its name.
            let label = shown(path);
            let parts = inertia::read_path(path, &options).with_context(|| label.clone())?;
            // Named as a mesh on standard input is: `-` in reports, `<stdin>` in messages.
            let name = if label == "<stdin>" { "-" } else { &label };
            return Ok(MeshFile::of(parts, name, &label));
        }
        let Input { bytes, name, label } = read_input(path)?;
        if bytes.is_empty() {
            bail!("{label}: the input is empty");
        }
        let parts =
            inertia::read::read_bytes(path, bytes, &options).with_context(|| label.clone())?;
        Ok(MeshFile::of(parts, &name, &label))
    };
    let at = |amount, view| MeshAt {
        amount,
        view,
        about,
        method: methods[0].name(),
        shell: a.shell.is_some(),
    };
    let alone = files.len() == 1 && a.files_from.is_none();
    let given =
        a.common.density.is_some() || a.common.mass.is_some() || a.common.material.is_some();
    // JSON Lines of a batch are printed file by file as they are read, when no file can
    // change the unit (it is fixed by the flags, or no input's format states one) nor the
    // density (a CAD file's own is used when no --density, --mass or --material is given,
    // decided once every file is read): the lines are then the same as those printed at
    // the end.
    let stream = output == OutputFormat::Jsonl
        && !alone
        && (given || !files.iter().any(&cad))
        && a.common.unit_fixed(|| {
            files.iter().all(|p| {
                !cad(p)
                    && input_format
                        .map_or_else(|| MeshFormat::from_path(p), MeshInput::mesh)
                        .is_some_and(|f| f != MeshFormat::ThreeMf)
            })
        });
    let streaming = Streaming::new(stream, || {
        Ok(at(a.common.amount(3, None)?, a.common.view(3)?))
    })?;
    // A lone file is read once here: one body is reported alone, several as parts below.
    let (per_file, stated) = if alone {
        let progress = Progress::start(None, files[0].display().to_string());
        let file = read(&files[0])?;
        drop(progress);
        let stated = vec![StatedUnit {
            name: files[0].display().to_string(),
            unit: file.unit,
        }];
        (vec![Ok(file)], stated)
    } else {
        read_files(&files, "meshes", read, |f| f.unit, &streaming)
    };
    a.common.adopt_units(&stated)?;
    let mut per_file = per_file;
    let (amount, notes) = weigh(&a.common, &mut per_file)?;
    let at = at(amount, a.common.view(3)?);
    if alone && let Some(Ok(file)) = per_file.first_mut() {
        if file.parts.len() == 1 && !a.parts {
            let part = file.parts.remove(0);
            let reports = methods
                .iter()
                .zip(&part.integrals)
                .map(|(m, u)| at.report_by(&part, m.name(), *u))
                .collect::<Result<Vec<_>>>()?;
            if let (Some(path), Some(mesh)) = (&a.plot, &part.mesh) {
                write_file(path, &inertia::report::svg::mesh(mesh, &reports[0]))?;
            }
            let mut out = if a.method == MeshChoice::All {
                let exact = methods.iter().map(|m| m.is_exact()).collect();
                let mut c = compare::meshes(reports, exact, tolerance);
                // United bodies: their sum beside the union, as `--overlap sum` gives it.
                if let Some(sum) = part.body.union.and_then(|u| u.sum) {
                    let unit = inertia::MeshIntegral {
                        properties: sum,
                        grid: None,
                    };
                    let what = "the bodies added as they are, the space they share counted twice";
                    c = c.with_beside("sum", what, at.report_by(&part, "sum", unit)?);
                }
                compared(c, output, &format!("mesh {}", part.name), &part.label)
            } else {
                lone(&reports[0], output)
            };
            out.warnings.splice(0..0, part.warning_lines(false));
            out.warnings.extend(notes);
            return Ok(out);
        }
        one_body_flags(file.parts.len(), one, ("body", "bodies"))?;
    }
    let parts: Vec<Result<MeshPart, FileError>> = per_file
        .into_iter()
        .flat_map(|r| match r {
            Ok(file) => file.parts.into_iter().map(Ok).collect::<Vec<_>>(),
            Err(e) => vec![Err(e)],
        })
        .collect();
    let mut warnings: Vec<String> = parts
        .iter()
        .filter_map(|r| r.as_ref().ok())
        .flat_map(|p| p.warning_lines(true))
        .collect();
    let mut out = at.outcome(parts, output, a.parts)?;
    warnings.append(&mut out.warnings);
    warnings.extend(notes);
    out.warnings = warnings;
    if let Some(s) = streaming {
        s.finish(&mut out)?;
    }
    Ok(out)
}

/// How a body's report is made: the density or mass (a part's own density, from its file,
/// wins), the point of the moments, the view, and the method's name (also `shape`'s, for
/// a solid, and a CAD file's tessellations').
pub(super) struct MeshAt {
    pub(super) amount: Amount,
    pub(super) view: View,
    pub(super) about: Option<Point3<f64>>,
    /// The name of the method of a batch's reports (the first asked; `closed-form` for a
    /// shape).
    pub(super) method: &'static str,
    /// Whether the parts were integrated as thin walls (`--shell`).
    pub(super) shell: bool,
}

impl MeshAt {
    /// The report of `body`, integrated as `unit` (for density 1), by this method, weighed
    /// with `amount`; not yet checked.
    fn unchecked(
        &self,
        name: &str,
        method: &'static str,
        body: Body,
        unit: MeshIntegral,
        amount: Amount,
    ) -> MeshReport {
        MeshReport::from_integral(name, method, body, unit, amount, self.about, &self.view)
    }

    /// The report named `name` of `body` integrated as `unit` (for density 1) by this
    /// method.
    pub(super) fn report_named(
        &self,
        name: &str,
        body: Body,
        unit: MeshIntegral,
    ) -> Result<MeshReport> {
        checked(
            name,
            self.unchecked(name, self.method, body, unit, self.amount),
        )
    }

    /// The report of `part` from its integral `unit` by the method named `method` (`brep`
    /// for a CAD solid, `shell` for a wall, whatever is asked).
    pub(super) fn report_by(
        &self,
        part: &MeshPart,
        method: &'static str,
        unit: MeshIntegral,
    ) -> Result<MeshReport> {
        let method = match (part.brep, self.shell) {
            (Some(_), _) => "brep",
            (None, true) => "shell",
            (None, false) => method,
        };
        // A part weighed with its own density from its file.
        let amount = part.density.map_or(self.amount, Amount::Density);
        let name = &part.name;
        let mut r = self.unchecked(name, method, part.body, unit, amount);
        r.tolerance = part.brep;
        r.color = part.color;
        r.material = part.material.clone();
        checked(name, r)
    }
}

impl Reporter for MeshAt {
    type File = MeshFile;
    type Part = MeshPart;
    type Report = MeshReport;

    fn report(&self, part: &MeshPart) -> Result<MeshReport> {
        self.report_by(part, self.method, part.integrals[0])
    }

    fn name(part: &MeshPart) -> &str {
        &part.name
    }

    /// Parts of their own densities: each weighed with its own (kg/m³ times volume in the
    /// input unit), the total reported with density 1 and then their mean.
    fn total(&self, parts: &[&MeshPart], name: &str) -> Result<MeshReport> {
        let t = MeshTotal::of(parts.iter().map(|g| {
            let mut t = MeshTotal::part(g.integrals[0].properties, g.body);
            if let Some(d) = g.density {
                t = t.with_density(d);
            }
            if let Some(b) = g.brep {
                t = t.with_tolerance(b);
            }
            t
        }))
        .context("no parts")?;
        let own = t.own_densities.then_some(1.0);
        let total = MeshPart {
            name: name.to_string(),
            label: name.to_string(),
            body: t.body,
            integrals: vec![t.integral()],
            mesh: None,
            warnings: vec![],
            brep: t.tolerance,
            color: None,
            material: None,
            density: own,
        };
        let mut r = self.report(&total)?;
        if own.is_some() {
            r.density = r.mass / r.volume;
        }
        Ok(r)
    }

    fn file_reports(&self, file: &MeshFile) -> Vec<Result<MeshReport, FileError>> {
        file.parts
            .iter()
            .map(|p| self.report(p).map_err(|e| failed(&p.name, e)))
            .collect()
    }
}

/// The amount the parts of `files` are weighed with: the flags' (`--density`, `--mass`,
/// `--material`; density 1 without them), else, once the unit is known, the density every
/// CAD part carries (or each part's own, when they all carry one and they differ); and the
/// note or warning that says which.
fn weigh(
    common: &Common,
    files: &mut [Result<MeshFile, FileError>],
) -> Result<(Amount, Vec<String>)> {
    let mut amount = common.amount(3, None)?;
    let given = common.density.is_some() || common.mass.is_some() || common.material.is_some();
    let mut notes = vec![];
    if !given && common.units.is_some() {
        let mut parts: Vec<&mut MeshPart> = files
            .iter_mut()
            .filter_map(|f| f.as_mut().ok())
            .flat_map(|f| f.parts.iter_mut())
            .collect();
        if let Some((density, note)) = file_density(&parts) {
            amount = Amount::Density(density);
            for p in &mut parts {
                if let Some(m) = &mut p.material {
                    m.density_used = true;
                }
            }
            notes.push(format!("note: {note}"));
        } else if let Some(note) = own_densities(&mut parts) {
            notes.push(format!("note: {note}"));
        } else if let Some(why) = file_density_left(&parts) {
            notes.push(format!("warning: {why}"));
        }
    }
    Ok((amount, notes))
}

/// Densities above this many kg/m³ (osmium, the densest element, is 22,590) are not taken
/// from a file: OpenCASCADE keeps a STEP density in g/cm³ and converts only millimetre-
/// and gram-based units, so one written in kg/m³ with SI units comes back 1000 times too
/// large.
const DENSEST: f64 = 23_000.0;

/// The density every CAD part of the command carries in its file, when they all carry the
/// same plausible one, with the note that says so.
fn file_density(parts: &[&mut MeshPart]) -> Option<(f64, String)> {
    let first = parts.first()?.material.as_ref()?;
    let density = first.density?;
    let same = parts.iter().all(|p| {
        p.material
            .as_ref()
            .is_some_and(|m| m.density == Some(density))
    });
    (same && density > 0.0 && density <= DENSEST).then(|| {
        let whose = if parts.len() == 1 {
            format!("{}'s material \"{}\"", parts[0].label, first.name)
        } else {
            format!("every part's material (\"{}\")", first.name)
        };
        (
            density,
            format!(
                "density {} kg/m^3 from {whose}; --density, --mass or --material overrides it",
                num(density)
            ),
        )
    })
}

/// When every CAD part carries a plausible density of its own and they differ: each part
/// is given its own, with the note that says so.
fn own_densities(parts: &mut [&mut MeshPart]) -> Option<String> {
    let all = parts.len() > 1
        && parts.iter().all(|p| {
            p.material
                .as_ref()
                .and_then(|m| m.density)
                .is_some_and(|d| d > 0.0 && d <= DENSEST)
        });
    if !all {
        return None;
    }
    for p in parts.iter_mut() {
        p.density = p.material.as_ref().and_then(|m| m.density);
        if let Some(m) = &mut p.material {
            m.density_used = true;
        }
    }
    Some(format!(
        "each of the {} parts weighed with its own material's density from its file; --density, --mass or --material overrides them",
        parts.len()
    ))
}

/// Why densities some CAD parts carry are not used, when they are not.
fn file_density_left(parts: &[&mut MeshPart]) -> Option<String> {
    let carried: Vec<&MeshPart> = parts
        .iter()
        .filter(|p| p.material.as_ref().is_some_and(|m| m.density.is_some()))
        .map(|p| &**p)
        .collect();
    let first = carried.first()?;
    let density = first.material.as_ref()?.density?;
    Some(if density > DENSEST || density <= 0.0 {
        format!(
            "{}: the file's density {} kg/m^3 (as OpenCASCADE reads it) is beyond any solid's and is not used: give --density, --mass or --material",
            first.label,
            num(density)
        )
    } else {
        format!(
            "the files' densities are not used: {} of {} parts carry one, not all the same; give --density, --mass or --material",
            carried.len(),
            parts.len()
        )
    })
}
