//! Exact orientation predicates (`robust`'s adaptive `orient3d` and `orient2d`) as signs,
//! shared by the overlap check and the shell check.

/// A point as `robust` takes it.
fn coord(p: &[f64; 3]) -> robust::Coord3D<f64> {
    robust::Coord3D {
        x: p[0],
        y: p[1],
        z: p[2],
    }
}

/// Exact sign of the orientation of `d` against the plane through `a, b, c`.
pub(crate) fn orient(a: &[f64; 3], b: &[f64; 3], c: &[f64; 3], d: &[f64; 3]) -> i8 {
    let v = robust::orient3d(coord(a), coord(b), coord(c), coord(d));
    if v > 0.0 {
        1
    } else if v < 0.0 {
        -1
    } else {
        0
    }
}

/// Whether the triangle's three corners are collinear (exactly).
pub(crate) fn degenerate(t: &[[f64; 3]; 3]) -> bool {
    // Collinear iff every axis projection is collinear.
    (0..3).all(|drop| {
        orient2(
            &project(t[0], drop),
            &project(t[1], drop),
            &project(t[2], drop),
        ) == 0
    })
}

/// The point with axis `drop` left out.
pub(crate) fn project(p: [f64; 3], drop: usize) -> [f64; 2] {
    match drop {
        0 => [p[1], p[2]],
        1 => [p[2], p[0]],
        _ => [p[0], p[1]],
    }
}

/// Exact sign of the orientation of `c` against the line through `a, b`.
pub(crate) fn orient2(a: &[f64; 2], b: &[f64; 2], c: &[f64; 2]) -> i8 {
    let k = |p: &[f64; 2]| robust::Coord { x: p[0], y: p[1] };
    let v = robust::orient2d(k(a), k(b), k(c));
    if v > 0.0 {
        1
    } else if v < 0.0 {
        -1
    } else {
        0
    }
}
