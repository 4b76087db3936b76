//! A large ASCII drawing's ENTITIES section read in pieces on every core by the `dxf`
//! crate, the rest of the drawing (header, tables, blocks, objects) beside them.
//!
//! Each piece is a drawing of its own: the file's header (so that what depends on the
//! version, and the text encoding, is read alike), an ENTITIES section holding a run of
//! whole entities, and the end. The entities of the pieces, in order, are those the crate
//! reads from the whole file, under conditions checked on the text first:
//!
//! - every entity of the section is of a type the crate reads as one entity from its own
//!   group pairs ([`PLAIN`]): none that it joins to the one before (`VERTEX`, `SEQEND`,
//!   `ATTRIB`, `MTEXT` after an attribute) and none that it skips;
//! - every entity writes its handle (group 5): the crate numbers one without from the
//!   drawing's next free handle, which a piece does not know;
//! - each piece gives as many entities as it starts (the crate ends its list at an entity
//!   it cannot read, where the whole file would be refused).
//!
//! Anything else (a smaller section, a binary drawing, a refusal anywhere) is read whole,
//! as before, so that errors are the crate's own, with their line numbers.

use ::dxf::Drawing;
use ::dxf::entities::Entity;
use rayon::prelude::*;

/// Entity types read in pieces (see the [module documentation](self)).
const PLAIN: &[&[u8]] = &[
    b"LINE",
    b"ARC",
    b"CIRCLE",
    b"ELLIPSE",
    b"LWPOLYLINE",
    b"SPLINE",
    b"POINT",
    b"TEXT",
];

/// An ENTITIES section smaller than this is read whole (in pieces it gains less than the
/// copies cost).
const MIN_BYTES: usize = 1 << 20;

/// The lines of `text` as (offset of the line, the line without surrounding white space).
fn lines(text: &str) -> impl Iterator<Item = (usize, &[u8])> {
    let base = text.as_ptr() as usize;
    text.lines()
        .map(move |l| (l.as_ptr() as usize - base, l.trim_ascii().as_bytes()))
}

/// Where a drawing's ENTITIES section may be cut: the end of what precedes the first
/// section other than HEADER (the header, to repeat in each piece), the start and end of
/// the section's entities, and the offset where each entity starts. `None` unless every
/// condition of the [module documentation](self) holds on the text.
fn layout(bytes: &[u8], min_bytes: usize) -> Option<(usize, usize, usize, Vec<usize>)> {
    if bytes.starts_with(b"AutoCAD Binary DXF") || bytes.starts_with(b"AutoCAD DXB") {
        return None;
    }
    // A drawing that is not UTF-8 (an older code page) is read whole.
    let text = std::str::from_utf8(bytes).ok()?;
    let mut it = lines(text);
    let mut prefix_end = None;
    let mut body = None;
    // Group pairs up to the ENTITIES section.
    while let (Some((at, code)), Some((_, value))) = (it.next(), it.next()) {
        if code == b"0" && value == b"SECTION" {
            let (Some((_, c2)), Some((name_at, name))) = (it.next(), it.next()) else {
                return None;
            };
            if c2 != b"2" {
                return None;
            }
            if name != b"HEADER" && prefix_end.is_none() {
                prefix_end = Some(at);
            }
            if name == b"ENTITIES" {
                // The entities start on the line after the name.
                let after = bytes[name_at..].iter().position(|&b| b == b'\n')? + name_at + 1;
                body = Some(after);
                break;
            }
        }
    }
    let (prefix_end, start) = (prefix_end?, body?);
    let mut starts = Vec::new();
    let mut handle = true;
    let mut end = None;
    while let (Some((at, code)), Some((_, value))) = (it.next(), it.next()) {
        if code == b"0" {
            if !handle {
                return None;
            }
            if value == b"ENDSEC" {
                end = Some(at);
                break;
            }
            if !PLAIN.contains(&value) {
                return None;
            }
            starts.push(at);
            handle = false;
        } else if code == b"5" {
            handle = true;
        } else if code.is_empty() {
            // The crate ends its reading at an empty code line.
            return None;
        }
    }
    let end = end?;
    (end - start >= min_bytes && starts.first() == Some(&start))
        .then_some((prefix_end, start, end, starts))
}

/// Reads a drawing with the `dxf` crate, text or binary.
fn read(doc: &[u8]) -> Option<Drawing> {
    Drawing::load(&mut std::io::Cursor::new(doc)).ok()
}

/// The entities of a drawing, taken out of it in order.
pub(super) fn take_entities(drawing: &mut Drawing) -> Vec<Entity> {
    let n = drawing.entities().count();
    let mut out: Vec<Entity> = (0..n)
        .rev()
        .filter_map(|i| drawing.remove_entity(i))
        .collect();
    out.reverse();
    out
}

/// The drawing without its entities, and its entities in order, read in `pieces` pieces
/// of its ENTITIES section at once; `None` where it is to be read whole (see the
/// [module documentation](self)).
pub(super) fn load(bytes: &[u8], pieces: usize) -> Option<(Drawing, Vec<Entity>)> {
    load_with(bytes, pieces, MIN_BYTES)
}

/// [`load`], for an ENTITIES section of at least `min_bytes`.
fn load_with(bytes: &[u8], pieces: usize, min_bytes: usize) -> Option<(Drawing, Vec<Entity>)> {
    if pieces < 2 {
        return None;
    }
    let (prefix_end, start, end, starts) = layout(bytes, min_bytes)?;
    // Pieces of about equal size, cut where entities start.
    let size = (end - start).div_ceil(pieces);
    let mut cuts = vec![0];
    for (k, &s) in starts.iter().enumerate() {
        if s - starts[*cuts.last()?] >= size {
            cuts.push(k);
        }
    }
    cuts.push(starts.len());
    let runs: Vec<(usize, usize, usize)> = cuts
        .windows(2)
        .filter(|w| w[1] > w[0])
        .map(|w| {
            let to = starts.get(w[1]).copied().unwrap_or(end);
            (starts[w[0]], to, w[1] - w[0])
        })
        .collect();
    let head = &bytes[..prefix_end];
    let (rest, entities) = rayon::join(
        || {
            let mut doc = Vec::with_capacity(bytes.len() - (end - start));
            doc.extend_from_slice(&bytes[..start]);
            doc.extend_from_slice(&bytes[end..]);
            read(&doc)
        },
        || {
            runs.par_iter()
                .map(|&(from, to, count)| {
                    let mut doc = Vec::with_capacity(prefix_end + (to - from) + 64);
                    doc.extend_from_slice(head);
                    if !head.is_empty() && !head.ends_with(b"\n") {
                        doc.push(b'\n');
                    }
                    doc.extend_from_slice(b"0\nSECTION\n2\nENTITIES\n");
                    doc.extend_from_slice(&bytes[from..to]);
                    if !doc.ends_with(b"\n") {
                        doc.push(b'\n');
                    }
                    doc.extend_from_slice(b"0\nENDSEC\n0\nEOF\n");
                    let mut d = read(&doc)?;
                    let got = take_entities(&mut d);
                    (got.len() == count).then_some(got)
                })
                .collect::<Option<Vec<Vec<Entity>>>>()
        },
    );
    let mut rest = rest?;
    if rest.entities().next().is_some() {
        return None;
    }
    let entities = entities?.into_iter().flatten().collect();
    // The drawing's own: nothing of it is in `rest` (checked), so taking is a no-op.
    let _ = take_entities(&mut rest);
    Some((rest, entities))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The drawing read whole, and its entities.
    fn whole(bytes: &[u8]) -> (Drawing, Vec<Entity>) {
        let mut d = Drawing::load(&mut std::io::Cursor::new(bytes)).unwrap();
        let e = take_entities(&mut d);
        (d, e)
    }

    /// Entities alike to the bit: their debug forms (every field, floats with all their
    /// digits) are equal.
    fn same(a: &[Entity], b: &[Entity]) {
        assert_eq!(a.len(), b.len());
        for (x, y) in a.iter().zip(b) {
            assert_eq!(format!("{x:?}"), format!("{y:?}"));
        }
    }

    /// A drawing with a header and tables, many entities of the plain types, then blocks
    /// and objects after.
    fn many(n: usize) -> Vec<u8> {
        let mut s = String::from(
            "0\nSECTION\n2\nHEADER\n9\n$ACADVER\n1\nAC1015\n9\n$INSUNITS\n70\n4\n0\nENDSEC\n\
             0\nSECTION\n2\nTABLES\n0\nTABLE\n2\nLAYER\n0\nLAYER\n2\nHOLES\n70\n0\n62\n7\n0\nENDTAB\n0\nENDSEC\n\
             0\nSECTION\n2\nENTITIES\n",
        );
        for k in 0..n {
            let (x, y) = (k as f64 * 0.1 + 1e-7, (k % 97) as f64 / 3.0);
            let h = 0x100 + 4 * k;
            s +=
                &format!("0\nCIRCLE\n5\n{h:X}\n8\nHOLES\n10\n{x:?}\n20\n{y:?}\n40\n0.0123456789\n");
            s += &format!(
                "  0\r\nLINE\r\n  5\r\n{:X}\r\n  8\r\n0\r\n 10\r\n{x:?}\r\n 20\r\n{y:?}\r\n 11\r\n{}\r\n 21\r\n{}\r\n",
                h + 1,
                x + 1.0 / 3.0,
                y - 2.0 / 7.0
            );
            s += &format!(
                "0\nLWPOLYLINE\n5\n{:X}\n8\n0\n90\n3\n70\n1\n10\n{x:?}\n20\n{y:?}\n42\n0.25\n10\n{}\n20\n{y:?}\n10\n{x:?}\n20\n{}\n",
                h + 2,
                x + 0.7,
                y + 0.3
            );
            s += &format!(
                "0\nSPLINE\n5\n{:X}\n8\n0\n70\n8\n71\n2\n72\n6\n73\n3\n40\n0\n40\n0\n40\n0\n40\n1\n40\n1\n40\n1\n10\n{x:?}\n20\n{y:?}\n30\n0\n10\n{}\n20\n{}\n30\n0\n10\n{}\n20\n{y:?}\n30\n0\n",
                h + 3,
                x + 0.5,
                y + 1.0,
                x + 1.0
            );
        }
        s += "0\nENDSEC\n0\nSECTION\n2\nBLOCKS\n0\nBLOCK\n2\nB\n8\n0\n10\n0\n20\n0\n0\nCIRCLE\n5\n50\n8\n0\n10\n1\n20\n1\n40\n1\n0\nENDBLK\n0\nENDSEC\n0\nSECTION\n2\nOBJECTS\n0\nENDSEC\n0\nEOF\n";
        s.into_bytes()
    }

    #[test]
    fn pieces_read_as_the_whole() {
        let bytes = many(3000);
        assert!(bytes.len() > MIN_BYTES);
        let (d, e) = whole(&bytes);
        for pieces in [2, 3, 8] {
            let (p, f) = load(&bytes, pieces).expect("read in pieces");
            same(&e, &f);
            // What is read of the header (not the dates and identifiers the crate makes up
            // at each load, nor the next free handle, which nothing here uses).
            assert_eq!(
                (d.header.version, d.header.default_drawing_units),
                (p.header.version, p.header.default_drawing_units)
            );
            assert_eq!(d.blocks().count(), p.blocks().count());
            assert_eq!(
                d.layers().map(|l| l.name.clone()).collect::<Vec<_>>(),
                p.layers().map(|l| l.name.clone()).collect::<Vec<_>>()
            );
        }
        // Small sections, or one with a type read with its neighbours, or an entity
        // without a handle, are read whole.
        assert!(load(&many(10), 2).is_none());
        let text = String::from_utf8(bytes.clone()).unwrap();
        let vertex = text.replacen(
            "0\nCIRCLE\n",
            "0\nPOLYLINE\n5\nFFFFF\n0\nVERTEX\n5\nFFFFE\n0\nSEQEND\n5\nFFFFD\n0\nCIRCLE\n",
            1,
        );
        assert!(load(vertex.as_bytes(), 2).is_none());
        let unhandled = text.replacen("LINE\r\n  5\r\n101\r\n", "LINE\r\n", 1);
        assert!(load(unhandled.as_bytes(), 2).is_none());
    }

    #[test]
    fn a_piece_the_crate_refuses_is_read_whole() {
        // A number the crate cannot read, in the middle of the section: the whole file is
        // refused by the crate, with its message; in pieces it is not read at all.
        let text = String::from_utf8(many(3000)).unwrap();
        let bad = text.replacen("40\n0.0123456789\n", "40\nnot a number\n", 1500);
        assert!(Drawing::load(&mut std::io::Cursor::new(bad.as_bytes())).is_err());
        assert!(load(bad.as_bytes(), 2).is_none());
        // The last entity of a piece unreadable at its end: each piece's count catches it.
        let bytes = many(3000);
        let (_, _, _, starts) = layout(&bytes, MIN_BYTES).unwrap();
        let mid = starts[starts.len() / 2];
        let mut cut = bytes[..mid].to_vec();
        cut.extend_from_slice(b"0\nCIRCLE\n5\nABCDEF\n40\nx\n");
        cut.extend_from_slice(&bytes[mid..]);
        assert_eq!(
            Drawing::load(&mut std::io::Cursor::new(&cut)).is_ok(),
            load(&cut, 2).is_some()
        );
    }

    #[test]
    fn fixtures_read_in_pieces_as_whole() {
        for path in [
            "fixtures/polygon/a3_sheet.dxf",
            "fixtures/polygon/slot_plate.dxf",
            "fixtures/bad/open_polyline.dxf",
        ] {
            let bytes = std::fs::read(path).unwrap();
            let (d, e) = whole(&bytes);
            for pieces in [2, 3] {
                let (p, f) = load_with(&bytes, pieces, 0).expect(path);
                same(&e, &f);
                // What is read of the header (not the dates and identifiers the crate makes up
                // at each load, nor the next free handle, which nothing here uses).
                assert_eq!(
                    (d.header.version, d.header.default_drawing_units),
                    (p.header.version, p.header.default_drawing_units)
                );
                assert_eq!(d.blocks().count(), p.blocks().count());
                assert_eq!(d.objects().count(), p.objects().count());
            }
        }
    }
}
