// Surface integrals over one trimmed face of a B-rep, by Green's theorem in the face's
// parameter plane: the integrator `step.cpp` uses for B-spline and Bézier faces, which
// OpenCASCADE's BRepGProp integrates slowly (see green.cpp).
#pragma once

#include <TopoDS_Face.hxx>
#include <gp_Pnt.hxx>

namespace green {

/// A face's ten integrals about a point O, with r = P - O and n = ∂P/∂u × ∂P/∂v the
/// face's outward normal (reversed for a reversed face):
/// volume terms (the divergence theorem: div(r) = 3, div(r_i r) = 4 r_i,
/// div(r_i r_j r) = 5 r_i r_j): ∫ r·n/3, ∫ r_i (r·n)/4, ∫ r_i r_j (r·n)/5, which summed
/// over a closed shell are its volume, first and second moments about O;
/// area terms: ∫ |n|, ∫ r_i |n|, ∫ r_i r_j |n|.
/// Order: 1, x, y, z, xx, yy, zz, xy, xz, yz.
struct Moments {
    double m[10] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
};

/// Integrates `face` about `origin` (volume terms if `volume`, else area terms) to the
/// relative tolerance `eps` of the integral of the terms' absolute values. Returns false,
/// computing nothing, when the face has no boundary to integrate along (a face on its
/// surface's natural bounds without edges, an edge without a curve on the surface), when
/// its terms are not finite, or when it needed more than a budget allows (2^14 boundary
/// pieces, where a face trimmed by curves of 300 knots takes ~1,000; and, unless `inner`
/// forces a direction, 2^22 surface evaluations, where the NIST part's largest face takes
/// 1.2 million): the caller integrates it another way.
/// `*error` is the estimated error relative to that integral of absolute values.
/// Throws Standard_Failure as OpenCASCADE's evaluators do. `inner` picks the direction
/// of the inner integrals: -1 the one with fewer knot spans, 0 along u, 1 along v (the
/// tests integrate both ways: the two are different sums of different points).
bool integrate(const TopoDS_Face& face, const gp_Pnt& origin, bool volume, double eps,
               Moments* out, double* error, int inner = -1);

}  // namespace green
