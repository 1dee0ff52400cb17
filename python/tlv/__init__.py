"""tlv — trace-log conversion and analysis from Python, over libtlv (ctypes;
no compiled extension of its own).

    import tlv
    with tlv.open("samples/asp/sample.log", "samples/asp/sample.res") as trace:
        for event in trace.events(start="1.1 s", end="1.2 s"):   # read in batches
            ...
        trace.attr_at("TASK1", "state", ts=1.5)     # 'WAITING'
        df = trace.shapes().to_pandas()             # the drawn intervals, int64 ns
        trace.instance_groups(kind="response")      # response times (tlv stats --instances)
        trace.verify("requirements.json")           # timing requirements (tlv verify)
        trace.to_sqlite("trace.db")                 # the schema of docs/sql.md

Times are float seconds, counted as tlv shows them (tlv.times); a time may
also be given as a string with a unit ("1.5 ms"). Errors raise subclasses of
tlv.TlvError (tlv.errors) that say which file, line and column."""
from .errors import (ClosedError, Diagnostic, ExportError, LibraryError, LogError, NotFoundError,
                     RuleError, TimeValueError, TlvError)
from ._lib import lib as _lib, text as _text
from .shapes import Flow, Interval, Intervals, Row, Shape, Shapes
from .timing import Instance, InstanceGroup, Verdict, Violation
from .trace import (Counter, CpuStatistic, Event, Events, Resource, Rules, StateStatistic, Trace,
                    open)

__version__ = "0.1.0"
__all__ = ["open", "Rules", "Trace", "Shapes", "Events", "Intervals", "Event", "Interval", "Shape",
           "Row", "Flow", "Resource", "Counter", "StateStatistic", "CpuStatistic", "Instance",
           "InstanceGroup", "Verdict", "Violation", "Diagnostic",
           "TlvError", "LibraryError", "RuleError", "LogError", "NotFoundError",
           "TimeValueError", "ClosedError", "ExportError", "version", "library_path"]


def version() -> str:
    """The version of the libtlv loaded, e.g. "0.1.0"."""
    return _text(_lib.tlv_version())


def library_path() -> str:
    """The path of the libtlv loaded (how it was found: tlv._lib)."""
    return _lib._name
