#!/usr/bin/env python3
"""Checks `inertia mesh --overlap union` against an independent boolean: Manifold's union
(the `manifold3d` package) of the file's bodies as trimesh splits them, integrated by
trimesh. Not run in CI (it needs manifold3d and trimesh from PyPI):

    bench/.venv/bin/pip install trimesh manifold3d
    bench/.venv/bin/python bench/union_check.py target/release/inertia FILE...

Prints, per file, both volumes and centroids and their relative differences."""
import json
import subprocess
import sys

import manifold3d
import numpy as np
import trimesh


def manifold_union(path):
    mesh = trimesh.load(path, force="mesh", process=True)
    if mesh.volume < 0:  # a file wound inside out, as inertia turns it
        mesh.invert()
    bodies = mesh.split(only_watertight=False)
    solids, cavities = [], []
    for b in bodies:
        # Shells wound inward are cavities: united right way out, then subtracted (which
        # is the union of the bodies unless a body lies in another's cavity).
        inward = b.volume < 0
        faces = b.faces[:, ::-1] if inward else b.faces
        m = manifold3d.Manifold(
            manifold3d.Mesh(
                vert_properties=np.asarray(b.vertices, dtype=np.float64),
                tri_verts=np.asarray(faces, dtype=np.uint32),
            )
        )
        (cavities if inward else solids).append(m)
    u = manifold3d.Manifold.batch_boolean(solids, manifold3d.OpType.Add)
    if cavities:
        u = u - manifold3d.Manifold.batch_boolean(cavities, manifold3d.OpType.Add)
    parts = solids + cavities
    out = u.to_mesh()
    t = trimesh.Trimesh(out.vert_properties[:, :3], out.tri_verts, process=False)
    return t.volume, t.center_mass, len(parts)


def main():
    exe, files = sys.argv[1], sys.argv[2:]
    print("file | bodies | inertia volume | manifold volume | rel. diff | centroid diff / size")
    for f in files:
        r = subprocess.run([exe, "mesh", f, "--overlap", "union", "--json"], capture_output=True, text=True)
        if r.returncode != 0:
            print(f"{f} | refused: {r.stderr.strip()[:100]}")
            continue
        ours = json.loads(r.stdout)
        v, c, n = manifold_union(f)
        size = np.linalg.norm(np.subtract(ours["bounding_box"]["max"], ours["bounding_box"]["min"]))
        dv = abs(ours["volume"] - v) / abs(v)
        dc = np.linalg.norm(np.subtract(ours["centroid"], c)) / size
        print(f"{f} | {n} | {ours['volume']:.12g} | {v:.12g} | {dv:.2e} | {dc:.2e}")


if __name__ == "__main__":
    main()
