"""to_pandas(): events and intervals as DataFrames with int64 nanosecond
times, equal to the package's own records and to the SQLite export's
Perfetto-shaped slice table. Skipped, with the reason, without pandas
(Debian: python3-pandas)."""
import sqlite3

import pytest

import tlv
from conftest import XZ

pd = pytest.importorskip("pandas", reason="pandas is not installed (Debian: python3-pandas)")


def test_events_frame_is_the_events(trace):
    df = trace.to_pandas()
    events = list(trace.events())
    assert list(df.columns) == ["ts", "resource", "kind", "name", "value", "line"]
    assert str(df["ts"].dtype) == "int64" and len(df) == len(events) == 861
    assert df.attrs["origin_ns"] == 0 and df.attrs["time_scale"] == "us"
    assert df["ts"].iloc[3] == 1085281000 and df.index[3] == 3
    for e, row in zip(events, df.itertuples()):
        assert (row.Index, row.ts, row.resource, row.kind, row.name, row.value, row.line) == \
               (e.id, round(e.ts * 1e9), e.resource, e.kind, e.name, e.value, e.line)
    window = trace.events(start=1.5, end=1.6).to_pandas()
    assert window.index[0] == trace.events(start=1.5)[0].id
    assert (window["ts"] >= 1_500_000_000).all() and (window["ts"] < 1_600_000_000).all()


def test_batches_cross_without_a_seam(trace):
    from tlv import frames
    old = frames._BATCH
    frames._BATCH = 100
    try:
        small = trace.to_pandas()
    finally:
        frames._BATCH = old
    assert small.equals(trace.to_pandas())


def test_intervals_frame_is_the_slice_table(tmp_path):
    """A wall-clock strace log: ts and dur in ns from the first event, the
    times of the SQLite export's slice table exactly."""
    with tlv.open(XZ, "linux_strace.res") as t:
        shapes = t.shapes()
        df = shapes.to_pandas()
        intervals = list(shapes.intervals())
        assert len(df) == len(intervals)
        assert list(df["rule"][:3]) == [iv.rule for iv in intervals[:3]]
        assert df.attrs["origin_ns"] == t.origin_ns > 1.7e18
        t.to_sqlite(tmp_path / "xz.db", shapes)
    db = sqlite3.connect(tmp_path / "xz.db")
    slices = pd.read_sql_query("SELECT ts, dur, name FROM slice", db)
    assert len(slices) == len(df) == 327  # one slice per drawn interval, instants included
    assert sorted(zip(slices["ts"], slices["dur"])) == sorted(zip(df["ts"], df["dur"]))
    named = df[df["text"].notna()]  # a slice without a text is named by its rule event
    assert set(zip(named["ts"], named["text"])) <= set(zip(slices["ts"], slices["name"]))
    assert str(df["dur"].dtype) == "int64" and (df["dur"] >= 0).all()


def test_nanoseconds_of_times_finer_than_the_unit(fractions_trace):
    df = fractions_trace.to_pandas()
    assert df["ts"].tolist() == [1000001, 2250000, 3000000]  # 1000000.5 ns: halves go up
    assert df["ts"].tolist() == [fractions_trace.clock.ns(*fractions_trace.time(e.ts))
                                 for e in fractions_trace.events()]
