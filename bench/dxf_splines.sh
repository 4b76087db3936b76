#!/usr/bin/env bash
# Whole-process time and peak memory of `inertia polygon FILE --json` on a 400 x 250 DXF
# plate with 1,000 holes of radius 3, drawn three ways: SPLINE circles as vector-graphics
# editors write them (degree 3, four Beziers, not rational), SPLINE circles as CAD programs
# write exact ones (rational quadratic, 9 control points), and CIRCLE entities (arcs). Also
# run as the `parts` section of bench/compare.sh.
#
#   bash bench/dxf_splines.sh            # 1,000 holes, best of 5
#   HOLES=4000 RUNS=3 bash bench/dxf_splines.sh
#
# Timing: hyperfine if installed (mean of RUNS runs), else the best of RUNS runs. Peak
# memory: GNU time's maximum resident size, where /usr/bin/time exists.
set -euo pipefail
cd "$(dirname "$0")/.."
HOLES=${HOLES:-1000}
RUNS=${RUNS:-5}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cargo build --release --quiet --bin inertia
inertia=${CARGO_TARGET_DIR:-target}/release/inertia

python3 - "$dir" "$HOLES" <<'PY'
import math, sys
d, n = sys.argv[1], int(sys.argv[2])
cols = max(1, round(math.sqrt(n * 1.6)))
rows = -(-n // cols)
w, h = 10 * cols, 10 * rows
k = 0.552284749831  # 4(sqrt 2 - 1)/3, as editors write it
s2 = math.sqrt(0.5)

def spline(handle, degree, knots, pts, weights=None):
    out = f"0\nSPLINE\n5\n{handle:X}\n8\n0\n210\n0\n220\n0\n230\n1\n70\n{8 + 4 * (weights is not None)}\n"
    out += f"71\n{degree}\n72\n{len(knots)}\n73\n{len(pts)}\n74\n0\n"
    out += "".join(f"40\n{t}\n" for t in knots)
    out += "".join(f"41\n{x}\n" for x in weights or [])
    out += "".join(f"10\n{x!r}\n20\n{y!r}\n30\n0\n" for x, y in pts)
    return out

def cubic(handle, cx, cy, r):
    q = [(1, 0), (1, k), (k, 1), (0, 1), (-k, 1), (-1, k), (-1, 0), (-1, -k), (-k, -1),
         (0, -1), (k, -1), (1, -k), (1, 0)]
    knots = [0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 4]
    return spline(handle, 3, knots, [(cx + r * x, cy + r * y) for x, y in q])

def rational(handle, cx, cy, r):
    q = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1), (1, 0)]
    knots = [0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 4]
    weights = [1, s2, 1, s2, 1, s2, 1, s2, 1]
    return spline(handle, 2, knots, [(cx + r * x, cy + r * y) for x, y in q], weights)

def circle(handle, cx, cy, r):
    return f"0\nCIRCLE\n5\n{handle:X}\n8\n0\n10\n{cx}\n20\n{cy}\n40\n{r}\n"

for name, hole in (("cubic_splines", cubic), ("rational_splines", rational), ("circles", circle)):
    body = f"0\nLWPOLYLINE\n5\n10\n8\n0\n90\n4\n70\n1\n10\n0\n20\n0\n10\n{w}\n20\n0\n10\n{w}\n20\n{h}\n10\n0\n20\n{h}\n"
    for m in range(n):
        body += hole(0x100 + m, 5 + 10 * (m % cols), 5 + 10 * (m // cols), 3)
    open(f"{d}/{name}.dxf", "w").write(f"0\nSECTION\n2\nENTITIES\n{body}0\nENDSEC\n0\nEOF\n")
PY

seconds() {
  if command -v hyperfine > /dev/null; then
    hyperfine --warmup 1 --runs "$RUNS" --export-json "$dir/h.json" --style none "$1" > /dev/null 2>&1
    python3 -c "import json; print(json.load(open('$dir/h.json'))['results'][0]['mean'])"
  else
    bash -c "$1" > /dev/null 2>&1
    local best=""
    for _ in $(seq "$RUNS"); do
      local t0 t1
      t0=$(date +%s%N)
      bash -c "$1" > /dev/null 2>&1
      t1=$(date +%s%N)
      local t=$((t1 - t0))
      if [ -z "$best" ] || [ "$t" -lt "$best" ]; then best=$t; fi
    done
    python3 -c "print($best / 1e9)"
  fi
}

peak() {
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -f %M -o "$dir/rss" bash -c "$1" > /dev/null 2>&1 || true
    python3 -c "print(f'{int(open(\"$dir/rss\").read().split()[-1]) / 1024:.0f}')"
  else
    echo "-"
  fi
}

echo "DXF plate with $HOLES holes of radius 3 ($(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs))"
for f in cubic_splines rational_splines circles; do
  cmd="$inertia polygon $dir/$f.dxf --json"
  if ! $cmd > /dev/null 2> "$dir/err"; then
    printf "%18s  refused: %s\n" "$f" "$(cat "$dir/err")"
    continue
  fi
  t=$(seconds "$cmd")
  rss=$(peak "$cmd")
  python3 -c "print(f'{\"$f\":>18}  {$t:.3f} s  peak {\"$rss\"} MB  ({$(stat -c %s "$dir/$f.dxf") / 1e6:.1f} MB file)')"
done
