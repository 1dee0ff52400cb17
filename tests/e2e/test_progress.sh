# ctest-label: slow
# On a terminal, tlv convert shows a progress bar on standard error (bytes,
# percent, lines/s, ETA) and clears it before the summary; off a terminal it
# shows none; so do shapes, export, stats, render and query of a log. `script` (util-linux) provides the terminal.
. "$(dirname "$0")/lib.sh"
command -v script >/dev/null || { echo "SKIP: script(1) not installed"; exit 77; }
GEN="$(dirname "$TLV")/tlv-gen"
[ -x "$GEN" ] || { echo "SKIP: tlv-gen not built"; exit 77; }
# Long enough for the bar's first draw (0.1 s into the reading) in every
# command; the sanitizer build reads about ten times slower, so a fifth of
# the log is enough there (and takes 2 minutes less).
LINES=400000
[ "${TLV_SANITIZE:-0}" = 1 ] && LINES=80000
"$GEN" --kernel asp --lines $LINES --seed 3 -o "$TMP/big.log"

script -qec "'$TLV' convert -r '$SRC/samples/asp/sample.res' '$TMP/big.log' -o '$TMP/big.std'" /dev/null >"$TMP/tty.txt"
expect_contains "$TMP/tty.txt" "lines/s  ETA " "progress bar on a terminal"
expect_contains "$TMP/tty.txt" "%" "percent done"
expect_contains "$TMP/tty.txt" "tlv: $LINES lines read, " "summary after the bar"

run "$TLV" convert -r "$SRC/samples/asp/sample.res" "$TMP/big.log" -o "$TMP/big2.std"
checks=$((checks + 1))
grep -q "lines/s" "$TMP/err" && fail "progress bar shown off a terminal"
expect_contains "$TMP/err" "tlv: $LINES lines read, " "summary off a terminal"
# The other commands that read a log show the same bar while they read it
# (cli/load.c), on a terminal only, and never in what they write. Each
# converts (--no-cache): a log read back from the trace cache needs no bar.
RES="$SRC/samples/asp/sample.res"
for c in "shapes" "export --format csv" "stats" "render --size 320x200"; do
  out="$TMP/out.$(echo "$c" | cut -d' ' -f1)"
  script -qec "'$TLV' $c --no-cache -r '$RES' '$TMP/big.log' -o '$out'" /dev/null >"$TMP/tty.txt"
  expect_contains "$TMP/tty.txt" "lines/s  ETA " "tlv $c: progress bar on a terminal"
  checks=$((checks + 1))
  [ -s "$out" ] && ! grep -q "lines/s" "$out" || fail "tlv $c: no output, or the bar in it"
  run "$TLV" $c -r "$RES" "$TMP/big.log" -o "$out.2"
  checks=$((checks + 1))
  grep -q "lines/s" "$TMP/err" && fail "tlv $c: progress bar shown off a terminal"
  checks=$((checks + 1))
  cmp -s "$out" "$out.2" || fail "tlv $c: the output on a terminal differs from the one off it"
done
script -qec "'$TLV' query --no-cache -r '$RES' '$TMP/big.log' 'SELECT COUNT(*) FROM events'" /dev/null >"$TMP/tty.txt"
expect_contains "$TMP/tty.txt" "lines/s  ETA " "tlv query of a log: progress bar on a terminal"
run "$TLV" query -r "$RES" "$TMP/big.log" "SELECT COUNT(*) FROM events"
checks=$((checks + 1))
grep -q "lines/s" "$TMP/err" "$TMP/out" && fail "tlv query: progress bar shown off a terminal"

finish
