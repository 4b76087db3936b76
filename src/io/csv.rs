//! Polygons as delimited text: one point per line.
//!
//! `x,y` or `x y` (commas, or runs of spaces and tabs), `#` starts a comment, blank lines are
//! skipped. The first data line may be a header: if it names columns `x` and `y` those are
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
    let mut columns: Option<(usize, usize, usize)> = None; // (x, y, count) once known
    let mut outer = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let lineno = i + 1;
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let fields: Vec<&str> = if line.contains(',') {
            line.split(',').map(str::trim).collect()
        } else {
            line.split_whitespace().collect()
        };
        let place = || format!("line {lineno}");
        let (xi, yi, count) = match columns {
            Some(c) => c,
            None => {
                if fields.iter().all(|f| f.parse::<f64>().is_err()) {
                    columns = Some(header(&fields).map_err(|m| Error::parse(place(), m))?);
                    continue;
                }
                if fields.len() != 2 {
                    return Err(Error::parse(
                        place(),
                        format!("expected 2 columns (x, y), found {}", fields.len()),
                    ));
                }
                *columns.insert((0, 1, 2))
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
        outer.push([cell(xi, "x")?, cell(yi, "y")?]);
    }
    Ok(PolygonRings {
        outer,
        holes: vec![],
        arcs: vec![],
        max_deviation: None,
    })
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
    }
}
