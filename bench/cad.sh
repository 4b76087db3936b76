#!/usr/bin/env bash
# Whole-process times of `inertia mesh FILE --json` (validation on, warm cache) on meshes
# shaped the way CAD exporters write them (bench/cad_meshes.py): cylinders and cones whose
# flat ends are fans (from the centre, or from one rim corner), at 16k, 160k and 1.6M
# triangles (OBJ, every digit of f64), and a cube whose faces are 289 x 289 grids (10^6
# flat triangles, binary STL), 900 boxes with 3 x 3-grid faces (5,400 flat patches), a
# 10^5-triangle n-gon prism (OBJ), bundles of 2000 to 32000 parallel needles (16k to
# 256k triangles: a crowd of separate slivers whose boxes all meet; ratio per doubling),
# 1000 to 4000 sticks in random directions (8k to 32k triangles at one density: long
# triangles whose boxes meet many others, a crowd no turned frame thins; ratio per
# doubling), the open-mesh refusal of the grid cube with ~10^4 open corners on one face,
# the 16k fan cylinder as a --shell, and 500 to 2000 copies of a cube at one spot and 1e-4
# apart (refused; ratio per doubling). Prints each time, and the ratio to the row above
# (x10 triangles). Run by bench/compare.sh, or alone:
#
#   bash bench/cad.sh              # every row
#   SIZES="4000 40000" bash bench/cad.sh
set -euo pipefail
cd "$(dirname "$0")/.."
SIZES=${SIZES:-"4000 40000 400000"}
RUNS=${RUNS:-3}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cargo build --release --quiet --bin inertia
inertia=${CARGO_TARGET_DIR:-target}/release/inertia

# Best of RUNS runs, in seconds (one warm-up run first).
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
  python3 -c "print($b / 1e9)"
}

echo "CAD-shaped meshes (best of $RUNS, whole process; ratio to the row above)"
printf "%14s %10s %8s %9s %7s\n" kind triangles MB seconds ratio
for kind in fan-cylinder rim-cylinder fan-cone rim-cone; do
  prev=""
  for n in $SIZES; do
    # Cones get twice the sections, for about as many triangles as the cylinders.
    m=$n; case $kind in *cone) m=$((2 * n)) ;; esac
    f="$dir/$kind-$m.obj"
    python3 bench/cad_meshes.py "$kind" "$m" "$f" 2> /dev/null
    tris=$(grep -c '^f ' "$f")
    t=$(best "$inertia" mesh "$f" --json)
    python3 -c "
p = '$prev'
r = f'{$t / float(p):.1f}' if p else '-'
print(f'{\"$kind\":>14} {$tris:>10} {$(stat -c %s "$f") / 1e6:>8.1f} {$t:>9.3f} {r:>7}')"
    prev=$t
    rm -f "$f"
  done
done
f="$dir/grid.stl"
python3 bench/cad_meshes.py grid-cube 289 "$f" 2> /dev/null
t=$(best "$inertia" mesh "$f" --json)
python3 -c "print(f'{\"grid-cube\":>14} {(($(stat -c %s "$f") - 84) // 50):>10} {$(stat -c %s "$f") / 1e6:>8.1f} {$t:>9.3f} {\"-\":>7}')"
f="$dir/boxes.stl"
python3 bench/cad_meshes.py grid-boxes 30 "$f" 2> /dev/null
t=$(best "$inertia" mesh "$f" --json)
python3 -c "print(f'{\"900 grid boxes\":>14} {(($(stat -c %s "$f") - 84) // 50):>10} {$(stat -c %s "$f") / 1e6:>8.1f} {$t:>9.3f} {\"-\":>7}')"
f="$dir/ngon.obj"
python3 bench/cad_meshes.py ngon-prism 25000 "$f" 2> /dev/null
t=$(best "$inertia" mesh "$f" --json)
python3 -c "print(f'{\"n-gon prism\":>14} {$(grep -c '^f ' "$f"):>10} {$(stat -c %s "$f") / 1e6:>8.1f} {$t:>9.3f} {\"-\":>7}')"
# One row per size of a kind, the ratio to the row above (the sizes double):
# doubling LABEL KIND EXT N...
doubling() {
  local label=$1 kind=$2 ext=$3 prev="" n f t count
  shift 3
  for n in "$@"; do
    f="$dir/$kind-$n.$ext"
    python3 bench/cad_meshes.py "$kind" "$n" "$f" 2> /dev/null
    t=$(best "$inertia" mesh "$f" --json)
    if [ "$ext" = obj ]; then count=$(grep -c '^f ' "$f"); else count=$((($(stat -c %s "$f") - 84) / 50)); fi
    python3 -c "
p = '$prev'
r = f'{$t / float(p):.1f}' if p else '-'
print(f'{\"$label\":>14} {$count:>10} {$(stat -c %s "$f") / 1e6:>8.1f} {$t:>9.3f} {r:>7}')"
    prev=$t
    rm -f "$f"
  done
}
# A crowd of slivers: the ratio is per doubling here.
doubling "needle bundle" needle-bundle obj 2000 4000 8000 16000 32000
# The 16k fan-capped cylinder as a thin shell (its check for faces lying on one another).
f="$dir/shell.obj"
python3 bench/cad_meshes.py fan-cylinder 4000 "$f" 2> /dev/null
t=$(best "$inertia" mesh "$f" --shell 0.01 --json)
python3 -c "print(f'{\"fan cyl. shell\":>14} {$(grep -c '^f ' "$f"):>10} {$(stat -c %s "$f") / 1e6:>8.1f} {$t:>9.3f} {\"-\":>7}')"
# Sticks in every direction (a crowd no turned frame thins; ratio per doubling).
doubling "random sticks" random-sticks obj 1000 2000 4000
# The open-mesh refusal (exit 2) with ~10^4 open corners on one plane.
f="$dir/cracked.stl"
python3 bench/cad_meshes.py cracked-cube 289 "$f" 2> /dev/null
t=$(best "$inertia" mesh "$f" --json)
python3 -c "print(f'{\"open (refused)\":>14} {(($(stat -c %s "$f") - 84) // 50):>10} {$(stat -c %s "$f") / 1e6:>8.1f} {$t:>9.3f} {\"-\":>7}')"
# Cones fanned from a rim corner as binary STL, where f32 folds the fan (80,000, 160,000
# and 320,000 sections): answered as the fold's outline, triangulated (they were refused,
# on an error path that was quadratic; ratio per doubling).
doubling "f32 rim cone" rim-cone stl 80000 160000 320000
# Copies of a part over one another (refused): settled before the pair search, at one spot
# by their points, a hair apart two bodies at a time (ratio per doubling).
doubling "cubes one spot" cubes-at-one-spot stl 500 1000 2000
doubling "cubes 1e-4 apart" cubes-a-hair-apart stl 500 1000 2000
# Cubes of growing size at one corner (refused): told apart as pieces joined across edges,
# though they share the corner point (ratio per doubling).
doubling "cubes nested at a corner" cubes-nested stl 500 1000 2000
