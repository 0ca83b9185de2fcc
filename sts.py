"""The ``sts`` command line: one entry point over the data layer, the systems and the scorer."""
from __future__ import annotations

import sys

USAGE = """usage: sts COMMAND [ARGS…]

commands:
  data    list, fetch and verify datasets        (python -m corpora)
  run     fit a system, write official outputs   (python -m baselines run)
  eval    score outputs against the gold         (python evaluate.py)
  demo    run every system on the shipped demo data and print the scoreboard
"""


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help"):
        print(USAGE, end="")
        return 0 if argv else 2
    command, rest = argv[0], argv[1:]
    if command == "data":
        from corpora.cli import main as data_main
        return data_main(rest, prog="sts data")
    if command in ("run",):
        from baselines.cli import main as baselines_main
        return baselines_main([command, *rest], prog="sts")
    if command == "eval":
        import evaluate
        return evaluate.main(rest)
    print(f"sts: unknown command {command!r}\n{USAGE}", file=sys.stderr, end="")
    return 2


if __name__ == "__main__":
    sys.exit(main())
