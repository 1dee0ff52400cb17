# docs/rules-tutorial.md against samples/tutorial/: every file the page shows
# is shown exactly as it is; every command transcript is what tlv prints now
# (including the documented error texts of the deliberately broken variants);
# the tutorial's own test script passes with this tlv.
. "$(dirname "$0")/lib.sh"
DOC="$SRC/docs/rules-tutorial.md"
cd "$SRC"

# block N: the body of the fenced block after the N-th marker line of the page.
block() {
  awk -v want="$1" '
    /^<!-- (file|transcript): / { n++; next }
    n == want && !inside && /^```/ { inside = 1; next }
    n == want && inside && /^```$/ { exit }
    n == want && inside { print }' "$DOC"
}

markers=$(grep -c '^<!-- \(file\|transcript\): ' "$DOC")
checks=$((checks + 1))
[ "$markers" -ge 10 ] || fail "the tutorial shows only $markers files and transcripts"
i=0
while IFS= read -r line; do
  i=$((i + 1))
  kind=$(sed -E 's/^<!-- (file|transcript): (.*) -->$/\1/' <<<"$line")
  path=$(sed -E 's/^<!-- (file|transcript): (.*) -->$/\2/' <<<"$line")
  checks=$((checks + 1))
  if [ ! -f "$path" ]; then
    fail "the tutorial shows $path, which does not exist"
    continue
  fi
  block "$i" >"$TMP/shown"
  if ! diff "$path" "$TMP/shown" >"$TMP/diff"; then
    fail "the tutorial does not show $path as it is: $(head -n 10 "$TMP/diff")"
  fi
  [ "$kind" = transcript ] || continue
  # A transcript: "$ tlv ARGS" then what it prints (standard output, then
  # standard error; timings written as 0.00 s).
  read -r -a args <<<"$(head -n 1 "$path" | sed 's/^\$ tlv //')"
  "$TLV" "${args[@]}" >"$TMP/o" 2>"$TMP/e"
  { head -n 1 "$path"; cat "$TMP/o" "$TMP/e" | sed -E 's/, [0-9.]+ s$/, 0.00 s/'; } >"$TMP/got"
  checks=$((checks + 1))
  diff "$path" "$TMP/got" >"$TMP/diff" || fail "tlv prints something else for $path: $(head -n 10 "$TMP/diff")"
done < <(grep '^<!-- \(file\|transcript\): ' "$DOC")

# The broken variants fail with exit status 1; the good files pass.
run "$TLV" check samples/tutorial/nrtos.resh samples/tutorial/broken/nrtos.cnv
expect_status 1 "broken conversion rules"
run "$TLV" convert -R samples/tutorial -r samples/tutorial/nrtos.res samples/tutorial/ghost.log
expect_status 1 "a log line naming an undeclared task"

run env TLV="$TLV" bash samples/tutorial/test.sh
expect_status 0 "samples/tutorial/test.sh"
finish
