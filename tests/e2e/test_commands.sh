# The commands[] table of cli/main.c as a user meets it: `tlv --help` lists
# every command, each one's `--help` exits 0 and is what `tlv help CMD`
# prints, `tlv help` is `tlv --help`, an unknown command (in `tlv help` too)
# is a usage error, and --version / -V / version print the version.
. "$(dirname "$0")/lib.sh"
cd "$TMP"

run "$TLV" --help
expect_status 0 "tlv --help"
cp "$TMP/out" main_help
# The table's rows: the lines between "commands:" and the blank line after.
sed -n '/^commands:$/,/^$/{s/^  \([a-z]*\) .*/\1/p}' main_help >names
checks=$((checks + 1))
[ "$(wc -l <names)" -ge 10 ] || fail "tlv --help lists $(wc -l <names) commands: $(cat names)"
for want in convert check shapes render export query stats view help version; do
  expect_line names "$want" "tlv --help lists $want"
done

while read -r name; do
  run "$TLV" "$name" --help
  expect_status 0 "tlv $name --help"
  expect_grep "$TMP/out" "^usage: tlv $name" "tlv $name --help starts with its usage"
  cp "$TMP/out" own_help
  run "$TLV" help "$name"
  expect_status 0 "tlv help $name"
  checks=$((checks + 1))
  cmp -s own_help "$TMP/out" || fail "tlv help $name differs from tlv $name --help: $(diff own_help "$TMP/out" | head -5)"
  run "$TLV" "$name" -h
  checks=$((checks + 1))
  cmp -s own_help "$TMP/out" || fail "tlv $name -h differs from tlv $name --help"
done <names

run "$TLV" help
expect_status 0 "tlv help"
checks=$((checks + 1))
cmp -s main_help "$TMP/out" || fail "tlv help differs from tlv --help"

run "$TLV" help frobnicate
expect_status 2 "tlv help of an unknown command"
expect_line "$TMP/err" "tlv: unknown command 'frobnicate'" "tlv help names the unknown command"
expect_line "$TMP/err" "  convert   convert a log into a standard-form trace" "and lists the commands"

run "$TLV" help convert check
expect_status 2 "tlv help with two commands"
expect_line "$TMP/err" "tlv help: one command at a time ('convert' and 'check' given)" "tlv help with two commands"

run "$TLV"
expect_status 2 "tlv without a command"
expect_line "$TMP/err" "commands:" "tlv without a command lists them"

version="$(sed -n 's/^#define TLV_VERSION_STRING "\(.*\)"$/\1/p' "$SRC/libtlv/include/tlv/tlv.h")"
for v in version --version -V; do
  run "$TLV" $v
  expect_status 0 "tlv $v"
  expect_line "$TMP/out" "tlv $version" "tlv $v prints the version"
done
run "$TLV" version extra
expect_status 2 "tlv version with an argument"
expect_line "$TMP/err" "tlv version: takes no arguments ('extra' given)" "tlv version with an argument"

finish
