#!/usr/bin/env bash
# Whole-process times of `inertia mesh FILE --json` (validation on) beside `cat FILE > /dev/null`
# and, where they can be installed, trimesh and numpy-stl, on closed UV spheres of 10^4 to 10^7
# triangles (binary STL); files of many bodies, polygon holes and DXF circles; then ASCII STL
# and OBJ throughput at 10^6. Warm cache: every command
# runs once before it is timed. Prints a table of times and ratios.
#
#   bash bench/compare.sh                 # everything (10^7: 500 MB of STL in a temporary folder)
#   SIZES="10000 100000" bash bench/compare.sh
#   PYTHON=0 bash bench/compare.sh        # without trimesh / numpy-stl
#   SECTIONS="polygon parts" POLYGON_SIZES="10000 100000 1000000" bash bench/compare.sh
#   SECTIONS=cad CAD_SIZES="4000 40000" bash bench/compare.sh   # bench/cad.sh's SIZES
#
# SECTIONS (default all): mesh (binary STL spheres), bodies (several bodies, shells, 3MF
# items), polygon (star polygons in JSON, random, spiky and slotted (swept), POLYGON_SIZES
# vertices, default 10^4 to 10^7),
# parts (10^4 and 10^5 polygon holes in JSON and GeoJSON, 10^3 and 10^4 DXF circles; 10^3 DXF spline-circle holes:
# bench/dxf_splines.sh), text (ASCII STL and OBJ), cad (fan-capped
# cylinders and cones, a grid-faced cube: bench/cad.sh).
#
# trimesh and numpy-stl go into a virtualenv the script creates in bench/.venv (needs PyPI);
# nothing here is needed by the tests. trimesh runs up to PY_MAX triangles (default 10^6),
# numpy-stl up to NUMPY_STL_MAX (default 10^5: its closedness check takes minutes beyond).
# Timing: hyperfine if installed (mean of RUNS runs), else the best of RUNS runs. Peak memory:
# GNU time's maximum resident size (the mapped file included), where /usr/bin/time exists.
set -euo pipefail
cd "$(dirname "$0")/.."
SIZES=${SIZES:-"10000 100000 1000000 10000000"}
POLYGON_SIZES=${POLYGON_SIZES:-"10000 100000 1000000 10000000"}
SECTIONS=${SECTIONS:-"mesh bodies polygon parts text cad"}
RUNS=${RUNS:-5}
PYTHON=${PYTHON:-1}
PY_MAX=${PY_MAX:-1000000}
NUMPY_STL_MAX=${NUMPY_STL_MAX:-100000}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

cargo build --release --quiet --bin inertia --example sphere_mesh
target=${CARGO_TARGET_DIR:-target}
inertia=$target/release/inertia
gen=$target/release/examples/sphere_mesh

# Peak resident size of a command in MB, or "-".
peak() {
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -f %M -o "$dir/rss" bash -c "$1" > /dev/null 2>&1 || true
    python3 -c "print(f'{int(open(\"$dir/rss\").read().split()[-1]) / 1024:.0f}')"
  else
    echo "-"
  fi
}

# Seconds per run of a command (a shell string).
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
      local t=$(((t1 - t0)))
      if [ -z "$best" ] || [ "$t" -lt "$best" ]; then best=$t; fi
    done
    python3 -c "print($best / 1e9)"
  fi
}

has() { case " $SECTIONS " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }

py=""
if [ "$PYTHON" = 1 ] && has mesh; then
  if [ ! -x bench/.venv/bin/python ]; then
    echo "creating bench/.venv with trimesh and numpy-stl ..." >&2
    if python3 -m venv bench/.venv && bench/.venv/bin/pip install --quiet trimesh numpy-stl numpy; then :; else
      echo "could not install trimesh / numpy-stl: comparing with cat only" >&2
      rm -rf bench/.venv
    fi
  fi
  [ -x bench/.venv/bin/python ] && py=bench/.venv/bin/python
fi
cat > "$dir/trimesh_run.py" <<'EOF'
import sys, trimesh
m = trimesh.load(sys.argv[1])
assert m.is_watertight and m.is_winding_consistent  # validation, as inertia does
print(m.mass_properties["volume"])
EOF
cat > "$dir/numpy_stl_run.py" <<'EOF'
import sys
from stl import mesh
print(mesh.Mesh.from_file(sys.argv[1]).get_mass_properties()[0])  # checks closedness
EOF

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(uname -sr)"
echo "inertia $($inertia --version | cut -d' ' -f2), $(rustc --version)"
[ -n "$py" ] && echo "trimesh $($py -c 'import trimesh; print(trimesh.__version__)'), numpy-stl $($py -c 'import importlib.metadata as m; print(m.version("numpy-stl"))')"
if has mesh; then
echo
echo "binary STL (times in ms; ratios: inertia / cat, other tool / inertia)"
printf "%10s %8s %9s %9s %7s %9s %8s %8s %8s %9s %9s\n" triangles MB cat inertia "÷cat" "ms/Mtri" "peak MB" trimesh "×" numpy-stl "×"
for n in $SIZES; do
  f="$dir/sphere_$n.stl"
  $gen "$n" "$f" 2> /dev/null
  tris=$(( ($(stat -c %s "$f") - 84) / 50 ))
  mb=$(python3 -c "print(f'{$(stat -c %s "$f") / 1e6:.1f}')")
  c=$(seconds "cat $f > /dev/null")
  i=$(seconds "$inertia mesh $f --json")
  rss=$(peak "$inertia mesh $f --json")
  tm="-"; tmx="-"; ns="-"; nsx="-"
  if [ -n "$py" ] && [ "$n" -le "$PY_MAX" ]; then
    t=$(RUNS=1 seconds "$py $dir/trimesh_run.py $f")
    tm=$(python3 -c "print(f'{$t * 1e3:.0f}')"); tmx=$(python3 -c "print(f'{$t / $i:.0f}')")
  fi
  if [ -n "$py" ] && [ "$n" -le "$NUMPY_STL_MAX" ]; then
    t=$(RUNS=1 seconds "$py $dir/numpy_stl_run.py $f")
    ns=$(python3 -c "print(f'{$t * 1e3:.0f}')"); nsx=$(python3 -c "print(f'{$t / $i:.0f}')")
  fi
  python3 -c "print(f'{$tris:>10} {\"$mb\":>8} {$c*1e3:>9.1f} {$i*1e3:>9.1f} {$i/$c:>7.1f} {$i*1e3/($tris/1e6):>9.1f} {\"$rss\":>8} {\"$tm\":>8} {\"$tmx\":>8} {\"$ns\":>9} {\"$nsx\":>9}')"
  if [ "$n" -eq 1000000 ]; then
    v=$(seconds "$inertia mesh $f --method voxel --json")
    voxel_line=$(python3 -c "print(f'--method voxel (default resolution) on the same file: {$v*1e3:.0f} ms')")
  fi
  rm -f "$f"
done
[ -n "${voxel_line:-}" ] && echo "$voxel_line"
fi

if has bodies; then
echo
echo "several bodies: two spheres of 10^6 triangles in one binary STL (the shell check's path)"
f="$dir/two.stl"
$gen 1000000 "$f" --bodies 2 2> /dev/null
c=$(seconds "cat $f > /dev/null")
i=$(seconds "$inertia mesh $f --json")
python3 -c "print(f'{\"2 x 1002000\":>12} {$(stat -c %s "$f")/1e6:>8.1f} MB  cat {$c*1e3:.1f} ms  inertia {$i*1e3:.1f} ms')"
rm -f "$f"

echo
echo "many bodies: 1000 spheres of about 1000 triangles in one binary STL (overlap check on)"
f="$dir/many.stl"
$gen 1000 "$f" --bodies 1000 2> /dev/null
i=$(seconds "$inertia mesh $f --json")
python3 -c "print(f'{\"1000 bodies\":>12} {$(stat -c %s "$f")/1e6:>8.1f} MB  inertia {$i*1e3:.1f} ms')"
rm -f "$f"

echo
echo "many shells: 10^6 tetrahedra on a grid in one binary STL (4*10^6 triangles; shell and overlap checks)"
f="$dir/shells.stl"
python3 - "$f" <<'PY'
import struct, sys
n = 100  # 100^3 tetrahedra, 3 apart
with open(sys.argv[1], "wb") as out:
    out.write(b"\0" * 80 + struct.pack("<I", 4 * n ** 3))
    tri = struct.Struct("<12fH")
    for i in range(n):
        for j in range(n):
            for k in range(n):
                x, y, z = 3 * i, 3 * j, 3 * k
                a, b, c, d = (x, y, z), (x + 1, y, z), (x, y + 1, z), (x, y, z + 1)
                for p, q, r in ((a, c, b), (a, b, d), (a, d, c), (b, c, d)):
                    out.write(tri.pack(0, 0, 0, *p, *q, *r, 0))
PY
i=$(seconds "$inertia mesh $f --json")
rss=$(peak "$inertia mesh $f --json")
python3 -c "print(f'{\"10^6 shells\":>12} {$(stat -c %s "$f")/1e6:>8.1f} MB  inertia {$i:.2f} s  peak {\"$rss\"} MB')"
rm -f "$f"

echo
echo "many build items: one 7920-triangle sphere placed 5000 times in a 3MF (4*10^7 triangles)"
f="$dir/items.3mf"
python3 - "$f" <<'PY'
import math, sys, zipfile
rings, segs = 45, 90
verts = [(0, 0, 1)]
for i in range(1, rings):
    t = math.pi * i / rings
    verts += [(math.sin(t) * math.cos(2 * math.pi * j / segs), math.sin(t) * math.sin(2 * math.pi * j / segs), math.cos(t)) for j in range(segs)]
verts.append((0, 0, -1))
def v(i, j):
    return 0 if i == 0 else len(verts) - 1 if i == rings else 1 + (i - 1) * segs + j % segs
tris = []
for i in range(rings):
    for j in range(segs):
        if i < rings - 1:
            tris.append((v(i, j), v(i + 1, j), v(i + 1, j + 1)))
        if i > 0:
            tris.append((v(i, j), v(i + 1, j + 1), v(i, j + 1)))
vx = "".join(f'<vertex x="{x:.9f}" y="{y:.9f}" z="{z:.9f}"/>' for x, y, z in verts)
tx = "".join(f'<triangle v1="{a}" v2="{b}" v3="{c}"/>' for a, b, c in tris)
items = "".join(f'<item objectid="1" transform="1 0 0 0 1 0 0 0 1 {3 * (k % 100)} {3 * (k // 100)} 0"/>' for k in range(5000))
model = f'<?xml version="1.0"?><model unit="millimeter" xmlns="http://schemas.microsoft.com/3dmanufacturing/core/2015/02"><resources><object id="1" type="model"><mesh><vertices>{vx}</vertices><triangles>{tx}</triangles></mesh></object></resources><build>{items}</build></model>'
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("3D/3dmodel.model", model)
PY
i=$(RUNS=1 seconds "$inertia mesh $f --json")
rss=$(peak "$inertia mesh $f --json")
python3 -c "print(f'{\"5000 items\":>12} {$(stat -c %s "$f")/1e3:>8.1f} kB  inertia {$i:.1f} s  peak {\"$rss\"} MB')"
rm -f "$f"

fi

if has polygon; then
echo
echo "star polygons in JSON: radii drawn uniformly in [1, 1.3] (seeded), spiky (radii 500 and 1000"
echo "alternating), and slotted: the random star with a slot cut from its rim to past its centre, so"
echo "that no point sees the whole ring and it is swept (stars are certified simple without the sweep)."
echo "x/doubling: how much longer than the row above, per doubling of the vertices"
printf "%10s %7s %8s %8s %9s %7s %8s %8s %10s\n" vertices shape MB cat inertia "÷cat" "us/vtx" "peak MB" "x/doubling"
for shape in random spiky slotted; do
  prev_n=""; prev_t=""
  for n in $POLYGON_SIZES; do
    f="$dir/star_${shape}_$n.json"
    python3 - "$n" "$shape" "$f" <<'PY'
import math, random, sys
n, shape, path = int(sys.argv[1]), sys.argv[2], sys.argv[3]
rnd = random.Random(22)
with open(path, "w") as out:
    out.write("[")
    for start in range(0, n, 100000):
        chunk = []
        for k in range(start, min(n, start + 100000)):
            r = rnd.uniform(1.0, 1.3) if shape != "spiky" else (500.0 if k % 2 else 1000.0)
            t = 2 * math.pi * k / n
            if shape == "slotted" and k == 0:
                # The slot, in place of the first spike: between its neighbours, 2e-9 wide,
                # from radius 0.99 to x = -0.5.
                chunk += ["[0.99,-1e-09]", "[-0.5,-1e-09]", "[-0.5,1e-09]", "[0.99,1e-09]"]
                continue
            chunk.append(f"[{r * math.cos(t)!r},{r * math.sin(t)!r}]")
        out.write(("," if start else "") + ",".join(chunk))
    out.write("]")
PY
    c=$(seconds "cat $f > /dev/null")
    i=$(seconds "$inertia polygon $f --json")
    rss=$(peak "$inertia polygon $f --json")
    per="-"
    if [ -n "$prev_t" ]; then
      per=$(python3 -c "import math; print(f'{($i / $prev_t) ** (1 / math.log2($n / $prev_n)):.2f}')")
    fi
    python3 -c "print(f'{$n:>10} {\"$shape\":>7} {$(stat -c %s "$f")/1e6:>8.1f} {$c*1e3:>8.1f} {$i*1e3:>9.1f} {$i/$c:>7.1f} {$i*1e6/$n:>8.3f} {\"$rss\":>8} {\"$per\":>10}')"
    prev_n=$n; prev_t=$i
    rm -f "$f"
  done
done
fi

if has parts; then
echo
echo "many parts: square polygon holes (JSON, GeoJSON) and DXF circle holes in a plate, at two sizes each"
echo "(x/doubling: against the smaller file); 1000 bodies above"
python3 - "$dir" <<'PY'
import json, sys
d = sys.argv[1]
for n, (a, b) in ((10000, (100, 100)), (100000, (400, 250))):
    holes = [[[3*i+1, 3*j+1], [3*i+2, 3*j+1], [3*i+2, 3*j+2], [3*i+1, 3*j+2]] for i in range(a) for j in range(b)]
    json.dump({"outer": [[0, 0], [1200, 0], [1200, 1200], [0, 1200]], "holes": holes}, open(f"{d}/holes_{n}.json", "w"))
    # The same plate as one GeoJSON feature (rings closed, as RFC 7946 writes them).
    rings = [r + [r[0]] for r in [[[0, 0], [1200, 0], [1200, 1200], [0, 1200]]] + holes]
    json.dump({"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {"name": "plate"},
               "geometry": {"type": "Polygon", "coordinates": rings}}]}, open(f"{d}/holes_{n}.geojson", "w"))
for side in (32, 100):
    body = "0\nLWPOLYLINE\n5\n10\n8\n0\n90\n4\n70\n1\n10\n0\n20\n0\n10\n1000\n20\n0\n10\n1000\n20\n1000\n10\n0\n20\n1000\n"
    h = 0x100
    for i in range(side):
        for j in range(side):
            body += f"0\nCIRCLE\n5\n{h:X}\n8\n0\n10\n{5 + 10 * i}\n20\n{5 + 10 * j}\n40\n2\n"
            h += 1
    open(f"{d}/circles_{side * side}.dxf", "w").write(f"0\nSECTION\n2\nENTITIES\n{body}0\nENDSEC\n0\nEOF\n")
PY
printf "%18s %10s %8s %10s\n" file inertia "peak MB" "x/doubling"
for pair in "holes_10000.json holes_100000.json" "holes_10000.geojson holes_100000.geojson" "circles_1024.dxf circles_10000.dxf"; do
  prev_t=""; prev_n=""
  for f in $pair; do
    n=$(echo "$f" | tr -dc 0-9)
    # GeoJSON coordinates are degrees unless --units declares them lengths.
    units=""
    case $f in *.geojson) units="--units m" ;; esac
    i=$(seconds "$inertia polygon $dir/$f $units --json")
    rss=$(peak "$inertia polygon $dir/$f $units --json")
    per="-"
    if [ -n "$prev_t" ]; then
      per=$(python3 -c "import math; print(f'{($i / $prev_t) ** (1 / math.log2($n / $prev_n)):.2f}')")
    fi
    python3 -c "print(f'{\"$f\":>18} {$i*1e3:>7.0f} ms {\"$rss\":>8} {\"$per\":>10}')"
    prev_t=$i; prev_n=$n
  done
done
RUNS=$RUNS bash bench/dxf_splines.sh
fi

if has text; then
echo
echo "text formats, 10^6 triangles (MB/s = file size / whole-process time)"
printf "%12s %8s %9s %9s %9s\n" format MB cat inertia "MB/s"
for fmt in ascii-stl obj; do
  case $fmt in
    ascii-stl) f="$dir/sphere.stl"; $gen 1000000 "$f" --ascii 2> /dev/null ;;
    obj) f="$dir/sphere.obj"; $gen 1000000 "$f" 2> /dev/null ;;
  esac
  bytes=$(stat -c %s "$f")
  c=$(seconds "cat $f > /dev/null")
  i=$(seconds "$inertia mesh $f --json")
  python3 -c "print(f'{\"$fmt\":>12} {$bytes/1e6:>8.1f} {$c*1e3:>9.1f} {$i*1e3:>9.1f} {$bytes/1e6/$i:>9.0f}')"
  rm -f "$f"
done
fi

if has cad; then
  echo
  # The CAD rows' own sizes (bench/cad.sh's SIZES, sections of a cylinder), not the
  # spheres' SIZES above.
  SIZES=${CAD_SIZES:-"4000 40000 400000"} RUNS=$RUNS bash bench/cad.sh
fi
