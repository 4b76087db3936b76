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
