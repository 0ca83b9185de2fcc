"""Progress that moves (issue 34, item 5): encoding counts its texts batch by batch, a cached run says what came
from the embedding cache, and with stderr to a file or a pipe every display is plain lines (no carriage return, no
escape code), a line about every tenth of a loop; on a terminal the bars stay live."""
from __future__ import annotations

import io
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from semsts import bars
from semsts.core import progress

ROOT = Path(__file__).resolve().parents[1]

FAST_ENCODER = '''
import time

import numpy as np


def encode(texts):
    """Character trigrams hashed into 16 dimensions: deterministic, 0.4 s a call (a batch of 512: a slow encoder)."""
    time.sleep(0.4)
    out = np.zeros((len(texts), 16))
    for i, t in enumerate(texts):
        t = f"  {t.lower()} "
        for j in range(len(t) - 2):
            out[i, sum(map(ord, t[j:j + 3])) % 16] += 1
    return out
'''
ENCODING = re.compile(r"^encoding: +(\d+)%\|[#\d ]+\| (\d+)/(\d+) \[\d\d:\d\d<(?:\d\d:\d\d|\?), +(?:[\d.]+texts/s|[\d.]+s/texts|\?texts/s)\]$")


def _lines(capsys) -> list[str]:
    err = capsys.readouterr().err
    assert "\r" not in err and "\x1b" not in err
    return err.splitlines()


# the plain lines of a log


def test_a_log_gets_whole_lines_about_every_tenth_and_the_last_state(capsys, monkeypatch):
    monkeypatch.setattr(bars.LogBar, "quick", 0.01)
    bar = bars.bar(total=100, desc="encoding", unit="texts")
    assert isinstance(bar, bars.LogBar)
    for _ in range(100):
        time.sleep(0.002)
        bar.update(1)
    bar.close()
    bar.close()  # once only
    lines = _lines(capsys)
    done = [int(ENCODING.match(line).group(2)) for line in lines]
    assert 2 <= len(lines) <= 11 and done == sorted(set(done)) and done[-1] == 100, lines


def test_a_loop_done_within_a_second_writes_its_end_a_brief_one_nothing(capsys):
    for brief in (False, True):
        for _ in bars.bar(range(3), desc=f"brief={brief}", brief=brief):
            pass
    assert [line.split("|")[0] for line in _lines(capsys)] == ["brief=False: 100%"]


def test_an_interrupted_loop_ends_with_its_last_state(capsys, monkeypatch):
    monkeypatch.setattr(bars.LogBar, "quick", 0.01)
    bar = bars.bar(total=100, desc="x")
    time.sleep(0.02)
    bar.update(19)
    bars.close_all()  # what the command line's error boundary does
    bar.close()
    assert [line.split("|")[0] for line in _lines(capsys)] == ["x:  19%"]


def test_a_heartbeat_writes_a_line_only_after_a_quiet_while(capsys, monkeypatch):
    monkeypatch.setattr(bars.LogBar, "quick", 0.01)
    monkeypatch.setattr(bars.LogBar, "every", 0.5)
    ticker = bars.bar(desc="  working", bar_format="{desc}: {elapsed}")
    bars.tick(ticker)  # the bar was just made: quiet
    assert capsys.readouterr().err == ""
    time.sleep(0.6)
    bars.tick(ticker)
    bars.tick(ticker)  # a line was just written
    ticker.close()  # a ticker's last line is its elapsed time
    assert _lines(capsys) == ["  working: 00:00", "  working: 00:00"]


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_terminal_gets_live_bars_a_log_plain_lines(monkeypatch):
    from tqdm import tqdm
    monkeypatch.setattr(sys, "stderr", _Terminal())
    live = bars.bar(total=3, desc="x", leave=False)
    assert isinstance(live, tqdm)
    live.close()
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    logged = bars.bar(total=3, desc="x")
    assert isinstance(logged, bars.LogBar)
    logged.close()


def test_only_the_bars_module_draws_with_tqdm():
    """Every display of the command line goes through semsts.bars, which picks live bars or plain lines."""
    drawing = [path.name for path in (ROOT / "sts").glob("*.py") if path.name != "bars.py"
               and re.search(r"from tqdm import|import tqdm", path.read_text(encoding="utf-8"))]
    assert drawing == []


# the progress hook: encoding is counted batch by batch


class _Counting:
    def __init__(self):
        self.counts, self.cache = [], []

    def count(self, total, desc, unit):
        outer = self

        class Counter:
            def update(self, n):
                outer.counts.append((desc, unit, total, n))

            def close(self):
                outer.counts.append("closed")
        return Counter()

    def cached(self, found, total, where, *, unit="texts", cache="embedding cache"):
        self.cache.append((found, total, str(where)) if unit == "texts" else (found, total, str(where), unit, cache))


def test_encoding_tells_the_hook_each_batch():
    from semsts.features.encoders import embed
    hook = _Counting()
    texts = [f"text {i}" for i in range(1200)]
    with progress.reporting(hook):
        vectors = embed(lambda batch: np.ones((len(batch), 3)), texts, 512)
    assert vectors.shape == (1200, 3)
    assert hook.counts == [("encoding", "texts", 1200, 512), ("encoding", "texts", 1200, 512),
                           ("encoding", "texts", 1200, 176), "closed"]
    embed(lambda batch: np.ones((len(batch), 3)), texts, 512)  # no hook: nothing to tell


def test_the_cache_tells_the_hook_what_it_gave(tmp_path, _embedding_cache, toy_encoder):
    from semsts.baselines.encoder import cosine_scores
    pairs = [(f"a {i}", f"b {i}") for i in range(100)]
    hook = _Counting()
    with progress.reporting(hook):
        first = cosine_scores(toy_encoder.encode, pairs, cache_spec="toy_encoder:encode", cache_version="1")
        again = cosine_scores(toy_encoder.encode, pairs, cache_spec="toy_encoder:encode", cache_version="1")
    assert np.array_equal(first, again)
    assert hook.cache == [(0, 200, str(_embedding_cache)), (200, 200, str(_embedding_cache))]
    assert [c[3] for c in hook.counts if c != "closed"] == [200]  # the second run encodes nothing


# the commands, with stderr to a pipe


def _sts(args, tmp_path, data_dir, *, quiet=False):
    folder = tmp_path / "encoder"
    folder.mkdir(exist_ok=True)
    (folder / "fast_encoder.py").write_text(FAST_ENCODER, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(folder), "XDG_CACHE_HOME": str(tmp_path / "xdg"), "STS_DATA": str(data_dir)}
    done = subprocess.run([sys.executable, "-m", "semsts", *args, *(["--quiet"] if quiet else [])],
                          capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "\r" not in done.stderr and "\x1b" not in done.stderr, done.stderr
    return done


BENCH = ["bench", "--encoder", "fast_encoder:encode", "--datasets", "stsb-test", "--convention", "simcse",
         "--cache-version", "1"]


def test_a_bench_in_a_log_moves_line_by_line_and_a_second_run_says_it_used_the_cache(data_dir, tmp_path):
    first = _sts(BENCH, tmp_path, data_dir)
    lines = first.stderr.splitlines()
    encoding = [ENCODING.match(line) for line in lines if line.startswith("encoding:")]
    assert all(encoding), lines
    done = [int(m.group(2)) for m in encoding]
    assert len(done) >= 3 and done == sorted(set(done)), lines  # several lines, counts increasing
    assert encoding[-1].group(1) == "100" and encoding[-1].group(2) == encoding[-1].group(3) == "2552"
    assert lines[0].startswith("[") and "fast_encoder:encode: predicting the scored pairs of 1 dataset(s)" in lines[0]
    cache = tmp_path / "xdg" / "sts" / "embeddings"
    assert f"note: 2,552 texts encoded and kept in the embedding cache ({cache})" in lines
    second = _sts(BENCH, tmp_path, data_dir)
    assert f"note: 2,552 of 2,552 texts from the embedding cache ({cache})" in second.stderr.splitlines()
    assert "encoding:" not in second.stderr  # nothing encoded
    assert second.stdout == first.stdout
    quiet = _sts(BENCH, tmp_path, data_dir, quiet=True)
    assert quiet.stderr == "" and quiet.stdout == first.stdout


def test_a_run_with_an_encoder_in_a_log_shows_its_texts_encoded(data_dir, tmp_path):
    done = _sts(["run", "--encoder", "fast_encoder:encode", "--test", "stsb-test", "--out", str(tmp_path / "out"),
                 "--no-cache"], tmp_path, data_dir)
    counts = [m.groups() for m in map(ENCODING.match, done.stderr.splitlines()) if m]
    assert len(counts) >= 3 and counts[-1] == ("100", "2552", "2552"), done.stderr
    assert "note:" not in done.stderr  # --no-cache: no cache to speak of


def test_on_a_terminal_the_bars_stay_live(data_dir, tmp_path, monkeypatch):
    from semsts import cli
    (tmp_path / "slow_encoder.py").write_text(FAST_ENCODER, encoding="utf-8")  # 0.4 s a batch: tqdm redraws
    monkeypatch.syspath_prepend(str(tmp_path))
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert cli.main(["bench", "--encoder", "slow_encoder:encode", "--datasets", "stsb-test", "--convention", "simcse",
                     "--resamples", "0", "--data-dir", str(data_dir), "--cache-version", "1"]) == 0
    sys.modules.pop("slow_encoder", None)
    err = terminal.getvalue()
    moving = re.findall(r"encoding: +(\d+)%\|.*?\| (\d+)/2552 \[.*?texts/s\]", err)
    assert "\r" in err and len(moving) >= 2 and int(moving[-1][1]) > int(moving[0][1]), err  # redrawn in place
    assert "note: 2,552 texts encoded and kept in the embedding cache" in err
