#!/usr/bin/env bash
# Whole-process times of `inertia mesh FILE --json` (release, validation on, warm cache) on
# real public parts (3D-printer parts, robot links, CAD and scan test meshes), beside
# trimesh's `trimesh.load` + `mass_properties` in-process and `cat FILE > /dev/null`, with
# each part's time per triangle against the 10^6-triangle sphere's (sphere_mesh example),
# whether inertia answered or refused, and how far trimesh's volume is from inertia's.
# Prints one Markdown table, a summary row, then each refusal and warning in full.
#
#   bash bench/real_parts.sh                        # the parts listed in bench/real_parts.py
#   bash bench/real_parts.sh trimesh/models/box.STL numpy-stl/tests/stl_binary/Cube.stl
#   CORPUS=/data/corpus RUNS=9 TRIMESH_RUNS=5 bash bench/real_parts.sh
#   TRIMESH=0 bash bench/real_parts.sh              # without trimesh
#
# The files are not in this repository (their licences vary): CORPUS (default ../corpus)
# holds one folder per repository named in bench/real_parts.py (REPOS: the GitHub repository
# and the commit), each file at its path in that repository; every file is checked against
# the git blob id listed for it. trimesh goes into the virtualenv bench/.venv (PyPI), as
# for bench/compare.sh, with networkx and lxml for 3MF and pillow for OBJ materials.
# About 2-3 minutes at RUNS=5 on a loaded 2-core machine.
set -euo pipefail
cd "$(dirname "$0")/.."
CORPUS=${CORPUS:-../corpus}
TRIMESH=${TRIMESH:-1}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

cargo build --release --quiet --bin inertia --example sphere_mesh
target=${CARGO_TARGET_DIR:-target}
inertia=$(realpath "$target/release/inertia")
"$target/release/examples/sphere_mesh" 1000000 "$dir/sphere.stl" 2> /dev/null

py=python3
if [ "$TRIMESH" = 1 ]; then
  if ! bench/.venv/bin/python -c 'import trimesh, networkx, lxml, PIL' 2> /dev/null; then
    echo "installing trimesh, networkx, lxml and pillow into bench/.venv ..." >&2
    [ -x bench/.venv/bin/python ] || python3 -m venv bench/.venv
    bench/.venv/bin/pip install --quiet trimesh numpy networkx lxml pillow
  fi
  py=bench/.venv/bin/python
fi

echo "$(date -u '+%Y-%m-%d %H:%M UTC'); $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
echo "inertia $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src || echo ' (src modified)'), $(rustc --version)"
[ "$TRIMESH" = 1 ] && echo "trimesh $($py -c 'import trimesh; print(trimesh.__version__)'), $($py --version)"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
TRIMESH=$TRIMESH "$py" bench/real_parts.py "$inertia" "$dir/sphere.stl" "$CORPUS" "$@"
echo
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
