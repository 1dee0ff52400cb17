# `tlv view` stays legible and keeps the trace in sight (issue 12), under
# Xvfb with --script: zooming out stops at the whole trace (plus a small
# margin) with the time under the cursor kept while it can be, panning stops
# at the trace's ends.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/view_lib.sh"

RES="$SRC/samples/fmp/sample.res"
LOG="$SRC/samples/fmp/sample.log"
wait_keys() { local k=$1 n=$2; for _ in $(seq "$n"); do echo "key $k"; done; }

# ---- zoom-out bounded, anchor kept, panning stopped ----------------------------------
{
  echo "dump-state $TMP/z0.json"
  echo "mouse-move 600 200"
  wait_keys Up 5
  echo "dump-state $TMP/z1.json"
  wait_keys Down 2
  echo "dump-state $TMP/z2.json"
  echo "key f"
  wait_keys Up 60
  wait_keys Down 80
  echo "dump-state $TMP/z3.json"
  echo "mouse-leave"
  wait_keys Up 3
  wait_keys Right 60
  echo "dump-state $TMP/z4.json"
  wait_keys Left 120
  echo "dump-state $TMP/z5.json"
} >"$TMP/z.txt"
view -r "$RES" --no-session --size 1000x600 --script "$TMP/z.txt" "$LOG"
expect_status 0 "zoom script"
Z="$TMP/z"
check "zooming out keeps the time under the cursor" 'near(.[2].cursor.time; .[1].cursor.time) and
  near(span(.[2].visible); span(.[1].visible) * 4)' $Z"0.json" $Z"1.json" $Z"2.json"
check "80 zoom-outs stay within the trace widened by 10%" '.[1].visible.t0 >= .[0].trace.t0 - S * 0.05 and
  .[1].visible.t1 <= .[0].trace.t1 + S * 0.05 and span(.[1].visible) >= S' $Z"0.json" $Z"3.json"
check "panning right stops a little past the end" 'near(.[1].visible.t1; hi) and near(span(.[1].visible); (hi - lo) / 8)' \
  $Z"0.json" $Z"4.json"
check "panning left stops a little before the start" 'near(.[1].visible.t0; lo) and near(span(.[1].visible); (hi - lo) / 8)' \
  $Z"0.json" $Z"5.json"

finish
