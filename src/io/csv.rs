//! Polygons as delimited text: one point per line.
//!
//! `x,y`, `x;y` or `x y` (commas, semicolons, or runs of spaces and tabs), `#` starts a
//! comment, blank lines are skipped. Semicolons (a spreadsheet's export in much of Europe)
//! are told from the first data line: one with a semicolon and no comma makes every line
//! split at semicolons. A first line of one cell holding another separator (`x|y`) is
//! refused, naming it. The first data line may be a header: if it names columns `x` and `y` those are
//! used (other columns are ignored); a two-column header of other names is taken as x, y.
//! Every cell must be a finite number; the error gives the line.
//!
//! This is a line reader of its own rather than the `csv` crate: the format mixes comma and
//! whitespace separators and comments, which that crate does not read, and a line split is
//! faster than a general CSV state machine on million-point files.

use super::PolygonRings;
use crate::error::{Error, Result, clip};

/// Parses delimited text into the outer ring.
///
/// # Errors
/// [`Error::Parse`] naming the line of a malformed or non-finite
/// number, or a row that is not two coordinates.
///
/// # Examples
/// ```
/// let r = inertia::io::csv::parse(b"# section\nid,x,y\n1,0,0\n2,3,0\n3,0,4\n")?;
/// assert_eq!(r.outer, vec![[0.0, 0.0], [3.0, 0.0], [0.0, 4.0]]);
/// # Ok::<(), inertia::Error>(())
/// ```
pub fn parse(bytes: &[u8]) -> Result<PolygonRings> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let text = super::text(bytes)?;
    let outer = match parallel(text) {
        Some(outer) => outer,
        None => {
            let mut columns = None;
            let mut outer = Vec::new();
            for (i, raw) in text.lines().enumerate() {
                if let Some(p) = line(raw, i + 1, &mut columns)? {
                    outer.push(p);
                }
            }
            outer
        }
    };
    Ok(PolygonRings {
        outer,
        holes: vec![],
        arcs: vec![],
        max_deviation: None,
    })
}

/// Columns x and y, how many there are, and whether cells are split at semicolons, once
/// the first data line has said.
type Columns = Option<(usize, usize, usize, bool)>;

/// Texts from this size up are read in pieces on every core.
const PARALLEL_FROM: usize = 1 << 20;

/// A large text read in pieces cut at line ends, on every core: the first piece alone
/// (its first data line decides the columns), then the others with those columns. Any
/// error gives `None`, and the text is read line by line to name the line.
fn parallel(text: &str) -> Option<Vec<[f64; 2]>> {
    use rayon::prelude::*;
    if text.len() < PARALLEL_FROM {
        return None;
    }
    let pieces = (rayon::current_num_threads() * 4).clamp(2, 64);
    let bytes = text.as_bytes();
    let mut cuts = vec![0];
    for k in 1..pieces {
        let from = (text.len() * k / pieces).max(*cuts.last()?);
        // Just after a line end: each piece's lines are the whole text's lines.
        let Some(nl) = bytes[from..].iter().position(|&b| b == b'\n') else {
            break;
        };
        cuts.push(from + nl + 1);
    }
    cuts.push(text.len());
    let mut columns = None;
    let mut first = Vec::new();
    for raw in text[..cuts[1]].lines() {
        first.extend(line(raw, 0, &mut columns).ok()?);
    }
    columns?;
    let rest: Vec<Option<Vec<[f64; 2]>>> = cuts[1..]
        .par_windows(2)
        .map(|w| {
            let mut columns = columns;
            let piece = &text[w[0]..w[1]];
            let mut out = Vec::with_capacity(piece.len() / 16);
            for raw in piece.lines() {
                out.extend(line(raw, 0, &mut columns).ok()?);
            }
            Some(out)
        })
        .collect();
    let total = first.len()
        + rest
            .iter()
            .map(|p| p.as_ref().map_or(0, Vec::len))
            .sum::<usize>();
    let mut outer = Vec::with_capacity(total);
    outer.extend(first);
    for p in rest {
        outer.extend(p?);
    }
    Some(outer)
}

/// One line (number `lineno`, for messages): a point, or nothing (blank, a comment, the
/// header, which sets the columns).
fn line(raw: &str, lineno: usize, columns: &mut Columns) -> Result<Option<[f64; 2]>> {
    let line = raw.split('#').next().unwrap_or("").trim();
    if line.is_empty() {
        return Ok(None);
    }
    // The first data line tells semicolons; later lines follow it.
    let semicolons = match *columns {
        Some((.., s)) => s,
        None => line.contains(';') && !line.contains(','),
    };
    let fields: Vec<&str> = if semicolons {
        line.split(';').map(str::trim).collect()
    } else if line.contains(',') {
        line.split(',').map(str::trim).collect()
    } else {
        line.split_whitespace().collect()
    };
    let place = || crate::error::Place::line(lineno);
    let (xi, yi, count, _) = match *columns {
        Some(c) => c,
        None => {
            if let (1, Some(c)) = (fields.len(), separator(line)) {
                return Err(Error::parse(
                    place(),
                    format!(
                        "cells separated by '{c}': inertia reads commas, semicolons, tabs or spaces between them"
                    ),
                ));
            }
            if fields.iter().all(|f| f.parse::<f64>().is_err()) {
                let (x, y, n) = header(&fields).map_err(|m| Error::parse(place(), m))?;
                *columns = Some((x, y, n, semicolons));
                return Ok(None);
            }
            if fields.len() != 2 {
                return Err(Error::parse(
                    place(),
                    format!("expected 2 columns (x, y), found {}", fields.len()),
                ));
            }
            *columns.insert((0, 1, 2, semicolons))
        }
    };
    if fields.len() != count {
        return Err(Error::parse(
            place(),
            format!(
                "expected {count} columns like the first line, found {}",
                fields.len()
            ),
        ));
    }
    let cell = |k: usize, name: &str| -> Result<f64> {
        let s = fields[k];
        match s.parse::<f64>() {
            Ok(v) if v.is_finite() => Ok(v),
            Ok(_) => Err(Error::parse(
                place(),
                format!("{name} = {} is not a finite number", clip(s)),
            )),
            Err(_) => Err(Error::parse(
                place(),
                format!("{name} = \"{}\" is not a number", clip(s)),
            )),
        }
    };
    Ok(Some([cell(xi, "x")?, cell(yi, "y")?]))
}

/// A character in a line of one cell that looks like a separator inertia does not read
/// (`|`, `:`, `/`...): punctuation that is no part of a number or a quoted name.
fn separator(line: &str) -> Option<char> {
    line.chars()
        .find(|c| c.is_ascii_punctuation() && !".-+_\"'()".contains(*c))
}

/// Column indices of x and y from a header line.
fn header(fields: &[&str]) -> std::result::Result<(usize, usize, usize), String> {
    let name = |f: &str| {
        f.trim_matches(|c| c == '"' || c == '\'')
            .to_ascii_lowercase()
    };
    let find = |want: &str| fields.iter().position(|f| name(f) == want);
    match (find("x"), find("y")) {
        (Some(x), Some(y)) => Ok((x, y, fields.len())),
        _ if fields.len() == 2 => Ok((0, 1, 2)),
        _ => Err(format!(
            "header has {} columns but none named \"x\" and \"y\" (or a cell is not a number)",
            fields.len()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(s: &str) -> String {
        parse(s.as_bytes()).unwrap_err().to_string()
    }

    #[test]
    fn separators_headers_comments() {
        let want = vec![[0.0, 0.0], [1.5, 0.0], [1.5, -2.0]];
        for s in [
            "0,0\n1.5,0\n1.5,-2\n",
            "x,y\n0,0\n1.5, 0\n1.5 , -2",
            "# a comment\n\n0 0\n1.5\t0   # trailing\r\n 1.5 -2\n",
            "\"X\",\"Y\"\n0,0\n1.5,0\n1.5,-2\n",
            "east north\n0 0\n1.5 0\n1.5 -2\n",
            "y,x,z\n0,0,9\n0,1.5,9\n-2,1.5,9\n",
            "X;Y;Z\n0;0;1\n1.5;0;1\n1.5;-2;1\n",
            "0; 0\n1.5 ;0\n1.5;-2\n",
            "x\ty\n0\t0\n1.5\t0\n1.5\t-2\n",
        ] {
            assert_eq!(parse(s.as_bytes()).unwrap().outer, want, "{s:?}");
        }
    }

    #[test]
    fn bad_cells_name_the_line() {
        assert_eq!(err("0,0\n1,zz\n"), "line 2: y = \"zz\" is not a number");
        assert_eq!(
            err("0,0\n\n1,nan\n"),
            "line 3: y = nan is not a finite number"
        );
        assert_eq!(err("0,0,0\n"), "line 1: expected 2 columns (x, y), found 3");
        assert_eq!(
            err("0,0\n1,2,3\n"),
            "line 2: expected 2 columns like the first line, found 3"
        );
        assert!(err("a,b,c\n1,2,3\n").starts_with("line 1: header has 3 columns"));
        // A first line with one number is data, not a header to skip.
        assert_eq!(err("1,zz\n"), "line 1: y = \"zz\" is not a number");
        assert_eq!(err("0,0\n\u{1}\n").split(':').next(), Some("line 2"));
        assert_eq!(
            parse(b"\xff\xfe").unwrap_err().to_string(),
            "line 1: not text (invalid UTF-8)"
        );
        assert_eq!(parse(b"# only a comment\n").unwrap().outer.len(), 0);
        // A separator inertia does not read is named.
        assert_eq!(
            err("x|y\n0|0\n"),
            "line 1: cells separated by '|': inertia reads commas, semicolons, tabs or spaces between them"
        );
        // Semicolons told from the first line: a later comma line is then one bad cell.
        assert_eq!(err("0;0\n1,5;0\n"), "line 2: x = \"1,5\" is not a number");
    }

    #[test]
    fn large_texts_read_in_pieces_as_line_by_line() {
        let mut text = String::from("# survey\nid,x,y\n");
        let mut want = Vec::new();
        for k in 0..60_000 {
            let p = [1e6 + (k as f64 * 0.618).sin(), -3.5e-7 * k as f64];
            text.push_str(&format!("{k}, {:?},{:e}\n", p[0], p[1]));
            if k % 1000 == 7 {
                text.push_str("\n# a comment\r\n");
            }
            want.push(p);
        }
        assert!(text.len() > PARALLEL_FROM);
        let fast = parallel(&text).expect("a clean text is read in pieces");
        assert_eq!(fast.len(), want.len());
        for (a, b) in fast.iter().zip(&want) {
            assert_eq!(
                (a[0].to_bits(), a[1].to_bits()),
                (b[0].to_bits(), b[1].to_bits())
            );
        }
        assert_eq!(parse(text.as_bytes()).unwrap().outer, fast);
        // An error deep in the text is named by its line, as when read line by line.
        let bad = text.replacen("40000, ", "40000, zz", 1);
        let line = bad[..bad.find("zz").unwrap()].matches('\n').count() + 1;
        assert!(parallel(&bad).is_none());
        assert!(
            err(&bad).starts_with(&format!("line {line}: x = \"zz")),
            "{}",
            err(&bad)
        );
    }
}
