#!/usr/bin/env bash
# scripts/man.sh TLV OUTDIR — writes the man pages of tlv, tlv.1 and
# tlv-COMMAND.1 for each command `TLV --help` lists, from the help texts
# (written once, in cli/cmd_*.c): NAME from the command's line in the list,
# SYNOPSIS from its usage lines, DESCRIPTION (options and exit status
# included) as the help says it, SEE ALSO the other pages. The build runs
# it and installs the pages (share/man/man1); `man -l OUTDIR/tlv-view.1`
# reads one. tests/e2e/test_man.sh checks them.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: scripts/man.sh TLV OUTDIR" >&2; exit 2; }
tlv=$1 out=$2
mkdir -p "$out"
version=$("$tlv" --version | sed 's/^tlv //')
commands=$("$tlv" --help | sed -n '/^commands:$/,/^$/{s/^  \([a-z]*\)  *\(.*\)/\1\t\2/p}')

# roff-escapes standard input: backslashes, and a '.' or "'" opening a line.
escape() { sed -e 's/\\/\\e/g' -e "s/^\\([.']\\)/\\\\\\&\\1/" -e 's/-/\\-/g'; }

# page NAME TITLE SUMMARY HELP-FILE SEE-ALSO: one page.
page() {
  local name=$1 title=$2 summary=$3 help=$4 see=$5
  {
    printf '.TH %s 1 "" "tlv %s" "tlv manual"\n' "$title" "$version"
    printf '.SH NAME\n%s \\- %s\n' "$name" "$(printf '%s' "$summary" | escape)"
    printf '.SH SYNOPSIS\n.nf\n'
    # the usage lines: the first, and those indented under it, up to a blank line
    awk 'NR == 1 { sub(/^usage: /, ""); print; next } /^$/ { exit } { sub(/^ +/, "    "); print }' "$help" | escape
    printf '.fi\n.SH DESCRIPTION\n.nf\n'
    awk 'started { print; next } /^$/ { started = 1 }' "$help" | escape
    printf '.fi\n.SH SEE ALSO\n%s\n' "$see"
  } >"$out/$name.1"
}

see_all=""
while IFS=$'\t' read -r cmd _; do
  see_all="$see_all${see_all:+, }\\fBtlv\\-$cmd\\fR(1)"
done <<<"$commands"

"$tlv" --help >"$out/tlv.help"
page tlv TLV "convert, check, draw, export and query trace logs with TLV rule files" \
  "$out/tlv.help" "$see_all"
while IFS=$'\t' read -r cmd summary; do
  "$tlv" help "$cmd" >"$out/$cmd.help"
  page "tlv-$cmd" "TLV-$(echo "$cmd" | tr a-z A-Z)" "$summary" "$out/$cmd.help" "\\fBtlv\\fR(1)"
done <<<"$commands"
rm -f "$out"/*.help
