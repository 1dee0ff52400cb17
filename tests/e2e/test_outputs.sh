# Files lost or left behind (issue 32.6). Before: --unmatched FILE was
# written in place (a full disk or a killed run truncated the old FILE, and
# `tlv shapes` still said "all listed in FILE"); --unmatched naming the log
# emptied it before it was read (exit 0, 0 lines); -o naming the log, the
# resource file or a rule file replaced it; `tlv query > /dev/full` exited 2
# without a word and `tlv --help > /dev/full` exited 0. Now an output that is
# an input (the same inode) is refused by every command for every output
# option, --unmatched goes through a temporary file like -o, a run ended by
# signals (two in a row, as timeout(1) and impatient users send) leaves no
# temporary file, and a failed write to standard output is said and fails.
. "$(dirname "$0")/lib.sh"
cd "$TMP"
cp "$SRC"/samples/asp/sample.log "$SRC"/samples/asp/sample.res .
cp sample.log orig.log
res=sample.res
log=sample.log

# expect_same FILE ORIG WHAT: FILE is byte for byte ORIG.
expect_same() { checks=$((checks + 1)); cmp -s "$1" "$2" || fail "$3: $1 changed"; }
# expect_no_tmp WHAT: no temporary file is left in the directory.
expect_no_tmp() {
  checks=$((checks + 1))
  [ "$(ls | grep -c '\.tmp\.')" -eq 0 ] || fail "$1: temporary file left behind: $(ls | grep '\.tmp\.')"
}

# ---- an output that is an input ----------------------------------------------------

# --unmatched LOG, every command that converts.
for cmd in "convert" "shapes" "render -o x.png" "export --format csv" "stats" "query" "check"; do
  if [ "$cmd" = query ]; then
    run "$TLV" query -r $res --unmatched $log $log "select 1"
  else
    run "$TLV" $cmd -r $res --unmatched $log $log
  fi
  expect_status 2 "$cmd --unmatched LOG"
  expect_line "$TMP/err" "tlv: --unmatched 'sample.log' is the log being read; refusing to write over it" "$cmd --unmatched LOG: message"
  expect_same $log orig.log "$cmd --unmatched LOG: the log"
done
# -o LOG, -o RES, -o a rule file, every command with -o.
for cmd in "convert" "shapes" "render" "export --format csv" "export --format sqlite" "stats"; do
  run "$TLV" $cmd -r $res -o $log $log
  expect_status 2 "$cmd -o LOG"
  expect_line "$TMP/err" "tlv: -o 'sample.log' is the log being read; refusing to write over it" "$cmd -o LOG: message"
  expect_same $log orig.log "$cmd -o LOG: the log"
  cp $res res.orig
  run "$TLV" $cmd -r $res -o $res $log
  expect_status 2 "$cmd -o RES"
  expect_line "$TMP/err" "tlv: -o 'sample.res' is the resource file; refusing to write over it" "$cmd -o RES: message"
  expect_same $res res.orig "$cmd -o RES: the resource file"
done
mkdir rules
cp "$SRC"/rules/toppers_asp.* "$SRC"/rules/toppers_common.viz rules/
cp rules/toppers_asp.cnv cnv.orig
run "$TLV" convert -R rules -r $res -o rules/toppers_asp.cnv $log
expect_status 2 "-o a rule file"
expect_line "$TMP/err" "tlv: -o 'rules/toppers_asp.cnv' is a rule file that was read; refusing to write over it" "-o a rule file: message"
expect_same rules/toppers_asp.cnv cnv.orig "-o a rule file: the file"
run "$TLV" shapes -R rules -r $res --unmatched rules/toppers_common.viz $log
expect_status 2 "--unmatched a .viz file"
# Another name for the same file (a hard link), and standard input.
ln $log link.log
run "$TLV" convert -r $res -o link.log $log
expect_status 2 "-o a hard link to the log"
expect_line "$TMP/err" "tlv: -o 'link.log' is the same file as the log being read, 'sample.log'; refusing to write over it" "-o a hard link: message"
run "$TLV" stats -r $res -o link.log - <$log
expect_status 2 "-o standard input's file"
expect_line "$TMP/err" "tlv: -o 'link.log' is the log being read (standard input); refusing to write over it" "-o standard input's file: message"
expect_same $log orig.log "hard link and standard input: the log"
# -o and --unmatched naming one file.
run "$TLV" convert -q -r $res $log -o both.txt --unmatched both.txt
expect_status 2 "-o and --unmatched the same"
expect_line "$TMP/err" "tlv: -o and --unmatched name the same file 'both.txt'" "-o and --unmatched the same: message"
# The other output options: render --texts, verify --junit and --json (and
# the requirements file is an input).
run "$TLV" render -r $res -o x.png --texts $log $log
expect_status 2 "render --texts LOG"
expect_line "$TMP/err" "tlv: --texts 'sample.log' is the log being read; refusing to write over it" "render --texts LOG: message"
expect_same $log orig.log "render --texts LOG: the log"
run "$TLV" render -r $res -o x.png --texts x.png $log
expect_status 2 "render -o and --texts the same"
expect_line "$TMP/err" "tlv: -o and --texts name the same file 'x.png'" "render -o and --texts the same: message"
cp "$SRC/samples/asp/requirements.json" reqs.json
cp reqs.json reqs.orig
run "$TLV" verify -r $res reqs.json $log --junit reqs.json
expect_status 2 "verify --junit REQS"
expect_line "$TMP/err" "tlv: --junit 'reqs.json' is the requirements file; refusing to write over it" "verify --junit REQS: message"
expect_same reqs.json reqs.orig "verify --junit REQS: the requirements"
run "$TLV" verify -r $res reqs.json $log --json $log
expect_status 2 "verify --json LOG"
expect_same $log orig.log "verify --json LOG: the log"
# tlv diff reads two logs: -o over either is refused (over B, the second,
# it replaced the log).
cp $log b.log
run "$TLV" diff -r $res $log b.log -o b.log
expect_status 2 "diff -o B"
expect_line "$TMP/err" "tlv: -o 'b.log' is the second log being read; refusing to write over it" "diff -o B: message"
expect_same b.log orig.log "diff -o B: the log"
run "$TLV" diff -r $res $log b.log -o $log
expect_status 2 "diff -o A"
expect_line "$TMP/err" "tlv: -o 'sample.log' is the log being read; refusing to write over it" "diff -o A: message"
expect_same $log orig.log "diff -o A: the log"
run "$TLV" verify -r $res reqs.json $log --junit j.out --json j.out
expect_status 2 "verify --junit and --json the same"
expect_line "$TMP/err" "tlv: --junit and --json name the same file 'j.out'" "verify --junit and --json the same: message"
# The viewer too (its --unmatched), before any window.
run "$TLV" view -r $res --unmatched $log $log --script /dev/null
expect_status 2 "view --unmatched LOG"
expect_contains "$TMP/err" "tlv: --unmatched 'sample.log' is the log being read; refusing to write over it" "view --unmatched LOG: message"
expect_same $log orig.log "view --unmatched LOG: the log"
# Other files are written as before.
run "$TLV" convert -q -r $res $log -o new.std --unmatched new.txt
expect_status 0 "new files"
expect_line new.txt "4: [1085789] System logging task is started on port 1." "new files: unmatched lines"

# ---- --unmatched through a temporary file ------------------------------------------------

# A failed run (the log is a directory) keeps the old FILE.
printf 'old list\n' >um.txt
mkdir dir.log
run "$TLV" convert -q -r $res dir.log -o out.std --unmatched um.txt
expect_status 2 "failed run"
expect_line um.txt "old list" "failed run: the old --unmatched FILE is kept"
expect_no_tmp "failed run"
# A run ended by SIGTERM keeps it too (before: truncated when the run began).
rm -f live.fifo
mkfifo live.fifo
"$TLV" convert -q -r $res live.fifo -o kept.std --unmatched um.txt 2>/dev/null &
pid=$!
exec 3<>live.fifo
printf 'no rule matches this\n' >&3
for i in $(seq 1200); do ls um.txt.tmp.* >/dev/null 2>&1 && break; sleep 0.05; done
checks=$((checks + 1))
ls um.txt.tmp.* >/dev/null 2>&1 || fail "SIGTERM: no temporary --unmatched file while running"
kill -TERM "$pid"
wait "$pid"
status=$?
exec 3>&-
expect_status 143 "SIGTERM: killed by the signal"
expect_line um.txt "old list" "SIGTERM: the old --unmatched FILE is kept"
expect_no_tmp "SIGTERM"
# Signals in a row (TERM, TERM, INT: timeout(1), then Ctrl-C): whichever
# thread takes the second, it waits for the first handler to remove both
# temporary files. Ten rounds, on the two-thread converter.
left=0
for round in $(seq 10); do
  rm -f live.fifo
  mkfifo live.fifo
  "$TLV" convert -q --threads 2 -r $res live.fifo -o kept.std --unmatched um.txt 2>/dev/null &
  pid=$!
  exec 3<>live.fifo
  cat $log >&3
  for i in $(seq 1200); do ls kept.std.tmp.* >/dev/null 2>&1 && break; sleep 0.05; done
  kill -TERM "$pid"; kill -TERM "$pid" 2>/dev/null; kill -INT "$pid" 2>/dev/null
  wait "$pid"
  exec 3>&-
  ls | grep -q '\.tmp\.' && left=$((left + 1))
  rm -f ./*.tmp.*
done
checks=$((checks + 1))
[ "$left" -eq 0 ] || fail "signals in a row: temporary files left behind in $left of 10 rounds"
expect_line um.txt "old list" "signals in a row: the old --unmatched FILE is kept"

# A full disk (a 64 KB tmpfs, as root): the old FILE is kept, the error
# named, and the summary no longer says "all listed in FILE".
full="$TMP/full"
mkdir -p "$full"
if [ "$(id -u)" -ne 0 ]; then
  echo "skipped: full-disk checks need root (mount -t tmpfs)"
elif ! mount -t tmpfs -o size=64k tlvfull "$full" 2>/dev/null; then
  echo "skipped: full-disk checks: cannot mount a tmpfs here"
else
  printf 'old list\n' >"$full/um.txt"
  dd if=/dev/zero of="$full/filler" bs=4k 2>/dev/null
  # 20,000 unmatched lines of 100 bytes: 2 MB, far more than the disk holds.
  awk 'BEGIN { for (i = 0; i < 20000; i++) printf "[%d] nothing matches this line, it is padded out to a hundred bytes or so .....\n", i }' >many.log
  for cmd in convert shapes stats; do
    run "$TLV" $cmd -r $res many.log -o /dev/null --unmatched "$full/um.txt"
    expect_status 2 "full disk: $cmd --unmatched"
    expect_line "$TMP/err" "tlv: cannot write '$full/um.txt': No space left on device" "full disk: $cmd --unmatched: message"
    expect_line "$full/um.txt" "old list" "full disk: $cmd --unmatched: the old FILE is kept"
    checks=$((checks + 1))
    grep -q "all listed in" "$TMP/err" && fail "full disk: $cmd --unmatched: still says all are listed"
    checks=$((checks + 1))
    [ "$(ls "$full" | grep -c '\.tmp\.')" -eq 0 ] || fail "full disk: $cmd --unmatched: temporary file left behind"
  done
  umount "$full"
fi

# ---- standard output that cannot be written -----------------------------------------

# full_stdout WHAT CMD...: CMD with standard output on /dev/full exits 2 and
# says so.
full_stdout() {
  local what="$1"
  shift
  "$TLV" "$@" >/dev/full 2>"$TMP/err"
  status=$?
  expect_status 2 "$what > /dev/full"
  expect_grep "$TMP/err" "cannot write" "$what > /dev/full: message"
}
if [ -w /dev/full ]; then
  full_stdout "tlv --help" --help
  full_stdout "tlv help" help
  full_stdout "tlv convert --help" convert --help
  full_stdout "tlv version" version
  full_stdout "tlv query" query -r $res $log "select name from resources"
  full_stdout "tlv convert" convert -q -r $res $log
  full_stdout "tlv shapes" shapes -r $res $log
  full_stdout "tlv stats" stats -r $res $log
  full_stdout "tlv export" export --format csv -r $res $log
else
  echo "skipped: no writable /dev/full"
fi

finish
