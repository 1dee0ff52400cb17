# Special files that are not the log (issue 32.8): a FIFO given as -r, or as
# a rule file of the search path, with no writer blocked every command in
# open() forever; a LOG.tlvsession that is a FIFO blocked `tlv view`. Now a
# rule or resource file is opened without blocking (a FIFO with no writer:
# "cannot read the file: a FIFO with no writer: nothing to read"; one with a
# writer, as bash's <(...), is read whole), and a session file that is not a
# regular file is reported and not used (kept as .bak, like any session
# problem). Each run is bounded by timeout(1): a hang fails, it does not
# stall CI. The viewer's part runs under Xvfb (skipped without it).
. "$(dirname "$0")/lib.sh"
cd "$TMP"
cp "$SRC"/samples/asp/sample.log "$SRC"/samples/asp/sample.res .

bounded() { run timeout 60 "$TLV" "$@"; }
expect_no_hang() { checks=$((checks + 1)); [ "$status" -ne 124 ] || fail "$1: hung (killed after 60 s)"; }

mkfifo res.fifo
for cmd in "convert" "shapes" "stats" "export --format csv" "check"; do
  bounded $cmd -r res.fifo sample.log
  expect_no_hang "$cmd -r FIFO"
  [ "$cmd" = check ] && expect_status 1 "$cmd -r FIFO" || expect_status 2 "$cmd -r FIFO"
  expect_line "$TMP/err" "res.fifo: error: cannot read the resource file: a FIFO with no writer: nothing to read" "$cmd -r FIFO: message"
done
# A FIFO among the rule files of the search path.
mkdir rules
cp "$SRC"/rules/toppers_asp.* "$SRC"/rules/toppers_common.viz rules/
mkfifo rules/stray.cnv
bounded convert -q -R rules -r sample.res sample.log
expect_no_hang "a FIFO .cnv in the rule path"
expect_status 2 "a FIFO .cnv in the rule path"
expect_line "$TMP/err" "rules/stray.cnv: error: cannot read the file: a FIFO with no writer: nothing to read" "a FIFO .cnv in the rule path: message"
# A pipe with a writer is read whole, as before.
run timeout 60 bash -c '"$0" convert -q -r <(cat sample.res) sample.log | head -1' "$TLV"
expect_line "$TMP/out" "[1082473]LOGTASK.dispatch()" "-r <(...): read whole"

# The viewer: LOG.tlvsession is a FIFO with no writer.
. "$SRC/tests/e2e/view_lib.sh"
mkfifo sample.log.tlvsession
printf 'dump-state %s\n' "$TMP/d.json" >dump.txt
view() { timeout 120 "$TLV" view "$@" >"$TMP/out" 2>"$TMP/err"; status=$?; }
view -r sample.res --size 900x500 --script dump.txt sample.log
expect_no_hang "view, a FIFO session"
expect_status 0 "view, a FIFO session"
expect_line "$TMP/err" "tlv view: sample.log.tlvsession: is not a regular file (a FIFO); not used" "view, a FIFO session: message"
check "view, a FIFO session: the trace opens" '.[0].events > 0' "$TMP/d.json"
checks=$((checks + 1))
[ -p sample.log.tlvsession.bak ] || fail "view, a FIFO session: not kept as .bak"
check "view, a FIFO session: a session written" '.[0].tlv_session == 1' sample.log.tlvsession
finish
