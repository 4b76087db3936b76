#!/usr/bin/env bash
# Code lines of the mesh-validation code (issue 46, item 5): blank lines, comment lines and
# `#[cfg(test)]` items (in-file test modules, test-only functions and statics) aside.
# Usage: bench/validator_lines.sh [-v]   (-v: one row per file)
set -euo pipefail
cd "$(dirname "$0")/.."
files=$(ls src/overlap/*.rs src/soup/*.rs src/mesh/*.rs \
    src/shells.rs src/fans.rs src/boxes.rs src/body.rs src/scratch.rs src/solid.rs \
    src/precision.rs src/union_find.rs 2>/dev/null || true)
awk -v verbose="${1:-}" '
function flush() { if (FILENAME_PREV != "" && verbose == "-v") printf "%6d %s\n", n, FILENAME_PREV }
FNR == 1 { flush(); FILENAME_PREV = FILENAME; n = 0; skip = 0; depth = 0; pending = 0; block = 0 }
{
    line = $0
    # Block comments /* ... */ spanning lines.
    if (block) { if (line ~ /\*\//) block = 0; next }
    t = line; sub(/^[ \t]+/, "", t)
    if (t ~ /^\/\*/ && t !~ /\*\//) { block = 1; next }
    if (skip) {
        # Inside a #[cfg(test)] item: follow its braces until they close.
        s = line; gsub(/"([^"\\]|\\.)*"/, "", s); gsub(/\/\/.*/, "", s)
        o = gsub(/\{/, "{", s); c = gsub(/\}/, "}", s)
        if (!opened && (o > 0)) opened = 1
        depth += o - c
        if (opened && depth <= 0) skip = 0
        else if (!opened && s ~ /[;,][ \t]*$/) skip = 0
        next
    }
    if (t ~ /^#\[cfg\(test\)\]/) {
        rest = t; sub(/^#\[cfg\(test\)\][ \t]*/, "", rest)
        skip = 1; depth = 0; opened = 0
        if (rest != "") {
            s = rest; gsub(/"([^"\\]|\\.)*"/, "", s); gsub(/\/\/.*/, "", s)
            o = gsub(/\{/, "{", s); c = gsub(/\}/, "}", s)
            if (o > 0) opened = 1
            depth += o - c
            if (opened && depth <= 0) skip = 0
            else if (!opened && s ~ /[;,][ \t]*$/) skip = 0
        }
        next
    }
    if (t == "") next
    if (t ~ /^\/\//) next
    n++; total++
}
END { flush(); printf "%6d total code lines\n", total }
' $files
