"""Tests of semsts.core.files: the crash-safe primitives the saves, caches and run records share."""
import os

import pytest

from semsts.core import files
from semsts.core.files import missing_folders, remove_empty


def test_is_regular_follows_no_link(tmp_path):
    target = tmp_path / "f"
    target.write_text("x")
    (tmp_path / "link").symlink_to(target)
    assert files.is_regular(target) and not files.is_regular(tmp_path / "link")
    assert not files.is_regular(tmp_path) and not files.is_regular(tmp_path / "absent")


def test_not_regular_says_what_a_path_is_without_opening_it(tmp_path):
    """The one check that a file handed to the suite is a regular file: a FIFO is named, never opened (it would hang)."""
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "f").write_text("x")
    (tmp_path / "link").symlink_to(tmp_path / "f")
    (tmp_path / "dangling").symlink_to(tmp_path / "absent")
    said = {name: files.not_regular(tmp_path / name, follow=True) for name in ("fifo", "f", "link", "dangling", "absent")}
    assert said == {"fifo": "is a FIFO (named pipe), not a regular file", "f": None, "link": None,
                    "dangling": "a link to nothing (dangling)", "absent": "no such file"}
    assert files.not_regular(tmp_path / "link") == "is a link, not a regular file"
    assert files.not_regular(tmp_path) == files.not_regular(tmp_path, follow=True) == "is a folder, not a regular file"


def test_remove_temps_removes_only_the_recorded_writers_temporaries(tmp_path):
    names = [".a.0123abcd.tmp", ".b.0123abcd.tmp", ".a.99999999.tmp", ".notes.tmp", "a.0123abcd.tmp"]
    for name in names:
        (tmp_path / name).write_text("x")
    assert [p.name for p in files.remove_temps(tmp_path, "0123abcd")] == names[:2]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(names[2:])
    assert files.remove_temps(tmp_path, "../*") == files.remove_temps(tmp_path, None) == []


def test_only_a_file_that_is_what_its_record_says_is_removed_or_replaced(tmp_path):
    """Issue 44: a name read from a record is trusted no further than the file it names: a plain name in the folder,
    the file regular and of the recorded SHA-256 (the one rule of save-predictions, run folders and reports)."""
    folder = tmp_path / "out"
    folder.mkdir()
    for name in ("ours.txt", "changed.txt", "mine.txt"):
        (folder / name).write_text(name)
    (tmp_path / "outside.txt").write_text("outside.txt")
    (folder / "link.txt").symlink_to(folder / "ours.txt")
    digest = {n: files.sha256_of_file(p) for n, p in (("ours.txt", folder / "ours.txt"),
                                                         ("outside.txt", tmp_path / "outside.txt"))}
    recorded = {"ours.txt": digest["ours.txt"], "changed.txt": digest["ours.txt"], "../outside.txt":
                digest["outside.txt"], "link.txt": digest["ours.txt"], "absent.txt": digest["ours.txt"], "x": None}
    assert files.not_recorded(folder, ["ours.txt", "changed.txt", "mine.txt", "link.txt", "absent.txt"],
                              recorded) == ["changed.txt", "mine.txt", "link.txt"]
    files.remove_listed(folder, recorded)
    assert sorted(p.name for p in folder.iterdir()) == ["changed.txt", "link.txt", "mine.txt"]
    assert (tmp_path / "outside.txt").read_text() == "outside.txt"


def test_a_new_file_gets_the_mode_open_gives(tmp_path):
    (tmp_path / "by_open").write_text("x")
    files.write_text_atomic(tmp_path / "atomic", "x")
    assert files.new_file_mode() == os.stat(tmp_path / "by_open").st_mode & 0o777
    assert os.stat(tmp_path / "atomic").st_mode & 0o777 == files.new_file_mode()


def test_atomic_open_replaces_only_on_success_and_syncs_when_asked(tmp_path, monkeypatch):
    path = tmp_path / "f"
    path.write_text("old")
    with pytest.raises(RuntimeError), files.atomic_open(path) as handle:
        handle.write("half")
        raise RuntimeError
    assert path.read_text() == "old" and sorted(p.name for p in tmp_path.iterdir()) == ["f"]
    synced = []
    real_fsync = os.fsync
    monkeypatch.setattr(files.os, "fsync", lambda fd: synced.append(fd) or real_fsync(fd))
    with files.atomic_open(path, "wb", sync=True) as handle:
        handle.write(b"new")
    with files.atomic_open(path) as handle:
        handle.write("newer")
    assert path.read_text() == "newer" and len(synced) == 1


def test_tagged_temporaries_carry_their_tag(tmp_path):
    seen = []
    with files.tagged_temps("0123abcd"), files.atomic_open(tmp_path / "f") as handle:
        seen = [p.name for p in tmp_path.iterdir()]
        handle.write("x")
    assert seen == [".f.0123abcd.tmp"] and (tmp_path / "f").read_text() == "x"


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def test_open_unfollowed_refuses_a_link_and_waits_on_no_fifo(tmp_path):
    (tmp_path / "f").write_text("x")
    (tmp_path / "link").symlink_to(tmp_path / "f")
    os.mkfifo(tmp_path / "fifo")
    with pytest.raises(OSError):
        files.open_unfollowed(tmp_path / "link")
    fd = files.open_unfollowed(tmp_path / "fifo")  # no writer: returns at once all the same
    try:
        assert not files.is_regular(tmp_path / "fifo")
    finally:
        os.close(fd)
    with os.fdopen(files.open_unfollowed(tmp_path / "f"), "rb") as handle:
        assert handle.read() == b"x"


def test_missing_folders_are_listed_deepest_first_and_removed_while_empty(tmp_path):
    target = tmp_path / "a" / "b" / "c"
    assert missing_folders(tmp_path) == [] and missing_folders(target) == [target, target.parent, tmp_path / "a"]
    created = missing_folders(target)
    target.mkdir(parents=True)
    (target.parent / "kept.txt").write_text("x")  # b/ now holds a file: b/ and a/ stay
    remove_empty(created)
    assert not target.exists() and (target.parent / "kept.txt").is_file()
    (target.parent / "kept.txt").unlink()
    remove_empty(created)
    assert list(tmp_path.iterdir()) == []


def test_a_name_too_long_with_its_temporary_is_one_clear_error_before_anything_is_written(tmp_path):
    """Issue 44, kind 7: a user's name (a model to save) that fits a file system's 255 bytes but not with the
    temporary beside it gave "[Errno 36] File name too long" naming the temporary; now it names the file and the limit."""
    name = "m" * 245 + ".skops"
    with pytest.raises(ValueError, match=r"/m{60}… \(251 characters\): a file name of 251 bytes; a file written here "
                                         r"has at most 241$"):
        with files.atomic_open(tmp_path / name, "wb") as handle:
            handle.write(b"x")
    assert list(tmp_path.iterdir()) == []
    with files.atomic_open(tmp_path / ("é" * 120 + "m"), "wb") as handle:  # 241 bytes: written
        handle.write(b"x")
    assert [len(os.fsencode(p.name)) for p in tmp_path.iterdir()] == [241]


def test_too_large_refuses_a_byte_over_its_limit_only(tmp_path):
    path = tmp_path / "f"
    path.write_bytes(b"x" * 10)
    assert files.too_large(path, 10) is None
    assert files.too_large(path, 9, "a card") == "10 bytes, more than a card holds (at most 9); refused"


def test_the_data_bound_is_far_above_every_official_file(data_dir):
    """The bound refuses no official file: every file of the releases the manifest pins (and those on this machine)
    fits 40 times over, every MTEB split pinned by its figures 5 times over even at its largest conceivable (each
    character a 6-byte JSON escape, 200 bytes a row of keys, id and score; STS22's German split: 13 MB)."""
    from semsts.corpora import content_pins, manifest
    sizes = [entry["size"] for entry in manifest.load_manifest().values()]
    sizes += [p.stat().st_size for p in data_dir.rglob("*") if p.is_file()]
    assert max(sizes) == 1449412  # STS 2016's postediting input
    pins = [s for r in content_pins.load_pins().values() for s in ([r["figures"]] if "figures" in r else r["subsets"].values())]
    assert max(p["number_of_characters"] for p in pins) == 2173456  # STS22's German split
    assert 40 * max(sizes) < files.MAX_DATA_BYTES
    assert 5 * max(6 * p["number_of_characters"] + 200 * p["num_samples"] for p in pins) < files.MAX_DATA_BYTES
