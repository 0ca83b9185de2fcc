"""``sts data …``: list, fetch and verify datasets."""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from semsts import argtypes
from semsts.core.errors import Unavailable
from semsts.corpora import content_pins, datasets, europeana, fetch, manifest, sources, tables, typed2013, user_data
from semsts.corpora.errors import DatasetNotFound, FormatError
from semsts.corpora.paths import data_root, missing_root

from .notes import note


def _print_wrapped(head: str, text: str) -> None:
    """``head`` then ``text`` wrapped at the output's width, the continuation lines under the text's start."""
    import textwrap

    from semsts.scoring.results import WIDTH
    lines = textwrap.wrap(text, WIDTH, initial_indent=head, subsequent_indent=" " * len(head),
                          break_long_words=False, break_on_hyphens=False)
    print("\n".join(lines) or head.rstrip())  # an empty text still shows its head


NAME_WIDTH = 16  # a longer name (sts2017-es-en-wmt-test) takes a line of its own, the columns stay aligned


def _head(name: str, status: str) -> str:
    """A listing row's start: the name in its column, then the status; a name too long for it printed above."""
    if len(name) > NAME_WIDTH:
        print(name)
        name = ""
    return f"{name:{NAME_WIDTH}} {status}"


def cmd_list(args) -> int:
    if args.specs:
        return _list_files(args)
    root = data_root(args.data_dir)
    absent = missing_root(args.data_dir)
    print(f"data root: {root}" + (f" (does not exist: {absent.split(' (', 1)[1]}" if absent else ""))
    releases: dict = {}  # release -> its unverified note
    for name in datasets.dataset_names():
        spec = datasets.spec(name)
        try:
            ds = datasets.load(name, args.data_dir)
        except DatasetNotFound:
            _print_wrapped(_head(name, "absent   "), f"{spec.description}; {_how_to_get(name, args.data_dir)}")
            continue
        except (FormatError, OSError, Unavailable) as exc:  # one line about the file at fault (or the extra it needs)
            print(_head(name, f"INVALID  {exc}"))
            continue
        _print_wrapped(_head(name, f"present  {sum(len(s) for s in ds):6d} pairs: "), _subsets(ds))
        for text in [*ds.notes, _unverified(name, root, releases)]:
            if text:
                _print_wrapped(f"{'':{NAME_WIDTH}} note: ", text)
    return 0


def _unverified(name: str, root, releases: dict) -> str:
    """The note on a present dataset whose release differs from what pins it (content_pins), each release read once."""
    try:
        release = sources.source_of(name).name
    except DatasetNotFound:
        return ""
    pin = content_pins.pin_of(release)
    if pin and "subsets" not in pin:  # one file pinned (STS 2017's track 5): a note only where the dataset reads it
        try:
            read = {Path(inp).resolve() for _, inp, _ in datasets.locate(name, root)}
        except (DatasetNotFound, FormatError, OSError):
            read = set()
        if (Path(root) / pin["file"]).resolve() not in read:
            return ""
    if release not in releases:
        releases[release] = content_pins.unverified_note(release, root)
    return releases[release] and f"{name}: {releases[release]}"


def _list_files(args) -> int:
    """``sts data list PATH…``: what each file or folder reads as (a dataset name works too)."""
    columns = tables.parse_columns(args.columns) if args.columns else None
    for spec in args.specs:
        ds = user_data.resolve(spec, args.data_dir, columns=columns)
        print(f"{spec}: {ds.kind}, {sum(len(s) for s in ds)} pairs: {_subsets(ds)}")
        if ds.path is not None:
            print(f"  sha256 {ds.sha256}")
        for text in ds.notes:
            print(f"  note: {text}")
        if not ds.has_gold:
            print(f"  note: {'no ' + ds.kind.no_gold}: "
                  "it can be run but not scored or trained on")
    return 0


def _subsets(ds) -> str:
    """``NAME (PAIRS[, N not scored]), …``: a dataset's subsets as the listings show them."""
    return ", ".join(f"{s.name} ({len(s)}" + (f", {len(s) - s.n_scored} not scored)" if len(s) != s.n_scored else ")")
                     for s in ds)


def _how_to_get(name: str, data_dir=None) -> str:
    if name in europeana.FETCH_NAMES:
        return (f"put the official {typed2013.INPUT_NAME} and {typed2013.GOLD_NAME} in {datasets.folder_of(name, data_dir)}, "
                f"then `sts data fetch {name} --api-key KEY` rebuilds the records")
    try:
        source = fetch.source_of(name)
    except DatasetNotFound:
        return f"no download known: put its files in {datasets.folder_of(name, data_dir)}"
    if not source.urls:
        return f"download by hand ({source.page}), then `sts data fetch {name} --archive FILE`"
    return f"`sts data fetch {name}`"


def cmd_fetch(args) -> int:
    if args.archive and len(args.names) != 1:
        print("error: --archive goes with one dataset at a time", file=sys.stderr)
        return 2
    bars = {}

    def progress(name, done, total):
        if name not in bars:
            from .bars import bar
            bars[name] = bar(total=total, desc=name, unit="B", unit_scale=True)
        bars[name].update(done - bars[name].n)

    for folder, size in fetch.clean_stale(args.data_dir):
        note(f"removed {folder.name} ({size / (1 << 20):.1f} MiB), left by an interrupted fetch", even_quiet=True)
    seen = {}
    names = args.names
    if args.names == ["all"]:
        names = [s.name for s in sources.SOURCES.values() if s.urls and not sources.subsumed(s)]
    for name in names:
        if name in europeana.FETCH_NAMES:
            _fetch_typed(name, args)
            continue
        source = fetch.source_of(name)
        if source.name in seen:
            continue
        seen[source.name] = True
        try:
            folder = fetch.fetch(name, args.data_dir, args.archive, args.mirror, args.force,
                                 None if args.quiet else progress, args.unverified)
        finally:
            for bar in bars.values():
                bar.close()
            bars.clear()
        if folder is None:
            print(f"{source.name}: already in {data_root(args.data_dir) / source.target} (--force to replace)")
            continue
        print(f"{source.name}: installed in {folder}")
        if args.unverified and (text := content_pins.unverified_note(source.name, data_root(args.data_dir))):
            print(f"  note: {text}")
        for ds_name in source.datasets:
            try:
                ds = datasets.load(ds_name, args.data_dir)
            except DatasetNotFound:
                print(f"  {ds_name}: not in this archive")
                continue
            print(f"  {ds_name}: {', '.join(f'{s.name} ({len(s)})' for s in ds)}")
            for text in ds.notes:
                print(f"  note: {text}")
    return 0


def _fetch_typed(name: str, args) -> None:
    """The TYPED pilot: rebuild ``text/`` records from Europeana's API for the input files present."""
    folders = europeana.typed_folders(name, args.data_dir)
    if not folders:
        raise DatasetNotFound(f"{name}: no {typed2013.INPUT_NAME} under {data_root(args.data_dir) / 'typed2013'}/"
                              "{train,test}; put the official input and gold files there first")
    client = europeana.RecordClient(args.api_key or os.environ.get(europeana.KEY_VAR, ""), args.api_url)
    from .bars import bar as progress_bar
    for folder in folders:
        bar = progress_bar(desc=f"{folder.parent.name}/{folder.name}", unit="record", disable=args.quiet)

        def progress(done, total, bar=bar):
            bar.total = total
            bar.update(done - bar.n)

        try:
            report = europeana.fetch_records(folder, client, progress=progress)
        finally:
            bar.close()
        print(f"{folder}: {report.written} record files written ({report.requested} fetched, {report.cached} cached)")
        if report.missing:
            print(f"  {len(report.missing)} records no longer exist at Europeana; listed in "
                  f"{folder / typed2013.TEXT_DIR / typed2013.MISSING_NAME}, they read as empty records")


def cmd_verify(args) -> int:
    root = data_root(args.data_dir)
    for name in args.names or ():
        datasets.spec(name)
    checks, notes = manifest.verify(root, args.names or None)
    for check in checks:
        if check.status != "OK" or not args.quiet:
            print(f"{check.status:8} {check.path}" + (f"  ({check.detail})" if check.detail else ""))
    for text in notes:  # the report's lines, on stdout
        print(f"note: {text}")
    counts = {status: sum(c.status == status for c in checks) for status in ("OK", "MISMATCH", "MISSING")}
    print(f"{root}: {counts['OK']} OK, {counts['MISMATCH']} MISMATCH, {counts['MISSING']} MISSING")
    if not checks and not notes:
        print("nothing to verify: no dataset folder is present under the data root")
    return 1 if counts["MISMATCH"] or counts["MISSING"] else 0


def cmd_wordnet(args) -> int:
    from semsts.corpora import wordnet
    src = wordnet.source()
    print(f"WordNet {wordnet.version()} from {src.kind}: {src.origin}")
    if src.root != src.origin:
        print(f"NLTK reads it from: {src.root}")
    return 0


def add_data_arguments(parser: argparse.ArgumentParser) -> None:
    """``sts data``'s arguments and its own subcommands, on the parser ``sts`` gives it."""
    parser.description = "Datasets and the data root."
    parser.add_argument("--data-dir", type=argtypes.nonempty_path, help="data root (default: $STS_DATA, else the per-user cache)")
    sub = parser.add_subparsers(dest="command", required=True)  # its name, as "sts data" has always said it
    p = sub.add_parser("list", help="every dataset, its subsets, pair counts and whether it is present; "
                                    "or what the given files or folders read as")
    p.add_argument("specs", nargs="*", metavar="PATH", help="files or folders (or dataset names) to read and describe")
    p.add_argument("--columns", metavar="TEXT1,TEXT2[,SCORE]", help="a plain TSV/CSV's text and score column names")
    p.set_defaults(func=cmd_list)
    p = sub.add_parser("fetch", help="download official archives, check them and install them in the data root")
    p.add_argument("names", nargs="+", metavar="NAME",
                   help="dataset (e.g. sts2012-test, stsb-dev), release, or `all` (every one with a published address)")
    p.add_argument("--archive", action="append", default=[], type=argtypes.nonempty_file, metavar="PATH",
                   help="install from what you downloaded by hand instead of downloading: the release's archive FILE "
                        "(repeatable: a release of several archives takes each, as STS 2017's sts2017.eval.v1.1.zip "
                        "and sts2017.gs.zip, SICK's three zips), BIOSSES's or STS22 en's file, or for MTEB's "
                        "multilingual releases (mteb-sts17, mteb-sts22, mteb-stsb-multi) a FOLDER: a copy of the "
                        "Hugging Face repository at the pinned revision, its files at their paths")
    p.add_argument("--mirror", type=argtypes.nonempty, help=f"base URL serving the archives by file name, and MTEB's multilingual "
                                    "files at their data-root paths (MIRROR/mteb/REPOSITORY/PATH) (default: "
                                    f"${fetch.MIRROR_VAR}, else the organizers' and Hugging Face's addresses)")
    p.add_argument("--force", action="store_true", help="replace a dataset folder that is already there")
    p.add_argument("--unverified", action="store_true",
                   help="install a release whose content differs from what pins it (refused without it): STS 2017 "
                        "(its track 5), BIOSSES, STS22 and MTEB's multilingual releases (mteb's published figures), "
                        "the STS-B companion (its pairs per source file); `sts data list` notes such an install")
    p.add_argument("--quiet", action="store_true", help="no progress bars")
    p.add_argument("--api-key", help=f"typed2013: Europeana API key (default: ${europeana.KEY_VAR})")
    p.add_argument("--api-url", default=europeana.API_BASE, help="typed2013: record API base URL (default: %(default)s)")
    p.set_defaults(func=cmd_fetch)
    p = sub.add_parser("verify", help="check the files of present datasets against the SHA-256 manifest")
    p.add_argument("names", nargs="*", metavar="NAME", help="datasets to check (default: every one present)")
    p.add_argument("--quiet", action="store_true", help="print only files that are not OK, and the summary")
    p.set_defaults(func=cmd_verify)
    p = sub.add_parser("wordnet", help="find WordNet 3.0 (NLTK data, Debian packages or $WORDNET_DIR), say which")
    p.set_defaults(func=cmd_wordnet)
    for command in sub.choices.values():  # `sts data list --data-dir X` works as well as `sts data --data-dir X list`
        command.add_argument("--data-dir", default=argparse.SUPPRESS, type=argtypes.nonempty_path, help="data root (as before the command)")


def main(argv=None) -> int:
    """``sts data ARGV…`` (what the tests call)."""
    from .cli import main as sts_main
    return sts_main(["data", *(sys.argv[1:] if argv is None else argv)])
