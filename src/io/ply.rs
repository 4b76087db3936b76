//! PLY meshes, ASCII and binary (little- and big-endian), read by a streaming reader of our
//! own: nothing is allocated per element, and counts the header states are checked against
//! the bytes the file holds before anything is reserved.
//!
//! Uses the `vertex` element's `x`, `y`, `z` (any numeric type) and the `face` element's
//! `vertex_indices` (or `vertex_index`) lists; faces of more than three vertices are split
//! as fans. Other elements and properties (normals, colours, `edge`, ...) are read past.

use crate::error::{Error, Result};
use crate::mesh::RawMesh;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Encoding {
    Ascii,
    Little,
    Big,
}

/// A scalar type of the format, by its size in bytes and kind.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Scalar {
    I8,
    U8,
    I16,
    U16,
    I32,
    U32,
    F32,
    F64,
}

impl Scalar {
    fn parse(name: &str) -> Option<Scalar> {
        Some(match name {
            "char" | "int8" => Scalar::I8,
            "uchar" | "uint8" => Scalar::U8,
            "short" | "int16" => Scalar::I16,
            "ushort" | "uint16" => Scalar::U16,
            "int" | "int32" => Scalar::I32,
            "uint" | "uint32" => Scalar::U32,
            "float" | "float32" => Scalar::F32,
            "double" | "float64" => Scalar::F64,
            _ => return None,
        })
    }

    fn size(self) -> usize {
        match self {
            Scalar::I8 | Scalar::U8 => 1,
            Scalar::I16 | Scalar::U16 => 2,
            Scalar::I32 | Scalar::U32 | Scalar::F32 => 4,
            Scalar::F64 => 8,
        }
    }

    fn is_integer(self) -> bool {
        !matches!(self, Scalar::F32 | Scalar::F64)
    }
}

#[derive(Clone, Debug)]
enum Kind {
    Single(Scalar),
    List { count: Scalar, item: Scalar },
}

#[derive(Clone, Debug)]
struct PropertyDef {
    name: String,
    kind: Kind,
}

#[derive(Clone, Debug)]
struct ElementDef {
    name: String,
    count: u64,
    properties: Vec<PropertyDef>,
}

impl ElementDef {
    /// The fewest bytes one instance takes: every scalar, and the count of every list (an
    /// ASCII instance takes at least one character per value, and a separator).
    fn min_bytes(&self, encoding: Encoding) -> usize {
        self.properties
            .iter()
            .map(|p| match (&p.kind, encoding) {
                (_, Encoding::Ascii) => 2,
                (Kind::Single(s), _) => s.size(),
                (Kind::List { count, .. }, _) => count.size(),
            })
            .sum()
    }
}

fn header_error(line: usize, message: impl Into<String>) -> Error {
    Error::parse(format!("PLY header line {line}"), message)
}

/// The header: encoding, elements, and where the body starts.
fn header(bytes: &[u8]) -> Result<(Encoding, Vec<ElementDef>, usize)> {
    if !bytes.starts_with(b"ply") {
        return Err(Error::parse("PLY", "does not start with \"ply\""));
    }
    let mut encoding = None;
    let mut elements: Vec<ElementDef> = Vec::new();
    let mut pos = 0;
    let mut line_no = 0;
    loop {
        let Some(end) = bytes[pos..].iter().position(|&b| b == b'\n') else {
            return Err(Error::parse("PLY header", "no \"end_header\" line"));
        };
        line_no += 1;
        let raw = &bytes[pos..pos + end];
        pos += end + 1;
        let line = std::str::from_utf8(raw)
            .map_err(|_| header_error(line_no, "is not text"))?
            .trim_end_matches('\r')
            .trim();
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            _ if line_no == 1 => {
                if line != "ply" {
                    return Err(header_error(1, "is not \"ply\""));
                }
            }
            Some("format") => {
                encoding = Some(match words.get(1).copied() {
                    Some("ascii") => Encoding::Ascii,
                    Some("binary_little_endian") => Encoding::Little,
                    Some("binary_big_endian") => Encoding::Big,
                    other => {
                        return Err(header_error(
                            line_no,
                            format!(
                                "unknown format {}",
                                crate::error::clip(other.unwrap_or("(none)"))
                            ),
                        ));
                    }
                });
            }
            Some("comment") | Some("obj_info") | None => {}
            Some("element") => {
                let (Some(name), Some(count)) = (words.get(1), words.get(2)) else {
                    return Err(header_error(line_no, "an element needs a name and a count"));
                };
                let count: u64 = count.parse().map_err(|_| {
                    header_error(
                        line_no,
                        format!(
                            "element count {} is not a whole number",
                            crate::error::clip(count)
                        ),
                    )
                })?;
                elements.push(ElementDef {
                    name: name.to_string(),
                    count,
                    properties: vec![],
                });
            }
            Some("property") => {
                let Some(element) = elements.last_mut() else {
                    return Err(header_error(line_no, "a property before any element"));
                };
                let bad_type = |t: &str| {
                    header_error(line_no, format!("unknown type {}", crate::error::clip(t)))
                };
                let (kind, name) = match words.get(1).copied() {
                    Some("list") => {
                        let (Some(c), Some(i), Some(n)) =
                            (words.get(2), words.get(3), words.get(4))
                        else {
                            return Err(header_error(
                                line_no,
                                "a list property needs a count type, an item type and a name",
                            ));
                        };
                        let count = Scalar::parse(c).ok_or_else(|| bad_type(c))?;
                        let item = Scalar::parse(i).ok_or_else(|| bad_type(i))?;
                        if !count.is_integer() {
                            return Err(header_error(
                                line_no,
                                "a list's count type must be an integer type",
                            ));
                        }
                        (Kind::List { count, item }, *n)
                    }
                    Some(t) => {
                        let Some(n) = words.get(2) else {
                            return Err(header_error(
                                line_no,
                                "a property needs a type and a name",
                            ));
                        };
                        (
                            Kind::Single(Scalar::parse(t).ok_or_else(|| bad_type(t))?),
                            *n,
                        )
                    }
                    None => return Err(header_error(line_no, "an empty property")),
                };
                element.properties.push(PropertyDef {
                    name: name.to_string(),
                    kind,
                });
            }
            Some("end_header") => break,
            Some(other) => {
                return Err(header_error(
                    line_no,
                    format!("unknown keyword {}", crate::error::clip(other)),
                ));
            }
        }
    }
    let encoding = encoding.ok_or_else(|| Error::parse("PLY header", "no \"format\" line"))?;
    Ok((encoding, elements, pos))
}

/// Reads values from the body, ASCII or binary, saying where it is when it fails.
struct Body<'a> {
    bytes: &'a [u8],
    pos: usize,
    encoding: Encoding,
    /// Line of the body's start (ASCII), to name lines in errors.
    line: usize,
}

impl<'a> Body<'a> {
    fn place(&self) -> String {
        match self.encoding {
            Encoding::Ascii => format!("PLY line {}", self.line),
            _ => format!("PLY byte {}", self.pos),
        }
    }

    fn truncated(&self, what: &str) -> Error {
        Error::parse(
            self.place(),
            format!("the file ends inside {what}: truncated?"),
        )
    }

    /// The next ASCII token.
    fn token(&mut self, what: &str) -> Result<&'a str> {
        let b = self.bytes;
        while self.pos < b.len() && b[self.pos].is_ascii_whitespace() {
            if b[self.pos] == b'\n' {
                self.line += 1;
            }
            self.pos += 1;
        }
        let start = self.pos;
        while self.pos < b.len() && !b[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
        if start == self.pos {
            return Err(self.truncated(what));
        }
        std::str::from_utf8(&b[start..self.pos])
            .map_err(|_| Error::parse(self.place(), format!("{what}: not a number")))
    }

    fn value(&mut self, s: Scalar, what: &str) -> Result<f64> {
        if self.encoding == Encoding::Ascii {
            let t = self.token(what)?;
            let v: f64 = t.parse().map_err(|_| {
                Error::parse(
                    self.place(),
                    format!("{what}: {} is not a number", crate::error::clip(t)),
                )
            })?;
            if s.is_integer() && v.fract() != 0.0 {
                return Err(Error::parse(
                    self.place(),
                    format!("{what}: {v} is not a whole number"),
                ));
            }
            return Ok(v);
        }
        let n = s.size();
        let Some(raw) = self.bytes.get(self.pos..self.pos + n) else {
            return Err(self.truncated(what));
        };
        self.pos += n;
        let mut buf = [0u8; 8];
        buf[..n].copy_from_slice(raw);
        if self.encoding == Encoding::Big {
            buf[..n].reverse();
        }
        Ok(match s {
            Scalar::I8 => buf[0] as i8 as f64,
            Scalar::U8 => buf[0] as f64,
            Scalar::I16 => i16::from_le_bytes([buf[0], buf[1]]) as f64,
            Scalar::U16 => u16::from_le_bytes([buf[0], buf[1]]) as f64,
            Scalar::I32 => i32::from_le_bytes([buf[0], buf[1], buf[2], buf[3]]) as f64,
            Scalar::U32 => u32::from_le_bytes([buf[0], buf[1], buf[2], buf[3]]) as f64,
            Scalar::F32 => f32::from_le_bytes([buf[0], buf[1], buf[2], buf[3]]) as f64,
            Scalar::F64 => f64::from_le_bytes(buf),
        })
    }
}

/// Parses a PLY file.
///
/// # Errors
/// [`Error::Parse`] for a malformed header, a body shorter than the
/// header says, an index out of range or a non-finite coordinate, naming the element.
///
/// # Examples
/// ```
/// let ply = b"ply\nformat ascii 1.0\nelement vertex 4\nproperty float x\nproperty float y\nproperty float z\n\
/// element face 4\nproperty list uchar int vertex_indices\nend_header\n\
/// 0 0 0\n1 0 0\n0 1 0\n0 0 1\n3 0 2 1\n3 0 1 3\n3 0 3 2\n3 1 2 3\n";
/// let m = inertia::io::ply::parse(ply)?;
/// assert_eq!((m.vertices.len(), m.triangles.len()), (4, 4));
/// # Ok::<(), inertia::Error>(())
/// ```
pub fn parse(bytes: &[u8]) -> Result<RawMesh> {
    let (encoding, elements, start) = header(bytes)?;
    let header_lines = bytes[..start].iter().filter(|&&b| b == b'\n').count();
    let vertex = elements
        .iter()
        .position(|e| e.name == "vertex")
        .ok_or_else(|| Error::parse("PLY header", "no \"vertex\" element"))?;
    let face = elements
        .iter()
        .position(|e| e.name == "face")
        .ok_or_else(|| Error::parse("PLY header", "no \"face\" element"))?;
    let coords: Vec<usize> = ["x", "y", "z"]
        .iter()
        .map(|n| {
            elements[vertex]
                .properties
                .iter()
                .position(|p| p.name == *n && matches!(p.kind, Kind::Single(_)))
                .ok_or_else(|| {
                    Error::parse(
                        "PLY header",
                        format!("the vertex element has no numeric \"{n}\""),
                    )
                })
        })
        .collect::<Result<_>>()?;
    let list = elements[face]
        .properties
        .iter()
        .position(|p| {
            (p.name == "vertex_indices" || p.name == "vertex_index")
                && matches!(p.kind, Kind::List { item, .. } if item.is_integer())
        })
        .ok_or_else(|| {
            Error::parse(
                "PLY header",
                "the face element has no integer list \"vertex_indices\"",
            )
        })?;
    if face < vertex {
        return Err(Error::parse(
            "PLY header",
            "the face element comes before the vertex element, which this reader does not follow",
        ));
    }
    // Counts the bytes cannot hold are refused before anything is reserved.
    let room = (bytes.len() - start) as u64;
    for e in &elements {
        let min = e.min_bytes(encoding) as u64;
        if min > 0 && e.count > room / min {
            return Err(Error::parse(
                "PLY header",
                format!(
                    "says {} {} elements of at least {min} bytes each, but the file holds {room} bytes after its header: truncated, or a false count?",
                    e.count,
                    crate::error::clip(&e.name)
                ),
            ));
        }
    }
    let mut body = Body {
        bytes,
        pos: start,
        encoding,
        line: header_lines + 1,
    };
    let mut out = RawMesh::default();
    out.vertices.reserve(elements[vertex].count as usize);
    let mut corners: Vec<i64> = Vec::new();
    for (k, e) in elements.iter().enumerate() {
        if e.properties.is_empty() {
            continue;
        }
        for i in 0..e.count {
            let mut p = [0.0; 3];
            for (j, prop) in e.properties.iter().enumerate() {
                let what = || format!("{} {}, property {}", e.name, i + 1, prop.name);
                match prop.kind {
                    Kind::Single(s) => {
                        let v = body.value(s, &what())?;
                        if k == vertex
                            && let Some(c) = coords.iter().position(|&c| c == j)
                        {
                            if !v.is_finite() {
                                return Err(Error::parse(
                                    crate::error::Place::Vertex(i + 1),
                                    format!("{} = {v} is not finite", prop.name),
                                ));
                            }
                            p[c] = v;
                        }
                    }
                    Kind::List { count, item } => {
                        let n = body.value(count, &what())?;
                        if n < 0.0 {
                            return Err(Error::parse(
                                body.place(),
                                format!("{}: a negative list length {n}", what()),
                            ));
                        }
                        let n = n as u64;
                        let take = k == face && j == list;
                        if take {
                            corners.clear();
                        }
                        for _ in 0..n {
                            let v = body.value(item, &what())?;
                            if take {
                                corners.push(v as i64);
                            }
                        }
                        if take {
                            if corners.len() < 3 {
                                return Err(Error::parse(
                                    crate::error::Place::Face(i + 1),
                                    format!("{} vertices; a face needs 3", corners.len()),
                                ));
                            }
                            let nv = out.vertices.len() as i64;
                            if let Some(bad) = corners.iter().find(|&&c| c < 0 || c >= nv) {
                                return Err(Error::parse(
                                    crate::error::Place::Face(i + 1),
                                    format!("vertex index {bad} is out of range ({nv} vertices)"),
                                ));
                            }
                            for t in 1..corners.len() - 1 {
                                out.triangles.push([
                                    corners[0] as u32,
                                    corners[t] as u32,
                                    corners[t + 1] as u32,
                                ]);
                            }
                        }
                    }
                }
            }
            if k == vertex {
                out.vertices.push(p);
            }
        }
    }
    if out.triangles.is_empty() {
        return Err(Error::Empty {
            missing: crate::error::Missing::PlyFaces,
        });
    }
    Ok(out)
}
#[cfg(test)]
mod tests {
    use super::*;

    fn binary_tetra(big_endian: bool) -> Vec<u8> {
        let fmt = if big_endian {
            "binary_big_endian"
        } else {
            "binary_little_endian"
        };
        let mut b = format!(
            "ply\nformat {fmt} 1.0\ncomment made by a test\nelement vertex 4\nproperty double x\nproperty double y\nproperty double z\nproperty uchar red\nelement face 4\nproperty list uchar uint vertex_indices\nend_header\n"
        )
        .into_bytes();
        let verts = [
            [0.0f64, 0.0, 0.0],
            [5.0, 0.0, 0.0],
            [0.0, 4.0, 0.0],
            [0.0, 0.0, 3.0],
        ];
        for v in verts {
            for c in v {
                b.extend(if big_endian {
                    c.to_be_bytes()
                } else {
                    c.to_le_bytes()
                });
            }
            b.push(255);
        }
        for f in [[0u32, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]] {
            b.push(3);
            for i in f {
                b.extend(if big_endian {
                    i.to_be_bytes()
                } else {
                    i.to_le_bytes()
                });
            }
        }
        b
    }

    #[test]
    fn binary_both_endians_give_the_right_tetrahedron() {
        for be in [false, true] {
            let m = parse(&binary_tetra(be)).unwrap();
            let mesh = crate::Mesh::new(&m).unwrap();
            let p = crate::method::tetra::integrate(&mesh);
            assert!((p.volume - 10.0).abs() < 1e-13, "{be}");
            assert!((p.inertia.m11 - 75.0 / 8.0).abs() < 1e-12);
        }
    }

    #[test]
    fn bad_files() {
        let e = |b: &[u8]| parse(b).unwrap_err().to_string();
        assert!(e(b"").starts_with("PLY:"));
        assert!(
            e(b"ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nend_header\n1\n")
                .contains("no \"face\" element")
        );
        let mut t = binary_tetra(false);
        t.truncate(t.len() - 5);
        let msg = e(&t);
        assert!(
            msg.starts_with("PLY byte ")
                && msg.contains("ends inside face 4")
                && msg.contains("truncated?"),
            "{msg}"
        );
        // Counts the file cannot hold are refused from the header, before any allocation.
        let bomb = b"ply\nformat ascii 1.0\nelement vertex 4000000000\nproperty float x\nproperty float y\nproperty float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n";
        assert!(
            e(bomb).contains("says 4000000000 vertex elements"),
            "{}",
            e(bomb)
        );
        let no_props = b"ply\nformat ascii 1.0\nelement vertex 100000000\nelement face 0\nproperty list uchar int vertex_indices\nend_header\n";
        assert!(e(no_props).contains("no numeric \"x\""), "{}", e(no_props));
        // An element of no properties and a huge count is skipped, not walked.
        let empty = b"ply\nformat binary_little_endian 1.0\nelement junk 4000000000\nelement vertex 0\nproperty float x\nproperty float y\nproperty float z\nelement face 0\nproperty list uchar int vertex_indices\nend_header\n";
        assert!(e(empty).contains("no faces"), "{}", e(empty));
        let bad_index = b"ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1 7\n";
        assert_eq!(
            e(bad_index),
            "face 1: vertex index 7 is out of range (3 vertices)"
        );
        let nan = b"ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 nan 0\n0 1 0\n3 0 1 2\n";
        assert!(
            e(nan).contains("vertex 2") || e(nan).starts_with("PLY"),
            "{}",
            e(nan)
        );
        // A header claiming a billion vertices in a tiny file allocates nothing up front.
        let huge = b"ply\nformat binary_little_endian 1.0\nelement vertex 1000000000\nproperty float x\nproperty float y\nproperty float z\nelement face 0\nproperty list uchar int vertex_indices\nend_header\n\x00\x00";
        assert!(
            e(huge).starts_with("PLY header: says 1000000000 vertex elements"),
            "{}",
            e(huge)
        );
    }
}
