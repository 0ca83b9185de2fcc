"""Why our glove-mean trails SimCSE's "GloVe embeddings (avg.)" row, measured.

That row averages 300-dimensional GloVe vectors of an 840-billion-token cased corpus (2.2M words);
ours averages the 50-dimensional 6B vectors (400k lower-cased words) we ship. Two measurements on
the seven test sets of SimCSE Table 5 (SimCSE convention: Spearman x 100, STS12-16 pooled):

1. vocabulary: the share of word tokens (and of distinct words) our GloVe does not know;
2. what the 50d mean loses to frequent words and the direction all sentence vectors share: the
   mean as ``glove-mean`` computes it, with punctuation tokens kept (as SentEval's whitespace
   tokens keep them), with SIF's word weights, with the first component removed, and with both
   (= ``sif``).

    python benchmarks/glove_mean_gap.py [--data-dir DIR] [--write [SECTION]]
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the checkout's packages (not yet installed)
sys.path.insert(0, str(Path(__file__).resolve().parent))
import results  # benchmarks/results.py: --write

DATASETS = ("sts2012-test", "sts2013-test", "sts2014-test", "sts2015-test", "sts2016-test", "stsb-test", "sick2014-test")


def load(name: str, data_dir):
    """``[(subset name, pairs, gold)]`` of a dataset's gold-scored pairs, as ``sts bench`` predicts them."""
    from semsts import corpora
    from semsts.baselines.bench_predictions import scored_subset
    return [(part.name, part.pairs, part.gold) for part in (scored_subset(sub)[0] for sub in corpora.load(name, data_dir))]


def punctuation_kept(text: str) -> tuple:
    """``encoder_words`` without dropping punctuation tokens."""
    from semsts.features.encoders import CLITIC
    from semsts.features.text import TOKEN
    out = []
    for token in TOKEN.findall(text):
        word = token.lower().replace("’", "'")
        split = CLITIC.match(word)
        out.extend(split.groups() if split else (word,))
    return tuple(out)


def variants() -> dict:
    """name -> encoder over a list of texts (a subset's scored pairs at once, as ``sts bench`` predicts)."""
    import numpy as np

    from semsts.features.encoders import first_component, sif_weight, word_matrix

    def mean(texts, weight=None, tokenize=None):
        matrix, vectors = word_matrix(texts, weight, tokenize)
        return np.asarray(matrix @ vectors)

    def removed(x):
        u = first_component(x)
        return x - np.outer(x @ u, u)

    return {
        "mean (glove-mean)": mean,
        "mean, punctuation tokens kept": lambda t: mean(t, tokenize=punctuation_kept),
        "mean, first component removed": lambda t: removed(mean(t)),
        "SIF weights, no component removed": lambda t: mean(t, sif_weight),
        "SIF weights, first component removed (sif)": lambda t: removed(mean(t, sif_weight)),
    }


def oov(data) -> dict:
    from semsts.corpora.word_vectors import glove
    from semsts.features.encoders import encoder_words

    table, out = glove(), {}
    for name, subsets in data.items():
        texts = sorted({t for _, pairs, _ in subsets for p in pairs for t in p})
        tokens = [w for t in texts for w in encoder_words(t)]
        known = dict(zip(tokens, (table.rows_of(tokens) >= 0).tolist()))
        out[name] = (len(tokens), sum(not known[w] for w in tokens) / len(tokens),
                     len(known), sum(not k for k in known.values()) / len(known))
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data-dir", default=os.environ.get("STS_DATA"), help="data root (default: $STS_DATA)")
    results.add_write_flag(parser, "glove-mean-gap")
    args = parser.parse_args(argv)
    with results.recording(args.write, __file__, argv):
        return measure(args)


def measure(args) -> int:
    from semsts.baselines.bench_predictions import as_written  # six decimals, as sts bench scores them
    from semsts.baselines.encoder import cosine_scores
    from semsts.corpora.published_encoders import contenders, labels
    from semsts.scoring.conventions import simcse, simcse_average

    data = {name: load(name, args.data_dir) for name in DATASETS}
    names = labels()
    print("Out of vocabulary (GloVe 6B 50d, 400k lower-cased words; lower-cased word tokens):")
    print("| dataset | tokens | OOV tokens | distinct words | OOV distinct words |\n|---|---|---|---|---|")
    for name, (n, rate, types, type_rate) in oov(data).items():
        print(f"| {names[name]} | {n} | {100 * rate:.2f}% | {types} | {100 * type_rate:.2f}% |")
    print("\nSimCSE convention (Spearman x 100):")
    print("| encoder (GloVe 6B 50d) | " + " | ".join(names[d] for d in DATASETS) + " | Avg. |")
    print("|---" * (len(DATASETS) + 2) + "|")
    for label, encode in variants().items():
        figures = []
        for d in DATASETS:  # one batch per subset: a removed component is fitted on the whole subset
            figures.append(simcse({sub: (gold, as_written(cosine_scores(encode, pairs, batch_size=2 * len(pairs) + 1)))
                                   for sub, pairs, gold in data[d]}))
        print(f"| {label} | " + " | ".join(f"{f:.2f}" for f in figures) + f" | {simcse_average(figures):.2f} |")
    row = next(r for r in contenders() if r.name == "GloVe embeddings (avg.)")
    print("| SimCSE Table 5: GloVe embeddings (avg.), 840B 300d | "
          + " | ".join(f"{row.figures[d]:.2f}" for d in DATASETS) + f" | {row.average:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
