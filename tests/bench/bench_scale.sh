#!/usr/bin/env bash
# bench_scale.sh [--big] [--sizes "N N ..."] [BUILD_DIR] — how tlv scales with
# the size of a log (issue 16): generated TOPPERS/ASP logs of 1M and 10M
# lines (and 100M with --big: about 5 GB of text, another 5+ GB of memory;
# check `df` first), each run through
#   pcre2grep -c -f PATTERNS LOG          the floor: the asp regexes, matching only
#   tlv convert -q LOG -o /dev/null       the baseline every ratio is against
#   tlv shapes / render / export / stats  each command's whole run
#   tlv view --bench (1920x1080)          first frame after start, trace complete,
#                                         median and p99 frame (Xvfb when no DISPLAY)
# printing per size: wall seconds, max RSS, cores used ((user+sys)/wall),
# bytes of RSS per event, and the goals of issue 16 as ratios measured in
# this same run, each PASS or FAIL:
#   convert/pcre2grep <= 1.5           (both cores: a pipeline)
#   convert RSS <= 128 MB + 16 B/event
#   shapes, render, export, stats each <= 1.5 x convert
#   view: final shape build <= 1 x convert; first frame <= 2 s;
#         RSS <= 64 B/event (10M+); p99 frame <= 16 ms (10M+)
# One run of each (BENCH_RUNS=3 for the best of 3). Everything is started with
# `nice`; the machine's other load inflates wall times, so read the ratios.
# A command whose RSS at this size, scaled from the size before, would not fit
# in 80% of MemAvailable is skipped and says so (100M lines on a small
# machine; BENCH_NO_SKIP=1 runs it anyway), and so is a size whose log would
# not fit on the disk.
# Exit: 0 all goals pass, 1 some goal failed, 2 cannot run.
set -euo pipefail
export LC_ALL=C

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
sizes=(1000000 10000000)
build=./build
while [ $# -gt 0 ]; do
    case $1 in
    --big) sizes+=(100000000) ;;
    --sizes) read -r -a sizes <<<"$2"; shift ;;
    -h|--help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) build=$1 ;;
    esac
    shift
done
runs=${BENCH_RUNS:-1}

die() { echo "bench_scale: $*" >&2; exit 2; }

[ -x "$build/tlv" ] || die "no $build/tlv (configure and build first, or pass BUILD_DIR)"
build=$(cd "$build" && pwd)
tlv=$build/tlv
gen=$build/tlv-gen
[ -x "$gen" ] || die "no $gen"
command -v pcre2grep >/dev/null || die "pcre2grep not found (package pcre2-utils)"
[ -x /usr/bin/time ] || die "GNU /usr/bin/time not found (package time)"
rules=${TLV_CORPUS:-$root/../shared/corpus/tlv-2.0.1}/rules
[ -f "$rules/asp.cnv" ] || die "needs the TLV 2.0.1 rules (set TLV_CORPUS, or ../shared/corpus)"
res=$root/samples/gen/asp_gen.res

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench_scale.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
"$here/cnv_regexes.sh" asp "$rules/asp.cnv" >"$tmp/patterns" || die "cannot extract the asp regexes"

view_prefix=()
if [ -z "${DISPLAY:-}" ]; then
    command -v xvfb-run >/dev/null || die "no DISPLAY and no xvfb-run for tlv view --bench"
    view_prefix=(xvfb-run -a -s "-screen 0 1920x1080x24")
fi

# fits NAME N: whether NAME's RSS at the size before, scaled to N lines, fits
# in 80% of the memory available now (else says so: SKIP_NOTE).
declare -A last_kb=()
last_n=0
# BENCH_NO_SKIP=1 runs everything: the max RSS counts file pages mapped,
# which the kernel drops when it needs the room, so it overstates the need.
fits() {
    SKIP_NOTE=""
    [ "${BENCH_NO_SKIP:-0}" = 1 ] && return 0
    [ -n "${last_kb[$1]:-}" ] && [ "$last_n" -gt 0 ] || return 0
    local need avail
    need=$(calc "%.0f" "${last_kb[$1]} * $2 / $last_n")
    avail=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo)
    if awk -v n="$need" -v a="$avail" 'BEGIN { exit !(n > a * 0.8) }'; then
        SKIP_NOTE="SKIPPED: would need about $(calc "%.1f" "$need / 1048576") GB, $(calc "%.1f" "$avail / 1048576") GB available"
        return 1
    fi
}

# run NAME CMD...: best wall time of $runs runs; sets SECS, RSS_KB (max),
# CORES ((user+sys)/wall of the best run); stdout+stderr in $tmp/NAME.out
run() {
    local name=$1 i best="" rss=0 cores=""
    shift
    for ((i = 0; i < runs; i++)); do
        local rc=0
        nice /usr/bin/time -f '%e %U %S %M' -o "$tmp/time" "$@" >"$tmp/$name.out" 2>&1 || rc=$?
        if [ "$rc" -ne 0 ] && ! { [ "$1" = pcre2grep ] && [ "$rc" -eq 1 ]; }; then
            echo "bench_scale: $name failed (status $rc): $*" >&2
            tail -n 5 "$tmp/$name.out" >&2
            return 1
        fi
        read -r e u s m < <(tail -n 1 "$tmp/time")
        if [ -z "$best" ] || awk -v a="$e" -v b="$best" 'BEGIN { exit !(a < b) }'; then
            best=$e
            cores=$(awk -v e="$e" -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", (e > 0 ? (u + s) / e : 0) }')
        fi
        [ "$m" -gt "$rss" ] && rss=$m
    done
    SECS=$best; RSS_KB=$rss; CORES=$cores
}

calc() { awk "BEGIN { printf \"$1\", $2 }"; }
failed=0
goal() {   # goal LABEL VALUE LIMIT  (VALUE <= LIMIT passes)
    local ok
    ok=$(awk -v v="$2" -v l="$3" 'BEGIN { print v <= l ? "PASS" : "FAIL" }')
    printf '  %-44s %10s   (goal <= %s)   %s\n' "$1" "$2" "$3" "$ok"
    [ "$ok" = PASS ] || failed=1
}

echo "tlv scale benchmark: generated ASP logs, rules $rules, best of $runs run(s), nice"
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
for n in "${sizes[@]}"; do
    log=$tmp/asp_$n.log
    need=$((n / 1000000 * 60 + 10))   # MB of log, with room to spare
    avail=$(df -Pm "$tmp" | awk 'NR == 2 { print $4 }')
    if [ "$avail" -lt $((need * 2)) ]; then
        echo "== $n lines: SKIPPED, $avail MB free in $tmp, needs about $((need * 2)) MB"
        failed=1
        continue
    fi
    nice "$gen" --kernel asp --lines "$n" --seed 1 -o "$log" || die "tlv-gen failed"
    mb=$(calc "%.0f" "$(stat -c %s "$log") / 1048576")
    echo
    echo "== $n lines ($mb MB)"
    printf '  %-10s %9s %9s %6s %9s %9s\n' command "wall s" "RSS MB" cores "B/event" "x convert"
    row() {   # row NAME [EVENTS]
        printf '  %-10s %9s %9s %6s %9s %9s\n' "$1" "$SECS" "$(calc "%.0f" "$RSS_KB / 1024")" "$CORES" \
            "$(calc "%.0f" "$RSS_KB * 1024 / $events")" "$(calc "%.2f" "$SECS / $conv_s")"
    }
    run grep pcre2grep -c -f "$tmp/patterns" "$log" || { failed=1; continue; }
    grep_s=$SECS
    run convert "$tlv" convert -r "$res" -R "$rules" "$log" -o /dev/null || { failed=1; continue; }
    conv_s=$SECS; conv_kb=$RSS_KB
    events=$(sed -n 's/.* matched, \([0-9]*\) events written.*/\1/p' "$tmp/convert.out")
    [ -n "$events" ] && [ "$events" -gt 0 ] || die "no event count in tlv convert's summary"
    printf '  %-10s %9s %9s %6s %9s %9s   (%s events)\n' pcre2grep "$grep_s" - - - \
        "$(calc "%.2f" "$grep_s / $conv_s")" "$events"
    row convert
    declare -A ratio=()
    for c in shapes render export stats; do
        case $c in
        shapes) args=(shapes -o /dev/null) ;;
        render) args=(render -q -o "$tmp/r.png") ;;
        export) args=(export -o /dev/null) ;;
        stats) args=(stats -o /dev/null) ;;
        esac
        if ! fits "$c" "$n"; then
            printf '  %-10s %s\n' "$c" "$SKIP_NOTE"
            failed=1
        elif run "$c" "$tlv" "${args[@]}" -r "$res" -R "$rules" "$log"; then
            row "$c"
            ratio[$c]=$(calc "%.2f" "$SECS / $conv_s")
            last_kb[$c]=$RSS_KB
        else
            failed=1
        fi
    done
    view_ok=0
    if ! fits view "$n"; then
        printf '  %-10s %s\n' view "$SKIP_NOTE"
        failed=1
    elif run view ${view_prefix[@]+"${view_prefix[@]}"} "$tlv" view --bench --no-session \
        --size 1920x1080 -r "$res" -R "$rules" "$log"; then
        view_ok=1
        row view
        view_kb=$RSS_KB
        last_kb[view]=$RSS_KB
        sed -n 's/^bench: /  view: /p' "$tmp/view.out"
    else
        failed=1
    fi
    echo "  goals:"
    goal "convert / pcre2grep" "$(calc "%.2f" "$conv_s / $grep_s")" 1.5
    goal "convert RSS MB (128 + 16 B/event)" "$(calc "%.0f" "$conv_kb / 1024")" \
        "$(calc "%.0f" "128 + 16 * $events / 1048576")"
    for c in shapes render export stats; do
        [ -n "${ratio[$c]:-}" ] && goal "$c / convert" "${ratio[$c]}" 1.5
    done
    if [ "$view_ok" = 1 ]; then
        first=$(sed -n 's/.*first frame \([0-9.]*\) s after start.*/\1/p' "$tmp/view.out")
        build=$(sed -n 's/.*final shapes built in \([0-9.]*\) s.*/\1/p' "$tmp/view.out")
        vconv=$(sed -n 's/.*converted in \([0-9.]*\) s.*/\1/p' "$tmp/view.out")
        p99=$(sed -n 's/^bench: .* frames .*p99 \([0-9.]*\) ms,.*/\1/p' "$tmp/view.out")
        [ -n "$first" ] && goal "view first frame after start (s)" "$first" 2
        [ -n "$build" ] && [ -n "$vconv" ] &&
            goal "view shape build / its conversion" "$(calc "%.2f" "$build / $vconv")" 1
        if [ "$n" -ge 10000000 ]; then
            goal "view RSS bytes per event" "$(calc "%.0f" "$view_kb * 1024 / $events")" 64
            [ -n "$p99" ] && goal "view p99 frame (ms)" "$p99" 16
        fi
    fi
    rm -f "$log" "$tmp/r.png"
    last_n=$n
done
exit "$failed"
