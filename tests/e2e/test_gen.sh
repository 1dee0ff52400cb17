#!/usr/bin/env bash
# test_gen.sh — tlv-gen's logs convert whole: every line of a generated
# TOPPERS/ASP or FMP log is one a conversion rule reads — with our rules
# (rules/toppers_*) and, when the corpus is there, with the TLV 2.0.1 rules
# its --emit-res names — so that the benchmarks convert every line they read.
# With --console the lines no rule reads (the sample program's output,
# "dispatch from task N.") are mixed in as real logs have them; taking out
# what the converter reports unmatched gives the log made without it (the
# same times: only those lines differ). Skips (77) without tlv-gen.
. "$(dirname "$0")/lib.sh"
GEN="${TLV_GEN:-$(dirname "$TLV")/tlv-gen}"
[ -x "$GEN" ] || { echo "SKIP: tlv-gen not built"; exit 77; }
N=20000

# converts_whole WHAT RES [-R DIR]: $TMP/g.log converts, all N lines matched,
# none unmatched, no error.
converts_whole() {
  local what=$1 res=$2
  shift 2
  run "$TLV" convert -r "$res" "$@" --unmatched "$TMP/um" -o "$TMP/g.std" "$TMP/g.log"
  expect_status 0 "$what: converts"
  checks=$((checks + 1))
  grep -qE "^tlv: $N lines read, $N matched, [0-9]+ events written, 0 errors, " "$TMP/err" ||
    fail "$what: not every line matched: $(head -c 400 "$TMP/err")"
  checks=$((checks + 1))
  [ -f "$TMP/um" ] && [ ! -s "$TMP/um" ] ||
    fail "$what: $(wc -l <"$TMP/um") lines no rule matched, as: $(head -n 3 "$TMP/um")"
}

for opts in "--kernel asp" "--kernel asp --seed 4 --tasks 12" "--kernel fmp" \
            "--kernel fmp --seed 9 --cpus 1" "--kernel fmp --seed 11 --cpus 3 --tasks 15"; do
  # shellcheck disable=SC2086
  "$GEN" $opts --emit-res >"$TMP/gen.res"
  retarget_res "$TMP/gen.res" >"$TMP/own.res"
  # shellcheck disable=SC2086
  "$GEN" $opts --lines $N -o "$TMP/g.log"
  converts_whole "$opts, our rules" "$TMP/own.res"
  if have_corpus; then
    converts_whole "$opts, the TLV 2.0.1 rules" "$TMP/gen.res" -R "$CORPUS/rules"
  fi

  # --console: about 9% of the lines are what no rule reads (the test above
  # can fail), and they are all that differs.
  # shellcheck disable=SC2086
  "$GEN" $opts --console --lines $N -o "$TMP/c.log"
  run "$TLV" convert -r "$TMP/own.res" --unmatched "$TMP/cum" -o /dev/null "$TMP/c.log"
  expect_status 0 "$opts --console: converts"
  unread=$(wc -l <"$TMP/cum")
  checks=$((checks + 1))
  [ "$unread" -gt $((N / 20)) ] && [ "$unread" -lt $((N / 7)) ] ||
    fail "$opts --console: $unread of $N lines unread, expected 5% to 14%"
  checks=$((checks + 1))
  grep -qvE '^[0-9]+: \[[0-9]+\](:\[[0-9]+\]:)? (dispatch from task [0-9]+\.|.* is running \([0-9]+\)\..*|#.*|Run (cyclic|alarm)_handler!|unknown trace log type: [0-9]+\.|select tskno 0x[0-9a-f]+|Processor [0-9]+ start\.|local_inirtn exinf = [0-9]+, counter = [0-9]+|System logging task is started on port [0-9]+\.|Sample program starts \(exinf = [0-9]+\)\.)$' "$TMP/cum" &&
    fail "$opts --console: an unread line that is not console output: $(grep -vE '^[0-9]+: \[[0-9]+\](:\[[0-9]+\]:)? (dispatch from|.* is running|#|Run |unknown trace|select tskno|Processor|local_inirtn|System logging|Sample program)' "$TMP/cum" | head -n 2)"
  awk -F: 'NR == FNR { skip[$1] = 1; next } !(FNR in skip)' "$TMP/cum" "$TMP/c.log" >"$TMP/read.log"
  checks=$((checks + 1))
  cmp -s -n "$(wc -c <"$TMP/read.log")" "$TMP/read.log" "$TMP/g.log" ||
    fail "$opts --console: the lines read differ from the log without it: $(cmp -n "$(wc -c <"$TMP/read.log")" "$TMP/read.log" "$TMP/g.log")"
done
finish
