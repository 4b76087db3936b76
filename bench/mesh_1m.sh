#!/usr/bin/env bash
# End-to-end time of `inertia mesh` on a ~1M-triangle binary STL (a UV sphere, 50 MB),
# beside `cat FILE > /dev/null`. Uses hyperfine.
#   bash bench/mesh_1m.sh [SEGMENTS] [RINGS]
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cargo build --release --quiet
python3 bench/make_sphere_stl.py "$dir/sphere.stl" "${1:-1000}" "${2:-500}"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
hyperfine --warmup 2 --runs 5 --style basic \
  "cat $dir/sphere.stl > /dev/null" \
  "target/release/inertia mesh $dir/sphere.stl --json" | grep -E "Time|Range|Benchmark"
