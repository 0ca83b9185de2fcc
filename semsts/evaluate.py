"""The shared scorer: official STS/CLSS correlations, aggregates, statistics and validation.

``python evaluate.py GOLD SYS`` prints ``Pearson: 0.43340`` like the organizers' correlation.pl;
``python evaluate.py --dataset NAME --run DIR`` scores a whole run directory with a
reproducibility signature; ``python evaluate.py --check SYS --dataset NAME --subset S`` validates
one output file like correct-output.pl; ``python evaluate.py compare …`` places runs among the
published results. The work lives in :mod:`semsts.scoring` and the command line in :mod:`semsts.eval_cli`;
this module re-exports both and is what the repository's ``evaluate.py`` runs.
"""
import sys

from semsts.eval_cli import SUBCOMMANDS, build_parser, compare_main, main  # noqa: F401
from semsts.scoring import *  # noqa: F403 - the public API, listed in scoring.__all__
from semsts.scoring import __all__, __version__  # noqa: F401

if __name__ == "__main__":
    sys.exit(main())
