"""Tests of the tlv Python package against the installed libtlv and the tlv
command (tests/e2e/test_python.sh installs both into a prefix, installs the
package with pip into a virtual environment and runs these with TLV_LIBRARY,
TLV_CMD and TLV_SOURCE_DIR set). Each compares with what the command prints
for the same sample, so the bindings cannot drift from the library."""
import csv
import io
import os
import sqlite3
import subprocess

import pytest

import tlv

SRC = os.environ.get("TLV_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
TLV = os.environ.get("TLV_CMD", "tlv")
RES = os.path.join(SRC, "samples/asp/sample.res")
LOG = os.path.join(SRC, "samples/asp/sample.log")


def run_tlv(*args):
    return subprocess.run([TLV, *args], capture_output=True, text=True, check=True).stdout


@pytest.fixture(scope="module")
def trace():
    return tlv.Trace(tlv.Rules(RES), LOG)


def test_version_is_the_libraries():
    assert tlv.version() == tlv.__version__ == run_tlv("version").split()[1]


def test_events_are_the_converted_lines(trace):
    lines = [l for l in run_tlv("convert", "-r", RES, LOG).splitlines() if l.startswith("[")]
    events = trace.events()
    assert len(events) == len(lines) == 861
    assert events[3] == tlv.Event(3, 1085281.0, "LOGTASK", "behavior", "enterSVC",
                                  "ena_int,intno=2", ["ena_int", "intno=2"], 2)
    assert events[1].kind == "attribute" and events[1].value == "RUNNING"
    assert trace.start == 1082473.0 and trace.end == 1979126.0


def test_intervals_are_the_csv_export(trace):
    rows = list(csv.reader(io.StringIO(run_tlv("export", "-f", "csv", "-r", RES, LOG))))
    assert rows[0] == ["rule", "event", "resource", "start", "end", "duration", "value"]
    got = trace.shapes().intervals()
    assert len(got) == len(rows) - 1 == 608
    for iv, row in zip(got, rows[1:]):
        assert [iv.rule, iv.event, iv.resource or "", iv.start, iv.dur] == \
               [row[0], row[1], row[2], float(row[3]), float(row[5])]


def test_rows_and_flows(trace):
    shapes = trace.shapes()
    assert shapes.rows()[1] == tlv.Row("LOGTASK", "LOGTASK", "Task")
    flows = shapes.flows()
    assert len(flows) == 17
    assert (flows[0].name, flows[0].from_resource, flows[0].to_resource, flows[0].ts) == \
           ("activated", "MAIN_TASK", "TASK1", 1090858.0)


def test_stats_are_tlv_stats(trace):
    stats = trace.stats()
    task1 = {s.state: s for s in stats["states"] if s.resource == "TASK1"}
    assert (task1["RUNNING"].count, task1["RUNNING"].total, task1["RUNNING"].max) == \
           (10, 545657.0, 98752.0)
    assert "TASK1       RUNNING      10  545657   10069    54565.7   98752" in \
           run_tlv("stats", "-r", RES, LOG)
    assert [c.name for c in stats["cpus"]] == ["CPU"]


def test_instances_are_tlv_stats_instances(trace):
    import json
    groups = trace.instance_groups()
    cmd = json.loads(run_tlv("stats", "--instances", "--json", "-r", RES, LOG))["instances"]
    assert len(groups) == len(cmd)
    for g, c in zip(groups, cmd):
        assert (g.resource, g.kind, g.name, g.count, g.partial) == \
               (c["resource"], c["kind"], c["name"], c["count"], c["partial"])
        if g.count:
            assert (g.min, g.p50, g.p90, g.p99, g.max) == \
                   (c["min"], c["p50"], c["p90"], c["p99"], c["max"])
            assert (g.worst.start, g.worst.line) == (c["worst"]["start"], c["worst"]["line"])
    task1 = [g for g in groups if g.resource == "TASK1" and g.kind == "response"][0]
    assert (task1.count, task1.max, task1.worst.execution, task1.worst.line) == \
           (3, 376717.0, 208322.0, 15)
    responses = trace.instances(kind="response")
    assert [i.response for i in responses if i.resource == "TASK1"] == \
           [376717.0, 54232.0, 295901.0]


def test_verify_is_tlv_verify(trace):
    reqs = os.path.join(SRC, "samples/asp/requirements.json")
    verdicts, violations = trace.verify(reqs)
    lines = subprocess.run([TLV, "verify", "-q", reqs, LOG], capture_output=True,
                           text=True).stdout.splitlines()
    assert [("PASS  " if v.passed else "FAIL  ") + v.name + ": " + v.message
            for v in verdicts] == lines
    assert (verdicts[1].passed, verdicts[1].worst, verdicts[1].resource, verdicts[1].line) == \
           (False, 219630.0, "TASK2", 18)
    assert violations[0] == tlv.Violation(1, "TASK2", 1092951.0, 1312581.0, 18, 219630.0)


def test_sqlite_is_tlv_export_sqlite(trace, tmp_path):
    mine, theirs = tmp_path / "py.db", tmp_path / "tlv.db"
    trace.to_sqlite(str(mine))
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


def test_errors_carry_the_library_message(trace, tmp_path):
    with pytest.raises(tlv.TlvError, match="no resource 'ghost' in the trace"):
        trace.attr_at("ghost", "state")
    assert trace.attr_at("TASK1", "state") == "WAITING"  # its last change
    with pytest.raises(tlv.TlvError, match="cannot open '.*no-such.log': No such file"):
        tlv.Trace(tlv.Rules(RES), str(tmp_path / "no-such.log"))
    with pytest.raises(tlv.TlvError, match="input/output error: .*cannot read the resource file"):
        tlv.Rules(str(tmp_path / "none.res"))
