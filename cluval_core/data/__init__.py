"""Data: the benchmark sets (:mod:`~cluval_core.data.datasets`), the papers' synthetic partitions
and point sets (:mod:`~cluval_core.data.synthetic`), users' files (:mod:`~cluval_core.data.userdata`)
and tables built by hand (:mod:`~cluval_core.data.presets`)."""
