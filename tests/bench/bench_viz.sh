#!/usr/bin/env bash
# bench_viz.sh [BUILD_DIR] [LINES] — drawing speed on a generated TOPPERS/ASP
# log: shapes built and frames rendered, against conversion in the same run.
set -euo pipefail
build="${1:-build}"
lines="${2:-1000000}"
src="$(cd "$(dirname "$0")/../.." && pwd)"
rules="${TLV_CORPUS:-$src/../shared/corpus/tlv-2.0.1}/rules"
[ -d "$rules" ] || { echo "bench_viz: needs the TLV 2.0.1 rules (../shared/corpus) for the asp targets" >&2; exit 2; }
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
"$build/tlv-gen" --kernel asp --lines "$lines" --seed 1 -o "$tmp/asp.log"
echo "tlv drawing benchmark: $lines generated ASP lines, rules $rules"
"$build/bench_viz" -R "$rules" -r "$src/samples/gen/asp_gen.res" "$tmp/asp.log"
