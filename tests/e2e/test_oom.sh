#!/usr/bin/env bash
# test_oom.sh — running out of memory (issue 19.0), in ctest's time: the
# allocation-failure sweep of tests/oom/sweep.sh over every command (convert,
# shapes, render, export in its three formats, stats, query on a log and on
# a database, check, view --script on SDL's dummy display) and over the
# library's entry points (tests/oom/oom_api.c), strided to about
# TLV_OOM_RUNS (default 30; 12 under ASan) failure points per case, spread over the whole
# run; plus a few runs where every allocation from N on fails. Each run must
# succeed with exactly the output of a run without failures, or exit 2 with
# "out of memory while ..." naming its input, no output file and no
# temporary file. The full sweep (every N) is `tests/oom/sweep.sh` by hand.
# Under the sanitizers the library is preloaded in front of ASan's allocator,
# so leaks and memory errors on the failure paths are found too.
source "$(dirname "$0")/lib.sh"
LIB="${TLV_FAILALLOC_LIB:-}"
[ -f "$LIB" ] || { echo "SKIP: the failalloc library is not built"; exit 77; }
runs="${TLV_OOM_RUNS:-30}"
[ "${TLV_SANITIZE:-0}" = 1 ] && runs="${TLV_OOM_RUNS:-12}" # ASan runs are slower
SWEEP="$SRC/tests/oom/sweep.sh"

checks=$((checks + 1))
bash "$SWEEP" --runs "$runs" >"$TMP/sweep.out" 2>&1
st=$?
[ "$st" = 77 ] && { cat "$TMP/sweep.out"; echo "SKIP: allocation failures cannot be injected here"; exit 77; }
[ "$st" = 0 ] || fail "the strided sweep: $(cat "$TMP/sweep.out")"
cat "$TMP/sweep.out"

# Every allocation failing from N on: the error path itself has no memory.
checks=$((checks + 1))
bash "$SWEEP" --all --runs 8 convert shapes render >"$TMP/sweep-all.out" 2>&1 ||
  fail "the sweep with every later allocation failing: $(cat "$TMP/sweep-all.out")"
cat "$TMP/sweep-all.out"
finish
