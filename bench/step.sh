#!/usr/bin/env bash
# Whole-process time and peak memory of `inertia mesh FILE --json` on the STEP fixtures
# (fixtures/cad): NIST CTC-01 (117 analytic faces, 397 KB, the "real multi-face part" of
# issue 26's target of 1 s) and CTC-02 (487 faces with B-spline surfaces, 3.4 MB, most
# of it PMI), integrated on their B-reps through OpenCASCADE. Needs the feature `step`
# and the system's OpenCASCADE (see docs/step.md).
#
#   bash bench/step.sh            # best of 3
#   RUNS=5 bash bench/step.sh
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
cargo build --release --quiet --features step --bin inertia
inertia=${CARGO_TARGET_DIR:-target}/release/inertia
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
for f in fixtures/cad/nist_ctc_01_asme1_ap242.stp fixtures/cad/nist_ctc_02_asme1_ap242.stp; do
  best=""
  for _ in $(seq "$RUNS"); do
    s=$( { /usr/bin/time -f '%e %M' "$inertia" mesh "$f" --json > /dev/null; } 2>&1 | tail -1)
    t=${s% *}
    if [ -z "$best" ] || python3 -c "import sys; sys.exit(0 if $t < $best else 1)"; then
      best=$t; peak=${s#* }
    fi
  done
  python3 -c "print(f'{\"$f\"}: best of $RUNS {$best:.2f} s, peak {$peak / 1024:.0f} MB')"
done
