"""Properties computed on first use and kept in the object (:class:`cached_property`)."""

from __future__ import annotations

import functools

__all__ = ["cached_property"]


class cached_property(functools.cached_property):  # noqa: N801 (named as the one it replaces)
    """:func:`functools.cached_property` without the lock that Python 3.10 and 3.11 take on every
    first use (Python 3.12 dropped it; it costs about a microsecond, a tenth of scoring a small
    table). Two threads that ask for the same property at once may both compute it, and keep
    the same value: what cluval caches is a deterministic function of an immutable object.

    >>> class Box:
    ...     @cached_property
    ...     def area(self):
    ...         print("computed")
    ...         return 6
    >>> box = Box()
    >>> box.area
    computed
    6
    >>> box.area
    6
    """

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        value = instance.__dict__[self.attrname] = self.func(instance)
        return value
