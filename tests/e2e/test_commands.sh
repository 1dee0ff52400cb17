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

# Options as getopt_long reads them (issue 31.6), in every form, give the
# same output as the spelled-out form.
cat >k.resh <<'JSON'
{"k":{"Task":{"Attributes":{"state":{"VariableType":"String","AllocationType":"Dynamic","Default":"IDLE"}}}}}
JSON
cat >k.cnv <<'JSON'
{"k":{"^(?<t>\\d+) (?<s>[A-Z]+)$":"[${t}]A.state=${s}"}}
JSON
cat >k.viz <<'JSON'
{"k":{"state":{"Target":"Task","Attribute":"state","Shapes":{"RUNNING":[{"Figure":"Rectangle","Color":"00ff00"}]}}}}
JSON
cat >k.res <<'JSON'
{"TimeScale":"ms","ConvertRules":["k"],"ResourceHeaders":["k"],"VisualizeRules":["k"],"Resources":{"A":{"Type":"Task"}}}
JSON
printf '1 RUNNING\n5 IDLE\n7 RUNNING\n9 IDLE\n' >k.log
cp k.log ./-dash.log
run "$TLV" convert -R . -r k.res -o long.std k.log
expect_status 0 "convert, options spelled out"
for form in "-qR. -rk.res -oq1.std k.log" "--rules=. --resources=k.res --output=q2.std -q k.log" \
            "k.log -q --rul . --res k.res --out q3.std" "-q -R . -r k.res -o q4.std -- k.log"; do
  # shellcheck disable=SC2086
  run "$TLV" convert $form
  expect_status 0 "convert $form"
  out=$(echo "$form" | grep -o 'q[0-9].std')
  checks=$((checks + 1))
  cmp -s long.std "$out" || fail "convert $form: not the trace of the spelled-out form"
done
run "$TLV" convert -q -R . -r k.res -o dash.std -- -dash.log
expect_status 0 "-- ends the options: a log named -dash.log"
checks=$((checks + 1))
cmp -s long.std dash.std || fail "the log after -- was not read"
run "$TLV" export -R . -r k.res -o long.csv --format csv k.log
expect_status 0 "export --format csv"
run "$TLV" export -R . -r k.res -ofcsv.csv -fcsv k.log
expect_status 0 "export -fcsv"
checks=$((checks + 1))
cmp -s long.csv fcsv.csv || fail "export -fcsv differs from --format csv"
run "$TLV" convert -R . -r k.res -qz k.log
expect_status 2 "an unknown option in a bundle"
expect_line "$TMP/err" "tlv convert: unknown option '-z'" "an unknown option in a bundle is named"
run "$TLV" convert -R . -r k.res k.log --bogus=1
expect_status 2 "an unknown long option with a value"
expect_line "$TMP/err" "tlv convert: unknown option '--bogus'" "an unknown long option is named without its value"
run "$TLV" convert -R . -r k.res k.log -o
expect_status 2 "an option without its value"
expect_line "$TMP/err" "tlv: option -o needs a value" "an option without its value"
run "$TLV" render -R . -r k.res k.log -o x.png --size
expect_status 2 "a long option without its value"
expect_line "$TMP/err" "tlv: option --size needs a value" "a long option without its value"

# The bash completion, generated from the table: commands, options, values.
run "$TLV" completion bash
expect_status 0 "tlv completion bash"
cp "$TMP/out" tlv.bash
run "$TLV" completion zsh
expect_status 0 "tlv completion zsh"
expect_line "$TMP/out" "#compdef tlv" "the zsh completion names its command"
run "$TLV" completion fish
expect_status 2 "tlv completion of an unknown shell"
expect_line "$TMP/err" "tlv completion: give the shell: bash or zsh" "tlv completion of an unknown shell"
if command -v bash >/dev/null; then
  # complete WORDS...: what the completion offers for the last word.
  complete_words() {
    bash -c '. ./tlv.bash; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _tlv; printf "%s\n" "${COMPREPLY[@]}"' \
      tlv "$@" | sort
  }
  checks=$((checks + 1))
  [ "$(complete_words tlv con)" = "convert" ] || fail "completing 'tlv con': $(complete_words tlv con)"
  checks=$((checks + 1))
  [ "$(complete_words tlv help ex)" = "export" ] || fail "completing 'tlv help ex': $(complete_words tlv help ex)"
  checks=$((checks + 1))
  [ "$(complete_words tlv export --for)" = "--format" ] || fail "completing 'tlv export --for': $(complete_words tlv export --for)"
  checks=$((checks + 1))
  [ "$(complete_words tlv query -f c | tr '\n' ' ')" = "csv " ] || fail "completing 'tlv query -f c': $(complete_words tlv query -f c)"
  checks=$((checks + 1))
  [ "$(complete_words tlv render -r k.re | tr '\n' ' ')" = "k.res k.resh " ] || fail "completing 'tlv render -r k.re': $(complete_words tlv render -r k.re)"
  checks=$((checks + 1))
  [ -z "$(complete_words tlv render --size '')" ] || fail "completing 'tlv render --size': $(complete_words tlv render --size '')"
  # every command's options, as the table has them, complete
  for name in convert check shapes render export query stats view; do
    checks=$((checks + 1))
    complete_words tlv "$name" -- | grep -qx -- --rules || fail "completing 'tlv $name --' offers no --rules"
  done
  checks=$((checks + 1))
  complete_words tlv view -- | grep -qx -- --script || fail "completing 'tlv view --' offers no --script"
fi

finish
