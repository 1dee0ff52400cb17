"""trace — rule sets (Rules), converted logs (Trace, tlv.open) and their
events, read lazily: Trace.events() is a sequence over the library's events
that holds none of them, fetched in batches as it is iterated or indexed."""
from __future__ import annotations

import ctypes
import os
import struct
from fractions import Fraction
from typing import (TYPE_CHECKING, Any, Dict, Iterator, List, NamedTuple, Optional, Sequence,
                    Tuple, Union, overload)

from ._handle import Handle
from ._lib import (CounterInfo, CpuStat, Event as _CEvent, RulesOptions, StateStat, StatsOptions,
                   Time, diagnostics, lib, text)
from ._strings import Strings
from .errors import LogError, NotFoundError, RuleError, TlvError
from .times import Clock, TimeLike

if TYPE_CHECKING:  # pragma: no cover
    import pandas

    from .shapes import Shapes
    from .timing import Instance, InstanceGroup, Verdict, Violation

PathLike = Union[str, "os.PathLike[str]"]

_OK, _ERR_IO, _ERR_CONVERT, _ERR_USAGE = 0, 1, 4, 5
_MODES = {1: "plain", 2: "clock", 3: "wall-clock"}


class Event(NamedTuple):
    """One event of a trace, in (time, line) order."""
    id: int                    # its index in trace.events()
    ts: float                  # seconds (tlv.times)
    resource: str
    kind: str                  # "attribute" (a change of value) or "behavior" (a call)
    name: str                  # the attribute or behavior
    value: Optional[str]       # the new value; a behavior's arguments joined with ","
    args: Optional[List[str]]  # a behavior's arguments (None for an attribute)
    line: int                  # the log line it came from (1-based)


class Resource(NamedTuple):
    name: str
    type: str
    label: Optional[str]  # the label its events gave its row ("xz[4297]"), if any


class StateStatistic(NamedTuple):
    resource: str
    state: str
    count: int
    total: float  # seconds
    min: float
    max: float


class CpuStatistic(NamedTuple):
    name: str
    value: Optional[str]
    busy: float  # seconds
    intervals: int


class Counter(NamedTuple):
    resource: str
    attribute: str
    display_name: str
    min: Optional[float]
    max: Optional[float]
    mean: Optional[float]
    time_mean: Optional[float]
    samples: List[Tuple[float, float]]  # (ts in seconds, value)


def _b(s: Any) -> Optional[bytes]:
    return None if s is None else os.fsencode(s) if isinstance(s, os.PathLike) else \
        str(s).encode()


class Rules(Handle):
    """A resource file (.res) and the rule files it names, found in
    `rule_dirs`, then TLV_RULES_PATH, then the installed rules (the
    project's own, linux_strace.res and the others, by bare name). Raises
    RuleError, located at the first error, when any is missing or wrong."""
    _kind = "rule set"

    def __init__(self, res_path: PathLike, rule_dirs: Sequence[PathLike] = (),
                 allow_scripts: bool = False):
        opts = RulesOptions()
        lib.tlv_rules_options_init_sized(ctypes.byref(opts), ctypes.sizeof(opts))
        dirs = [_b(d) for d in rule_dirs]
        self._dirs = (ctypes.c_char_p * max(1, len(dirs)))(*dirs)
        opts.search_dirs = ctypes.cast(self._dirs, ctypes.POINTER(ctypes.c_char_p))
        opts.n_search_dirs = len(dirs)
        opts.allow_scripts = int(allow_scripts)
        handle = ctypes.c_void_p()
        status = lib.tlv_rules_load(_b(res_path), ctypes.byref(opts), ctypes.byref(handle))
        super().__init__(handle.value, lib.tlv_rules_free)
        self.path = os.fspath(res_path)
        self.diagnostics = diagnostics(lib.tlv_rules_diags(handle)) if handle else []
        if status != _OK:
            self.close()
            raise RuleError.from_diagnostics(
                f"{self.path}: {text(lib.tlv_status_string(status))}", self.diagnostics, self.path)
        self.time_scale: str = text(lib.tlv_rules_time_scale(handle)) or ""
        self.radix: int = lib.tlv_rules_time_radix(handle)

    def __repr__(self) -> str:
        return f"<tlv.Rules {self.path!r}{' (closed)' if self.closed else ''}>"


class Trace(Handle):
    """A log converted with `rules` (or a standard-form trace, for a .std
    file): its events, resources, attribute state, shapes and statistics.
    A log with lines that did not convert still loads (`had_errors`, and
    `diagnostics` says which lines); strict=True raises LogError instead."""
    _kind = "trace"

    def __init__(self, rules: Rules, log_path: PathLike, *, strict: bool = False):
        handle = ctypes.c_void_p()
        if lib.tlv_trace_new(rules._live()._h, ctypes.byref(handle)) != _OK:
            raise TlvError("out of memory")
        super().__init__(handle.value, lib.tlv_trace_free, parent=rules)
        self.rules = rules
        self.source = os.fspath(log_path)
        self._owns_rules = False
        status = lib.tlv_trace_load_file(self._h, _b(log_path))
        self.diagnostics = diagnostics(lib.tlv_converter_diags(lib.tlv_trace_converter(self._h)))
        self.had_errors = status != _OK
        if status not in (_OK, _ERR_CONVERT) or (strict and status == _ERR_CONVERT):
            message = text(lib.tlv_trace_last_error(self._h)) or \
                text(lib.tlv_status_string(status))
            self.close()
            if status in (_ERR_IO, _ERR_CONVERT):
                raise LogError.from_diagnostics(message, self.diagnostics, self.source)
            raise TlvError(message, file=self.source, diagnostics=self.diagnostics)
        origin = lib.tlv_trace_time_origin(self._h)
        self.time_mode: str = _MODES.get(lib.tlv_trace_time_mode(self._h), "plain")
        self.clock = Clock(rules.time_scale, rules.radix, self.time_mode,
                           (origin.ticks, origin.frac))
        self._strings = Strings()

    def close(self) -> None:
        super().close()
        if getattr(self, "_owns_rules", False):
            self.rules.close()

    def __repr__(self) -> str:
        if self.closed:
            return f"<tlv.Trace {self.source!r} (closed)>"
        return (f"<tlv.Trace {self.source!r}: {len(self.events())} events, "
                f"{self.start:.9g} s to {self.end:.9g} s>")

    # ---- times ---------------------------------------------------------------------------
    @property
    def time_scale(self) -> str:
        """The TimeScale of the resource file ("us", "ns", "cycles", ...)."""
        return self.rules.time_scale

    @property
    def origin_ns(self) -> int:
        """Where the package's zero is on the log's own clock, in integer
        nanoseconds: 0 for a plain trace, the first event's time for a
        clock or wall-clock one (nanoseconds since 1970 for wall-clock)."""
        zero = self.clock.zero
        units = zero[0] + Fraction(zero[1], self.clock.scale)
        return round(units * (self.clock.ns_per_unit or 1))

    @property
    def start(self) -> float:
        """The first event's time, in seconds (tlv.times)."""
        t = lib.tlv_trace_start(self._live()._h)
        return self.clock.seconds(t.ticks, t.frac)

    @property
    def end(self) -> float:
        """The last event's time, in seconds."""
        t = lib.tlv_trace_end(self._live()._h)
        return self.clock.seconds(t.ticks, t.frac)

    def time(self, t: TimeLike) -> Tuple[int, int]:
        """A time given as the package takes them (seconds, "1.5 ms", ...) as
        the library's exact (ticks, frac)."""
        return self.clock.exact(t)

    def seconds(self, t: Union[Time, Tuple[int, int]]) -> float:
        """An exact library time (a (ticks, frac) tuple) in seconds."""
        ticks, frac = (t.ticks, t.frac) if isinstance(t, Time) else t
        return self.clock.seconds(ticks, frac)

    # ---- events and state ------------------------------------------------------------------
    def events(self, start: Optional[TimeLike] = None,
               end: Optional[TimeLike] = None) -> "Events":
        """The events from `start` (included) to `end` (left out), or all: a
        sequence read lazily, in batches, as it is iterated or indexed."""
        h = self._live()._h
        first = lib.tlv_trace_seek(h, Time(*self.time(start))) if start is not None else 0
        stop = lib.tlv_trace_seek(h, Time(*self.time(end))) if end is not None else \
            lib.tlv_trace_event_count(h)
        return Events(self, first, max(first, stop))

    def resources(self) -> List[Resource]:
        """The resources, in trace order."""
        h = self._live()._h
        return [Resource(text(lib.tlv_trace_resource_name(h, i)),
                         text(lib.tlv_trace_resource_type(h, i)),
                         text(lib.tlv_trace_resource_label(h, i)))
                for i in range(lib.tlv_trace_resource_count(h))]

    def attr_at(self, resource: str, attribute: str, ts: Optional[TimeLike] = None) -> str:
        """The value of resource.attribute at time `ts` (None: the end of the
        trace): its last change at or before then, else its initial value.
        Raises NotFoundError for a resource or attribute the trace lacks."""
        value = ctypes.c_char_p()
        at = ctypes.byref(Time(*self.time(ts))) if ts is not None else None
        status = lib.tlv_trace_attr_at(self._live()._h, _b(resource), _b(attribute), at,
                                       ctypes.byref(value))
        if status == _ERR_USAGE:
            raise NotFoundError(text(lib.tlv_trace_last_error(self._h)))
        if status != _OK:
            raise TlvError(text(lib.tlv_trace_last_error(self._h)))
        return text(value.value)

    # ---- what is computed from it --------------------------------------------------------------
    def shapes(self, cpu_attribute: Optional[str] = None) -> "Shapes":
        """The shapes the visualization rules draw (per-CPU rows with
        cpu_attribute, e.g. "prcId")."""
        from .shapes import Shapes
        return Shapes(self, cpu_attribute)

    def stats(self, cpu_attribute: Optional[str] = None) -> Dict[str, list]:
        """Time per resource and state, and busy time per processor, in
        seconds: {"states": [StateStatistic], "cpus": [CpuStatistic]}."""
        opts = StatsOptions(ctypes.sizeof(StatsOptions), None, _b(cpu_attribute), None, None)
        handle = ctypes.c_void_p()
        if lib.tlv_stats_compute(self._live()._h, ctypes.byref(opts), ctypes.byref(handle)) != _OK:
            raise TlvError(text(lib.tlv_trace_last_error(self._h)))
        span = self.clock.span
        try:
            s, c = StateStat(), CpuStat()
            states, cpus = [], []
            for i in range(lib.tlv_stats_state_count(handle)):
                lib.tlv_stats_state_sized(handle, i, ctypes.byref(s), ctypes.sizeof(s))
                states.append(StateStatistic(text(s.resource), text(s.state), s.count,
                                             span(s.total), span(s.min), span(s.max)))
            for i in range(lib.tlv_stats_cpu_count(handle)):
                lib.tlv_stats_cpu_sized(handle, i, ctypes.byref(c), ctypes.sizeof(c))
                cpus.append(CpuStatistic(text(c.name), text(c.value), span(c.busy), c.intervals))
            return {"states": states, "cpus": cpus}
        finally:
            lib.tlv_stats_free(handle)

    def counters(self) -> List[Counter]:
        """The counter attributes, with their samples (ts in seconds, value)."""
        handle = ctypes.c_void_p()
        if lib.tlv_counters_compute(self._live()._h, ctypes.byref(handle)) != _OK:
            raise TlvError(text(lib.tlv_trace_last_error(self._h)))
        seconds = self.clock.seconds
        try:
            out = []
            ci = CounterInfo()
            for i in range(lib.tlv_counters_count(handle)):
                lib.tlv_counters_get_sized(handle, i, ctypes.byref(ci), ctypes.sizeof(ci))
                n = ctypes.c_size_t()
                v = lib.tlv_counters_samples(handle, i, ctypes.byref(n))
                samples = [(seconds(v[k].time.ticks, v[k].time.frac), v[k].value)
                           for k in range(n.value)]
                have = ci.nsamples > 0
                out.append(Counter(text(ci.resource), text(ci.attribute), text(ci.display_name),
                                   ci.min if have else None, ci.max if have else None,
                                   ci.mean if have else None, ci.time_mean if have else None,
                                   samples))
            return out
        finally:
            lib.tlv_counters_free(handle)

    def instances(self, kind: Optional[str] = None, ready_values: Optional[str] = None,
                  cpu_attribute: Optional[str] = None) -> List["Instance"]:
        """Every whole instance of every actor in order of start
        (tlv/instances.h): response (activation to completion), latency
        (wake-up to running), call (entry to return) and the kinds the
        headers declare; durations in seconds."""
        from .timing import instances
        return instances(self, kind, ready_values, cpu_attribute)

    def instance_groups(self, kind: Optional[str] = None, ready_values: Optional[str] = None,
                        cpu_attribute: Optional[str] = None) -> List["InstanceGroup"]:
        """Per actor, kind and name, the response times as `tlv stats
        --instances` prints them (in seconds); worst: the longest Instance."""
        from .timing import instance_groups
        return instance_groups(self, kind, ready_values, cpu_attribute)

    def verify(self, requirements_path: PathLike) -> Tuple[List["Verdict"], List["Violation"]]:
        """Checks a requirements file (docs/timing.md) against the trace, as
        `tlv verify` does: ([Verdict], [Violation]). A mistake in the file,
        or a requirement naming what the trace lacks, raises RuleError at its
        FILE:LINE:COL."""
        from .timing import verify
        return verify(self, requirements_path)

    def to_sqlite(self, path: PathLike, shapes: Optional["Shapes"] = None) -> None:
        """Writes the trace as a SQLite database with the schema of
        docs/sql.md, as `tlv export --format sqlite` does (no markers)."""
        from .sql import write_sqlite
        self._live()
        write_sqlite(self, shapes if shapes is not None else self.shapes(), os.fspath(path))

    def to_pandas(self) -> "pandas.DataFrame":
        """The events as a pandas DataFrame (see Events.to_pandas)."""
        return self.events().to_pandas()


# ---- events, read in batches -----------------------------------------------------------------

_EVENT = struct.Struct("@qQPiPPNPQQ")  # tlv_event, as _lib.Event declares it
assert _EVENT.size == ctypes.sizeof(_CEvent), "tlv_event: the struct format and ctypes disagree"
_BATCH = 4096


def raw_events(trace: Trace, first: int, stop: int) -> Iterator[tuple]:
    """The events first..stop-1 as tlv_event tuples (ticks, frac, resource,
    kind, name, value, nargs, args, line, seq; strings as addresses), read
    _BATCH at a time into one buffer."""
    size = _EVENT.size
    buf = (ctypes.c_char * (size * _BATCH))()
    address = ctypes.addressof(buf)
    view = memoryview(buf).cast("B")
    i = first
    while i < stop:
        n = lib.tlv_trace_event_range_sized(trace._live()._h, i, min(_BATCH, stop - i), address,
                                            size)
        if n == 0:
            return
        yield from _EVENT.iter_unpack(view[:n * size])
        i += n


class Events(Sequence[Event]):
    """A range of a trace's events: len(), indexing and slicing read only
    what is asked for; iterating reads them in batches and keeps none."""

    def __init__(self, trace: Trace, first: int, stop: int):
        self._trace = trace
        self._first = first
        self._stop = stop

    def __len__(self) -> int:
        return self._stop - self._first

    def __repr__(self) -> str:
        return f"<tlv.Events {self._first}..{self._stop} of {self._trace.source!r}>"

    @overload
    def __getitem__(self, i: int) -> Event: ...
    @overload
    def __getitem__(self, i: slice) -> "Events": ...

    def __getitem__(self, i):
        if isinstance(i, slice):
            start, stop, step = i.indices(len(self))
            if step != 1:
                return [self[k] for k in range(start, stop, step)]
            return Events(self._trace, self._first + start, self._first + max(start, stop))
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("event index out of range")
        return next(iter(Events(self._trace, self._first + i, self._first + i + 1)))

    def __iter__(self) -> Iterator[Event]:
        trace = self._trace
        seconds = trace.clock.seconds
        get, array = trace._strings.get, trace._strings.array
        i = self._first
        for ticks, frac, res, kind, name, value, nargs, args, line, _seq in \
                raw_events(trace, self._first, self._stop):
            if kind == 0:
                yield Event(i, seconds(ticks, frac), get(res), "attribute", get(name), get(value),
                            None, line)
            else:
                a = array(args, nargs) if nargs else []
                yield Event(i, seconds(ticks, frac), get(res), "behavior", get(name),
                            ",".join(a) if a else None, a, line)
            i += 1

    def to_pandas(self) -> "pandas.DataFrame":
        """These events as a pandas DataFrame: ts (int64 nanoseconds, in the
        frame of tlv.times; trace units when the TimeScale is not one of
        time), resource, kind and name (categories), value, line. The
        frame's zero on the log's own clock is in df.attrs["origin_ns"]."""
        from .frames import events_frame
        return events_frame(self._trace, self._first, self._stop)


def open(log: PathLike, res: Optional[PathLike] = None, *, rule_dirs: Sequence[PathLike] = (),
         strict: bool = False, allow_scripts: bool = False) -> Trace:
    """Converts `log` with the resource file `res` (default: the log's name
    with .res, as `tlv record` writes them) and returns the Trace, which owns
    its rules: use it in a `with` block, or close() it."""
    if res is None:
        base, _ = os.path.splitext(os.fspath(log))
        res = base + ".res"
    rules = Rules(res, rule_dirs, allow_scripts)
    try:
        trace = Trace(rules, log, strict=strict)
    except BaseException:
        rules.close()
        raise
    trace._owns_rules = True
    return trace
