"""_strings — the library's C strings as Python str, read by address. The
names, values and arguments of a trace are interned in the library (one
address per distinct string), so each is decoded once and then found by its
address; the cache belongs to one trace and goes with it."""
from __future__ import annotations

import ctypes
import struct
from typing import Dict, List, Optional

_string_at = ctypes.string_at
# (nargs) pointers in a row, as struct reads them: one Struct per count seen
_POINTERS: Dict[int, struct.Struct] = {}
_LIMIT = 1 << 20  # distinct strings kept; beyond that the cache starts again


class Strings:
    def __init__(self) -> None:
        self._cache: Dict[int, str] = {}

    def get(self, address: Optional[int]) -> Optional[str]:
        """The string at `address` (None for NULL)."""
        if not address:
            return None
        s = self._cache.get(address)
        if s is None:
            if len(self._cache) >= _LIMIT:
                self._cache.clear()
            s = self._cache[address] = _string_at(address).decode("utf-8", "replace")
        return s

    def array(self, address: int, n: int) -> List[str]:
        """The n strings of a `const char *const *` array."""
        if not n:
            return []
        unpack = _POINTERS.get(n)
        if unpack is None:
            unpack = _POINTERS[n] = struct.Struct(f"@{n}P")
        get = self.get
        return [get(p) or "" for p in unpack.unpack(_string_at(address, unpack.size))]
