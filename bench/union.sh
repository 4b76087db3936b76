#!/usr/bin/env bash
# Whole-process times of `inertia mesh FILE --overlap union --json` (feature `union`)
# beside the plain check (`inertia mesh FILE --json`, which refuses the overlap) on: two
# spheres of 10^5 triangles each overlapping by half a radius, 100 boxes overlapping in a
# row, and the UR10 upper-arm collision link (5 overlapping pieces) when the corpus holds
# it (CORPUS, default /work/corpus). Best of RUNS runs, one warm-up first.
#
#   bash bench/union.sh
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
CORPUS=${CORPUS:-/work/corpus}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cargo build --release --quiet --features union --bin inertia
inertia=${CARGO_TARGET_DIR:-target}/release/inertia

best() {
  "$@" > /dev/null 2>&1 || true
  local b=""
  for _ in $(seq "$RUNS"); do
    local t0 t1
    t0=$(date +%s%N)
    "$@" > /dev/null 2>&1 || true
    t1=$(date +%s%N)
    local t=$((t1 - t0))
    if [ -z "$b" ] || [ "$t" -lt "$b" ]; then b=$t; fi
  done
  python3 -c "print(f'{$b / 1e9:.3f}')"
}

python3 - "$dir" <<'PY'
import math, sys
d = sys.argv[1]
def sphere(n, r, at, out, base):
    # n x 2n latitude-longitude grid: 4n^2 - 4n triangles.
    v, f = [], []
    v.append((at[0], at[1], at[2] + r))
    for i in range(1, n):
        th = math.pi * i / n
        for j in range(2 * n):
            ph = math.pi * j / n
            v.append((at[0] + r * math.sin(th) * math.cos(ph), at[1] + r * math.sin(th) * math.sin(ph), at[2] + r * math.cos(th)))
    v.append((at[0], at[1], at[2] - r))
    ring = lambda i, j: 1 + (i - 1) * 2 * n + j % (2 * n)
    for j in range(2 * n):
        f.append((0, ring(1, j), ring(1, j + 1)))
    for i in range(1, n - 1):
        for j in range(2 * n):
            a, b, c, e = ring(i, j), ring(i, j + 1), ring(i + 1, j + 1), ring(i + 1, j)
            f += [(a, e, c), (a, c, b)]
    last = len(v) - 1
    for j in range(2 * n):
        f.append((last, ring(n - 1, j + 1), ring(n - 1, j)))
    for p in v:
        out.write("v %r %r %r\n" % p)
    for t in f:
        out.write("f %d %d %d\n" % tuple(base + k + 1 for k in t))
    return len(v)
with open(f"{d}/spheres.obj", "w") as o:
    n = sphere(159, 1.0, (0, 0, 0), o, 0)
    sphere(159, 1.0, (1.0, 0, 0), o, n)
def box(lo, s, out, base):
    x, y, z = lo
    v = [(x + i * s[0], y + j * s[1], z + k * s[2]) for i in (0, 1) for j in (0, 1) for k in (0, 1)]
    f = [(0, 1, 3), (0, 3, 2), (4, 6, 7), (4, 7, 5), (0, 4, 5), (0, 5, 1), (2, 3, 7), (2, 7, 6), (0, 2, 6), (0, 6, 4), (1, 5, 7), (1, 7, 3)]
    for p in v:
        out.write("v %r %r %r\n" % p)
    for t in f:
        out.write("f %d %d %d\n" % tuple(base + k + 1 for k in t))
    return 8
with open(f"{d}/boxes.obj", "w") as o:
    base = 0
    for i in range(100):
        base += box((0.37 * i, 0.11 * (i % 7), 0.05 * (i % 3)), (1.0, 1.0, 1.0), o, base)
PY
files=("$dir/spheres.obj" "$dir/boxes.obj")
link="$CORPUS/universal_robot/ur_description/meshes/ur10/collision/upperarm.stl"
[ -f "$link" ] && files+=("$link")
printf '%-34s %10s %12s %10s %8s\n' file triangles "check (s)" "union (s)" ratio
for f in "${files[@]}"; do
  tris=$("$inertia" mesh "$f" --overlap union --json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["triangles"])')
  a=$(best "$inertia" mesh "$f" --json)
  b=$(best "$inertia" mesh "$f" --overlap union --json)
  printf '%-34s %10s %12s %10s %8s\n' "$(basename "$f")" "$tris" "$a" "$b" "$(python3 -c "print(f'{$b / $a:.1f}')")"
done
