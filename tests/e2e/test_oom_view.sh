#!/usr/bin/env bash
# ctest-label: slow
# test_oom_view.sh — the viewer's out-of-memory paths one by one (issue
# 19.0): every allocation made inside one function of the program is failed
# in turn (the preloaded tests/oom/failalloc.c with TLV_FAILALLOC_FROM: only
# allocations whose call stack runs through that function count, so the
# viewer's loader and build threads cannot shift which one fails). Each run
# must end with exit status 2, exactly one new line on standard error, the
# message below naming the log, and no output: no screenshot, no state dump,
# no temporary file (or succeed with exactly the output of a run without
# failures, where the code can do without the allocation).
#   - a panel that could not be made (view_add_panel(NULL)): "out of memory
#     while opening the viewer on 'LOG'" (before: the viewer ran without it)
#   - the script that could not be read into memory (script_load): "out of
#     memory while reading the view script for 'LOG'" (before: exit 2 and no
#     word, or a script cut short)
#   - a screenshot without memory (pixels, libpng): "out of memory while
#     taking|writing the screenshot of 'LOG'", and the script stops there
#     (before: "cannot read the frame", and the later steps still ran)
#   - an event the trace could not keep (trace.c record_event): the viewer
#     and `tlv shapes` say "out of memory while converting 'LOG'", the
#     library's tlv_trace_load_file "out of memory while reading 'LOG'"
#     (before: the events so far were shown as the whole log, exit 0)
# Needs the preloaded library (the normal build) and nm (binutils).
source "$(dirname "$0")/lib.sh"
LIB="${TLV_FAILALLOC_LIB:-}"
API="${TLV_OOM_API:-}"
[ "${TLV_SANITIZE:-0}" = 1 ] && { echo "SKIP: the preloaded allocator cannot fail ASan's allocations"; exit 77; }
[ -f "$LIB" ] || { echo "SKIP: no failalloc library (TLV_FAILALLOC_LIB)"; exit 77; }
command -v nm >/dev/null || { echo "SKIP: nm (binutils) is not installed"; exit 77; }
RES="$SRC/samples/asp/sample.res"
export SDL_VIDEODRIVER=dummy SDL_RENDER_DRIVER=software SDL_AUDIODRIVER=dummy TLV_RULES_PATH=
# As tests/oom/sweep.sh: fontconfig, FreeType and HarfBuzz, and SDL while it
# opens its video, do not cope with a failed allocation (docs/robustness.md).
export TLV_FAILALLOC_SKIP=libfontconfig,libexpat,libfreetype,libharfbuzz,libSDL2-2.0,libudev
cd "$TMP" || exit 1
head -40 "$SRC/samples/asp/sample.log" >small.log
printf 'wait 2\nkey Right\nkey c\nscreenshot shot.png\nwait 1\ndump-state state.json\nquit\n' >view.script

# comparable FILE: FILE, or a state dump without rebuild_frames (frames drawn
# while the per-CPU rows were rebuilt on their thread: more under load).
comparable() {
  case "$1" in *.json) jq -S 'del(.rebuild_frames)' "$1" 2>/dev/null || cat "$1" ;; *) cat "$1" ;; esac
}

# range_of BIN FUNC: FUNC's address and size in BIN, as TLV_FAILALLOC_FROM reads them.
range_of() { nm -S --defined-only "$1" | awk -v f="$2" '$4 == f { print $1 "+" $2; exit }'; }

# run_failing BIN FROM K CMD...: CMD in a clean directory run/ with the K-th
# allocation inside FROM failing (K=0: none); status in $status, the count
# of allocations made inside FROM in $count.
run_failing() {
  local from=$2 k=$3
  shift 3
  rm -rf run && mkdir run
  (cd run && timeout 120 env TLV_FAILALLOC_FROM="$from" TLV_FAILALLOC="$k" TLV_FAILALLOC_REPORT="$TMP/report" \
     LD_PRELOAD="$LIB" "$@" >stdout 2>stderr)
  status=$?
  count=$(cut -d' ' -f1 "$TMP/report" 2>/dev/null)
  rm -f "$TMP/report"
}

# each_failure WHAT BIN FUNC MESSAGE_RE OUTPUTS CMD...: fails every allocation
# inside FUNC in turn; each run exits 2 with exactly one line beyond what
# the run without failures prints, matching ^MESSAGE_RE$, and leaves none of
# OUTPUTS (space-separated) and no temporary file; or exits 0 with the same
# outputs and standard output as without failures.
each_failure() {
  local what=$1 bin=$2 func=$3 re=$4 outputs=$5 from k o total
  shift 5
  from=$(range_of "$bin" "$func")
  checks=$((checks + 1))
  [ -n "$from" ] || { fail "$what: no function $func in $bin"; return; }
  run_failing "$bin" "$from" 0 "$@"
  [ "$status" = 0 ] || { fail "$what: fails without failures: status $status: $(head -c 400 run/stderr)"; return; }
  total=$count
  [ "${total:-0}" -gt 0 ] || { fail "$what: $func makes no allocation: the test tests nothing"; return; }
  rm -rf ref && mv run ref
  for ((k = 1; k <= total; k++)); do
    run_failing "$bin" "$from" "$k" "$@"
    checks=$((checks + 1))
    local at="$what, allocation $k of $total in $func"
    local extra
    extra=$(grep -vxF -f ref/stderr run/stderr)
    if [ "$status" = 0 ]; then
      [ -z "$extra" ] || fail "$at: exit 0 with more on stderr: $extra"
      cmp -s run/stdout ref/stdout || fail "$at: exit 0 but standard output differs"
      for o in $outputs; do cmp -s <(comparable "run/$o") <(comparable "ref/$o") || fail "$at: exit 0 but $o differs"; done
      continue
    fi
    [ "$status" = 2 ] || { fail "$at: exit status $status, expected 2: $(tail -c 400 run/stderr)"; continue; }
    echo "$extra" >>"$TMP/messages"
    [[ "$extra" =~ ^$re$ ]] || fail "$at: expected exactly one line '$re' beyond a good run's, got: '$extra'"
    for o in $outputs; do [ ! -e "run/$o" ] || fail "$at: exit 2 but $o was written"; done
    left=$(cd run && ls -A | grep -vxE 'stdout|stderr')
    [ -z "$left" ] || fail "$at: files left behind: $left"
  done
  echo "$what: $total allocations in $func, each failed once"
}

# --no-cache: every run converts (a run reading the trace cache the run
# before wrote would keep no event, and fail none).
VIEW=("$TLV" view --no-session --no-cache --script ../view.script -r "$RES" ../small.log)

# A panel its constructor could not make: the viewer stops before its window.
# (breakdown_new allocates in a tail call, which leaves no frame of its own.)
for ctor in prompt_panel_new marker_edit_panel_new goto_panel_new search_panel_new rows_panel_new \
            legend_panel_new log_panel_new flows_panel_new tracks_panel_new details_panel_new \
            tooltip_panel_new breakdown_panel_new markers_panel_new; do
  each_failure "view, panel" "$TLV" "$ctor" "tlv: out of memory while opening the viewer on '../small.log'" \
    "state.json shot.png" "${VIEW[@]}"
done

# The script: fopen's buffer, the lines, their copies, the path.
each_failure "view, script" "$TLV" script_load "tlv: out of memory while reading the view script for '../small.log'" \
  "state.json shot.png" "${VIEW[@]}"

# The screenshot: its pixels (taking), libpng's encoder (writing); the
# dump-state after it must not run.
each_failure "view, screenshot" "$TLV" view_write_screenshot \
  "tlv: out of memory while (taking a|writing the) screenshot of '\.\./small\.log'" \
  "state.json shot.png" "${VIEW[@]}"

# An event the trace could not keep, in the viewer's loader (its own
# thread), in `tlv shapes`, and through the library's tlv_trace_load_file.
each_failure "view, trace events" "$TLV" record_event "tlv: out of memory while converting '../small.log'" \
  "state.json shot.png" "${VIEW[@]}"
each_failure "shapes, trace events" "$TLV" record_event "tlv: out of memory while converting '../small.log'" \
  "out" "$TLV" shapes --no-cache -r "$RES" -o out ../small.log
# The library: tlv_trace_load_file (its converter may be the one to see the
# failure first), and a trace pushed through its converter as the viewer's
# loader does, whose tlv_trace_finish must say so.
if [ -x "$API" ]; then
  : >"$TMP/messages"
  each_failure "library, trace events" "$API" record_event \
    "oom_api: \.\./small\.log: (tlv_trace_load_file: out of memory while (reading|converting) '\.\./small\.log'|tlv_trace_finish: out of memory while keeping the events)" \
    "out" "$API" "$RES" ../small.log out
  expect_line "$TMP/messages" "oom_api: ../small.log: tlv_trace_finish: out of memory while keeping the events" \
    "library, an event a pushed trace could not keep"
fi
finish
