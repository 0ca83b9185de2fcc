"""The `sts demo` scoreboard of docs/systems.md comes from its command: same systems in the same order, same pair
counts, and each correlation within 1.5e-4 (the regression's fourth decimal moves with numpy's version)."""
from pathlib import Path

import pytest

from semsts import cli

PAGE = (Path(__file__).resolve().parents[1] / "docs" / "systems.md").read_text(encoding="utf-8")


def scoreboard(text: str) -> list[tuple[str, float, float, int]]:
    rows = []
    for line in text.splitlines():
        fields = line.split()
        if len(fields) == 4 and fields[3].isdigit():
            rows.append((fields[0], float(fields[1]), float(fields[2]), int(fields[3])))
    return rows


@pytest.mark.slow  # about 14 s: reruns sts demo
def test_the_demo_scoreboard_comes_from_sts_demo(capsys):
    block = PAGE.split("$ sts demo --quiet\n", 1)[1].split("```", 1)[0]
    expected = scoreboard(block)
    assert len(expected) == 8, "the page's demo block no longer lists the eight systems"
    assert cli.main(["demo", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[:2] == block.splitlines()[:2]
    got = scoreboard(out)
    assert [(name, n) for name, _, _, n in got] == [(name, n) for name, _, _, n in expected]
    for (name, r, rho, _), (_, r0, rho0, _) in zip(got, expected):
        assert abs(r - r0) <= 1.5e-4 and abs(rho - rho0) <= 1.5e-4, f"{name}: {r} {rho}, the page {r0} {rho0}"
