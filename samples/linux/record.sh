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
. "$(dirname "$0")/record_lib.sh"
[ $# -ge 1 ] || rec_usage
out="$1"
shift
rec_need strace "Debian/Ubuntu: apt-get install strace"
rec_tmp
if [ $# -eq 0 ]; then
  # The bundled program: three threads passing a token, a failing open,
  # a child process that exits.
  set -- "$(rec_demo threads.c -O2 -pthread)"
fi
# The command may fail (that is often why it is recorded): the log and the
# resource file are written all the same, and its exit status is ours.
status=0
strace -f -ttt -T -o "$out" "$@" || status=$?
rec_finish "$out" linux_strace "$status"
