"""Issue 12: the file formats are plain ASCII decimals (defect 10), messages quote what was written (12)."""
import pytest

from conftest import write
from corpora import formats
from corpora.errors import FormatError


@pytest.mark.parametrize("digit", ["\u0663", "\uff13", "\u0663.5", "\u09e9"])  # Arabic-Indic 3, fullwidth 3, Bengali 3
def test_non_ascii_digits_are_not_numbers(tmp_path, digit):
    """Defect 10: float() reads them as 3; the formats do not."""
    gold = write(tmp_path / "gold.txt", f"1\n{digit}\n")
    with pytest.raises(FormatError) as caught:
        formats.read_gold(gold)
    assert str(caught.value) == f"{gold}:2: expected a gold score as a number, got {digit!r}"
    out = write(tmp_path / "out.txt", f"1\n{digit}\n")
    assert [str(e) for e in formats.check_output(out, 2)] == [f"{out}:2: expected a score as a number, got {digit!r}"]
