"""The errors a user's encoder or pair scorer causes about one text or one pair: defined apart from the families
that raise them, so that a runner naming the pair's file and line (:func:`semsts.baselines.run.at_lines`) imports no
feature family. Each comes back whole from a worker process."""
from __future__ import annotations

from semsts.core.errors import InvalidValue, STSError


class NonFiniteEmbedding(ValueError, STSError):
    """The encoder gave NaN or inf for ``text`` (or ``what`` else no float can hold)."""

    def __init__(self, encoder: str, text: str, what: str = "a NaN or infinite embedding"):
        self.encoder, self.text, self.what = encoder, text, what
        super().__init__(f"encoder {encoder} gave {what} for {text!r:.80}")

    def __reduce__(self):  # raised in a worker process, it comes back whole
        return type(self), (self.encoder, self.text, self.what)


class FailedOnEmptyText(InvalidValue):
    """The user's encoder failed (``message``) on a batch holding the empty ``text`` (nothing but whitespace), the
    likely cause: the runner names the first pair holding it by its file and line."""

    def __init__(self, message: str, text: str):
        self.message, self.text = message, text
        super().__init__(f"{message}; the batch holds the empty text {text!r}")

    def __reduce__(self):
        return type(self), (self.message, self.text)


class NonFiniteScore(ValueError, STSError):
    """The scorer gave NaN or inf, no number, or a number outside the ``score_range`` it declares, for ``pair``."""

    def __init__(self, scorer: str, pair: tuple, what: str = "a NaN or infinite score"):
        self.scorer, self.pair, self.what = scorer, tuple(pair), what
        super().__init__(f"scorer {scorer} gave {what} for the pair ({pair[0]!r:.60}, {pair[1]!r:.60})")

    def __reduce__(self):  # raised in a worker process, it comes back whole
        return type(self), (self.scorer, self.pair, self.what)
