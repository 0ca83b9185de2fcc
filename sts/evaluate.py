"""The shared scorer: official STS/CLSS correlations, aggregates, statistics and validation.

``python evaluate.py GOLD SYS`` prints ``Pearson: 0.43340`` like the organizers' correlation.pl;
``python evaluate.py --dataset NAME --run DIR`` scores a whole run directory with a
reproducibility signature; ``python evaluate.py --check SYS --dataset NAME --subset S`` validates
one output file like correct-output.pl; ``python evaluate.py compare …`` places runs among the
published results. The work lives in :mod:`semsts.scoring` and the command line in :mod:`semsts.eval_cli`;
this module re-exports both (the scorer's names on first use, as :mod:`semsts.scoring` gives them) and is
what the repository's ``evaluate.py`` runs.
"""
import sys

from semsts.eval_cli import SUBCOMMANDS, build_parser, compare_main, main  # noqa: F401
from semsts.scoring import __all__, __dir__, __getattr__, __version__  # noqa: F401 - the public API, on first use

if __name__ == "__main__":
    sys.exit(main())
