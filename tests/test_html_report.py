"""Tests of semsts.scoring.html_report: `compare --report DIR`, opened in headless Chromium."""
import base64
import re
import shutil
import subprocess
import sys

import numpy as np
import pytest

from conftest import write
from semsts import corpora, evaluate

# --- ``compare --report DIR``: a self-contained HTML page with its plots, opened in headless Chromium.


CHROMIUM = ("chromium", "chromium-browser")
PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
def report(tmp_path):
    """A report over a synthetic sts2013-test headlines subset with two runs."""
    rng = np.random.default_rng(5)
    gold = np.round(rng.uniform(0, 5, 120), 2)
    root = tmp_path / "data"
    write(root / "sts2013" / "test" / "STS.input.headlines.txt", "".join(f"a{i}\tb{i}\n" for i in range(120)))
    write(root / "sts2013" / "test" / "STS.gs.headlines.txt", "".join(f"{g}\n" for g in gold))
    runs = {}
    for name, scores in (("close", gold + rng.normal(0, .5, 120)), ("noisy", rng.uniform(0, 5, 120))):
        runs[name] = tmp_path / name
        corpora.write_output(runs[name] / "STS.output.headlines.txt", np.clip(scores, 0, 5))
    dataset = corpora.load("sts2013-test", root)
    cmp = evaluate.compare_runs(dataset, runs, resamples=20)
    return tmp_path / "report", cmp, dataset, runs


def test_a_constant_runs_scatter_plot_says_n_a_not_nan():
    """Issue 44, kind 3: the scatter plot's title printed ``r = nan`` for a constant run; an undefined figure is n/a."""
    pytest.importorskip("matplotlib")
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from semsts.scoring.html_report import _plot_scatter
    gold, ids = np.array([1.0, 2.0, 4.0]), np.zeros(3, dtype=int)
    fig = _plot_scatter(plt, {"subsets": ["headlines"]}, gold, ids, {"c": np.full(3, 2.5), "d": np.array([1., 3, 2])})
    assert [ax.get_title() for ax in fig.axes] == ["c\nheadlines: r = n/a", f"d\nheadlines: r = {np.corrcoef(gold, [1, 3, 2])[0, 1]:.4f}"]
    plt.close(fig)


def test_report_embeds_every_plot(report):
    out, cmp, dataset, runs = report
    path = evaluate.write_compare_report(cmp, dataset, runs, out)
    page = path.read_text(encoding="utf-8")
    images = re.findall(r'src="data:image/png;base64,([^"]+)"', page)
    assert len(images) == 3
    for name, data in zip(("bars.png", "scatter.png", "errors.png"), images):
        assert base64.b64decode(data) == (out / name).read_bytes()
        assert (out / name).read_bytes().startswith(PNG)
    assert "<h2>Ranked table</h2>" in page and "<tr class=ours>" in page and "close" in page
    assert not re.search(r'(src|href)="(?!data:)', page)  # nothing fetched from elsewhere


def test_cli_writes_the_report(report, capsys):
    out, cmp, dataset, runs = report
    root = dataset.subsets[0].input_path.parents[2]
    code = evaluate.main(["compare", "--dataset", "sts2013-test", "--data-dir", str(root), "--resamples", "5",
                          "--report", str(out), *(f"--run={k}={v}" for k, v in runs.items())])
    assert code == 0 and f"report: {out / 'index.html'}" in capsys.readouterr().err
    assert (out / "index.html").is_file()


def test_cli_replaces_no_file_an_earlier_report_did_not_write(report, capsys):
    """A user's bars.png where the report goes is refused before any work and kept; the report's own files are
    replaced by the next report; other files are left alone."""
    out, cmp, dataset, runs = report
    root = dataset.subsets[0].input_path.parents[2]
    write(out / "bars.png", "mine\n")
    write(out / "notes.txt", "keep\n")
    argv = ["compare", "--dataset", "sts2013-test", "--data-dir", str(root), "--resamples", "5", "--report", str(out),
            *(f"--run={k}={v}" for k, v in runs.items())]
    assert evaluate.main(argv) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.splitlines() == [
        f"error: {out / 'bars.png'}: not written by an earlier --report; the report would replace it: give another "
        "folder, or move it away (other files in the folder are left alone)"]
    assert (out / "bars.png").read_text() == "mine\n" and not (out / "index.html").exists()
    (out / "bars.png").unlink()
    assert evaluate.main(argv) == 0 and evaluate.main(argv) == 0  # the second replaces the first's files
    assert sorted(p.name for p in out.iterdir()) == ["bars.png", "errors.png", "index.html", "notes.txt", "scatter.png",
                                                     "sts-report.json"]
    assert (out / "notes.txt").read_text() == "keep\n"


def test_report_is_deterministic(report):
    out, cmp, dataset, runs = report
    first = evaluate.write_compare_report(cmp, dataset, runs, out).read_bytes()
    assert evaluate.write_compare_report(cmp, dataset, runs, out).read_bytes() == first


def test_missing_matplotlib_is_a_clear_error(report, monkeypatch, capsys):
    out, cmp, dataset, runs = report
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(RuntimeError, match=r"the 'plots' extra \(matplotlib: not installed\): pip install 'semsts\[plots\]'$"):
        evaluate.write_compare_report(cmp, dataset, runs, out)


def _chromium() -> str:
    for name in CHROMIUM:
        found = shutil.which(name)
        if found:
            return found
    pytest.skip("no browser: Chromium is needed to check the HTML report (Debian package chromium; .ci/run installs it "
                "and fails if this test is skipped there)")


def test_without_a_browser_its_tests_skip_saying_why(monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(pytest.skip.Exception, match="^no browser: Chromium is needed"):  # what .ci/run looks for
        _chromium()


def test_report_renders_in_headless_chromium(report, tmp_path):
    from matplotlib.image import imread
    out, cmp, dataset, runs = report
    page = evaluate.write_compare_report(cmp, dataset, runs, out)
    shot, profile = tmp_path / "shot.png", tmp_path / "profile"
    profile.mkdir()
    result = subprocess.run(
        [_chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         f"--user-data-dir={profile}", f"--screenshot={shot}", "--window-size=1200,2000", page.resolve().as_uri()],
        capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    assert shot.is_file(), result.stderr[-2000:]
    pixels = imread(str(shot))[..., :3]
    assert pixels.shape[:2] == (2000, 1200)
    colours = np.unique((pixels.reshape(-1, 3) * 255).round().astype(np.uint8), axis=0)
    assert len(colours) > 200, f"screenshot looks blank: {len(colours)} colours"
    # the plots fill the first screen: bars (orange and blue) and scatter points are drawn
    top = (pixels[:1600] * 255).round()
    orange = np.all(np.abs(top - [255, 127, 14]) < 8, axis=-1).sum()
    blue = np.all(np.abs(top - [31, 119, 180]) < 8, axis=-1).sum()
    assert orange > 2000 and blue > 2000, (orange, blue)


# --- ``bench --report DIR``: the chart's error bars and legend, measured in the page headless Chromium renders.

GEOMETRY = """<script>
const box = e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
const found = {
  bars: [...document.querySelectorAll('svg [id^="bar-"]')].map(box),
  errorbars: [...document.querySelectorAll('svg [id^="errorbar-"]')].map(box),
  legend: box(document.getElementById("legend")),
};
const out = document.createElement("pre");
out.id = "geometry";
out.textContent = JSON.stringify(found);
document.body.appendChild(out);
</script>"""


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_bench_chart_has_error_bars_and_a_legend_over_no_bar(tmp_path, data_dir, capsys):
    import json

    from semsts import cli
    out = tmp_path / "report"
    assert cli.main(["bench", "token-cosine", "random", "--datasets", "stsb-test,sts2016-test", "--convention",
                     "simcse", "--format", "json", "--report", str(out), "--quiet", "--data-dir", str(data_dir)]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    intervals = sum(1 for r in rows for d in r["datasets"].values() if d["ci"].get("simcse")) + \
        sum(1 for r in rows if r["simcse_avg_ci"])
    assert intervals == 4  # two rows, two datasets, no Avg. (it needs all seven)
    page = (out / "index.html").read_text(encoding="utf-8")
    assert page.count("<svg") == 1 and (out / "bench.svg").read_text(encoding="utf-8") in page
    probe = tmp_path / "probe.html"
    probe.write_text(page.replace("</body>", GEOMETRY + "</body>"), encoding="utf-8")
    profile = tmp_path / "profile"
    profile.mkdir()
    result = subprocess.run(
        [_chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         f"--user-data-dir={profile}", "--window-size=1400,1000", "--dump-dom", probe.resolve().as_uri()],
        capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    found = json.loads(re.search(r'<pre id="geometry">(.*?)</pre>', result.stdout).group(1))
    assert len(found["errorbars"]) == intervals
    assert len(found["bars"]) == 8 * 5  # two rows of ours and three published ones, over seven datasets and Avg.
    drawn = [b for b in found["bars"] if b[2] > b[0] and b[3] > b[1]]  # a bar of an absent figure has no area
    assert len(drawn) == 2 * 2 + 3 * 8
    assert found["legend"][2] > found["legend"][0] and found["legend"][3] > found["legend"][1]
    assert not [b for b in drawn if _overlap(found["legend"], b)]
    assert not [e for e in found["errorbars"] if _overlap(found["legend"], e)]


def test_bench_report_replaces_no_file_it_did_not_write(tmp_path, data_dir, capsys):
    from semsts import cli
    out = tmp_path / "report"
    write(out / "index.html", "<html>my own page</html>\n")
    write(out / "notes.txt", "keep\n")
    argv = ["bench", "token-cosine", "--datasets", "stsb-test", "--resamples", "0", "--report", str(out), "--quiet",
            "--data-dir", str(data_dir)]
    assert cli.main(argv) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.splitlines() == [  # refused before predicting: no table either
        f"error: {out / 'index.html'}: not written by an earlier --report; the report would replace it: give another "
        "folder, or move it away (other files in the folder are left alone)"]
    assert (out / "index.html").read_text() == "<html>my own page</html>\n" and not (out / "bench.svg").exists()
    (out / "index.html").unlink()
    assert cli.main(argv) == 0 and cli.main(argv) == 0  # the second replaces the first's files
    assert sorted(p.name for p in out.iterdir()) == ["bench.svg", "index.html", "notes.txt", "sts-report.json"]
    write(out / "bench.svg", "<svg>mine</svg>\n")
    assert cli.main(argv) == 1 and "bench.svg: not written by an earlier --report" in capsys.readouterr().err
    assert (out / "bench.svg").read_text() == "<svg>mine</svg>\n"


def test_a_file_that_only_mentions_the_reports_mark_is_not_taken_as_the_reports(tmp_path, data_dir, capsys):
    """Issue 44: a user's page or chart naming "semsts --report" in its first 64 KiB was taken as the report's own and
    replaced. A report folder is now one the tool wrote as core.files keeps it: sts-report.json names each file the
    report wrote with its SHA-256, and only a file that is what the record says is replaced (one edited since is
    refused too)."""
    import hashlib
    import json

    from semsts import cli
    out = tmp_path / "report"
    argv = ["bench", "token-cosine", "--datasets", "stsb-test", "--resamples", "0", "--report", str(out), "--quiet",
            "--data-dir", str(data_dir)]
    for name, text in (("index.html", '<meta name="generator" content="semsts --report"><p>my notes</p>\n'),
                       ("bench.svg", "<!-- semsts --report -->\n<svg>my chart</svg>\n")):
        write(out / name, text)
        assert cli.main(argv) == 1 and capsys.readouterr().err.splitlines() == [
            f"error: {out / name}: not written by an earlier --report; the report would replace it: give another "
            "folder, or move it away (other files in the folder are left alone)"]
        assert (out / name).read_text() == text
        (out / name).unlink()
    assert cli.main(argv) == 0
    record = json.loads((out / "sts-report.json").read_text())
    assert record == {"sts_report": 1, "files": {n: hashlib.sha256((out / n).read_bytes()).hexdigest()
                                                 for n in ("bench.svg", "index.html")}}
    with open(out / "index.html", "a") as handle:  # the user edits the report's page: it is theirs now
        handle.write("<p>my edit</p>\n")
    assert cli.main(argv) == 1 and "index.html: not written by an earlier --report" in capsys.readouterr().err
    assert (out / "index.html").read_text().endswith("<p>my edit</p>\n")


def test_bench_report_leaves_out_the_tables_covering_none_of_the_datasets(tmp_path, capsys):
    """SimCSE's Table 5 heads the page, but not when it covers none of the datasets benched (STS17 en-en alone)."""
    from semsts import cli
    from tests.full_root import sts2017
    sts2017(tmp_path / "root")  # the 2017 tracks in the official layout
    out = tmp_path / "report"
    assert cli.main(["bench", "token-cosine", "--datasets", "sts2017-test", "--resamples", "0", "--report", str(out),
                     "--quiet", "--data-dir", str(tmp_path / "root")]) == 0
    capsys.readouterr()
    titles = re.findall(r"<h2>(.*?)</h2>", (out / "index.html").read_text(encoding="utf-8"))
    assert [t.split(":")[0] for t in titles] == ["official", "SentEval", "MTEB"]


# --- ``bench --report DIR`` with ``--save-predictions``: each row's worst pairs, their links resolved by Chromium.

LINKS = """<script>
const links = [...document.querySelectorAll('#worst-pairs ~ ul a, #worst-pairs ~ p a')].map(a => ({
  href: a.href, raw: a.getAttribute("href"),
  target: a.getAttribute("href").startsWith("#") ? !!document.getElementById(a.getAttribute("href").slice(1)) : null,
}));
const cells = [...document.querySelectorAll(".pairs td")].map(td => td.textContent);
const injected = document.querySelectorAll(".pairs img, .pairs script, .pairs b").length;
const out = document.createElement("pre");
out.id = "links";
out.textContent = JSON.stringify({links, cells, injected, sections: document.querySelectorAll("h3[id^=worst-]").length});
document.body.appendChild(out);
</script>"""
EVIL = ['<img src=x onerror="alert(1)">', "</td></tr></table><script>alert(2)</script>", "Tom & Jerry \"quoted\" 's",
        "a <b>bold</b> claim"]


def _evil_root(tmp_path):
    """An sts2013-test headlines subset of 60 pairs whose first texts hold markup: what a data file may hold."""
    rng = np.random.default_rng(3)
    words = "the cat dog sat on mat a man ran fast slow bird flew over house".split()
    lines = []
    for i in range(60):
        a, b = (" ".join(rng.choice(words, 6)) for _ in range(2))
        lines.append(f"{EVIL[i] + ' ' if i < len(EVIL) else ''}{a}\t{b}\n")
    root = tmp_path / "data"
    write(root / "sts2013" / "test" / "STS.input.headlines.txt", "".join(lines))
    write(root / "sts2013" / "test" / "STS.gs.headlines.txt", "".join(f"{g:.2f}\n" for g in rng.uniform(0, 5, 60)))
    return root, [line.split("\t")[0] for line in lines]


def _dump_dom(page, tmp_path, script) -> str:
    probe = page.with_name("probe.html")  # beside the page: its relative links resolve as the page's do
    probe.write_text(page.read_text(encoding="utf-8").replace("</body>", script + "</body>"), encoding="utf-8")
    profile = tmp_path / "profile"
    profile.mkdir(exist_ok=True)
    result = subprocess.run(
        [_chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         f"--user-data-dir={profile}", "--window-size=1400,1000", "--dump-dom", probe.resolve().as_uri()],
        capture_output=True, text=True, timeout=120)
    probe.unlink()
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout


@pytest.mark.parametrize("saved", [True, False])
def test_bench_report_links_each_rows_worst_pairs(tmp_path, capsys, saved):
    import html
    import json
    from urllib.parse import unquote, urlparse

    from semsts import cli
    from semsts.scoring.pair_predictions import WORST
    root, firsts = _evil_root(tmp_path)
    out, preds = tmp_path / "report", tmp_path / "saved predictions"  # a space: the link is a URL, escaped
    argv = ["bench", "token-cosine", "random", "--datasets", "sts2013-test", "--convention", "simcse",
            "--resamples", "10", "--report", str(out), "--quiet", "--data-dir", str(root)]
    assert cli.main(argv + (["--save-predictions", str(preds)] if saved else [])) == 0, capsys.readouterr().err
    page = out / "index.html"
    assert "<script>alert" not in page.read_text(encoding="utf-8")
    found = json.loads(html.unescape(re.search(r'<pre id="links">(.*?)</pre>', _dump_dom(page, tmp_path, LINKS),
                                               re.S).group(1)))
    assert found["sections"] == 2 and found["injected"] == 0  # two rows, one dataset; no markup of the data ran
    assert len(found["cells"]) == 2 * WORST * 10  # each section: the worst pairs, ten columns each
    shown = [c for c in found["cells"] if any(c.startswith(e) for e in EVIL)]
    assert shown and all(c in firsts for c in shown)  # the texts shown as the file holds them
    fragments = [a for a in found["links"] if a["raw"].startswith("#")]
    assert [a["raw"] for a in fragments] == ["#worst-0-sts2013-test", "#worst-1-sts2013-test"]
    assert all(a["target"] for a in fragments)
    files = [a for a in found["links"] if not a["raw"].startswith("#")]
    if not saved:
        assert files == []
        return
    assert [a["raw"] for a in files] == ["../saved%20predictions/token-cosine.sts2013-test.jsonl",
                                         "../saved%20predictions/random.sts2013-test.jsonl"]
    for a in files:  # each resolves, in the browser, to the saved file of its row
        url = urlparse(a["href"])
        path = type(out)(unquote(url.path))
        assert url.scheme == "file" and path.is_file() and path.parent == preds.resolve()
        assert len(path.read_text(encoding="utf-8").splitlines()) == 60
