"""One colour per index, the same in every figure and in the app's light and dark themes.

Every figure that draws a line, a bar or a box per index takes that trace's colour from
:data:`INDEX_COLOURS`, so that the Pair Sets Index is the same vermilion on every page and
the Adjusted Rand index the same blue. The colours come from the colour-blind-safe palettes
of Okabe & Ito and of Paul Tol, restricted to mid-tones that stand out on a white and on a
near-black background alike (contrast at least 2:1 with both; nothing pale, nothing black).
Vermilion belongs to PSI alone and blue to ARI alone: they stay apart for every reader,
deuteranopes included. With about fifty indices and eleven colours, other indices share a
colour; those the app shows together by default (the Why-indices-disagree page's six, the
PSI paper's table, the soft-clustering paper's nine) have colours that differ under
deuteranopia too, and each line of a figure also has its own dash and marker.

>>> INDEX_COLOURS["psi"], INDEX_COLOURS["ari"]
('#D55E00', '#0072B2')
>>> index_colour("1-nvd") == INDEX_COLOURS["nvd"]  # a distance drawn as 1 − distance keeps its colour
True
"""

from __future__ import annotations

from ...core.registry import INDICES
from ...core.validation import CluvalError

__all__ = ["INDEX_COLOURS", "INDEX_PALETTE", "index_colour", "translucent", "highlight_css"]

# The palette, by name: Okabe & Ito (vermilion, blue, orange, sky blue, reddish purple) and
# Paul Tol's bright, muted and medium-contrast schemes (the rest).
INDEX_PALETTE = {
    "vermilion": "#D55E00",
    "blue": "#0072B2",
    "purple": "#AA4499",
    "green": "#228833",
    "sky": "#56B4E9",
    "teal": "#44AA99",
    "orange": "#E69F00",
    "wine": "#994455",
    "olive": "#999933",
    "rose": "#EE6677",
    "pink": "#CC79A7",
}

_BY_NAME = {
    # pair counting
    "ri": "sky", "ari": "blue", "fowlkes_mallows": "teal", "afm": "olive", "mari": "wine",
    "pair_correlation": "orange", "pair_correlation_distance": "rose", "pair_jaccard": "green",
    "sokal_sneath": "purple", "mirkin": "wine", "hubert": "olive", "pair_recall": "orange", "pair_precision": "sky",
    "czekanowski_dice": "teal", "kulczynski": "pink", "russel_rao": "rose", "rogers_tanimoto": "green",
    "sokal_sneath_2": "pink", "southwood": "olive", "sri": "green", "pmi2": "purple",
    # information theory
    "mi": "wine", "nmi_sum": "purple", "nmi_sqrt": "green", "nmi_max": "orange", "nmi_min": "olive",
    "nmi_joint": "rose", "vi": "teal", "nvi": "sky", "ami": "orange", "ami_sqrt": "green", "ami_max": "rose",
    "ami_min": "olive", "homogeneity": "pink", "completeness": "sky", "rmi": "wine", "rmi_flat": "pink",
    "nrmi": "teal", "fnmi": "olive", "smi": "teal", "atmi": "wine",
    # set matching
    "f_measure": "orange", "f_measure_pred": "rose", "purity": "sky", "purity_inverse": "olive", "nvd": "green",
    "ch_greedy": "teal", "ch_optimal": "wine", "pa": "purple", "na": "rose", "aaa": "wine", "psi": "vermilion",
    "psi_simplified": "pink", "split_join_true": "olive", "split_join_pred": "sky",
    # object level
    "bcubed_precision": "sky", "bcubed_recall": "orange", "bcubed_f": "purple", "ecs": "green", "chi2": "wine",
    "frobenius": "teal",
    # cluster level
    "ci_partition": "orange", "csi_partition": "rose", "ci_centroid": "purple", "csi_centroid": "green",
    "cr": "wine",
}

# the colour of every index a user adds (cluval_core.pair_index)
_OWN = "olive"
# index id -> colour (#RRGGBB), for every index of the registry
INDEX_COLOURS = {index_id: INDEX_PALETTE[_BY_NAME[index_id]] for index_id in INDICES if index_id in _BY_NAME}


def index_colour(key: str) -> str:
    """The colour of an index's trace: `key` is an index id, or ``1-id`` for a distance drawn as 1 − distance.

    >>> index_colour("ari")
    '#0072B2'
    """
    base = key[2:] if key.startswith("1-") else key
    if base not in INDEX_COLOURS and base not in INDICES:
        raise CluvalError(f"no colour for {key!r}: an index id of the registry (or '1-' and one) is expected")
    return INDEX_COLOURS.get(base, INDEX_PALETTE[_OWN])  # an index a user added has the one colour of its own


def translucent(colour: str, alpha: float) -> str:
    """``#rrggbb`` as ``rgba(r, g, b, alpha)``: a band or a table row's background in an index's colour.

    >>> translucent(index_colour("psi"), 0.2)
    'rgba(213, 94, 0, 0.2)'
    """
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return f"rgba({r}, {g}, {b}, {alpha})"


def highlight_css(index_id: str) -> str:
    """The CSS of a table row marked in an index's colour, translucent so that its text reads in both themes.

    >>> highlight_css("psi")
    'background-color: rgba(213, 94, 0, 0.22); font-weight: 700'
    """
    return f"background-color: {translucent(index_colour(index_id), 0.22)}; font-weight: 700"
