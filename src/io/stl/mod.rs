//! STL, binary and ASCII.
//!
//! Binary or ASCII is decided by the size rule first (a binary file is exactly
//! 84 + 50·n bytes, n being the count at byte 80), then by the `solid` keyword: a binary
//! header may itself begin with "solid", and an ASCII file may have no solid name. A binary
//! file whose count does not match its size is refused, never truncated.
//!
//! This reader is the crate's own rather than `stl_io`: binary records are read straight
//! from the (memory-mapped) bytes as fixed 50-byte chunks, ASCII keeps f64 precision and
//! several `solid` blocks, and every error names the triangle or line.

use crate::error::{Error, Place, Result, clip};
use crate::mesh::RawMesh;
use crate::soup::corners::Soup;

mod ascii;
use ascii::*;
pub(crate) use ascii::{Corners, Unread};

/// Size of a binary STL header plus triangle count.
const HEADER: usize = 84;
/// Size of one binary STL triangle record.
const RECORD: usize = 50;

/// Which STL flavour `bytes` is, or why it is neither.
///
/// # Errors
/// [`Error::Parse`] for bytes that are neither a binary STL (its size
/// does not match its triangle count) nor ASCII STL.
pub(crate) fn kind(bytes: &[u8]) -> Result<Kind> {
    if bytes.is_empty() {
        return Err(Error::Empty {
            missing: crate::error::Missing::Bytes,
        });
    }
    if bytes.starts_with(b"\xFF\xFE") || bytes.starts_with(b"\xFE\xFF") {
        return Err(Error::parse(
            Place::Byte(0),
            "the file is UTF-16 text: save it as UTF-8 (or ASCII) to read it as ASCII STL",
        ));
    }
    // A UTF-8 byte-order mark before "solid" (some editors write one).
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if bytes.len() >= HEADER {
        let n = u32::from_le_bytes([bytes[80], bytes[81], bytes[82], bytes[83]]) as u64;
        if bytes.len() as u64 == HEADER as u64 + RECORD as u64 * n {
            return Ok(Kind::Binary);
        }
        if looks_ascii(bytes) {
            return Ok(Kind::Ascii);
        }
        // Text that starts "solid" with a stray NUL or two in it is damaged ASCII STL, not
        // a binary file (whose records are mostly not text).
        let window = &bytes[..bytes.len().min(4096)];
        let text_like = window
            .iter()
            .all(|b| *b == 0 || b.is_ascii_graphic() || b.is_ascii_whitespace());
        if starts_with_solid(bytes)
            && text_like
            && window.iter().filter(|b| **b == 0).count() <= 4
            && let Some(at) = bytes.iter().position(|b| *b == 0)
        {
            return Err(Error::parse(
                Place::Byte(at as u64),
                "a NUL byte inside what starts as ASCII STL (\"solid\"), and the size fits no binary STL: the file is damaged",
            ));
        }
        // A few stray bytes after the last record (a newline or a NUL some exporters add,
        // which numpy-stl and MeshLab read past): binary, with a warning from
        // `stray_bytes`. Fewer than one record, so no triangle can be lost.
        if stray(bytes.len() as u64, n).is_some() {
            return Ok(Kind::Binary);
        }
        if bytes[..HEADER]
            .iter()
            .all(|b| b.is_ascii_graphic() || b.is_ascii_whitespace())
        {
            return Err(Error::parse(
                Place::line(1),
                "not an STL file: it is text but does not start with \"solid\"",
            ));
        }
        return Err(Error::parse(
            "header",
            format!(
                "binary STL header says {n} triangles ({} bytes) but the file has {} bytes",
                HEADER as u64 + RECORD as u64 * n,
                bytes.len()
            ),
        ));
    }
    if looks_ascii(bytes) {
        return Ok(Kind::Ascii);
    }
    Err(Error::parse(
        Place::Byte(0),
        format!(
            "{} bytes: too short for a binary STL (84-byte header) and not ASCII STL (no \"solid\")",
            bytes.len()
        ),
    ))
}

/// Bytes past the end of a binary STL's last record, fewer than one record: 1 to 49.
fn stray(len: u64, n: u64) -> Option<u64> {
    let expected = HEADER as u64 + RECORD as u64 * n;
    (len > expected && len - expected < RECORD as u64).then(|| len - expected)
}

/// How many stray bytes (1 to 49) follow the last record of a binary STL, which is read
/// without them; 0 for an exact binary STL or any other file.
pub(crate) fn stray_bytes(bytes: &[u8]) -> u64 {
    if bytes.len() < HEADER || kind(bytes).ok() != Some(Kind::Binary) {
        return 0;
    }
    let n = u32::from_le_bytes([bytes[80], bytes[81], bytes[82], bytes[83]]) as u64;
    stray(bytes.len() as u64, n).unwrap_or(0)
}

/// STL flavours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// 80-byte header, u32 count, 50-byte records.
    Binary,
    /// `solid ... facet normal ... outer loop ... vertex ... endsolid`.
    Ascii,
}

/// Whether the first word is `solid` (any case), after leading whitespace.
fn starts_with_solid(bytes: &[u8]) -> bool {
    let start = bytes
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(bytes.len());
    bytes[start..bytes.len().min(start + 5)].eq_ignore_ascii_case(b"solid")
}

fn looks_ascii(bytes: &[u8]) -> bool {
    let start = bytes
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(bytes.len());
    let head = &bytes[start..bytes.len().min(start + 5)];
    head.eq_ignore_ascii_case(b"solid") && !bytes[..bytes.len().min(4096)].contains(&0)
}

/// Parses an STL file into a triangle soup (three vertices per triangle, in file order).
///
/// # Errors
/// [`Error::Parse`] naming the triangle (binary) or line (ASCII) of a
/// malformed facet or a non-finite coordinate, or a binary file whose size does not match
/// its count.
///
/// # Examples
/// ```
/// let text = b"solid t\nfacet normal 0 0 1\n outer loop\n  vertex 0 0 0\n  vertex 1 0 0\n  vertex 0 1 0\n endloop\nendfacet\nendsolid t\n";
/// let m = inertia::io::stl::parse(text)?;
/// assert_eq!(m.triangles, vec![[0, 1, 2]]);
/// # Ok::<(), inertia::Error>(())
/// ```
pub fn parse(bytes: &[u8]) -> Result<RawMesh> {
    match kind(bytes)? {
        Kind::Binary => parse_binary(bytes),
        Kind::Ascii => parse_ascii(bytes),
    }
}

/// The records of a binary STL, read in place as a [`Soup`]: no copy of the triangles.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BinarySoup<'a> {
    records: &'a [u8],
}

impl Soup for BinarySoup<'_> {
    type Point = [u32; 3];
    fn len(&self) -> usize {
        self.records.len() / RECORD
    }
    #[inline]
    fn triangle(&self, t: usize) -> [[u32; 3]; 3] {
        let rec: &[u8; 36] = self.records[RECORD * t + 12..RECORD * t + 48]
            .try_into()
            .expect("36 bytes");
        #[inline(always)]
        fn word(rec: &[u8; 36], i: usize) -> u32 {
            let b =
                u32::from_le_bytes([rec[4 * i], rec[4 * i + 1], rec[4 * i + 2], rec[4 * i + 3]]);
            // -0.0 welds with 0.0.
            if b == 0x8000_0000 { 0 } else { b }
        }
        // Written out: `array::map` here is not inlined, and costs a third of the pass.
        [
            [word(rec, 0), word(rec, 1), word(rec, 2)],
            [word(rec, 3), word(rec, 4), word(rec, 5)],
            [word(rec, 6), word(rec, 7), word(rec, 8)],
        ]
    }
    fn mapped(&self) -> bool {
        crate::io::guard::is_mapped(self.records)
    }
    fn release(&self) {
        crate::io::guard::release(self.records);
    }
}

/// An STL's triangles as the file holds them, for the parallel soup path
/// ([`crate::soup`]): a binary file's records read in place, without a copy; an ASCII file's
/// corners parsed once.
pub(crate) enum Triangles<'a> {
    /// A binary STL's records.
    Binary(BinarySoup<'a>),
    /// An ASCII STL's corners, three per triangle, and the facets whose normal was read
    /// past.
    Ascii(Corners),
}

/// Reads an STL's triangles (see [`Triangles`]): only parsing, no check of the mesh.
///
/// # Errors
/// As [`parse`] for a malformed file.
pub(crate) fn triangles(bytes: &[u8]) -> Result<Triangles<'_>> {
    Ok(match kind(bytes)? {
        Kind::Binary => Triangles::Binary(BinarySoup {
            records: &bytes[HEADER..],
        }),
        Kind::Ascii => Triangles::Ascii(ascii_points(bytes)?),
    })
}

/// The facets of an ASCII STL whose normal is not three finite numbers (read past);
/// `None` for a binary STL, a malformed file, or one whose normals all read.
pub(crate) fn unread_normals(bytes: &[u8]) -> Option<Unread> {
    match kind(bytes) {
        Ok(Kind::Ascii) => ascii_points(bytes).ok()?.unread_normals,
        _ => None,
    }
}

/// A binary STL as an indexed mesh: corners with the same coordinates share a vertex, so
/// what is held is the distinct points and three indices a triangle, never a copy of the
/// records (a third of their size for a typical closed mesh).
fn parse_binary(bytes: &[u8]) -> Result<RawMesh> {
    let soup = BinarySoup {
        records: &bytes[HEADER..],
    };
    let n = soup.len();
    let mut index: ahash::AHashMap<[u32; 3], u32> = ahash::AHashMap::with_capacity(n / 2 + 1);
    let mut vertices = Vec::with_capacity(n / 2 + 1);
    let mut triangles = Vec::with_capacity(n);
    for t in 0..n {
        let tri = soup.triangle(t);
        let mut out = [0u32; 3];
        for (v, point) in tri.iter().enumerate() {
            if let Some(&bits) = point.iter().find(|b| *b & 0x7f80_0000 == 0x7f80_0000) {
                return Err(Error::parse(
                    Place::Triangle(t as u64 + 1),
                    format!(
                        "vertex {} has a non-finite coordinate ({})",
                        v + 1,
                        f32::from_bits(bits)
                    ),
                ));
            }
            out[v] = *index.entry(*point).or_insert_with(|| {
                vertices.push(crate::soup::corners::Point::coords(point));
                (vertices.len() - 1) as u32
            });
        }
        triangles.push(out);
    }
    Ok(RawMesh {
        vertices,
        triangles,
        lines: vec![],
    })
}

fn soup(vertices: Vec<[f64; 3]>) -> RawMesh {
    let triangles = (0..vertices.len() as u32 / 3)
        .map(|t| [3 * t, 3 * t + 1, 3 * t + 2])
        .collect();
    RawMesh {
        vertices,
        triangles,
        lines: vec![],
    }
}

/// Writes a mesh as binary STL (coordinates rounded to f32, zero normals, as most
/// exporters write when they leave the winding to speak for itself).
///
/// # Examples
/// ```
/// use inertia::{io::stl, shape::Shape3d};
/// let cube = Shape3d::Box { size: [1.0, 2.0, 3.0] }.tessellate(0);
/// let bytes = stl::write_binary(&cube);
/// assert_eq!(bytes.len(), 84 + 50 * 12);
/// assert_eq!(stl::parse(&bytes)?.triangles.len(), 12);
/// # Ok::<(), inertia::Error>(())
/// ```
pub fn write_binary(mesh: &RawMesh) -> Vec<u8> {
    let mut b = Vec::with_capacity(HEADER + RECORD * mesh.triangles.len());
    b.extend_from_slice(&[0; 80]);
    b.extend_from_slice(&(mesh.triangles.len() as u32).to_le_bytes());
    for t in &mesh.triangles {
        b.extend_from_slice(&[0; 12]);
        for &v in t {
            for x in mesh.vertices[v as usize] {
                b.extend_from_slice(&(x as f32).to_le_bytes());
            }
        }
        b.extend_from_slice(&[0; 2]);
    }
    b
}

/// [`write_binary`] straight to a writer (a file), without building the bytes in memory.
///
/// # Errors
/// The writer's; `InvalidInput` for more triangles than the format's 32-bit count holds,
/// and `InvalidData` for a finite coordinate beyond `f32`'s range (it would be written as
/// infinite).
///
/// # Examples
/// ```
/// use inertia::{io::stl, shape::Shape3d};
/// let cube = Shape3d::Box { size: [1.0, 2.0, 3.0] }.tessellate(0);
/// let mut bytes = Vec::new();
/// stl::write_binary_to(&mut bytes, &cube)?;
/// assert_eq!(bytes, stl::write_binary(&cube));
/// let huge = Shape3d::Box { size: [1e39; 3] }.tessellate(0);
/// assert!(stl::write_binary_to(&mut Vec::new(), &huge).is_err());
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn write_binary_to(o: &mut impl std::io::Write, mesh: &RawMesh) -> std::io::Result<()> {
    use std::io::{Error, ErrorKind};
    let count = u32::try_from(mesh.triangles.len()).map_err(|_| {
        Error::new(
            ErrorKind::InvalidInput,
            "more triangles than binary STL's 32-bit count holds",
        )
    })?;
    o.write_all(&[0; 80])?;
    o.write_all(&count.to_le_bytes())?;
    let mut record = [0u8; RECORD];
    for t in &mesh.triangles {
        for (k, &v) in t.iter().enumerate() {
            for (j, x) in mesh.vertices[v as usize].into_iter().enumerate() {
                let f = x as f32;
                if f.is_infinite() && x.is_finite() {
                    return Err(Error::new(
                        ErrorKind::InvalidData,
                        format!("a coordinate ({x:e}) is beyond binary STL's f32 range"),
                    ));
                }
                let at = 12 + 12 * k + 4 * j;
                record[at..at + 4].copy_from_slice(&f.to_le_bytes());
            }
        }
        o.write_all(&record)?;
    }
    Ok(())
}

/// Writes a mesh as ASCII STL with every coordinate at full f64 precision (it reads back
/// exactly; binary STL would round to f32).
///
/// # Examples
/// ```
/// use inertia::{io::stl, shape::Shape3d};
/// let cube = Shape3d::Box { size: [1.0, 2.0, 3.0] }.tessellate(0);
/// let text = stl::write_ascii(&cube, "cube");
/// let back = stl::parse(text.as_bytes())?;
/// assert_eq!(back.triangles.len(), 12);
/// # Ok::<(), inertia::Error>(())
/// ```
pub fn write_ascii(mesh: &RawMesh, name: &str) -> String {
    let mut o = Vec::new();
    write_ascii_to(&mut o, mesh, name).expect("writing to memory cannot fail");
    String::from_utf8(o).expect("the text is UTF-8")
}

/// [`write_ascii`] straight to a writer (a file), without building the text in memory.
///
/// # Errors
/// The writer's.
pub fn write_ascii_to(
    o: &mut impl std::io::Write,
    mesh: &RawMesh,
    name: &str,
) -> std::io::Result<()> {
    writeln!(o, "solid {name}")?;
    for t in &mesh.triangles {
        let [a, b, c] = t.map(|v| nalgebra::Vector3::from(mesh.vertices[v as usize]));
        let n = (b - a).cross(&(c - a));
        let n = if n.norm() > 0.0 { n.normalize() } else { n };
        writeln!(
            o,
            "  facet normal {:?} {:?} {:?}\n    outer loop",
            n.x, n.y, n.z
        )?;
        for p in [a, b, c] {
            writeln!(o, "      vertex {:?} {:?} {:?}", p.x, p.y, p.z)?;
        }
        writeln!(o, "    endloop\n  endfacet")?;
    }
    writeln!(o, "endsolid {name}")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the internal entry points' examples showed when they were public.
    #[test]
    fn kind_stray_bytes_and_triangles() {
        assert_eq!(kind(b"solid cube\nendsolid cube\n").unwrap(), Kind::Ascii);
        let mut bin = vec![0u8; 84];
        assert_eq!(kind(&bin).unwrap(), Kind::Binary);
        bin[80] = 1; // claims one triangle, holds none
        assert!(kind(&bin).unwrap_err().to_string().contains("1 triangles"));

        let mut b = vec![0u8; 84];
        b.push(b'\n');
        assert_eq!(stray_bytes(&b), 1);
        assert_eq!(stray_bytes(&b[..84]), 0);

        let mut bytes = vec![0u8; 84 + 50];
        bytes[80] = 1;
        bytes[84 + 12..84 + 16].copy_from_slice(&1.5f32.to_le_bytes()); // vertex 1, x
        let Triangles::Binary(s) = triangles(&bytes).unwrap() else {
            panic!("a binary STL")
        };
        assert_eq!(s.len(), 1);
        assert_eq!(s.triangle(0)[0], [1.5f32.to_bits(), 0, 0]);

        let bytes = std::fs::read("fixtures/mesh/right_tetrahedron.stl").unwrap();
        let n = match triangles(&bytes).unwrap() {
            Triangles::Binary(soup) => soup.len(),
            Triangles::Ascii(c) => c.points.len() / 3,
        };
        assert_eq!(n, 4);
    }

    #[test]
    fn parallel_ascii_reader_matches_the_sequential_one() {
        // Every 1000th normal from the 20,500th on is not a number: the chunks count them
        // from their own first facet, the sequential reader from the file's.
        let facet = |k: usize| {
            let normal = if k >= 20_500 && k.is_multiple_of(1000) {
                "nan 0 1"
            } else {
                "0 0 1"
            };
            format!(
                "  FACET NORMAL {normal}\n    outer loop\n      vertex {k} 0 1e-3\n vertex\t-0 {k}.5 2\n      vertex 1 2\n 3\n    endloop\n  endfacet\n"
            )
        };
        let mut text = String::from("solid one facet in its name\n");
        let mut k = 0;
        while text.len() < 3 * super::super::scan::CHUNK {
            text.push_str(&facet(k));
            k += 1;
            if k == 20_000 {
                text.push_str("endsolid one\nsolid two\n");
            }
        }
        text.push_str("endsolid\n");
        let fast = ascii_points(text.as_bytes()).unwrap();
        assert_eq!(fast.points.len(), 3 * k);
        assert_eq!(fast, parse_ascii_points(text.as_bytes()).unwrap());
        assert_eq!(
            fast.unread_normals,
            Some(Unread {
                count: (21_000..k).step_by(1000).count(),
                first: 21_000
            })
        );
        // Defects anywhere fall back to the sequential reader and its message.
        let truncated = &text[..text.len() - 10];
        assert!(
            ascii_points(truncated.as_bytes())
                .unwrap_err()
                .to_string()
                .contains("truncated")
        );
        let bad = text.replacen("vertex 23000 0", "vertex 23000 x", 1);
        assert_ne!(bad, text);
        let e = ascii_points(bad.as_bytes()).unwrap_err().to_string();
        assert!(e.contains("expected a number, found \"x\""), "{e}");
    }

    fn binary(tris: &[[[f32; 3]; 3]], header: &[u8]) -> Vec<u8> {
        let mut b = vec![0u8; 80];
        b[..header.len()].copy_from_slice(header);
        b.extend((tris.len() as u32).to_le_bytes());
        for t in tris {
            b.extend([0u8; 12]);
            for v in t {
                for c in v {
                    b.extend(c.to_le_bytes());
                }
            }
            b.extend([0u8; 2]);
        }
        b
    }

    const TRI: [[f32; 3]; 3] = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];

    #[test]
    fn binary_even_when_the_header_says_solid() {
        let b = binary(&[TRI, TRI], b"solid but binary");
        let m = parse(&b).unwrap();
        // Indexed: the two copies of the triangle share their three vertices.
        assert_eq!(m.vertices.len(), 3);
        assert_eq!(m.triangles, vec![[0, 1, 2], [0, 1, 2]]);
        assert_eq!(m.vertices[1], [1.0, 0.0, 0.0]);
    }

    #[test]
    fn binary_count_mismatch_and_nan_are_refused() {
        let mut b = binary(&[TRI, TRI], b"");
        b.truncate(b.len() - 10);
        assert_eq!(
            parse(&b).unwrap_err().to_string(),
            "header: binary STL header says 2 triangles (184 bytes) but the file has 174 bytes"
        );
        let mut b = binary(&[TRI], b"");
        b[80..84].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(
            parse(&b)
                .unwrap_err()
                .to_string()
                .contains("4294967295 triangles")
        );
        let mut t = TRI;
        t[2][1] = f32::NAN;
        let b = binary(&[TRI, t], b"");
        assert_eq!(
            parse(&b).unwrap_err().to_string(),
            "triangle 2: vertex 3 has a non-finite coordinate (NaN)"
        );
        assert!(parse(b"abc").unwrap_err().to_string().contains("too short"));
    }

    #[test]
    fn ascii_several_solids_no_name_f64_precision() {
        let s = "solid\n facet normal 0 0 0\n  outer loop\n   vertex 0 0 0\n   vertex 1 0 0\n   vertex 0 1 0.1000000000000001\n  endloop\n endfacet\nendsolid\n\
                 SOLID second one\nfacet normal 0 0 1 outer loop vertex 1 1 1 vertex 2 1 1 vertex 1 2 1 endloop endfacet\nendsolid second one\n";
        let m = parse(s.as_bytes()).unwrap();
        assert_eq!(m.triangles.len(), 2);
        assert_eq!(m.vertices[2][2], 0.1000000000000001);
        assert_eq!(m.vertices[5], [1.0, 2.0, 1.0]);
    }

    #[test]
    fn nan_normals_are_ignored() {
        // PrusaSlicer's own test file writes `+inf -inf weirdvalue`: any three words.
        for normal in ["nan -nan inf", "+inf -inf weirdvalue"] {
            let s = format!(
                "solid a\nfacet normal {normal}\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid a\n"
            );
            let m = parse(s.as_bytes()).unwrap();
            assert_eq!(m.triangles.len(), 1);
            assert_eq!(m.vertices[2], [0.0, 1.0, 0.0]);
            let unread = Some(Unread { count: 1, first: 0 });
            assert_eq!(unread_normals(s.as_bytes()), unread);
            assert_eq!(
                parse_ascii_points(s.as_bytes()).unwrap().unread_normals,
                unread
            );
        }
        let fine = "solid a\nfacet normal 0 0 0\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid a\n";
        assert_eq!(unread_normals(fine.as_bytes()), None);
    }

    #[test]
    fn ascii_errors_name_the_line() {
        let good = "solid a\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid a\n";
        let e = |s: &str| parse(s.as_bytes()).unwrap_err().to_string();
        assert_eq!(
            e(&good.replace("vertex 1 0 0", "vertex 1 x 0")),
            "line 5: expected a number, found \"x\""
        );
        assert_eq!(
            e(&good.replace("vertex 1 0 0", "vertex 1 nan 0")),
            "line 5: coordinate nan is not a finite number"
        );
        assert_eq!(
            e(&good.replace("endsolid a\n", "")),
            "line 8: file ends inside a solid (no \"endsolid\"): truncated?"
        );
        assert_eq!(
            e(&good.replace("outer loop", "outer lop")),
            "line 3: expected \"loop\", found \"lop\""
        );
        assert!(
            e(&good.replace("endloop", "vertex 1 1 0\nendloop")).contains("more than 3 vertices")
        );
        assert_eq!(
            e("solid x\ngarbage\n"),
            "line 2: expected \"facet\" or \"endsolid\", found \"garbage\""
        );
    }
}
