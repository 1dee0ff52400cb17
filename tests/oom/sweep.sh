#!/usr/bin/env bash
# tests/oom/sweep.sh — allocation-failure sweep: runs a tlv command once per
# allocation N with the N-th allocation failing (--inject below), and
# checks that every run either succeeds with exactly the output of a run
# without failures, or exits 2 with "out of memory while ..." naming the
# input (or the output file it could not open), leaving no output file and
# no temporary file behind. Crashes, other statuses, silent changes of the
# output and sanitizer reports are failures.
#
#   tests/oom/sweep.sh [--inject preload|lib] [--stride K | --runs R] [--offset O]
#                      [--jobs J] [--all] [CASE...]
#
# CASE: convert shapes shapes-cached shapes-cachew render export-chrome
# export-csv export-sqlite stats query query-db check view api convert-mt
# shapes-mt convert-wt (default: all but convert-wt). The commands that can
# read the trace cache (docs/cache.md) convert (--no-cache), but for
# shapes-cached, which reads the cache its reference run wrote, and
# shapes-cachew, which writes one (a new cache folder each run). The -mt cases convert a log big enough for the converter's
# matching thread (--threads 2, libtlv/src/pipeline.c) and fail only that
# thread's allocations, convert-wt only those of `tlv convert`'s writer
# thread (cli/event_writer.c): the error must come out on the calling
# thread. The writer thread now only writes blocks of finished lines and
# allocates nothing, so convert-wt says "no allocation to fail" (by hand: a
# check that it stays so).
# --inject: how allocations are failed. preload (the default): the
# LD_PRELOAD library tests/oom/failalloc.c, which fails every allocation of
# the process, tlv's and its libraries' (PCRE2, cJSON, SQLite, SDL, libpng),
# but cannot get in front of AddressSanitizer's malloc; lib: libtlv's own
# allocation wrappers (libtlv/src/alloc.h, in builds with
# -DTLV_FAULT_INJECTION=ON, the default of the sanitizer build), which the
# tlv command's own allocations and cJSON's and SQLite's go through too.
# --stride K tries
# every K-th N starting at O (default 1 and 1: every allocation); --runs R
# picks the stride that makes about R runs of each case; --all
# makes every allocation from N on fail too (the error path itself then has
# no memory). ctest runs it strided (tests/e2e/test_oom.sh); run it without
# --stride for the full sweep (minutes per case; see docs/robustness.md).
#
# Environment: SWEEP_LOG (a file that gets a line per run, for long
# sweeps that may be stopped), SWEEP_TIMEOUT (seconds a run may take before
# it counts as a hang; 300), TLV_BIN (the tlv command), TLV_FAILALLOC_LIB (failalloc.so),
# TLV_OOM_API (the test_oom_api program, for the case "api"),
# TLV_SOURCE_DIR; TLV_SANITIZE=1 when the binaries are ASan builds (the
# library is then preloaded in front of ASan's allocator).
set -u
SRC="${TLV_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}"
TLV="${TLV_BIN:-$SRC/build/tlv}"
LIB="${TLV_FAILALLOC_LIB:-$SRC/build/tests/libfailalloc.so}"
API="${TLV_OOM_API:-$SRC/build/tests/oom_api}"
stride=1 offset=1 jobs=2 all=0 runs=0 cases=() inject=preload
while [ $# -gt 0 ]; do
  case "$1" in
    --stride) stride=$2; shift ;;
    --runs) runs=$2; shift ;;
    --offset) offset=$2; shift ;;
    --jobs) jobs=$2; shift ;;
    --all) all=1 ;;
    --inject) inject=$2; shift ;;
    -h|--help) sed -n '2,39p' "$0"; exit 0 ;;
    *) cases+=("$1") ;;
  esac
  shift
done
[ ${#cases[@]} -gt 0 ] || cases=(convert shapes shapes-cached shapes-cachew render export-chrome export-csv export-sqlite stats query query-db check view api convert-mt shapes-mt)
[ -x "$TLV" ] || { echo "sweep: no tlv at $TLV" >&2; exit 2; }
# The runs happen in directories of their own: absolute paths.
TLV=$(realpath "$TLV"); LIB=$(realpath -m "$LIB"); API=$(realpath -m "$API")
case "$inject" in
  preload) [ -f "$LIB" ] || { echo "sweep: no failalloc library at $LIB" >&2; exit 2; } ;;
  lib) ;;
  *) echo "sweep: --inject preload or lib, not '$inject'" >&2; exit 2 ;;
esac

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
RES="$SRC/samples/asp/sample.res"
LOG="$WORK/small.log"
head -40 "$SRC/samples/asp/sample.log" >"$LOG"
# Over the 16 KB a push needs to go through the matching thread.
MTLOG="$WORK/mt.log"
cat "$SRC/samples/asp/sample.log" "$SRC/samples/asp/sample.log" >"$MTLOG"
printf 'wait 2\nkey Right\nkey c\nkey r\nwait 1\ndump-state state.json\nscreenshot shot.png\nquit\n' >"$WORK/view.script"
export SDL_VIDEODRIVER=dummy SDL_RENDER_DRIVER=software SDL_AUDIODRIVER=dummy TLV_RULES_PATH=
# fontconfig (and expat, its XML parser) crash or quietly drop configuration
# when an allocation of their own fails, and HarfBuzz measures a glyph
# FreeType could not load as empty without telling anyone: not tlv's to fix
# nor to see, so their allocations are not failed (docs/robustness.md).
export TLV_FAILALLOC_SKIP="${TLV_FAILALLOC_SKIP-libfontconfig,libexpat,libfreetype,libharfbuzz}"
# ASan (--inject preload): our library goes in front of its allocator;
# leaks are checked (a failed path must free what it made), but a few
# libraries' caches are not.
export ASAN_OPTIONS="verify_asan_link_order=0:detect_leaks=1:abort_on_error=1:allocator_may_return_null=1"
export LSAN_OPTIONS="suppressions=$SRC/tests/e2e/lsan_view.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"

# argv_of CASE OUT: the command line of CASE writing OUT (run in its own directory).
argv_of() {
  case "$1" in
    convert) echo "$TLV convert -q -r $RES -o $2 $LOG" ;;
    shapes) echo "$TLV shapes --no-cache -r $RES -o $2 $LOG" ;;
    shapes-cached|shapes-cachew) echo "$TLV shapes -r $RES -o $2 $LOG" ;;
    render) echo "$TLV render --no-cache -q -r $RES --size 320x200 -o $2 $LOG" ;;
    export-chrome) echo "$TLV export --no-cache -r $RES -o $2 $LOG" ;;
    export-csv) echo "$TLV export --no-cache -f csv -r $RES -o $2 $LOG" ;;
    export-sqlite) echo "$TLV export --no-cache -f sqlite -r $RES -o $2 $LOG" ;;
    stats) echo "$TLV stats --no-cache -r $RES -o $2 $LOG" ;;
    query) echo "$TLV query --no-cache -f csv -r $RES $LOG select_count" ;;
    query-db) echo "$TLV query -f csv $WORK/trace.db select_rows" ;;
    check) echo "$TLV check -r $RES $LOG" ;;
    view) echo "$TLV view --no-session --script $WORK/view.script -r $RES $LOG" ;;
    api) echo "$API $RES $LOG $2" ;;
    convert-mt) echo "$TLV convert -q --threads 2 -r $RES -o $2 $MTLOG" ;;
    shapes-mt) echo "$TLV shapes -r $RES -o $2 $MTLOG" ;;
    convert-wt) echo "$TLV convert -q --threads 2 -r $RES -o $2 $MTLOG" ;;
  esac
}
# The SQL of the query cases (kept out of argv_of's word splitting).
sql_of() {
  case "$1" in
    select_count) echo "select rule, event, count(*), sum(dur) from intervals group by rule, event order by 1, 2" ;;
    select_rows) echo "select r.label, count(*) from intervals i join rows r on r.id = i.row_id group by r.label order by 1" ;;
    *) echo "$1" ;;
  esac
}

# run_one CASE N DIR: runs CASE in DIR with the N-th allocation failing
# (N=0: none); leaves out, err, status and the allocation report there.
run_one() {
  local c=$1 n=$2 dir=$3 out argv=() w
  mkdir -p "$dir"
  out=out
  [ "$c" = render ] && out=out.png
  [ "$c" = view ] && out=state.json
  for w in $(argv_of "$c" "$out"); do argv+=("$(sql_of "$w")"); done
  # SDL2 crashes when an allocation fails while it opens its video
  # subsystem and window (docs/robustness.md): the viewer's SDL is spared,
  # and libudev, whose udev_enumerate_new SDL calls there without looking
  # at its NULL (N = 62 of the view crashed so inside SDL).
  local skip=$TLV_FAILALLOC_SKIP
  [ "$c" = view ] && skip="$skip,libSDL2-2.0,libudev"
  local thread=
  case "$c" in *-mt) thread=tlv-match ;; *-wt) thread=tlv-write ;; esac
  local how=()
  # The trace cache (docs/cache.md): the other cases convert (--no-cache);
  # shapes-cached reads the cache its reference run wrote, shapes-cachew
  # writes one in a folder of its own each run.
  case "$c" in
    shapes-cached) how=(XDG_CACHE_HOME="$WORK/cache") ;;
    shapes-cachew) how=(XDG_CACHE_HOME="$dir/cache") ;;
    *) how=(XDG_CACHE_HOME="$WORK/no-cache") ;;
  esac
  if [ "$inject" = lib ]; then
    how+=(TLV_FAULT_INJECT="$n" TLV_FAULT_INJECT_ALL="$all" TLV_FAULT_INJECT_REPORT="$dir/report"
         TLV_FAULT_INJECT_THREAD="$thread")
  else # only tlv runs with the library (timeout and env allocate too)
    how+=(TLV_FAILALLOC_SKIP="$skip" TLV_FAILALLOC="$n" TLV_FAILALLOC_ALL="$all" TLV_FAILALLOC_REPORT="$dir/report"
         TLV_FAILALLOC_THREAD="$thread" LD_PRELOAD="$LIB")
  fi
  # A hang is caught by the time limit, set far above a run's time on a
  # loaded machine (a run takes well under a second alone; two cores shared
  # by a dozen processes under ASan made some take over a minute).
  (cd "$dir" && timeout "${SWEEP_TIMEOUT:-300}" env "${how[@]}" "${argv[@]}" >"$dir/stdout" 2>"$dir/stderr"; echo $? >"$dir/status")
}

# normalise FILE: what may differ between two good runs (durations).
normalise() { sed -E 's/[0-9]+\.[0-9]+ s\b/T s/g' "$1"; }
# state_of FILE: the view's dump-state without what depends on the machine's
# speed (rebuild_frames: frames drawn while the shapes were rebuilt on their
# thread; more under load), one key per line.
state_of() { jq -S 'del(.rebuild_frames)' "$1" 2>/dev/null || cat "$1"; }

# judge CASE N DIR REF: prints a line when the run in DIR is not acceptable;
# prints "beyond" when N was past the run's last allocation.
judge() {
  local c=$1 n=$2 dir=$3 ref=$4 st out=out
  [ "$c" = render ] && out=out.png
  [ "$c" = view ] && out=state.json
  st=$(cat "$dir/status")
  if [ -f "$dir/report" ] && [ "$(cut -d' ' -f2 "$dir/report")" = 0 ]; then
    echo beyond
    return
  fi
  local leftovers
  leftovers=$(cd "$dir" && ls -A | grep -E '\.tmp|\.bak|-journal' | tr '\n' ' ')
  [ -z "$leftovers" ] || echo "$c N=$n: files left behind: $leftovers"
  if [ "$st" = 0 ]; then
    cmp -s "$dir/stdout" "$ref/stdout" || { echo "$c N=$n: exit 0 but standard output differs:"; diff "$ref/stdout" "$dir/stdout" | head -5; }
    if [ -f "$ref/$out" ] && [ "$c" = view ]; then
      cmp -s <(state_of "$dir/$out") <(state_of "$ref/$out") ||
        { echo "$c N=$n: exit 0 but $out differs:"; diff <(state_of "$ref/$out") <(state_of "$dir/$out") | head -6; }
    elif [ -f "$ref/$out" ]; then
      cmp -s "$dir/$out" "$ref/$out" || echo "$c N=$n: exit 0 but $out differs"
    fi
    cmp -s <(normalise "$dir/stderr") <(normalise "$ref/stderr") ||
      { echo "$c N=$n: exit 0 but standard error differs:"; diff <(normalise "$ref/stderr") <(normalise "$dir/stderr") | head -6; }
  elif [ "$st" = 2 ]; then
    grep -qE 'out of memory while [a-z]' "$dir/stderr" ||
      { echo "$c N=$n: exit 2 without 'out of memory while': $(head -c 400 "$dir/stderr")"; return; }
    grep 'out of memory while' "$dir/stderr" | grep -qE "small\.log|mt\.log|sample\.res|trace\.db|\.(cnv|viz|resh)|the output '" ||
      echo "$c N=$n: the message names no input: $(grep 'out of memory' "$dir/stderr" | head -2)"
    [ ! -e "$dir/$out" ] || [ "$c" = view ] || echo "$c N=$n: exit 2 but $out was written"
    [ "$(grep -c 'out of memory' "$dir/stderr")" -le 3 ] || echo "$c N=$n: more than 3 out-of-memory lines"
  else
    [ "$st" = 124 ] && echo "$c N=$n: no end after ${SWEEP_TIMEOUT:-300} s (a hang?)" ||
      echo "$c N=$n: exit status $st: $(tail -c 600 "$dir/stderr")"
    [ "$st" -gt 128 ] && [ "${SWEEP_BT:-0}" = 1 ] && backtrace "$c" "$n" "$dir"
  fi
}

# backtrace CASE N DIR: where the crash of run N is (SWEEP_BT=1, needs gdb).
backtrace() {
  local argv=() w pre=()
  for w in $(argv_of "$1" out); do argv+=("$(sql_of "$w")"); done
  [ "$inject" = preload ] && pre=(-ex "set env LD_PRELOAD $LIB")
  (cd "$3" && TLV_FAULT_INJECT=$2 TLV_FAULT_INJECT_ALL=$all TLV_FAILALLOC=$2 TLV_FAILALLOC_ALL=$all gdb -q -batch "${pre[@]}" \
     -ex run -ex bt --args "${argv[@]}" 2>&1 | grep -E '^#' | grep -v failalloc | head -8)
}

total_fail=0
for c in "${cases[@]}"; do
  if [ "$c" = api ] && [ ! -x "$API" ]; then echo "sweep: $c: no $API; skipped"; continue; fi
  [ "$c" = query-db ] && [ ! -f "$WORK/trace.db" ] &&
    "$TLV" export -f sqlite -r "$RES" -o "$WORK/trace.db" "$LOG" 2>/dev/null
  [ "$c" = shapes-cached ] && # the reference run reads the cache too
    XDG_CACHE_HOME="$WORK/cache" "$TLV" shapes -r "$RES" -o /dev/null "$LOG" 2>/dev/null
  run_one "$c" 0 "$WORK/$c.ref"
  ref="$WORK/$c.ref"
  if [ "$(cat "$ref/status")" != 0 ]; then
    echo "sweep: $c: fails without injected failures: $(cat "$ref/stderr")"; total_fail=$((total_fail + 1)); continue
  fi
  if [ ! -f "$ref/report" ]; then # preload: an ASan build; lib: built without TLV_FAULT_INJECTION
    echo "sweep: $c: failure injection ($inject) was not in effect (no report): nothing tested"; exit 77
  fi
  count=$(cut -d' ' -f1 "$ref/report")
  if [ "$count" = 0 ]; then
    echo "sweep: $c: no allocation to fail (the case tests nothing)"; total_fail=$((total_fail + 1)); continue
  fi
  [ "$runs" -gt 0 ] && stride=$(( (count + runs - 1) / runs )) && offset=$(( stride / 2 + 1 ))
  bad="$WORK/$c.bad"; : >"$bad"
  tried=0 n=$offset
  start=$(date +%s)
  while [ "$n" -le "$count" ]; do
    batch=()
    for ((j = 0; j < jobs && n <= count; j++)); do batch+=("$n"); n=$((n + stride)); done
    for k in "${batch[@]}"; do
      (
        run_one "$c" "$k" "$WORK/$c.$k"
        judge "$c" "$k" "$WORK/$c.$k" "$ref" >"$WORK/$c.$k.verdict"
      ) &
    done
    wait
    for k in "${batch[@]}"; do
      tried=$((tried + 1))
      grep -v '^beyond$' "$WORK/$c.$k.verdict" >>"$bad"
      [ -z "${SWEEP_LOG:-}" ] || { grep -v '^beyond$' "$WORK/$c.$k.verdict" | grep . || echo "$c N=$k: ok"; } >>"$SWEEP_LOG"
      rm -rf "$WORK/$c.$k" "$WORK/$c.$k.verdict"
    done
  done
  nbad=$(grep -c "N=" "$bad")
  echo "sweep: $c: $count allocations, $tried runs (stride $stride), $nbad bad, $(($(date +%s) - start)) s"
  if [ "$nbad" -gt 0 ]; then
    head -40 "$bad"
    total_fail=$((total_fail + 1))
  fi
done
exit $((total_fail > 0))
