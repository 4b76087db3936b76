//! PLY meshes, ASCII and binary (little- and big-endian), read with the `ply-rs-bw` crate.
//!
//! Uses the `vertex` element's `x`, `y`, `z` (any numeric type) and the `face` element's
//! `vertex_indices` (or `vertex_index`) lists; faces of more than three vertices are split
//! as fans. Other elements and properties (normals, colours, `edge`, ...) are ignored.

use crate::error::{Error, Result};
use crate::mesh::RawMesh;
use ply_rs_bw::parser::Parser;
use ply_rs_bw::ply::{DefaultElement, Property};

fn scalar(p: &Property) -> Option<f64> {
    Some(match *p {
        Property::Char(v) => v as f64,
        Property::UChar(v) => v as f64,
        Property::Short(v) => v as f64,
        Property::UShort(v) => v as f64,
        Property::Int(v) => v as f64,
        Property::UInt(v) => v as f64,
        Property::Float(v) => v as f64,
        Property::Double(v) => v,
        _ => return None,
    })
}

fn indices(p: &Property) -> Option<Vec<i64>> {
    Some(match p {
        Property::ListChar(v) => v.iter().map(|&x| x as i64).collect(),
        Property::ListUChar(v) => v.iter().map(|&x| x as i64).collect(),
        Property::ListShort(v) => v.iter().map(|&x| x as i64).collect(),
        Property::ListUShort(v) => v.iter().map(|&x| x as i64).collect(),
        Property::ListInt(v) => v.iter().map(|&x| x as i64).collect(),
        Property::ListUInt(v) => v.iter().map(|&x| x as i64).collect(),
        _ => return None,
    })
}

/// Parses a PLY file.
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
    let parser = Parser::<DefaultElement>::new();
    let mut cursor = std::io::Cursor::new(bytes);
    let ply = parser.read_ply(&mut cursor).map_err(|e| {
        let text = e
            .to_string()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        Error::parse("PLY", clip_long(&text))
    })?;
    let vertices = ply
        .payload
        .get("vertex")
        .ok_or_else(|| Error::parse("PLY header", "no \"vertex\" element"))?;
    let faces = ply
        .payload
        .get("face")
        .ok_or_else(|| Error::parse("PLY header", "no \"face\" element"))?;
    let mut out = RawMesh::default();
    out.vertices.reserve(vertices.len());
    for (i, v) in vertices.iter().enumerate() {
        let mut p = [0.0; 3];
        for (k, name) in ["x", "y", "z"].iter().enumerate() {
            let value = v.get(*name).and_then(scalar).ok_or_else(|| {
                Error::parse(
                    format!("vertex {}", i + 1),
                    format!("no numeric property \"{name}\""),
                )
            })?;
            if !value.is_finite() {
                return Err(Error::parse(
                    format!("vertex {}", i + 1),
                    format!("{name} = {value} is not finite"),
                ));
            }
            p[k] = value;
        }
        out.vertices.push(p);
    }
    let n = out.vertices.len() as i64;
    for (f, face) in faces.iter().enumerate() {
        let list = face
            .get("vertex_indices")
            .or_else(|| face.get("vertex_index"))
            .and_then(indices)
            .ok_or_else(|| {
                Error::parse(
                    format!("face {}", f + 1),
                    "no integer list \"vertex_indices\"",
                )
            })?;
        if list.len() < 3 {
            return Err(Error::parse(
                format!("face {}", f + 1),
                format!("{} vertices; a face needs 3", list.len()),
            ));
        }
        if let Some(bad) = list.iter().find(|&&i| i < 0 || i >= n) {
            return Err(Error::parse(
                format!("face {}", f + 1),
                format!("vertex index {bad} is out of range ({n} vertices)"),
            ));
        }
        for k in 1..list.len() - 1 {
            out.triangles
                .push([list[0] as u32, list[k] as u32, list[k + 1] as u32]);
        }
    }
    if out.triangles.is_empty() {
        return Err(Error::Empty("no faces in the PLY file".into()));
    }
    Ok(out)
}

/// An error from the PLY crate on one line, cut to 200 characters.
fn clip_long(s: &str) -> String {
    if s.chars().count() > 200 {
        format!("{}…", s.chars().take(200).collect::<String>())
    } else {
        s.to_string()
    }
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
        assert!(e(&t).starts_with("PLY:"));
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
        assert!(e(huge).starts_with("PLY:"));
    }
}
