#!/usr/bin/env bash
# test_sql_guard.sh — `tlv query` locked down and exact (issue 32.5), one
# check per finding: the SQL that crashed tlv through fts3_tokenizer() (a
# pointer given in SQL) now gets a message; the address fts3_tokenizer('simple')
# leaked is refused; VACUUM INTO and ATTACH of a new file write no file,
# in database and in log mode; an existing file may be attached and read,
# never written; in-memory databases stay writable. Then: --timeout and
# Ctrl+C stop a statement with a message (exit 2); text with a NUL is
# printed whole, a blob as X'hex', large numbers exactly (table, CSV, JSON);
# on a terminal (a pty) control characters are shown escaped; the SQL comes
# from --file, standard input, or a shell on a terminal (history, .tables,
# .schema, a statement over two lines).
. "$(dirname "$0")/lib.sh"

RES="$SRC/samples/asp/sample.res"
LOG="$SRC/samples/asp/sample.log"
DB="$TMP/asp.db"
run "$TLV" export -f sqlite -r "$RES" -o "$DB" "$LOG"
expect_status 0 "export asp"
cd "$TMP" || exit 1

# The crash: a tokenizer whose functions are at an address given in SQL.
run "$TLV" query "$DB" "select fts3_tokenizer('evil', x'4141414141414141'); create virtual table temp.v using fts3(tokenize=evil)"
expect_status 2 "fts3_tokenizer with a pointer"
expect_line "$TMP/err" "tlv query: fts3_tokenizer() is refused: it reads and hands out memory addresses" "the crash is a message"
# The address leak.
run "$TLV" query "$DB" "select hex(fts3_tokenizer('simple'))"
expect_status 2 "fts3_tokenizer's address"
checks=$((checks + 1))
[ ! -s "$TMP/out" ] || fail "fts3_tokenizer printed $(cat "$TMP/out")"
# FTS itself still works, with its built-in tokenizers.
run "$TLV" query "$DB" "create virtual table temp.v using fts3(t, tokenize=simple); insert into temp.v values ('task one'); select count(*) AS n from temp.v where t match 'task'"
expect_status 0 "fts3 with a built-in tokenizer"
expect_line "$TMP/out" "1" "fts3 found the row"

# VACUUM INTO and ATTACH of a new file: refused, no file written.
for mode in db log; do
  if [ $mode = db ]; then src=("$DB"); else src=(-r "$RES" "$LOG"); fi
  run "$TLV" query "${src[@]}" "VACUUM INTO '$TMP/vacuum-$mode.db'"
  expect_status 2 "VACUUM INTO ($mode)"
  expect_contains "$TMP/err" "tlv query: ATTACH of '$TMP/vacuum-$mode.db' is refused: " "VACUUM INTO message ($mode)"
  run "$TLV" query "${src[@]}" "ATTACH '$TMP/new-$mode.db' AS n; CREATE TABLE n.t(x)"
  expect_status 2 "ATTACH of a new file ($mode)"
  expect_contains "$TMP/err" "ATTACH of '$TMP/new-$mode.db' is refused" "ATTACH message ($mode)"
  run "$TLV" query "${src[@]}" "ATTACH 'file:$TMP/uri-$mode.db?mode=rwc' AS n"
  expect_status 2 "ATTACH of a URI ($mode)"
  checks=$((checks + 1))
  [ -z "$(ls "$TMP"/vacuum-* "$TMP"/new-* "$TMP"/uri-* "$TMP"/file:* 2>/dev/null)" ] || fail "files written ($mode): $(ls "$TMP")"
done
# An existing database may be attached to a database (read-only, as the
# trace's own), and read, never written; to a log's writable in-memory
# database, no file may be attached.
cp "$DB" "$TMP/other.db"
cp "$TMP/other.db" "$TMP/other.before"
run "$TLV" query -f csv "$DB" "ATTACH '$TMP/other.db' AS o; SELECT count(*) AS n FROM o.resources"
expect_status 0 "ATTACH of an existing file, read"
expect_line "$TMP/out" "13"$'\r' "read from the attached file"
for sql in "CREATE TABLE o.t(x)" "DELETE FROM o.events" "UPDATE o.meta SET value = 'x'" "DROP TABLE o.markers" "VACUUM o"; do
  run "$TLV" query "$DB" "ATTACH '$TMP/other.db' AS o; $sql"
  expect_status 2 "$sql on an attached file"
done
checks=$((checks + 1))
cmp -s "$TMP/other.db" "$TMP/other.before" || fail "the attached file was written"
run "$TLV" query -r "$RES" "$LOG" "ATTACH '$TMP/other.db' AS o"
expect_status 2 "ATTACH of a file to a log's database"
expect_contains "$TMP/err" "with a log, only ':memory:' may be attached" "ATTACH to a log's database message"
: >"$TMP/empty.db"
run "$TLV" query "$DB" "VACUUM INTO '$TMP/empty.db'"
expect_status 2 "VACUUM INTO an existing empty file"
checks=$((checks + 1))
[ ! -s "$TMP/empty.db" ] || fail "VACUUM INTO wrote into an existing empty file"
run "$TLV" query "$DB" "VACUUM INTO '$TMP/vacuum.db'"
expect_line "$TMP/err" "tlv query: ATTACH of '$TMP/vacuum.db' is refused: it is not an existing file, and tlv query creates none (VACUUM INTO is refused too)" "VACUUM INTO message"
run "$TLV" query "$DB" "DELETE FROM events"
expect_status 2 "the trace database is read-only"
# Memory stays writable: the log's own database, temp, an attached :memory:.
run "$TLV" query -f csv -r "$RES" "$LOG" "ATTACH ':memory:' AS m; CREATE TABLE m.t(x); INSERT INTO m.t VALUES (1); CREATE TEMP TABLE u(y); INSERT INTO u VALUES (2); DELETE FROM events; SELECT (SELECT x FROM m.t) + (SELECT y FROM u) + (SELECT count(*) FROM events) AS n"
expect_status 0 "writes in memory"
expect_line "$TMP/out" "3"$'\r' "writes in memory took effect"

# A statement that runs too long: --timeout, and Ctrl+C.
FOREVER="WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"
run timeout 20 "$TLV" query --timeout 0.3 "$DB" "$FOREVER"
expect_status 2 "--timeout"
expect_line "$TMP/err" "tlv query: the statement ran longer than --timeout 0.3 s: stopped" "--timeout message"
run "$TLV" query --timeout 0 "$DB" "SELECT 1"
expect_status 2 "--timeout 0"
if command -v python3 >/dev/null; then
  run python3 - "$TLV" "$DB" "$FOREVER" <<'PY'
import signal, subprocess, sys, time
p = subprocess.Popen(sys.argv[1:2] + ["query"] + sys.argv[2:], stdout=subprocess.PIPE,
                     stderr=subprocess.PIPE)
time.sleep(0.5)
p.send_signal(signal.SIGINT)
out, err = p.communicate(timeout=10)
print(p.returncode)
sys.stdout.write(err.decode())
PY
  expect_line "$TMP/out" "2" "Ctrl+C: exit status 2"
  expect_line "$TMP/out" "tlv query: interrupted (Ctrl+C)" "Ctrl+C message"
fi

# Exact values: text with a NUL whole, blobs as hex, large numbers in full.
VALUES="SELECT 'a' || char(0) || 'b' AS t, x'00ff10' AS b, 1795528378783280.0 AS big, 9007199254740993 AS i, 0.1 AS r, 1795528378783280.5 AS half"
run "$TLV" query "$DB" "$VALUES"
expect_status 0 "values as a table"
printf 't    b          big                 i                 r    half\n---  ---------  ------------------  ----------------  ---  ------------------\na\0b  X'"'"'00ff10'"'"'  1795528378783280.0  9007199254740993  0.1  1795528378783280.5\n' >"$TMP/want"
checks=$((checks + 1))
cmp -s "$TMP/out" "$TMP/want" || fail "values as a table:$(echo; od -c "$TMP/out" | head -12)"
run "$TLV" query -f csv "$DB" "$VALUES"
printf 't,b,big,i,r,half\r\na\0b,X'"'"'00ff10'"'"',1795528378783280.0,9007199254740993,0.1,1795528378783280.5\r\n' >"$TMP/want"
checks=$((checks + 1))
cmp -s "$TMP/out" "$TMP/want" || fail "values as CSV:$(echo; od -c "$TMP/out" | head -12)"
run "$TLV" query -f json "$DB" "$VALUES"
expect_line "$TMP/out" '{"t":"a\u0000b","b":"X'"'"'00ff10'"'"'","big":1795528378783280,"i":9007199254740993,"r":0.1,"half":1795528378783280.5}' "values as JSON"
checks=$((checks + 1))
grep -q 'e+15' "$TMP/out" && fail "a number in exponent form: $(cat "$TMP/out")"

# The SQL from a file, and from standard input.
printf 'SELECT count(*) AS n FROM resources;\nSELECT 7 AS seven;\n' >"$TMP/q.sql"
run "$TLV" query -F "$TMP/q.sql" "$DB"
expect_status 0 "--file"
expect_line "$TMP/out" "13" "--file: first statement"
expect_line "$TMP/out" "7" "--file: second statement"
run "$TLV" query "$DB" <"$TMP/q.sql"
expect_status 0 "SQL from standard input"
expect_line "$TMP/out" "7" "standard input: second statement"
run "$TLV" query --file "$TMP/none.sql" "$DB"
expect_status 2 "--file missing"
expect_contains "$TMP/err" "cannot read '$TMP/none.sql'" "--file missing message"
run "$TLV" query --file "$TMP/q.sql" "$DB" "SELECT 1"
expect_status 2 "--file and SQL"

# On a terminal: control characters escaped, and the shell.
command -v python3 >/dev/null || { echo "note: no python3: the terminal checks are skipped"; finish; }
cat >"$TMP/on_pty.py" <<'PY'
# on_pty.py TLV ARGS... < KEYS: runs tlv on a pseudo-terminal, types KEYS line
# by line (waiting for output in between), prints what the terminal showed.
import os, pty, select, sys, time
keys = sys.stdin.read().split("\n")
pid, fd = pty.fork()
if pid == 0:
    os.environ["HOME"] = os.environ.get("PTY_HOME", "/nonexistent")
    os.execv(sys.argv[1], sys.argv[1:])
out = b""
def drain(wait):
    global out
    end = time.time() + wait
    while time.time() < end:
        r, _, _ = select.select([fd], [], [], 0.1)
        if r:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                return False
            if not chunk:
                return False
            out += chunk
            end = max(end, time.time() + 0.3)
    return True
drain(2.0)
for k in keys:
    if not k:
        continue
    os.write(fd, k.encode().decode("unicode_escape").encode("latin-1") + b"\r")
    if not drain(2.0):
        break
os.write(fd, b"\x04")
drain(1.0)
os.waitpid(pid, 0)
sys.stdout.write(out.decode("utf-8", "replace").replace("\r\n", "\n"))
PY
printf '\n' | python3 "$TMP/on_pty.py" "$TLV" query "$DB" "SELECT 'x' || char(27) || '[2J' || char(7) || char(10) || 'y' AS t" >"$TMP/out"
expect_contains "$TMP/out" 'x\e[2J\x07\ny' "terminal: control characters escaped"
mkdir -p "$TMP/home"
printf '%s\n' ".tables" ".schema markers" "SELECT count(*) AS n" "FROM resources;" '\x1b[A' ".quit" |
  PTY_HOME="$TMP/home" python3 "$TMP/on_pty.py" "$TLV" query "$DB" >"$TMP/out"
expect_contains "$TMP/out" "tlv> " "shell: the prompt"
expect_grep "$TMP/out" "^intervals  *table$" "shell: .tables lists the intervals table"
expect_line "$TMP/out" "CREATE TABLE markers(id INTEGER PRIMARY KEY, ts REAL NOT NULL, name TEXT NOT NULL," ".schema markers"
expect_line "$TMP/out" "  color TEXT);" ".schema markers, its second line"
expect_contains "$TMP/out" "   ...> " "shell: a statement over two lines"
checks=$((checks + 1))
[ "$(grep -c '^13$' "$TMP/out")" -ge 2 ] || fail "shell: the statement ran, then again from the history (up arrow):$(echo; cat "$TMP/out")"
expect_grep "$TMP/home/.tlv_query_history" 'SELECT.*count(\*).*AS.*n.*FROM.*resources;' "shell: history kept in ~/.tlv_query_history, a statement on one line"

finish
