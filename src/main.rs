//! The `inertia` command: parses arguments, runs, prints. All the work is in the library.

mod cli;
mod progress;

use clap::Parser;
use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    // A mapped input truncated by another program: one line and exit 2, not SIGBUS.
    cli::sigbus::catch_truncation();
    let args = match cli::Cli::try_parse() {
        Ok(a) => a,
        Err(e) => {
            use clap::error::{ContextKind, ErrorKind};
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                let _ = e.print();
                return ExitCode::SUCCESS;
            }
            if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                let _ = e.print();
                return ExitCode::from(2);
            }
            // One line: clap's first line names the problem; the usage block is noise in a log.
            // clap's first paragraph names the problem; fold it onto one line.
            let text = e.render().to_string();
            let first: Vec<&str> = text
                .lines()
                .take_while(|l| !l.trim().is_empty())
                .map(str::trim)
                .collect();
            let first = first.join(" ");
            let first = first.strip_prefix("error: ").unwrap_or(&first);
            // clap's tips ("a similar argument exists: '--density'") are kept, on the line.
            let tips: Vec<&str> = text
                .lines()
                .map(str::trim)
                .filter_map(|l| l.strip_prefix("tip: "))
                .collect();
            let mut tips: String = tips.iter().map(|t| format!("; {t}")).collect();
            // A length unit: clap's near value may be one of another size ("mil" for
            // "milimeter"); the tip names the closest spelling with its size.
            if let (ErrorKind::InvalidValue, Some(arg), Some(value)) = (
                e.kind(),
                e.get(ContextKind::InvalidArg),
                e.get(ContextKind::InvalidValue),
            ) && ["--units", "--output-units"]
                .iter()
                .any(|flag| arg.to_string().starts_with(&format!("{flag} ")))
            {
                tips = cli::length_unit_tip(&value.to_string())
                    .map_or_else(String::new, |t| format!("; {t}"));
            }
            eprintln!("inertia: {first}{tips} (see --help)");
            return ExitCode::from(2);
        }
    };
    match cli::run(args) {
        Ok(outcome) => {
            for w in &outcome.warnings {
                eprintln!("inertia: {}", inertia::details::tidy_numbers(w));
            }
            let mut out = std::io::stdout().lock();
            match out
                .write_all(outcome.stdout.as_bytes())
                .and_then(|_| out.flush())
            {
                Ok(()) => ExitCode::from(outcome.code),
                // `inertia ... | head`: the reader left; that is not an error.
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
                    ExitCode::from(outcome.code)
                }
                Err(e) => {
                    eprintln!("inertia: cannot write output: {e}");
                    ExitCode::from(2)
                }
            }
        }
        Err(e) => {
            // One line, each reason once, numbers to 12 significant digits (1e300 is not
            // 301 digits).
            let msg = inertia::details::tidy_numbers(&cli::reason(&e));
            eprintln!("inertia: {}", msg.replace('\n', " "));
            ExitCode::from(2)
        }
    }
}
