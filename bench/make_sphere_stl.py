#!/usr/bin/env python3
"""Writes a closed UV sphere as binary STL: python3 bench/make_sphere_stl.py OUT [SEGMENTS] [RINGS].

Triangles = 2 · SEGMENTS · (RINGS − 1). Default 1000 × 500: 998,000 triangles (50 MB).
"""
import math
import struct
import sys

out = sys.argv[1]
n = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
rings = int(sys.argv[3]) if len(sys.argv) > 3 else 500


def pt(k, j):
    phi = -math.pi / 2 + math.pi * k / rings
    t = 2 * math.pi * (j % n) / n
    return (math.cos(phi) * math.cos(t), math.cos(phi) * math.sin(t), math.sin(phi))


south, north = (0.0, 0.0, -1.0), (0.0, 0.0, 1.0)
count = 2 * n * (rings - 1)
rec = struct.Struct("<12fH")
with open(out, "wb") as f:
    f.write(b"\0" * 80)
    f.write(struct.pack("<I", count))
    buf = bytearray()
    for j in range(n):
        tris = [(south, pt(1, j + 1), pt(1, j)), (north, pt(rings - 1, j), pt(rings - 1, j + 1))]
        for k in range(1, rings - 1):
            a, b, c, d = pt(k, j), pt(k, j + 1), pt(k + 1, j + 1), pt(k + 1, j)
            tris += [(a, b, c), (a, c, d)]
        for t in tris:
            buf += rec.pack(0, 0, 0, *t[0], *t[1], *t[2], 0)
        if len(buf) > 1 << 24:
            f.write(buf)
            buf.clear()
    f.write(buf)
