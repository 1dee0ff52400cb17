#!/usr/bin/env bash
# samples/linux/record_heap.sh — records a program's malloc, calloc, realloc
# and free calls, every thread and child process, with ltrace in the form the
# linux_heap rules read (ltrace -f -ttt -T -S -e malloc+free+calloc+realloc,
# keeping of the system calls only clone, clone3, fork and vfork, which say
# which threads share a heap), with the resource file next to the log.
#
#   samples/linux/record_heap.sh OUT.log COMMAND [ARGS...]   record any command
#   samples/linux/record_heap.sh OUT.log                     build and record heap.c
#
# Then: tlv view -r OUT.res OUT.log   (or tlv render / tlv stats; -r linux_heap.res
# works from anywhere). ltrace sees the calls a program makes itself (through
# its PLT), not those made inside other libraries. The log and OUT.res are
# written even when the command fails; the script exits with the command's
# status. Needs ltrace (Debian/Ubuntu: apt-get install ltrace; scripts/setup.sh
# installs it). ltrace 0.7.3 (Debian 12) aborts on programs that vfork or
# posix_spawn, such as make running a compiler: the log then ends where ltrace
# stopped. LTRACE_FOLLOW=no records the command's own process only (no -f):
# that works for make (its own heap, not its compilers').
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
follow=(-f)
[ "${LTRACE_FOLLOW:-yes}" != no ] || follow=()
ltrace "${follow[@]}" -ttt -T -S -e malloc+free+calloc+realloc -o "$tmp/raw.log" "$@" || status=$?
# The system calls tell threads (sharing their process's heap) from processes;
# only those creating them are kept.
keep='!/^([0-9]+ +)?[0-9.:]+ (SYS_|<\.\.\. SYS_)/ || /SYS_(clone|clone3|435|fork|vfork)[( ]/'
if [ ${#follow[@]} -eq 0 ]; then
  # Without -f ltrace prints no thread ID. The process's first system calls
  # include set_tid_address, which returns it (glibc calls it at start-up).
  pid="$(awk '/ SYS_set_tid_address\(.*\) += [0-9x]/ { sub(/.* = /, ""); print $1; exit }' "$tmp/raw.log")"
  pid="$(printf '%d' "${pid:-0}" 2>/dev/null || echo 0)"
  awk -v pid="$pid" "$keep { print pid \" \" \$0 }" "$tmp/raw.log" >"$out"
else
  awk "$keep" "$tmp/raw.log" >"$out"
fi
if [ "$status" -eq 134 ] && [ ${#follow[@]} -gt 0 ]; then
  echo "$me: ltrace aborted (status 134); ltrace 0.7.3 cannot follow children that vfork or" \
    "posix_spawn (make running a compiler). LTRACE_FOLLOW=no records the command's own heap." >&2
fi
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
