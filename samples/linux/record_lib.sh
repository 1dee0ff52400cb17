# samples/linux/record_lib.sh — what the recorders (record*.sh) share, sourced
# by them: the usage text from their header, the tool check, the temporary
# directory, the bundled demo program, and the resource file written next to
# the log.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
me="$(basename "$0")"

# rec_usage: prints the recorder's header comment and exits 2.
rec_usage() {
  awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0" >&2
  exit 2
}

# rec_need TOOL PACKAGES: exits 2 saying how to install TOOL when it is missing.
rec_need() {
  command -v "$1" >/dev/null || { echo "$me: $1 is not installed ($2)" >&2; exit 2; }
}

# rec_tmp: a temporary directory in $tmp, removed on exit.
rec_tmp() {
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' EXIT
}

# rec_demo SOURCE CFLAGS...: builds samples/linux/SOURCE into $tmp; prints its path.
rec_demo() {
  local src=$1
  shift
  cc "$@" -o "$tmp/${src%.c}" "$here/$src"
  echo "$tmp/${src%.c}"
}

# rec_rules: the rules directory: the installed one (these scripts are in
# PREFIX/share/tlv/record, the rules in PREFIX/share/tlv/rules) or the source
# tree's (samples/linux/ and rules/).
rec_rules() {
  if [ -d "$here/../rules" ]; then echo "$here/../rules"; else echo "$here/../../rules"; fi
}

# rec_finish OUT TARGET STATUS: puts rules/TARGET.res next to OUT (OUT.res for
# OUT.log) unless one is there, reports, and exits with STATUS.
rec_finish() {
  local out=$1 res="${1%.log}.res"
  [ "$res" != "$out" ] || res="$out.res"
  [ -e "$res" ] || cp "$(rec_rules)/$2.res" "$res"
  # Under `tlv record` (TLV_RECORD=1), tlv says it, with the folder.
  [ -n "${TLV_RECORD:-}" ] ||
    echo "$me: wrote $out ($(wc -l <"$out") lines) and $res; the command exited with status $3" >&2
  exit "$3"
}
