#!/usr/bin/env bash
# ctest-label: slow
# test_view_soak.sh — `tlv view` following a log whose writer misbehaves:
# this shell plays the writer, in phases, while the viewer runs under Xvfb
# with a script that, after each phase, waits until the log is read to its
# end (wait-live-idle) and writes its trace (write-trace) and state. Phases:
#   1 a log written          2 ... that stops in the middle of a line
#   3 ... and goes on        4 cut to nothing, its writer starting again
#   5 rewritten in place     6 rotated (renamed, a new file created; the old
#     (no shorter on disk)     one still written to)
#   7 a burst of BURST MB    8 its writer dies in the middle of a line
# After each phase the trace equals the one-shot conversion of the same
# bytes: the file the log's path names at that moment, from its start
# (`tlv convert` of a copy, sorted into the trace's (time, line) order) —
# no event twice, none missing, none out of order — and the status line
# says what happened. BURST is TLV_SOAK_BURST_MB (default 12, 10 in the
# sanitizer build; the 100 MB of issue 19 with TLV_SOAK_BURST_MB=100); the
# viewer holds its reading (live-hold) while the burst is written, so that
# it meets all of it at once. Skips (77) without xvfb-run, jq or
# tlv-gen.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/view_lib.sh"
GEN="$(dirname "$TLV")/tlv-gen"
[ -x "$GEN" ] || { echo "SKIP: tlv-gen not built"; exit 77; }

RES="$SRC/samples/asp/sample.res"
# (more than the 8 MB the viewer reads per frame, so that it falls behind)
BURST_MB=${TLV_SOAK_BURST_MB:-12}
[ "${TLV_SANITIZE:-0}" = 1 ] && BURST_MB=${TLV_SOAK_BURST_MB:-10} # 3 times slower
WAIT=$((180 + 15 * BURST_MB)) # seconds a phase may take at most (a loaded machine)
D="$TMP/soak"
L="$D/live.log"
mkdir -p "$D"
"$GEN" --lines 10000 --seed 1 -o "$D/a.log"
"$GEN" --lines 3000 --seed 2 -o "$D/b.log"
"$GEN" --lines 12000 --seed 3 -o "$D/c.log"
"$GEN" --lines 4000 --seed 4 -o "$D/d.log"
"$GEN" --lines $((BURST_MB * 1000000 / 36)) --seed 5 -o "$D/e.log"
# Phase 2 stops inside a line that converts as it is, to another event
# ("dlytim=1" for "dlytim=10"): shown so while the writer waits, and
# corrected when it goes on.
cut_line=$(grep -n "enter to dly_tsk dlytim=10\.$" "$D/a.log" | sed -n '5s/:.*//p')
head -n $((cut_line - 1)) "$D/a.log" >"$D/a1.log"
sed -n "${cut_line}p" "$D/a.log" | head -c -3 >"$D/a2.part"    # "... dlytim=1"
tail -n +"$cut_line" "$D/a.log" | tail -c +"$(($(wc -c <"$D/a2.part") + 1))" >"$D/a3.part"

# (WAIT bounds only: a rebuild of the shapes waits 4 times the last one's
# cost, which after the burst is seconds on a loaded machine)
live_start 8 7 "screenshot $D/final.png" # phase 7's burst is all there at its next look

cat "$D/a1.log" >>"$L"
live_phase 1
cat "$D/a2.part" >>"$L"
live_phase 2                                       # the viewer waits a second for the line's end
cat "$D/a3.part" >>"$L"
live_phase 3
: >"$L"; cat "$D/b.log" >>"$L"                      # the writer starts again
live_phase 4
python3 -c 'import sys; f = open(sys.argv[1], "r+b"); f.write(open(sys.argv[2], "rb").read())' "$L" "$D/c.log"
live_phase 5                                       # rewritten from its start, longer
mv "$L" "$L.1"; cp "$D/d.log" "$L.new"; mv "$L.new" "$L"; cat "$D/b.log" >>"$L.1"
live_phase 6                                       # rotated; the old file still grows
start=$(date +%s%N)
cat "$D/e.log" >>"$L"
live_phase 7                                       # a burst
burst_ms=$((($(date +%s%N) - start) / 1000000))
printf '[99999999] enter to dly_tsk dlyt' >>"$L"
live_phase 8                                       # the writer dies mid-line
wait "$pid"
status=$?
expect_status 0 "soak: the viewer ran to the end of its script"

live_compare 1 2 3 4 5 6 7 8
check "phase 2: the unfinished line shown as it is" \
  '.[0].message == "the last line of the log has no end (yet): shown as it is"' "$D/d2.json"
cut_time=$(sed 's/^\[\([0-9]*\)\].*/\1/' "$D/a2.part")
checks=$((checks + 1))
grep -q "^\[$cut_time\].*dlytim=1)$" "$D/t2.txt" && ! grep -q "^\[$cut_time\].*dlytim=1)$" "$D/t3.txt" &&
  grep -q "^\[$cut_time\].*dlytim=10)$" "$D/t3.txt" ||
  fail "phase 2/3: the cut line not shown as it was, or not corrected"
check "phase 3: the line went on: read again" \
  '.[0].message | test("^the unfinished last line went on: read again from its start \\([0-9]+ events\\)$")' "$D/d3.json"
check "phase 4: cut, the writer started again: read again" \
  '.[0].message | test("^the log got shorter \\(cut, or its writer started again\\): read again")' "$D/d4.json"
check "phase 5: rewritten in place: read again" \
  '.[0].message | test("^the log was (rewritten|got shorter .*): read again")' "$D/d5.json"
check "phase 6: rotated: the new file read" \
  '.[0].message | test("^the log was replaced \\(rotated\\): read again from its start")' "$D/d6.json"
check "phase 7: the burst read, caught up" \
  '.[0].message | test("^caught up with the log \\([0-9]+ events\\)$")' "$D/d7.json"
check "phase 8: the writer died mid-line: the line shown as it is" \
  '.[0].message == "the last line of the log has no end (yet): shown as it is" and .[0].live' "$D/d8.json"
echo "soak: a burst of $BURST_MB MB read and shown in $burst_ms ms"
[ -n "${TLV_KEEP_SHOTS:-}" ] && cp "$D/final.png" "$TLV_KEEP_SHOTS/soak-final.png"
finish
