#!/usr/bin/env bash
# samples/tutorial/test.sh — how the tutorial tests its rule set: the rule
# files are clean, the sample log converts without errors into the events we
# expect, and the drawing has the shapes we expect. Copy it for your own
# kernel. TLV=path/to/tlv picks the binary (default: tlv on the PATH).
set -u
TLV="${TLV:-tlv}"
cd "$(dirname "$0")"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# 1. No errors and no warnings in the rule files.
"$TLV" check -R . -r nrtos.res nrtos.resh nrtos.cnv nrtos.viz 2>"$out/check.txt" ||
  fail "tlv check: $(cat "$out/check.txt")"
grep -qx "tlv check: 0 errors, 0 warnings" "$out/check.txt" || fail "tlv check is not clean"

# 2. Every line converts (exit status 0), and the events are the right ones.
"$TLV" convert -q -R . -r nrtos.res nrtos.log -o "$out/trace.std" || fail "tlv convert failed"
for event in "[1100]blink.state=running" \
             "[2400]logger.state=ready" \
             "[2000]irq7.active=true" \
             "[3200]logger.ret(uart_write,-5)" \
             "[3300]logger.message=write failed\\, retrying"; do
  grep -qxF "$event" "$out/trace.std" || fail "no event $event"
done

# 3. The shapes: a running bar, the failed call in red, the interrupt.
"$TLV" shapes -R . -r nrtos.res nrtos.log >"$out/shapes.jsonl" || fail "tlv shapes failed"
for shape in '"rule":"taskStates","event":"state","resource":"blink","from":1100,"to":1300,"type":"Rectangle"' \
             '"rule":"taskCalls","event":"call","resource":"logger","from":3000,"to":3200,"type":"Rectangle","text":null,"fill":"78ff3333"' \
             '"rule":"interrupts","event":"active","resource":"irq7","from":2000,"to":2300'; do
  grep -qF "$shape" "$out/shapes.jsonl" || fail "no shape $shape"
done

[ "$failures" -eq 0 ] && echo "tutorial rules: all checks passed"
exit $((failures > 0))
