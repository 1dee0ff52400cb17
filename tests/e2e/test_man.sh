# The man pages (issue 31.6): the build writes tlv.1 and tlv-COMMAND.1 for
# every command of the table (scripts/man.sh, from the help texts) into
# build/man; each renders with `man -l` without a warning, names its
# command with its line from `tlv --help`, and lists every option its
# --help lists; and every option of the command's table (what getopt_long
# and the completion know) is in its --help, by long or short name.
. "$(dirname "$0")/lib.sh"
cd "$TMP"
MAN="$(dirname "$TLV")/man"
command -v man >/dev/null || { echo "SKIP: man is not installed (man-db)"; exit 77; }
[ -f "$MAN/tlv.1" ] || { fail "no $MAN/tlv.1: the build writes the man pages"; finish; }

"$TLV" --help | sed -n '/^commands:$/,/^$/{s/^  \([a-z]*\)  *\(.*\)/\1\t\2/p}' >commands
"$TLV" completion bash >tlv.bash
checks=$((checks + 1))
[ "$(wc -l <commands)" -ge 10 ] || fail "tlv --help lists $(wc -l <commands) commands"

# render PAGE: the page as man shows it, warnings in render.err.
render() { MANWIDTH=100 man --warnings -l "$1" 2>render.err | col -b >page.txt; }

render "$MAN/tlv.1"
checks=$((checks + 1))
[ ! -s render.err ] || fail "man -l tlv.1 warns: $(head -3 render.err)"
while IFS=$'\t' read -r cmd _; do
  expect_contains page.txt "tlv-$cmd(1)" "tlv.1 refers to tlv-$cmd(1)"
done <commands

while IFS=$'\t' read -r cmd summary; do
  page="$MAN/tlv-$cmd.1"
  checks=$((checks + 1))
  [ -f "$page" ] || { fail "no man page for tlv $cmd"; continue; }
  render "$page"
  checks=$((checks + 1))
  [ ! -s render.err ] || fail "man -l tlv-$cmd.1 warns: $(head -3 render.err)"
  expect_contains page.txt "tlv-$cmd - $(echo "$summary" | cut -c1-40)" "tlv-$cmd.1 NAME"
  "$TLV" help "$cmd" >help.txt
  # every option --help lists is on the page
  for opt in $(grep -oE -- '(^|[ ,[])--[a-z][a-z-]*' help.txt | grep -oE -- '--[a-z-]+' | sort -u); do
    checks=$((checks + 1))
    grep -qF -- "$opt" page.txt || fail "tlv-$cmd.1 lacks $opt, which its --help lists"
  done
  # every option --help lists is in the table (getopt_long knows it), and
  # every option of the table is in --help (but --help itself)
  if [ "$cmd" != help ] && [ "$cmd" != version ]; then
    tablenames=" $(awk -v c="  $cmd)" '$0 == c { getline; sub(/^ *opts="/, ""); sub(/"$/, ""); print; exit }' tlv.bash) "
    # the options of the option lines ("  -f, --format NAME", "      --json")
    for opt in $(grep -oE -- '^ +(-[a-zA-Z], )?--[a-z][a-z-]*' help.txt | grep -oE -- '--[a-z-]+' | sort -u); do
      checks=$((checks + 1))
      [[ "$tablenames" == *" $opt "* ]] || fail "tlv $cmd --help lists $opt, which its option table lacks"
    done
  fi

  opts=$(awk -v c="  $cmd)" '$0 == c { getline; if (!/^    opts="/) exit; sub(/^ *opts="/, ""); sub(/"$/, ""); print; exit }' tlv.bash)
  set -- $opts
  while [ $# -gt 0 ]; do
    long=$1 short=""
    shift
    case "${1:-}" in -?) short=$1; shift ;; esac
    [ "$long" = --help ] && continue
    checks=$((checks + 1))
    grep -qE -e "(^|[^a-z-])$long([^a-z-]|\$)" help.txt ||
      { [ -n "$short" ] && grep -qE -e "(^|[^a-zA-Z-])$short([^a-zA-Z]|\$)" help.txt; } ||
      fail "tlv $cmd takes $long${short:+ ($short)}, which its --help does not mention"
  done
done <commands

finish
