# Property-based tests of the whole pipeline (issue 32): random valid rule
# sets and logs, and what must hold for every one of them in every output
# format (tests/e2e/properties.py says which). Runs for TLV_PROP_SECONDS
# (default 20) on a random seed, printed; TLV_PROP_SEED=S repeats a run, and
# a failing case's files are kept and named. Skips (77) without python3.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || { echo "SKIP: python3 is not installed"; exit 77; }
TLV_BIN="$TLV" TLV_PROP_KEEP="${TLV_PROP_KEEP:-}" python3 "$SRC/tests/e2e/properties.py"
status=$?
expect_status 0 "properties (a failure names its seed and case above)"
finish
