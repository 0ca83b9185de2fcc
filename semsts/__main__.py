"""``python -m semsts``: the same as the ``sts`` command."""
from .cli import entry

entry()
