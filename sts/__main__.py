"""``python -m semsts``: the same as the ``sts`` command, importing exactly what it imports.

``python -m`` puts the current folder first on ``sys.path``; it is dropped (as ``python -P`` would), so a module
there (an encoder spec's, one named like a library) is never imported by accident."""
import os
import sys

if not sys.flags.safe_path and sys.path and sys.path[0] in ("", os.getcwd()):
    del sys.path[0]

from .cli import entry

entry()
