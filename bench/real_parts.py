#!/usr/bin/env python3
"""Times `inertia mesh FILE --json` on real public parts beside trimesh and `cat`: run by
bench/real_parts.sh, which builds inertia, the 10^6-triangle sphere and the virtualenv.

    python3 real_parts.py INERTIA SPHERE.stl CORPUS [PATH ...]

CORPUS holds one folder per repository of REPOS, each file at its path in that repository
(the layout of ../shared/corpus/extract.sh); PATH ... (NAME/path, as in PARTS) times those
files instead of PARTS. Every file is checked against the git blob id PARTS pins (a file
that differs is timed and marked "differs").

Timing, warm cache (each file is read and run once before it is timed), in rounds: each
round runs, one after another, inertia on the part, inertia on the sphere, `cat PART >
/dev/null`, and (in the first TRIMESH_RUNS rounds) trimesh's `trimesh.load(PART)` +
`mass_properties` in this process. A process is timed from its spawn to its reaping
(`os.posix_spawn`, `os.waitpid`). Times are medians over the rounds; the ratios (part's
time per triangle to the sphere's, trimesh's time to inertia's) are medians of each round's
ratio, so that a machine whose speed drifts between rounds moves both sides together.

Env: RUNS (rounds, default 5), TRIMESH_RUNS (default 3), TRIMESH=0 (no trimesh).
The summary row counts, of the parts over 10k triangles, those within 2x the sphere's time
per triangle and those at least 3x faster than trimesh, and of those under 1k triangles the
ones under 3 ms (issue 46, item 6).
"""
import gc
import hashlib
import json
import os
import re
import statistics
import sys
import time

# The corpus: folder name -> (GitHub repository, commit), as in ../shared/corpus/README.md.
REPOS = {
    "trimesh": ("mikedh/trimesh", "a513c0e2cfa6dfbd3121a6dfd8ceb002b9ef55d8"),
    "common-3d-test-models": ("alecjacobson/common-3d-test-models", "8a4f8642acaf43f9cd7b67858a1502e1055ef202"),
    "libigl-tutorial-data": ("libigl/libigl-tutorial-data", "c1f9ede366d02e3531ecbaec5e3769312f31cccd"),
    "numpy-stl": ("WoLpH/numpy-stl", "c5d490e4b1595c0c9355cdbf0872b75691cea5b6"),
    "Original-Prusa-i3": ("prusa3d/Original-Prusa-i3", "529e5ad6892ce3b25015b7cca7f0481b8335a76c"),
    "universal_robot": ("ros-industrial/universal_robot", "a7a2c5459b9702ba8b07ebf35f0134159e50e680"),
}

# The parts: every mesh of the corpus over 10k triangles, two of 7-8k, and a sample under
# 1k (folder, path in the repository, git blob id at the commit above, its first 12 digits).
PARTS = [
    ("trimesh", "models/capsule.obj", "03de2686fd28"),
    ("libigl-tutorial-data", "circle.obj", "8765e0b49471"),
    ("universal_robot", "ur_description/meshes/ur3/collision/upperarm.stl", "a6a41cf132c0"),
    ("Original-Prusa-i3", "Printed-Parts/STL/Spool-holder.stl", "34eb505c6bda"),
    ("libigl-tutorial-data", "decimated-max.obj", "a872c870b4c1"),
    ("common-3d-test-models", "data/homer.obj", "d8f8b613fcf9"),
    ("libigl-tutorial-data", "elephant.obj", "4789df244376"),
    ("Original-Prusa-i3", "Printed-Parts/STL/fan-shroud.stl", "356b44b3c0fc"),
    ("trimesh", "models/chair_model.obj", "eee96ea26762"),
    ("common-3d-test-models", "data/fandisk.obj", "787cd6c51a11"),
    ("common-3d-test-models", "data/cheburashka.obj", "39cc2181e6d6"),
    ("Original-Prusa-i3", "Printed-Parts/STL/extruder-motor-plate.stl", "7b71857b0deb"),
    ("trimesh", "models/bunny.ply", "ab8423ad3c99"),
    ("libigl-tutorial-data", "arm.obj", "72e27526420c"),
    ("numpy-stl", "tests/stl_binary/rear_case.stl", "195135111896"),
    ("Original-Prusa-i3", "Printed-Parts/STL/adapter-printer-mmu2s.stl", "8520bd4d8075"),
    ("common-3d-test-models", "data/rocker-arm.obj", "ca4cbc448567"),
    ("Original-Prusa-i3", "Printed-Parts/STL/extruder-body.stl", "25670723a4da"),
    ("Original-Prusa-i3", "Printed-Parts/STL/adapter-printer.stl", "dafd3b0a5627"),
    ("common-3d-test-models", "data/beetle-alt.obj", "2603f1cf7637"),
    ("libigl-tutorial-data", "bumpy-cube.obj", "7035c05d19a5"),
    ("trimesh", "models/cycloidal.ply", "3bb3777e8676"),
    ("libigl-tutorial-data", "face.obj", "b07bc4c52413"),
    ("common-3d-test-models", "data/beast.obj", "8c2981e24216"),
    ("common-3d-test-models", "data/stanford-bunny.obj", "980d8f4642b6"),
    ("trimesh", "models/counter.unitsmm.STL", "509894256c95"),
    ("trimesh", "models/counterXP.3MF", "bb4333d62d52"),
    ("libigl-tutorial-data", "armadillo.obj", "b7df6d6c21f2"),
    ("libigl-tutorial-data", "cube_40k.obj", "15badea46771"),
    ("common-3d-test-models", "data/nefertiti.obj", "9e6d5d7114a6"),
    ("common-3d-test-models", "data/ogre.obj", "9a998628e8be"),
    ("Original-Prusa-i3", "Printed-Parts/STL/x-carriage.stl", "01175c914b43"),
    ("trimesh", "models/counterX.3MF", "7d3a7fda20b8"),
    ("numpy-stl", "tests/stl_binary/Cube.stl", "5e54553fa37e"),
    ("numpy-stl", "tests/stl_ascii/Moon.stl", "5f7d148d7f7a"),
    ("trimesh", "models/20mm-xyz-cube.stl", "8dbc172f3cd3"),
    ("Original-Prusa-i3", "Printed-Parts/STL/endstop-block.stl", "0b97a4373adb"),
    ("universal_robot", "ur_description/meshes/ur5e/collision/base.stl", "c5881046676c"),
    ("trimesh", "models/angle_block.STL", "8f99323f259a"),
    ("libigl-tutorial-data", "sphere.obj", "d60e1ad44026"),
    ("universal_robot", "ur_description/meshes/ur10/collision/shoulder.stl", "7881e85c6e5b"),
    ("Original-Prusa-i3", "Printed-Parts/STL/Einsy-hinges.stl", "08ceb370a479"),
]

# Metres per unit, for the units a 3MF states (inertia then reports in metres).
METRES = {"um": 1e-6, "mm": 1e-3, "cm": 1e-2, "m": 1.0, "in": 0.0254, "ft": 0.3048}

RUNS = int(os.environ.get("RUNS", "5"))
TRIMESH_RUNS = int(os.environ.get("TRIMESH_RUNS", "3"))
DEVNULL = os.open(os.devnull, os.O_WRONLY)


def spawn_seconds(argv):
    """Wall seconds of one process, spawn to reaping, and its exit code; its output goes to
    /dev/null."""
    actions = [(os.POSIX_SPAWN_DUP2, DEVNULL, 1), (os.POSIX_SPAWN_DUP2, DEVNULL, 2)]
    t0 = time.perf_counter()
    pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=actions)
    _, status = os.waitpid(pid, 0)
    return time.perf_counter() - t0, os.waitstatus_to_exitcode(status)


def blob_id(path):
    """The git blob id of a file (sha1 of "blob SIZE\\0" and its bytes)."""
    data = open(path, "rb").read()
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def inertia_answer(inertia, path):
    """(triangles, volume in the file's unit, None) or (None, None, the error's first words),
    and the warnings, from one untimed run."""
    import subprocess

    run = subprocess.run([inertia, "mesh", path, "--json"], capture_output=True, text=True)
    lines = [l for l in run.stderr.splitlines() if l.strip()]
    warnings = [short(l, path) for l in lines if l.startswith("inertia: warning: ")]
    if run.returncode != 0:
        errors = [l for l in lines if not l.startswith("inertia: warning: ")]
        return (None, None, short(errors[0] if errors else f"exit {run.returncode}", path)), warnings
    report = json.loads(run.stdout)
    report = report.get("total", report)
    volume = report["volume"]
    units = report.get("units")
    if units and units.get("input") in METRES and units.get("length") in METRES:
        volume /= (METRES[units["input"]] / METRES[units["length"]]) ** 3
    return (report["triangles"], volume, None), warnings


def short(line, path):
    """A message without the program's name, the file's name or coordinates, rounded."""
    line = re.sub(r"^inertia: (warning: )?", "", line)
    line = line.replace(path + ": ", "")
    line = re.sub(r"\([-0-9.e, ]+\)(–\([-0-9.e, ]+\))?", "(…)", line)
    return re.sub(r"\d+\.\d{3,}(e-?\d+)?", lambda m: f"{float(m.group(0)):.2g}", line)


def headline(error):
    """The first words of a refusal, for the table: what, how deep, how far a repair reaches."""
    error = re.split(r": two bodies overlap|; |, e\.g\. ", error)[0]
    error = re.sub(r" (at|around) \(…\)", "", error)
    error = re.sub(r"\(more than the (\S+) a repair may reach there\)", r"> \1 reach", error)
    return error if len(error) <= 90 else error[:89] + "…"


def trimesh_run(path):
    """trimesh.load + mass_properties in this process: (seconds, volume, faces) or the error."""
    import trimesh

    gc.collect()
    t0 = time.perf_counter()
    try:
        mesh = trimesh.load(path)
        if isinstance(mesh, trimesh.Scene):
            mesh = mesh.to_geometry() if hasattr(mesh, "to_geometry") else mesh.dump(concatenate=True)
        volume = mesh.mass_properties["volume"]
    except Exception as e:  # a refusal is a result here
        return time.perf_counter() - t0, None, None, type(e).__name__
    return time.perf_counter() - t0, volume, len(mesh.faces), None


def time_part(inertia, sphere, path, use_trimesh):
    """Medians over RUNS rounds: inertia, cat, trimesh seconds; part/sphere and trimesh/inertia
    ratios (per round, then the median); the sphere's times."""
    spawn_seconds([inertia, "mesh", path, "--json"])
    spawn_seconds(["/bin/cat", path])
    first = trimesh_run(path) if use_trimesh else None
    own, cat, spheres, tm, vs_sphere, vs_trimesh = [], [], [], [], [], []
    for r in range(RUNS):
        t, _ = spawn_seconds([inertia, "mesh", path, "--json"])
        s, _ = spawn_seconds([inertia, "mesh", sphere, "--json"])
        c, _ = spawn_seconds(["/bin/cat", path])
        own.append(t)
        cat.append(c)
        spheres.append(s)
        vs_sphere.append(t / s)
        if use_trimesh and r < TRIMESH_RUNS and first[1] is not None:
            m = trimesh_run(path)[0]
            tm.append(m)
            vs_trimesh.append(m / t)
    med = statistics.median
    return {
        "inertia": med(own),
        "cat": med(cat),
        "spheres": spheres,
        "vs_sphere": med(vs_sphere),
        "trimesh": med(tm) if tm else None,
        "vs_trimesh": med(vs_trimesh) if vs_trimesh else None,
        "trimesh_volume": first[1] if first else None,
        "trimesh_faces": first[2] if first else None,
        "trimesh_error": first[3] if first else None,
    }


def median_ms(argv):
    """Median wall milliseconds of RUNS runs of a command, after one run not counted."""
    return statistics.median([spawn_seconds(argv)[0] for _ in range(RUNS + 1)][1:]) * 1e3


def fmt(x, spec, none="—"):
    return none if x is None else format(x, spec)


def difference(ours, theirs):
    """The relative difference of the volumes when both tools answered, else None."""
    if ours is None or theirs is None:
        return None
    return abs(ours - theirs) / abs(ours) if ours else abs(theirs)


def agreement(ours, theirs, theirs_error):
    """The relative difference of the volumes, or why there is none."""
    if theirs_error:
        return f"trimesh: {theirs_error}"
    d = difference(ours, theirs)
    if d is None:
        return "—"
    return f"{d:.1e}" + (" (trimesh's is negative)" if theirs < 0 < ours else "")


def main():
    inertia, sphere, corpus = sys.argv[1:4]
    use_trimesh = os.environ.get("TRIMESH", "1") != "0"
    if use_trimesh:
        import warnings

        import trimesh  # noqa: F401  (imported before anything is timed)

        warnings.filterwarnings("ignore")  # trimesh's on open meshes (a volume of 0)
    pins = {f"{n}/{p}": b for n, p, b in PARTS}
    chosen = sys.argv[4:] or list(pins)
    missing = [c for c in chosen if not os.path.isfile(os.path.join(corpus, c))]
    for c in missing:
        repo, commit = REPOS.get(c.split("/", 1)[0], ("?", "?"))
        print(f"missing {os.path.join(corpus, c)} (github.com/{repo} at {commit})", file=sys.stderr)
    if missing:
        sys.exit(1)
    if use_trimesh:
        trimesh_run(os.path.join(corpus, chosen[0]))  # trimesh's lazy imports, untimed
    s_tris = (os.path.getsize(sphere) - 84) // 50
    print(f"start-up alone (`inertia --version`): {median_ms([inertia, '--version']):.1f} ms; "
          f"the sphere ({s_tris:,} triangles, binary STL): {median_ms([inertia, 'mesh', sphere, '--json']):.0f} ms "
          f"(medians of {RUNS}; trimesh in {min(RUNS, TRIMESH_RUNS)} of the {RUNS} rounds)")
    print()
    print("| part | triangles | cat ms | inertia ms | µs / triangle | × sphere's | trimesh ms "
          "| × faster than trimesh | inertia | volume vs trimesh |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---|---|")
    rows, notes, spheres = [], [], []
    for c in chosen:
        path = os.path.join(corpus, c)
        differs = c in pins and not blob_id(path).startswith(pins[c])
        (tris, volume, error), warnings = inertia_answer(inertia, path)
        t = time_part(inertia, sphere, path, use_trimesh)
        n = tris or t["trimesh_faces"] or 0
        ratio = t["vs_sphere"] * s_tris / n if n else None
        said = "answered" if error is None else f"refused: {headline(error)}"
        label = c + (" (differs from the pinned file)" if differs else "")
        print(f"| {label} | {n:,} | {t['cat'] * 1e3:.1f} | {t['inertia'] * 1e3:.1f} "
              f"| {fmt(t['inertia'] / n * 1e6 if n else None, '.2f')} | {fmt(ratio, '.1f')} "
              f"| {fmt(t['trimesh'] and t['trimesh'] * 1e3, '.1f')} | {fmt(t['vs_trimesh'], '.1f')} "
              f"| {said} | {agreement(volume, t['trimesh_volume'], t['trimesh_error'])} |", flush=True)
        rows.append((n, t, ratio, error, difference(volume, t["trimesh_volume"])))
        notes.append((c, error, warnings))
        spheres += t["spheres"]
    summary(rows)
    print()
    print(f"The sphere over all {len(spheres)} rounds: median {statistics.median(spheres) * 1e3:.0f} ms "
          f"({min(spheres) * 1e3:.0f}–{max(spheres) * 1e3:.0f}), "
          f"{statistics.median(spheres) / s_tris * 1e6:.3f} µs a triangle.")
    print()
    for c, error, warnings in notes:
        for line in ([f"refused: {error}"] if error else []) + [f"warning: {w}" for w in warnings]:
            print(f"- {c}: {line}")


def summary(rows):
    big = [r for r in rows if r[0] > 10000]
    small = [r for r in rows if 0 < r[0] < 1000]  # 0: counted by no tool
    near = sum(1 for r in big if r[2] is not None and r[2] <= 2)
    fast = sum(1 for r in big if r[1]["vs_trimesh"] is not None and r[1]["vs_trimesh"] >= 3)
    timed = sum(1 for r in big if r[1]["vs_trimesh"] is not None)
    quick = sum(1 for r in small if r[1]["inertia"] < 0.003)
    answered = sum(1 for r in rows if r[3] is None)
    apart = sum(1 for r in rows if r[4] is not None and r[4] > 1e-9)
    compared = sum(1 for r in rows if r[4] is not None)
    print(f"| **summary** | {len(rows)} parts | | < 1k triangles: {quick} of {len(small)} under 3 ms | | "
          f"> 10k triangles: {near} of {len(big)} within 2× | | > 10k: {fast} of {timed} ≥ 3× "
          f"| {answered} answered | {apart} of {compared} differ by more than 1e-9 |")


if __name__ == "__main__":
    main()
