//! What every command does with its reports: one report printed alone ([`lone`]: `shape`,
//! `combine`, a lone file of `mesh` or `polygon`), a comparison judged ([`judged`]:
//! `--method all`, a CAD file's tessellations), and the one batch driver of `mesh` and
//! `polygon`: a file's parts reported (as JSON Lines while the batch is read, when they can
//! be), then every part, the total and the errors. What differs between meshes and
//! polygons is a [`Reporter`]; how a report reads in each output format is [`Printed`].

use super::*;

/// A report a command prints (a polygon's or a mesh's), in each output format.
pub(super) trait Printed: serde::Serialize + Clone {
    /// The report alone in `format`: a table, a JSON object, a CSV header and row, a JSON
    /// Lines line.
    fn print(&self, format: OutputFormat) -> String;

    /// Reports, failures and the total as CSV (the total last, as a row like the others).
    fn csv(rows: &[Result<Self, FileError>], total: Option<&Self>) -> String;
}

impl Printed for PolygonReport {
    fn print(&self, format: OutputFormat) -> String {
        format.polygon(self)
    }

    fn csv(rows: &[Result<Self, FileError>], total: Option<&Self>) -> String {
        inertia::report::csv::polygons(rows, total)
    }
}

impl Printed for MeshReport {
    fn print(&self, format: OutputFormat) -> String {
        format.mesh(self)
    }

    fn csv(rows: &[Result<Self, FileError>], total: Option<&Self>) -> String {
        inertia::report::csv::meshes(rows, total)
    }
}

/// One report printed alone on stdout, exit code 0: what `shape` and `combine` print, and
/// `mesh` and `polygon` for a lone file of one part.
pub(super) fn lone<R: Printed>(report: &R, format: OutputFormat) -> Outcome {
    Outcome::ok(report.print(format))
}

/// A comparison printed (`stdout`), judged: when `disagreement` says why the results
/// disagree, exit code 1 with that line as a warning (the comparison is still printed).
pub(super) fn judged(stdout: String, disagreement: Option<String>) -> Outcome {
    let mut out = Outcome::ok(stdout);
    if let Some(why) = disagreement {
        out.code = 1;
        out.warnings.push(why);
    }
    out
}

/// The outcome of `--method all` on a lone file (`label` in messages): a table (titled
/// `title`) or JSON, exit code 1 when the exact methods disagree.
pub(super) fn compared<R: serde::Serialize>(
    c: compare::Comparison<R>,
    format: OutputFormat,
    title: &str,
    label: &str,
) -> Outcome {
    let stdout = match format {
        OutputFormat::Json | OutputFormat::Jsonl | OutputFormat::Csv => c.json(),
        OutputFormat::Table => c.table(title),
    };
    let why = (!c.agree).then(|| {
        format!(
            "{label}: the exact methods disagree by {:.1e} (tolerance {:.0e})",
            c.max_exact_spread, c.tolerance
        )
    });
    judged(stdout, why)
}

/// The output of a batch: each part's report (or its file's failure), the total, and the
/// failures as warnings with exit code 2.
fn batch_outcome<R: Printed>(
    format: OutputFormat,
    rows: Vec<Result<R, FileError>>,
    total: Option<R>,
) -> Outcome {
    // Each message already names its file.
    let errors: Vec<String> = rows
        .iter()
        .filter_map(|r| r.as_ref().err())
        .map(|e| e.message.clone())
        .collect();
    let stdout = match format {
        OutputFormat::Csv => R::csv(&rows, total.as_ref()),
        OutputFormat::Jsonl => inertia::report::jsonl::lines(&rows),
        OutputFormat::Json => inertia::report::json::batch(&rows, total.as_ref()),
        OutputFormat::Table => {
            let mut s = String::new();
            for r in rows.iter().filter_map(|r| r.as_ref().ok()) {
                s += &r.print(OutputFormat::Table);
                s.push('\n');
            }
            if let Some(t) = &total {
                s += &t.print(OutputFormat::Table);
            }
            s
        }
    };
    Outcome {
        stdout,
        code: if errors.is_empty() { 0 } else { 2 },
        warnings: errors,
    }
}

/// How a command reports its parts, once the amount (density or mass), the point of the
/// moments and the view are known: what differs between `mesh` and `polygon` in a batch.
pub(super) trait Reporter: Sync {
    /// A file read, before its parts are reported.
    type File: Send;
    /// One part of a batch.
    type Part;
    /// A part's report (and the total's).
    type Report: Printed;

    /// The report of one part.
    fn report(&self, part: &Self::Part) -> Result<Self::Report>;

    /// A part's name in reports and messages.
    fn name(part: &Self::Part) -> &str;

    /// The report of several parts taken together, named `name`.
    fn total(&self, parts: &[&Self::Part], name: &str) -> Result<Self::Report>;

    /// The reports of a file's parts (as a batch gives them), each or its failure.
    fn file_reports(&self, file: &Self::File) -> Vec<Result<Self::Report, FileError>>;

    /// The JSON Lines of a file read, or of its failure.
    fn lines(&self, file: &Result<Self::File, FileError>) -> String {
        match file {
            Ok(file) => self
                .file_reports(file)
                .iter()
                .map(|r| jsonl::line(r.as_ref()))
                .collect(),
            Err(e) => jsonl::line::<Self::Report>(Err(e)),
        }
    }

    /// The output of a batch's parts (each, or the failure of its file): each part's
    /// report, the total when there are several parts (or `--parts`; none in JSON Lines),
    /// and the failures as warnings with exit code 2.
    fn outcome(
        &self,
        parts: Vec<Result<Self::Part, FileError>>,
        output: OutputFormat,
        as_parts: bool,
    ) -> Result<Outcome> {
        let rows: Vec<Result<Self::Report, FileError>> = parts
            .iter()
            .map(|r| match r {
                Ok(p) => self.report(p).map_err(|e| failed(Self::name(p), e)),
                Err(e) => Err(e.clone()),
            })
            .collect();
        let good: Vec<&Self::Part> = parts.iter().filter_map(|r| r.as_ref().ok()).collect();
        // JSON Lines print no total.
        let wants_total = output != OutputFormat::Jsonl && (good.len() > 1 || as_parts);
        let total = if wants_total && !good.is_empty() {
            let n = good.len();
            let name = format!("total of {n} part{}", if n == 1 { "" } else { "s" });
            Some(self.total(&good, &name)?)
        } else {
            None
        };
        Ok(batch_outcome(output, rows, total))
    }
}

/// JSON Lines written as the files of a batch are read, by the reporter made before any
/// is read (its amount and view needing no unit from the files).
pub(super) struct Streaming<R> {
    lines: LineStream,
    reporter: R,
}

impl<R: Reporter> Streaming<R> {
    /// Streams with `reporter` when `stream` (else `None`, and the batch prints at the end).
    pub(super) fn new(stream: bool, reporter: impl FnOnce() -> Result<R>) -> Result<Option<Self>> {
        Ok(if stream {
            Some(Streaming {
                lines: LineStream::new(),
                reporter: reporter()?,
            })
        } else {
            None
        })
    }

    /// Writes file `k`'s lines (once those before it are written).
    pub(super) fn put(&self, k: usize, file: &Result<R::File, FileError>) {
        self.lines.put(k, self.reporter.lines(file));
    }

    /// Ends the stream; the batch's output is then already printed.
    pub(super) fn finish(self, out: &mut Outcome) -> Result<()> {
        self.lines.finish()?;
        out.stdout.clear();
        Ok(())
    }
}

/// Reads a batch's files ([`read_batch`]), writing each file's JSON Lines as it is read
/// when `streaming`.
pub(super) fn read_files<R: Reporter>(
    files: &[PathBuf],
    noun: &str,
    read: impl Fn(&PathBuf) -> Result<R::File> + Sync,
    unit: impl Fn(&R::File) -> Option<LengthUnit>,
    streaming: &Option<Streaming<R>>,
) -> (Rows<R::File>, Stated) {
    read_batch(files, noun, read, unit, |k, file| {
        if let Some(s) = streaming {
            s.put(k, file);
        }
    })
}

/// Reads several files on every core (a progress bar counting `noun`), each to its result
/// or its file's name and message; and the unit each file that was read states, for
/// [`Common::adopt_units`]. `done` is called with each file's position and result as soon
/// as it is read (on the thread that read it).
pub(super) fn read_batch<T: Send>(
    files: &[PathBuf],
    noun: &str,
    read: impl Fn(&PathBuf) -> Result<T> + Sync,
    unit: impl Fn(&T) -> Option<LengthUnit>,
    done: impl Fn(usize, &Result<T, FileError>) + Sync,
) -> (Rows<T>, Stated) {
    let progress = Progress::start(Some(files.len() as u64), noun.into());
    let per_file: Rows<T> = files
        .par_iter()
        .enumerate()
        .map(|(k, p)| {
            let r = read(p).map_err(|e| failed(&p.display().to_string(), e));
            done(k, &r);
            progress.inc();
            r
        })
        .collect();
    drop(progress);
    let stated = files
        .iter()
        .zip(&per_file)
        .filter_map(|(p, r)| {
            r.as_ref().ok().map(|f| StatedUnit {
                name: p.display().to_string(),
                unit: unit(f),
            })
        })
        .collect();
    (per_file, stated)
}

/// Lines printed on stdout as they come, in the order of their positions: the text of
/// position k is written once every position before it has been (JSON Lines of a batch,
/// each file's lines as soon as it and the files before it are read).
struct LineStream {
    state: std::sync::Mutex<StreamState>,
}

#[derive(Default)]
struct StreamState {
    /// The next position to write.
    next: usize,
    /// Texts that came before their turn.
    waiting: std::collections::BTreeMap<usize, String>,
    /// The reader left (`| head`): nothing more is written, and that is not an error.
    closed: bool,
    /// A write that failed otherwise.
    failed: Option<std::io::Error>,
}

impl LineStream {
    fn new() -> Self {
        LineStream {
            state: Default::default(),
        }
    }

    /// The text of position `k`; writes it and every text waiting after it, in order.
    fn put(&self, k: usize, text: String) {
        use std::io::Write;
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        s.waiting.insert(k, text);
        let mut out = std::io::stdout().lock();
        while let Some(text) = {
            let next = s.next;
            s.waiting.remove(&next)
        } {
            s.next += 1;
            if s.closed || s.failed.is_some() {
                continue;
            }
            match out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => s.closed = true,
                Err(e) => s.failed = Some(e),
            }
        }
    }

    /// Ends the stream: an error if a write failed (other than the reader leaving).
    fn finish(self) -> Result<()> {
        let s = self.state.into_inner().unwrap_or_else(|e| e.into_inner());
        match s.failed {
            Some(e) => bail!("cannot write output: {e}"),
            None => Ok(()),
        }
    }
}
