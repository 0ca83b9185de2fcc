"""How the command line tells a user a note: one ``note: …`` line on stderr, on a line of its own under any progress
bar, none with ``--quiet``. The library's notes (warnings of :class:`semsts.core.errors.Note`), the datasets' and the
commands' own all come this way (:func:`note`)."""
from __future__ import annotations

import warnings

_quiet = False  # the command's --quiet (see show_notes)


def note(text, *, even_quiet: bool = False) -> None:
    """Write ``note: text`` on stderr, on a line of its own under any progress bar; nothing with ``--quiet`` unless
    ``even_quiet`` (a note that the command removed files: it is said whatever the command was asked)."""
    if _quiet and not even_quiet:
        return
    from .bars import write
    write(f"note: {text}")


def show_notes(quiet: bool) -> None:
    """From here on the library's notes (:class:`semsts.core.errors.Note` warnings) are written by :func:`note`,
    and ``quiet`` (the command's ``--quiet``) silences them all."""
    global _quiet
    from semsts.core.errors import Note
    _quiet = quiet
    default = warnings.showwarning

    def show(message, category, filename, lineno, file=None, line=None):
        if issubclass(category, Note):
            note(message)
        else:
            default(message, category, filename, lineno, file, line)
    warnings.showwarning = show
    # joblib's loky replaces a worker whose memory grew by 300 MB since its first task (it takes that for a leak; ours
    # grow that much by caching WordNet, the word vectors and a fold's forest) and warns when work was waiting for it:
    # the work goes to the new worker and the results are the same, so a long training would only alarm the user
    warnings.filterwarnings("ignore", message="A worker stopped while some jobs were given to the executor",
                            category=UserWarning)
