#!/usr/bin/env bash
# test_cache.sh — the trace cache from the command line (docs/cache.md):
# the second run of a command on a log reads the cache (--cache-info says
# "cache hit"), and every output is byte for byte the one of --no-cache:
# shapes (plain, per CPU, flows), render, export (chrome, csv, sqlite),
# stats (text, json), query, the lines no rule matched (--unmatched) and
# the messages on standard error; a log that grew is read from the cache
# up to where it ended; a cache folder that cannot be made changes nothing
# but the note; two commands on one new log at once both write whole
# output and a whole cache; two viewers on one new log at once, and one
# reading their cache, show the trace and picture of --no-cache. The library's side (every key part, damaged
# and hostile files) is tests/unit/test_cache.c.
source "$(dirname "$0")/lib.sh"

export XDG_CACHE_HOME="$TMP/xdg"
RES="$SRC/samples/asp/sample.res"
FRES="$SRC/samples/fmp/sample.res"
cp "$SRC/samples/asp/sample.log" "$TMP/asp.log"
cp "$SRC/samples/fmp/sample.log" "$TMP/fmp.log"
LOG="$TMP/asp.log"

# same WHAT OUT CMD...: CMD with --no-cache and through the cache (twice:
# a miss, then a hit) write the same OUT, standard output and error, and
# exit status.
same() {
  local what=$1 out=$2 i
  shift 2
  for i in nocache miss hit; do
    local extra=()
    [ "$i" = nocache ] && extra=(--no-cache)
    [ "$i" = miss ] && rm -rf "$XDG_CACHE_HOME"
    "$1" "$2" "${extra[@]}" "${@:3}" >"$TMP/$i.stdout" 2>"$TMP/$i.stderr"
    echo $? >"$TMP/$i.status"
    [ -f "$TMP/$out" ] && mv "$TMP/$out" "$TMP/$i.out"
  done
  for i in miss hit; do
    checks=$((checks + 1))
    for part in stdout stderr status out; do
      [ -f "$TMP/nocache.$part" ] || continue
      cmp -s "$TMP/nocache.$part" "$TMP/$i.$part" ||
        fail "$what: the $part of the cache's $i differs from --no-cache's"
    done
  done
  rm -f "$TMP"/{nocache,miss,hit}.*
}

same "shapes" s.jsonl "$TLV" shapes -r "$RES" -o "$TMP/s.jsonl" "$LOG"
same "shapes --per-cpu (FMP)" s.jsonl "$TLV" shapes --per-cpu -r "$FRES" -o "$TMP/s.jsonl" "$TMP/fmp.log"
same "shapes --flows (FMP)" s.jsonl "$TLV" shapes --flows -r "$FRES" -o "$TMP/s.jsonl" "$TMP/fmp.log"
same "render" r.png "$TLV" render -q -r "$RES" --size 700x450 -o "$TMP/r.png" "$LOG"
same "export chrome" e.json "$TLV" export -r "$RES" -o "$TMP/e.json" "$LOG"
same "export csv" e.csv "$TLV" export --format csv -r "$RES" -o "$TMP/e.csv" "$LOG"
same "export sqlite" e.db "$TLV" export --format sqlite -r "$RES" -o "$TMP/e.db" "$LOG"
same "stats" st.txt "$TLV" stats -r "$RES" -o "$TMP/st.txt" "$LOG"
same "stats --json" st.json "$TLV" stats --json -r "$RES" -o "$TMP/st.json" "$LOG"
same "query" none "$TLV" query -f csv -r "$RES" "$LOG" "select rule, count(*) from intervals group by rule order by 1"
same "--unmatched" um.txt "$TLV" shapes -r "$RES" -o /dev/null --unmatched "$TMP/um.txt" "$LOG"


# What --cache-info says.
rm -rf "$XDG_CACHE_HOME"
run "$TLV" shapes --cache-info -r "$RES" -o /dev/null "$LOG"
expect_status 0 "first run"
expect_grep "$TMP/err" "^tlv: cache miss (none yet): $XDG_CACHE_HOME/tlv/asp\.log-[0-9a-f]\{16\}\.tlvcache written$" "first run's note"
run "$TLV" stats --cache-info -r "$RES" -o /dev/null "$LOG"
expect_grep "$TMP/err" "^tlv: cache hit: $XDG_CACHE_HOME/tlv/asp\.log-[0-9a-f]\{16\}\.tlvcache$" "second run's note"
run "$TLV" stats --cache-info --no-cache -r "$RES" -o /dev/null "$LOG"
expect_line "$TMP/err" "tlv: cache not used (--no-cache)" "--no-cache's note"
run "$TLV" shapes --cache-info -r "$RES" -o /dev/null - <"$LOG"
expect_line "$TMP/err" "tlv: cache not used (standard input)" "standard input's note"
run "$TLV" shapes --help
expect_contains "$TMP/out" "--no-cache" "shapes --help"
expect_contains "$TMP/out" "--cache-info" "shapes --help"

# The shape cache: the second listing (and drawing) of a log reads its
# shapes; a .viz file changed is a miss that says why, and its output is
# --no-cache's; a damaged shape file is rebuilt and written anew.
SHAPES_FILE="$XDG_CACHE_HOME/tlv/asp\.log-[0-9a-f]\{16\}-[0-9a-f]\{16\}\.tlvshapes"
"$TLV" shapes --no-cache -r "$RES" -o "$TMP/sc-plain.jsonl" "$LOG" 2>/dev/null
run "$TLV" shapes --cache-info -r "$RES" -o /dev/null "$LOG"
expect_grep "$TMP/err" "^tlv: shape cache hit: $SHAPES_FILE$" "the shapes' second listing"
run "$TLV" render -q --cache-info -r "$RES" --size 700x450 -o "$TMP/r1.png" "$LOG"
expect_grep "$TMP/err" "^tlv: shape cache miss (none yet): $SHAPES_FILE written$" "a first picture (other options)"
run "$TLV" render -q --cache-info -r "$RES" --size 700x450 -o "$TMP/r2.png" "$LOG"
expect_grep "$TMP/err" "^tlv: shape cache hit: $SHAPES_FILE$" "a second picture"
checks=$((checks + 1))
cmp -s "$TMP/r1.png" "$TMP/r2.png" || fail "the picture from the shape cache differs"
mkdir -p "$TMP/vizrules"
cp "$SRC"/rules/toppers_* "$RES" "$TMP/vizrules/"
VRES="$TMP/vizrules/sample.res"
"$TLV" shapes -R "$TMP/vizrules" -r "$VRES" -o /dev/null "$LOG" 2>/dev/null
run "$TLV" shapes -R "$TMP/vizrules" --cache-info -r "$VRES" -o /dev/null "$LOG"
expect_grep "$TMP/err" "^tlv: shape cache hit: " "the copied rules' second listing"
echo " " >>"$TMP/vizrules/toppers_asp.viz"
run "$TLV" shapes -R "$TMP/vizrules" --cache-info -r "$VRES" -o "$TMP/viz.jsonl" "$LOG"
expect_grep "$TMP/err" "^tlv: cache miss (the rule files changed): " "a .viz changed: the trace's note"
expect_grep "$TMP/err" "^tlv: shape cache miss (made from another trace: the log or the rules changed): $SHAPES_FILE written$" "a .viz changed: the shapes' note"
"$TLV" shapes -R "$TMP/vizrules" --no-cache -r "$VRES" -o "$TMP/viz.nocache" "$LOG" 2>/dev/null
checks=$((checks + 1))
cmp -s "$TMP/viz.jsonl" "$TMP/viz.nocache" || fail "a .viz changed: the shapes differ from --no-cache's"
for f in "$XDG_CACHE_HOME"/tlv/asp.log-*-*.tlvshapes; do # a byte of every file flipped
  size=$(stat -c %s "$f")
  printf '\x5a' | dd of="$f" bs=1 seek=$((size - 20)) conv=notrunc status=none
done
run "$TLV" shapes --cache-info -r "$RES" -o "$TMP/damaged.jsonl" "$LOG"
expect_grep "$TMP/err" "^tlv: shape cache miss (damaged: its contents do not match their checksum): $SHAPES_FILE written$" "a damaged shape file"
checks=$((checks + 1))
cmp -s "$TMP/sc-plain.jsonl" "$TMP/damaged.jsonl" || fail "a damaged shape file: the shapes differ"
run "$TLV" shapes --cache-info -r "$RES" -o /dev/null "$LOG"
expect_grep "$TMP/err" "^tlv: shape cache hit: " "after a damaged shape file"
run "$TLV" shapes --cache-info --no-cache -r "$RES" -o /dev/null "$LOG"
checks=$((checks + 1))
! grep -q "shape cache" "$TMP/err" || fail "--no-cache speaks of the shape cache: $(cat "$TMP/err")"

# A log that grew: the cache up to its old end, the rest converted.
cp "$LOG" "$TMP/grow.log"
"$TLV" shapes -r "$RES" -o /dev/null "$TMP/grow.log" 2>/dev/null
tail -n 40 "$LOG" | sed 's/^\[\([0-9]*\)\]/[9\1]/' >>"$TMP/grow.log"
run "$TLV" shapes --cache-info -r "$RES" -o "$TMP/grow.cached" "$TMP/grow.log"
expect_grep "$TMP/err" "^tlv: cache hit on the first $(stat -c %s "$LOG") bytes of the log: .* (the rest converted); .* written$" "a grown log's note"
"$TLV" shapes --no-cache -r "$RES" -o "$TMP/grow.plain" "$TMP/grow.log" 2>/dev/null
checks=$((checks + 1))
cmp -s "$TMP/grow.plain" "$TMP/grow.cached" || fail "a grown log: the shapes differ from --no-cache's"
run "$TLV" shapes --cache-info -r "$RES" -o /dev/null "$TMP/grow.log"
expect_grep "$TMP/err" "^tlv: cache hit: " "a grown log, once more"

# A cache folder that cannot be made: the same output, and the note says why.
XDG_CACHE_HOME="$LOG" run "$TLV" shapes --cache-info -r "$RES" -o "$TMP/ro.jsonl" "$LOG"
expect_status 0 "no cache folder"
expect_grep "$TMP/err" "^tlv: cache miss (cannot open it: Not a directory): not written (cannot make the cache folder '$LOG/tlv': Not a directory)$" "no cache folder's note"
"$TLV" shapes --no-cache -r "$RES" -o "$TMP/plain.jsonl" "$LOG" 2>/dev/null
checks=$((checks + 1))
cmp -s "$TMP/plain.jsonl" "$TMP/ro.jsonl" || fail "no cache folder: the shapes differ"

# Two at once on a new log: both whole, and the cache they leave is whole.
rm -rf "$XDG_CACHE_HOME"
for i in 1 2 3; do
  "$TLV" shapes -r "$RES" -o "$TMP/two$i.a" "$LOG" 2>/dev/null &
  "$TLV" export --format csv -r "$RES" -o "$TMP/two$i.b" "$LOG" 2>/dev/null &
  wait
done
"$TLV" export --format csv --no-cache -r "$RES" -o "$TMP/two.csv" "$LOG" 2>/dev/null
for i in 1 2 3; do
  checks=$((checks + 1))
  cmp -s "$TMP/plain.jsonl" "$TMP/two$i.a" && cmp -s "$TMP/two.csv" "$TMP/two$i.b" ||
    fail "two at once (round $i): an output differs"
done
run "$TLV" shapes --cache-info -r "$RES" -o /dev/null "$LOG"
expect_grep "$TMP/err" "^tlv: cache hit: " "after two at once"
checks=$((checks + 1))
[ -z "$(ls "$XDG_CACHE_HOME/tlv" | grep -v '\.tlvcache$\|\.tlvshapes$')" ] || fail "temporary files left in the cache folder: $(ls "$XDG_CACHE_HOME/tlv")"

# The viewer (needs a display): two at once on a new log, then one that
# reads the cache they wrote; the trace each shows (write-trace) and its
# picture are those of --no-cache; the command line reads what the viewer
# wrote.
source "$(dirname "$0")/view_lib.sh"
rm -rf "$XDG_CACHE_HOME"
for k in a b nocache hit; do # (hit2: below)
  printf 'write-trace %s\nscreenshot %s\nquit\n' "$TMP/v$k.txt" "$TMP/v$k.png" >"$TMP/v$k.script"
done
xvfb-run -a -s "-screen 0 1920x1200x24" "$TLV" view --no-session --cache-info --size 700x450 \
  --script "$TMP/va.script" -r "$RES" "$LOG" >"$TMP/va.out" 2>"$TMP/va.err" &
pa=$!
xvfb-run -a -s "-screen 0 1920x1200x24" "$TLV" view --no-session --cache-info --size 700x450 \
  --script "$TMP/vb.script" -r "$RES" "$LOG" >"$TMP/vb.out" 2>"$TMP/vb.err" &
pb=$!
wait $pa; sa=$?
wait $pb; sb=$?
checks=$((checks + 1))
[ "$sa" = 0 ] && [ "$sb" = 0 ] || fail "two viewers at once: exit $sa and $sb: $(cat "$TMP/va.err" "$TMP/vb.err")"
for k in a b; do # (one may start after the other wrote the cache)
  checks=$((checks + 1))
  grep -qE "^tlv: cache (miss \(none yet\): .* written|hit: .*)$" "$TMP/v$k.err" ||
    fail "viewer $k's note: $(cat "$TMP/v$k.err")"
done
view --no-session --no-cache --cache-info --size 700x450 --script "$TMP/vnocache.script" -r "$RES" "$LOG"
expect_line "$TMP/err" "tlv: cache not used (--no-cache)" "a viewer with --no-cache"
view --no-session --cache-info --size 700x450 --script "$TMP/vhit.script" -r "$RES" "$LOG"
expect_status 0 "a viewer reading the cache"
expect_grep "$TMP/err" "^tlv: cache hit: $XDG_CACHE_HOME/tlv/asp\.log-[0-9a-f]\{16\}\.tlvcache$" "a viewer's cache hit"
# The shapes too: the viewer that wrote a shape cache (on a thread, after
# the view was shown) and the next one, which reads it.
printf 'write-trace %s\nscreenshot %s\nquit\n' "$TMP/vhit2.txt" "$TMP/vhit2.png" >"$TMP/vhit2.script"
view --no-session --cache-info --size 700x450 --script "$TMP/vhit2.script" -r "$RES" "$LOG"
expect_status 0 "a viewer reading the shape cache"
expect_grep "$TMP/err" "^tlv: shape cache hit: $XDG_CACHE_HOME/tlv/asp\.log-[0-9a-f]\{16\}-[0-9a-f]\{16\}\.tlvshapes$" "a viewer's shape cache hit"
for k in a b hit hit2; do
  checks=$((checks + 1))
  cmp -s "$TMP/vnocache.txt" "$TMP/v$k.txt" || fail "viewer $k: its trace differs from --no-cache's"
  checks=$((checks + 1))
  cmp -s "$TMP/vnocache.png" "$TMP/v$k.png" || fail "viewer $k: its picture differs from --no-cache's"
done
run "$TLV" shapes --cache-info -r "$RES" -o "$TMP/after-view.jsonl" "$LOG"
expect_grep "$TMP/err" "^tlv: cache hit: " "the command line after the viewer"
checks=$((checks + 1))
cmp -s "$TMP/plain.jsonl" "$TMP/after-view.jsonl" || fail "the command line after the viewer: the shapes differ"

finish
