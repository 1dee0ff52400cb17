# tests/e2e/lib.sh — helpers for the end-to-end tests of the tlv command.
# Each test sources this file, runs tlv like a user would, and checks exact
# output and exit status. TLV_BIN, TLV_SOURCE_DIR and TLV_CORPUS come from
# ctest (see CMakeLists.txt).
set -u
TLV="${TLV_BIN:?TLV_BIN must point to the tlv binary}"
SRC="${TLV_SOURCE_DIR:?}"
CORPUS="${TLV_CORPUS:-$SRC/../shared/corpus/tlv-2.0.1}"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
failures=0
checks=0

fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# run CMD...: runs it, keeping stdout in $TMP/out, stderr in $TMP/err, status in $status.
run() { "$@" >"$TMP/out" 2>"$TMP/err"; status=$?; }

expect_status() { checks=$((checks + 1)); [ "$status" -eq "$1" ] || fail "$2: exit status $status, expected $1; stderr: $(head -c 600 "$TMP/err")"; }

# expect_line FILE TEXT WHAT: FILE has a line exactly equal to TEXT.
expect_line() { checks=$((checks + 1)); grep -qxF -- "$2" "$1" || fail "$3: no line '$2' in $(basename "$1"):$(echo; head -c 800 "$1")"; }

# expect_contains FILE TEXT WHAT: some line of FILE contains TEXT.
expect_contains() { checks=$((checks + 1)); grep -qF -- "$2" "$1" || fail "$3: '$2' not found in $(basename "$1"):$(echo; head -c 800 "$1")"; }

# expect_grep FILE REGEX WHAT: some line of FILE matches the basic regular expression REGEX.
expect_grep() { checks=$((checks + 1)); grep -q -- "$2" "$1" || fail "$3: no line matching '$2' in $(basename "$1"):$(echo; head -c 800 "$1")"; }

# A misspelt helper or a missing program is a failure, not a check that
# silently never ran.
# Bash runs this handler in a subshell, where fail's count is lost: it
# leaves a mark that finish counts.
command_not_found_handle() {
  echo "FAIL: no such command: $1" >&2
  echo "$1" >>"$TMP/.not_found"
  return 127
}

# expect_count WHAT PNG X0 Y0 X1 Y1 COLOR MIN [MAX]: MIN to MAX pixels of
# COLOR in the rectangle of PNG (png_probe, $PROBE).
expect_count() {
  checks=$((checks + 1))
  local n
  n=$("$PROBE" "$2" count "$3" "$4" "$5" "$6" "$7")
  [ "${n:-0}" -ge "$8" ] && [ "${n:-0}" -le "${9:-99999999}" ] ||
    fail "$1: $n pixels of $7 in $3,$4-$5,$6 of $(basename "$2"), expected ${8}..${9:-}"
}

have_corpus() { [ -d "$CORPUS/rules" ]; }

# lock_facility NAME: holds a machine-wide lock on a kernel facility (tracefs,
# perf) until the test ends, so that tests of other checkouts and ctest runs
# on this machine do not use it at the same moment (within one ctest run,
# "# ctest-resource-lock: NAME" in the test does the same). Waits up to 10
# minutes, then skips (77) with the reason: a busy facility is no failure.
lock_facility() {
  local lock="${TMPDIR:-/tmp}/tlv-facility-$1.lock"
  exec {facility_fd}>>"$lock" || { echo "SKIP: cannot open the lock $lock"; exit 77; }
  if ! flock -w 600 "$facility_fd"; then
    echo "SKIP: $1 stayed busy for 10 minutes (another test holds $lock)"
    exit 77
  fi
}

# retarget_res RES: the resource file RES of TLV 2.0.1 (the corpus's, or
# tlv-gen --emit-res) on standard output with our rule targets
# (rules/toppers_*) for the original's; nothing else changes.
retarget_res() {
  sed -E -e 's/"toppers"/"toppers_common"/g' \
    -e 's/"fmp_mig_core([0-9])"/"toppers_fmp_core\1"/g' \
    -e 's/"(asp|fmp|fmp_mig|fmp_core[0-9])"/"toppers_\1"/g' "$1"
}

finish() {
  if [ -s "$TMP/.not_found" ]; then
    failures=$((failures + $(wc -l <"$TMP/.not_found")))
  fi
  if [ "$failures" -gt 0 ]; then
    echo "$failures of $checks checks failed" >&2
    exit 1
  fi
  echo "$checks checks passed"
  exit 0
}
