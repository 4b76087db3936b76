//! ASCII STL: a sequential reader that explains every surprise by line, and a parallel one
//! over chunks split at `facet` lines for files that have none.

use super::*;

/// The corners of an ASCII STL's facets: read in parallel chunks (each starting at a
/// `facet` line), or, at the first surprise, by the sequential reader, which explains it.
pub(super) fn ascii_points(bytes: &[u8]) -> Result<Vec<[f64; 3]>> {
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
            let mut points = Vec::with_capacity(c.iter().map(|c| c.points.len()).sum());
            for c in c {
                points.extend_from_slice(&c.points);
            }
            Ok(points)
        }
        _ => parse_ascii_points(bytes),
    }
}

/// What a chunk of ASCII STL holds.
pub(super) struct AsciiChunk {
    pub(super) points: Vec<[f64; 3]>,
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
        for _ in 0..3 {
            s.word()?;
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
    Ok(soup(ascii_points(bytes)?))
}

/// The corners of an ASCII STL's facets, three per triangle.
pub(super) fn parse_ascii_points(bytes: &[u8]) -> Result<Vec<[f64; 3]>> {
    let text = crate::io::text(bytes)?;
    let mut tok = Tokens::new(text);
    let mut vertices = Vec::new();
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
            // file has `+inf -inf weirdvalue`), so any three words are read past.
            for _ in 0..3 {
                tok.next().ok_or_else(|| {
                    Error::parse(tok.place(), "file ends where a facet normal was expected")
                })?;
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
    Ok(vertices)
}
