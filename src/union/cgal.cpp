// The union of a closed mesh's bodies through CGAL's exact corefinement (feature `union`).
//
// Input: a closed, consistently wound triangle mesh whose shells may overlap (the bodies of
// `--overlap sum`). Each connected component is a shell: wound outward, a body; inward, a
// cavity of the innermost body holding it. Bodies whose boxes meet are united, each group
// by a balanced tree of `corefine_and_compute_union` on the exact-predicates,
// exact-constructions kernel; a body meeting no other is copied as it is. The union's
// points are exact; they are handed back rounded to `double` (within a unit in the last
// place), each with a flag saying whether its rounding changed it.
//
// C++ exceptions never cross into Rust: every entry point catches them and reports a code.
// The union runs in a child process under a deadline: CGAL 5.5 can loop without end (seen in
// `append_patches_to_triangle_mesh`, on bodies touching along edges only by the rounding),
// and a loop, a crash or an abort in the child becomes a refusal, not a hung or dead caller.

#include <CGAL/Exact_predicates_exact_constructions_kernel.h>
#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <CGAL/Polygon_mesh_processing/connected_components.h>
#include <CGAL/Polygon_mesh_processing/corefinement.h>
#include <CGAL/Polygon_mesh_processing/measure.h>
#include <CGAL/Polygon_mesh_processing/orient_polygon_soup.h>
#include <CGAL/Polygon_mesh_processing/orient_polygon_soup_extension.h>
#include <CGAL/Polygon_mesh_processing/polygon_soup_to_polygon_mesh.h>
#include <CGAL/Polygon_mesh_processing/self_intersections.h>
#include <CGAL/Side_of_triangle_mesh.h>
#include <CGAL/Surface_mesh.h>
#include <CGAL/boost/graph/copy_face_graph.h>

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <exception>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

namespace {

using K = CGAL::Exact_predicates_exact_constructions_kernel;
using Point = K::Point_3;
using SMesh = CGAL::Surface_mesh<Point>;
namespace PMP = CGAL::Polygon_mesh_processing;

// Outcome codes, as `src/union/mod.rs` reads them.
enum Code : int32_t {
    kOk = 0,
    // The mesh could not be made a set of closed 2-manifold shells (an edge or point
    // shared in a way no pairing resolves).
    kNotManifold = 1,
    // A body's own surface crosses itself: corefinement needs each body free of that.
    kSelfCrossing = 2,
    // The union's surface would not be a 2-manifold (bodies meeting along an edge or at a
    // point only where they are united).
    kUnionNotManifold = 3,
    // Anything else CGAL threw (a precondition, memory), or its process died.
    kFailed = 4,
    // CGAL did not finish in the time it was given.
    kTimedOut = 5,
};

struct Shell {
    SMesh mesh;
    CGAL::Bbox_3 box;
    bool outward = true;
    K::FT volume;  // |signed volume|
};

// One union, owned by Rust through an opaque pointer.
struct Result {
    std::vector<double> xyz;
    std::vector<uint32_t> triangles;
    std::vector<uint8_t> rounded;
    uint64_t bodies = 0;   // shells wound outward
    uint64_t united = 0;   // of them, in a group of more than one
    uint64_t cavities = 0; // shells wound inward
    uint64_t resolved = 0; // bodies whose surface crossed itself, resolved
    std::string message;
};

bool boxes_meet(const CGAL::Bbox_3& a, const CGAL::Bbox_3& b) {
    return a.xmin() <= b.xmax() && b.xmin() <= a.xmax() && a.ymin() <= b.ymax() &&
           b.ymin() <= a.ymax() && a.zmin() <= b.zmax() && b.zmin() <= a.zmax();
}

// The mesh's shells as separate closed meshes (points shared by several shells, or
// edges by several faces, duplicated so that each shell is a 2-manifold).
bool split_shells(const double* xyz, size_t nv, const uint32_t* tris, size_t nt,
                  std::vector<Shell>& shells, std::string& why) {
    std::vector<Point> points;
    points.reserve(nv);
    for (size_t i = 0; i < nv; ++i) points.emplace_back(xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]);
    std::vector<std::array<std::size_t, 3>> faces(nt);
    for (size_t t = 0; t < nt; ++t)
        faces[t] = {tris[3 * t], tris[3 * t + 1], tris[3 * t + 2]};
    if (!PMP::is_polygon_soup_a_polygon_mesh(faces)) {
        PMP::duplicate_non_manifold_edges_in_polygon_soup(points, faces);
        PMP::orient_polygon_soup(points, faces);
        if (!PMP::is_polygon_soup_a_polygon_mesh(faces)) {
            why = "not a polygon mesh after duplicating non-manifold edges";
            return false;
        }
    }
    SMesh all;
    PMP::polygon_soup_to_polygon_mesh(points, faces, all);
    if (!CGAL::is_closed(all)) {
        why = "not closed";
        return false;
    }
    std::vector<SMesh> parts;
    PMP::split_connected_components(all, parts);
    shells.reserve(parts.size());
    for (auto& part : parts) {
        Shell s;
        s.mesh = std::move(part);
        s.box = PMP::bbox(s.mesh);
        K::FT v = PMP::volume(s.mesh);
        s.outward = CGAL::sign(v) != CGAL::NEGATIVE;
        s.volume = CGAL::abs(v);
        shells.push_back(std::move(s));
    }
    return true;
}

// Whether `inner` (a cavity) lies inside `outer` (a body): its first point not on the
// body's surface is inside it.
// `side` is the body's point-in-solid test, built on first use (its tree once per body).
using Side = CGAL::Side_of_triangle_mesh<SMesh, K>;
bool holds(const Shell& outer, std::unique_ptr<Side>& side, const Shell& inner) {
    if (!(outer.box.xmin() <= inner.box.xmin() && inner.box.xmax() <= outer.box.xmax() &&
          outer.box.ymin() <= inner.box.ymin() && inner.box.ymax() <= outer.box.ymax() &&
          outer.box.zmin() <= inner.box.zmin() && inner.box.zmax() <= outer.box.zmax()))
        return false;
    if (!side) side = std::make_unique<Side>(outer.mesh);
    for (auto v : inner.mesh.vertices()) {
        CGAL::Bounded_side s = (*side)(inner.mesh.point(v));
        if (s != CGAL::ON_BOUNDARY) return s == CGAL::ON_BOUNDED_SIDE;
    }
    return true;
}

// The bodies: each outward shell with the inward shells whose innermost holder it is.
std::vector<SMesh> bodies_of(std::vector<Shell>& shells, Result& r) {
    std::vector<size_t> outward;
    for (size_t i = 0; i < shells.size(); ++i)
        if (shells[i].outward) outward.push_back(i);
    r.bodies = outward.size();
    std::vector<SMesh> bodies(outward.size());
    std::vector<std::unique_ptr<Side>> sides(outward.size());
    for (size_t k = 0; k < outward.size(); ++k) bodies[k] = shells[outward[k]].mesh;
    for (size_t i = 0; i < shells.size(); ++i) {
        if (shells[i].outward) continue;
        r.cavities += 1;
        long best = -1;
        for (size_t k = 0; k < outward.size(); ++k) {
            const Shell& o = shells[outward[k]];
            if ((best < 0 || o.volume < shells[outward[best]].volume) &&
                holds(o, sides[k], shells[i]))
                best = static_cast<long>(k);
        }
        // The validator places every cavity inside some body; one that is not is kept as
        // a body of its own (a negative one), which the union then subtracts nowhere.
        if (best >= 0) CGAL::copy_face_graph(shells[i].mesh, bodies[best]);
    }
    return bodies;
}

// The union of `group` (indices into `bodies`), by halves.
bool unite(std::vector<SMesh>& bodies, std::vector<size_t> group, SMesh& out) {
    while (group.size() > 1) {
        std::vector<size_t> next;
        for (size_t i = 0; i + 1 < group.size(); i += 2) {
            SMesh& a = bodies[group[i]];
            SMesh& b = bodies[group[i + 1]];
            SMesh u;
            if (!PMP::corefine_and_compute_union(
                    a, b, u, CGAL::parameters::throw_on_self_intersection(true),
                    CGAL::parameters::throw_on_self_intersection(true)))
                return false;
            a = std::move(u);
            b.clear();
            next.push_back(group[i]);
        }
        if (group.size() % 2 == 1) next.push_back(group.back());
        group = std::move(next);
    }
    out = std::move(bodies[group[0]]);
    return true;
}

// Groups of bodies whose boxes meet, joined through chains of meeting boxes.
std::vector<std::vector<size_t>> meeting(const std::vector<SMesh>& bodies) {
    size_t n = bodies.size();
    std::vector<CGAL::Bbox_3> box(n);
    for (size_t i = 0; i < n; ++i) box[i] = PMP::bbox(bodies[i]);
    std::vector<size_t> parent(n);
    std::iota(parent.begin(), parent.end(), 0);
    auto find = [&](size_t x) {
        while (parent[x] != x) x = parent[x] = parent[parent[x]];
        return x;
    };
    std::vector<size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(),
              [&](size_t a, size_t b) { return box[a].xmin() < box[b].xmin(); });
    for (size_t i = 0; i < n; ++i)
        for (size_t j = i + 1; j < n && box[order[j]].xmin() <= box[order[i]].xmax(); ++j)
            if (boxes_meet(box[order[i]], box[order[j]]))
                parent[find(order[i])] = find(order[j]);
    std::vector<std::vector<size_t>> groups(n);
    for (size_t i = 0; i < n; ++i) groups[find(i)].push_back(i);
    groups.erase(std::remove_if(groups.begin(), groups.end(),
                                [](const std::vector<size_t>& g) { return g.empty(); }),
                 groups.end());
    return groups;
}

// `m`'s triangles appended to `r`, its points rounded to double.
void append(const SMesh& m, Result& r) {
    std::vector<uint32_t> index(m.number_of_vertices() + m.number_of_removed_vertices());
    uint32_t next = static_cast<uint32_t>(r.xyz.size() / 3);
    for (auto v : m.vertices()) {
        const Point& p = m.point(v);
        bool changed = false;
        for (int k = 0; k < 3; ++k) {
            K::FT c = p[k];
            double d = CGAL::to_double(CGAL::exact(c));
            changed = changed || K::FT(d) != c;
            r.xyz.push_back(d);
        }
        r.rounded.push_back(changed ? 1 : 0);
        index[v.idx()] = next++;
    }
    for (auto f : m.faces()) {
        auto h = m.halfedge(f);
        for (int k = 0; k < 3; ++k) {
            r.triangles.push_back(index[m.target(h).idx()]);
            h = m.next(h);
        }
    }
}

// Whether `body` crosses itself, decided by exact predicates on its points (still the
// input's doubles here, so copied exactly) without exact constructions, which the test
// needs none of.
bool crosses_itself(const SMesh& body) {
    using Fast = CGAL::Exact_predicates_inexact_constructions_kernel;
    CGAL::Surface_mesh<Fast::Point_3> copy;
    std::vector<CGAL::Surface_mesh<Fast::Point_3>::Vertex_index> at(body.number_of_vertices() +
                                                                     body.number_of_removed_vertices());
    for (auto v : body.vertices()) {
        const Point& p = body.point(v);
        at[v.idx()] = copy.add_vertex(Fast::Point_3(CGAL::to_double(p.x()), CGAL::to_double(p.y()),
                                                    CGAL::to_double(p.z())));
    }
    for (auto f : body.faces()) {
        auto h = body.halfedge(f);
        auto a = at[body.target(h).idx()];
        auto b = at[body.target(body.next(h)).idx()];
        auto c = at[body.target(body.next(body.next(h))).idx()];
        copy.add_face(a, b, c);
    }
    return PMP::does_self_intersect(copy);
}

// A body whose surface crosses itself, resolved by CGAL's (experimental) autorefinement:
// the surface cut along its self-crossings and the pieces inside the solid dropped. Whether
// every crossing was resolved, the result closed and free of crossings.
bool resolved(SMesh& body) {
    try {
        if (!PMP::experimental::autorefine_and_remove_self_intersections(body)) return false;
        return CGAL::is_closed(body) && !PMP::does_self_intersect(body);
    } catch (const std::exception&) {
        // Its assertions fail on some coplanar crossings: unresolved, not a failure.
        return false;
    }
}

int32_t run(const double* xyz, size_t nv, const uint32_t* tris, size_t nt, Result& r) {
    std::vector<Shell> shells;
    if (!split_shells(xyz, nv, tris, nt, shells, r.message)) return kNotManifold;
    std::vector<SMesh> bodies = bodies_of(shells, r);
    shells.clear();
    for (auto& body : bodies) {
        if (crosses_itself(body)) {
            if (!resolved(body)) return kSelfCrossing;
            r.resolved += 1;
        }
    }
    for (const auto& group : meeting(bodies)) {
        if (group.size() == 1) {
            append(bodies[group[0]], r);
            continue;
        }
        r.united += group.size();
        SMesh u;
        if (!unite(bodies, group, u)) return kUnionNotManifold;
        append(u, r);
    }
    return kOk;
}

// `run`, with C++ exceptions turned into codes.
int32_t caught(const double* xyz, size_t nv, const uint32_t* tris, size_t nt, Result& r) {
    try {
        return run(xyz, nv, tris, nt, r);
    } catch (const PMP::Corefinement::Self_intersection_exception&) {
        r.message = "a body's surface crosses itself";
        return kSelfCrossing;
    } catch (const std::exception& e) {
        r.message = e.what();
        return kFailed;
    } catch (...) {
        r.message = "unknown exception";
        return kFailed;
    }
}

// The result as the child writes it to the pipe: a header of counts, then the arrays and
// the message.
struct Header {
    int32_t code;
    uint64_t xyz, triangles, rounded, message;
    uint64_t bodies, united, cavities, resolved;
};

bool write_all(int fd, const void* data, size_t n) {
    const char* p = static_cast<const char*>(data);
    while (n > 0) {
        ssize_t k = write(fd, p, n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return false;
        p += k;
        n -= static_cast<size_t>(k);
    }
    return true;
}

void send(int fd, int32_t code, const Result& r) {
    Header h{code,      r.xyz.size(), r.triangles.size(), r.rounded.size(), r.message.size(),
             r.bodies,  r.united,     r.cavities,         r.resolved};
    write_all(fd, &h, sizeof h) && write_all(fd, r.xyz.data(), r.xyz.size() * sizeof(double)) &&
        write_all(fd, r.triangles.data(), r.triangles.size() * sizeof(uint32_t)) &&
        write_all(fd, r.rounded.data(), r.rounded.size()) &&
        write_all(fd, r.message.data(), r.message.size());
}

double now() {
    timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// Everything the child writes, read until it closes the pipe or `seconds` pass. Whether it
// closed the pipe in time.
bool receive(int fd, double seconds, std::string& bytes) {
    double end = now() + seconds;
    char buffer[1 << 16];
    for (;;) {
        double left = end - now();
        if (left <= 0) return false;
        pollfd p{fd, POLLIN, 0};
        int ready = poll(&p, 1, static_cast<int>(std::min(left * 1000.0 + 1.0, 6e7)));
        if (ready < 0 && errno == EINTR) continue;
        if (ready <= 0) continue;
        ssize_t k = read(fd, buffer, sizeof buffer);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return true;
        bytes.append(buffer, static_cast<size_t>(k));
    }
}

// The child's result, read back from `bytes`; whether they hold a whole one.
bool decode(const std::string& bytes, int32_t& code, Result& r) {
    Header h;
    if (bytes.size() < sizeof h) return false;
    std::memcpy(&h, bytes.data(), sizeof h);
    size_t need = sizeof h + h.xyz * sizeof(double) + h.triangles * sizeof(uint32_t) + h.rounded +
                  h.message;
    if (bytes.size() != need) return false;
    const char* p = bytes.data() + sizeof h;
    r.xyz.resize(h.xyz);
    std::memcpy(r.xyz.data(), p, h.xyz * sizeof(double));
    p += h.xyz * sizeof(double);
    r.triangles.resize(h.triangles);
    std::memcpy(r.triangles.data(), p, h.triangles * sizeof(uint32_t));
    p += h.triangles * sizeof(uint32_t);
    r.rounded.assign(p, p + h.rounded);
    p += h.rounded;
    r.message.assign(p, h.message);
    r.bodies = h.bodies;
    r.united = h.united;
    r.cavities = h.cavities;
    r.resolved = h.resolved;
    code = h.code;
    return true;
}

// `run` in a child process, given `seconds` to finish.
int32_t guarded(const double* xyz, size_t nv, const uint32_t* tris, size_t nt, double seconds,
                Result& r) {
    int fds[2];
    if (pipe(fds) != 0) {
        r.message = std::string("no pipe to the union's process: ") + std::strerror(errno);
        return kFailed;
    }
    pid_t child = fork();
    if (child < 0) {
        r.message = std::string("the union's process did not start: ") + std::strerror(errno);
        close(fds[0]);
        close(fds[1]);
        return kFailed;
    }
    if (child == 0) {
        close(fds[0]);
        Result mine;
        int32_t code = caught(xyz, nv, tris, nt, mine);
        send(fds[1], code, mine);
        _exit(0);
    }
    close(fds[1]);
    std::string bytes;
    bool closed = receive(fds[0], seconds, bytes);
    close(fds[0]);
    if (!closed) kill(child, SIGKILL);
    int status = 0;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    if (!closed) return kTimedOut;
    int32_t code = kFailed;
    if (!decode(bytes, code, r)) {
        r = Result();
        code = kFailed;
        if (WIFSIGNALED(status))
            r.message = std::string("its process stopped: ") + strsignal(WTERMSIG(status));
        else
            r.message = "its process stopped before it returned a union";
    }
    return code;
}

}  // namespace

extern "C" {

// The union of the mesh's bodies, computed in a child process given `seconds` to finish;
// `*out` receives a result to read with the accessors below and free with
// `inertia_union_free` (also on failure, for its message).
int32_t inertia_union(const double* xyz, size_t nv, const uint32_t* tris, size_t nt,
                      double seconds, void** out) {
    Result* r = new (std::nothrow) Result();
    *out = r;
    if (r == nullptr) return kFailed;
    try {
        return guarded(xyz, nv, tris, nt, seconds, *r);
    } catch (const std::exception& e) {
        r->message = e.what();
        return kFailed;
    }
}

size_t inertia_union_vertices(const void* r) {
    return static_cast<const Result*>(r)->rounded.size();
}
size_t inertia_union_triangles(const void* r) {
    return static_cast<const Result*>(r)->triangles.size() / 3;
}
const double* inertia_union_xyz(const void* r) { return static_cast<const Result*>(r)->xyz.data(); }
const uint32_t* inertia_union_corners(const void* r) {
    return static_cast<const Result*>(r)->triangles.data();
}
const uint8_t* inertia_union_rounded(const void* r) {
    return static_cast<const Result*>(r)->rounded.data();
}
// Bodies (outward shells), of them united with another, and cavities.
void inertia_union_counts(const void* r, uint64_t* bodies, uint64_t* united, uint64_t* cavities,
                          uint64_t* resolved) {
    const Result* p = static_cast<const Result*>(r);
    *bodies = p->bodies;
    *united = p->united;
    *cavities = p->cavities;
    *resolved = p->resolved;
}
const char* inertia_union_message(const void* r) {
    return static_cast<const Result*>(r)->message.c_str();
}
void inertia_union_free(void* r) { delete static_cast<Result*>(r); }

}  // extern "C"
