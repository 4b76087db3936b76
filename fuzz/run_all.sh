#!/usr/bin/env bash
# Runs every fuzz target for RUNS executions (default 10 million) on stable Rust, without a
# sanitizer, starting from the seed corpus in fuzz/corpus/<target>, and prints one summary
# line per target. Needs `cargo install cargo-fuzz`.
#   bash fuzz/run_all.sh [RUNS]
#   TARGETS="stl obj" bash fuzz/run_all.sh   # a subset
set -uo pipefail
cd "$(dirname "$0")/.."
runs=${1:-10000000}
cargo fuzz build -s none >/dev/null 2>&1 || { echo "cargo fuzz build failed"; exit 1; }
for t in ${TARGETS:-geojson_readers polygon_json polygon_csv stl obj polygon_pipeline mesh_pipeline soup}; do
  work=$(mktemp -d)
  cp -r "fuzz/corpus/$t/." "$work/"
  start=$(date +%s)
  out=$(cargo fuzz run -s none "$t" "$work" -- -runs="$runs" -max_len=65536 -print_final_stats=1 2>&1)
  status=$?
  end=$(date +%s)
  summary=$(echo "$out" | grep -E "^Done [0-9]+ runs" | tail -1)
  cov=$(echo "$out" | grep -E "DONE +cov" | tail -1 | grep -oE "cov: [0-9]+")
  if [ $status -eq 0 ]; then
    echo "$t: ${summary:-no summary} ($cov, $((end - start)) s, no crash)"
  else
    echo "$t: FAILED (exit $status)"; echo "$out" | tail -30
  fi
  rm -rf "$work"
done
