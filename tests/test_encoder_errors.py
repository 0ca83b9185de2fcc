"""A user's encoder that fails is one error line naming it (issue 23, case 8): at import, as it runs, or exiting."""
import pytest

from semsts import cli

MODULES = {
    "enc_raises": "def enc(texts):\n    raise RuntimeError('boom')\n",
    "enc_syntax": "def enc(:\n",
    "enc_exits": "import sys\nsys.exit(3)\n",
    "enc_import": "raise ImportError('no torch here')\n",
}


@pytest.mark.parametrize("spec, expected", [
    ("enc_raises:enc", "encoder enc_raises:enc failed on a batch of 512 texts (RuntimeError: boom)"),
    ("enc_syntax:enc", "importing module 'enc_syntax' failed (SyntaxError: invalid syntax"),
    ("enc_exits:enc", "importing module 'enc_exits' failed (SystemExit: 3)"),
    ("enc_import:enc", "cannot import module 'enc_import' (no torch here)"),
    ("os:system", "failed on a batch of 512 texts (TypeError: "),
])
def test_a_failing_encoder_is_one_error_line(tmp_path, monkeypatch, capsys, spec, expected):
    for name, text in MODULES.items():
        (tmp_path / f"{name}.py").write_text(text)
    monkeypatch.syspath_prepend(str(tmp_path))
    assert cli.main(["run", "--encoder", spec, "--test", "demo-test", "--out", str(tmp_path / "out"), "--quiet"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ") and expected in err[0], err
