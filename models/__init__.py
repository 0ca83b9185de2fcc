"""The reference models shipped with semsts, one per regime (``X.skops`` and its card ``X.json``): data, no code.
Installed as ``semsts.models``; ``--model stsb`` and ``load_model("stsb")`` find them by name
(:func:`semsts.baselines.model_file.model_path`)."""
