#!/usr/bin/env python3
# scripts/gen_linux_strace.py — writes rules/linux_strace.cnv, the strace
# rules: every system call is kept whole — its name, its whole argument list
# (quoted strings with their escapes and "..." cuts, {structures}, [arrays],
# FLAG|FLAG), the named arguments of the common calls (path, fd, size, flags:
# which argument each is differs from call to call, one lookahead per family
# below), the return value, errno and its text, and the duration — in the
# rule language, which needs the same argument grammar and family table in
# every rule: JSON cannot say it once. ${name:esc} (docs/reference.md,
# section 7) keeps the log's commas, parentheses and braces inside one
# argument. Edit this, then:
#
#   scripts/gen_linux_strace.py > rules/linux_strace.cnv
#
# tests/e2e/test_linux_rules.sh checks the file is what this prints.
import json, collections
from rules_without_tid import add_without_tid
OD = collections.OrderedDict

# The time as `strace -ttt` (seconds since 1970) or `-tt` (the time of day,
# crossing midnight by itself) prints it, read by $CLOCK into microseconds.
HEAD = r"^(?:\[pid +)?(?<tid>\d+)\]? +(?<t>\d+\.\d{6}|\d\d:\d\d:\d\d\.\d{6}) "
T = "[$CLOCK{${t}}]"
TEND = "[$SUM{$CLOCK{${t}},${ds}${dus}}]"

# One argument as strace prints it: quoted strings (escapes, a "..." cut),
# nested {...} [...] (...), and anything else up to the next ", " (or the
# " <unfinished ...>" that ends the first half of a split call).
DEFINE = (r'(?(DEFINE)(?<q>"(?:[^"\\]|\\.)*+"(?:\.\.\.)?)'
          r'(?<in>[^{}\[\]()"]++|(?&q)|\{(?&in)*+\}|\[(?&in)*+\]|\((?&in)*+\))'
          r'(?<a>(?:[^,{}\[\]()"<]++|<(?!unfinished \.\.\.>$)|(?&q)|\{(?&in)*+\}|\[(?&in)*+\]|\((?&in)*+\))++))')
PATH = r'"(?<path>(?:[^"\\]|\\.)*)"(?<cut>\.\.\.)?'
DIRFD = r"(?:(?<fd>\d+)|(?&a))"

def after(*names):
    return "(?<=" + "|".join(r"\b" + n + r"\(" for n in names) + ")"

# Which argument is the path, the file descriptor, the size and the flags,
# by family; a call in none has only its whole argument list.
FAMILIES = [
    (["open", "creat"], PATH + r"(?:, (?<flags>(?&a)))?"),
    (["stat", "lstat", "access", "execve", "readlink", "unlink", "mkdir", "rmdir", "chdir",
      "statfs", "truncate", "chmod", "chown", "lchown", "utime", "utimes", "mknod", "rename",
      "link", "symlink", "getxattr", "lgetxattr", "setxattr", "lsetxattr", "listxattr",
      "removexattr", "chroot", "umount2", "swapon", "swapoff"], PATH),
    (["openat", "openat2"], DIRFD + ", " + PATH + r"(?:, (?<flags>(?&a)))?"),
    (["newfstatat", "fstatat64", "faccessat", "faccessat2", "readlinkat", "unlinkat", "mkdirat",
      "mknodat", "fchmodat", "fchownat", "futimesat", "utimensat", "renameat", "renameat2",
      "linkat", "statx", "execveat", "name_to_handle_at", "inotify_add_watch"],
     DIRFD + ", " + PATH),
    (["read", "write", "pread64", "pwrite64", "readv", "writev", "preadv", "pwritev",
      "recvfrom", "sendto", "getdents", "getdents64"],
     r"(?<fd>\d+)(?:, (?&a)(?:, (?<size>\d+))?)?"),
    (["mmap"], r"(?&a), (?<size>\d+), (?&a), (?<flags>(?&a)), (?<fd>-?\d+)"),
    (["munmap", "mprotect", "madvise", "mremap", "msync", "mlock", "munlock"],
     r"(?&a), (?<size>\d+)"),
    (["futex"], r"(?&a), (?<flags>[A-Z_|]+)"),
    (["clone"], r"[^()]*?\bflags=(?<flags>[A-Z0-9_|]+)"),
    (["clone3"], r"\{flags=(?<flags>[A-Z0-9_|]+)"),
    (["fcntl"], r"(?<fd>\d+), (?<flags>\w+)"),
    (["close", "fstat", "lseek", "ioctl", "fsync", "fdatasync", "ftruncate", "fchmod",
      "fchown", "fchdir", "flock", "fstatfs", "recvmsg", "recvmmsg", "sendmsg", "sendmmsg",
      "connect", "bind", "listen", "accept", "accept4", "shutdown", "getsockopt",
      "setsockopt", "getsockname", "getpeername", "dup", "dup2", "dup3", "epoll_ctl",
      "epoll_wait", "epoll_pwait", "fadvise64", "fallocate", "readahead", "fgetxattr",
      "fsetxattr", "sendfile", "splice", "syncfs", "copy_file_range", "timerfd_settime",
      "timerfd_gettime", "inotify_rm_watch", "fanotify_mark"], r"(?<fd>-?\d+)"),
]
NAMED = "(?=(?:" + "|".join(after(*names) + pat for names, pat in FAMILIES) + ")?)"

RET = (r"\) += (?<result>-?\w+|\?)(?: (?<errno>E[A-Z0-9_]+) \((?<errtext>[^)]*)\))?"
       r"(?<more>.*?)(?: <(?<ds>\d+)\.(?<dus>\d{6})>)?$")
EXPECTED = ["EAGAIN", "EWOULDBLOCK", "ETIMEDOUT", "EINTR", "EINPROGRESS", "ERESTARTSYS",
            "ERESTARTNOINTR", "ERESTARTNOHAND", "ERESTART_RESTARTBLOCK"]
OUTCOME = ("$OUTCOME{${errno}!=; " + "||".join("${errno}==" + e for e in EXPECTED) + "}")
ENTER = "T${tid}.enter(${name},${args:esc},${path:esc}${cut},${fd},${size},${flags:esc})"

def leave(rest):
    return ("T${tid}.leave(${name},${result:esc}${more:esc},${errno}," + OUTCOME +
            ",${errtext:esc}," + rest + ")")

rules = OD()
# A whole call: entered at its time, left after its duration (or at once).
rules["(?J)" + DEFINE + HEAD + r"(?!.*<unfinished \.\.\.>$)(?<name>\w+)\(" + NAMED +
      r"(?<args>.*)" + RET] = [
    T + ENTER,
    OD([("${ds}!=", TEND + leave("")), ("${ds}==", T + leave(""))])]
# Its first half: what strace printed at entry (the named arguments in it).
rules["(?J)" + DEFINE + HEAD + r"(?<name>\w+)\(" + NAMED +
      r"(?<args>.*?) ?<unfinished \.\.\.>$"] = T + ENTER
# Its second half: the rest of the arguments (after an escaped space, which
# the trimming of the standard form keeps: the first half ends with ",", and
# the box's text joins the two), then the return.
rules["(?J)" + HEAD + r"<\.\.\. (?<name>\w+) resumed> ?(?<rest>.+)" + RET] = T + leave("\\ ${rest:esc}")
rules["(?J)" + HEAD + r"<\.\.\. (?<name>\w+) resumed>" + RET] = T + leave("")

# Programs (from execve), threads and processes (clone, fork), signals and exits.
rules[HEAD + r"execve\(\"(?:[^\"]*/)?(?<prog>[^\"/]*)\",.*\) += 0(?: <(?<ds>\d+)\.(?<dus>\d{6})>)?$"] = [
    T + "T${tid}.comm=${prog}",
    T + "T${tid}.pid=${tid}",
    T + "T${tid}.label=${prog}[${tid}]"]
rules[HEAD + r"execve\(\"(?:[^\"]*/)?(?<prog>[^\"/]*)\",.*<unfinished \.\.\.>$"] = T + "T${tid}.execProg=${prog}"
rules[HEAD + r"<\.\.\. execve resumed>.*\) += 0(?: <\d+\.\d+>)?$"] = OD([
    ("$ATTR{T${tid}.execProg}!=", [
        T + "T${tid}.comm=$ATTR{T${tid}.execProg}",
        T + "T${tid}.pid=${tid}",
        T + "T${tid}.label=$ATTR{T${tid}.execProg}[${tid}]"])])
rules[HEAD + r"clone3?\(.*\bCLONE_THREAD\b.*\) += (?<child>\d+) <(?<ds>\d+)\.(?<dus>\d{6})>$"] = [
    TEND + "T${child}.pid=$ATTR{T${tid}.pid}",
    TEND + "T${child}.comm=$ATTR{T${tid}.comm}",
    TEND + "T${child}.label=$ATTR{T${tid}.comm}[$ATTR{T${tid}.pid}] thread ${child}",
    TEND + "T${tid}.spawn(${child},thread)"]
rules[HEAD + r"clone3?\(.*\bCLONE_THREAD\b.*\) += (?<child>\d+)$"] = [
    T + "T${child}.pid=$ATTR{T${tid}.pid}",
    T + "T${child}.comm=$ATTR{T${tid}.comm}",
    T + "T${child}.label=$ATTR{T${tid}.comm}[$ATTR{T${tid}.pid}] thread ${child}",
    T + "T${tid}.spawn(${child},thread)"]
rules[HEAD + r"(?:clone3?|v?fork)\((?!.*\bCLONE_THREAD\b).*\) += (?<child>\d+) <(?<ds>\d+)\.(?<dus>\d{6})>$"] = [
    TEND + "T${child}.comm=$ATTR{T${tid}.comm}",
    TEND + "T${child}.label=$ATTR{T${tid}.comm}[${child}]",
    TEND + "T${tid}.spawn(${child},process)"]
rules[HEAD + r"(?:clone3?|v?fork)\((?!.*\bCLONE_THREAD\b).*\) += (?<child>\d+)$"] = [
    T + "T${child}.comm=$ATTR{T${tid}.comm}",
    T + "T${child}.label=$ATTR{T${tid}.comm}[${child}]",
    T + "T${tid}.spawn(${child},process)"]
rules[HEAD + r"clone3?\(.*\bCLONE_THREAD\b.*<unfinished \.\.\.>$"] = T + "T${tid}.cloning=thread"
rules[HEAD + r"(?:clone3?|v?fork)\((?!.*\bCLONE_THREAD\b).*<unfinished \.\.\.>$"] = T + "T${tid}.cloning=process"
rules[HEAD + r"<\.\.\. (?:clone3?|v?fork) resumed>.*? += (?<child>\d+)(?: <\d+\.\d+>)?$"] = OD([
    ("$ATTR{T${tid}.cloning}==thread", [
        T + "T${child}.pid=$ATTR{T${tid}.pid}",
        T + "T${child}.comm=$ATTR{T${tid}.comm}",
        T + "T${child}.label=$ATTR{T${tid}.comm}[$ATTR{T${tid}.pid}] thread ${child}",
        T + "T${tid}.spawn(${child},thread)"]),
    ("$ATTR{T${tid}.cloning}==process", [
        T + "T${child}.comm=$ATTR{T${tid}.comm}",
        T + "T${child}.label=$ATTR{T${tid}.comm}[${child}]",
        T + "T${tid}.spawn(${child},process)"])])
rules[HEAD + r"--- (?<sig>SIG\w+) \{(?:.*?\bsi_code=(?<code>\w+))?.*\} ---$"] = T + "T${tid}.signal(${sig},${code})"
rules[HEAD + r"\+\+\+ exited with (?<status>\d+) \+\+\+$"] = [
    T + "T${tid}.exit(${status})",
    T + "T${tid}.state=exited"]
rules[HEAD + r"\+\+\+ killed by (?<sig>SIG\w+)(?: \(core dumped\))? \+\+\+$"] = [
    T + "T${tid}.killed(${sig})",
    T + "T${tid}.state=exited"]
rules[HEAD + r"\+\+\+ superseded by execve in pid (?<by>\d+) \+\+\+$"] = [
    T + "T${tid}.exit(0)",
    T + "T${tid}.state=exited"]
# Without -f strace prints no thread id (scripts/rules_without_tid.py).
add_without_tid(rules, HEAD, HEAD.replace(r"(?:\[pid +)?(?<tid>\d+)\]? +", ""), ["[${tid}]"])
print(json.dumps({"linux_strace": rules}, indent=2, ensure_ascii=False))
