"""The scorer: correlations, aggregates and significance, the tasks, typed results (reports, comparisons, benches)
and signatures, compare and its HTML report.

:mod:`semsts.evaluate` re-exports this API; ``evaluate.py`` starts its command line (:mod:`semsts.eval_cli`).
Each name is imported from its module on first use, so that ``python evaluate.py GOLD SYS`` (which needs
none of numpy) starts as fast as the organizers' Perl script.
"""
from __future__ import annotations

from semsts.core.lazy import lazy_names

from .signature import VERSION as __version__  # noqa: F401 - the scorer's version, in every signature

_API = {  # name -> the module of this package that holds it
    **dict.fromkeys(["SubsetScore"], "aggregates"),
    **dict.fromkeys(["Bench"], "bench_tables"),
    **dict.fromkeys(["compare_runs"], "compare"),
    **dict.fromkeys(["COMPARE_RENDERERS", "Comparison", "compare_table", "render_compare_csv", "render_compare_json",
                     "render_compare_latex", "render_compare_markdown", "render_compare_text", "significance_table"],
                    "compare_tables"),
    **dict.fromkeys(["least_squares_map", "pearson", "spearman"], "correlations"),
    **dict.fromkeys(["write_compare_report"], "html_report"),
    **dict.fromkeys(["RENDERERS", "UNDEFINED", "InvalidRun", "Report", "render_csv", "render_json", "render_markdown",
                     "render_text"], "report"),
    **dict.fromkeys(["FORMATS", "Result"], "results"),
    **dict.fromkeys(["typed_lines"], "report_tables"),
    **dict.fromkeys(["score", "score_files", "score_run", "score_typed_files", "validate_run"], "runs"),
    **dict.fromkeys(["Signature"], "signature"),
    **dict.fromkeys(["ALPHA", "Z95", "BootstrapResult", "aggregate_ci", "fisher_ci", "fisher_z_test",
                     "paired_bootstrap", "williams_test"], "significance"),
    **dict.fromkeys(["CLSS", "STS", "TASKS", "TYPED", "TaskKind", "check_predictions", "missing_subsets",
                     "score_subsets", "score_typed", "task_for"], "tasks"),
}
__all__ = sorted([*_API, "__version__"])
__getattr__, __dir__ = lazy_names(__name__, _API)
