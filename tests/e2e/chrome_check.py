#!/usr/bin/env python3
"""chrome_check.py TRACE.json — checks a Chrome Trace Event file as
`tlv export --format chrome` writes it, the way a consumer reads it: the
phases and fields each event needs; complete events ("X") properly nested on
each thread; counters ("C") with numeric series; flows ("s"/"f") paired by id,
with the same name and category, the end bound to the enclosing slice
("bp":"e"), each end on a thread with a slice of the same category that
begins at its time (the slice it binds to: its source's, or a zero-length
anchor); every thread named and sorted (process_sort_index,
thread_sort_index). Prints a summary line, or the problems and exits 1.
With --threads, also prints each process's threads in sort order."""
import json
import sys
from collections import defaultdict

problems = []


def bad(msg):
    problems.append(msg)


def number(e, key):
    v = e.get(key)
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def main():
    path = sys.argv[1]
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
        print(f"{path}: not an object with a traceEvents array")
        return 1
    slices = defaultdict(list)  # (pid, tid) -> [(ts, dur, cat, name)]
    flows = defaultdict(list)
    counters = defaultdict(int)
    names = {}
    sort_index = {}
    proc_sort = {}
    used_threads = set()
    for i, e in enumerate(doc["traceEvents"]):
        where = f"event {i}"
        ph = e.get("ph")
        if ph not in ("X", "i", "C", "s", "f", "M"):
            bad(f"{where}: phase {ph!r}")
            continue
        if not isinstance(e.get("name"), str) or not number(e, "pid"):
            bad(f"{where}: no name or pid")
            continue
        pid = e["pid"]
        if ph == "M":
            args = e.get("args", {})
            if e["name"] == "thread_name":
                names[(pid, e.get("tid"))] = args.get("name")
            elif e["name"] == "thread_sort_index":
                sort_index[(pid, e.get("tid"))] = args.get("sort_index")
            elif e["name"] == "process_sort_index":
                proc_sort[pid] = args.get("sort_index")
            elif e["name"] != "process_name":
                bad(f"{where}: metadata {e['name']!r}")
            continue
        if not number(e, "ts") or e["ts"] < 0:
            bad(f"{where}: ts")
            continue
        if ph == "C":
            args = e.get("args")
            if not isinstance(args, dict) or not args or not all(
                isinstance(v, (int, float)) for v in args.values()
            ):
                bad(f"{where}: counter args {args!r}")
            counters[(pid, e["name"])] += 1
            continue
        if not number(e, "tid"):
            bad(f"{where}: no tid")
            continue
        key = (pid, e["tid"])
        if ph == "X":
            if not number(e, "dur") or e["dur"] < 0:
                bad(f"{where}: dur")
            slices[key].append((e["ts"], e.get("dur", 0), e.get("cat"), e["name"]))
            used_threads.add(key)
        elif ph == "i":
            used_threads.add(key)
        else:
            if not number(e, "id"):
                bad(f"{where}: flow without id")
            if ph == "f" and e.get("bp") != "e":
                bad(f"{where}: flow end not bound to its enclosing slice (bp)")
            flows[e.get("id")].append(e)
    for key, v in slices.items():
        v.sort(key=lambda s: (s[0], -s[1]))
        stack = []
        for ts, dur, _cat, name in v:
            while stack and ts >= stack[-1] and not (dur == 0 and ts == stack[-1]):
                stack.pop()
            if stack and ts + dur > stack[-1]:
                bad(f"thread {key}: '{name}' at {ts} overlaps its parent without nesting")
            stack.append(ts + dur)
    for fid, ends in flows.items():
        phases = sorted(e["ph"] for e in ends)
        if phases != ["f", "s"]:
            bad(f"flow {fid}: phases {phases}")
            continue
        if len({(e["name"], e.get("cat")) for e in ends}) != 1:
            bad(f"flow {fid}: ends differ in name or category")
        for e in ends:
            key = (e["pid"], e["tid"])
            if not any(s[0] == e["ts"] and s[2] == e.get("cat") for s in slices[key]):
                bad(f"flow {fid}: no anchor slice at {e['ts']} on thread {key}")
    for key in used_threads:
        if key not in names or key not in sort_index:
            bad(f"thread {key}: not named or not sorted")
    for pid in {k[0] for k in used_threads}:
        if pid not in proc_sort:
            bad(f"process {pid}: no process_sort_index")
    if problems:
        for p in problems[:20]:
            print(p)
        return 1
    nslices = sum(len(v) for v in slices.values())
    print(f"ok: {nslices} slices on {len(used_threads)} threads, "
          f"{sum(counters.values())} counter events on {len(counters)} tracks, "
          f"{len(flows)} flows")
    if "--threads" in sys.argv:
        order = sorted(names, key=lambda k: (proc_sort.get(k[0], 0), sort_index.get(k, 0)))
        for key in order:
            print(names[key])
    return 0


if __name__ == "__main__":
    sys.exit(main())
