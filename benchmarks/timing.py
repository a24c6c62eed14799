"""Timing helpers shared by the benchmarks: medians, and ratios of alternating runs."""

from __future__ import annotations

import gc
import statistics
import time

from cluval_core import INDICES

# "Every index but AMI": every index of the table except those that read the expected mutual
# information (the AMI variants) or minimise a description length (the RMI variants), whose cost
# grows with the distinct cluster sizes, not with the table; they are timed on their own.
IDS_BUT_AMI = [i for i, info in INDICES.items()
               if not info.needs_data and not i.startswith("ami") and "rmi" not in i]


def timed(func, repeats=5):
    """The median seconds of `repeats` calls of func()."""
    times = []
    for _ in range(repeats):
        gc.collect()
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def paired(ours, peer, repeats=7):
    """Alternate the two; return (median ours, median peer, median of the per-repeat ratios)."""
    mine, theirs = [], []
    for _ in range(repeats):
        mine.append(timed(ours, 1))
        theirs.append(timed(peer, 1))
    ratios = [m / t for m, t in zip(mine, theirs)]
    return statistics.median(mine), statistics.median(theirs), statistics.median(ratios)


def forget():
    """Clear what cluval keeps per set of cluster sizes (the expected mutual information and its
    sums, the mutual information's variance, the reduced mutual information's reference and conditional terms,
    the expected Tsallis power sums, the variance of the pair counts), so that a timed run
    reuses nothing."""
    from cluval_core.core.emi import _distinct_pair_sums, _expected_mutual_information, _mutual_information_variance
    from cluval_core.indices.information import _conditional_entropy, _expected_power_sum_of, _reference_terms
    from cluval_core.indices.pair_counting import _pair_sum_variance

    _distinct_pair_sums.cache_clear()
    _expected_mutual_information.cache_clear()
    _mutual_information_variance.cache_clear()
    _reference_terms.cache_clear()
    _conditional_entropy.cache_clear()
    _expected_power_sum_of.cache_clear()
    _pair_sum_variance.cache_clear()
