#!/usr/bin/env bash
# test_verify.sh — tlv verify on the project's own samples, worst cases
# checked by hand against the logs:
#  - ASP (samples/asp/requirements.json): TASK2 ("task 3") is activated at
#    1092951 (line 18) and waits at 1312581: 219630 us > 200 ms, FAIL;
#    TASK1's longest, 376717 us, is within 400 ms, PASS; the timer handler's
#    longest run is 1639251 (line 264) to 1640947 (line 271): 1696 us; task
#    5 (MAIN_TASK) waits 1098366 (line 26) to 1382756 (line 130): 284390 us,
#    the longest wait; TASK3 ("task 4") is activated at 1095528 (line 21)
#    and first dispatched at 1468101: 372573 us, a p90 over 100 ms (it has
#    one wake-up); TASK1 is dispatched 7899 us after its activation.
#  - FMP: TASK1_1 runs 1857853 (line 357) to 1991870: 134017 us > 130 ms.
#  - Linux perf sched: make[7915] is woken at 1772.963273 (line 169) and
#    runs at 1772.991174: 27901 us > 20 ms.
# Exit statuses, -q, the JSON and JUnit files, and the errors of
# requirements files (FILE:LINE:COL) and of requirements the trace lacks.
. "$(dirname "$0")/lib.sh"

REQS="$SRC/samples/asp/requirements.json"
LOG="$SRC/samples/asp/sample.log"

expect_output() {
  checks=$((checks + 1))
  cmp -s "$TMP/out" "$TMP/expected" || fail "$1: output differs:$(echo; diff "$TMP/expected" "$TMP/out")"
}

# The bundled requirements, their resource file found through "ResourceFile".
run "$TLV" verify -q --junit "$TMP/junit.xml" --json "$TMP/v.json" "$REQS" "$LOG"
expect_status 1 "a requirement fails"
cat >"$TMP/expected" <<'OUT'
PASS  TASK1 completes within 400 ms: response max of TASK1 376717 us <= 400000 us; worst: TASK1 at 1090858 us, line 15; 0 of 3 instances over
FAIL  TASK2 completes within 200 ms: response max of TASK2 219630 us > 200000 us; worst: TASK2 at 1092951 us, line 18; 1 of 2 instances over
PASS  the timer handler returns within 2 ms: response max of INH_TIMER 1696 us <= 2000 us; worst: INH_TIMER at 1639251 us, line 264; 0 of 89 instances over
FAIL  tasks run within 100 ms of waking (p90): latency p90 of TASK3 372573 us > 100000 us; that instance: TASK3 at 1095528 us, line 21; 1 of 17 instances over (5 actors)
PASS  no task waits longer than 300 ms: state=WAITING for at most 284390 us <= 300000 us; longest: MAIN_TASK at 1098366 us, line 26; 0 of 18 intervals over
PASS  TASK1 is dispatched within 10 ms of activation: TASK1.activate() followed by TASK1.dispatch() within at most 7899 us <= 10000 us; slowest: TASK1 at 1090858 us, line 15; 0 of 1 over
PASS  no task is ever suspended: never state=SUSPENDED
OUT
expect_output "verify -q"

jq -c '[.passed, .failed]' "$TMP/v.json" >"$TMP/j1"
expect_line "$TMP/j1" '[5,2]' "JSON totals"
jq -c '.results[1] | [.name, .passed, .worst, .bound, .resource, .time, .line, .violationCount, .requirementLine]' "$TMP/v.json" >"$TMP/j2"
expect_line "$TMP/j2" '["TASK2 completes within 200 ms",false,219630,200000,"TASK2",1092951,18,1,6]' "JSON verdict"
jq -c '.results[1].violations[0]' "$TMP/v.json" >"$TMP/j3"
expect_line "$TMP/j3" '{"resource":"TASK2","start":1092951,"end":1312581,"line":18,"value":219630}' "JSON violation"
checks=$((checks + 1))
python3 - "$TMP/junit.xml" >"$TMP/junit.txt" <<'PY' || fail "the JUnit XML does not parse"
import sys, xml.etree.ElementTree as ET
suite = ET.parse(sys.argv[1]).getroot().find("testsuite")
print(suite.get("tests"), suite.get("failures"))
for case in suite.findall("testcase"):
    f = case.find("failure")
    print(case.get("classname"), case.get("name"), "FAIL" if f is not None else "PASS")
    if f is not None:
        print(" ", f.text.splitlines()[-1])
PY
expect_line "$TMP/junit.txt" "7 2" "JUnit totals"
expect_line "$TMP/junit.txt" "tlv.verify.response TASK2 completes within 200 ms FAIL" "JUnit failure"
expect_line "$TMP/junit.txt" "  TASK2 1092951..1312581 us line 18" "JUnit failure's detail"
expect_line "$TMP/junit.txt" "tlv.verify.never no task is ever suspended PASS" "JUnit pass"

# Without -q: the violations under each failure, and the totals.
run "$TLV" verify "$REQS" "$LOG"
expect_status 1 "verify"
expect_line "$TMP/out" "      TASK3 1095528..1468101 us (line 21)" "a violation listed"
expect_line "$TMP/out" "7 requirements: 5 passed, 2 failed" "the totals"

# Every requirement passing: exit 0; --json - instead of the text.
cat >"$TMP/pass.json" <<EOF
{"ResourceFile": "$SRC/samples/asp/sample.res",
 "Requirements": {"TASK1": {"Check": "response", "Resource": "TASK1", "Max": "0.4 s"}}}
EOF
run "$TLV" verify --json - "$TMP/pass.json" "$LOG"
expect_status 0 "every requirement passes"
jq -c '[.passed, .failed, .results[0].worst]' "$TMP/out" >"$TMP/j4"
expect_line "$TMP/j4" '[1,0,376717]' "--json -"

# FMP and Linux, with -r.
cat >"$TMP/fmp.json" <<'EOF'
{"Requirements": {"TASK1_1 within 130 ms": {"Check": "response", "Resource": "TASK1_1", "Max": "130 ms"}}}
EOF
run "$TLV" verify -q -r "$SRC/samples/fmp/sample.res" "$TMP/fmp.json" "$SRC/samples/fmp/sample.log"
expect_status 1 "FMP"
expect_line "$TMP/out" "FAIL  TASK1_1 within 130 ms: response max of TASK1_1 134017 us > 130000 us; worst: TASK1_1 at 1857853 us, line 357; 1 of 2 instances over" "FMP worst case"
cat >"$TMP/linux.json" <<'EOF'
{"Requirements": {"make runs within 20 ms": {"Check": "latency", "Resource": "T7915", "Max": "20 ms"}}}
EOF
run "$TLV" verify -q -r linux_sched.res "$TMP/linux.json" "$SRC/samples/linux/sched/make.log"
expect_status 1 "Linux"
expect_line "$TMP/out" "FAIL  make runs within 20 ms: latency max of make[7915] 27901 us > 20000 us; worst: make[7915] at 1772963273 us, line 169; 1 of 10 instances over" "Linux worst case"

# Errors in the requirements file: each at its line and column, exit 2.
cat >"$TMP/bad.json" <<'EOF'
{"Requirements": {
  "a": {"Check": "response", "Resource": "TASK1", "Max": "4 mss"},
  "b": {"Check": "cpu", "Window": "10 ms", "Max": "80%", "Procesor": "1"}
}}
EOF
run "$TLV" verify -r "$SRC/samples/asp/sample.res" "$TMP/bad.json" "$LOG"
expect_status 2 "a bad requirements file"
expect_line "$TMP/err" "$TMP/bad.json:2:61: error: requirement 'a': \"Max\": '4 mss' is not a duration (a number in the trace's TimeScale, or a number and a unit: s, ms, us, ns)" "a bad duration"
expect_line "$TMP/err" "$TMP/bad.json:3:58: error: requirement 'b': unknown member 'Procesor' for a cpu check (it takes: Processor Window Max)" "a misspelt member"
cat >"$TMP/unknown.json" <<'EOF'
{"Requirements": {"x": {"Check": "response", "Resource": "TASK9", "Max": 5}}}
EOF
run "$TLV" verify -r "$SRC/samples/asp/sample.res" "$TMP/unknown.json" "$LOG"
expect_status 2 "a resource the trace lacks"
expect_line "$TMP/err" "$TMP/unknown.json:1:59: error: requirement 'x': the trace has no resource or type 'TASK9'" "an unknown resource"

# Usage: no resource file, no log.
cat >"$TMP/nores.json" <<'EOF'
{"Requirements": {"x": {"Check": "response", "Max": 5}}}
EOF
run "$TLV" verify "$TMP/nores.json" "$LOG"
expect_status 2 "no resource file"
expect_contains "$TMP/err" "a resource file is needed: -r FILE.res, or \"ResourceFile\" in" "no resource file"
run "$TLV" verify "$REQS"
expect_status 2 "no log"
expect_contains "$TMP/err" "give a requirements file and a log" "no log"

finish
