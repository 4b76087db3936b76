#!/usr/bin/env bash
# End-to-end time of `inertia polygon` on million-vertex polygons (parse + validate +
# integrate + print), the way a user runs it. Uses hyperfine when installed, else `time`.
#   bash bench/polygon_1m.sh [N]
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-1000000}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cargo build --release --quiet
python3 - "$n" "$dir" <<'PY'
import json, math, sys
n, d = int(sys.argv[1]), sys.argv[2]
for name, spiky in (("circle", False), ("star", True)):
    pts = [[(500.0 if spiky and k % 2 else 1000.0) * math.cos(2 * math.pi * k / n),
            (500.0 if spiky and k % 2 else 1000.0) * math.sin(2 * math.pi * k / n)] for k in range(n)]
    with open(f"{d}/{name}.json", "w") as f:
        json.dump(pts, f)
    with open(f"{d}/{name}.csv", "w") as f:
        f.write("".join(f"{x!r},{y!r}\n" for x, y in pts))
PY
bin=${CARGO_TARGET_DIR:-target}/release/inertia
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
for f in "$dir"/circle.json "$dir"/circle.csv "$dir"/star.json; do
  size=$(du -h "$f" | cut -f1)
  if command -v hyperfine >/dev/null; then
    hyperfine --warmup 1 --runs 5 --style basic "$bin polygon $f --json" | grep -E "Time|Range" | sed "s|^|$(basename "$f") ($size, $n vertices): |"
  else
    start=$(date +%s.%N); "$bin" polygon "$f" --json >/dev/null; end=$(date +%s.%N)
    printf '%s (%s, %d vertices): %.3f s\n' "$(basename "$f")" "$size" "$n" "$(echo "$end - $start" | bc)"
  fi
done
