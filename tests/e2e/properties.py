#!/usr/bin/env python3
"""properties.py — property-based tests of the whole pipeline (issue 32).

Generates random valid rule sets (a resource header, conversion rules of every
kind the rule language offers that always give an event or an error: plain
substitutions, a list of outputs, a choice whose conditions cover every case,
$RES_NAME lookups, $ATTR values; visualization rules drawing each state and
instant) and random logs for them (times rising, jumping back, at the edges
of 64 bits and past them; lines no rule matches; lines naming resources that
do not exist), runs tlv on them, and checks what must hold for every input,
in every output format:

  - convert: every log line is in the trace (SQLite events.line), listed as
    unmatched (--unmatched) or named by an error; the exit status is 1 exactly
    when there were errors;
  - standard form: convert -> standard form -> read again gives the same
    trace byte for byte, and the same CSV;
  - CSV: every interval has end >= start and duration = end - start exactly;
  - SQLite: every interval has end_ts >= ts and dur >= 0; as many intervals
    as CSV rows; as many events as trace lines;
  - Chrome: every complete event has a finite ts and dur >= 0;
  - stats: per-CPU busy time within [0, span], utilization within [0, 1];
    per resource whose state changes and per state, the total time of the
    CSV's intervals (the state rule draws every value) is stats' total, and
    stats' count lies between 1 and the number of CSV intervals of positive
    length (stats joins a run of changes to one value).

Bounded in time: cases run until TLV_PROP_SECONDS (default 20) have passed or
TLV_PROP_CASES (default 1000) are done. The seed is random per run and
printed; TLV_PROP_SEED=S runs the same cases again. On a failure the case's
files are kept in TLV_PROP_KEEP (default: a directory named in the message).
Exit: 0 all held, 1 a property failed.
"""
import csv
import io
import json
import math
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from decimal import Decimal

TLV = os.environ["TLV_BIN"]
INT64_MIN, INT64_MAX = -(2 ** 63), 2 ** 63 - 1
VALUES = ["RUNNING", "READY", "WAITING", "IDLE", "DORMANT"]


class Failure(Exception):
    pass


def check(cond, what):
    if not cond:
        raise Failure(what)


# ---- generating a rule set and a log --------------------------------------------------------

def rule_set(rng):
    """Resource header, conversion rules, visualization rules and resource
    file as texts, and what the log generator needs to know of them."""
    cpus = rng.choice([1, 1, 2])
    resh = {"p": {"Task": {"Attributes": {
        "id": {"VariableType": "Number", "AllocationType": "Static"},
        "state": {"VariableType": "String", "AllocationType": "Dynamic",
                  "Default": rng.choice(VALUES)},
        "prcId": {"VariableType": "Number", "AllocationType": "Dynamic", "Default": 1}},
        "Behaviors": {"call": {"Arguments": {"a": "String", "b": "String"}}, "mark": {}}}}}
    if cpus == 1:
        del resh["p"]["Task"]["Attributes"]["prcId"]
    kinds = ["is", "calls", "switch", "maybe", "id", "copy"] + (["on"] if cpus > 1 else [])
    chosen = rng.sample(kinds, rng.randint(2, len(kinds)))
    if "is" not in chosen:
        chosen.append("is")
    T = r"\[(?<t>-?\d+)\] "
    out = {
        "is": ("^" + T + r"(?<r>\w+) is (?<v>[A-Z]+)$", "[${t}]${r}.state=${v}"),
        "calls": ("^" + T + r"(?<r>\w+) calls (?<a>\w+) (?<b>\w*)$", "[${t}]${r}.call(${a},${b})"),
        "switch": ("^" + T + r"(?<r>\w+) switch (?<v>[A-Z]+)$",
                   ["[${t}]${r}.state=${v}", "[${t}]${r}.mark()"]),
        "maybe": ("^" + T + r"(?<r>\w+) maybe (?<v>[A-Z]+)$",
                  {"${v}==RUNNING": "[${t}]${r}.state=RUNNING",
                   "${v}!=RUNNING": "[${t}]${r}.state=${v}"}),
        "id": ("^" + T + r"id (?<id>\d+) is (?<v>[A-Z]+)$",
               "[${t}]$RES_NAME{Task(id==${id})}.state=${v}"),
        "copy": ("^" + T + r"(?<r>\w+) copies (?<s>\w+)$", "[${t}]${r}.state=$ATTR{${s}.state}"),
        "on": ("^" + T + r"(?<r>\w+) on (?<c>[12])$", "[${t}]${r}.prcId=${c}"),
    }
    cnv = {"p": {out[k][0]: out[k][1] for k in chosen}}
    viz = {"p": {
        "Shapes": {"bar": [{"Type": "Rectangle", "Size": "100%,80%"}],
                   "tick": [{"Type": "Line", "Points": ["0,0", "0,100%"]}]},
        "VisualizeRules": {
            "states": {"Target": "Task", "Shapes": {"state": {
                "From": "${TARGET}.state", "To": "${TARGET}.state", "Figures": "bar"}}},
            "calls": {"Target": "Task", "Shapes": {
                "call": {"When": "${TARGET}.call()", "Figures": "tick"},
                "mark": {"When": "${TARGET}.mark()", "Figures": "tick"}}}}}}
    names = ["T%d" % i for i in range(rng.randint(1, 5))]
    resources = {}
    for i, n in enumerate(names):
        attrs = {"id": i + 1}
        if rng.random() < 0.5:
            attrs["state"] = rng.choice(VALUES)
        if cpus > 1:
            attrs["prcId"] = rng.randint(1, 2)
        resources[n] = {"Type": "Task", "Attributes": attrs}
    res = {"TimeScale": "us", "ConvertRules": ["p"], "ResourceHeaders": ["p"],
           "VisualizeRules": ["p"], "Resources": resources}
    return resh, cnv, viz, res, {"kinds": chosen, "names": names, "cpus": cpus}


def times(rng, n):
    """n times: rising, with jumps back, sometimes at the edges of 64 bits,
    and now and then one past them (an error line)."""
    edge = rng.random() < 0.3
    t = rng.choice([INT64_MIN, -10 ** 6, 0]) if edge else rng.randint(-1000, 10 ** 6)
    for _ in range(n):
        r = rng.random()
        if r < 0.05:
            t = rng.choice([INT64_MIN, INT64_MAX, INT64_MAX - 1, INT64_MIN + 1, 0])
        elif r < 0.1:
            t -= rng.randint(0, 10 ** 4)
        elif r < 0.12:
            yield INT64_MAX + rng.randint(1, 10 ** 6)  # past 64 bits
            continue
        else:
            t += rng.choice([0, 1, rng.randint(1, 10 ** 4), rng.randint(1, 10 ** 12)])
        t = max(INT64_MIN, min(INT64_MAX, t))
        yield t


def log_lines(rng, info):
    names, kinds = info["names"], info["kinds"]
    lines = []
    for t in times(rng, rng.randint(1, 120)):
        r = rng.random()
        who = rng.choice(names) if rng.random() < 0.97 else "NOBODY"  # an error line
        kind = rng.choice(kinds)
        v = rng.choice(VALUES)
        if r < 0.08:
            lines.append("noise %d %s" % (rng.randint(0, 99), rng.choice(["x", "y y", "[z]"])))
        elif kind == "is":
            lines.append("[%d] %s is %s" % (t, who, v))
        elif kind == "calls":
            lines.append("[%d] %s calls f%d %s" % (t, who, rng.randint(0, 9), rng.choice(["", "b"])))
        elif kind == "switch":
            lines.append("[%d] %s switch %s" % (t, who, v))
        elif kind == "maybe":
            lines.append("[%d] %s maybe %s" % (t, who, v))
        elif kind == "id":
            lines.append("[%d] id %d is %s" % (t, rng.randint(1, len(names) + 1), v))
        elif kind == "copy":
            lines.append("[%d] %s copies %s" % (t, who, rng.choice(names)))
        elif kind == "on":
            lines.append("[%d] %s on %d" % (t, who, rng.randint(1, 2)))
    return lines


# ---- running tlv ---------------------------------------------------------------------------

def tlv(d, *args, check_status=True):
    p = subprocess.run([TLV, *args], cwd=d, capture_output=True, timeout=120)
    if check_status and p.returncode not in (0, 1):
        raise Failure("tlv %s: exit %d: %s" % (" ".join(args), p.returncode,
                                                 p.stderr.decode(errors="replace")[:600]))
    return p


def csv_rows(text):
    return list(csv.DictReader(io.StringIO(text.decode())))


def num(s):
    return Decimal(s)


def run_case(d, rng):
    resh, cnv, viz, res, info = rule_set(rng)
    for name, obj in (("p.resh", resh), ("p.cnv", cnv), ("p.viz", viz), ("p.res", res)):
        with open(os.path.join(d, name), "w") as f:
            json.dump(obj, f, indent=1)
    lines = log_lines(rng, info)
    with open(os.path.join(d, "p.log"), "w") as f:
        f.write("\n".join(lines) + "\n")
    rules = ["-R", ".", "-r", "p.res"]

    # convert: every line accounted for
    p = tlv(d, "convert", "-q", "--threads", rng.choice(["1", "2"]), "--max-errors", "0",
            *rules, "p.log", "-o", "out.std", "--unmatched", "um.txt")
    err_lines = set()
    for l in p.stderr.decode(errors="replace").splitlines():
        if l.startswith("p.log:") and ": error: " in l:
            err_lines.add(int(l.split(":")[1]))
    check((p.returncode == 1) == bool(err_lines),
          "convert exit %d with %d error lines" % (p.returncode, len(err_lines)))
    unmatched = set()
    with open(os.path.join(d, "um.txt")) as f:
        for l in f:
            unmatched.add(int(l.split(":")[0]))
    tlv(d, "export", "--format", "sqlite", *rules, "out.std", "-o", "out.db")
    db = sqlite3.connect(os.path.join(d, "out.db"))
    in_trace = {r[0] for r in db.execute("select distinct line from events")}
    with open(os.path.join(d, "out.std")) as f:
        std_lines = f.read().splitlines()
    # events.line of a standard-form trace is its own line: map them back
    # through the log's conversion instead.
    p2 = tlv(d, "export", "--format", "sqlite", *rules, "p.log", "-o", "log.db")
    dbl = sqlite3.connect(os.path.join(d, "log.db"))
    in_trace = {r[0] for r in dbl.execute("select distinct line from events")}
    missing = set(range(1, len(lines) + 1)) - in_trace - unmatched - err_lines
    check(not missing, "log lines neither in the trace nor unmatched nor errors: %s"
          % sorted(missing)[:10])
    check(not (unmatched & in_trace), "lines both unmatched and in the trace: %s"
          % sorted(unmatched & in_trace)[:10])

    # standard form: read again, the same trace and the same CSV
    tlv(d, "convert", "-q", *rules, "out.std", "-o", "again.std")
    with open(os.path.join(d, "again.std")) as f:
        check(f.read().splitlines() == std_lines, "convert -> standard form -> reread differs")
    csv_log = tlv(d, "export", "--format", "csv", *rules, "p.log").stdout
    csv_std = tlv(d, "export", "--format", "csv", *rules, "out.std").stdout
    check(csv_log == csv_std, "the CSV of the log and of its standard form differ")

    # CSV: end >= start, duration exact
    rows = csv_rows(csv_log)
    for r in rows:
        s, e, du = num(r["start"]), num(r["end"]), num(r["duration"])
        check(e >= s, "CSV interval ends before it starts: %s" % r)
        check(du == e - s, "CSV duration %s != end - start %s: %s" % (du, e - s, r))

    # SQLite: the same intervals, never negative
    n_iv = db.execute("select count(*) from intervals").fetchone()[0]
    check(n_iv == len(rows), "SQLite has %d intervals, CSV %d rows" % (n_iv, len(rows)))
    bad = db.execute("select count(*) from intervals where dur < 0 or end_ts < ts").fetchone()[0]
    check(bad == 0, "SQLite: %d intervals with dur < 0 or end_ts < ts" % bad)
    n_ev = db.execute("select count(*) from events").fetchone()[0]
    check(n_ev == len(std_lines), "SQLite has %d events, the trace %d lines" % (n_ev, len(std_lines)))
    check(db.execute("pragma integrity_check").fetchone()[0] == "ok", "SQLite integrity_check")

    # Chrome: finite ts, dur >= 0
    chrome = json.loads(tlv(d, "export", "--format", "chrome", *rules, "p.log").stdout)
    for ev in chrome["traceEvents"]:
        if ev.get("ph") in ("X", "i"):
            check(isinstance(ev.get("ts"), (int, float)) and math.isfinite(ev["ts"]),
                  "Chrome: ts not a finite number: %s" % ev)
        if ev.get("ph") == "X":
            check(ev["dur"] >= 0, "Chrome: dur < 0: %s" % ev)

    # stats: busy within the span, counts and totals as the CSV's
    st = json.loads(tlv(d, "stats", "--json", *rules, "p.log").stdout)
    span = st["end"] - st["start"]
    for cpu in st.get("cpus", []):
        check(0 <= cpu["busy"] <= span * (1 + 1e-9) + 1e-9,
              "stats: busy %r outside [0, span %r]" % (cpu["busy"], span))
        check(0 <= cpu["utilization"] <= 1 + 1e-9, "stats: utilization %r" % cpu["utilization"])
    want, changing = {}, set()
    for r in rows:
        if r["rule"] != "states":
            continue
        changing.add(r["resource"])
        du = num(r["duration"])
        if du > 0:
            c, t = want.get((r["resource"], r["value"]), (0, Decimal(0)))
            want[(r["resource"], r["value"])] = (c + 1, t + du)
    # (A resource whose state never changes has no interval drawn: its
    # initial value is in stats alone.)
    got = {(s["resource"], s["state"]): (s["count"], s["total"]) for s in st["states"]
           if s["resource"] in changing}
    check(set(got) == set(want), "stats states %s, CSV %s" % (sorted(got), sorted(want)))
    for k, (c, t) in want.items():
        gc, gt = got[k]
        # stats joins a run of changes to one value into one interval; the
        # drawing has one per change: the count is bounded.
        check(1 <= gc <= c, "stats count %d, CSV %d intervals (joined) for %s" % (gc, c, k))
        check(abs(Decimal(repr(gt)) - t) <= abs(t) * Decimal("1e-9") + Decimal("1e-6"),
              "stats total %r, CSV %s for %s" % (gt, t, k))
    db.close()
    dbl.close()


def main():
    seed = int(os.environ.get("TLV_PROP_SEED") or random.SystemRandom().randrange(2 ** 32))
    seconds = float(os.environ.get("TLV_PROP_SECONDS", "20"))
    cases = int(os.environ.get("TLV_PROP_CASES", "1000"))
    print("properties: seed %d (TLV_PROP_SEED=%d repeats this run)" % (seed, seed))
    start = time.monotonic()
    done = 0
    while done < cases and time.monotonic() - start < seconds:
        case_seed = seed * 100003 + done
        rng = random.Random(case_seed)
        d = tempfile.mkdtemp(prefix="tlvprop")
        try:
            run_case(d, rng)
        except (Failure, subprocess.TimeoutExpired, json.JSONDecodeError, ValueError,
                KeyError, sqlite3.Error) as e:
            keep = os.environ.get("TLV_PROP_KEEP") or tempfile.mkdtemp(prefix="tlvprop-failed")
            shutil.copytree(d, os.path.join(keep, "case"), dirs_exist_ok=True)
            print("FAIL: case %d of seed %d (TLV_PROP_SEED=%d): %s: %s\n  its files: %s"
                  % (done, seed, seed, type(e).__name__, e, os.path.join(keep, "case")))
            shutil.rmtree(d, ignore_errors=True)
            return 1
        shutil.rmtree(d, ignore_errors=True)
        done += 1
    print("properties: %d cases held in %.1f s (seed %d)" % (done, time.monotonic() - start, seed))
    return 0 if done else 1


if __name__ == "__main__":
    sys.exit(main())
