"""shapes — what the visualization rules of a trace draw: rows, the drawn
primitives, the intervals they make (a bar and its label are one interval)
and flows, read lazily in batches like the events."""
from __future__ import annotations

import ctypes
import struct
from typing import TYPE_CHECKING, Iterable, Iterator, List, NamedTuple, Optional

from ._handle import Handle
from ._lib import FlowInfo, RowInfo, ShapeInfo, ShapesOptions, diagnostics, lib, text
from .errors import TlvError

if TYPE_CHECKING:  # pragma: no cover
    import pandas

    from .trace import Trace

_NO_EVENT = (1 << (8 * ctypes.sizeof(ctypes.c_size_t))) - 1


class Row(NamedTuple):
    label: str
    resource: Optional[str]  # None for a rule's or a processor's row
    group: Optional[str]


class Shape(NamedTuple):
    """One drawn primitive (a bar, a line, a text...)."""
    rule: str
    event: str
    resource: Optional[str]
    row: int
    start: float  # seconds (tlv.times)
    end: float
    type: str     # "Rectangle", "Line", "Text", ...
    text: Optional[str]
    fill: Optional[int]  # 0xAARRGGBB
    pen: Optional[int]
    is_when: bool
    value: Optional[str]
    from_event: Optional[int]  # the trace event (index) that opened it
    to_event: Optional[int]    # and the one that closed it


class Interval(NamedTuple):
    """What one rule event draws over one interval (its primitives merged),
    named by the text drawn: a row of `tlv export --format csv`."""
    rule: str
    event: str
    resource: Optional[str]
    row: int
    start: float  # seconds (tlv.times)
    end: float
    dur: float    # seconds; 0 for an instant
    value: Optional[str]
    text: Optional[str]
    instant: bool


class Flow(NamedTuple):
    rule: str
    name: str
    display_name: str
    ts: float  # seconds
    from_resource: Optional[str]
    to_resource: Optional[str]
    from_processor: Optional[str]
    to_processor: Optional[str]
    event: int


_SHAPE = struct.Struct("@PPPNqQqQPPIiIiiPNN")  # tlv_shape_info, as _lib.ShapeInfo declares it
assert _SHAPE.size == ctypes.sizeof(ShapeInfo), "tlv_shape_info: struct format and ctypes disagree"
_BATCH = 4096


class Shapes(Handle):
    """The shapes of a trace: rows(), primitives(), intervals(), flows().
    Rule errors do not stop the build: `had_errors` and `diagnostics`."""
    _kind = "shapes"

    def __init__(self, trace: "Trace", cpu_attribute: Optional[str] = None):
        opts = ShapesOptions(ctypes.sizeof(ShapesOptions),
                             None if cpu_attribute is None else cpu_attribute.encode(),
                             None, None, None, 0)
        handle = ctypes.c_void_p()
        status = lib.tlv_shapes_build(trace._live()._h, ctypes.byref(opts), ctypes.byref(handle))
        if not handle:
            raise TlvError("out of memory")
        super().__init__(handle.value, lib.tlv_shapes_free, parent=trace)
        self.trace = trace
        self.diagnostics = diagnostics(lib.tlv_shapes_diags(handle))
        self.had_errors = status != 0

    def __repr__(self) -> str:
        state = " (closed)" if self.closed else \
            f": {len(self.rows())} rows, {lib.tlv_shapes_count(self._h)} primitives"
        return f"<tlv.Shapes of {self.trace.source!r}{state}>"

    def rows(self) -> List[Row]:
        """The rows, top to bottom."""
        h = self._live()._h
        r = RowInfo()
        out = []
        for i in range(lib.tlv_shapes_row_count(h)):
            lib.tlv_shapes_row_sized(h, i, ctypes.byref(r), ctypes.sizeof(r))
            out.append(Row(text(r.label), text(r.resource), text(r.group)))
        return out

    def _raw(self) -> Iterator[tuple]:
        """Every primitive as a tlv_shape_info tuple (strings as addresses)."""
        size = _SHAPE.size
        buf = (ctypes.c_char * (size * _BATCH))()
        address = ctypes.addressof(buf)
        view = memoryview(buf).cast("B")
        i = 0
        while True:
            n = lib.tlv_shapes_get_range_sized(self._live()._h, i, _BATCH, address, size)
            if n == 0:
                return
            yield from _SHAPE.iter_unpack(view[:n * size])
            i += n

    def primitives(self) -> Iterator[Shape]:
        """Every drawn primitive, ordered by rule, event, resource, start (the
        order of `tlv shapes`), read in batches."""
        get = self.trace._strings.get
        seconds = self.trace.clock.seconds
        for (rule, event, res, row, ft, ff, tt, tf, typ, txt, fill, has_fill, pen, has_pen,
             is_when, value, from_event, to_event) in self._raw():
            yield Shape(get(rule), get(event), get(res), row, seconds(ft, ff), seconds(tt, tf),
                        get(typ), get(txt), fill if has_fill else None, pen if has_pen else None,
                        bool(is_when), get(value),
                        None if from_event == _NO_EVENT else from_event,
                        None if to_event == _NO_EVENT else to_event)

    def intervals(self) -> "Intervals":
        """The drawn intervals: the primitives one rule event draws over one
        interval (a bar and its label) make one, named by the text drawn.
        An iterable read in batches (list() it to keep them)."""
        self._live()
        return Intervals(self)

    def flows(self) -> List[Flow]:
        """The flows (arrows between rows), ordered by time."""
        h = self._live()._h
        seconds = self.trace.clock.seconds
        f = FlowInfo()
        out = []
        for i in range(lib.tlv_shapes_flow_count(h)):
            lib.tlv_shapes_flow_sized(h, i, ctypes.byref(f), ctypes.sizeof(f))
            out.append(Flow(text(f.rule), text(f.name), text(f.display_name),
                            seconds(f.time.ticks, f.time.frac), text(f.from_resource),
                            text(f.to_resource), text(f.from_processor), text(f.to_processor),
                            f.event))
        return out

    def to_pandas(self) -> "pandas.DataFrame":
        """The intervals as a pandas DataFrame (see Intervals.to_pandas)."""
        return self.intervals().to_pandas()


class Intervals(Iterable[Interval]):
    """The drawn intervals of some shapes, read in batches each time it is
    iterated."""

    def __init__(self, shapes: Shapes):
        self._shapes = shapes

    def __iter__(self) -> Iterator[Interval]:
        for iv, _ticks in self._merged():
            yield iv

    def _merged(self) -> Iterator[tuple]:
        """(Interval, exact (start, end) in trace ticks and fractions)."""
        shapes = self._shapes
        get = shapes.trace._strings.get
        seconds = shapes.trace.clock.seconds
        span = shapes.trace.clock.span
        scale = shapes.trace.clock.scale
        last = pending = None
        for (rule, event, res, row, ft, ff, tt, tf, _typ, txt, _fill, _hf, _pen, _hp, is_when,
             value, _fe, _te) in shapes._raw():
            key = (row, is_when, ft, ff, tt, tf, res, event, rule)
            if key == last:  # another primitive of the same interval: its text names it
                if pending[0].text is None and txt:
                    pending = (pending[0]._replace(text=get(txt)), pending[1])
                continue
            if pending is not None:
                yield pending
            last = key
            instant = bool(is_when) or (ft, ff) == (tt, tf)
            start = seconds(ft, ff)
            end = start if is_when else seconds(tt, tf)
            dur = 0.0 if instant else span((tt - ft) + (tf - ff) / scale)
            pending = (Interval(get(rule), get(event), get(res), row, start, end, dur, get(value),
                                get(txt), instant),
                       (ft, ff, ft if is_when else tt, ff if is_when else tf))
        if pending is not None:
            yield pending

    def to_pandas(self) -> "pandas.DataFrame":
        """The intervals as a pandas DataFrame: rule, event, resource
        (categories), row, ts and dur (int64 nanoseconds, in the frame of
        tlv.times), value, text, instant; df.attrs["origin_ns"] as for the
        events."""
        from .frames import intervals_frame
        return intervals_frame(self._shapes.trace, self._merged())
