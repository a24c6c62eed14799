"""Outputs: figures built from a comparison (:mod:`~cluval_core.outputs.plots`), values and files
for people (:mod:`~cluval_core.outputs.export`) and the command line (:mod:`~cluval_core.outputs.cli`)."""
