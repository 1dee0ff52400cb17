"""tlv — trace-log conversion and analysis from Python, over the installed
libtlv (ctypes; no compiled extension).

    import tlv
    rules = tlv.Rules("samples/asp/sample.res")
    trace = tlv.Trace(rules, "samples/asp/sample.log")
    trace.events()[0]            # Event(ts=..., resource='LOGTASK', kind='behavior', ...)
    shapes = trace.shapes()
    shapes.intervals()           # the drawn intervals, as `tlv export --format csv`
    trace.stats()                # time per resource and state, CPU busy time
    trace.instance_groups()      # response times per actor and kind (tlv stats --instances)
    trace.verify("reqs.json")    # timing requirements (tlv verify)
    trace.to_sqlite("trace.db")  # the schema of docs/sql.md

Errors raise tlv.TlvError with the library's messages."""
import ctypes
from collections import namedtuple

from ._lib import (CounterInfo, CounterSample, CpuStat, Event as _CEvent, FlowInfo,
                   Instance as _CInstance, InstanceGroup as _CGroup, InstancesOptions, RowInfo,
                   RulesOptions, ShapeInfo, ShapesOptions, StateStat, StatsOptions, Time, TlvError,
                   Verdict as _CVerdict, Violation as _CViolation, diag_lines, lib, text)

__version__ = "0.1.0"
__all__ = ["Rules", "Trace", "Shapes", "TlvError", "Event", "Interval", "Row", "StateStat",
           "CpuStat", "Instance", "InstanceGroup", "Verdict", "Violation", "version"]

Event = namedtuple("Event", "id ts resource kind name value args line")
Interval = namedtuple("Interval", "rule event resource row start end dur value text instant")
Row = namedtuple("Row", "label resource group")
StateStatistic = namedtuple("StateStatistic", "resource state count total min max")
CpuStatistic = namedtuple("CpuStatistic", "name value busy intervals")
Counter = namedtuple("Counter", "resource attribute display_name min max mean time_mean samples")
Flow = namedtuple("Flow", "rule name display_name ts from_resource to_resource from_processor "
                  "to_processor event")
Instance = namedtuple("Instance", "resource kind name start end response execution preemptions "
                      "interruptions line end_line")
InstanceGroup = namedtuple("InstanceGroup", "resource label kind name count partial min p50 p90 "
                           "p99 max mean stddev worst execution_max preemptions")
Verdict = namedtuple("Verdict", "name check passed message worst bound resource time line "
                     "violations")
Violation = namedtuple("Violation", "requirement resource start end line value")

_OK = 0


def version():
    """The version of the libtlv loaded, e.g. "0.1.0"."""
    return text(lib.tlv_version())


def _b(s):
    return None if s is None else str(s).encode()


class Rules:
    """A resource file (.res) and the rules it names, found in `rule_dirs`,
    then TLV_RULES_PATH and the installed rules."""

    def __init__(self, res_path, rule_dirs=(), allow_scripts=False):
        opts = RulesOptions()
        lib.tlv_rules_options_init_sized(ctypes.byref(opts), ctypes.sizeof(opts))
        dirs = [_b(d) for d in rule_dirs]
        self._dirs = (ctypes.c_char_p * max(1, len(dirs)))(*dirs)
        opts.search_dirs = ctypes.cast(self._dirs, ctypes.POINTER(ctypes.c_char_p))
        opts.n_search_dirs = len(dirs)
        opts.allow_scripts = int(allow_scripts)
        handle = ctypes.c_void_p()
        status = lib.tlv_rules_load(_b(res_path), ctypes.byref(opts), ctypes.byref(handle))
        self._h = handle
        self.diagnostics = diag_lines(lib.tlv_rules_diags(handle)) if handle else []
        if status != _OK:
            self.close()
            raise TlvError(f"{res_path}: {text(lib.tlv_status_string(status))}: " +
                           "; ".join(self.diagnostics))
        self.time_scale = text(lib.tlv_rules_time_scale(handle))
        self.radix = lib.tlv_rules_time_radix(handle)

    def close(self):
        if self._h:
            lib.tlv_rules_free(self._h)
            self._h = None

    def __del__(self):
        self.close()


class Trace:
    """A log converted with `rules` (or a standard-form trace, for a .std
    file): its events, resources, attribute state, shapes and statistics."""

    def __init__(self, rules, log_path):
        self.rules = rules  # kept alive: the trace reads them
        handle = ctypes.c_void_p()
        if lib.tlv_trace_new(rules._h, ctypes.byref(handle)) != _OK:
            raise TlvError("out of memory")
        self._h = handle
        self.source = str(log_path)
        status = lib.tlv_trace_load_file(handle, _b(log_path))
        self.diagnostics = diag_lines(lib.tlv_converter_diags(lib.tlv_trace_converter(handle)))
        if status not in (_OK, 4):  # TLV_ERR_CONVERT: converted, with line errors
            message = text(lib.tlv_trace_last_error(handle))
            self.close()
            raise TlvError(message)
        self.had_errors = status != _OK

    def close(self):
        if getattr(self, "_h", None):
            lib.tlv_trace_free(self._h)
            self._h = None

    def __del__(self):
        self.close()

    def seconds(self, t):
        """A tlv time (ticks, frac) as a float in TimeScale units."""
        return lib.tlv_time_to_double(t, self.rules.radix)

    @property
    def start(self):
        return self.seconds(lib.tlv_trace_start(self._h))

    @property
    def end(self):
        return self.seconds(lib.tlv_trace_end(self._h))

    def resources(self):
        """[(name, type)] in trace order."""
        return [(text(lib.tlv_trace_resource_name(self._h, i)),
                 text(lib.tlv_trace_resource_type(self._h, i)))
                for i in range(lib.tlv_trace_resource_count(self._h))]

    def events(self):
        """Every event in (time, line) order."""
        out = []
        e = _CEvent()
        for i in range(lib.tlv_trace_event_count(self._h)):
            lib.tlv_trace_event_sized(self._h, i, ctypes.byref(e), ctypes.sizeof(e))
            attribute = e.kind == 0
            args = None if attribute else [text(e.args[k]) for k in range(e.nargs)]
            out.append(Event(i, self.seconds(e.time), text(e.resource),
                             "attribute" if attribute else "behavior", text(e.name),
                             text(e.value) if attribute else (",".join(args) if args else None),
                             args, e.input_line))
        return out

    def attr_at(self, resource, attribute, ts=None):
        """The value of resource.attribute at time `ts` (a tlv time tuple
        (ticks, frac); None: the end of the trace)."""
        value = ctypes.c_char_p()
        at = ctypes.byref(Time(*ts)) if ts is not None else None
        if lib.tlv_trace_attr_at(self._h, _b(resource), _b(attribute), at, ctypes.byref(value)):
            raise TlvError(text(lib.tlv_trace_last_error(self._h)))
        return text(value.value)

    def shapes(self, cpu_attribute=None):
        """The shapes the visualization rules draw (per-CPU rows with
        cpu_attribute, e.g. "prcId")."""
        return Shapes(self, cpu_attribute)

    def stats(self, cpu_attribute=None):
        """Time per resource and state, and busy time per processor:
        {"states": [StateStatistic], "cpus": [CpuStatistic]}."""
        opts = StatsOptions(ctypes.sizeof(StatsOptions), None, _b(cpu_attribute), None, None)
        handle = ctypes.c_void_p()
        if lib.tlv_stats_compute(self._h, ctypes.byref(opts), ctypes.byref(handle)) != _OK:
            raise TlvError(text(lib.tlv_trace_last_error(self._h)))
        try:
            s, c = StateStat(), CpuStat()
            states, cpus = [], []
            for i in range(lib.tlv_stats_state_count(handle)):
                lib.tlv_stats_state_sized(handle, i, ctypes.byref(s), ctypes.sizeof(s))
                states.append(StateStatistic(text(s.resource), text(s.state), s.count, s.total,
                                             s.min, s.max))
            for i in range(lib.tlv_stats_cpu_count(handle)):
                lib.tlv_stats_cpu_sized(handle, i, ctypes.byref(c), ctypes.sizeof(c))
                cpus.append(CpuStatistic(text(c.name), text(c.value), c.busy, c.intervals))
            return {"states": states, "cpus": cpus}
        finally:
            lib.tlv_stats_free(handle)

    def counters(self):
        """The counter attributes: [Counter] with samples [(ts, value)]."""
        handle = ctypes.c_void_p()
        if lib.tlv_counters_compute(self._h, ctypes.byref(handle)) != _OK:
            raise TlvError(text(lib.tlv_trace_last_error(self._h)))
        try:
            out = []
            ci = CounterInfo()
            for i in range(lib.tlv_counters_count(handle)):
                lib.tlv_counters_get_sized(handle, i, ctypes.byref(ci), ctypes.sizeof(ci))
                n = ctypes.c_size_t()
                v = lib.tlv_counters_samples(handle, i, ctypes.byref(n))
                samples = [(self.seconds(v[k].time), v[k].value) for k in range(n.value)]
                have = ci.nsamples > 0
                out.append(Counter(text(ci.resource), text(ci.attribute), text(ci.display_name),
                                   ci.min if have else None, ci.max if have else None,
                                   ci.mean if have else None, ci.time_mean if have else None,
                                   samples))
            return out
        finally:
            lib.tlv_counters_free(handle)

    def _instances(self, ready_values, cpu_attribute):
        opts = InstancesOptions(ctypes.sizeof(InstancesOptions), None, None, _b(ready_values),
                                _b(cpu_attribute))
        handle = ctypes.c_void_p()
        if lib.tlv_instances_compute(self._h, ctypes.byref(opts), ctypes.byref(handle)) != _OK:
            raise TlvError(text(lib.tlv_trace_last_error(self._h)))
        return handle

    def _instance(self, handle, i, x=None):
        x = x or _CInstance()
        lib.tlv_instances_get_sized(handle, i, ctypes.byref(x), ctypes.sizeof(x))
        return Instance(text(x.resource), text(x.kind), text(x.name), self.seconds(x.start),
                        self.seconds(x.end), x.response,
                        x.execution if x.execution >= 0 else None, x.preemptions,
                        x.interruptions, x.start_line, x.end_line)

    def instances(self, kind=None, ready_values=None, cpu_attribute=None):
        """Every whole instance of every actor in order of start (tlv/instances.h):
        response (activation to completion), latency (wake-up to running), call
        (entry to return) and the kinds the headers declare; [Instance]."""
        handle = self._instances(ready_values, cpu_attribute)
        try:
            x = _CInstance()
            out = [self._instance(handle, i, x) for i in range(lib.tlv_instances_count(handle))]
            return [i for i in out if kind is None or i.kind == kind]
        finally:
            lib.tlv_instances_free(handle)

    def instance_groups(self, kind=None, ready_values=None, cpu_attribute=None):
        """Per actor, kind and name, the response times as tlv stats --instances
        prints them: [InstanceGroup] (worst: the longest Instance, or None)."""
        handle = self._instances(ready_values, cpu_attribute)
        try:
            g = _CGroup()
            out = []
            for i in range(lib.tlv_instances_group_count(handle)):
                lib.tlv_instances_group_sized(handle, i, ctypes.byref(g), ctypes.sizeof(g))
                if kind is not None and text(g.kind) != kind:
                    continue
                worst = self._instance(handle, g.worst) if g.count else None
                out.append(InstanceGroup(text(g.resource), text(g.label), text(g.kind),
                                         text(g.name), g.count, g.partial, g.min, g.p50, g.p90,
                                         g.p99, g.max, g.mean, g.stddev, worst,
                                         g.execution_max if g.execution_max >= 0 else None,
                                         g.preemptions))
            return out
        finally:
            lib.tlv_instances_free(handle)

    def verify(self, requirements_path):
        """Checks a requirements file (docs/timing.md) against the trace, as
        tlv verify does: ([Verdict], [Violation]). A mistake in the file, or a
        requirement naming what the trace lacks, raises TlvError with the
        FILE:LINE:COL messages."""
        reqs = ctypes.c_void_p()
        status = lib.tlv_requirements_load(_b(requirements_path), ctypes.byref(reqs))
        try:
            if status != _OK:
                raise TlvError("; ".join(diag_lines(lib.tlv_requirements_diags(reqs))) if reqs
                               else "out of memory")
            v = ctypes.c_void_p()
            status = lib.tlv_requirements_verify(reqs, self._h, None, ctypes.byref(v))
            try:
                if status != _OK:
                    raise TlvError("; ".join(diag_lines(lib.tlv_verdicts_diags(v))) if v
                                   else text(lib.tlv_trace_last_error(self._h)))
                d, x = _CVerdict(), _CViolation()
                verdicts, violations = [], []
                for i in range(lib.tlv_verdicts_count(v)):
                    lib.tlv_verdicts_get_sized(v, i, ctypes.byref(d), ctypes.sizeof(d))
                    verdicts.append(Verdict(text(d.name), text(d.check), bool(d.passed),
                                            text(d.message), d.worst if d.worst >= 0 else None,
                                            d.bound, text(d.resource), self.seconds(d.time),
                                            d.line, d.violations))
                for i in range(lib.tlv_verdicts_violation_count(v)):
                    lib.tlv_verdicts_violation_sized(v, i, ctypes.byref(x), ctypes.sizeof(x))
                    violations.append(Violation(x.requirement, text(x.resource),
                                                self.seconds(x.start), self.seconds(x.end),
                                                x.line, x.value))
                return verdicts, violations
            finally:
                lib.tlv_verdicts_free(v)
        finally:
            lib.tlv_requirements_free(reqs)

    def to_sqlite(self, path, shapes=None):
        """Writes the trace as a SQLite database with the schema of
        docs/sql.md, as `tlv export --format sqlite` does (no markers)."""
        from .sql import write_sqlite
        write_sqlite(self, shapes if shapes is not None else self.shapes(), path)


class Shapes:
    """What the visualization rules of a trace draw: rows, intervals, flows."""

    def __init__(self, trace, cpu_attribute=None):
        self.trace = trace
        opts = ShapesOptions(ctypes.sizeof(ShapesOptions), _b(cpu_attribute), None, None, None, 0)
        handle = ctypes.c_void_p()
        status = lib.tlv_shapes_build(trace._h, ctypes.byref(opts), ctypes.byref(handle))
        if not handle:
            raise TlvError("out of memory")
        self._h = handle
        self.diagnostics = diag_lines(lib.tlv_shapes_diags(handle))
        self.had_errors = status != _OK

    def close(self):
        if getattr(self, "_h", None):
            lib.tlv_shapes_free(self._h)
            self._h = None

    def __del__(self):
        self.close()

    def rows(self):
        r = RowInfo()
        out = []
        for i in range(lib.tlv_shapes_row_count(self._h)):
            lib.tlv_shapes_row_sized(self._h, i, ctypes.byref(r), ctypes.sizeof(r))
            out.append(Row(text(r.label), text(r.resource), text(r.group)))
        return out

    def intervals(self):
        """The drawn intervals: the primitives one rule event draws over one
        interval (a bar and its label) make one, named by the text drawn."""
        out, last = [], None
        s = ShapeInfo()
        radix = self.trace.rules.radix
        for i in range(lib.tlv_shapes_count(self._h)):
            lib.tlv_shapes_get_sized(self._h, i, ctypes.byref(s), ctypes.sizeof(s))
            key = (s.row, s.is_when, s.from_.ticks, s.from_.frac, s.to.ticks, s.to.frac,
                   s.resource, s.event, s.rule)
            if key == last:
                if out[-1].text is None and s.text is not None:
                    out[-1] = out[-1]._replace(text=text(s.text))
                continue
            last = key
            start = self.trace.seconds(s.from_)
            instant = bool(s.is_when) or lib.tlv_time_cmp(s.from_, s.to) == 0
            dur = 0.0 if instant else self.trace.seconds(lib.tlv_time_sub(s.to, s.from_, radix))
            out.append(Interval(text(s.rule), text(s.event), text(s.resource), s.row, start,
                                start if s.is_when else self.trace.seconds(s.to), dur,
                                text(s.value), text(s.text), instant))
        return out

    def flows(self):
        f = FlowInfo()
        out = []
        for i in range(lib.tlv_shapes_flow_count(self._h)):
            lib.tlv_shapes_flow_sized(self._h, i, ctypes.byref(f), ctypes.sizeof(f))
            out.append(Flow(text(f.rule), text(f.name), text(f.display_name),
                            self.trace.seconds(f.time), text(f.from_resource),
                            text(f.to_resource), text(f.from_processor), text(f.to_processor),
                            f.event))
        return out
