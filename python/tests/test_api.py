"""The package as Python code uses it: lazy event and interval sequences,
context managers and closing, the exception hierarchy, times in seconds or
with units, and the files that make it a package (py.typed, the library it
found by itself)."""
import gc
import os
import sqlite3
import types

import pytest

import tlv
from conftest import LOG, RES, XZ, run_tlv


# ---- lazy sequences --------------------------------------------------------------------------

def test_events_are_a_lazy_sequence(trace):
    events = trace.events()
    assert isinstance(events, tlv.Events) and not isinstance(events, list)
    assert isinstance(iter(events), types.GeneratorType)
    every = list(events)
    assert len(every) == len(events) == 861
    assert events[-1] == every[-1] and events[860] == every[860]
    assert list(events[10:20]) == every[10:20] and len(events[10:20]) == 10
    assert events[::100] == every[::100]
    assert [e.id for e in events[855:]] == list(range(855, 861))
    with pytest.raises(IndexError):
        events[861]


def test_events_in_a_time_range(trace):
    every = list(trace.events())
    window = trace.events(start=1.1, end="1.2 s")
    assert list(window) == [e for e in every if 1.1 <= e.ts < 1.2]
    assert len(window) == 84 and window[0].ts >= 1.1 and every[44].ts < 1.1
    assert list(trace.events(start="1100000 us", end=(1200000, 0))) == list(window)
    assert len(trace.events(start=5)) == 0  # after the end


def test_batches_cross_without_a_seam(trace):
    """More events than one batch (4096): a long log read through."""
    from tlv import trace as trace_module
    old = trace_module._BATCH
    trace_module._BATCH = 7  # batches of 7: 861 = 123 * 7
    try:
        small = list(trace.events())
    finally:
        trace_module._BATCH = old
    assert small == list(trace.events())


def test_intervals_are_an_iterable(trace):
    intervals = trace.shapes().intervals()
    assert isinstance(iter(intervals), types.GeneratorType)
    assert list(intervals) == list(intervals)  # read again each time
    assert sum(1 for _ in intervals) == 608


# ---- handles ---------------------------------------------------------------------------------

def test_with_closes_and_a_closed_trace_raises():
    with tlv.open(LOG, RES) as t:
        events, shapes = t.events(), t.shapes()
        assert not t.closed
    assert t.closed and shapes.closed and t.rules.closed
    with pytest.raises(tlv.ClosedError, match="this trace is closed"):
        events[0]
    with pytest.raises(tlv.ClosedError, match="this shapes is closed"):
        shapes.rows()
    with pytest.raises(ValueError):  # ClosedError is a ValueError, as for a closed file
        t.attr_at("TASK1", "state")
    assert repr(t) == f"<tlv.Trace {LOG!r} (closed)>"
    t.close()  # again: nothing


def test_closing_the_rules_closes_what_was_made_from_them():
    rules = tlv.Rules(RES)
    trace = tlv.Trace(rules, LOG)
    shapes = trace.shapes()
    rules.close()
    assert trace.closed and shapes.closed
    with pytest.raises(tlv.ClosedError):
        tlv.Trace(rules, LOG)


def test_dropped_handles_are_freed_in_order():
    """Shapes kept while their trace and rules are dropped keep them alive."""
    shapes = tlv.Trace(tlv.Rules(RES), LOG).shapes()
    gc.collect()
    assert len(shapes.rows()) == 15 and sum(1 for _ in shapes.intervals()) == 608
    del shapes
    gc.collect()


def test_open_finds_the_res_next_to_the_log(tmp_path):
    (tmp_path / "a.log").write_bytes(open(LOG, "rb").read())
    (tmp_path / "a.res").write_bytes(open(RES, "rb").read())
    with tlv.open(tmp_path / "a.log") as t:
        assert len(t.events()) == 861 and t.rules.path == str(tmp_path / "a.res")


# ---- errors ----------------------------------------------------------------------------------

def test_the_exception_hierarchy():
    for cls in (tlv.LibraryError, tlv.RuleError, tlv.LogError, tlv.NotFoundError,
                tlv.TimeValueError, tlv.ClosedError, tlv.ExportError):
        assert issubclass(cls, tlv.TlvError)
    assert issubclass(tlv.NotFoundError, LookupError)
    assert issubclass(tlv.TimeValueError, ValueError)


def test_errors_carry_the_library_message_and_where(trace, tmp_path):
    with pytest.raises(tlv.NotFoundError, match="no resource 'ghost' in the trace"):
        trace.attr_at("ghost", "state")
    with pytest.raises(LookupError, match="resource 'TASK1' .* has no attribute 'colour'"):
        trace.attr_at("TASK1", "colour")
    assert trace.attr_at("TASK1", "state") == "WAITING"  # its last change
    missing = str(tmp_path / "no-such.log")
    with pytest.raises(tlv.LogError, match="cannot open '.*no-such.log': No such file") as e:
        tlv.Trace(tlv.Rules(RES), missing)
    assert e.value.file == missing
    none = str(tmp_path / "none.res")
    with pytest.raises(tlv.RuleError, match="input/output error") as e:
        tlv.Rules(none)
    assert e.value.file == none and e.value.line is None
    assert str(e.value.diagnostics[0]) == \
        f"{none}: error: cannot read the resource file: No such file or directory"


# ---- times -----------------------------------------------------------------------------------

@pytest.mark.parametrize("ts", [1.5, "1.5", "1.5 s", "1500 ms", "1500000us", "1.5e9 ns",
                                (1500000, 0)])
def test_times_in_seconds_or_with_units(trace, ts):
    assert trace.attr_at("TASK1", "state", ts=ts) == "RUNNING"
    assert trace.time(ts) == (1500000, 0)


def test_a_time_at_an_event_includes_it(trace):
    """0.3 means 300 ms exactly, not the float just below it: a time read
    from an event finds that event's change."""
    e = next(e for e in trace.events() if e.resource == "TASK1" and e.name == "state")
    assert trace.attr_at("TASK1", "state", ts=e.ts) == e.value
    assert trace.time(e.ts) == (round(e.ts * 10**6), 0)
    assert trace.time("1.0000005 s") == (1000000, 500000000000000000)  # half a microsecond


@pytest.mark.parametrize("bad", ["fast", "1.5 parsecs", "ms", float("nan"), True, [1]])
def test_times_that_are_not(trace, bad):
    with pytest.raises(tlv.TimeValueError):
        trace.attr_at("TASK1", "state", ts=bad)


def test_wall_clock_times_count_from_the_start(tmp_path):
    """strace -ttt logs seconds since 1970: the package counts from the first
    event, as tlv shows them, and says where that is in origin_ns."""
    with tlv.open(XZ, "linux_strace.res") as t:
        assert t.time_mode == "wall-clock"
        first = t.events()[0]
        assert first.ts == 0.0 and t.start == 0.0
        origin_us = int(open(XZ).readline().split()[1].replace(".", ""))
        assert t.origin_ns == origin_us * 1000
        t.to_sqlite(tmp_path / "xz.db")
        db = sqlite3.connect(tmp_path / "xz.db")
        assert db.execute("SELECT int_value FROM metadata WHERE name = 'trace_time_origin'"
                          ).fetchone() == (t.origin_ns,)
        # the slices start where the package's intervals do, from the same zero
        calls = [iv for iv in t.shapes().intervals() if not iv.instant]
        ts = {r[0] for r in db.execute("SELECT ts FROM slice")}
        assert {round(iv.start * 1e9) for iv in calls[:50]} <= ts
        assert t.attr_at(first.resource, "state", ts="1 ms") is not None


# ---- a package -------------------------------------------------------------------------------

def test_typed_and_found_without_settings():
    here = os.path.dirname(tlv.__file__)
    assert os.path.exists(os.path.join(here, "py.typed"))
    assert os.path.exists(tlv.library_path())
    if "TLV_EXPECT_LIBRARY" in os.environ:  # tests/e2e/test_python.sh says which it must be
        assert os.path.realpath(tlv.library_path()) == \
            os.path.realpath(os.environ["TLV_EXPECT_LIBRARY"])
        assert "TLV_LIBRARY" not in os.environ


def test_rules_found_by_bare_name_from_the_installation():
    """linux_strace.res from the rules installed with the library, as the
    command finds it."""
    lines = [l for l in run_tlv("convert", "-r", "linux_strace.res", XZ).stdout.splitlines()
             if l.startswith("[")]
    with tlv.open(XZ, "linux_strace.res") as t:
        assert len(t.events()) == len(lines) == 655


def test_times_finer_than_the_unit(fractions_trace):
    t = fractions_trace
    assert [e.ts for e in t.events()] == [0.0010000005, 0.00225, 0.003]
    assert t.time("2.25 ms") == (2, 250000000000000000)
    assert t.attr_at("A", "state", ts="2.25 ms") == "WAIT"
    assert t.attr_at("A", "state", ts=0.00224999) == "RUN"
    assert t.attr_at("A", "state", ts="1 ms") == "IDLE"  # before its first change


def test_an_export_that_fails_says_why(trace, tmp_path):
    with pytest.raises(tlv.ExportError) as e:
        trace.to_sqlite(tmp_path / "no-such-dir" / "x.db")
    assert e.value.file == str(tmp_path / "no-such-dir" / "x.db")
    assert str(e.value).startswith(f"cannot create '{e.value.file}.tmp.")
    assert str(e.value).endswith("': unable to open database file")
