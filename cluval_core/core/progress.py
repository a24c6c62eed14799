"""The time left of a long computation, from the time its first steps took.

A front end that shows a progress bar can say how long the rest will take instead of a fixed
promise ("a few seconds"): :class:`Remaining` extrapolates the time taken so far over the
work left, optionally weighting the steps by their estimated cost (a clustering at a larger k
takes longer), and says it in words only once enough of the work is done for the estimate to
mean something.

>>> clock = iter([0.0, 1.0, 3.0, 5.0]).__next__
>>> left = Remaining(clock=clock)
>>> left.seconds(0.1) is None  # the first report, at 1 s: the pace is measured from here
True
>>> left.seconds(0.3)  # 20 % more in 2 s: 70 % to go, 7 s
7.0
>>> left.text(0.5)  # 40 % in 4 s
'about 5 s left'
"""

from __future__ import annotations

import math
import time

__all__ = ["Remaining", "seconds_text"]


def seconds_text(seconds: float) -> str:
    """A duration in words, to two significant digits: "about 4 s", "about 12 s", "about 3 min", "about 2 h".

    >>> seconds_text(3.94), seconds_text(12.4), seconds_text(185)
    ('about 3.9 s', 'about 12 s', 'about 3.1 min')
    """
    if seconds < 100:
        return f"about {seconds:.2g} s"
    if seconds < 6000:
        return f"about {seconds / 60:.2g} min"
    return f"about {seconds / 3600:.2g} h"


class Remaining:
    """The time left of work measured as a fraction done (0 to 1), from the time taken so far.

    ``weights`` (optional), the estimated cost of each of the work's steps in order, makes the
    fraction done a share of the estimated cost: :meth:`of_steps` turns steps done into it.
    The estimate is withheld (None) until ``least`` of the work is done and ``wait`` seconds
    have passed, and once less than ``shortest`` seconds are left.
    """

    def __init__(self, weights=None, *, least: float = 0.15, wait: float = 0.5, shortest: float = 2.0,
                 clock=time.perf_counter):
        self._clock = clock
        self._start = clock()
        self._first = None  # (time, fraction) of the first report: the pace is measured from it
        self._least, self._wait, self._shortest = least, wait, shortest
        self._cumulative = None
        if weights is not None:
            total, running = 0.0, [0.0]
            for weight in weights:
                total += max(float(weight), 0.0)
                running.append(total)
            self._cumulative = [value / total if total > 0 else 0.0 for value in running]

    def of_steps(self, done: int, total: int) -> float:
        """The fraction of the work done after `done` of `total` steps (weighted when weights were given)."""
        if total <= 0:
            return 1.0
        if self._cumulative is None or len(self._cumulative) != total + 1:
            return min(max(done / total, 0.0), 1.0)
        return self._cumulative[min(max(done, 0), total)]

    def seconds(self, fraction: float) -> float | None:
        """Seconds left when `fraction` of the work is done, or None while it cannot be told.

        The pace is measured from the first report on, so that what came before the work's
        first step (setting up, a first compilation) does not count.
        """
        now = self._clock()
        if self._first is None:
            if fraction > 0:
                self._first = (now, fraction)
            return None
        start, done = self._first
        if not (0 < fraction < 1) or fraction < self._least or now - self._start < self._wait or fraction <= done:
            return None
        left = (now - start) * (1 - fraction) / (fraction - done)
        return left if math.isfinite(left) else None

    def text(self, fraction: float) -> str:
        """``"about 12 s left"``, or "" while the estimate is withheld."""
        left = self.seconds(fraction)
        if left is None or left < self._shortest:
            return ""
        return f"{seconds_text(left)} left"
