//! Resolution: a polygon is accepted only when f64 resolves it (the same positive area
//! about its first vertex and about its centroid, a physical tensor, every method's polar
//! moment agreeing); the integrals computed for that check are kept, so integrating a
//! validated polygon costs nothing more.

use super::Polygon;
use crate::error::Unresolved;
use crate::error::{Error, Result};
use crate::method::{PolygonIntegral, PolygonMethod, Rings};

/// Polygons of this many vertices and more have their three methods run at once.
const PARALLEL_FROM: usize = 1 << 15;

impl Polygon {
    /// Checks that f64 resolves the polygon and that every method agrees, keeping their
    /// integrals.
    pub(super) fn integrated(self) -> Result<Self> {
        let mut polygon = self;
        polygon.integrals = Some(integrals_of(polygon.view())?);
        Ok(polygon)
    }

    /// The integral `method` gave during validation, if this polygon was validated.
    pub(crate) fn integral(&self, method: PolygonMethod) -> Option<PolygonIntegral> {
        let k = PolygonMethod::ALL.iter().position(|m| *m == method)?;
        self.integrals.map(|i| i[k])
    }
}

/// Every method's integrals of the polygon `view` (oriented as a validated polygon is),
/// once f64 is found to resolve it.
pub(super) fn integrals_of(view: Rings) -> Result<[PolygonIntegral; 3]> {
    // The methods integrate fans about the outer ring's first vertex (area, centroid)
    // and then about the centroid (moments). Both must see the same, positive area:
    // coordinates spanning more than f64 resolves (a 1e8 edge on a 1e86 triangle) break
    // that, and would give moments of zero rather than an error.
    let frame = crate::method::LocalFrame::new(view);
    let twice_about_centroid: f64 = frame
        .rings_about_centroid()
        .map(|r| {
            let p0 = r[0];
            r[1..]
                .windows(2)
                .map(|w| crate::method::cross(w[0] - p0, w[1] - p0))
                .sum::<f64>()
        })
        .sum();
    let area_c = 0.5 * twice_about_centroid + frame.segments(frame.centroid.coords).0;
    if frame.area.is_infinite() {
        return Err(Error::Unresolvable {
            what: Unresolved::PolygonAreaOverflow,
        });
    }
    if !(frame.area > 0.0 && frame.centroid.x.is_finite() && frame.centroid.y.is_finite())
        || (area_c - frame.area).abs() > 1e-9 * frame.area
    {
        return Err(Error::Unresolvable {
            what: Unresolved::PolygonArea {
                about_first: frame.area,
                about_centroid: area_c,
            },
        });
    }
    // Every method must give a physical, mutually consistent answer: a positive
    // semi-definite tensor, and each method's polar moment within 1e-6 of its trace.
    // Extreme shapes (needles 1e13 long per unit width) can defeat f64; refuse them.
    // The three methods share the frame (and the fan's tensor, which they all report); on
    // a large polygon they run at once. Each sums in its own order, as alone.
    let [a, b, c] = PolygonMethod::ALL;
    let integrals =
        if view.outer.len() + view.holes.iter().map(Vec::len).sum::<usize>() >= PARALLEL_FROM {
            let (x, (y, z)) = rayon::join(
                || a.compute_in(&frame),
                || rayon::join(|| b.compute_in(&frame), || c.compute_in(&frame)),
            );
            [x, y, z]
        } else {
            [a, b, c].map(|m| m.compute_in(&frame))
        };
    let m = integrals[0].properties.moments;
    let trace = m.polar();
    let physical = m.ixx >= 0.0
        && m.iyy >= 0.0
        && trace > 0.0
        && m.ixx * m.iyy - m.ixy * m.ixy >= -1e-9 * trace * trace;
    if !physical || !trace.is_finite() {
        return Err(Error::Unresolvable {
            what: Unresolved::PolygonMoments {
                ixx: m.ixx,
                iyy: m.iyy,
                ixy: m.ixy,
            },
        });
    }
    for (method, integral) in PolygonMethod::ALL.iter().zip(&integrals).skip(1) {
        let polar = integral.polar;
        if polar.is_nan() || (polar - trace).abs() > 1e-6 * trace {
            return Err(Error::Unresolvable {
                what: Unresolved::PolygonMethods {
                    method: method.name(),
                    polar,
                    trace,
                },
            });
        }
    }
    Ok(integrals)
}
