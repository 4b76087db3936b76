//! ASCII STL: a sequential reader that explains every surprise by line, and a parallel one
//! over chunks split at `facet` lines for files that have none.

use super::*;

/// The corners of an ASCII STL's facets: read in parallel chunks (each starting at a
/// `facet` line), or, at the first surprise, by the sequential reader, which explains it.
pub(super) fn ascii_points(bytes: &[u8]) -> Result<Corners> {
    use rayon::prelude::*;
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    // Old Mac line ends (CR alone): read as line feeds.
    let unix;
    let bytes = if bytes.contains(&b'\r') && !bytes.contains(&b'\n') {
        unix = bytes
            .iter()
            .map(|&b| if b == b'\r' { b'\n' } else { b })
            .collect::<Vec<u8>>();
        &unix[..]
    } else {
        bytes
    };
    let cuts = crate::io::scan::split(bytes, |l| crate::io::scan::first_word_is(l, b"facet"));
    let chunks: Option<Vec<AsciiChunk>> = cuts
        .par_windows(2)
        .enumerate()
        .map(|(k, w)| ascii_chunk(&bytes[w[0]..w[1]], k > 0))
        .collect();
    let consistent = |c: &[AsciiChunk]| {
        // Every chunk but the last ends inside a solid (the next starts at a facet); the
        // last ends outside one, and there was a solid.
        c.iter().rev().skip(1).all(|c| c.inside)
            && c.last().is_some_and(|c| !c.inside)
            && c.iter().any(|c| c.solids > 0)
    };
    match chunks {
        Some(c) if consistent(&c) => {
            let mut out = Corners {
                points: Vec::with_capacity(c.iter().map(|c| c.points.len()).sum()),
                unread_normals: None,
            };
            for c in c {
                let before = out.points.len() / 3;
                out.points.extend_from_slice(&c.points);
                out.unread_normals = Unread::add(out.unread_normals, c.unread_normals, before);
            }
            Ok(out)
        }
        _ => parse_ascii_points(bytes),
    }
}

/// The corners of an ASCII STL's facets, three per triangle, and the facets whose normal
/// is not three finite numbers.
#[derive(Debug, PartialEq)]
pub(crate) struct Corners {
    pub(crate) points: Vec<[f64; 3]>,
    pub(crate) unread_normals: Option<Unread>,
}

/// Facets whose normal is not three finite numbers (read past: normals are not used).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Unread {
    /// How many.
    pub(crate) count: usize,
    /// The first, counted from 0.
    pub(crate) first: usize,
}

impl Unread {
    /// One more facet, `facet`, whose normal is not read.
    fn one(seen: Option<Unread>, facet: usize) -> Option<Unread> {
        Some(match seen {
            Some(u) => Unread {
                count: u.count + 1,
                ..u
            },
            None => Unread {
                count: 1,
                first: facet,
            },
        })
    }

    /// `seen` and then `more`, whose facets are counted from `offset`.
    fn add(seen: Option<Unread>, more: Option<Unread>, offset: usize) -> Option<Unread> {
        match (seen, more) {
            (Some(a), Some(b)) => Some(Unread {
                count: a.count + b.count,
                first: a.first,
            }),
            (None, Some(b)) => Some(Unread {
                count: b.count,
                first: b.first + offset,
            }),
            (a, None) => a,
        }
    }
}

/// Whether three words are a normal: three finite numbers.
fn is_normal(words: [&[u8]; 3]) -> bool {
    words.iter().all(|w| {
        fast_float2::parse::<f64, _>(w)
            .ok()
            .is_some_and(f64::is_finite)
    })
}

/// What a chunk of ASCII STL holds.
pub(super) struct AsciiChunk {
    pub(super) points: Vec<[f64; 3]>,
    /// Facets whose normal is not three finite numbers, counted from the chunk's first.
    pub(super) unread_normals: Option<Unread>,
    /// Inside a solid at the chunk's end.
    pub(super) inside: bool,
    /// `solid` lines seen.
    pub(super) solids: usize,
}

/// Reads a chunk of well-formed ASCII STL (`None` at anything else), starting inside a
/// solid or not.
pub(super) fn ascii_chunk(bytes: &[u8], mut inside: bool) -> Option<AsciiChunk> {
    std::str::from_utf8(bytes).ok()?;
    let mut s = crate::io::scan::Scanner::new(bytes);
    let mut points = Vec::with_capacity(bytes.len() / 80);
    let mut solids = 0;
    let mut unread_normals = None;
    while let Some(w) = s.word() {
        if !inside {
            if !w.eq_ignore_ascii_case(b"solid") {
                return None;
            }
            inside = true;
            solids += 1;
            s.next_line();
            continue;
        }
        if w.eq_ignore_ascii_case(b"endsolid") {
            inside = false;
            s.next_line();
            continue;
        }
        if !w.eq_ignore_ascii_case(b"facet") {
            return None;
        }
        s.expect(b"normal")?;
        // Normals are not used: any three words (see `parse_ascii_points`).
        if !is_normal([s.word()?, s.word()?, s.word()?]) {
            unread_normals = Unread::one(unread_normals, points.len() / 3);
        }
        s.expect(b"outer")?;
        s.expect(b"loop")?;
        for _ in 0..3 {
            s.expect(b"vertex")?;
            let p = [s.number(false)?, s.number(false)?, s.number(false)?];
            if !p.iter().all(|v| v.is_finite()) {
                return None;
            }
            points.push(p);
        }
        s.expect(b"endloop")?;
        s.expect(b"endfacet")?;
    }
    Some(AsciiChunk {
        points,
        unread_normals,
        inside,
        solids,
    })
}

/// Whitespace-separated tokens with their line numbers.
pub(super) struct Tokens<'a> {
    pub(super) lines: std::iter::Enumerate<std::str::Lines<'a>>,
    pub(super) current: std::str::SplitAsciiWhitespace<'a>,
    pub(super) line: usize,
}

impl<'a> Tokens<'a> {
    pub(super) fn new(text: &'a str) -> Self {
        Tokens {
            lines: text.lines().enumerate(),
            current: "".split_ascii_whitespace(),
            line: 0,
        }
    }

    pub(super) fn next(&mut self) -> Option<&'a str> {
        loop {
            if let Some(t) = self.current.next() {
                return Some(t);
            }
            let (i, l) = self.lines.next()?;
            self.line = i + 1;
            self.current = l.split_ascii_whitespace();
        }
    }

    /// Drops the rest of the current line (a solid's name).
    pub(super) fn skip_line(&mut self) {
        self.current = "".split_ascii_whitespace();
    }

    pub(super) fn place(&self) -> crate::error::Place {
        crate::error::Place::line(self.line.max(1))
    }

    pub(super) fn expect(&mut self, word: &str) -> Result<()> {
        match self.next() {
            Some(t) if t.eq_ignore_ascii_case(word) => Ok(()),
            Some(t) => Err(Error::parse(
                self.place(),
                format!("expected \"{word}\", found \"{}\"", clip(t)),
            )),
            None => Err(Error::parse(
                self.place(),
                format!("file ends where \"{word}\" was expected"),
            )),
        }
    }

    pub(super) fn number(&mut self) -> Result<f64> {
        let t = self
            .next()
            .ok_or_else(|| Error::parse(self.place(), "file ends where a number was expected"))?;
        match t.parse::<f64>() {
            Ok(v) if v.is_finite() => Ok(v),
            Ok(_) => Err(Error::parse(
                self.place(),
                format!("coordinate {} is not a finite number", clip(t)),
            )),
            Err(_) => Err(Error::parse(
                self.place(),
                format!("expected a number, found \"{}\"", clip(t)),
            )),
        }
    }
}

pub(super) fn parse_ascii(bytes: &[u8]) -> Result<RawMesh> {
    Ok(soup(ascii_points(bytes)?.points))
}

/// The corners of an ASCII STL's facets, three per triangle.
pub(super) fn parse_ascii_points(bytes: &[u8]) -> Result<Corners> {
    let text = crate::io::text(bytes)?;
    let mut tok = Tokens::new(text);
    let mut vertices = Vec::new();
    let mut unread_normals = None;
    let mut solids = 0;
    while let Some(t) = tok.next() {
        if !t.eq_ignore_ascii_case("solid") {
            return Err(Error::parse(
                tok.place(),
                format!("expected \"solid\", found \"{}\"", clip(t)),
            ));
        }
        solids += 1;
        tok.skip_line();
        loop {
            let t = tok.next().ok_or_else(|| {
                Error::parse(
                    tok.place(),
                    "file ends inside a solid (no \"endsolid\"): truncated?",
                )
            })?;
            if t.eq_ignore_ascii_case("endsolid") {
                tok.skip_line();
                break;
            }
            if !t.eq_ignore_ascii_case("facet") {
                return Err(Error::parse(
                    tok.place(),
                    format!("expected \"facet\" or \"endsolid\", found \"{}\"", clip(t)),
                ));
            }
            tok.expect("normal")?;
            // Normals are not used (the winding says which way a facet faces); exporters
            // write `nan`, `inf` or worse for degenerate facets (PrusaSlicer's own test
            // file has `+inf -inf weirdvalue`), so any three words are read past, and
            // counted for a warning unless they are three finite numbers.
            let mut word = || {
                tok.next().ok_or_else(|| {
                    Error::parse(tok.place(), "file ends where a facet normal was expected")
                })
            };
            let normal = [word()?, word()?, word()?].map(str::as_bytes);
            if !is_normal(normal) {
                unread_normals = Unread::one(unread_normals, vertices.len() / 3);
            }
            tok.expect("outer")?;
            tok.expect("loop")?;
            for _ in 0..3 {
                tok.expect("vertex")?;
                vertices.push([tok.number()?, tok.number()?, tok.number()?]);
            }
            match tok.next() {
                Some(t) if t.eq_ignore_ascii_case("endloop") => {}
                Some(t) if t.eq_ignore_ascii_case("vertex") => {
                    return Err(Error::parse(
                        tok.place(),
                        "a facet with more than 3 vertices: STL facets are triangles",
                    ));
                }
                Some(t) => {
                    return Err(Error::parse(
                        tok.place(),
                        format!("expected \"endloop\", found \"{}\"", clip(t)),
                    ));
                }
                None => {
                    return Err(Error::parse(
                        tok.place(),
                        "file ends inside a facet: truncated?",
                    ));
                }
            }
            tok.expect("endfacet")?;
        }
    }
    if solids == 0 {
        return Err(Error::parse(
            crate::error::Place::line(1),
            "no \"solid\" in an ASCII STL",
        ));
    }
    Ok(Corners {
        points: vertices,
        unread_normals,
    })
}
