#!/usr/bin/env bash
# test_view_live_big.sh — `tlv view` following a log that grows, in bursts,
# past the size at which a trace's events move from memory to a temporary
# file mapped into memory (libtlv/src/bulk.c: past 16 MB of events, about
# 200,000 generated lines) and then grow there (the mapping is resized), is
# cut while its events are in the file, and is rotated and grows past that
# size again. This shell plays the writer, in phases, while the viewer runs
# under Xvfb with a script that, after each phase, waits until the log is
# read to its end and writes its trace and state:
#   1 60,000 lines             (in memory)
#   2 200,000 lines more       written while the viewer reads (to the file)
#   3 210,000 lines more       all at once (the viewer holds its reading): the
#                              file-backed events grow to over 1,100,000
#   4 cut to nothing, its writer starting again with 30,000 lines (memory)
#   5 rotated: renamed, a new file of 100,000 lines; the old one still written
#   6 150,000 lines more       (to the file again)
# After each phase the trace equals the one-shot conversion of the same bytes
# (live_oneshot, view_lib.sh) and dump-state's trace_file_backed says where
# the events are. Skips (77) without xvfb-run, jq or tlv-gen.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/view_lib.sh"
GEN="${TLV_GEN:-$(dirname "$TLV")/tlv-gen}"
[ -x "$GEN" ] || { echo "SKIP: tlv-gen not built"; exit 77; }

# The sample's resources and conversion rules, without visualization rules:
# the viewer rebuilds the shapes of a growing log at most every four times
# what the last rebuild cost (seconds at a million events), which would make
# this test wait most of its time; the shapes of a followed log whose events
# are in the file are test_view_soak.sh's burst.
RES="$TMP/big.res"
sed 's/"VisualizeRules" *:\[[^]]*\]/"VisualizeRules" :[]/' "$SRC/samples/asp/sample.res" >"$RES"
grep -q '"VisualizeRules" :\[\]' "$RES" || { echo "FAIL: no VisualizeRules in samples/asp/sample.res" >&2; exit 1; }
WAIT=600 # seconds a phase may take at most (bounds only: a loaded machine)
D="$TMP/big"
L="$D/live.log"
mkdir -p "$D"
"$GEN" --lines 470000 --seed 6 -o "$D/g.log"
head -n 60000 "$D/g.log" >"$D/g1.log"
sed -n '60001,260000p' "$D/g.log" >"$D/g2.log"
tail -n +260001 "$D/g.log" >"$D/g3.log"
"$GEN" --lines 30000 --seed 7 -o "$D/h.log"
"$GEN" --lines 250000 --seed 8 -o "$D/r.log"
head -n 100000 "$D/r.log" >"$D/r1.log"
tail -n +100001 "$D/r.log" >"$D/r2.log"

live_start 6 3 # phase 3's burst is all there at its next look

cat "$D/g1.log" >>"$L"
live_phase 1
for part in 1 2 3 4; do # in four writes, as the viewer reads
  sed -n "$((50000 * (part - 1) + 1)),$((50000 * part))p" "$D/g2.log" >>"$L"
done
live_phase 2
cat "$D/g3.log" >>"$L"
live_phase 3                                       # the burst
: >"$L"; cat "$D/h.log" >>"$L"                      # the writer starts again
live_phase 4
mv "$L" "$L.1"; cp "$D/r1.log" "$L.new"; mv "$L.new" "$L"; cat "$D/h.log" >>"$L.1"
live_phase 5                                       # rotated; the old file still grows
cat "$D/r2.log" >>"$L"
live_phase 6
wait "$pid"
status=$?
expect_status 0 "the viewer ran to the end of its script"

live_compare 1 2 3 4 5 6
# where the events were: dump-state's trace_file_backed (bytes in the file)
check "phase 1: 60,000 lines: the events in memory" '.[0].trace_file_backed == 0' "$D/d1.json"
check "phase 2: past 16 MB of events: in the file" \
  '.[0].events > 600000 and .[0].trace_file_backed >= 16777216' "$D/d2.json"
check "phase 3: the file grew with the burst" \
  '.[1].events > 1100000 and .[1].trace_file_backed > .[0].trace_file_backed' "$D/d2.json" "$D/d3.json"
check "phase 4: cut, read again: back in memory" \
  '(.[0].message | test("^the log got shorter \\(cut, or its writer started again\\): read again")) and
   .[0].trace_file_backed == 0' "$D/d4.json"
check "phase 5: rotated: the new file read" \
  '.[0].message | test("^the log was replaced \\(rotated\\): read again from its start")' "$D/d5.json"
check "phase 6: past 16 MB of events again: in the file" \
  '.[0].events > 600000 and .[0].trace_file_backed >= 16777216' "$D/d6.json"
finish
