"""Plotly figures built from cluval's results (no Streamlit here: the app only renders them).

The same figures work in a notebook: ``contingency_heatmap(compare(a, b))``.
"""

from . import atlas, colours, comparison, covers, curves, disagreement, experiments, many, paired, trees
from .atlas import *  # noqa: F401,F403 - the property atlas
from .colours import *  # noqa: F401,F403 - one colour per index
from .comparison import *  # noqa: F401,F403 - one comparison's figures
from .covers import *  # noqa: F401,F403 - overlapping clusterings
from .curves import *  # noqa: F401,F403 - index values along a parameter or across groups
from .disagreement import *  # noqa: F401,F403 - where indices disagree on real data
from .experiments import *  # noqa: F401,F403 - the paper reproductions' figures
from .many import *  # noqa: F401,F403 - many clusterings of the same objects
from .paired import *  # noqa: F401,F403 - two candidates against one reference
from .trees import *  # noqa: F401,F403 - two hierarchies

__all__ = [*atlas.__all__, *colours.__all__, *comparison.__all__, *covers.__all__, *curves.__all__,
           *disagreement.__all__, *experiments.__all__, *many.__all__, *paired.__all__, *trees.__all__]
