"""The package against the tlv command: each result is compared with what
the command prints for the same sample, so the bindings cannot drift from
the library. Times are seconds here and trace units (us) there."""
import csv
import io
import json
import os
import sqlite3

import pytest
from fractions import Fraction

import tlv
from conftest import LOG, RES, SRC, one_task_rules, run_tlv


def test_version_is_the_libraries():
    assert tlv.version() == tlv.__version__ == run_tlv("version").stdout.split()[1]


def test_events_are_the_converted_lines(trace):
    lines = [l for l in run_tlv("convert", "-r", RES, LOG).stdout.splitlines()
             if l.startswith("[")]
    events = trace.events()
    assert len(events) == len(lines) == 861
    assert events[3] == tlv.Event(3, 1.085281, "LOGTASK", "behavior", "enterSVC",
                                  "ena_int,intno=2", ["ena_int", "intno=2"], 2)
    assert events[1].kind == "attribute" and events[1].value == "RUNNING"
    assert (trace.start, trace.end) == (1.082473, 1.979126)
    for e, line in zip(events, lines):  # every time, exactly: "[1085281]LOGTASK..."
        assert Fraction(line[1:line.index("]")]) / 10**6 == Fraction(str(e.ts)), line


def test_intervals_are_the_csv_export(trace):
    rows = list(csv.reader(io.StringIO(run_tlv("export", "-f", "csv", "-r", RES, LOG).stdout)))
    assert rows[0] == ["rule", "event", "resource", "start", "end", "duration", "value"]
    got = list(trace.shapes().intervals())
    assert len(got) == len(rows) - 1 == 608
    for iv, row in zip(got, rows[1:]):
        assert [iv.rule, iv.event, iv.resource or "", iv.start, iv.dur] == \
               [row[0], row[1], row[2], float(row[3]) / 1e6, float(row[5]) / 1e6]


def test_rows_and_flows(trace):
    shapes = trace.shapes()
    assert shapes.rows()[1] == tlv.Row("LOGTASK", "LOGTASK", "Task")
    flows = shapes.flows()
    assert len(flows) == 17
    assert (flows[0].name, flows[0].from_resource, flows[0].to_resource, flows[0].ts) == \
           ("activated", "MAIN_TASK", "TASK1", 1.090858)


def test_primitives_are_tlv_shapes(trace):
    lines = run_tlv("shapes", "-r", RES, LOG).stdout.splitlines()
    prims = list(trace.shapes().primitives())
    assert len(prims) == len(lines)
    first = prims[0]
    assert (first.rule, first.event, first.type, first.start) == \
           ("alarmCalls", "call", "Rectangle", 1.640105)
    assert '"rule":"alarmCalls"' in lines[0] and '"from":1640105' in lines[0]


def test_stats_are_tlv_stats(trace):
    stats = trace.stats()
    task1 = {s.state: s for s in stats["states"] if s.resource == "TASK1"}
    assert (task1["RUNNING"].count, task1["RUNNING"].total, task1["RUNNING"].max) == \
           (10, 0.545657, 0.098752)
    assert "TASK1       RUNNING      10  545657   10069    54565.7   98752" in \
           run_tlv("stats", "-r", RES, LOG).stdout
    assert [c.name for c in stats["cpus"]] == ["CPU"]


def test_instances_are_tlv_stats_instances(trace):
    groups = trace.instance_groups()
    cmd = json.loads(run_tlv("stats", "--instances", "--json", "-r", RES, LOG).stdout)["instances"]
    assert len(groups) == len(cmd)
    for g, c in zip(groups, cmd):
        assert (g.resource, g.kind, g.name, g.count, g.partial) == \
               (c["resource"], c["kind"], c["name"], c["count"], c["partial"])
        if g.count:
            assert (g.min, g.p50, g.p90, g.p99, g.max) == \
                   tuple(c[k] / 1e6 for k in ("min", "p50", "p90", "p99", "max"))
            assert (g.worst.start, g.worst.line) == (c["worst"]["start"] / 1e6,
                                                      c["worst"]["line"])
    task1 = [g for g in groups if g.resource == "TASK1" and g.kind == "response"][0]
    assert (task1.count, task1.max, task1.worst.execution, task1.worst.line) == \
           (3, 0.376717, 0.208322, 15)
    responses = trace.instances(kind="response")
    assert [i.response for i in responses if i.resource == "TASK1"] == \
           [0.376717, 0.054232, 0.295901]


def test_verify_is_tlv_verify(trace):
    reqs = os.path.join(SRC, "samples/asp/requirements.json")
    verdicts, violations = trace.verify(reqs)
    lines = run_tlv("verify", "-q", reqs, LOG, check=False).stdout.splitlines()
    assert [("PASS  " if v.passed else "FAIL  ") + v.name + ": " + v.message
            for v in verdicts] == lines
    assert (verdicts[1].passed, verdicts[1].worst, verdicts[1].resource, verdicts[1].line) == \
           (False, 0.21963, "TASK2", 18)
    assert violations[0] == tlv.Violation(1, "TASK2", 1.092951, 1.312581, 18, 0.21963)


def test_sqlite_is_tlv_export_sqlite(trace, tmp_path):
    mine, theirs = tmp_path / "py.db", tmp_path / "tlv.db"
    trace.to_sqlite(mine)
    run_tlv("export", "-f", "sqlite", "-r", RES, "-o", str(theirs), LOG)
    a, b = sqlite3.connect(mine), sqlite3.connect(theirs)
    schema = "SELECT type, name, sql FROM sqlite_master ORDER BY name"
    assert a.execute(schema).fetchall() == b.execute(schema).fetchall()
    tables = [r[0] for r in a.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    assert {"markers", "slice", "thread", "process", "counter", "sched", "instance"} <= \
        set(tables)
    for t in tables:
        if t in ("meta", "metadata"):  # the source is named as each was given it
            continue
        assert a.execute(f"SELECT * FROM {t}").fetchall() == \
               b.execute(f"SELECT * FROM {t}").fetchall(), t
    assert a.execute("SELECT COUNT(*) FROM intervals").fetchone() == (608,)


def test_sqlite_warns_of_clamped_times(tmp_path):
    """Times past 2^63 ns from the first event cannot be integer ns in the
    Perfetto-shaped tables: clamped there, and said (as tlv export does)."""
    import tlv
    one_task_rules(tmp_path, "e", "ns")
    (tmp_path / "e.log").write_text(
        "[-9223372036854775808]A.state=RUN\n[9223372036854775807]A.state=WAIT\n")
    with tlv.open(tmp_path / "e.log", rule_dirs=[tmp_path]) as t:
        with pytest.warns(RuntimeWarning, match=r"e\.db: \d+ times or durations in slice, "
                          r"sched, counter and trace_bounds lie more than 2\^63 ns"):
            t.to_sqlite(tmp_path / "e.db")


def test_log_errors_are_tlv_converts(tmp_path):
    """A log with lines the rules cannot convert: the same lines and
    messages as `tlv convert`; strict=True raises at the first."""
    (tmp_path / "k.resh").write_text(
        '{"k":{"Task":{"Attributes":{"id":{"VariableType":"Number","AllocationType":"Static"},'
        '"state":{"VariableType":"String","AllocationType":"Dynamic","Default":"IDLE"}}}}}')
    (tmp_path / "k.cnv").write_text(
        '{"k": {"^(?<t>\\\\d+) run (?<id>\\\\d+)$": '
        '"[${t}]$RES_NAME{Task(id==${id})}.state=RUNNING"}}')
    (tmp_path / "k.res").write_text(
        '{"TimeScale":"ms","ConvertRules":["k"],"ResourceHeaders":["k"],"Resources":{'
        '"A":{"Type":"Task","Attributes":{"id":1}},"B":{"Type":"Task","Attributes":{"id":2}}}}')
    (tmp_path / "k.log").write_text("1 run 1\n2 run 7\n3 run 2\n")
    res, log = str(tmp_path / "k.res"), str(tmp_path / "k.log")
    printed = [l for l in run_tlv("convert", "-R", str(tmp_path), "-r", res, log,
                                  check=False).stderr.splitlines() if ": error: " in l]
    with tlv.open(log, res, rule_dirs=[tmp_path]) as t:
        assert t.had_errors and len(t.events()) == 2
        assert [str(d) for d in t.diagnostics] == printed
        assert printed[0].startswith(f"{log}:2: error: rule ")
    try:
        tlv.open(log, res, rule_dirs=[tmp_path], strict=True)
        raise AssertionError("strict=True did not raise")
    except tlv.LogError as e:
        assert (e.file, e.line, e.column) == (log, 2, None)
        assert "no resource matches; exactly one is needed" in str(e)
        assert [str(d) for d in e.diagnostics] == printed


def test_rule_errors_are_tlv_checks(tmp_path):
    """A rule error located as `tlv check` locates it: file, line, column."""
    (tmp_path / "k.res").write_text('{"TimeScale":"ms",\n "ConvertRules":["nowhere"]}\n')
    res = str(tmp_path / "k.res")
    printed = run_tlv("check", "-R", str(tmp_path), "-r", res, check=False).stderr
    try:
        tlv.Rules(res, rule_dirs=[tmp_path])
        raise AssertionError("no RuleError")
    except tlv.RuleError as e:
        assert (e.file, e.line, e.column) == (res, 2, 18)
        said = str(e.diagnostics[0])
        assert said.startswith(f"{res}:2:18: error: target 'nowhere' (ConvertRules) is not in "
                               f"any .cnv file of the rule path (searched: {tmp_path}, ")
        # as tlv check says it, but for where each found the installed rules
        assert said[:said.index(", ")] in printed
