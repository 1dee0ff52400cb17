# Times a person can read (issue 27.6) and long calls that keep their
# labels (27.7), on the Linux samples, through what tlv render (--texts)
# and tlv view (dump-state) report:
#   - strace -ttt times are wall-clock: the ruler reads from the trace's
#     start ("0 ms", "100 ms"), the start is given once as a date and time,
#     and tooltips, details, the log panel, search results and the go-to
#     prompt count from the start; t (--absolute-times) shows the epoch;
#   - view and render draw the same ticks and reference for the same range
#     and width, on both axes;
#   - perf sched times (since boot) are a clock's: from the start, the
#     start as the clock read it; TOPPERS times stay as they are;
#   - make's main thread, dense with short calls, keeps the label of its
#     long wait4 in the whole-trace view at 700x450.
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || { echo "SKIP: jq not installed (scripts/setup.sh installs it)"; exit 77; }
MAKE="$SRC/samples/linux/strace/make.log"

# ---- tlv render: the ruler from the start, the epoch on request, the long call's label ----
run "$TLV" render -q -r linux_strace.res -o "$TMP/make.png" --texts "$TMP/r1.json" --size 700x450 "$MAKE"
expect_status 0 "render with --texts"
jq -c '.ticks, .time_reference' "$TMP/r1.json" >"$TMP/r1.txt"
expect_line "$TMP/r1.txt" '["0 ms","100 ms","200 ms","300 ms"]' "ticks from the trace's start"
expect_line "$TMP/r1.txt" 'null' "no reference: the ticks say it all"
# the main thread's row (the first band, y 24..45): its 302 ms wait4 keeps its name
jq -r '.labels[] | select(.y < 45) | .text' "$TMP/r1.json" >"$TMP/r1.labels"
expect_grep "$TMP/r1.labels" "^wait4(-1, " "the long call's label in a dense row (cut to the width: fonts differ)"
expect_line "$TMP/r1.labels" "+process 7488" "the spawn's label in a dense row"
run "$TLV" render -q --absolute-times -r linux_strace.res -o "$TMP/abs.png" --texts "$TMP/r2.json" \
  --size 700x450 "$MAKE"
expect_status 0 "render --absolute-times"
jq -c '.ticks, .time_reference' "$TMP/r2.json" >"$TMP/r2.txt"
expect_line "$TMP/r2.txt" '["+88.4 s","+88.5 s","+88.6 s"]' "absolute ticks, offsets from the reference"
expect_line "$TMP/r2.txt" '"1795614900 s"' "the epoch's reference"
run "$TLV" render -q -r linux_strace.res -o "$TMP/x.png" --texts "$TMP/nodir/t.json" --size 700x450 "$MAKE"
expect_status 2 "--texts into a missing directory"
expect_contains "$TMP/err" "$TMP/nodir/t.json" "names the file"

# ---- tlv view: the same ticks, the start's date, times from the start everywhere ----
. "$(dirname "$0")/view_lib.sh"
cat >"$TMP/s1.txt" <<EOF
wait 2
move-row 1795614988443980 as[7509]
wait 1
dump-state $TMP/v1.json
key t
wait 1
dump-state $TMP/v2.json
key t
click-row 1795614988443980 as[7509]
wait 1
screenshot $TMP/v4.png
dump-state $TMP/v4.json
key l
key g
text 100 ms 150ms
key Return
wait 1
dump-state $TMP/v3.json
key /
text openat
key Return
wait 1
dump-state $TMP/v6.json
key g
text 2000
key Return
wait 1
dump-state $TMP/v5.json
EOF
view -r linux_strace.res --no-session --size 700x450 --script "$TMP/s1.txt" "$MAKE"
expect_status 0 "view of make.log"
check "a wall-clock trace, its origin and its start as a date" \
  '.[0] | .time_mode == "wall-clock" and .time_origin == "1795614988257332" and
   .time_start == "start 2026-11-25 13:56:28.257332 UTC" and .time_axis == "start"' "$TMP/v1.json"
check "ticks from the start" '.[0].ticks == ["0 ms","100 ms","200 ms","300 ms"] and .[0].time_reference == null' \
  "$TMP/v1.json"
check "the tooltip's times from the start (raw log: .443979 and .443985, start .257332)" \
  '.[0].tooltip | .start == "186.647 ms" and .end == "186.653 ms" and .duration == "6 us"' "$TMP/v1.json"
check "t: absolute times" \
  '.[0] | .time_axis == "absolute" and .ticks == ["+88.4 s","+88.5 s","+88.6 s"] and
   .time_reference == "1795614900 s" and .tooltip.start == "1795614988443979 us"' "$TMP/v2.json"
# view and render agree on the same range at the same width
for k in 1 2; do
  abs=""
  [ "$k" = 2 ] && abs=--absolute-times
  read -r t0 t1 w <<<"$(jq -r '"\(.visible.t0) \(.visible.t1) \(.layout.pixel_width)"' "$TMP/v$k.json")"
  # shellcheck disable=SC2086
  run "$TLV" render -q $abs -r linux_strace.res -o "$TMP/same.png" --texts "$TMP/same$k.json" \
    --size "${w}x300" --from "$t0" --to "$t1" "$MAKE"
  expect_status 0 "render of the view's range"
  check "view and render: the same ticks and reference ($k)" \
    '.[0].ticks == .[1].ticks and .[0].time_reference == .[1].time_reference' "$TMP/v$k.json" "$TMP/same$k.json"
done
check "g takes times from the start" \
  '.[0].visible == {"t0": 1795614988357332, "t1": 1795614988407332}' "$TMP/v3.json"
check "the search's match from the start, the first after the view's start (raw log line 1339: openat at .362352)" \
  '.[0].search | .index == 189 and .text == "[105.02 ms] T7489.enter(openat,AT_FDCWD, \"/etc/ld.so.cache\", O_RDONLY|O_CLOEXEC,/etc/ld.so.cache,,,O_RDONLY|O_CLOEXEC)"' "$TMP/v6.json"
check "the log panel's lines from the start (raw log: exit_group returns at .351689)" \
  '.[0].log.lines[0] == "[94.357 ms]T7488.leave(exit_group,?,,ok,,)"' "$TMP/v3.json"
check "the details' times from the start, and the wall clock's" \
  '.[0].details | .start_text == "186.647 ms" and .end_text == "186.653 ms" and
   .start_other == "2026-11-25 13:56:28.443979 UTC"' "$TMP/v4.json"
check "a number without a unit counts trace units from the start" \
  '.[0].message | startswith("expected START END in times from the trace'"'"'s start, e.g. 0 s 378.744 ms")' \
  "$TMP/v5.json"

# ---- perf sched: times since boot, a clock's ----
cat >"$TMP/s2.txt" <<EOF
wait 2
dump-state $TMP/p1.json
EOF
view -r linux_sched.res --no-session --size 700x450 --script "$TMP/s2.txt" "$SRC/samples/linux/sched/xz.log"
expect_status 0 "view of a perf sched recording"
check "a clock trace: from the start, the start as the clock read it (raw log: the first event, sched_waking at 1770.951263; the stat line before it makes none)" \
  '.[0] | .time_mode == "clock" and .time_start == "start 1770.951263 s" and .time_axis == "start" and
   .ticks[0] == "0 ms"' "$TMP/p1.json"

# ---- TOPPERS: as before ----
view -r "$SRC/samples/asp/sample.res" --no-session --size 700x450 --script "$TMP/s2.txt" "$SRC/samples/asp/sample.log"
expect_status 0 "view of a TOPPERS trace"
check "a plain trace: absolute times, no start date" \
  '.[0] | .time_mode == "plain" and .time_start == "" and .time_axis == "absolute"' "$TMP/p1.json"
run "$TLV" render -q -r "$SRC/samples/asp/sample.res" -o "$TMP/asp.png" --texts "$TMP/asp.json" \
  --size "700x300" --from "$(jq -r .visible.t0 "$TMP/p1.json")" --to "$(jq -r .visible.t1 "$TMP/p1.json")" \
  "$SRC/samples/asp/sample.log"
check "TOPPERS: view and render agree" '.[0].ticks == .[1].ticks and .[0].time_reference == .[1].time_reference' \
  "$TMP/p1.json" "$TMP/asp.json"
finish
