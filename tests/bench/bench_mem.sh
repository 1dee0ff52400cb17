#!/usr/bin/env bash
# bench_mem.sh [BUILD_DIR] [LINES] [--per-cpu] — memory of a trace and its
# shapes in bytes per event (the library's accounting, malloc's count, the
# resident set) and the time to build the shapes against converting, in the
# same run, on a generated TOPPERS/ASP log (FMP with --per-cpu).
# tests/bench/bench_scale.sh can call it per size.
set -euo pipefail
build="${1:-build}"
lines="${2:-1000000}"
mode="${3:-}"
src="$(cd "$(dirname "$0")/../.." && pwd)"
rules="${TLV_CORPUS:-$src/../shared/corpus/tlv-2.0.1}/rules"
[ -d "$rules" ] || { echo "bench_mem: needs the TLV 2.0.1 rules (../shared/corpus) for the asp targets" >&2; exit 2; }
kernel=asp; [ "$mode" = --per-cpu ] && kernel=fmp
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
"$build/tlv-gen" --kernel "$kernel" --lines "$lines" --seed 1 -o "$tmp/$kernel.log"
echo "tlv memory benchmark: $lines generated ${kernel^^} lines${mode:+ ($mode)}, rules $rules"
"$build/bench_mem" -R "$rules" -r "$src/samples/gen/${kernel}_gen.res" $mode "$tmp/$kernel.log"
