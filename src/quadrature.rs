//! Gauss–Legendre rules, found once per size by Newton's method on the Legendre
//! polynomial and kept.

use std::f64::consts::PI;
use std::sync::OnceLock;

/// The largest rule kept (a polynomial spline span of degree 25 needs 50 points, a piece
/// of a rational one up to 116).
pub(crate) const MAX_POINTS: usize = 128;

/// Nodes and weights of the `n`-point Gauss–Legendre rule on [−1, 1] (`n` from 1 to
/// [`MAX_POINTS`]): exact for polynomials of degree up to 2n − 1.
pub(crate) fn gauss_legendre(n: usize) -> &'static [(f64, f64)] {
    static RULES: [OnceLock<Vec<(f64, f64)>>; MAX_POINTS + 1] =
        [const { OnceLock::new() }; MAX_POINTS + 1];
    let n = n.clamp(1, MAX_POINTS);
    RULES[n].get_or_init(|| {
        if n == 1 {
            return vec![(0.0, 2.0)];
        }
        (0..n)
            .map(|i| {
                let mut x = (PI * (i as f64 + 0.75) / (n as f64 + 0.5)).cos();
                let mut dp = 0.0;
                for _ in 0..100 {
                    let (mut p0, mut p1) = (1.0, x);
                    for k in 2..=n {
                        let k = k as f64;
                        let p2 = ((2.0 * k - 1.0) * x * p1 - (k - 1.0) * p0) / k;
                        p0 = p1;
                        p1 = p2;
                    }
                    dp = n as f64 * (x * p1 - p0) / (x * x - 1.0);
                    let dx = p1 / dp;
                    x -= dx;
                    if dx.abs() < 1e-16 {
                        break;
                    }
                }
                (x, 2.0 / ((1.0 - x * x) * dp * dp))
            })
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_integrate_polynomials_of_their_degree() {
        for n in [1, 2, 3, 6, 20, 50, 64, 100, 128] {
            let rule = gauss_legendre(n);
            assert_eq!(rule.len(), n);
            let sum: f64 = rule.iter().map(|(_, w)| w).sum();
            assert!((sum - 2.0).abs() < 1e-14, "{n}: {sum}");
            // x^(2n − 2): exact value 2 / (2n − 1).
            let k = 2 * n as i32 - 2;
            let v: f64 = rule.iter().map(|(x, w)| w * x.powi(k)).sum();
            assert!((v - 2.0 / (k as f64 + 1.0)).abs() < 1e-13, "{n}: {v}");
        }
    }
}
