"""Tests of semsts.features.edit: no global word table, and partial_ratio bounded on long texts."""


def test_edit_features_keep_no_global_table_and_bound_partial_ratio():
    """Issue 23, case 7: a global word table grew with the data and failed after 131,072 distinct lemmas;
    partial_ratio grew about cubically (20,000 characters a side: 224 s)."""
    from semsts.features import edit
    assert not hasattr(edit, "_SYMBOLS")
    many = [f"w{i}" for i in range(140_000)]
    a, b = edit.as_symbols(many, many[::-1])
    assert len(a) == len(b) == 140_000 and a == b[::-1]
    assert edit.as_symbols(["x", "y"], ["y"]) == ("\U00010000\U00010001", "\U00010001")  # the pair's own codes
    long_a, long_b = "ab cd " * 10_000, "cd ef " * 10_000
    assert edit.partial_ratio(long_a, long_b) == edit.partial_ratio(long_a[:1000], long_b[:1000])  # reads 1,000 a side
