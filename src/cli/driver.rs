//! The one batch driver of `mesh` and `polygon`: a file's parts reported (as JSON Lines while
//! the batch is read, when they can be), then every part, the total and the errors. What
//! differs between meshes and polygons is a [`Reporter`].

use super::*;

/// How a command reports its parts, once the amount (density or mass), the point of the
/// moments and the view are known: what differs between `mesh` and `polygon` in a batch.
pub(super) trait Reporter: Sync {
    /// A file read, before its parts are reported.
    type File: Send;
    /// One part of a batch.
    type Part;
    /// A part's report (and the total's).
    type Report: serde::Serialize + Clone;

    /// The report of one part.
    fn report(&self, part: &Self::Part) -> Result<Self::Report>;

    /// A part's name in reports and messages.
    fn name(part: &Self::Part) -> &str;

    /// The report of several parts taken together, named `name`.
    fn total(&self, parts: &[&Self::Part], name: &str) -> Result<Self::Report>;

    /// The reports of a file's parts (as a batch gives them), each or its failure.
    fn file_reports(&self, file: &Self::File) -> Vec<Result<Self::Report, FileError>>;

    /// A report as a table.
    fn table(r: &Self::Report) -> String;

    /// Reports, failures and the total as CSV.
    fn csv(rows: &[Result<Self::Report, FileError>], total: Option<&Self::Report>) -> String;

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
        Ok(batch_outcome(output, rows, total, Self::table, Self::csv))
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
