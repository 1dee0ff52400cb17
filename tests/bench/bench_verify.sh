#!/usr/bin/env bash
# bench_verify.sh [--big] [BUILD_DIR] — how long `tlv verify` takes on a log
# against `tlv convert` of the same log, measured in the same run.
#
# Generates a 1,000,000-line TOPPERS/ASP log (--big: 10,000,000) with
# BUILD_DIR/tlv-gen (default build dir: ./build) and times
#   tlv convert -q -r RES LOG -o /dev/null     (the baseline)
#   tlv verify -q REQS LOG                     (every kind of check: the
#                                               instances' response and
#                                               latency, a state, the CPU in
#                                               sliding windows, an event
#                                               followed by another, a state
#                                               never entered)
# and prints both, wall and CPU, and the ratios against the goal of issue 28:
#   verify / convert <= 1.5 (on CPU time: the process's user + system, which a
#   loaded machine does not inflate as it does wall time; wall printed too).
# Rules: the project's (rules/toppers_*); the resource file is
# samples/gen/asp_gen.res with their targets. Each timing is the best of
# $BENCH_RUNS runs (default 3). Exit: 0 the goal passes, 1 it fails, 2 cannot run.
set -euo pipefail
export LC_ALL=C

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
lines=1000000
if [ "${1:-}" = "--big" ]; then
    lines=10000000
    shift
fi
build=${1:-./build}
runs=${BENCH_RUNS:-3}

die() { echo "bench_verify: $*" >&2; exit 2; }

[ -d "$build" ] || die "no build directory '$build' (configure and build first, or pass BUILD_DIR)"
build=$(cd "$build" && pwd)
tlv=$build/tlv
[ -x "$tlv" ] || die "no $tlv: build first"
[ -x /usr/bin/time ] && /usr/bin/time -f '%U' -o /dev/null true 2>/dev/null ||
    die "GNU /usr/bin/time is needed for CPU times (package time)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

gen=$build/tlv-gen
if [ ! -x "$gen" ]; then
    gen=$tmp/tlv-gen
    "${CC:-cc}" -std=c11 -O2 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE \
        "$root/samples/gen/tlv_gen.c" -o "$gen" || die "cannot build tlv-gen"
fi
sed -E 's/"toppers"/"toppers_common"/; s/"asp"/"toppers_asp"/' "$root/samples/gen/asp_gen.res" \
    >"$tmp/gen.res"
cat >"$tmp/reqs.json" <<EOF
{"ResourceFile": "$tmp/gen.res",
 "Requirements": {
  "responses": {"Check": "response", "Resource": "Task", "Max": "2 s"},
  "calls": {"Check": "response", "Kind": "call", "Statistic": "p99", "Max": "2 s"},
  "latency": {"Check": "latency", "Statistic": "p99", "Max": "1 s"},
  "waits": {"Check": "state", "Resource": "Task", "State": "WAITING", "Max": "10 s"},
  "cpu": {"Check": "cpu", "Window": "10 ms", "Max": "100%"},
  "dispatched": {"Check": "followed", "Event": "Task.activate()",
                 "FollowedBy": "\${TARGET}.dispatch()", "Within": "1 s"},
  "never": {"Check": "never", "Resource": "Task", "State": "NONEXISTENT"}
 }}
EOF

echo "generating $lines lines..."
"$gen" --lines "$lines" -o "$tmp/log"

# best WALL CPU of `runs` runs of a command (status 0 or 1: verify's failed requirement)
best() {
    local i wall cpu best_wall="" best_cpu="" t0 t1 rc
    for ((i = 0; i < runs; i++)); do
        t0=$EPOCHREALTIME
        rc=0
        /usr/bin/time -f '%U %S' -o "$tmp/t" "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
        t1=$EPOCHREALTIME
        [ "$rc" -le 1 ] || { cat "$tmp/err" >&2; die "failed (status $rc): $*"; }
        wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
        cpu=$(tail -n 1 "$tmp/t" | awk '{ printf "%.3f", $1 + $2 }')
        best_wall=$(awk -v a="$best_wall" -v b="$wall" 'BEGIN { print (a == "" || b < a) ? b : a }')
        best_cpu=$(awk -v a="$best_cpu" -v b="$cpu" 'BEGIN { print (a == "" || b < a) ? b : a }')
    done
    echo "$best_wall $best_cpu"
}

read -r conv_wall conv_cpu < <(best "$tlv" convert -q -r "$tmp/gen.res" "$tmp/log" -o /dev/null)
read -r ver_wall ver_cpu < <(best "$tlv" verify -q "$tmp/reqs.json" "$tmp/log")
grep -c '^PASS\|^FAIL' "$tmp/out" >/dev/null || die "tlv verify printed no verdict"

ratio_cpu=$(awk -v a="$ver_cpu" -v b="$conv_cpu" 'BEGIN { printf "%.2f", a / b }')
ratio_wall=$(awk -v a="$ver_wall" -v b="$conv_wall" 'BEGIN { printf "%.2f", a / b }')
printf '%-10s %10s %10s\n' "" "wall s" "CPU s"
printf '%-10s %10s %10s\n' convert "$conv_wall" "$conv_cpu"
printf '%-10s %10s %10s\n' verify "$ver_wall" "$ver_cpu"
printf 'verify/convert at %d lines: %s CPU, %s wall   (goal CPU <= 1.5)   %s\n' "$lines" \
    "$ratio_cpu" "$ratio_wall" "$(awk -v r="$ratio_cpu" 'BEGIN { print r <= 1.5 ? "PASS" : "FAIL" }')"
awk -v r="$ratio_cpu" 'BEGIN { exit !(r <= 1.5) }'
