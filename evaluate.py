"""The shared scorer's command line, run from a checkout: ``python evaluate.py …`` (see :mod:`semsts.evaluate`).

The scorer is installed as ``semsts.evaluate`` (never as a top-level ``evaluate``, which is Hugging
Face's library); this file only starts it.
"""
import sys

from semsts.evaluate import main

if __name__ == "__main__":
    sys.exit(main())
