"""_handle — what Rules, Trace and Shapes share: a library handle freed by
close(), by leaving a `with` block or when garbage-collected, and the order
of frees the library needs (a trace before its rules, shapes before their
trace): closing a parent closes what was made from it first, so that a
child used afterwards raises ClosedError instead of reading freed memory."""
from __future__ import annotations

import weakref
from typing import Any, Callable, Optional

from .errors import ClosedError


class Handle:
    _kind = "handle"

    def __init__(self, handle: Any, free: Callable[[Any], None],
                 parent: Optional["Handle"] = None):
        self._h = handle
        self._free = free
        self._children: "weakref.WeakSet[Handle]" = weakref.WeakSet()
        self._parent = parent  # a strong reference: the parent lives as long as its children
        if parent is not None:
            parent._live()._children.add(self)

    def _live(self) -> "Handle":
        if not self._h:
            raise ClosedError(f"this {self._kind} is closed")
        return self

    @property
    def closed(self) -> bool:
        return not self._h

    def close(self) -> None:
        """Frees the library's handle, and first those made from it. Calling
        it again does nothing."""
        h = getattr(self, "_h", None)
        if not h:
            return
        self._h = None  # closed from here on: the children's close() comes back here
        for child in list(self._children):
            child.close()
        self._free(h)

    def __enter__(self):
        return self._live()

    def __exit__(self, *exc) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # interpreter shutdown: nothing left to free with
            pass
