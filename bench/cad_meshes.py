#!/usr/bin/env python3
"""Writes closed meshes shaped the way CAD exporters write them, for benchmarks: binary STL
(f32), or OBJ with every digit of f64 when OUT ends in .obj.

    python3 bench/cad_meshes.py KIND N OUT.stl|OUT.obj

Rounded to f32, a polygon of more than some 10^4 sides is no longer convex where it crosses
an axis (neighbouring corners round to one x), so a fan from a rim corner folds over itself
there and inertia refuses the file (rightly: its triangles overlap). Large fans go to OBJ.

KIND:
  fan-cylinder       a cylinder (radius 10, height 20) of N sections whose caps are fans from
                     their centre (4N triangles)
  rim-cylinder       the same, caps fanned from one rim vertex (4N - 4 triangles)
  fan-cone           a cone of N sections, its base fanned from the centre (2N triangles)
  rim-cone           the same, its base fanned from one rim vertex (2N - 2 triangles)
  grid-cube          a cube of side 10 whose faces are N x N grids of squares (12 N^2 triangles)
  grid-boxes         N x N unit boxes, 2 apart, each face a 3 x 3 grid (108 N^2 triangles: many
                     flat patches)
  ngon-prism         a prism over a regular N-gon, caps fanned from a rim vertex (OBJ-like
                     long thin triangles)
  needle-bundle      N needles (triangular prisms 10 long, 1e-3 across), parallel along
                     (1, 1, 1) and 0.01 apart: a crowd of slivers whose boxes nearly all meet
                     one another though no two triangles cross (8N triangles)
  random-sticks      N sticks (triangular prisms 10 long, 0.02 across) in random directions
                     (seeded), in a cube of side 20 (N / 1000)^(1/3) (the same density at
                     every N), none within 0.1 of another: long triangles whose large boxes
                     meet many others in every direction, a crowd no turned frame thins
                     (8N triangles)
  cracked-cube       the grid cube whose top face is cut into strips 17 rows wide, each strip's
                     first row moved by 2e-5 in y: an open mesh with about 32 N open corners,
                     all in the plane z = 10 (the open-mesh refusal's nearest-corner search)
  cubes-at-one-spot  N unit cubes on the same eight points (12N triangles: refused, a face
                     written N times)
  cubes-a-hair-apart N unit cubes, each 1e-4 along x from the last (12N triangles: refused,
                     every copy overlapping the next)
  cubes-nested       N cubes at one corner, of sides 1 to 1 + (N - 1)/1000 (12N triangles:
                     refused, their faces lying on one another at the corner they share)
"""
import math
import struct
import sys


def write(path, tris):
    rec = struct.Struct("<12fH")
    with open(path, "wb") as out:
        out.write(b"\0" * 80 + struct.pack("<I", len(tris)))
        for a, b, c in tris:
            out.write(rec.pack(0, 0, 0, *a, *b, *c, 0))


def write_obj(path, tris):
    index = {}
    lines = []
    faces = []
    for t in tris:
        f = []
        for p in t:
            if p not in index:
                index[p] = len(index) + 1
                lines.append("v %r %r %r\n" % p)
            f.append(index[p])
        faces.append("f %d %d %d\n" % tuple(f))
    with open(path, "w") as out:
        out.writelines(lines)
        out.writelines(faces)


def ring(n, r, z):
    return [(r * math.cos(2 * math.pi * k / n), r * math.sin(2 * math.pi * k / n), z) for k in range(n)]


def cylinder(n, rim):
    lo, hi = ring(n, 10.0, 0.0), ring(n, 10.0, 20.0)
    tris = []
    for k in range(n):
        j = (k + 1) % n
        tris.append((lo[k], lo[j], hi[j]))
        tris.append((lo[k], hi[j], hi[k]))
    tris += cap(hi, (0.0, 0.0, 20.0), rim, up=True)
    tris += cap(lo, (0.0, 0.0, 0.0), rim, up=False)
    return tris


def cap(pts, centre, rim, up):
    n = len(pts)
    out = []
    if rim:
        for k in range(1, n - 1):
            t = (pts[0], pts[k], pts[k + 1])
            out.append(t if up else (t[0], t[2], t[1]))
    else:
        for k in range(n):
            t = (centre, pts[k], pts[(k + 1) % n])
            out.append(t if up else (t[0], t[2], t[1]))
    return out


def cone(n, rim):
    base = ring(n, 10.0, 0.0)
    apex = (0.0, 0.0, 20.0)
    tris = [(base[k], base[(k + 1) % n], apex) for k in range(n)]
    return tris + cap(base, (0.0, 0.0, 0.0), rim, up=False)


def grid_boxes(n):
    tris = []
    for i in range(n):
        for j in range(n):
            tris += [tuple(tuple(c + o for c, o in zip(p, (2.0 * i, 2.0 * j, 0.0))) for p in t) for t in grid_cube(3, 1.0)]
    return tris


def grid_cube(n, s=10.0):
    tris = []
    # Each face: a grid on (u, v) mapped to 3D, wound outward.
    faces = [
        (lambda u, v: (u, v, s), False), (lambda u, v: (u, v, 0.0), True),
        (lambda u, v: (u, s, v), True), (lambda u, v: (u, 0.0, v), False),
        (lambda u, v: (s, u, v), False), (lambda u, v: (0.0, u, v), True),
    ]
    for f, flip in faces:
        for i in range(n):
            for j in range(n):
                p = [f(s * a / n, s * b / n) for a, b in ((i, j), (i + 1, j), (i + 1, j + 1), (i, j + 1))]
                for t in ((p[0], p[1], p[2]), (p[0], p[2], p[3])):
                    tris.append((t[0], t[2], t[1]) if flip else t)
    return tris


def needle_bundle(n):
    # An orthonormal frame (d along the needles; u, v across them).
    d = (1 / math.sqrt(3),) * 3
    u = (1 / math.sqrt(2), -1 / math.sqrt(2), 0.0)
    v = (1 / math.sqrt(6), 1 / math.sqrt(6), -2 / math.sqrt(6))
    side = math.ceil(math.sqrt(n))
    tris = []
    for k in range(n):
        i, j = divmod(k, side)
        def at(a, b, t):
            x, y = 0.01 * i + a, 0.01 * j + b
            return tuple(x * u[m] + y * v[m] + t * d[m] for m in range(3))
        cross = [(0.0, 0.0), (1e-3, 0.0), (0.0, 1e-3)]
        lo = [at(a, b, 0.0) for a, b in cross]
        hi = [at(a, b, 10.0) for a, b in cross]
        tris.extend(prism(lo, hi))
    return tris


def prism(lo, hi):
    """The 8 triangles of a triangular prism from its end triangles `lo` and `hi` (corner k
    of one above corner k of the other), outward when `lo` runs counterclockwise seen
    from `hi`."""
    tris = [(lo[0], lo[2], lo[1]), (hi[0], hi[1], hi[2])]
    for m in range(3):
        q = (m + 1) % 3
        tris.append((lo[m], lo[q], hi[q]))
        tris.append((lo[m], hi[q], hi[m]))
    return tris


def segment_distance(p1, q1, p2, q2):
    d1 = [q1[i] - p1[i] for i in range(3)]
    d2 = [q2[i] - p2[i] for i in range(3)]
    r = [p1[i] - p2[i] for i in range(3)]
    a = sum(x * x for x in d1)
    e = sum(x * x for x in d2)
    f = sum(d2[i] * r[i] for i in range(3))
    c = sum(d1[i] * r[i] for i in range(3))
    b = sum(d1[i] * d2[i] for i in range(3))
    den = a * e - b * b
    s = min(max((b * f - c * e) / den, 0.0), 1.0) if den > 1e-12 else 0.0
    t = (b * s + f) / e
    if t < 0.0:
        t, s = 0.0, min(max(-c / a, 0.0), 1.0)
    elif t > 1.0:
        t, s = 1.0, min(max((b - c) / a, 0.0), 1.0)
    return math.dist([p1[i] + d1[i] * s for i in range(3)], [p2[i] + d2[i] * t for i in range(3)])


def random_sticks(n, length=10.0, width=0.02, gap=0.1):
    import random

    rng = random.Random(5)
    side = 20.0 * (n / 1000) ** (1 / 3)
    cells = {}  # cell of sample points -> sticks passing near it
    placed = []
    tris = []
    while len(placed) < n:
        p = [rng.uniform(0.0, side) for _ in range(3)]
        z = rng.uniform(-1.0, 1.0)
        th = rng.uniform(0.0, 2.0 * math.pi)
        r = math.sqrt(1.0 - z * z)
        d = [r * math.cos(th), r * math.sin(th), z]
        q = [p[i] + length * d[i] for i in range(3)]
        keys = set()
        for k in range(41):
            x = [p[i] + (k / 40) * (q[i] - p[i]) for i in range(3)]
            keys.add(tuple(int(math.floor(v)) for v in x))
        near = set()
        for key in keys:
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    for dz in (-1, 0, 1):
                        near.update(cells.get((key[0] + dx, key[1] + dy, key[2] + dz), ()))
        if any(segment_distance(p, q, *placed[j]) < gap for j in near):
            continue
        for key in keys:
            cells.setdefault(key, []).append(len(placed))
        placed.append((p, q))
        t = [1.0, 0.0, 0.0] if abs(d[0]) < 0.9 else [0.0, 1.0, 0.0]
        u = [d[1] * t[2] - d[2] * t[1], d[2] * t[0] - d[0] * t[2], d[0] * t[1] - d[1] * t[0]]
        nu = math.sqrt(sum(x * x for x in u))
        u = [x / nu for x in u]
        v = [d[1] * u[2] - d[2] * u[1], d[2] * u[0] - d[0] * u[2], d[0] * u[1] - d[1] * u[0]]
        cross = [(0.0, 0.0), (width, 0.0), (0.0, width)]
        lo = [tuple(p[i] + a * u[i] + b * v[i] for i in range(3)) for a, b in cross]
        hi = [tuple(q[i] + a * u[i] + b * v[i] for i in range(3)) for a, b in cross]
        tris.extend(prism(lo, hi))
    return tris


def cracked_cube(n, s=10.0):
    tris = []
    for t in grid_cube(n, s):
        top = all(p[2] == s for p in t)
        if not top:
            tris.append(t)
            continue
        # The strip a top triangle lies in: the lowest row any of its corners is on.
        low = min(round(p[1] / s * n) for p in t)
        out = []
        for p in t:
            row = round(p[1] / s * n)
            if row == low and 0 < row < n and row % 17 == 0:
                p = (p[0], p[1] + 2e-5, p[2])
            out.append(p)
        tris.append(tuple(out))
    return tris


def cube(at, s=1.0):
    """The 12 triangles of a cube of side `s` from corner `at`, outward."""
    x, y, z = at
    v = [(x + i * s, y + j * s, z + k * s) for i in (0, 1) for j in (0, 1) for k in (0, 1)]
    faces = [(0, 2, 3), (0, 3, 1), (4, 5, 7), (4, 7, 6), (0, 1, 5), (0, 5, 4),
             (2, 6, 7), (2, 7, 3), (0, 4, 6), (0, 6, 2), (1, 3, 7), (1, 7, 5)]
    return [(v[a], v[c], v[b]) for a, b, c in faces]


def main():
    kind, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    tris = {
        "fan-cylinder": lambda: cylinder(n, rim=False),
        "rim-cylinder": lambda: cylinder(n, rim=True),
        "fan-cone": lambda: cone(n, rim=False),
        "rim-cone": lambda: cone(n, rim=True),
        "grid-cube": lambda: grid_cube(n),
        "grid-boxes": lambda: grid_boxes(n),
        "ngon-prism": lambda: cylinder(n, rim=True),
        "needle-bundle": lambda: needle_bundle(n),
        "random-sticks": lambda: random_sticks(n),
        "cracked-cube": lambda: cracked_cube(n),
        "cubes-at-one-spot": lambda: [t for _ in range(n) for t in cube((0, 0, 0))],
        "cubes-a-hair-apart": lambda: [t for k in range(n) for t in cube((k * 1e-4, 0, 0))],
        "cubes-nested": lambda: [t for k in range(n) for t in cube((0, 0, 0), 1.0 + k * 1e-3)],
    }[kind]()
    (write_obj if out.endswith(".obj") else write)(out, tris)
    print(f"{out}: {len(tris)} triangles", file=sys.stderr)


if __name__ == "__main__":
    main()
