//! How far a repair may reach, and the distances it is measured by.
//!
//! The rule for imperfect input: the coordinates are taken as they are written, exactly;
//! no precision is inferred from how many digits they have, whether they are `f32`, or
//! from other bodies in the file. A repair on the way to a closed solid that does not
//! cross itself (a corner split into another triangle's edge, a crossing or a fold taken
//! for two bodies touching) is *looked for* only where it reaches no further than
//! [`REACH`] of the longest edge of the triangles it joins, or than the rounding of the
//! arithmetic at their magnitude; and it is *accepted* only by what it can change: each
//! repair carries a bound on the volume it moves (a split triangle's tetrahedron exactly;
//! a contact its depth times the area of the faces in contact), and the body is answered
//! only when those bounds together stay within the repair tolerance of its volume
//! ([`crate::solid::Options::repair_tolerance`]), the bound reported beside the answer.

/// The default repair tolerance ([`crate::solid::Options::repair_tolerance`]): 1e-5 of
/// the volume, about a unit in the sixth significant digit a CAD program's
/// mass-properties dialog shows. (A millionth refuses what six written digits, the most
/// common text export, can say: two unit cubes resting on each other, turned and written
/// with 6 digits, cross by 1.1e-6 and carry a bound of 1.1e-6 of their volume.)
pub const DEFAULT_REPAIR_TOLERANCE: f64 = 1e-5;

/// What to do with triangles that cross or coincide (two bodies overlapping).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum OverlapPolicy {
    /// Refuse the body, naming the two triangles.
    #[default]
    Refuse,
    /// Add the bodies as they are (the common space counts twice), with a warning.
    Sum,
    /// Integrate the union of the bodies (the space they share counted once), computed
    /// exactly by CGAL's corefinement (feature `union`; see [`crate::union`]).
    #[cfg(feature = "union")]
    Union,
}

impl OverlapPolicy {
    /// Whether bodies may overlap (summed or united) rather than being refused.
    pub(crate) fn allows_overlap(self) -> bool {
        self != OverlapPolicy::Refuse
    }
}

/// What validation may accept on the way from a file's triangles to a closed solid: the
/// same for [`crate::Mesh::with_checks`] and the command line.
///
/// # Examples
/// ```
/// use inertia::tolerance::{Checks, OverlapPolicy};
/// let lenient = Checks { overlap: OverlapPolicy::Sum, ..Checks::default() };
/// assert_eq!(lenient.repair_tolerance, inertia::tolerance::DEFAULT_REPAIR_TOLERANCE);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Checks {
    /// Triangles of two bodies that cross or coincide: refused, or summed.
    pub overlap: OverlapPolicy,
    /// Open corners closer than this are joined; `None`: each corner's own rounding (see
    /// [`crate::RawMesh::welded_by_rounding`]).
    pub weld_tolerance: Option<f64>,
    /// The most the repairs' bounds together may change the volume, relative to it.
    pub repair_tolerance: f64,
}

impl Default for Checks {
    fn default() -> Self {
        Checks {
            overlap: OverlapPolicy::Refuse,
            weld_tolerance: None,
            repair_tolerance: DEFAULT_REPAIR_TOLERANCE,
        }
    }
}

/// How far a repair may reach, as a fraction of the longest edge of the triangles it
/// joins: a corner this close to an edge, or a crossing this shallow, is a candidate;
/// whether it is accepted is its bound's to say.
pub const REACH: f64 = 1e-3;

/// Half-units in the last place of `f64` that the arithmetic of turning or moving a part
/// leaves between coordinates that were one point (sixteen units).
const DOUBLE_HALF_UNITS: f64 = 32.0;

/// The largest magnitude of any coordinate of the triangles.
pub(crate) fn magnitude(ts: &[&[[f64; 3]; 3]]) -> f64 {
    ts.iter()
        .flat_map(|t| t.iter().flatten())
        .fold(0.0_f64, |m, x| m.max(x.abs()))
}

/// The rounding of `f64` arithmetic at magnitude `m` ([`DOUBLE_HALF_UNITS`] halves of a
/// unit in the last place).
pub(crate) fn rounding(m: f64) -> f64 {
    let m = m.abs().max(f64::MIN_POSITIVE);
    DOUBLE_HALF_UNITS * (m.next_up() - m) / 2.0
}

/// How far a point may lie from triangle `t` and count as on it (a shell's probe point):
/// [`REACH`] of its shortest edge (of a sliver, its width), or the arithmetic's rounding at
/// its magnitude if that is more.
pub(crate) fn reach_across(t: &[[f64; 3]; 3]) -> f64 {
    let shortest = edge_lengths(t).fold(f64::INFINITY, f64::min);
    rounding(magnitude(&[t])).max(REACH * shortest)
}

/// The lengths of `t`'s three edges.
fn edge_lengths(t: &[[f64; 3]; 3]) -> impl Iterator<Item = f64> + '_ {
    (0..3).map(move |k| {
        let (a, b) = (t[k], t[(k + 1) % 3]);
        let d = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
        (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt()
    })
}

/// The longest edge of the triangles.
pub(crate) fn longest_edge(ts: &[&[[f64; 3]; 3]]) -> f64 {
    ts.iter()
        .flat_map(|t| edge_lengths(t))
        .filter(|l| l.is_finite())
        .fold(0.0_f64, f64::max)
}

/// How far a repair joining these triangles may reach: [`REACH`] of their longest edge,
/// or the arithmetic's rounding at their magnitude if that is more.
pub(crate) fn reach(ts: &[&[[f64; 3]; 3]]) -> f64 {
    rounding(magnitude(ts)).max(REACH * longest_edge(ts))
}

/// Whether the bounds that repairs carry (contacts taken for touching, T-junctions split;
/// see [`crate::tolerance`]) together stay within `tolerance` of `volume`.
///
/// # Errors
/// [`crate::error::Error::RepairTooLarge`], naming the repair, its bound and the bound relative to the
/// volume.
pub(crate) fn judge(
    contacts: Option<crate::body::Contacts>,
    junctions: Option<crate::body::Junctions>,
    volume: f64,
    tolerance: f64,
) -> crate::error::Result<()> {
    let contacts = contacts.filter(|c| c.count > 0);
    let bound =
        contacts.map_or(0.0, |c| c.volume_bound) + junctions.map_or(0.0, |j| j.volume_bound);
    if bound == 0.0 {
        return Ok(());
    }
    let relative = bound / volume.abs();
    if relative <= tolerance {
        return Ok(());
    }
    let repair = match (contacts, junctions) {
        (Some(c), None) => crate::error::Repair::Contacts {
            count: c.count,
            max_depth: c.max_depth,
            crossing: c.place,
        },
        (None, Some(j)) => crate::error::Repair::Junctions {
            points: j.points,
            largest_offset: j.largest_offset,
        },
        _ => crate::error::Repair::Both,
    };
    Err(crate::error::Error::RepairTooLarge {
        repair,
        bound,
        relative,
        tolerance,
    })
}

/// `t`'s normal, unnormalised, oriented as `(t1 − t0) × (t2 − t0)`, found from the two
/// edges meeting at the corner opposite its longest edge: across a long thin triangle (a
/// 31 × 0.25 face of a beam) the two long edges meet at a small angle, and their cross
/// product keeps only a few of its digits, where the short edge and a long one, nearly
/// square to each other, keep them all. Also that corner.
pub(crate) fn normal_at(t: &[[f64; 3]; 3]) -> ([f64; 3], [f64; 3]) {
    let sub = |x: &[f64; 3], y: &[f64; 3]| [x[0] - y[0], x[1] - y[1], x[2] - y[2]];
    let len2 = |v: [f64; 3]| v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
    let k = (0..3)
        .max_by(|&i, &j| {
            len2(sub(&t[(i + 1) % 3], &t[i])).total_cmp(&len2(sub(&t[(j + 1) % 3], &t[j])))
        })
        .unwrap_or(0);
    let o = t[(k + 2) % 3];
    let (u, v) = (sub(&t[k], &o), sub(&t[(k + 1) % 3], &o));
    (
        [
            u[1] * v[2] - u[2] * v[1],
            u[2] * v[0] - u[0] * v[2],
            u[0] * v[1] - u[1] * v[0],
        ],
        o,
    )
}

/// `t`'s unit normal (see [`normal_at`]; zero for a degenerate triangle), its area, and the
/// corner it was found at.
pub(crate) fn unit_normal(t: &[[f64; 3]; 3]) -> ([f64; 3], f64, [f64; 3]) {
    let (n, o) = normal_at(t);
    let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
    if len > 0.0 && len.is_finite() {
        (n.map(|x| x / len), len / 2.0, o)
    } else {
        ([0.0; 3], 0.0, o)
    }
}

/// The distance (rounded) of `p` from the plane of `t`.
pub(crate) fn plane_distance(t: &[[f64; 3]; 3], p: &[f64; 3]) -> f64 {
    let (n, _, o) = unit_normal(t);
    (n[0] * (p[0] - o[0]) + n[1] * (p[1] - o[1]) + n[2] * (p[2] - o[2])).abs()
}

/// The distance (rounded) of `p` from the segment `a b`.
fn segment_distance(p: &[f64; 3], a: &[f64; 3], b: &[f64; 3]) -> f64 {
    let u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
    let w = [p[0] - a[0], p[1] - a[1], p[2] - a[2]];
    let uu = u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
    let s = if uu > 0.0 {
        ((w[0] * u[0] + w[1] * u[1] + w[2] * u[2]) / uu).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let d = [w[0] - s * u[0], w[1] - s * u[1], w[2] - s * u[2]];
    (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt()
}

/// The distance from `p` to the closed triangle `t` (rounded): from its plane when `p`
/// lies over it, else from the nearest of its edges. (Barycentric closest-point formulas
/// lose digits on long thin triangles, to 1e-11 on a 31 × 0.25 face; these keep them.)
pub(crate) fn distance(p: &[f64; 3], t: &[[f64; 3]; 3]) -> f64 {
    let (n, area, _) = unit_normal(t);
    let over = area > 0.0
        && (0..3).all(|k| {
            let (a, b) = (&t[k], &t[(k + 1) % 3]);
            let e = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
            let w = [p[0] - a[0], p[1] - a[1], p[2] - a[2]];
            // (e × w) · n: p on the triangle's side of this edge.
            let c = [
                e[1] * w[2] - e[2] * w[1],
                e[2] * w[0] - e[0] * w[2],
                e[0] * w[1] - e[1] * w[0],
            ];
            c[0] * n[0] + c[1] * n[1] + c[2] * n[2] >= 0.0
        });
    if over {
        return plane_distance(t, p);
    }
    (0..3)
        .map(|k| segment_distance(p, &t[k], &t[(k + 1) % 3]))
        .fold(f64::INFINITY, f64::min)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance_to_a_triangle() {
        let t = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
        assert_eq!(distance(&[0.25, 0.25, 2.0], &t), 2.0);
        assert_eq!(distance(&[-3.0, 0.0, 4.0], &t), 5.0);
        assert!((distance(&[1.0, 1.0, 0.0], &t) - 0.5f64.sqrt()).abs() < 1e-15);
        assert_eq!(distance(&[0.5, -1.0, 0.0], &t), 1.0);
    }

    #[test]
    fn distance_to_a_long_thin_triangle_keeps_its_digits() {
        // A beam's bottom face, 31 × 0.25, turned, and a point of its plane in the middle:
        // the barycentric formulas found it 1e-11 away; the plane, from the short edge and
        // a long one, finds it within a few units in the last place.
        let turn = |p: [f64; 3]| {
            let (s, c) = 37f64.to_radians().sin_cos();
            [c * p[0] - s * p[1], s * p[0] + c * p[1], p[2]]
        };
        let t = [[-1.1, 0.2, 1.0], [29.9, 0.45, 1.0], [29.9, 0.2, 1.0]].map(turn);
        let p = turn([4.5, 0.22, 1.0]);
        assert!(distance(&p, &t) < 1e-14, "{}", distance(&p, &t));
        assert!(plane_distance(&t, &p) < 1e-14);
        let above = turn([4.5, 0.22, 1.5]);
        assert!((distance(&above, &t) - 0.5).abs() < 1e-14);
    }
}
