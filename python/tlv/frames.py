"""frames — events and intervals as pandas DataFrames, with integer
nanosecond times (tlv.times: the frame tlv shows, df.attrs["origin_ns"] its
zero on the log's clock). pandas is needed only here, imported when called.

Events are read in batches straight into numpy arrays: times, kinds and
lines as columns, strings as the addresses of the library's interned
copies, each distinct one decoded once into a category."""
from __future__ import annotations

import ctypes
from fractions import Fraction
from typing import TYPE_CHECKING, Dict, Iterator, List

from ._lib import lib
from .errors import TlvError

if TYPE_CHECKING:  # pragma: no cover
    import pandas

    from .trace import Trace

_BATCH = 1 << 16


def _pandas():
    try:
        import numpy
        import pandas
    except ImportError as e:
        raise TlvError(f"to_pandas needs pandas ({e}; Debian: apt-get install python3-pandas, "
                       f"or pip install pandas)") from None
    return numpy, pandas


def _ns_columns(np, trace: "Trace", ticks, frac):
    """Absolute (ticks, frac) arrays as int64 nanoseconds in the frame
    (trace units for a TimeScale that is not one of time), exact when a
    nanosecond is a whole number of fraction steps (radix 10: always)."""
    clock = trace.clock
    zt, zf = clock.zero
    ns = clock.ns_per_unit or 1
    dt = ticks - np.int64(zt)
    df = frac.astype(np.int64) - np.int64(zf)  # frac < 2**63: fits
    if isinstance(ns, int) and clock.scale % ns == 0:
        step = clock.scale // ns  # fraction steps per nanosecond
        return dt * np.int64(ns) + np.floor_divide(df + step // 2, np.int64(step))
    per = float(Fraction(ns))
    return np.rint(dt.astype(np.float64) * per + df.astype(np.float64) * (per / clock.scale)) \
        .astype(np.int64)


def _categories(np, pd, addresses, get):
    """Addresses of interned strings as a Categorical of the strings."""
    uniq, codes = np.unique(addresses, return_inverse=True)
    names = [get(int(a)) for a in uniq]
    # distinct addresses are distinct strings, but NULL (None) may sit among them
    if any(n is None for n in names):
        return pd.Series([names[c] for c in codes], dtype="object")
    return pd.Categorical.from_codes(codes, categories=names)


def _event_dtype(np, itemsize: int):
    """tlv_event as a numpy record, at the offsets ctypes gives _lib.Event."""
    from ._lib import Event
    word = f"=u{ctypes.sizeof(ctypes.c_void_p)}"
    size = f"=u{ctypes.sizeof(ctypes.c_size_t)}"
    fields = [("ticks", "=i8", Event.time.offset), ("frac", "=u8", Event.time.offset + 8),
              ("resource", word, Event.resource.offset), ("kind", "=i4", Event.kind.offset),
              ("name", word, Event.name.offset), ("value", word, Event.value.offset),
              ("nargs", size, Event.nargs.offset), ("args", word, Event.args.offset),
              ("line", "=u8", Event.input_line.offset)]
    return np.dtype({"names": [f[0] for f in fields], "formats": [f[1] for f in fields],
                     "offsets": [f[2] for f in fields], "itemsize": itemsize})


def events_frame(trace: "Trace", first: int, stop: int) -> "pandas.DataFrame":
    np, pd = _pandas()
    from .trace import _EVENT
    n = stop - first
    buf = np.empty(max(1, min(_BATCH, n)), dtype=_event_dtype(np, _EVENT.size))
    ts = np.empty(n, dtype=np.int64)
    line = np.empty(n, dtype=np.int64)
    behavior = np.empty(n, dtype=np.int8)
    resource = np.empty(n, dtype=np.uint64)
    name = np.empty(n, dtype=np.uint64)
    values = np.empty(n, dtype=object)
    get, array = trace._strings.get, trace._strings.array
    done = 0
    while done < n:  # a batch at a time: only the columns are kept
        k = lib.tlv_trace_event_range_sized(trace._live()._h, first + done,
                                            min(len(buf), n - done), buf.ctypes.data, _EVENT.size)
        if k == 0:
            break
        ev, end = buf[:k], done + k
        ts[done:end] = _ns_columns(np, trace, ev["ticks"], ev["frac"])
        line[done:end] = ev["line"]
        behavior[done:end] = ev["kind"] != 0
        resource[done:end] = ev["resource"]
        name[done:end] = ev["name"]
        _values(np, ev, values[done:end], get, array)
        done = end
    df = pd.DataFrame({
        "ts": ts[:done],
        "resource": _categories(np, pd, resource[:done], get),
        "kind": pd.Categorical.from_codes(behavior[:done], categories=["attribute", "behavior"]),
        "name": _categories(np, pd, name[:done], get),
        "value": values[:done],
        "line": line[:done],
    }, index=pd.RangeIndex(first, first + done, name="id"))
    df.attrs["origin_ns"] = trace.origin_ns
    df.attrs["time_scale"] = trace.time_scale
    return df


def _values(np, ev, out, get, array) -> None:
    """An attribute's new value (each distinct address decoded once), a
    behavior's arguments joined with ",", into the object array `out`."""
    attribute = ev["kind"] == 0
    if attribute.any():
        uniq, codes = np.unique(ev["value"][attribute], return_inverse=True)
        out[attribute] = np.array([get(int(a)) for a in uniq], dtype=object)[codes]
    nargs, args = ev["nargs"], ev["args"]
    for k in np.flatnonzero(~attribute & (nargs > 0)):
        out[k] = ",".join(array(int(args[k]), int(nargs[k])))


def intervals_frame(trace: "Trace", merged: Iterator[tuple]) -> "pandas.DataFrame":
    np, pd = _pandas()
    cols: Dict[str, list] = {k: [] for k in ("rule", "event", "resource", "row", "value", "text",
                                             "instant", "t0", "f0", "t1", "f1")}
    for iv, (t0, f0, t1, f1) in merged:
        cols["rule"].append(iv.rule)
        cols["event"].append(iv.event)
        cols["resource"].append(iv.resource)
        cols["row"].append(iv.row)
        cols["value"].append(iv.value)
        cols["text"].append(iv.text)
        cols["instant"].append(iv.instant)
        for k, v in (("t0", t0), ("f0", f0), ("t1", t1), ("f1", f1)):
            cols[k].append(v)
    start = _ns_columns(np, trace, np.array(cols["t0"], dtype=np.int64),
                        np.array(cols["f0"], dtype=np.uint64))
    end = _ns_columns(np, trace, np.array(cols["t1"], dtype=np.int64),
                      np.array(cols["f1"], dtype=np.uint64))
    df = pd.DataFrame({
        "rule": pd.Categorical(cols["rule"]),
        "event": pd.Categorical(cols["event"]),
        "resource": pd.Categorical(cols["resource"]),
        "row": np.array(cols["row"], dtype=np.int64),
        "ts": start,
        "dur": end - start,
        "value": pd.Series(cols["value"], dtype="object"),
        "text": pd.Series(cols["text"], dtype="object"),
        "instant": np.array(cols["instant"], dtype=bool),
    })
    df.attrs["origin_ns"] = trace.origin_ns
    df.attrs["time_scale"] = trace.time_scale
    return df
