# view_lib.sh — what the viewer's e2e tests (test_view*.sh) share, sourced
# after lib.sh once a test has done what needs no display:
#   - skips the test (77) without xvfb-run or jq (scripts/setup.sh installs them),
#     or when Xvfb does not start;
#   - one Xvfb for the test on a display it chose itself (xvfb_start; DISPLAY
#     exported): `xvfb-run -a` picked display numbers racily;
#   - a pure software SDL path (the same pixels everywhere, no GL driver) and
#     the leak suppressions for X11/SDL under ASan;
#   - view ARGS...: runs `tlv view` on that display, like run;
#   - JQ_DEFS and check WHAT FILTER FILE...: the jq FILTER holds over the
#     dumped states, read as .[0], .[1], ... (near(a; b) compares within a
#     billionth of the trace; lo and hi bound the visible range, the trace
#     and 4% more at each end, and centred(v; t) holds when v is centred on t
#     as far as those bounds let it); a test may add to JQ_DEFS;
#   - expect_count WHAT PNG X0 Y0 X1 Y1 COLOR MIN [MAX]: MIN to MAX pixels of
#     COLOR in the rectangle of a screenshot (png_probe);
#   - live_start, live_phase, live_oneshot, live_compare: following a log that the test
#     writes in phases (test_view_soak.sh, test_view_live_big.sh; below).
if ! command -v xvfb-run >/dev/null || ! command -v jq >/dev/null; then
  [ "$failures" -gt 0 ] && finish
  echo "SKIP: xvfb-run or jq not installed (scripts/setup.sh installs them)"
  exit 77
fi
PROBE="${TLV_PNG_PROBE:?TLV_PNG_PROBE must point to png_probe}"

export SDL_VIDEODRIVER=x11 SDL_RENDER_DRIVER=software SDL_FRAMEBUFFER_ACCELERATION=0
export LSAN_OPTIONS="suppressions=$SRC/tests/e2e/lsan_view.supp:print_suppressions=0"

# One X server for the whole test, on a display number it chose itself:
# Xvfb -displayfd binds the first free display and writes its number, where
# `xvfb-run -a` looked for a free number first and started the server after,
# so two tests starting at once (ctest -j runs the viewer tests in parallel,
# and other checkouts' tests share the machine) could pick the same display
# and one of them failed ("Xvfb failed to start"). DISPLAY is exported, so
# `"$TLV" view ...` (and its background runs, whose $! is tlv itself) use it;
# the server is stopped when the test ends.
xvfb_start() {
  local i
  Xvfb -displayfd 9 -screen 0 1920x1200x24 -nolisten tcp -noreset 9>"$TMP/xvfb.display" \
    >"$TMP/xvfb.log" 2>&1 &
  XVFB_PID=$!
  trap 'kill "$XVFB_PID" 2>/dev/null; rm -rf "$TMP"' EXIT
  for i in $(seq 1200); do # up to 60 s: a loaded machine starts servers slowly
    [ -s "$TMP/xvfb.display" ] && break
    kill -0 "$XVFB_PID" 2>/dev/null || break
    sleep 0.05
  done
  if [ ! -s "$TMP/xvfb.display" ]; then
    echo "SKIP: Xvfb did not start: $(tail -n 3 "$TMP/xvfb.log" | tr '\n' ' ')"
    exit 77
  fi
  export DISPLAY=":$(tr -dc 0-9 <"$TMP/xvfb.display")"
  unset XAUTHORITY
}
xvfb_start

view() { "$TLV" view "$@" >"$TMP/out" 2>"$TMP/err"; status=$?; }

JQ_DEFS='def abs: if . < 0 then -. else . end;
def S: .[0].trace.t1 - .[0].trace.t0;
def L: .[0].layout.label_width; def W: .[0].layout.pixel_width;
def at(x): .[0].trace.t0 + (x - L) * S / (W - L);
def near(a; b): ((a - b) | abs) <= S * 1e-9;
def mid(v): (v.t0 + v.t1) / 2; def span(v): v.t1 - v.t0;
def lo: .[0].trace.t0 - S * 0.04; def hi: .[0].trace.t1 + S * 0.04;
def centred(v; t): near(mid(v); ([([t, lo + span(v) / 2] | max), hi - span(v) / 2] | min));'

# CHECK_SHOW: a jq filter over the states, printed when a check fails.
CHECK_SHOW='[.[] | {visible}]'
check() {
  local what=$1 filter=$2
  shift 2
  checks=$((checks + 1))
  jq -e -s "$JQ_DEFS $filter" "$@" >/dev/null 2>"$TMP/jq.err" ||
    fail "$what: '$filter' does not hold in $(jq -c -s "$JQ_DEFS $CHECK_SHOW" "$@" 2>&1 | head -c 1500) $(cat "$TMP/jq.err")"
}


# Following a live log: the test's shell writes the log $L in phases while
# the viewer (process $pid, rules $RES) follows it with a script that, for
# phase K, waits for the file $D/goK, then until the log is read to its end
# (wait-live-idle), then writes its trace to $D/tK.txt (write-trace) and its
# state to $D/dK.json.
# live_start N HOLD [LINE...]: writes that script for phases 1..N (phase
# HOLD's data all there at its next look: live-hold until goHOLD; 0: none),
# then the LINEs, and starts the viewer on $L, empty ($pid).
live_start() {
  local n=$1 hold=$2 k
  shift 2
  {
    for k in $(seq "$n"); do
      [ "$k" = "$hold" ] && echo "live-hold"
      echo "wait-file $D/go$k $WAIT"
      [ "$k" = "$hold" ] && echo "live-release"
      echo "wait-live-idle $WAIT"
      echo "write-trace $D/t$k.txt"
      echo "dump-state $D/d$k.json"
    done
    for k in "$@"; do echo "$k"; done
  } >"$D/script.txt"
  : >"$L"
  "$TLV" view -r "$RES" --no-session --size 900x500 \
    --script "$D/script.txt" "$L" >"$TMP/out" 2>"$TMP/err" &
  pid=$!
}
# live_phase K: the log as it is now kept as $D/snapK, the viewer told to
# look; returns once dK.json is there (or the viewer is gone, or $WAIT s).
live_phase() {
  cp "$L" "$D/snap$1"
  touch "$D/go$1"
  for _ in $(seq $((WAIT * 20))); do
    [ -s "$D/d$1.json" ] && return
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.05
  done
}
# live_oneshot LOG: the one-shot conversion of LOG, in the trace's (time,
# line) order.
live_oneshot() { "$TLV" convert -r "$RES" "$1" 2>/dev/null | LC_ALL=C sort -s -t '[' -k2,2n; }
# live_compare K...: the trace of each phase K equals the one-shot conversion
# of the same bytes (snapK): no event twice, none missing, none out of order.
live_compare() {
  local k
  for k in "$@"; do
    live_oneshot "$D/snap$k" >"$D/o$k.txt"
    checks=$((checks + 1))
    cmp -s "$D/o$k.txt" "$D/t$k.txt" ||
      fail "phase $k: the trace differs from a conversion of the same bytes ($(wc -l <"$D/t$k.txt") events shown, $(wc -l <"$D/o$k.txt") converted): $(diff "$D/o$k.txt" "$D/t$k.txt" | head -5)"
  done
}
