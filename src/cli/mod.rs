//! Command-line arguments and the glue from them to the library.

use crate::progress::Progress;
use anyhow::{Context, Result, bail};
use clap::{Args, Parser, Subcommand, ValueEnum};
use inertia::details::num;
use inertia::error::Parameter;
use inertia::io::{Bytes, MeshFormat, PolygonFormat};
use inertia::method::voxel::DEFAULT_RESOLUTION;
use inertia::read::{
    Format, ItemKind, Kind, MeshTotal, PolygonTotal, ReadOptions, Shapes, Warning,
};
use inertia::report::{
    Body, BoundingBox, FileError, MeshReport, Outline, OutputFormat, PolygonReport, View, compare,
    jsonl,
};
use inertia::shape::{Shape2d, Shape3d};
use inertia::units::{LengthUnit, Products, Units, material};
use inertia::{
    About, Amount, MeshIntegral, MeshMethod, Parts, PolygonIntegral, PolygonMethod, positive,
};
use nalgebra::{Point2, Point3};
use rayon::prelude::*;
use std::path::{Path, PathBuf};

mod args;
mod cad;
mod combine;
mod driver;
mod hints;
mod mesh;
mod options;
mod polygon;
mod shape;
pub mod sigbus;
pub use args::Cli;
use args::*;
use cad::*;
use combine::*;
use driver::*;
pub use hints::length_unit_tip;
use mesh::*;
use options::*;
use polygon::*;
use shape::*;

/// What a run produced: the text for stdout, warnings for stderr, and the exit code.
pub struct Outcome {
    /// Printed on stdout.
    pub stdout: String,
    /// Printed on stderr, one line each, before stdout.
    pub warnings: Vec<String>,
    /// 0, or 1 when `--method all` found the exact methods disagreeing.
    pub code: u8,
}

impl Outcome {
    fn ok(stdout: String) -> Self {
        Outcome {
            stdout,
            warnings: vec![],
            code: 0,
        }
    }
}

/// Runs the command.
/// An error and its causes on one line, as `{:#}` prints them but saying each reason
/// once: a cause whose message its parent's already ends with (an I/O error inside
/// "cannot read: ...") is not repeated.
/// A parse error read from a file prints `file: line 3: ...`, not the line twice.
/// The library's errors are worded by [`hints::message`], which names the flags that help.
pub fn reason(e: &anyhow::Error) -> String {
    let mut out = String::new();
    let mut last = String::new();
    for cause in e.chain() {
        let text = match hints::library_error(cause) {
            Some(e) => hints::message(e),
            None => cause.to_string(),
        };
        if !last.is_empty() && last.ends_with(&text) {
            continue;
        }
        if !out.is_empty() {
            out.push_str(": ");
        }
        out.push_str(&text);
        last = text;
    }
    out
}

/// Inputs of fewer bytes than this in all are worked on the main thread alone (about
/// 5,000 triangles of binary STL).
const SMALL_INPUT_BYTES: u64 = 1 << 18;

/// Works every parallel loop on the main thread when the input files are small (together
/// under [`SMALL_INPUT_BYTES`], none read from stdin, none compressed): a worker thread
/// handed a few microseconds of work costs a wake-up, which on a busy machine is a
/// scheduler slice of milliseconds, many times the work. Larger inputs, and 3MF packages
/// (zip: a few bytes may hold much work), keep one worker per core.
fn on_this_thread_if_small(files: &[std::path::PathBuf]) {
    let mut total = 0u64;
    for f in files {
        let zipped = f.extension().is_some_and(|e| e.eq_ignore_ascii_case("3mf"));
        match std::fs::metadata(f) {
            Ok(m) if m.is_file() && f.as_os_str() != "-" && !zipped => total += m.len(),
            _ => return,
        }
    }
    if total < SMALL_INPUT_BYTES {
        // Fails only if the pool exists already, and then it is kept.
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .use_current_thread()
            .build_global();
    }
}

pub fn run(cli: Cli) -> Result<Outcome> {
    MAX_INPUT_BYTES.get_or_init(|| cli.max_input_bytes);
    match &cli.command {
        Command::Polygon(a) => on_this_thread_if_small(&a.files),
        Command::Mesh(a) => on_this_thread_if_small(&a.files),
        _ => {}
    }
    match cli.command {
        Command::Polygon(a) => polygon(a),
        Command::Mesh(a) => mesh(a),
        Command::Shape { kind } => shape(kind),
        Command::Combine(a) => combine(a),
        Command::Completions { shell } => {
            let mut cmd = <Cli as clap::CommandFactory>::command();
            let mut buf = Vec::new();
            clap_complete::generate(shell, &mut cmd, "inertia", &mut buf);
            Ok(Outcome::ok(String::from_utf8_lossy(&buf).into_owned()))
        }
        Command::Manpage { command, shape } => {
            let mut cmd = <Cli as clap::CommandFactory>::command();
            cmd.build();
            // The page of `inertia`, of a command, or of one of `shape`'s shapes, each
            // named as the page above it refers to it (`inertia-shape-sphere(1)`).
            let mut page = cmd;
            let mut full = String::from("inertia");
            for name in command.iter().chain(&shape) {
                let Some(sub) = page.find_subcommand(name).cloned() else {
                    let known: Vec<&str> = page.get_subcommands().map(|c| c.get_name()).collect();
                    if known.is_empty() {
                        bail!(
                            "{full} has no pages below it (only `inertia manpage shape SHAPE` has)"
                        );
                    }
                    bail!(
                        "no page {name} under {full}; there are: {}",
                        known.join(", ")
                    );
                };
                full = format!("{full}-{name}");
                page = sub
                    .name(full.clone())
                    .display_name(full.clone())
                    .bin_name(full.clone());
            }
            let mut buf = Vec::new();
            clap_mangen::Man::new(page)
                .render(&mut buf)
                .context("cannot render the manual page")?;
            let page = String::from_utf8_lossy(&buf).into_owned();
            // Every page says what its exit codes mean, before its version.
            let page = match page.find(".SH VERSION") {
                Some(at) => format!("{}{EXIT_STATUS}{}", &page[..at], &page[at..]),
                None => page + EXIT_STATUS,
            };
            Ok(Outcome::ok(page))
        }
        Command::Materials { format, json } => Ok(Outcome::ok(materials(if json {
            OutputFormat::Json
        } else {
            format
        }))),
    }
}

/// The EXIT STATUS section of every manual page (roff).
const EXIT_STATUS: &str = r#".SH "EXIT STATUS"
.TP
\fB0\fR
Every input was read, checked and integrated; the results are on standard output.
.TP
\fB1\fR
With \fB\-\-method all\fR: the exact methods disagree by more than \fB\-\-tolerance\fR, or a CAD solid's tessellation differs from its B-rep by more than its chords allow (the comparison is still printed).
.TP
\fB2\fR
Bad input or flags: a malformed, open, inside-out or self-intersecting input, overlapping bodies, a value out of range. One line on standard error names the file and the place. A single input prints nothing on standard output; in a batch the other inputs' results are printed, and the exit code is 2 at the end.
"#;

/// An input read whole.
struct Input {
    /// Its bytes.
    bytes: Bytes,
    /// Its name in reports: the path as given, `-` for standard input.
    name: String,
    /// Its name in messages: the path, `<stdin>` for standard input.
    label: String,
}

/// Reads the file at `path` (`-`: standard input, up to `--max-input-bytes`); the error
/// names it ("FILE: cannot read: ...").
fn read_input(path: &Path) -> Result<Input> {
    let name = path.display().to_string();
    let label = if name == "-" {
        "<stdin>".to_string()
    } else {
        name.clone()
    };
    let bytes = Bytes::open_limited(path, max_input_bytes())
        .with_context(|| format!("{label}: cannot read"))?;
    Ok(Input { bytes, name, label })
}

/// The most bytes a file or standard input may hold (`--max-input-bytes`).
fn max_input_bytes() -> u64 {
    *MAX_INPUT_BYTES.get_or_init(|| inertia::io::DEFAULT_MAX_STREAM_BYTES)
}

/// A warning as printed (`warning: FILE: ...`): the library's words, with the flag that
/// would refuse what was left out (`--open error`, `--space model`) or keep it (`--shell`,
/// when `shell_hint`).
fn warning_line(label: &str, w: &Warning, shell_hint: bool) -> String {
    let text = match w {
        Warning::OpenPiecesLeftOut(_) => format!("{w} (--open error refuses them)"),
        Warning::PaperSpaceRead { .. } => format!("{w} (--space model refuses the drawing)"),
        Warning::ItemsLeftOut {
            kind: ItemKind::Surface,
            ..
        } if shell_hint => format!("{w} (--shell integrates it as a wall)"),
        Warning::LightDensity {
            density,
            unit,
            stated: true,
        } => format!(
            "--density {} is taken in kg/m³ (the file states its lengths in {}), lighter than foam; for g/cm³ write --density {}g/cm3",
            num(*density),
            unit.symbol(),
            num(*density)
        ),
        Warning::GeojsonLengths { crs } => format!(
            "GeoJSON coordinates read as lengths in --units, not as the degrees of longitude and latitude RFC 7946 says{}",
            crs.name()
                .map_or_else(String::new, |n| format!("; its crs names {n}"))
        ),
        w => w.to_string(),
    };
    format!("warning: {label}: {text}")
}

fn check_tolerance(t: f64) -> Result<f64> {
    if t.is_finite() && t >= 0.0 {
        Ok(t)
    } else {
        bail!("--tolerance must be a finite number >= 0, got {t}")
    }
}

/// The inputs: FILE arguments, then the names listed in --files-from.
fn gather_files(files: &[PathBuf], files_from: Option<&Path>) -> Result<Vec<PathBuf>> {
    let mut all = files.to_vec();
    if let Some(list) = files_from {
        let Input { bytes, label, .. } = read_input(list)?;
        let text = std::str::from_utf8(&bytes)
            .with_context(|| format!("{label}: not a text list of file names"))?;
        all.extend(
            text.lines()
                .map(str::trim)
                .filter(|l| !l.is_empty() && !l.starts_with('#'))
                .map(PathBuf::from),
        );
    }
    if all.is_empty() {
        bail!("no input: give a FILE, `-` for standard input, or --files-from LIST");
    }
    let stdin_uses = all.iter().filter(|p| p.as_os_str() == "-").count()
        + usize::from(files_from.is_some_and(|p| p.as_os_str() == "-"));
    if stdin_uses > 1 {
        bail!("standard input (`-`) can be read only once");
    }
    Ok(all)
}

/// The flags that need a single body, whether each was given.
#[derive(Clone, Copy, Debug)]
struct OneBody {
    /// `--mass` (one body's mass; a batch takes a density).
    mass: bool,
    /// `--method all` (a comparison of one body).
    all: bool,
    /// `--plot` (a drawing of one body).
    plot: bool,
}

/// Checks flags that make no sense for several inputs (`n` files, or a `--files-from`
/// list when `from_list`), or for the chosen output.
fn check_batch(n: usize, from_list: bool, one: OneBody, output: OutputFormat) -> Result<()> {
    // A list from --files-from is a batch however many files it names: its output keeps the
    // batch's shape, so what needs a lone file is refused rather than silently dropped.
    let (batch, what) = match (n, from_list) {
        (1, false) => (false, ""),
        (_, true) => (true, "a --files-from list"),
        _ => (true, "several files"),
    };
    if batch && one.all {
        bail!("--method all compares methods on one file named on the command line, not {what}");
    }
    if batch && one.mass {
        bail!("--mass is ambiguous for {what}; give --density or --material");
    }
    if batch && one.plot {
        bail!("--plot draws one body from one file named on the command line, not {what}");
    }
    if one.all && matches!(output, OutputFormat::Csv | OutputFormat::Jsonl) {
        bail!("--method all prints a table or JSON");
    }
    Ok(())
}

/// Refuses the flags that need one body (`flags`) for a file read as `count` parts (one when
/// `--parts` asked for the shape of several); `noun` names one body and several
/// ("polygon", "parts").
fn one_body_flags(count: usize, flags: OneBody, noun: (&str, &str)) -> Result<()> {
    let OneBody { mass, all, plot } = flags;
    let (one, many) = noun;
    if mass && count > 1 {
        bail!(
            "--mass gives one body its mass, but this file holds {count} {many}: give --density (or --material) instead"
        );
    }
    if all {
        if count == 1 {
            bail!("--method all prints a comparison of one {one}, not --parts");
        }
        bail!("--method all compares methods on one {one}; this file holds {count}");
    }
    if plot {
        if count == 1 {
            bail!("--plot draws one {one}: leave out --parts");
        }
        bail!("--plot draws one {one}; this file holds {count}");
    }
    Ok(())
}

/// Each file's result, or why it failed.
type Rows<T> = Vec<Result<T, FileError>>;

/// The input (or part) `source` refused by `e`: the line printed ([`reason`]) and the
/// library's typed error, when `e` is one (or one with a context).
fn failed(source: &str, e: anyhow::Error) -> FileError {
    let message = reason(&e);
    FileError {
        source: source.to_string(),
        error: e.downcast::<inertia::Error>().ok().map(std::sync::Arc::new),
        message,
    }
}

/// A file read and the length unit it states, for [`Common::adopt_units`].
#[derive(Clone, Debug)]
struct StatedUnit {
    /// The file's name in messages.
    name: String,
    /// The unit it states, if any (3MF `unit`, DXF `$INSUNITS`, STEP).
    unit: Option<LengthUnit>,
}

/// Each file read and the unit it states.
type Stated = Vec<StatedUnit>;

/// The most triangles `shape --mesh-out` writes: 5·10⁷ (2.5 GB of binary STL, about 12 GB of
/// ASCII).
const MAX_WRITTEN_TRIANGLES: f64 = 5e7;

/// `report` if every number in it is finite and nothing underflowed (see
/// [`inertia::report::check_numbers`]); else an error naming `name` and the field.
fn checked<R: serde::Serialize>(name: &str, report: R) -> Result<R> {
    match inertia::report::check_numbers(&report) {
        Ok(()) => Ok(report),
        Err(e) => bail!("{name}: {e}"),
    }
}

fn write_file(path: &Path, text: &str) -> Result<()> {
    std::fs::write(path, text).with_context(|| format!("{}: cannot write", path.display()))
}

fn materials(format: OutputFormat) -> String {
    use inertia::units::MATERIALS;
    match format {
        OutputFormat::Csv => {
            let mut w = ::csv::Writer::from_writer(Vec::new());
            let _ = w.write_record(["material", "density_kg_m3", "source"]);
            for m in MATERIALS {
                let density = inertia::details::shortest(m.density);
                let _ = w.write_record([m.name, &density, m.source]);
            }
            String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
        }
        OutputFormat::Json => inertia::report::json::materials(MATERIALS),
        // One object per line, versioned, as every other --format jsonl.
        OutputFormat::Jsonl => inertia::report::jsonl::materials(MATERIALS),
        OutputFormat::Table => {
            let mut s = String::from("material        density kg/m³  source\n");
            for m in MATERIALS {
                s += &format!("{:<15} {:>13}  {}\n", m.name, num(m.density), m.source);
            }
            s
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use inertia::error::Missing;

    #[test]
    fn a_failed_file_keeps_the_library_error_and_the_line_printed() {
        let empty = inertia::Error::Empty {
            missing: Missing::Bytes,
        };
        let words = empty.to_string();
        let e = failed("a.stl", anyhow::Error::new(empty).context("a.stl"));
        assert_eq!(e.source, "a.stl");
        assert_eq!(e.message, format!("a.stl: {words}"));
        assert!(matches!(
            e.error.as_deref(),
            Some(inertia::Error::Empty { .. })
        ));
        // A refusal of the command line's own has no library error.
        let e = failed("b.json", anyhow::anyhow!("b.json: the input is empty"));
        assert!(e.error.is_none());
        assert_eq!(e.message, "b.json: the input is empty");
    }
}
