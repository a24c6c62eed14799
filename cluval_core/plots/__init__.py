"""Plotly figures built from cluval's results (no Streamlit here: the app only renders them).

The same figures work in a notebook: ``contingency_heatmap(compare(a, b))``.
"""

from .comparison import (PALETTE, contingency_heatmap, mapping_diagram, partition_scatter,  # noqa: F401
                         project_2d)
from .curves import index_curves, score_bars  # noqa: F401
from .experiments import *  # noqa: F401,F403 - the paper reproductions' figures

__all__ = ["PALETTE", "project_2d", "partition_scatter", "contingency_heatmap", "mapping_diagram",
           "index_curves", "score_bars"]
