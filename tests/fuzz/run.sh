#!/usr/bin/env bash
# tests/fuzz/run.sh [SECONDS_PER_TARGET] [TARGET...] — builds the libFuzzer
# targets of tests/fuzz with clang, ASan and UBSan (into build-fuzz/), and
# runs each target (default: all of json stdform cond geom convert rules calc
# session clock export requirements consistency cache shapecache) for
# SECONDS_PER_TARGET seconds (default 60), as many at once as there are
# processors. Seeds: tests/fuzz/seeds/TARGET,
# plus, when ../shared/corpus is present, its rule files, logs and trace
# lines (read in place, never copied into the repository). What a run finds
# is kept in build-fuzz/corpus/TARGET for the next run; a crash is saved as
# build-fuzz/crashes/TARGET-crash-* and makes the script exit 1 (turn it into
# a regression test in tests/unit/test_fuzz_regress.c, then fix it).
# Without clang or its fuzzer runtime the script says so and exits 0, so CI
# on a machine without them skips fuzzing rather than failing.
set -euo pipefail
cd "$(dirname "$0")/../.."
SRC="$PWD"
OUT="$SRC/build-fuzz"
CORPUS="$SRC/../shared/corpus/tlv-2.0.1"
secs="${1:-60}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(json stdform cond geom convert rules calc session clock export
                                      requirements consistency cache shapecache)

have_fuzzer_toolchain() {
  command -v clang >/dev/null 2>&1 || { echo "fuzz: skipped: clang is not installed (apt-get install clang libclang-rt-14-dev)" >&2; return 1; }
  local probe
  probe="$(mktemp -d)"
  printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' >"$probe/p.c"
  if ! clang -fsanitize=fuzzer,address,undefined "$probe/p.c" -o "$probe/p" >/dev/null 2>&1; then
    rm -rf "$probe"
    echo "fuzz: skipped: clang cannot link libFuzzer (apt-get install libclang-rt-14-dev)" >&2
    return 1
  fi
  rm -rf "$probe"
}

build() {
  CC=clang cmake -S "$SRC" -B "$OUT" -DTLV_FUZZ=ON -DBUILD_TESTING=OFF \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
  cmake --build "$OUT" --target fuzz_all -j"$(nproc)" >/dev/null
}

# Seeds made at run time from the shared corpus, one small file each: trace
# lines for the line parser, condition and geometry strings from rule files.
extra_seeds() {
  local t="$1" dir="$OUT/extra/$1"
  rm -rf "$dir"
  mkdir -p "$dir"
  [ -d "$CORPUS/rules" ] || { echo "$dir"; return; }
  case "$t" in
    stdform) head -n 300 "$CORPUS/expected/asp_short.std" |
               awk -v d="$dir" '{ f = d "/line" NR; printf "\010%s", $0 > f; close(f) }' ;;
    cond) grep -ohE '"[^"]*(==|!=|<=|>=|&&|\|\|)[^"]*"' "$CORPUS"/rules/* | sort -u | head -n 300 |
            awk -v d="$dir" '{ f = d "/c" NR; printf "%s", substr($0, 2, length($0) - 2) > f; close(f) }' ;;
    geom) grep -ohE '"(Location|Size|Offset)" *: *"[^"]*"|"[lcr]\([^"]*\),[^"]*"' "$CORPUS"/rules/*.viz |
            sed -E 's/^"(Location|Size|Offset)" *: *//' | sort -u | head -n 300 |
            awk -v d="$dir" '{ f = d "/g" NR; printf "%s", substr($0, 2, length($0) - 2) > f; close(f) }' ;;
  esac
  echo "$dir"
}

# Read-only corpus directories used as they are.
shared_dirs() {
  [ -d "$CORPUS/rules" ] || return 0
  case "$1" in
    json) echo "$CORPUS/rules" ;;
    convert|export) echo "$CORPUS/logs/asp" ;;
  esac
}

max_len() {
  case "$1" in
    json) echo 65536 ;;
    rules) echo 16384 ;;
    convert|export) echo 8192 ;;
    *) echo 4096 ;;
  esac
}

# Runs one target; prints "TARGET SECONDS EXECUTIONS STATUS" on standard output.
run_target() {
  local t="$1" log="$OUT/logs/$1.log" status=ok
  mkdir -p "$OUT/corpus/$t" "$OUT/crashes" "$OUT/logs"
  local dirs=("$OUT/corpus/$t" "$SRC/tests/fuzz/seeds/$t" "$(extra_seeds "$t")")
  while IFS= read -r d; do [ -n "$d" ] && dirs+=("$d"); done < <(shared_dirs "$t")
  if ! "$OUT/fuzz/fuzz_$t" -max_total_time="$secs" -max_len="$(max_len "$t")" -timeout=10 \
      -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$OUT/crashes/$t-" \
      "${dirs[@]}" >"$log" 2>&1; then
    status=CRASH
    echo "fuzz: fuzz_$t found a problem; the input is in $OUT/crashes/; the end of its log:" >&2
    tail -n 40 "$log" >&2
  fi
  local runs time
  runs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)"
  time="$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -n 1)"
  echo "$t ${time:-?} ${runs:-?} $status"
}

have_fuzzer_toolchain || exit 0
echo "fuzz: building the targets (build-fuzz/)" >&2
build
# One target per processor at a time: each runs its full time, and the
# whole run takes SECONDS x TARGETS / PROCESSORS instead of SECONDS x TARGETS.
results="$OUT/results"
rm -rf "$results"
mkdir -p "$results"
for t in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$(nproc)" ]; do wait -n || true; done
  run_target "$t" >"$results/$t" &
done
wait
failed=0
printf '%-8s %8s %12s %s\n' target seconds executions result
for t in "${targets[@]}"; do
  read -r name time runs status <"$results/$t" || { name="$t" status=LOST; }
  printf '%-8s %8s %12s %s\n' "$name" "${time:-?}" "${runs:-?}" "$status"
  [ "$status" = ok ] || failed=1
done
exit "$failed"
