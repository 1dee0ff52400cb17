# On a terminal, tlv convert shows a progress bar on standard error (bytes,
# percent, lines/s, ETA) and clears it before the summary; off a terminal it
# shows none. `script` (util-linux) provides the terminal.
. "$(dirname "$0")/lib.sh"
command -v script >/dev/null || { echo "SKIP: script(1) not installed"; exit 77; }
GEN="$(dirname "$TLV")/tlv-gen"
[ -x "$GEN" ] || { echo "SKIP: tlv-gen not built"; exit 77; }
"$GEN" --kernel asp --lines 400000 --seed 3 -o "$TMP/big.log"

script -qec "'$TLV' convert -r '$SRC/samples/asp/sample.res' '$TMP/big.log' -o '$TMP/big.std'" /dev/null >"$TMP/tty.txt"
expect_contains "$TMP/tty.txt" "lines/s  ETA " "progress bar on a terminal"
expect_contains "$TMP/tty.txt" "%" "percent done"
expect_contains "$TMP/tty.txt" "tlv: 400000 lines read, " "summary after the bar"

run "$TLV" convert -r "$SRC/samples/asp/sample.res" "$TMP/big.log" -o "$TMP/big2.std"
checks=$((checks + 1))
grep -q "lines/s" "$TMP/err" && fail "progress bar shown off a terminal"
expect_contains "$TMP/err" "tlv: 400000 lines read, " "summary off a terminal"
finish
