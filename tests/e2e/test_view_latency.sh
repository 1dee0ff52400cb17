#!/usr/bin/env bash
# test_view_latency.sh — the latency panel of `tlv view` (issue 28.2), under
# Xvfb, driven by --script like a person, on samples/asp: p opens it on the
# first actor with response instances (LOGTASK: 8, p50 4.33 ms, max 5.13 ms,
# one partial); a click on TASK1's response line shows its histogram (3
# instances: 54.232, 295.901 and 376.717 ms, one bar each on a linear
# scale); a click on the last bar lists its instance (line 15, 1090858 us);
# a click on it zooms the timeline to it and selects its first shape, and
# the details panel shows its response (376.717 ms), execution (208.322 ms)
# and preemptions (3). The response and preemptions are checked by hand
# against the log: task 2 (TASK1) becomes RUNNABLE at line 15 (1090858 us)
# and WAITING at line 172 (1467575 us), and loses the processor while ready
# at 1166285 (rot_rdq), 1383344 and 1410010; the execution time is the
# instance table's (tlv export --format sqlite), the dispatches' 213.937 ms
# less the time others ran over it;
# Shift+P goes to TASK2's worst instance (219.630 ms, line 18); a log whose
# response times span three decades gets a log-scale histogram; the session
# keeps the panel and its actor. Asserts on dump-state and screenshots'
# pixels. Skips (77) without xvfb-run or jq.
. "$(dirname "$0")/lib.sh"

run "$TLV" view --help
expect_status 0 "view --help"
expect_contains "$TMP/out" "Latency: p shows the latency panel" "help: p"
expect_contains "$TMP/out" "Shift+P goes to the shown" "help: Shift+P"

. "$(dirname "$0")/view_lib.sh"
CHECK_SHOW='[.[] | {latency_panel, details: (.details // {} | {resource, start, instance}), visible, message}]'
RES="$SRC/samples/asp/sample.res"
LOG="$SRC/samples/asp/sample.log"
D="$TMP/asp"
mkdir -p "$D"
# q FILE FILTER: one value from a state file.
q() { jq -r "$2" "$1"; }
# count PNG X0 Y0 X1 Y1 COLOR: pixels of COLOR in the rectangle.
count() { "$PROBE" "$1" count "$2" "$3" "$4" "$5" "$6"; }

# 1. The panel opens on LOGTASK's response times.
cat >"$D/s0.txt" <<EOF
dump-state $D/s0.json
key p
dump-state $D/s1.json
screenshot $D/s1.png
EOF
view -r "$RES" --no-session --size 1920x1080 --script "$D/s0.txt" "$LOG"
expect_status 0 "open the panel"
check "closed at first, p opens it" '(.[0].latency_panel.shown | not) and .[1].latency_panel.shown' \
  "$D/s0.json" "$D/s1.json"
check "it shows LOGTASK's response times: 8 instances, 1 partial, p50 4330, p90 p99 max 5130 us" \
  '.[0].latency_panel.group == {resource: "LOGTASK", kind: "response", name: "", count: 8, partial: 1,
     p50: 4330, p90: 5130, p99: 5130, max: 5130, worst: .[0].latency_panel.group.worst} and
   (.[0].latency_panel.log_scale | not) and .[0].latency_panel.bucket == -1 and
   ([.[0].latency_panel.buckets[].count] | add) == 8 and
   .[0].latency_panel.buckets[0].lo == 2082 and .[0].latency_panel.buckets[-1].hi == 5130' "$D/s1.json"
check "the list: TASK1's response line with its percentiles (54.232 to 376.717 ms)" \
  '[.[0].latency_panel.groups[] | select(.resource == "TASK1" and .kind == "response")][0] |
   .count == 3 and .p50 == 295901 and .p90 == 376717 and .p99 == 376717 and .max == 376717' "$D/s1.json"
# The histogram's bars are drawn (the bar colour in the panel's middle column).
b0x=$(q "$D/s1.json" '.latency_panel.buckets[0].x | floor')
bny=$(q "$D/s1.json" '.latency_panel.buckets[0].y | floor')
expect_count "LOGTASK's first bar is drawn" "$D/s1.png" $((b0x - 5)) $((bny - 40)) $((b0x + 5)) $((bny + 40)) 1F8A8A 40

# 2. TASK1's line, its last bar, its instance.
lx=$(q "$D/s1.json" '[.latency_panel.groups[] | select(.resource == "TASK1" and .kind == "response")][0].x')
ly=$(q "$D/s1.json" '[.latency_panel.groups[] | select(.resource == "TASK1" and .kind == "response")][0].y')
bx=$(q "$D/s1.json" '.latency_panel.buckets[-1].x')
by=$(q "$D/s1.json" '.latency_panel.buckets[-1].y')
cat >"$D/s2.txt" <<EOF
key p
click $lx $ly
dump-state $D/s2.json
click $bx $by
dump-state $D/s3.json
EOF
view -r "$RES" --no-session --size 1920x1080 --script "$D/s2.txt" "$LOG"
expect_status 0 "TASK1's bar"
check "a click on TASK1's line shows its histogram: one instance in the first, ninth and last bars" \
  '.[0].latency_panel.group.resource == "TASK1" and .[0].latency_panel.group.kind == "response" and
   ([.[0].latency_panel.buckets[].count] == [1,0,0,0,0,0,0,0,1,0,0,1]) and
   .[0].latency_panel.buckets[0].lo == 54232 and .[0].latency_panel.buckets[-1].hi == 376717 and
   (.[0].latency_panel.log_scale | not)' "$D/s2.json"
check "a click on the last bar lists its one instance: line 15, at 1090858 us, 376717 us" \
  '.[0].latency_panel.bucket == 11 and .[0].latency_panel.listed == 1 and
   (.[0].latency_panel.instances | map({start, response, start_line})) ==
     [{start: 1090858, response: 376717, start_line: 15}]' "$D/s3.json"

ix=$(q "$D/s3.json" '.latency_panel.instances[0].x')
iy=$(q "$D/s3.json" '.latency_panel.instances[0].y')
cat >"$D/s4.txt" <<EOF
key p
click $lx $ly
click $bx $by
click $ix $iy
dump-state $D/s4.json
screenshot $D/s4.png
EOF
view -r "$RES" --no-session --size 1920x1080 --script "$D/s4.txt" "$LOG"
expect_status 0 "TASK1's instance"
check "a click on the instance zooms the timeline to it (1090858 to 1467575 us in view)" \
  '.[0].visible.t0 < 1090858 and .[0].visible.t1 > 1467575 and
   (.[0].visible.t1 - .[0].visible.t0) < 376717 * 1.5 and .[0].latency_panel.selected >= 0' "$D/s4.json"
check "and selects the shape that begins it; the details show the instance: 376717, exec 208322, 3 preemptions" \
  '.[0].details.resource == "TASK1" and .[0].details.start == 1090858 and .[0].details.value == "RUNNABLE" and
   .[0].details.instance == {kind: "response", start: 1090858, response: 376717, execution: 208322,
     preemptions: 3}' "$D/s4.json"
check "the status line names it" '.[0].message == "TASK1 response instance at line 15: 376.717 ms"' "$D/s4.json"
expect_count "the selected bar is drawn orange" "$D/s4.png" $((${bx%.*} - 5)) $((${by%.*} - 40)) \
  $((${bx%.*} + 5)) $((${by%.*} + 40)) FF7A00 100

# 3. Shift+P: TASK2's worst instance, from its line (the wheel scrolls the
# list down to it: 3 notches, 9 lines).
cat >"$D/s4b.txt" <<EOF
key p
wheel -3 $lx $ly
dump-state $D/s4b.json
EOF
view -r "$RES" --no-session --size 1920x1080 --script "$D/s4b.txt" "$LOG"
expect_status 0 "the wheel"
check "the wheel scrolls the list by 9 lines: TASK2's response line comes in sight" \
  '.[0].latency_panel.groups[0].resource == "TASK1" and .[0].latency_panel.groups[0].kind == "call" and
   .[0].latency_panel.groups[0].name == "ena_tex" and
   ([.[0].latency_panel.groups[] | select(.resource == "TASK2" and .kind == "response")] | length) == 1' \
  "$D/s4b.json"
t2x=$(q "$D/s4b.json" '[.latency_panel.groups[] | select(.resource == "TASK2" and .kind == "response")][0].x')
t2y=$(q "$D/s4b.json" '[.latency_panel.groups[] | select(.resource == "TASK2" and .kind == "response")][0].y')
cat >"$D/s5.txt" <<EOF
key p
wheel -3 $lx $ly
click $t2x $t2y
key shift+p
dump-state $D/s5.json
key p
dump-state $D/s6.json
EOF
view -r "$RES" --session "$D/session.json" --size 1920x1080 --script "$D/s5.txt" "$LOG"
expect_status 0 "Shift+P"
check "Shift+P selects TASK2's worst instance (219630 us from line 18) and lists its bar" \
  '.[0].latency_panel.group.resource == "TASK2" and .[0].latency_panel.selected == .[0].latency_panel.group.worst and
   .[0].latency_panel.bucket == 11 and (.[0].latency_panel.instances | map({start, response, start_line})) ==
     [{start: 1092951, response: 219630, start_line: 18}] and
   .[0].details.resource == "TASK2" and .[0].details.instance == {kind: "response", start: 1092951,
     response: 219630, execution: 136134, preemptions: 2} and
   .[0].message == "TASK2 response instance at line 18: 219.63 ms"' "$D/s5.json"
check "p closes it" '(.[0].latency_panel.shown | not)' "$D/s6.json"
# The session keeps the actor (the panel closed); p shows TASK2 again.
cat >"$D/s7.txt" <<EOF
dump-state $D/s7.json
key p
dump-state $D/s8.json
EOF
view -r "$RES" --session "$D/session.json" --size 1920x1080 --script "$D/s7.txt" "$LOG"
expect_status 0 "session"
check "the session keeps the panel closed and its actor" \
  '(.[0].latency_panel.shown | not) and .[1].latency_panel.group.resource == "TASK2"' \
  "$D/s7.json" "$D/s8.json"

# 4. Response times over three decades: a log scale.
cat >"$D/decades.log" <<'EOF'
[1000] task 2 becomes RUNNABLE.
[1010] dispatch to task 2.
[1100] task 2 becomes WAITING.
[2000] task 2 becomes RUNNABLE.
[2010] dispatch to task 2.
[3000] task 2 becomes WAITING.
[10000] task 2 becomes RUNNABLE.
[10010] dispatch to task 2.
[110000] task 2 becomes WAITING.
[200000] task 2 becomes RUNNABLE.
[200010] dispatch to task 2.
[200500] task 2 becomes WAITING.
EOF
cat >"$D/s9.txt" <<EOF
key p
dump-state $D/s9.json
EOF
view -r "$RES" --no-session --size 700x450 --script "$D/s9.txt" "$D/decades.log"
expect_status 0 "log scale"
check "100 us to 100 ms: a log-scale histogram (its middle edge at 100 * sqrt(1000) us)" \
  '.[0].latency_panel.log_scale and .[0].latency_panel.group.count == 4 and
   .[0].latency_panel.buckets[0].lo == 100 and .[0].latency_panel.buckets[-1].hi == 100000 and
   ((.[0].latency_panel.buckets[6].lo - 3162.2777) | abs) < 0.001 and
   .[0].latency_panel.buckets[0].count == 1 and .[0].latency_panel.buckets[-1].count == 1 and
   .[0].latency_panel.buckets[2].count == 1 and ([.[0].latency_panel.buckets[].count] | add) == 4' "$D/s9.json"

finish
