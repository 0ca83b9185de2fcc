"""benchmarks/RESULTS.md: every section comes from a script in benchmarks/ that can rewrite it (``--write``), and the
one function that rewrites a section touches nothing else. Nothing here is timed."""
import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BENCHMARKS = ROOT / "benchmarks"
RESULTS_FILE = BENCHMARKS / "RESULTS.md"


def _module(name: str):
    spec = importlib.util.spec_from_file_location(f"benchmarks_{name}", BENCHMARKS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


results = _module("results")
TEXT = RESULTS_FILE.read_text(encoding="utf-8")


def _section(text: str, name: str) -> str:
    return text.split(f"<!-- begin: {name} -->\n", 1)[1].split(f"<!-- end: {name} -->", 1)[0]


def _script(section: str) -> str:
    """The script of a section's ``Command:`` line (the first ``benchmarks/X.py`` it names)."""
    command = re.search(r"^Command: `([^`]*)`", section, re.M)
    assert command, "a section without a 'Command: `…`' line"
    script = re.search(r"python benchmarks/(\w+\.py)\b", command.group(1))
    assert script, f"its command names no script of benchmarks/: {command.group(1)}"
    return script.group(1)


NAMES = results.sections(TEXT)


def test_the_results_file_has_sections():
    assert len(NAMES) >= 10


@pytest.mark.parametrize("name", NAMES)
def test_every_section_says_how_it_was_made(name):
    """A command, a machine, a date and a load; either written by its script or marked as a recorded earlier run."""
    section = _section(TEXT, name)
    _script(section)
    assert re.search(r"^Machine: \S", section, re.M), f"{name}: no 'Machine:' line"
    assert re.search(r"^Date: 20\d\d-\d\d-\d\d", section, re.M), f"{name}: no 'Date: YYYY-MM-DD' line"
    assert "load" in section.lower(), f"{name}: says nothing of the machine's load"
    written = "Written by the script (`--write`)." in section
    recorded = re.search(r"^Recorded runs? of \d{4}-\d\d-\d\d\b.*, not regenerated since", section, re.M)
    assert written != bool(recorded), f"{name}: neither (or both) written by its script and a recorded earlier run"
    if recorded:  # says how to regenerate it
        assert f"--write {name}" in section, f"{name}: a recorded run says how to rewrite it (--write {name})"


def test_every_named_script_exists_and_offers_the_write_flag():
    scripts = sorted({_script(_section(TEXT, name)) for name in NAMES})
    for script in scripts:
        path = BENCHMARKS / script
        assert path.is_file(), f"RESULTS.md names benchmarks/{script}, which does not exist"
        done = subprocess.run([sys.executable, str(path), "--help"], capture_output=True, text=True, cwd=ROOT,
                              timeout=300)
        assert done.returncode == 0, f"{script} --help: {done.stderr[-500:]}"
        assert "--write" in done.stdout, f"{script} --help does not mention --write"


def test_a_sections_default_name_is_its_scripts():
    """``--write`` with no name writes the script's default section, which exists in the file."""
    defaults = {}
    for path in BENCHMARKS.glob("*.py"):
        found = re.search(r'results\.add_write_flag\(parser, "([\w.-]+)"\)', path.read_text(encoding="utf-8"))
        if found:
            defaults[path.name] = found.group(1)
    assert defaults, "no script calls results.add_write_flag"
    missing = {script: name for script, name in defaults.items() if name not in NAMES}
    assert not missing, f"default sections missing from RESULTS.md: {missing}"
    for name in NAMES:
        script = _script(_section(TEXT, name))
        assert script in defaults, f"{name}: its script {script} does not call results.add_write_flag"


SAMPLE = ("# Results\n\nIntro with trailing spaces  \n\n## One\n\n<!-- begin: one -->\nold one\n| a |\n<!-- end: one -->\n"
          "between ✓\r\n\n<!-- begin: two -->\nold two\n<!-- end: two -->\nlast line, no newline")


def test_replace_section_replaces_only_its_section():
    new = results.replace_section(SAMPLE, "one", "| x |\n|---|\n| 1 |\n")
    assert new == SAMPLE.replace("old one\n| a |\n", "| x |\n|---|\n| 1 |\n")
    assert _section(new, "two") == _section(SAMPLE, "two")
    before, after = SAMPLE.split("<!-- begin: one -->")[0], SAMPLE.split("<!-- end: one -->")[1]
    assert new.startswith(before + "<!-- begin: one -->\n") and new.endswith("<!-- end: one -->" + after)
    again = results.replace_section(new, "one", "| x |\n|---|\n| 1 |")
    assert again == new  # the same body twice: the same bytes
    emptied = results.replace_section(SAMPLE, "two", "")
    assert "<!-- begin: two -->\n<!-- end: two -->" in emptied


@pytest.mark.parametrize("text, name, words", [
    (SAMPLE, "three", "no section 'three'"),
    (SAMPLE.replace("<!-- end: one -->\n", ""), "two", "inside the section 'one'"),
    (SAMPLE.replace("<!-- begin: one -->\n", ""), "one", "'<!-- end: one -->' with no '<!-- begin: one -->'"),
    (SAMPLE + "\n<!-- begin: one -->\n<!-- end: one -->\n", "one", "the section 'one' is there twice"),
    (SAMPLE.replace("<!-- end: two -->", ""), "one", "the section 'two' has no '<!-- end: two -->' line"),
])
def test_replace_section_refuses_broken_markers_with_one_clear_error(text, name, words):
    with pytest.raises(results.ResultsFileError) as caught:
        results.replace_section(text, name, "| new |")
    message = str(caught.value)
    assert words in message and "\n" not in message, message


def test_section_body():
    body = results.section_body("# x86_64, 2 cores, 2026-11-27\nIntro:\n| a |\n|---|\n| 1 |\nAfter.\n")
    assert body == "Intro:\n\n| a |\n|---|\n| 1 |\n\nAfter."
    assert results.section_body("case   seconds\nlcs    0.1\n") == "```text\ncase   seconds\nlcs    0.1\n```"


def test_the_command_line_leaves_the_write_flag_out(monkeypatch):
    monkeypatch.delenv("STS_DATA", raising=False)
    line = results.command_line("/x/benchmarks/speed.py", ["--jobs", "--write", "--skip", "evaluate"])
    assert line == "python benchmarks/speed.py --jobs --skip evaluate"
    assert results.command_line("speed.py", ["--write", "speed-jobs", "--jobs"]) == "python benchmarks/speed.py --jobs"
    monkeypatch.setenv("STS_DATA", "/data root")
    assert results.command_line("a.py", ["--write=x"]) == "STS_DATA='/data root' python benchmarks/a.py"


def test_recording_writes_what_was_printed_under_its_header(tmp_path, monkeypatch, capsys):
    path = tmp_path / "RESULTS.md"
    path.write_bytes(SAMPLE.encode("utf-8"))
    monkeypatch.setattr(results, "RESULTS", path)
    with results.recording(None, "demo.py", []):
        print("| not | written |")
    assert path.read_bytes().decode("utf-8") == SAMPLE
    with results.recording("two", "benchmarks/demo.py", ["--n", "3", "--write", "two"]):
        print("# context line\n| a | b |\n|---|---|\n| 1 | 2 |")
    assert "| a | b |" in capsys.readouterr().out  # still printed
    text = path.read_bytes().decode("utf-8")
    section = _section(text, "two")
    assert re.search(r"^Command: `(STS_DATA=\S+ )?python benchmarks/demo\.py --n 3`", section, re.M)
    assert re.search(r"^Machine: .*; Python \d+\.\d+", section, re.M)
    assert re.search(r"^Date: \d{4}-\d\d-\d\d \d\d:\d\d UTC; load average \(1 min\) [\d.]+ at the start", section, re.M)
    assert section.endswith("| a | b |\n|---|---|\n| 1 | 2 |\n") and "context line" not in section
    assert text.replace(section, "") == SAMPLE.replace(_section(SAMPLE, "two"), "")
    with pytest.raises(results.ResultsFileError), results.recording("three", "demo.py", []):
        raise AssertionError("a missing section is refused before the measurement runs")


def test_the_glove_gap_tables_come_from_their_script(data_dir, capsys):
    """`python benchmarks/glove_mean_gap.py`: the vocabulary table and the variants' table, every row in its section
    of RESULTS.md (the figures are counts and correlations: the same on any machine)."""
    section = _section(TEXT, "glove-mean-gap")
    assert _script(section) == "glove_mean_gap.py"
    assert _module("glove_mean_gap").main(["--data-dir", str(data_dir)]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| ") and "---" not in line]
    assert len(rows) == 2 + 7 + 6  # two headers, seven datasets, five variants and the published row
    missing = [line for line in rows if line not in section.splitlines()]
    assert not missing, f"RESULTS.md rows that the script no longer gives: {missing}"


def test_every_link_within_the_file_names_one_of_its_headings():
    """The anchors the documentation links to are the headings' (lower case, punctuation dropped, spaces to -)."""
    slugs = {re.sub(r"[\s]+", "-", re.sub(r"[^\w\s-]", "", line.lstrip("#").strip().lower()))
             for line in TEXT.splitlines() if line.startswith("## ")}
    broken = sorted({a for a in re.findall(r"\]\(#([^)]+)\)", TEXT) if a not in slugs})
    assert not broken, f"links to no heading: {broken}; headings: {sorted(slugs)}"
