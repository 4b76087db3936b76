// Surface integrals over one trimmed face by Green's theorem in its parameter plane.
//
// A face is its surface P(u, v) over a region D of the (u, v) plane bounded by the curves
// of its edges on the surface (the edges' pcurves). For an integrand f(u, v), Green's
// theorem turns the area integral into one along the boundary: with the inner integral
// F(u, v) = ∫_{v0}^{v} f(u, τ) dτ taken along v,
//     ∫∫_D f du dv = -∮_∂D F(u, v) du,
// or with F(u, v) = ∫_{u0}^{u} f(σ, v) dσ taken along u, ∫∫_D f du dv = ∮_∂D F dv, the
// boundary run with D on its left. Each inner integral is cut at the surface's knots in
// its direction and each boundary curve at its own knots and where it crosses the
// surface's knot lines, so that every piece integrated is smooth (a polynomial, on a
// non-rational B-spline); each piece is integrated by Gauss–Legendre rules of 8 and 12
// points and halved while the two differ by more than the tolerance asked.
//
// OpenCASCADE's BRepGProp integrates by the same theorem, but always along u inside and
// with its own point counts: on the NIST CTC-02 part's swept faces (69 knot spans in u,
// one in v, trimmed by curves of ~270 knots) that is 3 s a face. Taking the inner
// integral along the direction with fewer spans (v there) makes it a few evaluations.
#include "green.h"

#include <BRepTools.hxx>
#include <BRep_Tool.hxx>
#include <Geom2dAdaptor_Curve.hxx>
#include <Geom2d_Curve.hxx>
#include <GeomAdaptor_Surface.hxx>
#include <Geom_BSplineSurface.hxx>
#include <Geom_RectangularTrimmedSurface.hxx>
#include <Geom_Surface.hxx>
#include <TColStd_Array1OfReal.hxx>
#include <TopExp_Explorer.hxx>
#include <TopoDS.hxx>
#include <TopoDS_Edge.hxx>
#include <gp_Pnt2d.hxx>
#include <gp_Vec2d.hxx>
#include <math.hxx>
#include <math_Vector.hxx>

#include <algorithm>
#include <array>
#include <cfloat>
#include <climits>
#include <cmath>
#include <vector>

namespace green {
namespace {

/// Gauss–Legendre nodes and weights on [-1, 1].
struct Rule {
    std::vector<double> x, w;
    explicit Rule(int n) : x(n), w(n) {
        math_Vector p(1, n), q(1, n);
        math::GaussPoints(n, p);
        math::GaussWeights(n, q);
        for (int i = 0; i < n; ++i) {
            x[i] = p(i + 1);
            w[i] = q(i + 1);
        }
    }
};

/// The two rules every piece is integrated with: the 12-point value is kept, its
/// difference from the 8-point one is the piece's error estimate. Eight points integrate
/// polynomials of degree 15 exactly (a bicubic patch's volume terms are of degree 14 in
/// each parameter on a knot span), so on such a piece the estimate is rounding.
const Rule& high() {
    static const Rule r(12);
    return r;
}
const Rule& low() {
    static const Rule r(8);
    return r;
}

/// How often a piece may be halved: 2^-40 of a knot span is below any coordinate's
/// resolution.
constexpr int DEPTH = 40;

/// The most pieces an inner knot span is cut into (a span whose integrand is not smooth,
/// as |n| where the surface pinches to a point, stops here).
constexpr int MAX_PIECES = 64;

/// The most boundary pieces one face is integrated in: past it pieces are kept as they
/// are and their estimates counted in the error reported, so that a tolerance below the
/// rounding of the terms cannot halve without end.
constexpr long BUDGET = 1L << 14;

/// The most surface evaluations one face may take (~1–2 s): the NIST part's largest face
/// takes 1.2 million. A face past it (a rational surface with a weight mutated from 0.5 to
/// 500,000 took minutes) is handed back to the caller.
constexpr long EVALUATIONS = 1L << 22;

/// Thrown when a face has used its evaluations, or its terms are not finite (a pole at
/// 1e300 overflows them); caught in `integrate`.
struct OverBudget {};

/// Ten terms (Moments' order) as they are summed.
struct Ten {
    std::array<double, 10> v{};
    void add(const Ten& o, double k) {
        for (int i = 0; i < 10; ++i) {
            v[i] += k * o.v[i];
        }
    }
};

/// The knots of a B-spline surface in one direction inside (lo, hi), sorted: its knots
/// repeated by whole periods when it is periodic in that direction (they are listed over
/// one period only). A Bézier surface (or any other) has none.
std::vector<double> breaks(const Handle(Geom_Surface)& surface, bool u, double lo, double hi) {
    Handle(Geom_Surface) basis = surface;
    while (auto trimmed = Handle(Geom_RectangularTrimmedSurface)::DownCast(basis)) {
        basis = trimmed->BasisSurface();
    }
    Handle(Geom_BSplineSurface) b = Handle(Geom_BSplineSurface)::DownCast(basis);
    std::vector<double> kept;
    if (b.IsNull()) {
        return kept;
    }
    int n = u ? b->NbUKnots() : b->NbVKnots();
    std::vector<double> knots(n);
    for (int i = 1; i <= n; ++i) {
        knots[i - 1] = u ? b->UKnot(i) : b->VKnot(i);
    }
    bool periodic = u ? b->IsUPeriodic() : b->IsVPeriodic();
    double period = knots.back() - knots.front();
    long k0 = 0, k1 = 0;
    if (periodic && period > 0.0) {
        k0 = static_cast<long>(std::floor((lo - knots.front()) / period)) - 1;
        k1 = static_cast<long>(std::ceil((hi - knots.front()) / period)) + 1;
        // A face spans a bounded number of periods; more is not a face.
        k1 = std::min(k1, k0 + 64);
    }
    double margin = 1e-12 * std::max(hi - lo, 1e-300);
    for (long k = k0; k <= k1; ++k) {
        for (double x : knots) {
            double y = x + static_cast<double>(k) * period;
            if (y > lo + margin && y < hi - margin) {
                kept.push_back(y);
            }
        }
    }
    std::sort(kept.begin(), kept.end());
    kept.erase(std::unique(kept.begin(), kept.end()), kept.end());
    return kept;
}

/// The integrals of one face (see green.h), its surface evaluated through one adaptor.
class Face {
public:
    Face(const Handle(Geom_Surface)& surface, const gp_Pnt& origin, bool volume, double eps,
         double u1, double u2, double v1, double v2, int inner)
        : s_(surface),
          o_(origin.XYZ()),
          volume_(volume),
          eps_(eps),
          limit_(inner < 0 ? EVALUATIONS : LONG_MAX) {
        std::vector<double> ub = breaks(surface, true, u1, u2);
        std::vector<double> vb = breaks(surface, false, v1, v2);
        // The inner integrals run along the direction with fewer knot spans.
        inner_u_ = inner < 0 ? ub.size() <= vb.size() : inner == 0;
        t0_ = inner_u_ ? u1 : v1;
        tknots_ = inner_u_ ? ub : vb;
        sknots_ = inner_u_ ? vb : ub;
        // The norm errors are measured in: each term divided by the face's distance
        // from the origin to the power that makes it a volume (or an area) again.
        double r = 0.0, far = 0.0;
        for (double u : {u1, u2}) {
            for (double v : {v1, v2}) {
                gp_XYZ p = s_.Value(u, v).XYZ();
                r = std::max(r, (p - o_).Modulus());
                far = std::max(far, p.Modulus());
            }
        }
        r = r > 0.0 ? r : 1.0;
        // The surface's points are rounded at their own magnitude: a face 10 across at
        // 10^6 from the origin has its terms rounded to ~1e-11 of themselves, and the two
        // rules cannot agree closer than that. Asked closer, pieces are kept at that
        // rounding (the rules' difference is still counted in the error reported).
        eps_ = std::max(eps_, 8.0 * DBL_EPSILON * far / r);
        weight_[0] = 1.0;
        for (int i = 1; i < 4; ++i) {
            weight_[i] = 1.0 / r;
        }
        for (int i = 4; i < 10; ++i) {
            weight_[i] = 1.0 / (r * r);
        }
        choose_pieces(inner_u_ ? v1 : u1, inner_u_ ? v2 : u2, inner_u_ ? u2 : v2);
    }

    /// ∫ along the pcurve `c` from parameter `a` to `b` (b < a runs it backwards) of the
    /// boundary term, added to `sum`; its size (integral of absolute values) to `size`.
    void along(const Geom2dAdaptor_Curve& c, double a, double b, Ten& sum, double& size) {
        std::vector<double> cuts = curve_cuts(c, std::min(a, b), std::max(a, b));
        if (b < a) {
            std::reverse(cuts.begin(), cuts.end());
        }
        for (size_t i = 0; i + 1 < cuts.size(); ++i) {
            boundary_piece(c, cuts[i], cuts[i + 1], sum, size, 0);
        }
    }

    /// The sum of the error estimates of the pieces kept, in the norm.
    double error() const { return error_; }

    /// Whether the boundary was integrated in fewer pieces than the budget allows.
    bool within_budget() const { return budget_ > 0; }

private:
    /// The integrand at (u, v) and its size in the norm.
    Ten at(double u, double v, double* size) {
        if (++evaluations_ > limit_) {
            throw OverBudget{};
        }
        gp_Pnt p;
        gp_Vec du, dv;
        s_.D1(u, v, p, du, dv);
        gp_XYZ n = du.XYZ().Crossed(dv.XYZ());
        gp_XYZ r = p.XYZ() - o_;
        double x = r.X(), y = r.Y(), z = r.Z();
        double a, b, c;
        if (volume_) {
            double d = r.Dot(n);
            a = d / 3.0;
            b = d / 4.0;
            c = d / 5.0;
        } else {
            a = b = c = n.Modulus();
        }
        Ten t;
        t.v = {a, x * b, y * b, z * b, x * x * c, y * y * c, z * z * c, x * y * c, x * z * c,
               y * z * c};
        double m = 0.0;
        for (int i = 0; i < 10; ++i) {
            m += std::abs(t.v[i]) * weight_[i];
        }
        if (!std::isfinite(m)) {
            throw OverBudget{};
        }
        *size = m;
        return t;
    }

    double norm(const Ten& a, const Ten& b) const {
        double m = 0.0;
        for (int i = 0; i < 10; ++i) {
            m += std::abs(a.v[i] - b.v[i]) * weight_[i];
        }
        return m;
    }

    /// ∫_a^b f(s, t) dt by the 12-point rule over `m` equal pieces (and by the 8-point
    /// rule into `lo`, when given); the size of the 12-point value into `size`.
    Ten inner_span(double s, double a, double b, int m, double& size, Ten* lo) {
        Ten hi;
        double h = 0.5 * (b - a) / m;
        const Rule& H = high();
        const Rule& L = low();
        double sz = 0.0;
        for (int k = 0; k < m; ++k) {
            double mid = a + (2 * k + 1) * h;
            for (size_t i = 0; i < H.x.size(); ++i) {
                double t = mid + h * H.x[i];
                hi.add(inner_u_ ? at(t, s, &sz) : at(s, t, &sz), H.w[i] * h);
                size += H.w[i] * std::abs(h) * sz;
            }
            if (lo != nullptr) {
                for (size_t i = 0; i < L.x.size(); ++i) {
                    double t = mid + h * L.x[i];
                    lo->add(inner_u_ ? at(t, s, &sz) : at(s, t, &sz), L.w[i] * h);
                }
            }
        }
        return hi;
    }

    /// Chooses how many equal pieces each knot span of the inner integrals is cut into:
    /// the fewest (doubling from one) for which the two rules agree to a tenth of the
    /// tolerance at nine lines s = constant across the face. The inner integrals then use
    /// the same points whatever the boundary point, so that F(s, t) is as smooth as the
    /// surface and the boundary integral's own halving is not misled by noise.
    void choose_pieces(double s1, double s2, double t2) {
        spans_ = {t0_};
        for (double k : tknots_) {
            if (k > t0_ && k < t2) {
                spans_.push_back(k);
            }
        }
        spans_.push_back(std::max(t2, t0_));
        pieces_.assign(spans_.size() - 1, 1);
        double strips = 0.0;
        for (size_t j = 0; j + 1 < spans_.size(); ++j) {
            for (int m = 1; m <= MAX_PIECES; m *= 2) {
                pieces_[j] = m;
                bool fine = true;
                double sizes = 0.0;
                for (int i = 0; i < 9 && fine; ++i) {
                    double s = s1 + (s2 - s1) * (i + 0.5) / 9.0;
                    Ten lo;
                    double size = 0.0;
                    Ten hi = inner_span(s, spans_[j], spans_[j + 1], m, size, &lo);
                    fine = norm(hi, lo) <= 0.1 * eps_ * size;
                    sizes += size;
                }
                if (fine || 2 * m > MAX_PIECES) {
                    strips += sizes / 9.0;
                    break;
                }
            }
        }
        // The integral of the terms' sizes over the face's bounding rectangle in (u, v),
        // roughly: a boundary piece whose error is below 1e-4 of the tolerance on it is
        // kept whatever its own size. Without that floor, pieces where the boundary runs
        // along a knot line (the surface evaluated on either side of it, each side's
        // polynomial rounding differently) were halved to the budget on rounding.
        floor_ = 1e-4 * eps_ * strips * std::abs(s2 - s1);
    }

    /// F(s, t) = ∫_{t0}^{t} f(s, τ) dτ: the knot spans below t whole, and the part of
    /// the span holding t, each in its chosen number of pieces.
    Ten inner(double s, double t, double& size) {
        Ten sum;
        if (t <= t0_) {
            Ten back = inner_span(s, t, t0_, pieces_.front(), size, nullptr);
            sum.add(back, -1.0);
            return sum;
        }
        for (size_t j = 0; j + 1 < spans_.size(); ++j) {
            bool last = t <= spans_[j + 1] || j + 2 == spans_.size();
            double b = last ? t : spans_[j + 1];
            sum.add(inner_span(s, spans_[j], b, pieces_[j], size, nullptr), 1.0);
            if (last) {
                break;
            }
        }
        return sum;
    }

    /// The boundary term at curve parameter l: ±F(s, t) ds/dl, with its size.
    Ten boundary(const Geom2dAdaptor_Curve& c, double l, double& size) {
        gp_Pnt2d p;
        gp_Vec2d d;
        c.D1(l, p, d);
        double s = inner_u_ ? p.Y() : p.X();
        double t = inner_u_ ? p.X() : p.Y();
        // ∮ F dv with F along u, -∮ F du with F along v.
        double ds = inner_u_ ? d.Y() : -d.X();
        Ten out;
        if (ds == 0.0) {
            size = 0.0;
            return out;
        }
        double sz = 0.0;
        Ten f = inner(s, t, sz);
        out.add(f, ds);
        size = sz * std::abs(ds);
        return out;
    }

    /// ∫ of the boundary term over the curve's parameters [a, b] (or backwards), halved
    /// while the rules disagree.
    void boundary_piece(const Geom2dAdaptor_Curve& c, double a, double b, Ten& sum,
                        double& size, int depth) {
        double m = 0.5 * (a + b), h = 0.5 * (b - a);
        Ten hi, lo;
        double shi = 0.0, sz = 0.0;
        const Rule& H = high();
        for (size_t i = 0; i < H.x.size(); ++i) {
            hi.add(boundary(c, m + h * H.x[i], sz), H.w[i] * h);
            shi += H.w[i] * std::abs(h) * sz;
        }
        const Rule& L = low();
        for (size_t i = 0; i < L.x.size(); ++i) {
            lo.add(boundary(c, m + h * L.x[i], sz), L.w[i] * h);
        }
        double e = norm(hi, lo);
        --budget_;
        if (e <= eps_ * shi || e <= floor_ || depth >= DEPTH || budget_ <= 0 || m + h == m ||
            m - h == m) {
            sum.add(hi, 1.0);
            size += shi;
            error_ += e;
            return;
        }
        boundary_piece(c, a, m, sum, size, depth + 1);
        boundary_piece(c, m, b, sum, size, depth + 1);
    }

    /// Where the curve's pieces meet and where it crosses a knot line of the surface,
    /// over [a, b], sorted, with a and b.
    std::vector<double> curve_cuts(const Geom2dAdaptor_Curve& c, double a, double b) {
        std::vector<double> cuts{a, b};
        int n = c.NbIntervals(GeomAbs_CN);
        TColStd_Array1OfReal t(1, n + 1);
        c.Intervals(t, GeomAbs_CN);
        std::vector<double> pieces{a};
        for (int i = 1; i <= n + 1; ++i) {
            if (t(i) > a && t(i) < b) {
                pieces.push_back(t(i));
            }
        }
        pieces.push_back(b);
        std::sort(pieces.begin(), pieces.end());
        // Crossings: each piece sampled at 8 steps, each knot between two samples'
        // coordinates found by bisection.
        constexpr int STEPS = 8;
        for (size_t i = 0; i + 1 < pieces.size(); ++i) {
            double pa = pieces[i], pb = pieces[i + 1];
            cuts.push_back(pa);
            gp_Pnt2d prev = c.Value(pa);
            double lprev = pa;
            for (int k = 1; k <= STEPS; ++k) {
                double l = k == STEPS ? pb : pa + (pb - pa) * k / STEPS;
                gp_Pnt2d next = c.Value(l);
                for (int dir = 0; dir < 2; ++dir) {
                    // dir 0: u, 1: v.
                    const std::vector<double>& knots =
                        (dir == 0) == inner_u_ ? tknots_ : sknots_;
                    double x0 = dir == 0 ? prev.X() : prev.Y();
                    double x1 = dir == 0 ? next.X() : next.Y();
                    double lo = std::min(x0, x1), hi = std::max(x0, x1);
                    auto it = std::upper_bound(knots.begin(), knots.end(), lo);
                    for (; it != knots.end() && *it < hi; ++it) {
                        cuts.push_back(cross(c, dir, *it, lprev, l, x0 < x1));
                    }
                }
                prev = next;
                lprev = l;
            }
        }
        std::sort(cuts.begin(), cuts.end());
        cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
        return cuts;
    }

    /// The curve parameter in [a, b] where coordinate `dir` of the curve equals `x`, by
    /// bisection (the coordinate rising from a to b if `rising`).
    static double cross(const Geom2dAdaptor_Curve& c, int dir, double x, double a, double b,
                        bool rising) {
        for (int i = 0; i < 60; ++i) {
            double m = 0.5 * (a + b);
            if (m == a || m == b) {
                break;
            }
            gp_Pnt2d p = c.Value(m);
            double y = dir == 0 ? p.X() : p.Y();
            if ((y < x) == rising) {
                a = m;
            } else {
                b = m;
            }
        }
        return 0.5 * (a + b);
    }

    GeomAdaptor_Surface s_;
    gp_XYZ o_;
    bool volume_;
    double eps_;
    bool inner_u_ = true;
    double t0_ = 0.0;
    std::vector<double> tknots_, sknots_;
    std::array<double, 10> weight_{};
    std::vector<double> spans_;
    std::vector<int> pieces_;
    double floor_ = 0.0;
    double error_ = 0.0;
    long budget_ = BUDGET;
    long evaluations_ = 0;
    // EVALUATIONS, or no limit when the tests force a direction: theirs may be the slow
    // one (10^7 evaluations on the NIST part's swept faces along u).
    long limit_;
};

/// `integrate` (below) once the face has a surface and edges: the boundary integral over
/// every edge's pcurve, run as the edge runs in the face.
bool integrate_edges(const TopoDS_Face& forward, const Handle(Geom_Surface)& surface,
                     const gp_Pnt& origin, bool volume, double eps, Moments* out,
                     double* error, int inner, TopAbs_Orientation orientation, double u1,
                     double u2, double v1, double v2) {
    Face f(surface, origin, volume, eps, u1, u2, v1, v2, inner);
    Ten sum;
    double size = 0.0;
    for (TopExp_Explorer e(forward, TopAbs_EDGE); e.More(); e.Next()) {
        const TopoDS_Edge& edge = TopoDS::Edge(e.Current());
        TopAbs_Orientation o = edge.Orientation();
        if (o != TopAbs_FORWARD && o != TopAbs_REVERSED) {
            continue;
        }
        double first, last;
        Handle(Geom2d_Curve) pcurve = BRep_Tool::CurveOnSurface(edge, forward, first, last);
        if (pcurve.IsNull()) {
            return false;
        }
        Geom2dAdaptor_Curve c(pcurve, first, last);
        if (o == TopAbs_FORWARD) {
            f.along(c, first, last, sum, size);
        } else {
            f.along(c, last, first, sum, size);
        }
    }
    // A reversed face's normal points the other way: its volume terms change sign, its
    // area does not.
    if (!f.within_budget()) {
        return false;
    }
    double sign = volume && orientation == TopAbs_REVERSED ? -1.0 : 1.0;
    for (int i = 0; i < 10; ++i) {
        out->m[i] = sign * sum.v[i];
    }
    *error = size > 0.0 ? f.error() / size : 0.0;
    return true;
}

}  // namespace

bool integrate(const TopoDS_Face& face, const gp_Pnt& origin, bool volume, double eps,
               Moments* out, double* error, int inner) {
    TopoDS_Face forward = TopoDS::Face(face.Oriented(TopAbs_FORWARD));
    Handle(Geom_Surface) surface = BRep_Tool::Surface(forward);
    if (surface.IsNull()) {
        return false;
    }
    bool edges = false;
    for (TopExp_Explorer e(forward, TopAbs_EDGE); e.More() && !edges; e.Next()) {
        edges = true;
    }
    if (!edges) {
        return false;
    }
    double u1, u2, v1, v2;
    BRepTools::UVBounds(forward, u1, u2, v1, v2);
    try {
        return integrate_edges(forward, surface, origin, volume, eps, out, error, inner,
                               face.Orientation(), u1, u2, v1, v2);
    } catch (const OverBudget&) {
        return false;
    }
}

}  // namespace green
