//! Wavefront OBJ: `v` and `f` lines.
//!
//! Faces may use `i`, `i/t`, `i//n` or `i/t/n` and negative (relative) indices; faces with
//! more than three vertices are split as a fan from their first vertex. `o` and `g` groups
//! are read as parts of one mesh (its closed shells are found and summed later); every
//! other statement (`vt`, `vn`, `s`, `usemtl`, `l`, ...) is ignored.
//!
//! The crate's own reader rather than `tobj`: coordinates stay f64 and every error names
//! its line.

use crate::error::{Error, Result, clip};
use crate::mesh::RawMesh;

/// Parses OBJ text.
///
/// # Errors
/// [`Error::Parse`] naming the line of a malformed vertex or face, an
/// index out of range, or a non-finite coordinate.
///
/// # Examples
/// ```
/// let m = inertia::io::obj::parse(b"v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1/1/1 2/2/2 3/3/3 -1\n")?;
/// assert_eq!(m.triangles, vec![[0, 1, 2], [0, 2, 3]]);
/// assert_eq!(m.lines, vec![5, 5]);
/// # Ok::<(), inertia::Error>(())
/// ```
pub fn parse(bytes: &[u8]) -> Result<RawMesh> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match parse_parallel(bytes) {
        Some(m) => Ok(m),
        None => parse_sequential(bytes),
    }
}

/// What a chunk of OBJ holds.
#[derive(Default)]
struct Chunk {
    vertices: Vec<[f64; 3]>,
    /// Triangles as 1-based indices: absolute, or, for those listed in `relative`, counted
    /// from the chunk's first vertex (and possibly ≤ 0: a vertex of an earlier chunk).
    triangles: Vec<[i64; 3]>,
    /// (triangle, corner) of each relative index.
    relative: Vec<(u32, u8)>,
    /// Each triangle's line, counted from the chunk's first line (1-based).
    lines: Vec<u32>,
    /// Line ends in the chunk.
    newlines: usize,
}

/// Reads well-formed OBJ in parallel chunks of whole lines; `None` at anything else.
fn parse_parallel(bytes: &[u8]) -> Option<RawMesh> {
    use rayon::prelude::*;
    let cuts = super::scan::split(bytes, |_| true);
    let chunks: Vec<Chunk> = cuts
        .par_windows(2)
        .map(|w| chunk(&bytes[w[0]..w[1]]))
        .collect::<Option<_>>()?;
    let total: usize = chunks.iter().map(|c| c.vertices.len()).sum();
    if total > u32::MAX as usize || chunks.iter().all(|c| c.triangles.is_empty()) {
        return None;
    }
    let mut vertices = Vec::with_capacity(total);
    let mut triangles = Vec::with_capacity(chunks.iter().map(|c| c.triangles.len()).sum());
    let mut lines = Vec::with_capacity(triangles.capacity());
    let (mut offset, mut line0) = (0i64, 0u32);
    for mut c in chunks {
        vertices.extend_from_slice(&c.vertices);
        for &(t, k) in &c.relative {
            c.triangles[t as usize][k as usize] += offset;
        }
        for t in &c.triangles {
            let mut out = [0u32; 3];
            for k in 0..3 {
                if t[k] < 1 || t[k] > total as i64 {
                    return None;
                }
                out[k] = (t[k] - 1) as u32;
            }
            triangles.push(out);
        }
        lines.extend(c.lines.iter().map(|l| l + line0));
        offset += c.vertices.len() as i64;
        line0 += c.newlines as u32;
    }
    Some(RawMesh {
        vertices,
        triangles,
        lines,
    })
}

fn chunk(bytes: &[u8]) -> Option<Chunk> {
    std::str::from_utf8(bytes).ok()?;
    let mut c = Chunk::default();
    let mut s = super::scan::Scanner::new(bytes);
    let mut line = 0u32;
    let mut face: Vec<i64> = Vec::new();
    let mut relative: Vec<bool> = Vec::new();
    while !s.at_end() {
        line += 1;
        let kind = s.word_in_line();
        if kind == Some(b"v") {
            let mut p = [0.0; 3];
            for v in &mut p {
                s.peek_in_line()?;
                *v = s.number(true)?;
                if !v.is_finite() {
                    return None;
                }
            }
            c.vertices.push(p);
        } else if kind == Some(b"f") {
            face.clear();
            relative.clear();
            while s.peek_in_line().is_some() {
                let r = s.reference()?;
                match r {
                    0 => return None,
                    r if r > 0 => {
                        face.push(r);
                        relative.push(false);
                    }
                    r => {
                        face.push(c.vertices.len() as i64 + 1 + r);
                        relative.push(true);
                    }
                }
            }
            if face.len() < 3 {
                return None;
            }
            for k in 1..face.len() - 1 {
                let t = c.triangles.len() as u32;
                for (corner, i) in [0, k, k + 1].into_iter().enumerate() {
                    if relative[i] {
                        c.relative.push((t, corner as u8));
                    }
                }
                c.triangles.push([face[0], face[k], face[k + 1]]);
                c.lines.push(line);
            }
        }
        if s.next_line() {
            c.newlines += 1;
        }
    }
    Some(c)
}

/// The file's lines joined where one ends in a backslash (the OBJ format's line
/// continuation), each with the number of its first line.
fn logical_lines(text: &str) -> impl Iterator<Item = (usize, std::borrow::Cow<'_, str>)> {
    let mut lines = text.lines().enumerate().peekable();
    std::iter::from_fn(move || {
        let (i, first) = lines.next()?;
        if !first.trim_end().ends_with('\\') {
            return Some((i + 1, std::borrow::Cow::Borrowed(first)));
        }
        let mut joined = String::new();
        let mut part = first;
        loop {
            let t = part.trim_end();
            match t.strip_suffix('\\') {
                Some(head) => {
                    joined.push_str(head);
                    joined.push(' ');
                    match lines.next() {
                        Some((_, next)) => part = next,
                        None => break,
                    }
                }
                None => {
                    joined.push_str(part);
                    break;
                }
            }
        }
        Some((i + 1, std::borrow::Cow::Owned(joined)))
    })
}

/// The sequential reader: slower, and names the line of any error.
fn parse_sequential(bytes: &[u8]) -> Result<RawMesh> {
    let text = super::text(bytes)?;
    let mut vertices: Vec<[f64; 3]> = Vec::new();
    // Faces as absolute 1-based or relative indices resolved at the end (an OBJ may refer to
    // a vertex defined later); each with its line.
    let mut triangles: Vec<[u32; 3]> = Vec::new();
    let mut lines: Vec<u32> = Vec::new();
    let mut pending: Vec<(i64, usize)> = Vec::new(); // (1-based index, line) to check
    for (lineno, raw) in logical_lines(text) {
        let place = || crate::error::Place::line(lineno);
        let line = raw.split('#').next().unwrap_or("");
        let mut tok = line.split_ascii_whitespace();
        match tok.next() {
            Some("v") => {
                let mut p = [0.0; 3];
                for (k, c) in p.iter_mut().enumerate() {
                    let t = tok.next().ok_or_else(|| {
                        Error::parse(place(), format!("a vertex needs 3 coordinates, found {k}"))
                    })?;
                    *c = match t.parse::<f64>() {
                        Ok(v) if v.is_finite() => v,
                        Ok(_) => {
                            return Err(Error::parse(
                                place(),
                                format!("coordinate {} is not a finite number", clip(t)),
                            ));
                        }
                        Err(_) => {
                            return Err(Error::parse(
                                place(),
                                format!("\"{}\" is not a number", clip(t)),
                            ));
                        }
                    };
                }
                vertices.push(p);
            }
            Some("f") => {
                let mut face: Vec<u32> = Vec::new();
                for t in tok {
                    let first = t.split('/').next().unwrap_or("");
                    let idx: i64 = first.parse().map_err(|_| {
                        Error::parse(
                            place(),
                            format!("\"{}\" is not a vertex reference", clip(t)),
                        )
                    })?;
                    let resolved = if idx < 0 {
                        vertices.len() as i64 + 1 + idx
                    } else {
                        idx
                    };
                    if resolved < 1 || resolved > u32::MAX as i64 {
                        return Err(Error::parse(
                            place(),
                            format!(
                                "vertex index {idx} is out of range ({} vertices so far)",
                                vertices.len()
                            ),
                        ));
                    }
                    pending.push((resolved, lineno));
                    face.push((resolved - 1) as u32);
                }
                if face.len() < 3 {
                    return Err(Error::parse(
                        place(),
                        format!("a face needs at least 3 vertices, found {}", face.len()),
                    ));
                }
                for k in 1..face.len() - 1 {
                    triangles.push([face[0], face[k], face[k + 1]]);
                    lines.push(lineno as u32);
                }
            }
            _ => {}
        }
    }
    if let Some((idx, line)) = pending.iter().find(|(i, _)| *i as usize > vertices.len()) {
        return Err(Error::parse(
            crate::error::Place::line(*line),
            format!(
                "vertex index {idx} is out of range (the file has {} vertices)",
                vertices.len()
            ),
        ));
    }
    if triangles.is_empty() {
        return Err(Error::Empty {
            missing: crate::error::Missing::ObjFaces,
        });
    }
    Ok(RawMesh {
        vertices,
        triangles,
        lines,
    })
}

/// Writes a mesh as OBJ (`v` and `f` lines, f64 precision).
///
/// # Examples
/// ```
/// use inertia::{io::obj, shape::Shape3d};
/// let text = obj::write(&Shape3d::Sphere { radius: 1.0 }.tessellate(8));
/// assert_eq!(obj::parse(text.as_bytes())?.triangles.len(), 48);
/// # Ok::<(), inertia::Error>(())
/// ```
pub fn write(mesh: &RawMesh) -> String {
    let mut o = Vec::new();
    write_to(&mut o, mesh).expect("writing to memory cannot fail");
    String::from_utf8(o).expect("the text is UTF-8")
}

/// [`write()`] straight to a writer (a file), without building the text in memory.
///
/// # Errors
/// The writer's.
pub fn write_to(o: &mut impl std::io::Write, mesh: &RawMesh) -> std::io::Result<()> {
    writeln!(o, "# written by inertia")?;
    for v in &mesh.vertices {
        writeln!(o, "v {:?} {:?} {:?}", v[0], v[1], v[2])?;
    }
    for t in &mesh.triangles {
        writeln!(o, "f {} {} {}", t[0] + 1, t[1] + 1, t[2] + 1)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parallel_reader_matches_the_sequential_one() {
        // Several chunks: quads, relative indices reaching into earlier chunks, comments,
        // texture/normal references, CRLF lines, other statements.
        let mut text = String::from("# a big file\r\no part\r\n");
        let mut k = 0;
        while text.len() < 3 * super::super::scan::CHUNK + 1000 {
            text.push_str(&format!(
                "v {k} 0.5 -1e-3 # c\r\nv {k}.25 1 2 3\nvt 0 1\nv 1 {k} 7\nv -0 0 {k}e2\nf 1 2/2 3//4\nf -1 -2/1/1 -3 -4\nusemtl x\nf {} {} -1#c\n",
                4 * k + 1,
                4 * k + 2
            ));
            k += 1;
        }
        let bytes = text.as_bytes();
        let fast = parse_parallel(bytes).expect("well formed");
        assert_eq!(fast, parse_sequential(bytes).unwrap());
        assert!(fast.lines.last().unwrap() > &100_000);
        // A bad line in a later chunk: the sequential reader explains it.
        let bad = format!("{text}f 1 2\n");
        assert!(parse_parallel(bad.as_bytes()).is_none());
        assert!(err(&bad).starts_with(&format!(
            "line {}: a face needs at least 3 vertices",
            text.lines().count() + 1
        )));
        // A vertex line broken across two lines is not read across them.
        assert!(parse_parallel(b"v 1 2\n3\nv 0 0 0\nv 1 0 0\nf 1 2 3\n").is_none());
    }

    #[test]
    fn backslash_continues_a_line() {
        // The OBJ format joins a line ending in a backslash to the next one.
        let m = parse(
            b"v 0 0 \\\n 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 \\\r\n2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n",
        )
        .unwrap();
        assert_eq!(m.vertices.len(), 4);
        assert_eq!(m.vertices[0], [0.0, 0.0, 0.0]);
        assert_eq!(m.triangles[0], [0, 2, 1]);
        // A face continued from line 4 is named by line 4, its first line, in an error.
        assert!(err("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 \\\n 2\n").starts_with("line 4: a face needs"));
    }

    fn err(s: &str) -> String {
        parse(s.as_bytes()).unwrap_err().to_string()
    }

    #[test]
    fn groups_comments_and_other_statements() {
        let s = "# cube-ish\nmtllib a.mtl\no one\nv 0 0 0 1\nv 1 0 0\nvt 0 0\nvn 0 0 1\nv 0 1 0\ng two\nusemtl x\ns off\nf 1//1 2//1 3//1 # tri\nl 1 2\n";
        let m = parse(s.as_bytes()).unwrap();
        assert_eq!(m.vertices.len(), 3);
        assert_eq!(m.triangles, vec![[0, 1, 2]]);
        assert_eq!(m.lines, vec![12]);
    }

    #[test]
    fn bad_lines_are_named() {
        assert_eq!(
            err("v 0 0\n"),
            "line 1: a vertex needs 3 coordinates, found 2"
        );
        assert_eq!(
            err("v 0 0 nan\n"),
            "line 1: coordinate nan is not a finite number"
        );
        assert_eq!(err("v 0 0 a\n"), "line 1: \"a\" is not a number");
        assert_eq!(
            err("v 0 0 0\nf 1 2\n"),
            "line 2: a face needs at least 3 vertices, found 2"
        );
        assert_eq!(
            err("v 0 0 0\nf 1 2 x\n"),
            "line 2: \"x\" is not a vertex reference"
        );
        assert_eq!(
            err("v 0 0 0\nf 1 -2 1\n"),
            "line 2: vertex index -2 is out of range (1 vertices so far)"
        );
        assert_eq!(
            err("v 0 0 0\nf 1 0 1\n"),
            "line 2: vertex index 0 is out of range (1 vertices so far)"
        );
        assert_eq!(
            err("v 0 0 0\nf 1 2 3\n"),
            "line 2: vertex index 2 is out of range (the file has 1 vertices)"
        );
        assert_eq!(err("v 0 0 0\n"), "no faces (\"f\" lines) in the OBJ input");
        assert_eq!(
            err("f 99999999999999999999 1 1\n"),
            "line 1: \"99999999999999999999\" is not a vertex reference"
        );
    }
}
