#!/usr/bin/env bash
# samples/linux/record.sh — records a command's system calls, every thread
# and child process, in the form the linux_strace rules read
# (strace -f -ttt -T), and puts the resource file next to the log.
#
#   samples/linux/record.sh OUT.log COMMAND [ARGS...]   record any command
#   samples/linux/record.sh OUT.log                     build and record threads.c
#
# Then: tlv render -r OUT.res OUT.log -o OUT.png  (or tlv convert / tlv shapes).
# The log and OUT.res are written even when the command fails; the script
# exits with the command's status.
# Needs strace (scripts/setup.sh installs it).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
if [ $# -lt 1 ]; then
  sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//' >&2
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
# The command may fail (that is often why it is recorded): the log and the
# resource file are written all the same, and its exit status is ours.
status=0
strace -f -ttt -T -o "$out" "$@" || status=$?
res="${out%.log}.res"
[ "$res" != "$out" ] || res="$out.res"
[ -e "$res" ] || cp "$here/../../rules/linux_strace.res" "$res"
echo "record.sh: wrote $out ($(wc -l <"$out") lines) and $res; the command exited with status $status" >&2
exit "$status"
