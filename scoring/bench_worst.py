"""The bench report's worst pairs: for each row and dataset, the pairs whose prediction disagrees most with the gold,
with their texts (escaped: they come from data files) and a link to the row's prediction file when one was saved."""
from __future__ import annotations

import html
import os
from pathlib import Path

from .bench import LABELS
from .pair_predictions import WORST, file_names, percentile_ranks, worst_pairs
from .results import html_table

HOW = ("Each list holds the {n} scored pairs of a row and dataset whose gold and prediction disagree most. Both are "
       "put on one scale first: each pair's percentile rank among the dataset's scored pairs (0 = the lowest, 1 = "
       "the highest; ties share their mean rank), since a system's scores need not be on the gold's scale and the "
       "SimCSE and MTEB figures are Spearman correlations of these pooled pairs, which compare ranks only. The gap "
       "is |gold rank - prediction rank|; gold and prediction are shown as the bench scored them. MTEB's SICK-R "
       "figure also pools SICK's train and trial sets: their pairs are in the saved files, not listed here.")


def anchor(table) -> str:
    """The element id of a row's dataset list (row number and dataset name: safe in an id and a URL fragment)."""
    return f"worst-{table.row_number}-{table.dataset}"


def _href(path: Path, report_dir: Path) -> str:
    """A link from the report's folder to ``path``, relative, each part escaped as a URL path."""
    from urllib.parse import quote
    rel = os.path.relpath(Path(path).resolve(), Path(report_dir).resolve())
    return "/".join(quote(part) for part in Path(rel).parts)


def worst_section(tables, report_dir, predictions=None, n: int = WORST) -> list[str]:
    """The report's lines: a list of links to each row's datasets, then each row and dataset's worst pairs, linked to
    ``predictions/ROW.DATASET.jsonl`` when the predictions were saved there."""
    names = file_names(tables)
    shown = [(t, name) for t, name in zip(tables, names) if t.figure == t.dataset]
    if not shown:
        return []
    out = ['<h2 id="worst-pairs">Worst pairs of each row</h2>', f"<p>{html.escape(HOW.format(n=n))}</p>", "<ul>"]
    by_row: dict = {}
    for t, name in shown:
        by_row.setdefault(t.row_number, []).append((t, name))
    for group in by_row.values():
        links = ", ".join(f'<a href="#{anchor(t)}">{html.escape(LABELS.get(t.dataset, t.dataset))}</a>' for t, _ in group)
        out.append(f"<li>{html.escape(group[0][0].row)}: {links}</li>")
    out.append("</ul>")
    for t, name in shown:
        label = LABELS.get(t.dataset, t.dataset)
        out.append(f'<h3 id="{anchor(t)}">{html.escape(t.row)}: {html.escape(label)} ({html.escape(t.dataset)}, '
                   f"{len(t)} scored pairs)</h3>")
        if predictions is not None:
            out.append(f'<p>every pair: <a class="predictions" href="{html.escape(_href(Path(predictions) / name, report_dir))}">'
                       f"{html.escape(name)}</a></p>")
        gold_rank, pred_rank = percentile_ranks(t.gold), percentile_ranks(t.prediction)
        body = [[f"{gap:.3f}", repr(float(t.gold[i])), repr(float(t.prediction[i])), f"{gold_rank[i]:.3f}", f"{pred_rank[i]:.3f}",
                 t.subset[i], str(t.pair[i]), "" if t.ids[i] is None else str(t.ids[i]), t.sentence1[i], t.sentence2[i]]
                for i, gap in worst_pairs(t, n)]
        header = ["gap", "gold", "prediction", "gold rank", "prediction rank", "subset", "pair", "id", "sentence 1",
                  "sentence 2"]
        out.append(f'<div class="pairs">{html_table(header, body)}</div>')
    return out
