# check_trace.awk — replays a TOPPERS ASP/FMP trace the way the asp/fmp
# conversion rules see it and reports what would convert inconsistently.
#
#   awk -f check_trace.awk RESFILE LOG        (LOG in time order: sort FMP first)
#
# RESFILE is read line by line, as tlv-gen --emit-res and the corpus write it
# (one attribute per line).  Checked: every id the log names is declared (for
# the processor that names it), task state changes are transitions asp.cnv
# lists, a dispatched task was RUNNABLE, "dispatch from" names the task on
# that processor, a task's service-call leave matches its enter, migrations
# start on the task's processor, handlers nest, handler-only calls (i*, sns)
# run with a current context, and task calls run while a task is RUNNING.
# Prints a summary; exit status 1 when anything was found.

function problem(kind, msg) {
    nprob[kind]++
    if (nprob[kind] <= 3) printf "  %s (line %d): %s\n", kind, FNR, msg
    bad = 1
}

function commit() {
    if (rtype == "Task") { tstate[rid] = rstate; tprc[rid] = (rprc == "" ? 1 : rprc); declared["task", rid] = 1 }
    else if (rtype == "InterruptHandler") declared["inh", (rprc == "" ? 1 : rprc), rid] = 1
    else if (rtype == "CyclicHandler") declared["cyc", (rprc == "" ? 1 : rprc), rid] = 1
    else if (rtype == "AlarmHandler") declared["alm", (rprc == "" ? 1 : rprc), rid] = 1
    else if (rtype == "CPUExceptionHandler") declared["exc", (rprc == "" ? 1 : rprc), rid] = 1
    else if (rtype == "ApplogString") declared["str", rid] = 1
    else if (rtype == "ApplogState") declared["state", rid] = 1
    rtype = ""; rid = ""; rprc = ""; rstate = "DORMANT"
}

function value(line) {
    sub(/^[^:]*:[ \t]*/, "", line); gsub(/[",\r]/, "", line); sub(/[ \t]+$/, "", line)
    return line
}

BEGIN {
    split("DORMANT>RUNNABLE RUNNING>DORMANT RUNNING>WAITING RUNNABLE>SUSPENDED " \
          "WAITING>WAITING-SUSPENDED SUSPENDED>RUNNABLE WAITING-SUSPENDED>WAITING " \
          "WAITING>RUNNABLE WAITING-SUSPENDED>SUSPENDED SUSPENDED>DORMANT " \
          "WAITING-SUSPENDED>DORMANT WAITING>DORMANT RUNNABLE>DORMANT", tr, " ")
    for (i in tr) legal[tr[i]] = 1
    rstate = "DORMANT"
}

# ---- the resource file
FNR == NR {
    if ($0 ~ /"Type"[ \t]*:/) { commit(); rtype = value($0) }
    else if ($0 ~ /"id"[ \t]*:/) rid = value($0) + 0
    else if ($0 ~ /"prcId[ICAERX]?"[ \t]*:/) rprc = value($0) + 0
    else if ($0 ~ /"state"[ \t]*:/) rstate = value($0)
    next
}
FNR == 1 { commit() }

# ---- the log
{
    line = $0; sub(/\r$/, "", line)
    if (line !~ /^\[[0-9]+\]/) { other++; next }
    i = index(line, "]"); rest = substr(line, i + 1); P = 1
    if (substr(rest, 1, 2) == ":[") { j = index(rest, "]"); P = substr(rest, 3, j - 3) + 0; rest = substr(rest, j + 2) }
    sub(/^ /, "", rest)
    n = split(rest, w, " ")
    for (k = 1; k <= n; k++) { x[k] = w[k]; sub(/\.$/, "", x[k]) }
    lines++
    if (w[1] == "dispatch" && w[2] == "to") dispatch_to(x[4] + 0)
    else if (w[1] == "dispatch" && w[2] == "from") dispatch_from(x[4] + 0)
    else if (w[1] == "task" && w[3] == "becomes") becomes(x[2] + 0, x[4])
    else if (w[1] == "task" && w[3] == "migrates") migrates(x[2] + 0, x[6] + 0, x[9] + 0)
    else if ((w[1] == "enter" || w[1] == "leave") && w[4] == "handler") handler(w[1], w[3], x[5] + 0)
    else if (w[1] == "enter" && w[2] == "to") svc("enter", x[3])
    else if (w[1] == "leave" && w[2] == "from") svc("leave", x[3])
    else if (w[1] == "applog") applog(w[2], x[5])
    else other++
}

function running_on(p,    id) {
    for (id in tstate) if (tstate[id] == "RUNNING" && tprc[id] == p) return id
    return 0
}

function need_task(id) {
    if (!declared["task", id]) { problem("undeclared task", id); return 0 }
    return 1
}

function dispatch_to(id,    r) {
    if (!need_task(id)) return
    if (tprc[id] != P) problem("dispatch on wrong processor", "task " id " is on " tprc[id] ", dispatched on " P)
    if (tstate[id] != "RUNNABLE") problem("dispatch of a non-RUNNABLE task", "task " id " is " tstate[id])
    r = running_on(P)
    if (r) { tstate[r] = "RUNNABLE"; preempts++ }
    tstate[id] = "RUNNING"; last[P] = id; ctx[P] = "task"; dispatches++
}

function dispatch_from(id) {
    if (last[P] != id) problem("dispatch from another task", "from " id ", last dispatched " last[P])
    last[P] = 0
}

function becomes(id, st,    from) {
    if (!need_task(id)) return
    from = tstate[id]
    if (!legal[from ">" st]) problem("illegal transition", "task " id ": " from " -> " st)
    tstate[id] = st; changes++
    if (st == "DORMANT") open_svc[id] = ""
}

function migrates(id, a, b) {
    if (!need_task(id)) return
    if (tprc[id] != a) problem("migration from the wrong processor", "task " id " is on " tprc[id] ", not " a)
    if (tstate[id] == "RUNNING") tstate[id] = "RUNNABLE"
    tprc[id] = b; migrations++
}

function handler(dir, kind, id,    key) {
    key = kind == "int" ? "inh" : kind == "cyclic" ? "cyc" : kind == "alarm" ? "alm" : kind
    if (!declared[key, P, id]) problem("undeclared handler", kind " handler " id " on processor " P)
    if (dir == "enter") { depth[P]++; ctx[P] = "handler"; handlers++ }
    else if (--depth[P] < 0) { problem("leave without enter", kind " handler " id); depth[P] = 0 }
}

# The three service-call rules of asp.cnv/fmp.cnv: i-prefixed and sns calls
# report against the current context, the others against the running task.
function svc(dir, name,    r) {
    if (name ~ /^(i[a-z0-9]*_[a-z0-9_]+|x?sns_[a-z0-9_]+|get_utm|ext_ker)$/) {
        if (ctx[P] == "") problem("context call without a context", dir " " name)
        return
    }
    if (name !~ /^[a-hj-wyz0-9][a-z0-9]*_[a-z0-9_]+$/) { other++; return }
    r = running_on(P)
    if (!r) { problem("task call with no RUNNING task (dropped by the rules)", dir " " name); return }
    if (dir == "enter") open_svc[r] = name
    else if (open_svc[r] != name) problem("leave does not match enter", "task " r ": left " name ", entered " open_svc[r])
    else open_svc[r] = ""
    svcs++
}

function applog(kind, id) {
    if (kind == "str" && !declared["str", id]) problem("undeclared ApplogString", id)
    if (kind == "state" && !declared["state", id]) problem("undeclared ApplogState", id)
    if ((kind == "strtask" || kind == "statetask") && !declared["task", id]) problem("undeclared task in applog", id)
    applogs++
}

END {
    printf "  replayed %d lines: %d dispatches (%d preemptions), %d state changes, %d migrations, " \
           "%d handler runs, %d task service calls, %d applogs, %d other\n", \
           lines, dispatches, preempts, changes, migrations, handlers, svcs, applogs, other
    for (k in nprob) printf "  PROBLEM x%d: %s\n", nprob[k], k
    exit bad
}
