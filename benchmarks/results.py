"""The one way a benchmark script writes its own section of benchmarks/RESULTS.md.

Every measurement in RESULTS.md sits between two marker lines, ``<!-- begin: NAME -->`` and
``<!-- end: NAME -->``. A script run with ``--write`` (its default section) or ``--write NAME`` prints as
usual and then replaces that section with what it printed, under a header giving the command, the machine,
Python, the code's commit, the date and the load average at the start and at the end. Nothing else in the
file moves: the text outside the markers is kept byte for byte.

What a script prints goes into the section as it is when it holds a Markdown table (lines starting with
``|``), else as a text block; a line starting with ``# `` is the script's own context line (machine, date),
left out of the section because its header says the same.
"""
from __future__ import annotations

import contextlib
import io
import os
import platform
import re
import shlex
import subprocess
import sys
import time
from pathlib import Path

RESULTS = Path(__file__).resolve().with_name("RESULTS.md")
MARKER = re.compile(r"^<!-- (begin|end): ([A-Za-z0-9_.-]+) -->$")
WRITE_FLAG = "--write"


class ResultsFileError(ValueError):
    """RESULTS.md's markers are missing, duplicated, nested or out of order."""


def sections(text: str, where: str = "benchmarks/RESULTS.md") -> list[str]:
    """The section names of ``text`` in order; ResultsFileError unless every begin marker is followed by its own
    end marker before the next begin, and no name is used twice."""
    names, open_name = [], None
    for number, line in enumerate(text.splitlines(), 1):
        found = MARKER.match(line)
        if not found:
            continue
        kind, name = found.groups()
        if kind == "begin":
            if open_name is not None:
                raise ResultsFileError(f"{where}, line {number}: '<!-- begin: {name} -->' inside the section "
                                       f"{open_name!r}, which has no '<!-- end: {open_name} -->' before it")
            if name in names:
                raise ResultsFileError(f"{where}, line {number}: the section {name!r} is there twice")
            open_name = name
        else:
            if name != open_name:
                raise ResultsFileError(f"{where}, line {number}: '<!-- end: {name} -->' with no "
                                       f"'<!-- begin: {name} -->' open before it")
            names.append(name)
            open_name = None
    if open_name is not None:
        raise ResultsFileError(f"{where}: the section {open_name!r} has no '<!-- end: {open_name} -->' line")
    return names


def replace_section(text: str, name: str, body: str, where: str = "benchmarks/RESULTS.md") -> str:
    """``text`` with the lines between ``<!-- begin: NAME -->`` and ``<!-- end: NAME -->`` replaced by ``body``;
    every other byte kept. ResultsFileError when the file's markers are not in order or NAME is not there."""
    if name not in sections(text, where):
        raise ResultsFileError(f"{where}: no section {name!r} (add the two lines '<!-- begin: {name} -->' and "
                               f"'<!-- end: {name} -->' where it belongs)")
    begin = re.search(rf"^<!-- begin: {re.escape(name)} -->$\n?", text, re.M)
    end = re.search(rf"^<!-- end: {re.escape(name)} -->$", text[begin.end():], re.M)
    middle = body.strip("\n") + "\n" if body.strip() else ""
    return text[:begin.end()] + middle + text[begin.end() + end.start():]


def _lscpu() -> dict:
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.SubprocessError):
        return {}
    return {k.strip(): v.strip() for k, _, v in (line.partition(":") for line in out.splitlines()) if v}


def machine() -> str:
    """The machine in one line: CPU model (lscpu, else /proc/cpuinfo, else platform), CPUs, hypervisor, memory, OS."""
    cpu = _lscpu()
    model = cpu.get("Model name")
    if not model:
        with contextlib.suppress(OSError):
            model = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                          if line.startswith("model name")), None)
    parts = [f"{model or platform.processor() or platform.machine()} ({platform.machine()})",
             f"{os.cpu_count()} CPUs"]
    if "Family" in cpu or "CPU family" in cpu:
        parts[0] += f", family {cpu.get('CPU family', cpu.get('Family'))} model {cpu.get('Model', '?')}"
    if cpu.get("Hypervisor vendor"):
        parts.append(f"{cpu['Hypervisor vendor']} guest")
    with contextlib.suppress(OSError, StopIteration, ValueError):
        kb = next(int(line.split()[1]) for line in Path("/proc/meminfo").read_text().splitlines()
                  if line.startswith("MemTotal:"))
        parts.append(f"{kb / 2**20:.0f} GB")
    system = platform.system()
    with contextlib.suppress(OSError, StopIteration):
        system = next(line.split("=", 1)[1].strip('"') for line in Path("/etc/os-release").read_text().splitlines()
                      if line.startswith("PRETTY_NAME="))
    parts.append(system)
    return ", ".join(parts)


def code_version() -> str:
    """The checkout's commit, and the files that differ from it (RESULTS.md aside)."""
    root = RESULTS.parents[1]
    try:
        head = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, timeout=10).stdout.strip()
        changed = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
                                 capture_output=True, text=True, timeout=30).stdout.splitlines()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    changed = [line[3:] for line in changed if line[3:] != "benchmarks/RESULTS.md"]  # the file being written
    return (head or "unknown") + (f" with uncommitted changes to {', '.join(changed)}" if changed else "")


def command_line(script: str, argv: list[str]) -> str:
    """``python benchmarks/SCRIPT ARGS`` as it was run, ``--write [NAME]`` left out, ``STS_DATA`` named when set."""
    args, skip = [], False
    for i, arg in enumerate(argv):
        if skip:
            skip = False
            continue
        if arg == WRITE_FLAG:
            skip = i + 1 < len(argv) and not argv[i + 1].startswith("-")
            continue
        if arg.startswith(WRITE_FLAG + "="):
            continue
        args.append(arg)
    data = f"STS_DATA={shlex.quote(os.environ['STS_DATA'])} " if os.environ.get("STS_DATA") else ""
    return f"{data}python benchmarks/{Path(script).name} {shlex.join(args)}".rstrip()


def header(command: str, load_start: float, load_end: float, started: float, code: str | None = None) -> str:
    """The lines above a written table: command, machine, Python, code (as it was at the start), date, load."""
    return (f"Command: `{command}`  \n"
            f"Machine: {machine()}; Python {platform.python_version()}; code {code or code_version()}  \n"
            f"Date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime(started))}; load average (1 min) "
            f"{load_start:.1f} at the start and {load_end:.1f} at the end; {time.time() - started:.0f} s in all  \n"
            f"Written by the script (`{WRITE_FLAG}`).")


def section_body(printed: str) -> str:
    """What a script printed, as the section shows it (see the module's docstring)."""
    lines = [line for line in printed.strip("\n").splitlines() if not line.startswith("# ")]
    if not any(line.startswith("|") for line in lines):
        return "```text\n" + "\n".join(lines).strip("\n") + "\n```"
    spaced = []  # a table needs a blank line on either side, as Markdown reads it
    for line in lines:
        if spaced and spaced[-1].strip() and line.strip() and spaced[-1].startswith("|") != line.startswith("|"):
            spaced.append("")
        spaced.append(line)
    return "\n".join(spaced).strip("\n")


def write_section(name: str, printed: str, command: str, load_start: float, started: float,
                  path: Path | None = None, code: str | None = None) -> None:
    """Replace the section ``name`` of ``path`` (RESULTS.md) with ``printed`` under the header."""
    path = path or RESULTS
    text = path.read_bytes().decode("utf-8")  # as it is: no newline translated
    body = header(command, load_start, os.getloadavg()[0], started, code) + "\n\n" + section_body(printed)
    path.write_bytes(replace_section(text, name, body, str(path)).encode("utf-8"))


def add_write_flag(parser, section: str) -> None:
    """``--write [SECTION]``: the script's way to rewrite its own section of RESULTS.md."""
    parser.add_argument(WRITE_FLAG, nargs="?", const=section, metavar="SECTION",
                        help=f"also write what this prints, with the command, machine, date and load, into its section "
                             f"of benchmarks/RESULTS.md (default section: {section})")


class _Tee(io.TextIOBase):
    def __init__(self, out):
        self.out, self.kept = out, io.StringIO()

    def write(self, text):
        self.kept.write(text)
        return self.out.write(text)

    def flush(self):
        self.out.flush()


@contextlib.contextmanager
def recording(section: str | None, script: str, argv: list[str] | None = None):
    """Within the block, what is printed to stdout is also kept; at the end (no exception) it is written into the
    section ``section`` of RESULTS.md. ``section`` None (no ``--write``): the block runs as it would without this."""
    if not section:
        yield
        return
    if section not in sections(RESULTS.read_bytes().decode("utf-8")):  # refused before the measurement, not after
        raise ResultsFileError(f"benchmarks/RESULTS.md: no section {section!r}")
    started, load, code = time.time(), os.getloadavg()[0], code_version()
    tee = _Tee(sys.stdout)
    with contextlib.redirect_stdout(tee):
        yield
    write_section(section, tee.kept.getvalue(), command_line(script, sys.argv[1:] if argv is None else argv),
                  load, started, RESULTS, code)
    print(f"wrote the section {section!r} of {RESULTS}", file=sys.stderr)
