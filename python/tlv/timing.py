"""timing — the actors' instances and their response times (tlv/instances.h,
`tlv stats --instances`) and timing requirements checked on a trace
(tlv/verify.h, `tlv verify`; docs/timing.md). Durations are seconds, times
are in the frame of tlv.times; a CPU requirement's worst and bound are busy
shares (0..1), a "never" requirement's counts."""
from __future__ import annotations

import ctypes
import os
from typing import TYPE_CHECKING, List, NamedTuple, Optional, Tuple

from ._lib import (Instance as _CInstance, InstanceGroup as _CGroup, InstancesOptions,
                   Verdict as _CVerdict, Violation as _CViolation, diagnostics, lib, text)
from .errors import RuleError, TlvError

if TYPE_CHECKING:  # pragma: no cover
    from .trace import PathLike, Trace

_OK = 0
_DURATIONS = ("response", "latency", "state", "followed")  # checks whose values are durations


class Instance(NamedTuple):
    resource: str
    kind: str            # "response", "latency", "call", or a kind the headers declare
    name: Optional[str]
    start: float         # seconds
    end: float
    response: float      # end - start, seconds
    execution: Optional[float]  # time running within, seconds; None when unknown
    preemptions: int
    interruptions: int
    line: int
    end_line: int


class InstanceGroup(NamedTuple):
    resource: str
    label: Optional[str]
    kind: str
    name: Optional[str]
    count: int
    partial: int
    min: float  # seconds, as the rest of the durations
    p50: float
    p90: float
    p99: float
    max: float
    mean: float
    stddev: float
    worst: Optional[Instance]  # the longest, None when there is none
    execution_max: Optional[float]
    preemptions: int


class Verdict(NamedTuple):
    name: str
    check: str           # "response", "latency", "state", "cpu", "followed", "never"
    passed: bool
    message: str         # the line tlv verify prints
    worst: Optional[float]  # seconds (a busy share for cpu, a count for never); None: none
    bound: float
    resource: Optional[str]
    time: float          # when the worst case began, seconds
    line: int            # its log line
    violations: int


class Violation(NamedTuple):
    requirement: int     # index of its Verdict
    resource: Optional[str]
    start: float         # seconds
    end: float
    line: int
    value: float         # as the verdict's worst


def _b(s) -> Optional[bytes]:
    return None if s is None else os.fsencode(s)


def _compute(trace: "Trace", ready_values, cpu_attribute):
    opts = InstancesOptions(ctypes.sizeof(InstancesOptions), None, None, _b(ready_values),
                            _b(cpu_attribute))
    handle = ctypes.c_void_p()
    if lib.tlv_instances_compute(trace._live()._h, ctypes.byref(opts), ctypes.byref(handle)) != _OK:
        raise TlvError(text(lib.tlv_trace_last_error(trace._h)))
    return handle


def _instance(trace: "Trace", handle, i: int, x: _CInstance) -> Instance:
    lib.tlv_instances_get_sized(handle, i, ctypes.byref(x), ctypes.sizeof(x))
    span, t = trace.clock.span, trace.seconds
    return Instance(text(x.resource), text(x.kind), text(x.name), t(x.start), t(x.end),
                    span(x.response), span(x.execution) if x.execution >= 0 else None,
                    x.preemptions, x.interruptions, x.start_line, x.end_line)


def instances(trace: "Trace", kind=None, ready_values=None, cpu_attribute=None) -> List[Instance]:
    handle = _compute(trace, ready_values, cpu_attribute)
    try:
        x = _CInstance()
        out = [_instance(trace, handle, i, x) for i in range(lib.tlv_instances_count(handle))]
        return [i for i in out if kind is None or i.kind == kind]
    finally:
        lib.tlv_instances_free(handle)


def instance_groups(trace: "Trace", kind=None, ready_values=None,
                    cpu_attribute=None) -> List[InstanceGroup]:
    handle = _compute(trace, ready_values, cpu_attribute)
    span = trace.clock.span
    try:
        g, x = _CGroup(), _CInstance()
        out = []
        for i in range(lib.tlv_instances_group_count(handle)):
            lib.tlv_instances_group_sized(handle, i, ctypes.byref(g), ctypes.sizeof(g))
            if kind is not None and text(g.kind) != kind:
                continue
            worst = _instance(trace, handle, g.worst, x) if g.count else None
            out.append(InstanceGroup(text(g.resource), text(g.label), text(g.kind), text(g.name),
                                     g.count, g.partial, span(g.min), span(g.p50), span(g.p90),
                                     span(g.p99), span(g.max), span(g.mean), span(g.stddev),
                                     worst,
                                     span(g.execution_max) if g.execution_max >= 0 else None,
                                     g.preemptions))
        return out
    finally:
        lib.tlv_instances_free(handle)


def verify(trace: "Trace", requirements_path: "PathLike") -> Tuple[List[Verdict], List[Violation]]:
    path = os.fspath(requirements_path)
    reqs = ctypes.c_void_p()
    status = lib.tlv_requirements_load(_b(path), ctypes.byref(reqs))
    try:
        if status != _OK:
            if not reqs:
                raise TlvError("out of memory")
            raise RuleError.from_diagnostics(f"{path}: {text(lib.tlv_status_string(status))}",
                                             diagnostics(lib.tlv_requirements_diags(reqs)), path)
        v = ctypes.c_void_p()
        status = lib.tlv_requirements_verify(reqs, trace._live()._h, None, ctypes.byref(v))
        try:
            if status != _OK:
                if not v:
                    raise TlvError(text(lib.tlv_trace_last_error(trace._h)))
                raise RuleError.from_diagnostics(f"{path}: {text(lib.tlv_status_string(status))}",
                                                 diagnostics(lib.tlv_verdicts_diags(v)), path)
            return _verdicts(trace, v)
        finally:
            lib.tlv_verdicts_free(v)
    finally:
        lib.tlv_requirements_free(reqs)


def _verdicts(trace: "Trace", v) -> Tuple[List[Verdict], List[Violation]]:
    d, x = _CVerdict(), _CViolation()
    span, t = trace.clock.span, trace.seconds
    verdicts, checks = [], []
    for i in range(lib.tlv_verdicts_count(v)):
        lib.tlv_verdicts_get_sized(v, i, ctypes.byref(d), ctypes.sizeof(d))
        check = text(d.check)
        scale = span if check in _DURATIONS else float
        checks.append(scale)
        verdicts.append(Verdict(text(d.name), check, bool(d.passed), text(d.message),
                                scale(d.worst) if d.worst >= 0 else None, scale(d.bound),
                                text(d.resource), t(d.time), d.line, d.violations))
    violations = []
    for i in range(lib.tlv_verdicts_violation_count(v)):
        lib.tlv_verdicts_violation_sized(v, i, ctypes.byref(x), ctypes.sizeof(x))
        violations.append(Violation(x.requirement, text(x.resource), t(x.start), t(x.end), x.line,
                                    checks[x.requirement](x.value)))
    return verdicts, violations
