"""The scorer: correlations, aggregates and significance, the tasks, typed results (reports, comparisons, benches)
and signatures, compare and its HTML report.

:mod:`semsts.evaluate` re-exports this API; ``evaluate.py`` starts its command line (:mod:`semsts.eval_cli`).
"""
from .bench_tables import Bench
from .compare import compare_runs
from .compare_tables import (
                             COMPARE_RENDERERS,
                             Comparison,
                             compare_table,
                             render_compare_csv,
                             render_compare_json,
                             render_compare_latex,
                             render_compare_markdown,
                             render_compare_text,
                             significance_table,
)
from .correlations import least_squares_map, pearson, spearman
from .html_report import write_compare_report
from .report import RENDERERS, UNDEFINED, InvalidRun, Report, render_csv, render_json, render_markdown, render_text
from .results import FORMATS, Result
from .runs import score, score_files, score_run, score_typed_files, typed_lines, validate_run
from .signature import VERSION as __version__
from .signature import Signature
from .significance import (
                             ALPHA,
                             Z95,
                             BootstrapResult,
                             aggregate_ci,
                             fisher_ci,
                             fisher_z_test,
                             paired_bootstrap,
                             williams_test,
)
from .tasks import (
                             CLSS,
                             STS,
                             TASKS,
                             TYPED,
                             TaskKind,
                             check_predictions,
                             missing_subsets,
                             score_subsets,
                             score_typed,
                             task_for,
)

__all__ = [
    "FORMATS", "Bench", "Comparison", "Result", "ALPHA", "CLSS", "COMPARE_RENDERERS", "RENDERERS", "STS", "TASKS", "TYPED", "UNDEFINED", "Z95",
    "BootstrapResult", "InvalidRun", "Report", "Signature", "TaskKind", "__version__", "aggregate_ci",
    "check_predictions",
    "compare_runs", "compare_table", "fisher_ci", "fisher_z_test", "least_squares_map", "missing_subsets",
    "paired_bootstrap", "pearson", "render_compare_csv", "render_compare_json", "render_compare_latex",
    "render_compare_markdown", "render_compare_text", "render_csv", "render_json", "render_markdown", "render_text",
    "score", "score_files", "score_run", "score_subsets", "score_typed", "score_typed_files", "significance_table",
    "spearman", "task_for", "typed_lines", "validate_run", "williams_test", "write_compare_report",
]
