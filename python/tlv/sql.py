"""sql — a trace as a SQLite database: libtlv-export's sqlite format, the one
writer and schema of `tlv export --format sqlite` and `tlv query` (docs/sql.md),
called through ctypes: nothing of the schema is written here."""
import ctypes
import os
import warnings

from ._lib import ExportOptions, TlvError, export_lib, text
from .errors import ExportError


def write_sqlite(trace, shapes, path):
    """Writes the database under a temporary name in the same directory and
    renames it when complete (an existing file at `path` is replaced)."""
    lib = export_lib()
    tmp = f"{path}.tmp.{os.getpid()}"
    if os.path.exists(tmp):
        os.unlink(tmp)
    opts = ExportOptions(ctypes.sizeof(ExportOptions), trace.source.encode(), 0.0, 0, None, 0)
    handle = ctypes.c_void_p()
    if lib.tlv_exporter_new(trace.rules._h, trace._h, shapes._h, ctypes.byref(opts),
                            ctypes.byref(handle)):
        raise TlvError("out of memory")
    try:
        if lib.tlv_export_write_file(handle, b"sqlite", tmp.encode()):
            raise ExportError(text(lib.tlv_exporter_last_error(handle)), file=path)
        os.replace(tmp, path)
        clamped = text(lib.tlv_exporter_warning(handle))
        if clamped:  # times past 2^63 ns in the Perfetto-shaped tables
            warnings.warn(f"{path}: {clamped}", RuntimeWarning, stacklevel=3)
    finally:
        lib.tlv_exporter_free(handle)
        if os.path.exists(tmp):
            os.unlink(tmp)
