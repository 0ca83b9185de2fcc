"""``python -m sts``: the same as the ``sts`` command."""
import sys

from . import main

sys.exit(main())
