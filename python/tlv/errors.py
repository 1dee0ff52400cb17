"""errors — the exceptions of the tlv package, one hierarchy under TlvError,
and the diagnostics (file, line, column, message) they carry.

    TlvError                      anything the package raises itself
    ├── LibraryError              libtlv was not found or cannot be used
    ├── RuleError                 a resource (.res) or rule file is missing or wrong
    ├── LogError                  a log cannot be read, or (strict=True) had errors
    ├── NotFoundError (LookupError)  no such resource or attribute in the trace
    ├── TimeValueError (ValueError)  a time that is not a number with a unit
    ├── ClosedError (ValueError)  a handle used after close()
    └── ExportError               a database or export file could not be written

The ones that come from a file say where: `file`, `line` and `column` (None
when unknown) of the first error, and every problem the library listed in
`diagnostics`."""
from __future__ import annotations

from typing import NamedTuple, Optional, Sequence


class Diagnostic(NamedTuple):
    """One problem the library found, as `tlv check` prints it."""
    severity: str          # "error" or "warning"
    file: Optional[str]
    line: Optional[int]    # 1-based; None when unknown
    column: Optional[int]  # 1-based; None when unknown
    message: str

    def __str__(self) -> str:
        where = ":".join(str(p) for p in (self.file, self.line, self.column) if p)
        return f"{where}: {self.severity}: {self.message}" if where else \
            f"{self.severity}: {self.message}"


class TlvError(Exception):
    """An error of the tlv package: the message is the library's, and where a
    file is to blame, `file`, `line` and `column` say where (None when
    unknown); `diagnostics` lists every problem found."""

    def __init__(self, message: str, *, file: Optional[str] = None, line: Optional[int] = None,
                 column: Optional[int] = None, diagnostics: Sequence[Diagnostic] = ()):
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line
        self.column = column
        self.diagnostics = list(diagnostics)

    @classmethod
    def from_diagnostics(cls, message: str, diagnostics: Sequence[Diagnostic],
                         file: Optional[str] = None) -> "TlvError":
        """The error for `message`, located at the first error diagnostic
        (else at `file`), the diagnostics appended to the message."""
        first = next((d for d in diagnostics if d.severity == "error"), None)
        text = message + "".join(f"\n  {d}" for d in diagnostics)
        if first is None:
            return cls(text, file=file, diagnostics=diagnostics)
        return cls(text, file=first.file or file, line=first.line, column=first.column,
                   diagnostics=diagnostics)


class LibraryError(TlvError):
    """libtlv (or libtlv-export) could not be found or loaded."""


class RuleError(TlvError):
    """A resource file or a rule file it names is missing, unreadable or
    wrong; `file`, `line` and `column` point at the first error."""


class LogError(TlvError):
    """A log could not be read, or (with strict=True) some of its lines did
    not convert; `file` and `line` point at the first error."""


class NotFoundError(TlvError, LookupError):
    """The trace has no such resource, or its type no such attribute."""


class TimeValueError(TlvError, ValueError):
    """A time that is neither a number (seconds) nor a number with a unit
    ("1.5 ms", "300 us")."""


class ClosedError(TlvError, ValueError):
    """A Rules, Trace or Shapes used after it (or what it was made from)
    was closed."""


class ExportError(TlvError):
    """Writing an export (a SQLite database) failed."""
