#!/usr/bin/env python3
# scripts/gen_linux_heap.py — writes rules/linux_heap.cnv, the ltrace heap
# rules: every call (malloc, calloc, realloc, free; whole, unfinished and
# resumed) shares the same bookkeeping (the thread and its process exist, the
# process is named, bytes and blocks counted per process, blocks keyed by
# process), which JSON cannot say once. Edit this, then:
#
#   scripts/gen_linux_heap.py > rules/linux_heap.cnv
#
# tests/e2e/test_linux_rules.sh checks the file is what this prints.
import json, collections
from rules_without_tid import add_without_tid
OD = collections.OrderedDict
HEAD = r"^(?<tid>\d+) +(?<t>\d+\.\d{6}|\d\d:\d\d:\d\d\.\d{6}) "
CALLER = r"(?:(?<prog>[^ ./]+)|(?!libc\.so)[^ ]*?)->"
LIBC = r"libc\.so[.0-9]*->(?:malloc|calloc|realloc|free)\("
DUR = r"(?: <\d+\.\d{6}>)?$"
RET = r"(?:(?<ret>0x[0-9a-f]+)|0|\(nil\))"
ADDR = r"(?:(?<a>0x[0-9a-f]+)|0|\(nil\))"
UNF = r" <(?:unfinished|no return) \.\.\.>$"
T = "[$CLOCK{${t}}]"
PID = "$ATTR{T${tid}.pid}"
P = "P" + PID

def B(addr):
    return "B" + PID + "_" + addr

# Every line of a thread: the thread and its process exist (a thread seen
# first is a process of its own until a clone line says otherwise).
def prelude(with_prog):
    out = [{"$EXIST{T${tid}}==False": T + "T${tid}.pid=${tid}"},
           {"$EXIST{" + P + "}==False": [T + P + ".inuse=0", T + P + ".blocks=0"]}]
    if with_prog:
        out.append({"${prog}!=": {"$ATTR{" + P + ".label}==": T + P + ".label=${prog}[" + PID + "]"}})
    # a thread is named after its process (calls from a library, such as
    # liblzma.so.5->malloc, do not name the program)
    out.append({"$ATTR{" + P + ".label}!=": {"$ATTR{T${tid}.label}==": OD([
        ("${tid}==" + PID, T + "T${tid}.label=$ATTR{" + P + ".label}"),
        ("${tid}!=" + PID, T + "T${tid}.label=$ATTR{" + P + ".label} thread ${tid}")])}})
    return out

def alloc(fn, size, ret="${ret}"):
    return [T + B(ret) + ".owner=T${tid}",
            T + B(ret) + ".size=" + size,
            T + B(ret) + ".by=" + fn,
            T + B(ret) + ".state=live",
            T + P + ".inuse=$CALC{$ATTR{" + P + ".inuse}+" + size + "}",
            T + P + ".blocks=$CALC{$ATTR{" + P + ".blocks}+1}"]

def allocated(fn, size, ret="${ret}"):
    return OD([("${ret}==", T + P + ".failed(" + fn + "," + size + ")"),
               ("${ret}!=", alloc(fn, size, ret))])

def release(fn, a):
    b = B(a)
    return OD([("$EXIST{" + b + "}==False", T + P + ".unknown(" + fn + "," + a + ")"),
               ("$EXIST{" + b + "}==True", OD([
                   ("$ATTR{" + b + ".state}!=live", T + P + ".unknown(" + fn + "," + a + ")"),
                   ("$ATTR{" + b + ".state}==live", [
                       T + P + ".inuse=$CALC{$ATTR{" + P + ".inuse}-$ATTR{" + b + ".size}}",
                       T + P + ".blocks=$CALC{$ATTR{" + P + ".blocks}-1}",
                       T + b + ".state=freed"])]))])

def freed(fn, a):
    return OD([(a + "==", ""), (a + "!=", release(fn, a))])

# realloc(a, b) = ret: a NULL is malloc(b); NULL back with b 0 frees a;
# NULL back otherwise failed (a stays); else a is released and ret holds b.
def reallocated(a, b):
    return OD([
        (a + "==", allocated("realloc", b)),
        (a + "!=", OD([
            ("${ret}==", OD([(b + "==0", release("realloc", a)),
                            (b + "!=0", T + P + ".failed(realloc," + b + ")")])),
            ("${ret}!=", [release("realloc", a), alloc("realloc", b)])]))])

rules = OD()
def rule(regex, body, with_prog=True):
    rules[regex] = prelude(with_prog) + [body]

# The resumed half of a call: skipped when its first half was one of libc's.
def resumed(regex, body):
    # (members are tried in order, each seeing what the ones before did)
    rules[regex] = prelude(False) + [OD([
        ("$ATTR{T${tid}.pendSkip}!=yes", body),
        ("$ATTR{T${tid}.pendSkip}==yes", T + "T${tid}.pendSkip=")])]

pa, pb = "$ATTR{T${tid}.pendA}", "$ATTR{T${tid}.pendB}"
# malloc
rule(HEAD + CALLER + r"malloc\((?<a>\d+)\) += " + RET + DUR, allocated("malloc", "${a}"))
rule(HEAD + CALLER + r"malloc\((?<a>\d+)" + UNF, T + "T${tid}.pendA=${a}")
resumed(HEAD + r"<\.\.\. malloc resumed> *\) += " + RET + DUR, allocated("malloc", pa))
# calloc: n x size
rule(HEAD + CALLER + r"calloc\((?<a>\d+), (?<b>\d+)\) += " + RET + DUR,
     allocated("calloc", "$CALC{${a}*${b}}"))
rule(HEAD + CALLER + r"calloc\((?<a>\d+), (?<b>\d+)" + UNF,
     [T + "T${tid}.pendA=${a}", T + "T${tid}.pendB=${b}"])
resumed(HEAD + r"<\.\.\. calloc resumed> *\) += " + RET + DUR,
        allocated("calloc", "$CALC{" + pa + "*" + pb + "}"))
# free
rule(HEAD + CALLER + r"free\(" + ADDR + r"\) += <void>" + DUR, freed("free", "${a}"))
rule(HEAD + CALLER + r"free\(" + ADDR + UNF, T + "T${tid}.pendA=${a}")
resumed(HEAD + r"<\.\.\. free resumed> *\) += <void>" + DUR, freed("free", pa))
# realloc
rule(HEAD + CALLER + r"realloc\(" + ADDR + r", (?<b>\d+)\) += " + RET + DUR,
     reallocated("${a}", "${b}"))
rule(HEAD + CALLER + r"realloc\(" + ADDR + r", (?<b>\d+)" + UNF,
     [T + "T${tid}.pendA=${a}", T + "T${tid}.pendB=${b}"])
resumed(HEAD + r"<\.\.\. realloc resumed> *\) += " + RET + DUR, reallocated(pa, pb))

# Calls ltrace 0.7.3 puts on libc itself are its misreadings of libc's own
# PLT (libc.so.6->realloc(0x55.., 6) = 0x6): read, and left out.
rules[HEAD + LIBC + r".*\) += .*$"] = ""
rule(HEAD + LIBC + r".*" + UNF, T + "T${tid}.pendSkip=yes", False)

# Threads and processes, from the system calls of ltrace -S (the recorder
# keeps only these): clone with CLONE_VM (0x100: a thread, or a vfork-like
# child sharing the memory until it execs), clone3 (glibc's threads and
# posix_spawn; its flags are in memory ltrace does not show) and vfork share
# the parent's heap; fork and clone without CLONE_VM make a process of its own.
CHILD = r"(?<child>[1-9]\d*|0x[0-9a-f]+)"
def share(child="${child}"):
    return T + "T$CALC{" + child + "}.pid=" + PID
def own(child="${child}"):
    return T + "T$CALC{" + child + "}.pid=$CALC{" + child + "}"
def by_flags(flags):
    vm = "$CALC{((" + flags + ")-(" + flags + ")%256)/256%2}"
    return OD([(vm + "==1", share()), (vm + "==0", own())])
rule(HEAD + r"SYS_clone\((?<f>0x[0-9a-f]+|\d+), .*\) += " + CHILD + DUR, by_flags("${f}"), False)
rule(HEAD + r"SYS_clone\((?<f>0x[0-9a-f]+|\d+), .*" + UNF, T + "T${tid}.pendA=${f}", False)
rule(HEAD + r"<\.\.\. SYS_clone resumed> .*\) += " + CHILD + DUR, by_flags(pa), False)
rule(HEAD + r"SYS_(?:clone3|435|vfork)\(.*\) += " + CHILD + DUR, share(), False)
rule(HEAD + r"<\.\.\. SYS_(?:clone3|435|vfork) resumed> .*\) += " + CHILD + DUR, share(), False)
rule(HEAD + r"SYS_fork\(.*\) += " + CHILD + DUR, own(), False)
rule(HEAD + r"<\.\.\. SYS_fork resumed> .*\) += " + CHILD + DUR, own(), False)
# every other system call line (ltrace -S) is read and not drawn
rules[HEAD + r"(?:SYS_\w+\(.*|<\.\.\. SYS_\w+ resumed> .*)$"] = ""

# the program: exec, exits, signals, ltrace's complaints
rule(HEAD + r"--- Called exec\(\) ---$",
     [T + "T${tid}.pid=${tid}", T + "T${tid}.label=",
      {"$EXIST{P${tid}}==False": [T + "P${tid}.inuse=0", T + "P${tid}.blocks=0"]},
      T + "P${tid}.label=", T + "P${tid}.inuse=0", T + "P${tid}.blocks=0", T + "P${tid}.exec()"],
     False)
rule(HEAD + r"\+\+\+ exited \(status (?<status>\d+)\) \+\+\+$",
     OD([("${tid}==" + PID, T + P + ".exit(${status})"),
         ("${tid}!=" + PID, T + P + ".threadExit(${tid},${status})")]), False)
rule(HEAD + r"\+\+\+ killed by (?<sig>SIG\w+) \+\+\+$", T + P + ".killed(${sig},${tid})", False)
rule(HEAD + r"(?<msg>unexpected breakpoint at 0x[0-9a-f]+)$", T + P + ".ltrace(${msg})", False)
rule(HEAD + r"--- (?<sig>SIG\w+) \((?<what>.*)\) ---$", T + P + ".signal(${sig},${what})", False)

# Without -f ltrace prints no thread id (scripts/rules_without_tid.py).
add_without_tid(rules, HEAD, HEAD.replace(r"(?<tid>\d+) +", ""), ["[" + PID + "]"])
print(json.dumps({"linux_heap": rules}, indent=2, ensure_ascii=False))
