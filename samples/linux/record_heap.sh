#!/usr/bin/env bash
# samples/linux/record_heap.sh — records a program's malloc, calloc, realloc
# and free calls, every thread and child process, with ltrace in the form the
# linux_heap rules read (ltrace -f -ttt -T -e malloc+free+calloc+realloc),
# with the resource file next to the log.
#
#   samples/linux/record_heap.sh OUT.log COMMAND [ARGS...]   record any command
#   samples/linux/record_heap.sh OUT.log                     build and record heap.c
#
# Then: tlv view -r OUT.res OUT.log   (or tlv render / tlv stats; -r linux_heap.res
# works from anywhere). ltrace sees the calls a program makes itself (through
# its PLT), not those made inside other libraries. The log and OUT.res are
# written even when the command fails; the script exits with the command's
# status. Needs ltrace (Debian/Ubuntu: apt-get install ltrace; scripts/setup.sh
# installs it). ltrace 0.7.3 (Debian 12) aborts on programs that vfork, such
# as make running a compiler: the log then ends where ltrace stopped.
. "$(dirname "$0")/record_lib.sh"
[ $# -ge 1 ] || rec_usage
out="$1"
shift
rec_need ltrace "Debian/Ubuntu: apt-get install ltrace"
rec_tmp
if [ $# -eq 0 ]; then
  # The bundled program: two threads building and freeing trees, two leaks.
  set -- "$(rec_demo heap.c -O2 -pthread)"
fi
status=0
ltrace -f -ttt -T -e malloc+free+calloc+realloc -o "$out" "$@" || status=$?
# ltrace exits with 0 whatever the command did; the log says how the first
# process (the command) ended.
if [ "$status" -eq 0 ] && [ -s "$out" ]; then
  pid="$(awk 'NR == 1 { print $1 }' "$out")"
  ended="$(awk -v p="$pid" '$1 == p && /^[0-9]+ [0-9.:]+ \+\+\+ (exited|killed)/' "$out" | tail -n 1)"
  case "$ended" in
    *"exited (status "*) status="$(echo "$ended" | sed 's/.*exited (status \([0-9]*\)).*/\1/')" ;;
    *"killed by SIG"*) status=$((128 + $(kill -l "$(echo "$ended" | sed 's/.*killed by SIG\([A-Z0-9]*\).*/\1/')" 2>/dev/null || echo 0))) ;;
  esac
fi
rec_finish "$out" linux_heap "$status"
