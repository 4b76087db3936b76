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
  cracked-cube       the grid cube whose top face is cut into strips 17 rows wide, each strip's
                     first row moved by 2e-5 in y: an open mesh with about 32 N open corners,
                     all in the plane z = 10 (the open-mesh refusal's nearest-corner search)
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
        tris.append((lo[0], lo[2], lo[1]))
        tris.append((hi[0], hi[1], hi[2]))
        for m in range(3):
            q = (m + 1) % 3
            tris.append((lo[m], lo[q], hi[q]))
            tris.append((lo[m], hi[q], hi[m]))
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
        "cracked-cube": lambda: cracked_cube(n),
    }[kind]()
    (write_obj if out.endswith(".obj") else write)(out, tris)
    print(f"{out}: {len(tris)} triangles", file=sys.stderr)


if __name__ == "__main__":
    main()
