#!/usr/bin/env bash
# bench_load.sh [BUILD_DIR] — how fast rule and resource files load at scale
# (issue 32.1: the duplicate-key check scanned every later sibling of each
# member, so 100,000 resources took 64 s and 1,000,000 hours).
#
# Generates a resource file of 1,000,000 resources (about 54 MB, under the
# 64 MB limit) and one of 100,000, and a .cnv target of 100,000 rules and one
# of 10,000, then times (CPU seconds, best of $BENCH_RUNS, default 3):
#   python3 json.load of the resource file   (the floor: reading the JSON)
#   BUILD_DIR/tlv check -R DIR -r RES         (reading and checking it all)
#   BUILD_DIR/tlv convert of a 3-line log with the 100,000 rules
#                                             (compiling every regex)
#   BUILD_DIR/tlv shapes of a 4-line trace with 100,000 visualization rules
#                       and as many shapes, and with 10,000 (a scan per rule,
#                       shape and figure made 100,000 take 37 s and more)
# and prints the goals, as ratios measured in the same run:
#   1,000,000 resources load in <= 5 s of CPU
#   100,000 rules load and convert in <= 5 s of CPU
#   100,000 visualization rules and shapes load and draw in <= 5 s of CPU
#   time(1M resources) / (10 x time(100k)) <= 1.5, time(100k rules) /
#   (10 x time(10k rules)) <= 1.5: the cost grows about linearly (n log n)
#   and, for information, tlv check / python3 json.load on the same file.
# Exit: 0 all goals pass, 1 a goal failed, 2 cannot run.
set -euo pipefail
export LC_ALL=C

build=${1:-./build}
runs=${BENCH_RUNS:-3}
die() { echo "bench_load: $*" >&2; exit 2; }
[ -x "$build/tlv" ] || die "no $build/tlv (configure and build first, or pass BUILD_DIR)"
tlv=$(cd "$build" && pwd)/tlv
command -v python3 >/dev/null || die "python3 not found"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
cd "$tmp"

cat >k.resh <<'JSON'
{"k":{"Task":{"Attributes":{"id":{"VariableType":"Number","AllocationType":"Static"},
  "state":{"VariableType":"String","AllocationType":"Dynamic","Default":"IDLE"}}}}}
JSON
# resources N FILE: a resource file of N tasks using the rules of target k.
resources() {
  awk -v n="$1" 'BEGIN {
    print "{\"TimeScale\":\"ms\",\"ConvertRules\":[\"k\"],\"ResourceHeaders\":[\"k\"],\"Resources\":{"
    for (i = 1; i <= n; i++)
      printf "%s\"TASK%d\":{\"Type\":\"Task\",\"Attributes\":{\"id\":%d}}\n", (i > 1 ? "," : ""), i, i
    print "}}" }' >"$2"
}
# rules N DIR: a rule directory whose target k has N rules.
rules() {
  mkdir -p "$2"
  cp k.resh "$2/"
  awk -v n="$1" 'BEGIN {
    print "{\"k\":{"
    for (i = 0; i < n; i++)
      printf "%s\"^(?<t>\\\\d+) ev%d (?<id>\\\\d+)$\":\"[${t}]TASK${id}.state=S%d\"\n", (i ? "," : ""), i, i
    print "}}" }' >"$2/k.cnv"
  printf '{"TimeScale":"ms","ConvertRules":["k"],"ResourceHeaders":["k"],"Resources":{"TASK1":{"Type":"Task","Attributes":{"id":1}}}}\n' >"$2/k.res"
}
resources 1000000 big.res
resources 100000 small.res
cat >k.cnv <<'JSON'
{"k":{"^(?<t>\\d+) run (?<id>\\d+)$":"[${t}]$RES_NAME{Task(id==${id})}.state=RUNNING"}}
JSON
rules 100000 big
rules 10000 small
printf '1 ev0 1\n2 ev9999 1\n3 ev5 1\n' >ev.log
# viz N DIR: DIR/k.res draws with N visualization rules, each with a shape.
viz() {
  rules "$1" "$2"
  sed -i 's/"ResourceHeaders"/"VisualizeRules":["k"],"ResourceHeaders"/' "$2/k.res"
  awk -v n="$1" 'BEGIN {
    print "{\"k\":{\"Shapes\":{"
    for (i = 0; i < n; i++)
      printf "%s\"b%d\":[{\"Type\":\"Rectangle\",\"Fill\":\"%06x\"}]\n", (i ? "," : ""), i, i
    print "},\"VisualizeRules\":{"
    for (i = 0; i < n; i++)
      printf "%s\"r%d\":{\"Target\":\"Task\",\"Shapes\":{\"s\":{\"From\":\"${TARGET}.state=S%d\",\"To\":\"${TARGET}.state\",\"Figures\":\"b%d\"}}}\n", (i ? "," : ""), i, i, i
    print "}}}" }' >"$2/k.viz"
}
viz 100000 vbig
viz 10000 vsmall
printf '[1]TASK1.state=S0\n[2]TASK1.state=S9999\n[3]TASK1.state=S5\n[4]TASK1.state=S1\n' >viz.log

# cpu CMD...: the best user+system CPU seconds of $runs runs of CMD.
cpu() {
  local best="" t
  for _ in $(seq "$runs"); do
    /usr/bin/time -f '%U %S' -o cpu.txt "$@" >/dev/null 2>&1 || true
    t=$(tail -1 cpu.txt | awk '{ printf "%.3f", $1 + $2 }')
    if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$t; fi
  done
  echo "$best"
}
[ -x /usr/bin/time ] || die "GNU time (/usr/bin/time) not found"

printf '%-46s %10s\n' "what" "CPU s"
py_big=$(cpu python3 -c 'import json,sys; json.load(open(sys.argv[1]))' big.res)
res_big=$(cpu "$tlv" check -R . -r big.res)
res_small=$(cpu "$tlv" check -R . -r small.res)
rules_big=$(cpu "$tlv" convert -q -R big -r big/k.res ev.log -o /dev/null)
rules_small=$(cpu "$tlv" convert -q -R small -r small/k.res ev.log -o /dev/null)
viz_big=$(cpu "$tlv" shapes --std -R vbig -r vbig/k.res viz.log -o /dev/null)
viz_small=$(cpu "$tlv" shapes --std -R vsmall -r vsmall/k.res viz.log -o /dev/null)
printf '%-46s %10s\n' "python3 json.load, 1,000,000 resources" "$py_big" \
  "tlv check, 1,000,000 resources" "$res_big" "tlv check, 100,000 resources" "$res_small" \
  "tlv convert, 100,000 rules" "$rules_big" "tlv convert, 10,000 rules" "$rules_small" \
  "tlv shapes, 100,000 visualization rules" "$viz_big" \
  "tlv shapes, 10,000 visualization rules" "$viz_small"

status=0
# goal TEXT VALUE LIMIT: prints and judges VALUE <= LIMIT.
goal() {
  local verdict=PASS
  awk -v v="$2" -v l="$3" 'BEGIN { exit !(v != "" && v > 0 && v <= l) }' || { verdict=FAIL; status=1; }
  printf '%-62s %8s (goal <= %s) %s\n' "$1" "$2" "$3" "$verdict"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
echo
goal "1,000,000 resources: tlv check CPU s" "$res_big" 5
goal "100,000 rules: tlv convert CPU s" "$rules_big" 5
goal "100,000 visualization rules: tlv shapes CPU s" "$viz_big" 5
goal "resources: time(1M) / (10 x time(100k))" "$(ratio "$res_big" "$(awk -v s="$res_small" 'BEGIN { print 10 * s }')")" 1.5
goal "rules: time(100k) / (10 x time(10k))" "$(ratio "$rules_big" "$(awk -v s="$rules_small" 'BEGIN { print 10 * s }')")" 1.5
goal "visualization rules: time(100k) / (10 x time(10k))" "$(ratio "$viz_big" "$(awk -v s="$viz_small" 'BEGIN { print 10 * s }')")" 1.5
printf '%-62s %8s\n' "tlv check / python3 json.load, 1M resources (information)" "$(ratio "$res_big" "$py_big")"
exit $status
