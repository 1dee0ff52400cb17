"""_lib — loading libtlv with ctypes, and the C declarations the package
uses. Structs the library fills are passed to the *_sized functions with
ctypes.sizeof of the declarations here (the ABI policy of tlv.h): a library
newer than these declarations fills only what they know.

libtlv is found without any setting, the first of:
  1. the TLV_LIBRARY environment variable (a path to libtlv.so.0), to force one;
  2. the library this package was installed with: bundled into the wheel by
     `pip install` (tlv/_libtlv/), or the prefix `cmake --install` put the
     package in (_location.py, written by either, says where, relative to
     this directory);
  3. the prefix of the `tlv` command on PATH (PREFIX/bin/tlv: PREFIX/lib*/);
  4. pkg-config's libdir of libtlv;
  5. the dynamic loader's own search (ldconfig, LD_LIBRARY_PATH).
libtlv-export (the export formats, <tlv/export.h>: the one SQLite writer of
`tlv export` and this package) is loaded when first needed, from the
directory of the libtlv loaded, else as libtlv is found."""
import ctypes
import ctypes.util
import glob
import os
import shutil
import subprocess

from .errors import LibraryError, TlvError  # noqa: F401  (TlvError: sql.py imports it here)

_HERE = os.path.dirname(os.path.abspath(__file__))


def _installed_libdir():
    """The libdir recorded by the wheel's build or by cmake --install."""
    try:
        from . import _location  # written at build or install time; absent in the source tree
    except ImportError:
        return None
    return os.path.normpath(os.path.join(_HERE, _location.LIBDIR))


def _prefix_of_command():
    """PREFIX/lib*/ of the tlv command on PATH (PREFIX/bin/tlv), if any."""
    cmd = shutil.which("tlv")
    if not cmd:
        return []
    prefix = os.path.dirname(os.path.dirname(os.path.realpath(cmd)))
    return sorted(glob.glob(os.path.join(prefix, "lib*", "libtlv.so.0")) +
                  glob.glob(os.path.join(prefix, "lib*", "*", "libtlv.so.0")))


def _pkg_config_libdir(name):
    try:
        return subprocess.run(["pkg-config", "--variable=libdir", name], capture_output=True,
                              text=True, check=True).stdout.strip() or None
    except (OSError, subprocess.CalledProcessError):
        return None


def _candidates():
    env = os.environ.get("TLV_LIBRARY")
    if env:
        yield env
        return
    libdir = _installed_libdir()
    if libdir:
        yield os.path.join(libdir, "libtlv.so.0")
    yield from _prefix_of_command()
    libdir = _pkg_config_libdir("libtlv")
    if libdir:
        yield os.path.join(libdir, "libtlv.so.0")
    found = ctypes.util.find_library("tlv")
    if found:
        yield found
    yield "libtlv.so.0"


def _load(candidates=None):
    tried = []
    for path in (candidates or _candidates()):
        if os.path.sep in path and not os.path.exists(path):
            tried.append(f"{path}: no such file")
            continue
        try:
            return ctypes.CDLL(path)
        except OSError as e:
            tried.append(f"{path}: {e}")
    raise LibraryError("libtlv not found: install tlv (cmake --install, or pip install of the "
                       "python/ folder of its source, which bundles it), or set TLV_LIBRARY to "
                       "its libtlv.so.0; tried " + "; ".join(tried))


c_char_pp = ctypes.POINTER(ctypes.c_char_p)


class Time(ctypes.Structure):
    _fields_ = [("ticks", ctypes.c_int64), ("frac", ctypes.c_uint64)]


class Diag(ctypes.Structure):
    _fields_ = [("severity", ctypes.c_int), ("file", ctypes.c_char_p), ("line", ctypes.c_long),
                ("col", ctypes.c_long), ("message", ctypes.c_char_p)]


class RulesOptions(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_size_t), ("search_dirs", c_char_pp),
                ("n_search_dirs", ctypes.c_size_t), ("rules_path_env", ctypes.c_char_p),
                ("no_default_dirs", ctypes.c_int), ("allow_scripts", ctypes.c_int)]


class Event(ctypes.Structure):
    _fields_ = [("time", Time), ("resource", ctypes.c_char_p), ("kind", ctypes.c_int),
                ("name", ctypes.c_char_p), ("value", ctypes.c_char_p), ("nargs", ctypes.c_size_t),
                ("args", c_char_pp), ("input_line", ctypes.c_uint64), ("seq", ctypes.c_uint64)]


class ShapesOptions(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_size_t), ("cpu_attribute", ctypes.c_char_p),
                ("running_attribute", ctypes.c_char_p), ("running_value", ctypes.c_char_p),
                ("skip_rules", c_char_pp), ("n_skip_rules", ctypes.c_size_t)]


class RowInfo(ctypes.Structure):
    _fields_ = [("label", ctypes.c_char_p), ("resource", ctypes.c_char_p),
                ("group", ctypes.c_char_p)]


class ShapeInfo(ctypes.Structure):
    _fields_ = [("rule", ctypes.c_char_p), ("event", ctypes.c_char_p),
                ("resource", ctypes.c_char_p), ("row", ctypes.c_size_t), ("from_", Time),
                ("to", Time), ("type", ctypes.c_char_p), ("text", ctypes.c_char_p),
                ("fill", ctypes.c_uint32), ("has_fill", ctypes.c_int), ("pen", ctypes.c_uint32),
                ("has_pen", ctypes.c_int), ("is_when", ctypes.c_int), ("value", ctypes.c_char_p),
                ("from_event", ctypes.c_size_t), ("to_event", ctypes.c_size_t)]


class FlowInfo(ctypes.Structure):
    _fields_ = [("rule", ctypes.c_char_p), ("name", ctypes.c_char_p),
                ("display_name", ctypes.c_char_p), ("from_resource", ctypes.c_char_p),
                ("to_resource", ctypes.c_char_p), ("from_processor", ctypes.c_char_p),
                ("to_processor", ctypes.c_char_p), ("from_row", ctypes.c_size_t),
                ("to_row", ctypes.c_size_t), ("time", Time), ("event", ctypes.c_size_t)]


class StatsOptions(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_size_t), ("attribute", ctypes.c_char_p),
                ("cpu_attribute", ctypes.c_char_p), ("running_attribute", ctypes.c_char_p),
                ("running_value", ctypes.c_char_p)]


class StateStat(ctypes.Structure):
    _fields_ = [("resource", ctypes.c_char_p), ("state", ctypes.c_char_p),
                ("count", ctypes.c_size_t), ("total", ctypes.c_double), ("min", ctypes.c_double),
                ("max", ctypes.c_double)]


class CpuStat(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("value", ctypes.c_char_p), ("busy", ctypes.c_double),
                ("intervals", ctypes.c_size_t)]


class CounterInfo(ctypes.Structure):
    _fields_ = [("resource", ctypes.c_char_p), ("attribute", ctypes.c_char_p),
                ("display_name", ctypes.c_char_p), ("nsamples", ctypes.c_size_t),
                ("skipped", ctypes.c_size_t), ("min", ctypes.c_double), ("max", ctypes.c_double),
                ("mean", ctypes.c_double), ("time_mean", ctypes.c_double),
                ("has_bounds", ctypes.c_int), ("lower", ctypes.c_double),
                ("upper", ctypes.c_double)]


class CounterSample(ctypes.Structure):
    _fields_ = [("time", Time), ("value", ctypes.c_double)]


class InstancesOptions(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_size_t), ("state_attribute", ctypes.c_char_p),
                ("running_value", ctypes.c_char_p), ("ready_values", ctypes.c_char_p),
                ("cpu_attribute", ctypes.c_char_p)]


class Instance(ctypes.Structure):
    _fields_ = [("resource", ctypes.c_char_p), ("kind", ctypes.c_char_p),
                ("name", ctypes.c_char_p), ("start", Time), ("end", Time),
                ("response", ctypes.c_double), ("execution", ctypes.c_double),
                ("preemptions", ctypes.c_size_t), ("interruptions", ctypes.c_size_t),
                ("start_line", ctypes.c_uint64), ("end_line", ctypes.c_uint64),
                ("start_event", ctypes.c_size_t), ("end_event", ctypes.c_size_t),
                ("group", ctypes.c_size_t)]


class InstanceGroup(ctypes.Structure):
    _fields_ = [("resource", ctypes.c_char_p), ("label", ctypes.c_char_p),
                ("kind", ctypes.c_char_p), ("name", ctypes.c_char_p),
                ("count", ctypes.c_size_t), ("partial", ctypes.c_size_t),
                ("min", ctypes.c_double), ("p50", ctypes.c_double), ("p90", ctypes.c_double),
                ("p99", ctypes.c_double), ("max", ctypes.c_double), ("mean", ctypes.c_double),
                ("stddev", ctypes.c_double), ("worst", ctypes.c_size_t),
                ("execution_max", ctypes.c_double), ("execution_mean", ctypes.c_double),
                ("preemptions", ctypes.c_size_t), ("interruptions", ctypes.c_size_t)]


class Verdict(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("check", ctypes.c_char_p), ("passed", ctypes.c_int),
                ("message", ctypes.c_char_p), ("worst", ctypes.c_double),
                ("bound", ctypes.c_double), ("resource", ctypes.c_char_p), ("time", Time),
                ("line", ctypes.c_uint64), ("violations", ctypes.c_size_t),
                ("file_line", ctypes.c_long)]


class Violation(ctypes.Structure):
    _fields_ = [("requirement", ctypes.c_size_t), ("resource", ctypes.c_char_p),
                ("start", Time), ("end", Time), ("line", ctypes.c_uint64),
                ("value", ctypes.c_double)]


P = ctypes.c_void_p
_SIGNATURES = {
    # name: (restype, argtypes)
    "tlv_version": (ctypes.c_char_p, []),
    "tlv_status_string": (ctypes.c_char_p, [ctypes.c_int]),
    "tlv_diags_count": (ctypes.c_size_t, [P]),
    "tlv_diags_get": (ctypes.POINTER(Diag), [P, ctypes.c_size_t]),
    "tlv_diag_format": (ctypes.c_size_t, [ctypes.POINTER(Diag), ctypes.c_char_p, ctypes.c_size_t]),
    "tlv_time_to_double": (ctypes.c_double, [Time, ctypes.c_int]),
    "tlv_time_sub": (Time, [Time, Time, ctypes.c_int]),
    "tlv_time_cmp": (ctypes.c_int, [Time, Time]),
    "tlv_rules_options_init_sized": (None, [ctypes.POINTER(RulesOptions), ctypes.c_size_t]),
    "tlv_rules_load": (ctypes.c_int, [ctypes.c_char_p, ctypes.POINTER(RulesOptions),
                                      ctypes.POINTER(P)]),
    "tlv_rules_free": (None, [P]),
    "tlv_rules_diags": (P, [P]),
    "tlv_rules_time_scale": (ctypes.c_char_p, [P]),
    "tlv_rules_time_radix": (ctypes.c_int, [P]),
    "tlv_time_mode_name": (ctypes.c_char_p, [ctypes.c_int]),
    "tlv_rules_resource_count": (ctypes.c_size_t, [P]),
    "tlv_rules_resource_display_name": (ctypes.c_char_p, [P, ctypes.c_size_t]),
    "tlv_trace_new": (ctypes.c_int, [P, ctypes.POINTER(P)]),
    "tlv_trace_free": (None, [P]),
    "tlv_trace_converter": (P, [P]),
    "tlv_converter_diags": (P, [P]),
    "tlv_trace_load_file": (ctypes.c_int, [P, ctypes.c_char_p]),
    "tlv_trace_last_error": (ctypes.c_char_p, [P]),
    "tlv_trace_event_count": (ctypes.c_size_t, [P]),
    "tlv_trace_event_sized": (None, [P, ctypes.c_size_t, ctypes.POINTER(Event), ctypes.c_size_t]),
    # out is a buffer of n structs, passed by address (events.py reads it with struct)
    "tlv_trace_event_range_sized": (ctypes.c_size_t, [P, ctypes.c_size_t, ctypes.c_size_t, P,
                                                      ctypes.c_size_t]),
    "tlv_trace_seek": (ctypes.c_size_t, [P, Time]),
    "tlv_trace_time_mode": (ctypes.c_int, [P]),
    "tlv_trace_time_origin": (Time, [P]),
    "tlv_trace_resource_label": (ctypes.c_char_p, [P, ctypes.c_size_t]),
    "tlv_trace_start": (Time, [P]),
    "tlv_trace_end": (Time, [P]),
    "tlv_trace_resource_count": (ctypes.c_size_t, [P]),
    "tlv_trace_resource_name": (ctypes.c_char_p, [P, ctypes.c_size_t]),
    "tlv_trace_resource_type": (ctypes.c_char_p, [P, ctypes.c_size_t]),
    "tlv_trace_attr_at": (ctypes.c_int, [P, ctypes.c_char_p, ctypes.c_char_p,
                                         ctypes.POINTER(Time), ctypes.POINTER(ctypes.c_char_p)]),
    "tlv_shapes_build": (ctypes.c_int, [P, ctypes.POINTER(ShapesOptions), ctypes.POINTER(P)]),
    "tlv_shapes_free": (None, [P]),
    "tlv_shapes_diags": (P, [P]),
    "tlv_shapes_last_error": (ctypes.c_char_p, [P]),
    "tlv_shapes_row_count": (ctypes.c_size_t, [P]),
    "tlv_shapes_row_sized": (None, [P, ctypes.c_size_t, ctypes.POINTER(RowInfo), ctypes.c_size_t]),
    "tlv_shapes_count": (ctypes.c_size_t, [P]),
    "tlv_shapes_get_sized": (None, [P, ctypes.c_size_t, ctypes.POINTER(ShapeInfo),
                                    ctypes.c_size_t]),
    "tlv_shapes_get_range_sized": (ctypes.c_size_t, [P, ctypes.c_size_t, ctypes.c_size_t, P,
                                                     ctypes.c_size_t]),
    "tlv_shapes_flow_count": (ctypes.c_size_t, [P]),
    "tlv_shapes_flow_sized": (None, [P, ctypes.c_size_t, ctypes.POINTER(FlowInfo),
                                     ctypes.c_size_t]),
    "tlv_stats_compute": (ctypes.c_int, [P, ctypes.POINTER(StatsOptions), ctypes.POINTER(P)]),
    "tlv_stats_start": (ctypes.c_double, [P]),
    "tlv_stats_end": (ctypes.c_double, [P]),
    "tlv_stats_free": (None, [P]),
    "tlv_stats_state_count": (ctypes.c_size_t, [P]),
    "tlv_stats_state_sized": (None, [P, ctypes.c_size_t, ctypes.POINTER(StateStat),
                                     ctypes.c_size_t]),
    "tlv_stats_cpu_count": (ctypes.c_size_t, [P]),
    "tlv_stats_cpu_sized": (None, [P, ctypes.c_size_t, ctypes.POINTER(CpuStat), ctypes.c_size_t]),
    "tlv_counters_compute": (ctypes.c_int, [P, ctypes.POINTER(P)]),
    "tlv_counters_free": (None, [P]),
    "tlv_counters_count": (ctypes.c_size_t, [P]),
    "tlv_counters_get_sized": (None, [P, ctypes.c_size_t, ctypes.POINTER(CounterInfo),
                                      ctypes.c_size_t]),
    "tlv_counters_samples": (ctypes.POINTER(CounterSample), [P, ctypes.c_size_t,
                                                             ctypes.POINTER(ctypes.c_size_t)]),
    "tlv_instances_compute": (ctypes.c_int, [P, ctypes.POINTER(InstancesOptions),
                                             ctypes.POINTER(P)]),
    "tlv_instances_free": (None, [P]),
    "tlv_instances_count": (ctypes.c_size_t, [P]),
    "tlv_instances_get_sized": (None, [P, ctypes.c_size_t, ctypes.POINTER(Instance),
                                       ctypes.c_size_t]),
    "tlv_instances_group_count": (ctypes.c_size_t, [P]),
    "tlv_instances_group_sized": (None, [P, ctypes.c_size_t, ctypes.POINTER(InstanceGroup),
                                         ctypes.c_size_t]),
    "tlv_requirements_load": (ctypes.c_int, [ctypes.c_char_p, ctypes.POINTER(P)]),
    "tlv_requirements_free": (None, [P]),
    "tlv_requirements_diags": (P, [P]),
    "tlv_requirements_verify": (ctypes.c_int, [P, P, P, ctypes.POINTER(P)]),
    "tlv_verdicts_free": (None, [P]),
    "tlv_verdicts_diags": (P, [P]),
    "tlv_verdicts_count": (ctypes.c_size_t, [P]),
    "tlv_verdicts_get_sized": (None, [P, ctypes.c_size_t, ctypes.POINTER(Verdict),
                                      ctypes.c_size_t]),
    "tlv_verdicts_violation_count": (ctypes.c_size_t, [P]),
    "tlv_verdicts_violation_sized": (None, [P, ctypes.c_size_t, ctypes.POINTER(Violation),
                                            ctypes.c_size_t]),
}

lib = _load()
for _name, (_res, _args) in _SIGNATURES.items():
    _f = getattr(lib, _name)
    _f.restype = _res
    _f.argtypes = _args


def text(b):
    """A C string from the library as str (None stays None)."""
    return None if b is None else b.decode("utf-8", "replace")


def diagnostics(diags):
    """Every diagnostic of a tlv_diags list, as Diagnostic tuples."""
    from .errors import Diagnostic
    out = []
    for i in range(lib.tlv_diags_count(diags)):
        d = lib.tlv_diags_get(diags, i).contents
        out.append(Diagnostic("warning" if d.severity == 1 else "error", text(d.file),
                              d.line or None, d.col or None, text(d.message)))
    return out


def diag_lines(diags):
    """Every diagnostic of a tlv_diags list, formatted as tlv prints them."""
    out = []
    buf = ctypes.create_string_buffer(4096)
    for i in range(lib.tlv_diags_count(diags)):
        lib.tlv_diag_format(lib.tlv_diags_get(diags, i), buf, len(buf))
        out.append(text(buf.value))
    return out


class ExportOptions(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_size_t), ("source", ctypes.c_char_p),
                ("us_per_unit", ctypes.c_double), ("threads", ctypes.c_int),
                ("markers", ctypes.c_void_p), ("nmarkers", ctypes.c_size_t)]


_EXPORT_SIGNATURES = {
    "tlv_exporter_new": (ctypes.c_int, [P, P, P, ctypes.POINTER(ExportOptions), ctypes.POINTER(P)]),
    "tlv_exporter_free": (None, [P]),
    "tlv_exporter_last_error": (ctypes.c_char_p, [P]),
    "tlv_exporter_warning": (ctypes.c_char_p, [P]),
    "tlv_export_write_file": (ctypes.c_int, [P, ctypes.c_char_p, ctypes.c_char_p]),
    "tlv_export_write": (ctypes.c_int, [P, ctypes.c_char_p, P]),
}
_export = None


def _export_candidates():
    here = getattr(lib, "_name", "") or ""
    if os.path.sep in here:  # the libtlv loaded was found by path: its neighbour
        yield os.path.join(os.path.dirname(here), "libtlv-export.so.0")
    libdir = _pkg_config_libdir("libtlv-export")
    if libdir:
        yield os.path.join(libdir, "libtlv-export.so.0")
    found = ctypes.util.find_library("tlv-export")
    if found:
        yield found
    yield "libtlv-export.so.0"


def export_lib():
    """libtlv-export, loaded on first use."""
    global _export
    if _export is None:
        handle = _load(list(_export_candidates()))
        for name, (res, args) in _EXPORT_SIGNATURES.items():
            f = getattr(handle, name)
            f.restype = res
            f.argtypes = args
        _export = handle
    return _export
