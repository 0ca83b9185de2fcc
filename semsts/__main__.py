"""``python -m semsts``: the same as the ``sts`` command."""
import sys

from .cli import main

sys.exit(main())
