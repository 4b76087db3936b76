//! Floating-point care for triangles: area vectors that keep a sliver's digits, and the
//! physical checks on a mesh's integrals.

use crate::error::{Error, Result};

/// Twice the area vector of triangle (a, b, c), `(b − a) × (c − a)`. Where that rounds to
/// exactly zero, it is computed again from the corner opposite the longest edge, whose two
/// short edges keep their digits: a sliver 10²² long and 4 wide must not come out of zero
/// area and be dropped from the integrals. (Always anchoring there costs a fifth of the
/// parallel path's time; only the zero case decides anything.)
///
/// # Examples
/// ```
/// let n = inertia::mesh::area_vector([[7.8e22, 7.8e21, 7.8e18], [0.0, 4.0, 0.0], [4.0, 4.0, 0.0]]);
/// assert!(n.iter().any(|v| *v != 0.0));
/// assert_eq!(inertia::mesh::area_vector([[0.0; 3], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]), [0.0, 0.0, 1.0]);
/// assert_eq!(inertia::mesh::area_vector([[0.0; 3], [1.0, 1.0, 1.0], [2.0, 2.0, 2.0]]), [0.0; 3]);
/// ```
#[inline(always)]
pub fn area_vector(p: [[f64; 3]; 3]) -> [f64; 3] {
    let n = cross_at(p, 0);
    if n != [0.0; 3] {
        n
    } else {
        area_vector_again(p)
    }
}

/// [`area_vector`] anchored at the corner opposite the longest edge.
#[cold]
#[inline(never)]
pub(super) fn area_vector_again(p: [[f64; 3]; 3]) -> [f64; 3] {
    let d = |i: usize, j: usize| {
        let (u, v) = (p[i], p[j]);
        let w = [v[0] - u[0], v[1] - u[1], v[2] - u[2]];
        w[0] * w[0] + w[1] * w[1] + w[2] * w[2]
    };
    // Edge opposite corner k: between the other two.
    let opposite = [d(1, 2), d(2, 0), d(0, 1)];
    let k = if opposite[0] >= opposite[1] && opposite[0] >= opposite[2] {
        0
    } else if opposite[1] >= opposite[2] {
        1
    } else {
        2
    };
    cross_at(p, k)
}

/// `(b − a) × (c − a)` anchored at corner k: `(p[k+1] − p[k]) × (p[k+2] − p[k])`, equal for
/// every k in exact arithmetic.
#[inline(always)]
pub(super) fn cross_at(p: [[f64; 3]; 3], k: usize) -> [f64; 3] {
    let (o, b, c) = (p[k], p[(k + 1) % 3], p[(k + 2) % 3]);
    let u = [b[0] - o[0], b[1] - o[1], b[2] - o[2]];
    let v = [c[0] - o[0], c[1] - o[1], c[2] - o[2]];
    [
        u[1] * v[2] - u[2] * v[1],
        u[2] * v[0] - u[0] * v[2],
        u[0] * v[1] - u[1] * v[0],
    ]
}

/// Refuses mass properties no solid can have: a closed surface that passes through itself
/// has no well-defined inside, and its signed integrals come out unphysical.
pub(crate) fn physical(p: &crate::mass3d::MassProperties3d) -> Result<()> {
    // Overflow first: a mesh 1e200 across has moments beyond f64, which is not a fold.
    if !p.volume.is_finite() || p.inertia.iter().any(|v| !v.is_finite()) {
        return Err(Error::Unresolvable {
            what: crate::error::Unresolved::MeshOverflow {
                moment: p.volume.is_finite(),
            },
        });
    }
    let m = crate::mass3d::principal(&p.inertia).moments;
    let trace = m[0] + m[1] + m[2];
    let tol = 1e-9 * trace.abs();
    if p.volume.is_nan()
        || p.volume <= 0.0
        || m[0] < -tol
        || m[2] > m[0] + m[1] + tol
        || !trace.is_finite()
    {
        return Err(Error::Unphysical {
            volume: p.volume,
            moments: m,
        });
    }
    Ok(())
}
