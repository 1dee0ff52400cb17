# `tlv render`: refuses bad usage with exit status 2, keeps the rows --rows
# matches at --row-height, and (with the corpus)
# draws logs into PNGs of the requested size, zoomed with --from/--to.
. "$(dirname "$0")/lib.sh"

# png_size FILE: "W H" from the IHDR chunk.
png_size() { od -An -tu1 -j16 -N8 "$1" | awk '{ print $1*16777216+$2*65536+$3*256+$4, $5*16777216+$6*65536+$7*256+$8 }'; }

expect_png() { # FILE W H WHAT
  checks=$((checks + 1))
  if [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" != "89504e470d0a1a0a" ]; then
    fail "$4: $1 is not a PNG"
  elif [ "$(png_size "$1")" != "$2 $3" ]; then
    fail "$4: $1 is $(png_size "$1"), expected $2 $3"
  fi
}

run "$TLV" render --help
expect_status 0 "render --help"
expect_contains "$TMP/out" "usage: tlv render" "help text"

run "$TLV" render -r "$SRC/samples/asp/sample.res" "$SRC/samples/asp/sample.log"
expect_status 2 "no -o"
expect_contains "$TMP/err" "an output image is needed" "no -o message"

run "$TLV" render -r "$SRC/samples/asp/sample.res" -o "$TMP/x.png" --size 10 "$SRC/samples/asp/sample.log"
expect_status 2 "bad --size"

run "$TLV" render -r "$SRC/samples/asp/sample.res" -o "$TMP/x.png" --from 5 --to 4 "$SRC/samples/asp/sample.log"
expect_status 2 "--to before --from"

run "$TLV" render -r "$SRC/samples/asp/sample.res" -o "$TMP/x.png" "$TMP/no-such.log"
expect_status 2 "missing log"

run "$TLV" render -r "$SRC/samples/asp/sample.res" -o "$TMP/no-such-dir/x.png" "$SRC/samples/asp/sample.log"
expect_status 2 "unwritable output"

# --rows keeps the rows whose name matches; --row-height sets their height,
# and rows that then do not fit are counted in a note.
F="$SRC/samples/fmp"
run "$TLV" render -r "$F/sample.res" -o "$TMP/rows.png" --size 900x300 --rows 'TASK|Processor' \
  --row-height 22 "$F/sample.log"
expect_status 0 "render --rows --row-height"
expect_png "$TMP/rows.png" 900 300 "--rows"
expect_contains "$TMP/err" "tlv: wrote $TMP/rows.png (900x300, 10 rows," "--rows: 10 rows drawn"
checks=$((checks + 1))
! grep -q "do not fit" "$TMP/err" || fail "10 rows of 22 px fit 300 px: $(cat "$TMP/err")"
run "$TLV" render -r "$F/sample.res" -o "$TMP/rows.png" --size 900x300 --rows 'TASK|Processor' \
  --row-height 40 "$F/sample.log"
expect_status 0 "render --row-height 40"
expect_contains "$TMP/err" "note: 4 of 10 rows do not fit in 300 pixels at 40 pixels a row" "rows cut off"
run "$TLV" render -r "$F/sample.res" -o "$TMP/rows.png" --rows 'TASK(' "$F/sample.log"
expect_status 2 "bad --rows"
expect_contains "$TMP/err" "--rows 'TASK(' is not a regular expression: missing closing parenthesis at offset 5" "bad --rows message"
run "$TLV" render -r "$F/sample.res" -o "$TMP/rows.png" --rows 'no such row' "$F/sample.log"
expect_status 2 "--rows matching nothing"
expect_contains "$TMP/err" "no row's name matches --rows 'no such row' (the trace has 26 rows)" "--rows matching nothing message"
run "$TLV" render -r "$F/sample.res" -o "$TMP/rows.png" --row-height 3 "$F/sample.log"
expect_status 2 "bad --row-height"
expect_contains "$TMP/err" "--row-height needs a number of pixels from 4 to 1000, got '3'" "bad --row-height message"

if have_corpus; then
  A="$CORPUS/logs/asp"
  run "$TLV" render -R "$CORPUS/rules" -r "$A/asp_short.res" -o "$TMP/asp.png" "$A/asp_short.log"
  expect_status 0 "render asp_short"
  expect_png "$TMP/asp.png" 1600 900 "default size"
  expect_contains "$TMP/err" "tlv: wrote $TMP/asp.png (1600x900, 12 rows," "summary line"

  run "$TLV" render -q -R "$CORPUS/rules" -r "$A/asp_short.res" -o "$TMP/zoom.png" --size 640x360 \
    --from 2000000 --to 2500000 "$A/asp_short.log"
  expect_status 0 "render a time range"
  expect_png "$TMP/zoom.png" 640 360 "--size"
  checks=$((checks + 1))
  [ ! -s "$TMP/err" ] || fail "-q: stderr not empty: $(head -c 300 "$TMP/err")"

  run "$TLV" render -R "$CORPUS/rules" -r "$CORPUS/logs/fmp/fmp_short.res" --per-cpu \
    -o "$TMP/fmp.png" --size 800x600 "$CORPUS/logs/fmp/fmp_short.log"
  expect_status 0 "render fmp_short per CPU"
  expect_png "$TMP/fmp.png" 800 600 "fmp_short"

  # Every corpus log renders without an error.
  for res in "$CORPUS"/logs/*/*.res; do
    dir=$(dirname "$res"); base=$(basename "$res" .res); log="$dir/$base.log"
    [ -f "$log" ] || log=$(ls "$dir"/*.log | head -n 1)
    run "$TLV" render -q -R "$CORPUS/rules" -r "$res" -o "$TMP/$base.png" --size 800x450 "$log"
    expect_status 0 "render $base"
    expect_png "$TMP/$base.png" 800 450 "$base"
  done
fi
finish
