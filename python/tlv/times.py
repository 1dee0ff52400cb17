"""times — a trace's times as Python sees them: float seconds, or integer
nanoseconds, counted the way tlv shows them.

tlv shows a trace's times in one of two frames (tlv.h, tlv_time_mode): a
"plain" trace (a target's own timer, TOPPERS logs) as the log wrote them, a
"clock" or "wall-clock" one (strace -ttt, perf, uftrace) from its first
event. The package uses the same frame, in seconds: an ASP event logged at
[1085281] (us) has ts 1.085281; an strace call 1.5 ms after the recording
began has ts 0.0015, whatever the date. Integer nanoseconds (to_pandas) count
in the same frame; Trace.origin_ns is where the frame's zero is on the log's
own clock.

A time given to the package (attr_at(ts=...), events(start=..., end=...)) is
in that frame too: a number is seconds (1.5), a string is a number with a
unit ("1.5 ms", "300us", "2 s"; a bare number is seconds), and a (ticks,
frac) tuple is an exact tlv time as the library keeps it. Numbers are read
through their shortest decimal form (0.3 is 300 ms exactly, not the binary
float below it). A trace whose TimeScale is not a unit of time ("cycles")
has its times in that unit instead of seconds: numbers are counts of it, and
strings may name it ("1500 cycles")."""
from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Optional, Tuple, Union

from .errors import TimeValueError

#: What a time may be given as.
TimeLike = Union[float, int, str, Decimal, Fraction, Tuple[int, int]]

_NS_PER_UNIT = {"s": 10**9, "ms": 10**6, "us": 1000, "\u00b5s": 1000, "\u03bcs": 1000, "ns": 1,
                "ps": Fraction(1, 1000)}
_NUMBER = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?"
_TIME = re.compile(rf"^\s*({_NUMBER})\s*([^\s\d.+-][^\s]*)?\s*$")


def fraction_scale(radix: int) -> int:
    """radix^F, F the most fraction digits whose scale fits in 63 bits (tlv.h's tlv_time)."""
    scale = 1
    while scale <= (2**63 - 1) // radix:
        scale *= radix
    return scale


class Clock:
    """The conversions between a trace's exact times (ticks, frac) and the
    package's seconds and nanoseconds."""

    def __init__(self, time_scale: str, radix: int, mode: str, origin: Tuple[int, int]):
        self.time_scale = time_scale
        self.radix = radix
        self.scale = fraction_scale(radix)
        self.mode = mode
        self.ns_per_unit: Optional[Union[int, Fraction]] = _NS_PER_UNIT.get(time_scale)
        #: the absolute time of the frame's zero: (0, 0) for a plain trace, else its first event
        self.zero = (0, 0) if mode == "plain" else origin
        #: units per second (1 when the TimeScale is not a unit of time): dividing by
        #: it, a power of ten, rounds whole units correctly (1090858 us: 1.090858,
        #: where multiplying by 1e-6 gives 1.0908579999999999)
        self.units_per_second = float(Fraction(10**9) / self.ns_per_unit) \
            if self.ns_per_unit else 1.0

    # ---- out: from the library's times ------------------------------------------------
    def seconds(self, ticks: int, frac: int) -> float:
        """An absolute time as float seconds in the frame."""
        units = ticks - self.zero[0]
        if frac != self.zero[1]:
            units += (frac - self.zero[1]) / self.scale
        return units / self.units_per_second

    def span(self, units: float) -> float:
        """A duration the library gave in trace units, in seconds."""
        return units / self.units_per_second

    def ns(self, ticks: int, frac: int) -> int:
        """An absolute time as integer nanoseconds in the frame (units of
        the TimeScale when it is not one of time), rounded to the nearest."""
        units = Fraction(ticks - self.zero[0]) + Fraction(frac - self.zero[1], self.scale)
        x = units * (self.ns_per_unit or 1) + Fraction(1, 2)  # halves up, as to_pandas rounds
        return x.numerator // x.denominator

    # ---- in: from what a caller gave -----------------------------------------------------
    def units(self, t: TimeLike) -> Fraction:
        """A time given in the frame (see the module's text), as an exact
        number of trace units from the frame's zero."""
        if isinstance(t, bool):
            raise TimeValueError(f"a time, not {t!r}")
        if isinstance(t, (int, float)):
            if t != t or t in (float("inf"), float("-inf")):
                raise TimeValueError(f"a time must be finite, not {t!r}")
            return self._from_seconds(Fraction(Decimal(repr(t))))
        if isinstance(t, (Decimal, Fraction)):
            return self._from_seconds(Fraction(t))
        if isinstance(t, str):
            return self._parse(t)
        raise TimeValueError(f"a time is seconds (1.5), a string with a unit ('1.5 ms') or a "
                             f"(ticks, frac) tuple, not {type(t).__name__} {t!r}")

    def exact(self, t: TimeLike) -> Tuple[int, int]:
        """A time given in the frame as the library's absolute (ticks, frac):
        a (ticks, frac) tuple is taken as it is; anything finer than the
        TimeScale's resolution is cut off."""
        if isinstance(t, tuple):
            if len(t) != 2 or not all(isinstance(x, int) for x in t):
                raise TimeValueError(f"an exact time is a (ticks, frac) tuple of ints, not {t!r}")
            return t
        units = self.units(t) + self.zero[0] + Fraction(self.zero[1], self.scale)
        ticks = units.numerator // units.denominator
        frac = (units - ticks) * self.scale
        return ticks, frac.numerator // frac.denominator

    def _from_seconds(self, seconds: Fraction) -> Fraction:
        return seconds * 10**9 / self.ns_per_unit if self.ns_per_unit else seconds

    def _parse(self, text: str) -> Fraction:
        m = _TIME.match(text)
        if not m:
            raise TimeValueError(f"not a time: {text!r} (a number of seconds, or a number and a "
                                 f"unit: '1.5 ms', '300 us')")
        try:
            number = Fraction(Decimal(m.group(1)))
        except InvalidOperation:  # pragma: no cover - the pattern admits only numbers
            raise TimeValueError(f"not a number: {m.group(1)!r}") from None
        unit = m.group(2)
        if self.ns_per_unit is None:  # a TimeScale such as "cycles": its own unit only
            if unit in (None, self.time_scale):
                return number
            raise TimeValueError(f"{text!r}: this trace counts time in {self.time_scale!r}, "
                                 f"not in a unit of time")
        if unit is None:
            return self._from_seconds(number)
        ns = _NS_PER_UNIT.get(unit)
        if ns is None:
            raise TimeValueError(f"{text!r}: unknown unit {unit!r} (s, ms, us, ns or ps)")
        return number * ns / self.ns_per_unit
