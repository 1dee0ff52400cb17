#!/usr/bin/env bash
# bench_convert.sh [--big] [BUILD_DIR] — how fast `tlv convert` turns
# TOPPERS/ASP logs into standard form, measured against pcre2grep running the
# same regexes.
#
# Generates 100,000- and 1,000,000-line ASP logs (--big: 10,000,000 too) with
# BUILD_DIR/tlv-gen (default build dir: ./build), extracts the regexes of the
# `asp` target of asp.cnv into a pcre2grep pattern file (cnv_regexes.sh), then
# times
#   pcre2grep -c -f PATTERNS LOG                    (the floor: matching only)
#   BUILD_DIR/tlv convert --threads 1 -q -r samples/gen/asp_gen.res -R RULES LOG -o /dev/null
#   the same with --threads 2 (the matching thread and the applying one)
# and prints seconds, lines per second, peak RSS and the goals:
#   tlv (1 thread)/pcre2grep <= 3 at 1M lines, tlv (2 threads)/pcre2grep <= 1.5
#   at the largest size (judged on CPU times, see below), peak RSS < 150 MB at 1M and <= 128 MB + 16 bytes per
#   event at every size, time(1M)/time(100k) <= 11.
# Wall times need a quiet machine: under load a multi-thread process gets more
# of the processors than a one-thread one. So the CPU times are printed too:
# `tlv convert` reports its matching thread's and its writer thread's CPU
# time; the calling thread's is the process's minus those. On an idle 2-core
# machine the wall time comes to about the larger of the busiest thread's CPU
# time and half the process's (two cores share three threads), and that over
# pcre2grep's CPU time is the goal judged ("busier thread CPU / pcre2grep
# CPU").
#
# Rules: $TLV_CORPUS/rules, else ../shared/corpus/tlv-2.0.1/rules next to the
# repository, else the project's rules/ (when it has asp.cnv).  Each timing is
# the best of $BENCH_RUNS runs (default 3).  Peak RSS needs GNU /usr/bin/time;
# without it RSS is skipped with a note.  Without BUILD_DIR/tlv only the
# generator and pcre2grep parts run and the tlv goals say SKIP.
# Exit: 0 all goals pass (or are skipped), 1 a goal failed, 2 cannot run.
set -euo pipefail
export LC_ALL=C

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
sizes=(100000 1000000)
if [ "${1:-}" = "--big" ]; then
    sizes+=(10000000)
    shift
fi
build=${1:-./build}
runs=${BENCH_RUNS:-3}

die() { echo "bench_convert: $*" >&2; exit 2; }

[ -d "$build" ] || die "no build directory '$build' (configure and build first, or pass BUILD_DIR)"
build=$(cd "$build" && pwd)
command -v pcre2grep >/dev/null || die "pcre2grep not found (package pcre2-utils)"

if [ -n "${TLV_CORPUS:-}" ] && [ -f "$TLV_CORPUS/rules/asp.cnv" ]; then
    rules=$TLV_CORPUS/rules
elif [ -f "$root/../shared/corpus/tlv-2.0.1/rules/asp.cnv" ]; then
    rules=$(cd "$root/../shared/corpus/tlv-2.0.1/rules" && pwd)
elif [ -f "$root/rules/asp.cnv" ]; then
    rules=$root/rules
else
    die "no asp.cnv found: set TLV_CORPUS to the TLV 2.0.1 corpus, or add rules/asp.cnv"
fi
res=$root/samples/gen/asp_gen.res
[ -f "$res" ] || die "missing $res"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

gen=$build/tlv-gen
if [ ! -x "$gen" ]; then
    gen=$tmp/tlv-gen
    "${CC:-cc}" -std=c11 -O2 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE \
        "$root/samples/gen/tlv_gen.c" -o "$gen" || die "cannot build tlv-gen"
fi
tlv=$build/tlv
have_tlv=1
[ -x "$tlv" ] || have_tlv=0

gnu_time=0
if [ -x /usr/bin/time ] && /usr/bin/time -f '%M' -o "$tmp/probe" true 2>/dev/null; then gnu_time=1; fi

"$here/cnv_regexes.sh" asp "$rules/asp.cnv" >"$tmp/patterns" || die "cannot extract regexes from $rules/asp.cnv"

# ---- timing: sets SECS (best of $runs, wall clock) and RSS_KB (max; "" if unknown)

# Wall clock from $EPOCHREALTIME (bash 5), else bash's own `time` (ms).
run_once() {
    local t0 t1 rc=0 pre=()
    if [ "$gnu_time" = 1 ]; then pre=(/usr/bin/time -f '%M %U %S' -o "$tmp/rss"); fi
    if [ -n "${EPOCHREALTIME:-}" ]; then
        t0=$EPOCHREALTIME
        ${pre[@]+"${pre[@]}"} "$@" >"$tmp/cmd.out" 2>"$tmp/cmd.err" || rc=$?
        t1=$EPOCHREALTIME
        ONE_SECS=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }')
    else
        TIMEFORMAT=%3R
        { time ${pre[@]+"${pre[@]}"} "$@" >"$tmp/cmd.out" 2>"$tmp/cmd.err"; } 2>"$tmp/elapsed" || rc=$?
        ONE_SECS=$(tail -n 1 "$tmp/elapsed")
    fi
    ONE_RSS=""; ONE_CPU=""
    if [ "$gnu_time" = 1 ]; then
        ONE_RSS=$(tail -n 1 "$tmp/rss" | awk '{ print $1 }')
        ONE_CPU=$(tail -n 1 "$tmp/rss" | awk '{ print $2 + $3 }')
    fi
    return "$rc"
}

timed() {
    local i rc
    SECS=""; RSS_KB=""; CPU=""; MATCH_CPU=""; WRITER_CPU=""
    for ((i = 0; i < runs; i++)); do
        rc=0
        run_once "$@" || rc=$?
        # pcre2grep: 1 means "no line matched", which is still a valid run.
        if [ "$rc" -ne 0 ] && ! { [ "$1" = pcre2grep ] && [ "$rc" -eq 1 ]; }; then
            echo "command failed (status $rc): $*" >&2
            head -n 5 "$tmp/cmd.err" >&2
            return 1
        fi
        SECS=$(awk -v a="$SECS" -v b="$ONE_SECS" 'BEGIN { print (a == "" || b + 0 < a + 0) ? b : a }')
        # the least CPU of the runs, with the matching thread's share in that run
        if [ -n "$ONE_CPU" ] && awk -v a="$CPU" -v b="$ONE_CPU" 'BEGIN { exit !(a == "" || b + 0 < a + 0) }'; then
            CPU=$ONE_CPU
            MATCH_CPU=$(sed -n 's/.*(matching thread \([0-9.]*\) s CPU.*/\1/p' "$tmp/cmd.err" | tail -n 1)
            WRITER_CPU=$(sed -n 's/.*writer thread \([0-9.]*\) s CPU).*/\1/p' "$tmp/cmd.err" | tail -n 1)
        fi
        if [ -n "$ONE_RSS" ]; then
            RSS_KB=$(awk -v a="$RSS_KB" -v b="$ONE_RSS" 'BEGIN { print (a == "" || b + 0 > a + 0) ? b : a }')
        fi
    done
}

calc() { awk "BEGIN { printf \"$1\", $2 }"; }

goal() {   # goal LABEL VALUE OP LIMIT
    local ok
    ok=$(awk -v v="$2" -v l="$4" -v op="$3" 'BEGIN { print (op == "<=" ? v <= l : v < l) ? "PASS" : "FAIL" }')
    printf '%-46s %10s   (goal %s %s)   %s\n' "$1" "$2" "$3" "$4" "$ok"
    [ "$ok" = PASS ] || failed=1
}

skip() { printf '%-46s %10s   %s\n' "$1" "-" "SKIP ($2)"; }

# ---- run

echo "tlv convert benchmark: ASP logs from $(basename "$gen"), rules $rules"
echo "  $(wc -l <"$tmp/patterns") regexes of target asp; best of $runs run(s)"
[ "$gnu_time" = 1 ] || echo "  note: GNU /usr/bin/time not available: peak RSS not measured"
[ "$have_tlv" = 1 ] || echo "  note: $tlv not built yet: only tlv-gen and pcre2grep are measured"
echo
printf '%-9s %8s %8s %10s %8s %9s %8s %9s %11s %9s %10s\n' lines "gen s" "grep s" "grep match" \
    "tlv1 s" "tlv1/grep" "tlv2 s" "tlv2/grep" "tlv2 lines/s" "RSS MB" "events"

grep_s=(); tlv_s=(); tlv2_s=(); tlv_rss=(); tlv_events=()   # indexed like sizes (bash 3 has no maps)
grep_cpu=(); tlv1_cpu=(); tlv2_cpu=(); match_cpu=(); writer_cpu=()
failed=0
for i in "${!sizes[@]}"; do
    n=${sizes[$i]}
    log=$tmp/asp_$n.log
    timed "$gen" --kernel asp --lines "$n" --seed 1 -o "$log" || die "tlv-gen failed"
    gen_s=$SECS
    timed pcre2grep -c -f "$tmp/patterns" "$log" || die "pcre2grep failed"
    grep_s[$i]=$SECS
    grep_cpu[$i]=$CPU
    matched=$(cat "$tmp/cmd.out")
    t="-"; ratio="-"; t2="-"; ratio2="-"; lps="-"; rss="-"; events="-"
    if [ "$have_tlv" = 1 ]; then
        if timed "$tlv" convert --threads 1 -q -r "$res" -R "$rules" "$log" -o /dev/null; then
            tlv_s[$i]=$SECS
            tlv1_cpu[$i]=$CPU
            t=$SECS
            ratio=$(calc "%.2f" "$SECS / ${grep_s[$i]}")
        else
            echo "  tlv convert --threads 1 failed on $n lines" >&2
            failed=1
        fi
        if timed "$tlv" convert --threads 2 -r "$res" -R "$rules" "$log" -o /dev/null; then
            tlv2_s[$i]=$SECS
            tlv2_cpu[$i]=$CPU
            match_cpu[$i]=$MATCH_CPU
            writer_cpu[$i]=${WRITER_CPU:-0}
            t2=$SECS
            ratio2=$(calc "%.2f" "$SECS / ${grep_s[$i]}")
            lps=$(calc "%.0f" "$n / $SECS")
            events=$(sed -n 's/.* matched, \([0-9]*\) events written.*/\1/p' "$tmp/cmd.err" | tail -n 1)
            tlv_events[$i]=$events
            if [ -n "$RSS_KB" ]; then tlv_rss[$i]=$(calc "%.1f" "$RSS_KB / 1024"); rss=${tlv_rss[$i]}; fi
        else
            echo "  tlv convert --threads 2 failed on $n lines" >&2
            failed=1
        fi
    fi
    printf '%-9s %8s %8s %10s %8s %9s %8s %9s %11s %9s %10s\n' "$n" "$gen_s" "${grep_s[$i]}" "$matched" \
        "$t" "$ratio" "$t2" "$ratio2" "$lps" "$rss" "$events"
done
echo

big=1; small=0; last=$((${#sizes[@]} - 1))
printf '%-46s %10s\n' "pcre2grep time 1M/100k" "$(calc "%.2f" "${grep_s[$big]} / ${grep_s[$small]}")"
if [ -n "${tlv2_s[$last]:-}" ]; then
    printf '%-46s %10s   (wall clock; only meaningful on a quiet machine)\n' \
        "tlv 2 threads/pcre2grep at ${sizes[$last]} lines" "$(calc "%.2f" "${tlv2_s[$last]} / ${grep_s[$last]}")"
    printf '%-46s %10s\n' "tlv 1 thread/2 threads at ${sizes[$last]} lines" \
        "$(calc "%.2f" "${tlv_s[$last]:-0} / ${tlv2_s[$last]}")"
fi
if [ -n "${grep_cpu[$last]:-}" ] && [ -n "${match_cpu[$last]:-}" ] && [ -n "${tlv2_cpu[$last]:-}" ]; then
    g=${grep_cpu[$last]}; m=${match_cpu[$last]}; w=${writer_cpu[$last]}; all=${tlv2_cpu[$last]}
    a=$(calc "%.2f" "$all - $m - $w")
    echo "CPU seconds at ${sizes[$last]} lines: pcre2grep $g, tlv 1 thread ${tlv1_cpu[$last]:-?}," \
        "tlv 2 threads $a (calling thread) + $m (matching thread) + $w (writer thread)"
    busiest=$(calc "%.4f" "($a > $m ? ($a > $w ? $a : $w) : ($m > $w ? $m : $w))")
    printf '%-46s %10s\n' "busiest thread CPU / pcre2grep CPU" "$(calc "%.2f" "$busiest / $g")"
    printf '%-46s %10s\n' "process CPU / 2 / pcre2grep CPU" "$(calc "%.2f" "$all / 2 / $g")"
    goal "busier thread CPU / pcre2grep CPU" \
        "$(calc "%.2f" "($busiest > $all / 2 ? $busiest : $all / 2) / $g")" "<=" 1.5
elif [ -n "${tlv2_s[$last]:-}" ]; then
    goal "tlv 2 threads/pcre2grep at ${sizes[$last]} lines" "$(calc "%.2f" "${tlv2_s[$last]} / ${grep_s[$last]}")" "<=" 1.5
fi
for i in "${!sizes[@]}"; do
    if [ -n "${tlv_rss[$i]:-}" ] && [ -n "${tlv_events[$i]:-}" ]; then
        goal "tlv RSS - 16 B/event at ${sizes[$i]} lines (MB)" \
            "$(calc "%.1f" "${tlv_rss[$i]} - 16 * ${tlv_events[$i]} / 1048576")" "<=" 128
    fi
done
if [ -n "${tlv_s[$big]:-}" ]; then
    goal "tlv 1 thread/pcre2grep at 1M lines" "$(calc "%.2f" "${tlv_s[$big]} / ${grep_s[$big]}")" "<=" 3
    if [ -n "${tlv_rss[$big]:-}" ]; then
        goal "tlv peak RSS at 1M lines (MB)" "${tlv_rss[$big]}" "<" 150
    else
        skip "tlv peak RSS at 1M lines (MB)" "no GNU /usr/bin/time"
    fi
    if [ -n "${tlv_s[$small]:-}" ]; then
        goal "tlv time 1M/100k" "$(calc "%.2f" "${tlv_s[$big]} / ${tlv_s[$small]}")" "<=" 11
    else
        printf '%-46s %10s   %s\n' "tlv time 1M/100k" "-" "FAIL (100k run failed)"
    fi
else
    for g in "tlv 1 thread/pcre2grep at 1M lines" "tlv peak RSS at 1M lines (MB)" "tlv time 1M/100k"; do
        if [ "$have_tlv" = 1 ]; then
            printf '%-46s %10s   %s\n' "$g" "-" "FAIL (tlv convert failed)"
        else
            skip "$g" "tlv not built"
        fi
    done
fi
[ "$have_tlv" = 1 ] || exit 0
exit "$failed"
