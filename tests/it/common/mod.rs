//! Helpers shared by the integration tests.

/// An OBJ of axis-aligned boxes, each given by its low corner, its size and whether it is
/// wound inward (a cavity); quads split into two triangles.
pub fn boxes_obj(boxes: &[([f64; 3], [f64; 3], bool)]) -> String {
    let mut s = String::new();
    for (k, (min, size, inward)) in boxes.iter().enumerate() {
        for c in 0..8 {
            let p = [0, 1, 2].map(|a| min[a] + if c >> a & 1 == 1 { size[a] } else { 0.0 });
            s += &format!("v {} {} {}\n", p[0], p[1], p[2]);
        }
        let o = 8 * k + 1;
        // Outward quads (reversed when inward).
        for q in [
            [0, 2, 3, 1],
            [4, 5, 7, 6],
            [0, 1, 5, 4],
            [2, 6, 7, 3],
            [0, 4, 6, 2],
            [1, 3, 7, 5],
        ] {
            let (a, b, c, d) = (o + q[0], o + q[1], o + q[2], o + q[3]);
            if *inward {
                s += &format!("f {a} {c} {b}\nf {a} {d} {c}\n");
            } else {
                s += &format!("f {a} {b} {c}\nf {a} {c} {d}\n");
            }
        }
    }
    s
}

/// `text` with every number rounded to 10 significant digits and any number below 1e-10 of
/// the largest one written as 0, for snapshots: a sum regrouped by a refactor changes the
/// last bits of a result (and the noise in a product that is 0 exactly), not the behaviour a
/// snapshot pins. A number glued to a letter or `_` (`I1`, `part_1e6`) is left alone.
pub fn stable(text: &str) -> String {
    let is_num = |c: char| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '-' | '+');
    // Tokens: (start, end, value) of each number standing on its own.
    let mut tokens = Vec::new();
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut i = 0;
    while i < chars.len() {
        let (at, c) = chars[i];
        let glued = i > 0 && (chars[i - 1].1.is_alphanumeric() || chars[i - 1].1 == '_');
        let starts = c.is_ascii_digit()
            || (c == '-' && chars.get(i + 1).is_some_and(|n| n.1.is_ascii_digit()));
        if starts && !glued {
            let mut j = i + 1;
            while j < chars.len() && is_num(chars[j].1) {
                // A sign only right after an exponent.
                if matches!(chars[j].1, '-' | '+') && !matches!(chars[j - 1].1, 'e' | 'E') {
                    break;
                }
                j += 1;
            }
            let end = chars.get(j).map_or(text.len(), |c| c.0);
            if let Ok(v) = text[at..end].parse::<f64>() {
                tokens.push((at, end, v));
            }
            i = j;
        } else {
            i += 1;
        }
    }
    let scale = tokens.iter().map(|t| t.2.abs()).fold(0.0, f64::max);
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for (start, end, v) in tokens {
        out.push_str(&text[last..start]);
        let v = if v.abs() < 1e-10 * scale { 0.0 } else { v };
        let rounded: f64 = format!("{v:.9e}").parse().unwrap();
        out.push_str(&format!("{}", rounded + 0.0));
        last = end;
    }
    out.push_str(&text[last..]);
    out
}

#[test]
fn stable_rounds_numbers_and_clears_noise() {
    assert_eq!(
        stable("ixy 1.0408340855860843e-16, iyy 0.9166666666666665 (I1, part_1e6) -45°"),
        "ixy 0, iyy 0.9166666667 (I1, part_1e6) -45°"
    );
    assert_eq!(stable("[\n  2.0,\n  -3\n]"), "[\n  2,\n  -3\n]");
}
