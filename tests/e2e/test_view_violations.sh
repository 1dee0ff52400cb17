#!/usr/bin/env bash
# test_view_violations.sh — `tlv view --requirements FILE` (issue 28.3):
# the violations of the failed requirements as red markers named after
# their requirement, in the marker layer "violations", at the times tlv
# verify gives (samples/asp/requirements.json: TASK2's response at 1092951
# us, line 18, and TASK3's scheduling latency at 1095528 us, line 21); the
# status line counts them; the file's ResourceFile is the default -r; a
# session that kept the layer does not double it; a file with an error is
# refused before any window with its file, line and column, and a
# requirement the trace cannot answer is said in the status line. Skips
# (77) without xvfb-run or jq.
. "$(dirname "$0")/lib.sh"

REQS="$SRC/samples/asp/requirements.json"
LOG="$SRC/samples/asp/sample.log"

run "$TLV" view --help
expect_status 0 "view --help"
expect_contains "$TMP/out" "--requirements FILE   check the timing requirements" "help: --requirements"

# A wrong file: refused before the window opens (no display needed).
printf '{"Requirements": {\n  "r1": {"Check": "respons", "Resource": "TASK1", "Max": "1 ms"}\n}}\n' \
  >"$TMP/bad.json"
run "$TLV" view --requirements "$TMP/bad.json" "$LOG"
expect_status 2 "a wrong requirements file"
expect_line "$TMP/err" "$TMP/bad.json:2:19: error: requirement 'r1': \"Check\" must be one of response, latency, state, cpu, followed, never; found respons" "its error names file, line and column"
run "$TLV" view --requirements "$TMP/missing.json" "$LOG"
expect_status 2 "a missing requirements file"
expect_line "$TMP/err" "$TMP/missing.json: error: cannot read the requirements: No such file or directory" "a missing file is said"

. "$(dirname "$0")/view_lib.sh"
CHECK_SHOW='[.[] | {markers, message}]'

# The expected markers, from tlv verify's JSON: each violation's start.
"$TLV" verify -q --json "$TMP/verify.json" "$REQS" "$LOG" >/dev/null 2>&1
cat >"$TMP/s.txt" <<EOF
dump-state $TMP/s0.json
EOF
view --requirements "$REQS" --session "$TMP/session.json" --size 1000x600 --script "$TMP/s.txt" "$LOG"
expect_status 0 "view --requirements (its ResourceFile as -r)"
check "each violation is a red marker named after its requirement, in the layer 'violations'" \
  '.[0].markers == [
     {name: "TASK2 completes within 200 ms", time: 1092951, color: "e02020", layer: "violations"},
     {name: "tasks run within 100 ms of waking (p90)", time: 1095528, color: "e02020", layer: "violations"}]' \
  "$TMP/s0.json"
check "the status line counts them" \
  '.[0].message == "requirements: 2 of 7 failed; 2 violations in the marker layer '"'"'violations'"'"' (Shift+M lists them)"' \
  "$TMP/s0.json"
check "the markers are at the violations' starts that tlv verify --json gives" \
  '[.[0].markers[].time] == [.[1] | .. | objects | .violations? // empty | .[].start]' \
  "$TMP/s0.json" "$TMP/verify.json"

# Again with the session that kept them: the layer replaced, not doubled;
# a marker of the user's own stays.
cat >"$TMP/s1.txt" <<EOF
dump-state $TMP/s1.json
EOF
view --requirements "$REQS" --session "$TMP/session.json" --size 1000x600 --script "$TMP/s1.txt" "$LOG"
expect_status 0 "view --requirements with its session"
check "a session that kept the layer does not double it" \
  '[.[0].markers[] | select(.layer == "violations")] | length == 2' "$TMP/s1.json"

# A requirement the trace cannot answer: the status line says where.
printf '{"Requirements": {\n  "r1": {"Check": "response", "Resource": "TASK9", "Max": "1 ms"}\n}}\n' \
  >"$TMP/nores.json"
view --requirements "$TMP/nores.json" -r "$SRC/samples/asp/sample.res" --no-session --size 1000x600 \
  --script "$TMP/s.txt" "$LOG"
expect_status 0 "a requirement the trace cannot answer"
check "the status line names its file, line and column" \
  '.[0].message == "requirements: '"$TMP"'/nores.json:2:44: error: requirement '"'"'r1'"'"': the trace has no resource or type '"'"'TASK9'"'"'" and .[0].markers == []' \
  "$TMP/s0.json"

finish
