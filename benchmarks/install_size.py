"""How much disk a fresh environment with the suite takes: the plain install, each extra, ``all`` and ``dev``.

For each install: a fresh ``python -m venv`` in a temporary folder, ``pip install`` of a copy of the checkout's HEAD
(``git archive HEAD``, so the checkout never gets build/ or *.egg-info) with the extra, then ``du`` of the whole venv
in MB and the five largest packages of its site-packages. pip's cache is a folder under the same temporary folder,
so the figures do not depend on a warm cache; every temporary folder is removed at the end, also after a failure or
Ctrl-C. Mostly download and unpacking: a few minutes for all installs.

    python benchmarks/install_size.py [--python python3.12] [--extras reference typed …] [--write [SECTION]]
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
import tomllib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import results  # benchmarks/results.py: --write

ROOT = Path(__file__).resolve().parents[1]
PLAIN = "plain"


class InstallFailed(RuntimeError):
    """One install (or the venv before it) failed; the message is the one ``error:`` line."""


def installs() -> list[str]:
    """plain, then every extra of pyproject.toml in its order (``all`` and ``dev`` among them)."""
    with open(ROOT / "pyproject.toml", "rb") as f:
        extras = list(tomllib.load(f)["project"]["optional-dependencies"])
    return [PLAIN] + extras


def find_python(name: str) -> str:
    """The interpreter's real path: ``name`` on PATH when it runs (a pyenv shim may not), else under pyenv's versions
    (``$(pyenv root)/versions/X.Y*/bin/NAME``)."""
    candidates = []
    if os.sep in name:
        candidates.append(name)
    elif shutil.which(name):
        candidates.append(shutil.which(name))
    version = re.fullmatch(r"python(\d+\.\d+)", Path(name).name)
    if version:
        try:
            root = subprocess.run(["pyenv", "root"], capture_output=True, text=True, timeout=30).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            root = ""
        root = root or os.environ.get("PYENV_ROOT") or str(Path.home() / ".pyenv")
        candidates += [str(p) for p in sorted((Path(root) / "versions").glob(f"{version.group(1)}*/bin/{name}"),
                                              reverse=True)]
    for candidate in candidates:
        try:
            done = subprocess.run([candidate, "-c", "import sys; print(sys.executable)"], capture_output=True,
                                  text=True, timeout=60)
        except (OSError, subprocess.SubprocessError):
            continue
        if done.returncode == 0 and done.stdout.strip():
            return done.stdout.strip()
    raise InstallFailed(f"no working {name} (on PATH or under pyenv's versions); give one with --python")


def source_copy(folder: Path) -> Path:
    """The checkout's HEAD unpacked into ``folder`` (``git archive HEAD``)."""
    archive = folder / "head.tar"
    done = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", "-o", str(archive), "HEAD"],
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise InstallFailed(f"git archive HEAD failed: {last_line(done.stderr)}")
    source = folder / "semsts"
    with tarfile.open(archive) as tar:
        tar.extractall(source, filter="data")
    archive.unlink()
    return source


def last_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    errors = [line for line in lines if line.lower().startswith("error")]
    return (errors or lines or ["no output"])[-1]


def du_kb(path: Path) -> int:
    """``du -sk``: the disk the folder takes, in KiB (blocks, as ``du`` counts them)."""
    done = subprocess.run(["du", "-sk", str(path)], capture_output=True, text=True, check=True)
    return int(done.stdout.split()[0])


def largest(site_packages: Path, count: int = 5) -> list[tuple[str, int]]:
    """The ``count`` largest packages of ``site_packages`` (KiB): its top-level entries, a wheel's vendored
    ``X.libs`` folded into ``X``, metadata (``*.dist-info``) and ``__pycache__`` left out."""
    sizes: dict[str, int] = {}
    for entry in site_packages.iterdir():
        if entry.name.endswith((".dist-info", ".egg-info", ".pth")) or entry.name == "__pycache__":
            continue
        name = re.sub(r"[._]libs$", "", entry.name.removesuffix(".py"))
        sizes[name] = sizes.get(name, 0) + du_kb(entry)
    return sorted(sizes.items(), key=lambda item: (-item[1], item[0]))[:count]


def measure_one(python: str, source: Path, extra: str, folder: Path) -> tuple[int, list[tuple[str, int]]]:
    requirement = f"{source}" if extra == PLAIN else f"{source}[{extra}]"
    label = "semsts" if extra == PLAIN else f"semsts[{extra}]"
    venv = folder / f"venv-{extra}"
    done = subprocess.run([python, "-m", "venv", str(venv)], capture_output=True, text=True)
    if done.returncode != 0:
        raise InstallFailed(f"python -m venv for {label} failed: {last_line(done.stderr)}")
    env = dict(os.environ, PIP_CACHE_DIR=str(folder / "pip-cache"), PIP_DISABLE_PIP_VERSION_CHECK="1")
    env.pop("PIP_NO_CACHE_DIR", None)
    print(f"installing {label} …", file=sys.stderr, flush=True)
    done = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", requirement],
                          capture_output=True, text=True, env=env, cwd=folder)
    if done.returncode != 0:
        raise InstallFailed(f"pip install of {label} failed (exit {done.returncode}): {last_line(done.stderr)}")
    site = next((venv / "lib").glob("python*/site-packages"))
    try:
        return du_kb(venv), largest(site)
    finally:
        shutil.rmtree(venv, ignore_errors=True)  # one venv on disk at a time


def measure(args) -> None:
    python = find_python(args.python)
    version, pip = subprocess.run([python, "-c", "import ensurepip, platform; "
                                  "print(platform.python_version(), ensurepip.version())"],
                                 capture_output=True, text=True).stdout.split()
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                          text=True).stdout.strip()
    folder = Path(tempfile.mkdtemp(prefix="semsts-install-size-"))
    try:
        source = source_copy(folder)
        rows = [(extra, *measure_one(python, source, extra, folder)) for extra in args.extras]
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(f"# Python {version} ({python}), the checkout's HEAD {head}")
    print(f"Each install a fresh venv of Python {version} (`python{version.rsplit('.', 1)[0]} -m venv`, with the pip {pip} "
          "it brings) and "
          f"`pip install` of the checkout's HEAD ({head}) from an empty pip cache; MB = `du -sk` of the whole venv "
          "/ 1024; the largest packages are site-packages' top-level folders (a wheel's `X.libs` counted with `X`).")
    print("| install | MB | largest packages (MB) |\n|---|---:|---|")
    for extra, kb, top in rows:
        label = "`semsts` (plain)" if extra == PLAIN else f"`semsts[{extra}]`"
        print(f"| {label} | {kb / 1024:.0f} | " + ", ".join(f"{name} {size / 1024:.0f}" for name, size in top) + " |")


def _interrupted(signum, frame):
    raise KeyboardInterrupt  # SIGTERM too unwinds through the finally blocks that remove the temporary folders


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--python", default="python3.12",
                        help="the Python of the venvs: a path or a name on PATH or under pyenv (default: python3.12)")
    parser.add_argument("--extras", nargs="+", metavar="INSTALL", choices=installs(), default=installs(),
                        help=f"the installs to measure, in this order (default: all of {', '.join(installs())})")
    results.add_write_flag(parser, "install-sizes")
    args = parser.parse_args(argv)
    signal.signal(signal.SIGTERM, _interrupted)
    try:
        with results.recording(args.write, __file__, argv):
            measure(args)
    except InstallFailed as failure:
        print(f"error: {failure}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("error: interrupted; the temporary folders are removed", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
