//! Exact orientation predicates (`robust`'s adaptive `orient3d` and `orient2d`) as signs,
//! shared by the overlap check and the shell check, and [`orient_perturbed`], which is
//! never 0.

/// A point as `robust` takes it.
fn coord(p: &[f64; 3]) -> robust::Coord3D<f64> {
    robust::Coord3D {
        x: p[0],
        y: p[1],
        z: p[2],
    }
}

/// Exact sign of the orientation of `d` against the plane through `a, b, c`.
///
/// When `a, b, c` share one coordinate exactly (a face square to an axis, as most of a
/// CAD part's flat faces are), the determinant is the product of `d`'s offset along that
/// axis and the triangle's `orient2d` seen along it, so its sign is read from a comparison
/// and a 2D predicate: `orient3d`'s adaptive stages are slowest on the exact zeros such
/// faces give (a neighbour in the same plane).
#[inline]
pub(crate) fn orient(a: &[f64; 3], b: &[f64; 3], c: &[f64; 3], d: &[f64; 3]) -> i8 {
    for k in 0..3 {
        if a[k] == b[k] && a[k] == c[k] {
            let off = match a[k].partial_cmp(&d[k]) {
                Some(std::cmp::Ordering::Greater) => 1,
                Some(std::cmp::Ordering::Less) => -1,
                Some(std::cmp::Ordering::Equal) => return 0,
                None => break,
            };
            return off * orient2(&project(*a, k), &project(*b, k), &project(*c, k));
        }
    }
    let v = robust::orient3d(coord(a), coord(b), coord(c), coord(d));
    if v > 0.0 {
        1
    } else if v < 0.0 {
        -1
    } else {
        0
    }
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
#[inline]
pub(crate) fn orient2(a: &[f64; 2], b: &[f64; 2], c: &[f64; 2]) -> i8 {
    // Shewchuk's first error bound: a determinant larger than it has its computed sign.
    let left = (a[0] - c[0]) * (b[1] - c[1]);
    let right = (a[1] - c[1]) * (b[0] - c[0]);
    let det = left - right;
    let bound =
        (3.0 + 16.0 * f64::EPSILON / 2.0) * (f64::EPSILON / 2.0) * (left.abs() + right.abs());
    if det > bound {
        return 1;
    }
    if -det > bound {
        return -1;
    }
    // Both products exactly zero, with a factor of each exactly zero (a difference of
    // floats is zero only between equal numbers): three points on a line parallel to an
    // axis, as the projections of a CAD part's axis-aligned faces are. The adaptive
    // predicate's slowest case, settled here.
    if (a[0] == c[0] || b[1] == c[1]) && (a[1] == c[1] || b[0] == c[0]) {
        return 0;
    }
    orient2_exact(a, b, c)
}

/// [`orient2`] by `robust`'s adaptive arithmetic, for the cases the filter leaves (kept
/// out of line: the filtered path is the common one, inlined where it is called).
#[inline(never)]
fn orient2_exact(a: &[f64; 2], b: &[f64; 2], c: &[f64; 2]) -> i8 {
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

/// The terms of a perturbed determinant, in the order that decides its sign (see
/// [`orient_perturbed`]): each a list of (rank of the point, coordinate) whose entries are
/// differentiated out.
fn perturbation_terms() -> &'static [Vec<(usize, usize)>] {
    static TERMS: std::sync::OnceLock<Vec<Vec<(usize, usize)>>> = std::sync::OnceLock::new();
    TERMS.get_or_init(|| {
        // Entry (rank r, coordinate c) is perturbed by eps^(2^(3r + c)): a set of entries
        // is a bit mask, and a smaller mask is a larger term as eps goes to 0.
        (1u32..1 << 12)
            .filter_map(|mask| {
                let mut term = Vec::new();
                let mut used = [false; 3];
                for r in 0..4 {
                    let bits = (mask >> (3 * r)) & 7;
                    if bits.count_ones() > 1 {
                        return None;
                    }
                    if bits != 0 {
                        let c = bits.trailing_zeros() as usize;
                        if used[c] {
                            return None;
                        }
                        used[c] = true;
                        term.push((r, c));
                    }
                }
                Some(term)
            })
            .collect()
    })
}

/// Exact sign of [`orient`] for the points moved by an infinitesimal *symbolic
/// perturbation* (Edelsbrunner and Mücke, "Simulation of Simplicity", 1990): never 0 when
/// the four `keys` differ, even for points that lie in one plane or on one another, and the
/// same perturbation of each point (told by its key) in every call, so that the answers of
/// all calls are those of one configuration in general position. A segment then crosses a
/// closed surface a number of times that adds up to the change of winding number along
/// it, whatever passes exactly through a corner or along an edge.
///
/// Coordinate `c` of the point of rank `r` among the four keys is moved by
/// `eps^(2^(3r + c))`; the perturbed determinant `det [p_i 1]` is a polynomial in `eps`
/// whose coefficients are the minors left when rows are replaced by unit vectors: the
/// determinant itself, then `orient2d` of three points seen along an axis, then differences
/// of one coordinate of two points, then ±1. Its sign is that of the first non-zero one.
/// Points with equal keys (the same point) give [`orient`]'s sign, which may be 0.
pub(crate) fn orient_perturbed(p: [&[f64; 3]; 4], keys: [u64; 4]) -> i8 {
    let s = orient(p[0], p[1], p[2], p[3]);
    if s != 0 {
        return s;
    }
    let mut order = [0usize, 1, 2, 3];
    order.sort_unstable_by_key(|&i| keys[i]);
    if order.windows(2).any(|w| keys[w[0]] == keys[w[1]]) {
        return 0;
    }
    for term in perturbation_terms() {
        // Rows (points, in argument order) and columns (x, y, z, then the ones) left.
        let (mut rows, mut nr) = ([0usize, 1, 2, 3], 4);
        let (mut cols, mut nc) = ([0usize, 1, 2, 3], 4);
        let mut sign = 1i8;
        for &(rank, c) in term {
            let r = order[rank];
            let pr = rows[..nr].iter().position(|&x| x == r).unwrap_or(0);
            let pc = cols[..nc].iter().position(|&x| x == c).unwrap_or(0);
            if (pr + pc) % 2 == 1 {
                sign = -sign;
            }
            rows.copy_within(pr + 1..nr, pr);
            cols.copy_within(pc + 1..nc, pc);
            nr -= 1;
            nc -= 1;
        }
        let minor = match nr {
            3 => {
                let q = |i: usize| [p[rows[i]][cols[0]], p[rows[i]][cols[1]]];
                orient2(&q(0), &q(1), &q(2))
            }
            2 => {
                let (a, b) = (p[rows[0]][cols[0]], p[rows[1]][cols[0]]);
                (a > b) as i8 - (a < b) as i8
            }
            _ => 1,
        };
        if minor != 0 {
            return sign * minor;
        }
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Lcg;

    /// `robust`'s sign, without the shortcut.
    fn reference(a: &[f64; 3], b: &[f64; 3], c: &[f64; 3], d: &[f64; 3]) -> i8 {
        let v = robust::orient3d(coord(a), coord(b), coord(c), coord(d));
        (v > 0.0) as i8 - (v < 0.0) as i8
    }

    #[test]
    fn the_filtered_orientation_is_the_exact_one() {
        let mut rng = Lcg(11);
        let mut close = 0;
        for _ in 0..200_000 {
            // Points exactly on a line (lattice points scaled by a power of two, the third
            // a whole multiple along), then some moved by a few ulps, and some at random.
            let scale = [1.0, 2f64.powi(20), 2f64.powi(-30), 2f64.powi(50)][rng.below(4) as usize];
            let p = |rng: &mut Lcg| [0, 1].map(|_| (rng.below(1 << 20) as f64 + 1e6) * scale);
            let (a, b) = (p(&mut rng), p(&mut rng));
            let k = rng.below(7) as f64 - 3.0;
            let mut c = [a[0] + k * (b[0] - a[0]), a[1] + k * (b[1] - a[1])];
            match rng.below(4) {
                0 => c = p(&mut rng),
                1 => {}
                _ => {
                    for x in &mut c {
                        for _ in 0..rng.below(3) {
                            *x = if rng.below(2) == 0 {
                                x.next_up()
                            } else {
                                x.next_down()
                            };
                        }
                    }
                }
            }
            let exact = orient2_exact(&a, &b, &c);
            close += (exact == 0) as usize;
            assert_eq!(orient2(&a, &b, &c), exact, "{a:?} {b:?} {c:?}");
        }
        // The filter was passed over on many cases, and the exact arithmetic decided them.
        assert!(close > 1000, "{close}");
    }

    #[test]
    fn points_sharing_a_coordinate_are_settled_as_the_exact_predicate_does() {
        // Three points with an x or a y in common (the projections of an axis-aligned
        // face): the shortcut's case. Some share it and lie on the line, some share it
        // with only two of them (a line, not parallel to an axis), some have a
        // difference so small that the products underflow to zero.
        let mut rng = Lcg(5);
        let mut shortcut = 0;
        for _ in 0..100_000 {
            let scale = [1.0, 1e-160, 1e-300, 2f64.powi(50)][rng.below(4) as usize];
            let v = |rng: &mut Lcg| (rng.below(9) as f64 - 4.0 + 1e6 * rng.below(2) as f64) * scale;
            let mut p = [
                [v(&mut rng), v(&mut rng)],
                [v(&mut rng), v(&mut rng)],
                [v(&mut rng), v(&mut rng)],
            ];
            let axis = rng.below(2) as usize;
            // Shared by all three, or by two of them.
            let shared = p[0][axis];
            for q in p.iter_mut().skip(rng.below(2) as usize) {
                q[axis] = shared;
            }
            if rng.below(3) == 0 {
                p[2][1 - axis] = p[2][1 - axis].next_up();
            }
            let [a, b, c] = p;
            let exact = orient2_exact(&a, &b, &c);
            shortcut += ((a[0] == c[0] || b[1] == c[1]) && (a[1] == c[1] || b[0] == c[0])) as usize;
            assert_eq!(orient2(&a, &b, &c), exact, "{a:?} {b:?} {c:?}");
        }
        assert!(shortcut > 10_000, "{shortcut}");
    }

    #[test]
    fn faces_square_to_an_axis_give_orient3d_s_sign() {
        let mut rng = Lcg(7);
        let mut zeros = 0;
        for k in 0..30_000 {
            let axis = k % 3;
            let scale = [1e-9, 1.0, 1e7][k % 5 % 3];
            let offset = [0.0, 1e6, -3.5][k % 7 % 3];
            // Coordinates on a coarse lattice, so that points fall in the plane, on its
            // lines and on one another often.
            let p = |rng: &mut Lcg| -> [f64; 3] {
                [0, 1, 2].map(|_| offset + scale * (rng.below(5) as f64 - 2.0) / 2.0)
            };
            let (mut a, mut b, mut c, d) = (p(&mut rng), p(&mut rng), p(&mut rng), p(&mut rng));
            let h = if k % 4 == 0 { d[axis] } else { a[axis] };
            (a[axis], b[axis], c[axis]) = (h, h, h);
            let got = orient(&a, &b, &c, &d);
            assert_eq!(got, reference(&a, &b, &c, &d), "{a:?} {b:?} {c:?} {d:?}");
            zeros += (got == 0) as usize;
        }
        // The cases where the shortcut matters (exact zeros) were met many times.
        assert!(zeros > 3_000, "{zeros}");
    }

    /// The perturbed determinant expanded by brute force (Leibniz's formula over
    /// polynomials in eps, coordinates small integers): the sign of its lowest term.
    fn expanded(p: [[i64; 3]; 4], keys: [u64; 4]) -> i8 {
        use std::collections::BTreeMap;
        let mut rank = [0usize; 4];
        for i in 0..4 {
            rank[i] = (0..4).filter(|&j| keys[j] < keys[i]).count();
        }
        // Entry (i, c): value, and the bit of its perturbation (none for the ones).
        let entry = |i: usize, c: usize| -> (i128, Option<u32>) {
            if c == 3 {
                (1, None)
            } else {
                (p[i][c] as i128, Some(1 << (3 * rank[i] + c)))
            }
        };
        let mut poly: BTreeMap<u32, i128> = BTreeMap::new();
        let perms = [
            [0, 1, 2, 3],
            [0, 1, 3, 2],
            [0, 2, 1, 3],
            [0, 2, 3, 1],
            [0, 3, 1, 2],
            [0, 3, 2, 1],
            [1, 0, 2, 3],
            [1, 0, 3, 2],
            [1, 2, 0, 3],
            [1, 2, 3, 0],
            [1, 3, 0, 2],
            [1, 3, 2, 0],
            [2, 0, 1, 3],
            [2, 0, 3, 1],
            [2, 1, 0, 3],
            [2, 1, 3, 0],
            [2, 3, 0, 1],
            [2, 3, 1, 0],
            [3, 0, 1, 2],
            [3, 0, 2, 1],
            [3, 1, 0, 2],
            [3, 1, 2, 0],
            [3, 2, 0, 1],
            [3, 2, 1, 0],
        ];
        for perm in perms {
            let inversions = (0..4)
                .flat_map(|i| (i + 1..4).map(move |j| (i, j)))
                .filter(|&(i, j)| perm[i] > perm[j])
                .count();
            // Expand the product of (value + eps^bit) over the rows.
            let mut terms: Vec<(u32, i128)> = vec![(0, if inversions % 2 == 0 { 1 } else { -1 })];
            for (i, &c) in perm.iter().enumerate() {
                let (v, bit) = entry(i, c);
                let mut next = Vec::new();
                for &(e, k) in &terms {
                    next.push((e, k * v));
                    if let Some(b) = bit {
                        next.push((e | b, k));
                    }
                }
                terms = next;
            }
            for (e, k) in terms {
                *poly.entry(e).or_insert(0) += k;
            }
        }
        poly.values()
            .find(|&&k| k != 0)
            .map_or(0, |&k| k.signum() as i8)
    }

    #[test]
    fn the_perturbed_sign_is_the_expanded_polynomial_s() {
        let mut rng = Lcg(11);
        let mut zeros = 0;
        for k in 0..20_000 {
            // Few distinct values: points in one plane, on one line and on one another.
            let p: [[i64; 3]; 4] =
                std::array::from_fn(|_| std::array::from_fn(|_| rng.below(3) as i64 - 1));
            let mut keys = [0u64, 1, 2, 3];
            for i in (1..4).rev() {
                keys.swap(i, rng.below(i as u64 + 1) as usize);
            }
            let keys = keys.map(|x| x * 7 + k % 5);
            let f = p.map(|q| q.map(|x| x as f64));
            let got = orient_perturbed([&f[0], &f[1], &f[2], &f[3]], keys);
            assert_ne!(got, 0);
            assert_eq!(got, expanded(p, keys), "{p:?} {keys:?}");
            zeros += (orient(&f[0], &f[1], &f[2], &f[3]) == 0) as usize;
        }
        assert!(zeros > 5_000, "{zeros}");
    }

    /// A closed cube's twelve triangles, and segments from points outside it to its centre
    /// or through it, passing exactly through its corners, along its edges and over its
    /// diagonals: the perturbed crossings always add up to the change of winding number.
    #[test]
    fn perturbed_crossings_add_up_through_corners_and_edges() {
        // The unit cube [0, 1]³: the library's box of side 1, moved by half.
        let cube = crate::shape::Shape3d::Box { size: [1.0; 3] }.tessellate(0);
        let v = |i: usize| cube.vertices[i].map(|x| x + 0.5);
        let tris: Vec<[usize; 3]> = cube
            .triangles
            .iter()
            .map(|t| t.map(|i| i as usize))
            .collect();
        let cross = |a: &[f64; 3], b: &[f64; 3]| -> i32 {
            let (ka, kb) = (100, 101);
            tris.iter()
                .map(|t| {
                    let (p, k) = (t.map(v), t.map(|i| i as u64));
                    let s = |q: &[f64; 3], kq| {
                        orient_perturbed([&p[0], &p[1], &p[2], q], [k[0], k[1], k[2], kq])
                    };
                    let (sa, sb) = (s(a, ka), s(b, kb));
                    if sa == sb {
                        return 0;
                    }
                    let e = |i: usize, j: usize| {
                        orient_perturbed([a, b, &p[i], &p[j]], [ka, kb, k[i], k[j]])
                    };
                    let o = [e(0, 1), e(1, 2), e(2, 0)];
                    if o[0] == o[1] && o[1] == o[2] {
                        sb as i32
                    } else {
                        0
                    }
                })
                .sum()
        };
        let centre = [0.5; 3];
        let mut rng = Lcg(5);
        for _ in 0..3000 {
            // A point on the cube's corners, edges or face centres, pushed out from the
            // centre: the segment from there to the centre passes through it.
            let on = [0, 1, 2].map(|_| rng.below(3) as f64 / 2.0);
            if on == centre {
                continue;
            }
            let far = [0, 1, 2].map(|k| 0.5 + 3.0 * (on[k] - 0.5));
            assert_eq!(cross(&far, &centre), 1, "{far:?}");
            assert_eq!(cross(&centre, &far), -1, "{far:?}");
            // Through the cube and out the other side, or grazing along a face or edge.
            let other = [0, 1, 2].map(|k| 0.5 - 3.0 * (on[k] - 0.5));
            assert_eq!(cross(&far, &other), 0, "{far:?}");
            let along = [0, 1, 2].map(|_| rng.below(5) as f64 / 2.0 - 0.5);
            let inside = along.iter().all(|&x| x > 0.0 && x < 1.0);
            let outside = along.iter().any(|&x| !(0.0..=1.0).contains(&x));
            if inside || outside {
                assert_eq!(cross(&far, &along), inside as i32, "{far:?} {along:?}");
            }
        }
    }
}
