#!/usr/bin/env bash
# ctest-label: slow
# test_oom.sh — running out of memory (issue 19.0), in ctest's time: the
# allocation-failure sweep of tests/oom/sweep.sh over every command (convert,
# shapes, render, export in its three formats, stats, query on a log and on
# a database, check, view --script on SDL's dummy display), over the
# library's entry points (tests/oom/oom_api.c) and over the converter's
# matching thread (convert-mt, shapes-mt: only that thread's allocations
# fail), strided to about TLV_OOM_RUNS (default 30; 20 under ASan) failure
# points per case, spread over the whole run; plus a few runs where every
# allocation from N on fails. Each run must succeed with exactly the output
# of a run without failures, or exit 2 with "out of memory while ..." naming
# its input, no output file and no temporary file. The full sweep (every N)
# is `tests/oom/sweep.sh` by hand.
#
# Two ways to fail allocations (sweep.sh --inject): in builds with
# TLV_FAULT_INJECTION (the sanitizer build), libtlv's own allocation
# wrappers fail them, which works under AddressSanitizer, so LeakSanitizer
# checks every failure path for leaks; in the other builds the LD_PRELOAD
# library tests/oom/failalloc.c fails every allocation of the process,
# third-party libraries' too (ASan's malloc cannot be preloaded over). A
# build without TLV_FAULT_INJECTION must ignore TLV_FAULT_INJECT.
source "$(dirname "$0")/lib.sh"
LIB="${TLV_FAILALLOC_LIB:-}"
runs="${TLV_OOM_RUNS:-30}"
[ "${TLV_SANITIZE:-0}" = 1 ] && runs="${TLV_OOM_RUNS:-20}" # ASan runs are slower
SWEEP="$SRC/tests/oom/sweep.sh"
modes=()
[ "${TLV_FAULT_INJECTION:-0}" = 1 ] && modes+=(lib)
[ "${TLV_SANITIZE:-0}" != 1 ] && [ -f "$LIB" ] && modes+=(preload)
[ ${#modes[@]} -gt 0 ] || { echo "SKIP: no way to inject allocation failures in this build"; exit 77; }

# With the viewer's loader and shape-building threads the N-th allocation is
# not the same one from run to run; every one must cope all the same (the
# two crashes this once hid were shapes named by a name that could not be
# interned, viz.c; tests/e2e/test_oom_view.sh fails its paths one by one).
# Not "convert-wt": `tlv convert`'s writer thread only writes the blocks of
# lines the converting thread filled, and allocates nothing.
cases=(convert shapes shapes-cached shapes-cachew render export-chrome export-csv export-sqlite stats
       query query-db check view api convert-mt shapes-mt)
for mode in "${modes[@]}"; do
  checks=$((checks + 1))
  bash "$SWEEP" --inject "$mode" --runs "$runs" "${cases[@]}" >"$TMP/sweep.out" 2>&1
  st=$?
  [ "$st" = 0 ] || fail "the strided sweep (--inject $mode): $(cat "$TMP/sweep.out")"
  cat "$TMP/sweep.out"

  # Every allocation failing from N on: the error path itself has no memory.
  checks=$((checks + 1))
  bash "$SWEEP" --inject "$mode" --all --runs 8 convert shapes render >"$TMP/sweep-all.out" 2>&1 ||
    fail "the sweep with every later allocation failing (--inject $mode): $(cat "$TMP/sweep-all.out")"
  cat "$TMP/sweep-all.out"
done

# Without the option, the library has no test hook: the variables do nothing.
if [ "${TLV_FAULT_INJECTION:-0}" != 1 ]; then
  head -40 "$SRC/samples/asp/sample.log" >"$TMP/small.log"
  run env TLV_FAULT_INJECT=1 TLV_FAULT_INJECT_ALL=1 TLV_FAULT_INJECT_REPORT="$TMP/report" \
    "$TLV" convert -q -r "$SRC/samples/asp/sample.res" -o "$TMP/out.txt" "$TMP/small.log"
  expect_status 0 "TLV_FAULT_INJECT in a build without TLV_FAULT_INJECTION"
  checks=$((checks + 1))
  [ ! -e "$TMP/report" ] || fail "a build without TLV_FAULT_INJECTION wrote an injection report"
fi
finish
