#!/usr/bin/env bash
# bench_speed.sh [--sizes "N ..."] [--no-view] [BUILD_DIR] — issue 29's figures,
# every ratio measured in this one run against `tlv convert -o /dev/null` of
# the same generated ASP log (TLV 2.0.1 rules from ../shared/corpus):
#   first open   tlv shapes, render (1920x1080), export chrome / csv / sqlite
#                and stats with --no-cache, each / convert (goal <= 1.3)
#   view         tlv view --bench: trace complete after start / convert
#                (goal <= 1.05), once converting and once from the cache
#   second open  the same commands reading the trace and shape caches
#                (docs/cache.md; a viewer run twice, the second reading the
#                shapes the first wrote):
#                their time, / convert, and the cache file's size against the
#                trace's in-memory size (goal <= 1.2)
#   threads      convert and shapes with --threads 1 and 2: the speedup
#                (goal >= 1.7), and convert's serial part: the calling
#                thread's CPU time in the two-thread run (what no other
#                thread can take: applying the events in order) over the
#                one-thread run's CPU time (goal <= 10 %), and what Amdahl's
#                law then allows on 16 cores
# BENCH_FIRST="shapes stats" times only those first opens (shapes is needed).
# Wall seconds are the best of BENCH_RUNS (default 1); CPU seconds are user +
# system of that run. The machine's load is printed: on a shared machine read
# the CPU columns. Everything runs under `nice`.
set -euo pipefail
export LC_ALL=C

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
sizes=(1000000)
build=./build
view=1
while [ $# -gt 0 ]; do
    case $1 in
    --sizes) read -r -a sizes <<<"$2"; shift ;;
    --no-view) view=0 ;;
    -h|--help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) build=$1 ;;
    esac
    shift
done
runs=${BENCH_RUNS:-1}
die() { echo "bench_speed: $*" >&2; exit 2; }
[ -x "$build/tlv" ] || die "no $build/tlv (build first, or pass BUILD_DIR)"
build=$(cd "$build" && pwd)
tlv=$build/tlv
[ -x /usr/bin/time ] || die "GNU /usr/bin/time not found (package time)"
rules=${TLV_CORPUS:-$root/../shared/corpus/tlv-2.0.1}/rules
[ -f "$rules/asp.cnv" ] || die "needs the TLV 2.0.1 rules (set TLV_CORPUS, or ../shared/corpus)"
res=$root/samples/gen/asp_gen.res
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench_speed.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
export XDG_CACHE_HOME=$tmp/cache
view_prefix=()
if [ "$view" = 1 ] && [ -z "${DISPLAY:-}" ]; then
    command -v xvfb-run >/dev/null || die "no DISPLAY and no xvfb-run for tlv view --bench (or --no-view)"
    view_prefix=(xvfb-run -a -s "-screen 0 1920x1080x24")
fi

calc() { awk "BEGIN { printf \"$1\", $2 }"; }
# run NAME CMD...: best wall of $runs; sets SECS, CPU (user+sys of that run), KB (max RSS)
run() {
    local name=$1 i best="" cpu="" kb=0
    shift
    for ((i = 0; i < runs; i++)); do
        nice /usr/bin/time -f '%e %U %S %M' -o "$tmp/time" "$@" >"$tmp/$name.out" 2>&1 ||
            { echo "bench_speed: $name failed: $*" >&2; tail -n 5 "$tmp/$name.out" >&2; return 1; }
        read -r e u s m < <(tail -n 1 "$tmp/time")
        if [ -z "$best" ] || awk -v a="$e" -v b="$best" 'BEGIN { exit !(a < b) }'; then
            best=$e
            cpu=$(calc "%.2f" "$u + $s")
        fi
        [ "$m" -gt "$kb" ] && kb=$m
    done
    SECS=$best CPU=$cpu KB=$kb
}
line() { # line NAME [NOTE]: a row against convert's wall and CPU
    printf '  %-22s %8s %8s %9s %9s %7s   %s\n' "$1" "$SECS" "$CPU" "$(calc "%.2f" "$SECS / $conv_s")" \
        "$(calc "%.2f" "$CPU / $conv_cpu")" "$(calc "%.0f" "$KB / 1024")" "${2:-}"
}

echo "tlv speed benchmark (issue 29): generated ASP logs, rules $rules, best of $runs run(s), nice"
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
for n in "${sizes[@]}"; do
    log=$tmp/asp_$n.log
    nice "$build/tlv-gen" --kernel asp --lines "$n" --seed 1 -o "$log" || die "tlv-gen failed"
    echo
    echo "== $n lines ($(calc "%.0f" "$(stat -c %s "$log") / 1048576") MB), load $(cut -d' ' -f1 /proc/loadavg)"
    printf '  %-22s %8s %8s %9s %9s %7s\n' command "wall s" "CPU s" "x conv" "CPU x" "RSS MB"
    R=(-r "$res" -R "$rules")
    run convert "$tlv" convert "${R[@]}" "$log" -o /dev/null
    conv_s=$SECS conv_cpu=$CPU
    matching=$(sed -n 's/.*(matching thread \([0-9.]*\) s CPU.*/\1/p' "$tmp/convert.out")
    writer=$(sed -n 's/.*writer thread \([0-9.]*\) s CPU.*/\1/p' "$tmp/convert.out")
    line convert "(matching thread ${matching:-?} s, writer ${writer:-?} s CPU)"
    run convert1 "$tlv" convert --threads 1 "${R[@]}" "$log" -o /dev/null
    conv1_s=$SECS conv1_cpu=$CPU
    line "convert --threads 1"
    for c in ${BENCH_FIRST:-shapes render export-chrome export-csv export-sqlite stats}; do
        case $c in
        shapes) a=(shapes -o /dev/null) ;;
        render) a=(render -q --size 1920x1080 -o "$tmp/r.png") ;;
        export-chrome) a=(export -o /dev/null) ;;
        export-csv) a=(export --format csv -o /dev/null) ;;
        export-sqlite) a=(export --format sqlite -o "$tmp/e.db") ;;
        stats) a=(stats -o /dev/null) ;;
        esac
        rm -f "$tmp/e.db"
        run "$c" "$tlv" "${a[@]}" --no-cache "${R[@]}" "$log"
        line "$c" "first open (goal <= 1.3 x convert)"
        [ "$c" = shapes ] && first_shapes=$SECS
    done
    run shapes1 "$tlv" shapes --threads 1 --no-cache -o /dev/null "${R[@]}" "$log"
    shapes1_s=$SECS
    line "shapes --threads 1"
    # second open: the first runs write the caches (the trace's, and the
    # shapes' of listing and of drawing), the timed ones read them
    nice "$tlv" shapes "${R[@]}" -o /dev/null "$log" 2>/dev/null
    nice "$tlv" render -q --size 1920x1080 -o "$tmp/r.png" "${R[@]}" "$log" 2>/dev/null
    cache_file=$(ls "$XDG_CACHE_HOME"/tlv/*.tlvcache)
    for c in shapes render stats; do
        case $c in
        shapes) a=(shapes -o /dev/null) ;;
        render) a=(render -q --size 1920x1080 -o "$tmp/r.png") ;;
        stats) a=(stats -o /dev/null) ;;
        esac
        run "$c-cached" "$tlv" "${a[@]}" --cache-info "${R[@]}" "$log"
        grep -q '^tlv: cache hit' "$tmp/$c-cached.out" || die "$c did not read the cache: $(grep cache "$tmp/$c-cached.out")"
        if [ "$c" = stats ]; then
            line "$c (cache)" "second open (trace cache)"
        else
            grep -q '^tlv: shape cache hit' "$tmp/$c-cached.out" || die "$c did not read the shape cache: $(grep cache "$tmp/$c-cached.out")"
            line "$c (cache)" "second open (trace and shape caches)"
        fi
    done
    # the trace's bytes in memory by the library's accounting (bench_mem)
    nice "$build/bench_mem" -R "$rules" -r "$res" "$log" >"$tmp/mem.out" 2>&1 || true
    mem=$(awk '/^events / { n = $2 + 0 } /^accounted, trace \+ shapes/ { sub(/.*\(trace /, ""); print $1 * n }' "$tmp/mem.out")
    smem=$(awk '/^events / { n = $2 + 0 } /^accounted, trace \+ shapes/ { sub(/.*\+ shapes /, ""); print $1 * n }' "$tmp/mem.out")
    if [ "$view" = 1 ]; then
        for how in --no-cache cache cache-again; do # cache-again: the shapes the one before wrote
            extra=()
            [ "$how" = --no-cache ] && extra=(--no-cache)
            run "view$how" ${view_prefix[@]+"${view_prefix[@]}"} "$tlv" view --bench --no-session \
                --size 1920x1080 "${extra[@]}" "${R[@]}" "$log"
            complete=$(sed -n 's/.*trace complete \([0-9.]*\) s after start.*/\1/p' "$tmp/view$how.out")
            p99=$(sed -n 's/^bench: [0-9]* frames .*p99 \([0-9.]*\) ms,.*/\1/p' "$tmp/view$how.out")
            printf '  %-22s %8s %8s %9s %9s %7s   %s\n' "view ($how)" "${complete:-?}" "-" \
                "$(calc "%.2f" "${complete:-0} / $conv_s")" "-" "$(calc "%.0f" "$KB / 1024")" \
                "fully interactive after start (goal <= 1.05 x convert); p99 frame ${p99:-?} ms"
        done
    fi
    echo "  threads: convert 1->2 $(calc "%.2f" "$conv1_s / $conv_s")x wall (goal >= 1.7); shapes 1->2 $(calc "%.2f" "$shapes1_s / $first_shapes")x wall"
    if [ -n "$matching" ]; then
        serial=$(calc "%.2f" "$conv_cpu - $matching - ${writer:-0}")
        frac=$(calc "%.3f" "$serial / $conv1_cpu")
        echo "  serial part of convert: the calling thread's $serial s CPU of the one-thread run's $conv1_cpu s = $(calc "%.1f" "$frac * 100") % (goal <= 10 %); Amdahl on 16 cores: $(calc "%.2f" "1 / ($frac + (1 - $frac) / 16)")x"
    fi
    cbytes=$(stat -c %s "$cache_file")
    echo "  cache file: $(calc "%.0f" "$cbytes / 1048576") MB$( [ -n "$mem" ] && echo " = $(calc "%.2f" "$cbytes / $mem") x the trace in memory ($(calc "%.0f" "$mem / 1048576") MB; goal <= 1.2)")"
    # the drawn shapes' file (render's and the viewer's) against the drawn
    # shapes in memory, and both caches against trace + shapes
    sfile=$(grep -o '[^ ]*\.tlvshapes' "$tmp/render-cached.out" | head -n 1)
    if [ -n "$sfile" ] && [ -f "$sfile" ] && [ -n "$smem" ]; then
        sbytes=$(stat -c %s "$sfile")
        echo "  shape cache file: $(calc "%.0f" "$sbytes / 1048576") MB = $(calc "%.2f" "$sbytes / $smem") x the drawn shapes in memory ($(calc "%.0f" "$smem / 1048576") MB); trace + shape files $(calc "%.2f" "($cbytes + $sbytes) / ($mem + $smem)") x trace + shapes in memory (goal <= 1.2)"
    fi
    rm -f "$log" "$tmp/r.png" "$tmp/e.db"
    rm -rf "$XDG_CACHE_HOME"
done
