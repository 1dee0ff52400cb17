# tlv record (issue 31.2): a command recorded with strace into a folder (-o
# DIR, or a new one named for the program), its log and resource file kept
# when the command fails, the drawing (--render), the viewer it opens, and
# the messages for bad usage and for a recorder that is not installed. The
# recordings need strace and ptrace: without them those parts are skipped
# (77) with the reason, the messages are checked all the same.
. "$(dirname "$0")/lib.sh"
mkdir "$TMP/empty" "$TMP/work"
cd "$TMP/work"

# ---- bad usage ----------------------------------------------------------------------------
run "$TLV" record
expect_status 2 "no recorder"
expect_line "$TMP/err" "tlv record: give a recorder and a command: tlv record strace|ltrace|uftrace|sched -- CMD [ARGS...]" "no recorder: the message"
run "$TLV" record strace
expect_status 2 "no command"
expect_contains "$TMP/err" "tlv record: give a recorder and a command" "no command: the message"
run "$TLV" record perf -- true
expect_status 2 "an unknown recorder"
expect_line "$TMP/err" "tlv record: unknown recorder 'perf' (strace, ltrace, uftrace or sched)" "an unknown recorder: the message"
run "$TLV" record --size 10x10 strace -- true
expect_status 2 "--size without --render"
expect_line "$TMP/err" "tlv record: --size is the size of --render's image: give --render PNG" "--size alone: the message"
run "$TLV" record strace ls -l
expect_status 2 "a command's option without '--'"
expect_line "$TMP/err" "tlv record: unknown option '-l'" "without '--': the option"
expect_line "$TMP/err" "tlv record: the command and its options go after '--': tlv record strace -- CMD [ARGS...]" "without '--': the hint"
checks=$((checks + 1))
[ -z "$(ls)" ] || fail "a usage error made a folder: $(ls)"

# ---- a recorder that is not installed: named with its package ---------------------------------
run env PATH="$TMP/empty" "$TLV" record strace -- true
expect_status 2 "strace not on PATH"
expect_line "$TMP/err" "tlv record: strace needs strace, which is not installed (not on PATH): Debian/Ubuntu: apt-get install strace" "strace missing: the message"
run env PATH="$TMP/empty" "$TLV" record sched -o x -- true
expect_status 2 "perf not on PATH"
expect_line "$TMP/err" "tlv record: sched needs perf, which is not installed (not on PATH): Debian: apt-get install linux-perf; Ubuntu: apt-get install linux-tools-generic" "perf missing: the message"
run env PATH="$TMP/empty" SCHED_RECORDER=trace-cmd "$TLV" record sched -- true
expect_status 2 "trace-cmd not on PATH"
expect_contains "$TMP/err" "tlv record: sched needs trace-cmd, which is not installed (not on PATH): Debian/Ubuntu: apt-get install trace-cmd" "trace-cmd missing: the message"
run env PATH="$TMP/empty" "$TLV" record uftrace -- true
expect_contains "$TMP/err" "apt-get install uftrace" "uftrace missing: its package"
run env PATH="$TMP/empty" "$TLV" record ltrace -- true
expect_contains "$TMP/err" "apt-get install ltrace" "ltrace missing: its package"
checks=$((checks + 1))
[ -z "$(ls)" ] || fail "a missing recorder made a folder: $(ls)"

# sched not permitted: as a user other than root (setpriv, when the test
# runs as root), where perf_event_paranoid forbids it, the setting is named.
paranoid="$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo -1)"
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && command -v perf >/dev/null &&
   [ "$paranoid" -gt -1 ]; then
  chmod 755 "$TMP" && chmod 777 .
  run setpriv --reuid=65534 --regid=65534 --clear-groups "$TLV" record sched -- true
  expect_status 2 "sched as nobody"
  expect_line "$TMP/err" "tlv record: sched: perf may not record scheduler events: /proc/sys/kernel/perf_event_paranoid is $paranoid; run as root, or allow it: sudo sysctl kernel.perf_event_paranoid=-1" "sched not permitted: the setting"
  checks=$((checks + 1))
  [ -z "$(ls)" ] || fail "sched not permitted made a folder: $(ls)"
else
  echo "note: sched's permission message not checked (needs root, setpriv, perf and perf_event_paranoid above -1)"
fi

# ---- recording with strace --------------------------------------------------------------------
# skip_recordings WHY: the checks so far decide, else skipped (77).
skip_recordings() {
  echo "SKIP: the recordings: $1"
  if [ "$failures" -gt 0 ] || [ -s "$TMP/.not_found" ]; then finish; fi
  exit 77
}
command -v strace >/dev/null || skip_recordings "strace is not installed (apt-get install strace)"
strace -o /dev/null true 2>/dev/null || skip_recordings "strace cannot trace here (ptrace refused)"

# A tiny real program: it opens a file that is not there and writes a line.
cat >tiny.sh <<'EOF'
cat /nonexistent-tlv-record 2>/dev/null
echo recorded
EOF
run "$TLV" record strace -o rec -- sh tiny.sh
expect_status 0 "strace -o rec"
expect_line "$TMP/out" "recorded" "the command's own output comes through"
expect_line "$TMP/err" "tlv record: wrote rec/sh.log and rec/sh.res" "where it wrote"
checks=$((checks + 1))
cmp -s rec/sh.res "$SRC/rules/linux_strace.res" || fail "rec/sh.res is not linux_strace.res"
run "$TLV" convert -r rec/sh.res --unmatched rec/unmatched rec/sh.log -o rec/sh.std
expect_status 0 "the recording converts"
expect_contains "$TMP/err" " 0 errors," "the recording converts without an error"
expect_grep rec/sh.std 'openat.*nonexistent-tlv-record' "the program's failing open is in the trace"
checks=$((checks + 1))
[ ! -s rec/unmatched ] || fail "lines of the recording not read: $(head -c 300 rec/unmatched)"

# -o an existing folder: its log and resource file replaced; -q says nothing.
echo stale >rec/sh.res
run "$TLV" record -q strace -o rec -- sh tiny.sh
expect_status 0 "strace -o rec again"
checks=$((checks + 1))
[ ! -s "$TMP/err" ] || fail "-q still said: $(cat "$TMP/err")"
checks=$((checks + 1))
cmp -s rec/sh.res "$SRC/rules/linux_strace.res" || fail "the stale rec/sh.res was not replaced"

# The command fails: the recording is kept and tlv says so (status 1).
run "$TLV" record strace -o failed -- sh -c 'echo failing >&2; exit 3'
expect_status 1 "a failing command"
expect_line "$TMP/err" "failing" "the failing command's own message"
expect_line "$TMP/err" "tlv record: sh exited with status 3; the recording is kept: failed/sh.log and failed/sh.res" "a failing command: kept, said"
expect_grep failed/sh.log 'exit_group(3)' "a failing command: its log"
checks=$((checks + 1))
[ -s failed/sh.res ] || fail "a failing command: no resource file"

# A command that cannot start: strace says why, nothing was recorded (2).
run "$TLV" record strace -o none -- ./no-such-program
expect_status 2 "a command that is not there"
expect_contains "$TMP/err" "no-such-program" "strace's message names the program"
expect_line "$TMP/err" "tlv record: strace recorded nothing: the log is empty (record.sh said why above)" "nothing recorded: said"

# No -o: a new folder named for the program, then another; --render draws it.
run "$TLV" record strace --render first.png -- sh tiny.sh
expect_status 0 "--render without -o"
expect_line "$TMP/err" "tlv record: wrote sh/sh.log and sh/sh.res" "a folder named for the program"
run "$TLV" record strace --render second.png --size 700x450 -- sh tiny.sh
expect_status 0 "--render again"
expect_line "$TMP/err" "tlv record: wrote sh-2/sh.log and sh-2/sh.res" "the next folder: sh-2"
checks=$((checks + 1))
[ "$(head -c 8 first.png | od -An -c | tr -d ' \n')" = '211PNG\r\n032\n' ] || fail "first.png is not a PNG"
checks=$((checks + 1))
# The PNG header's width and height (bytes 16 to 23, big-endian).
size="$(od -An -tu1 -j16 -N8 second.png | awk '{ print $3 * 256 + $4 "x" $7 * 256 + $8 }')"
[ "$size" = 700x450 ] || fail "second.png is $size, not --size 700x450"

# Without -o nor --render, the viewer opens on the recording: without a
# display it says so, and the recording is kept.
run timeout 120 env -u DISPLAY -u WAYLAND_DISPLAY -u SDL_VIDEODRIVER "$TLV" record strace -- sh tiny.sh
expect_status 2 "the viewer without a display"
expect_line "$TMP/err" "tlv record: wrote sh-3/sh.log and sh-3/sh.res" "the viewer's recording: where"
expect_contains "$TMP/err" "tlv view: to draw the timeline into a PNG instead: tlv render -r sh-3/sh.res sh-3/sh.log -o out.png" "the viewer was started on it"
checks=$((checks + 1))
[ -s sh-3/sh.log ] || fail "the viewer's recording was not kept"

finish
