"""The ground floor every layer may import: how a run executes (run settings, worker processes, progress, the
process's exit, garbage-collection thresholds), errors and notes, statistics, crash-safe files and lazy names.
It imports nothing of ours."""

# The garbage-collection thresholds featurizing runs under (Python's: 700, 10, 10): it allocates millions of
# short-lived objects beside long-lived tables that every full collection walks again (featurizer.rare_full_collections;
# the ``sts`` process sets them for its whole run). Here, so that setting them imports nothing.
COLLECTIONS = (20_000, 10, 100)
