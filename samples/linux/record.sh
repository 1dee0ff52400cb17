#!/usr/bin/env bash
# samples/linux/record.sh — records a command's system calls, every thread
# and child process, in the form the linux_strace rules read
# (strace -f -ttt -T), and puts the resource file next to the log.
#
#   samples/linux/record.sh OUT.log COMMAND [ARGS...]   record any command
#   samples/linux/record.sh OUT.log                     build and record threads.c
#
# Then: tlv render -r OUT.res OUT.log -o OUT.png  (or tlv convert / tlv shapes).
# Needs strace (scripts/setup.sh installs it).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
if [ $# -lt 1 ]; then
  sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
out="$1"
shift
command -v strace >/dev/null || { echo "record.sh: strace is not installed (apt-get install strace)" >&2; exit 2; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
if [ $# -eq 0 ]; then
  # The bundled program: three threads passing a token, a failing open,
  # a child process that exits.
  cc -O2 -pthread -o "$tmp/threads" "$here/threads.c"
  set -- "$tmp/threads"
fi
strace -f -ttt -T -o "$out" "$@"
res="${out%.log}.res"
[ "$res" != "$out" ] || res="$out.res"
[ -e "$res" ] || cp "$here/sample.res" "$res"
echo "record.sh: wrote $out ($(wc -l <"$out") lines) and $res" >&2
