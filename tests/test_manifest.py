"""``sts data verify``: the SHA-256 manifest matches the official data and catches one changed byte."""
import shutil

from semsts import data_cli as cli
from semsts.corpora import content_pins, manifest, sources


def test_manifest_is_reproducible_from_the_official_data(data_dir):
    stored = manifest.load_manifest()
    computed = manifest.compute(data_dir)
    assert {name: computed.get(name) for name in stored} == stored
    # a root holding more (STS 2017 after `sts data fetch all`) adds folders the reference data has no copy of
    known = {name.split("/")[0] for name in stored}
    assert all(name.split("/")[0] not in known for name in set(computed) - set(stored))
    assert "sts2012/test/STS.gs.MSRpar.txt" in stored and "stsbenchmark/sts-test.csv" in stored
    assert "sts2016/test/STS2016.gs.headlines.txt" in stored and "sts2014/test/STS.input.images.txt" in stored
    assert {f"sick2014/SICK_{n}.txt" for n in ("train", "trial", "test_annotated")} <= set(stored)
    assert all(set(entry) == {"size", "sha256"} and len(entry["sha256"]) == 64 for entry in stored.values())


def test_verify_passes_on_the_official_data(data_dir, capsys):
    code = cli.main(["--data-dir", str(data_dir), "verify"])
    out = capsys.readouterr().out
    n = len(manifest.load_manifest())
    # a full root's STS-B companion fixture (tests/full_root.py) has the official pairs per source file, its pins
    pairs = [line.split()[1] for line in out.splitlines() if line.startswith("OK ") and line.split()[1].startswith(
        "stscompanion/")]
    assert set(pairs) <= {"stscompanion/sts-mt.csv", "stscompanion/sts-other.csv"}
    assert out.count("\nOK ") + out.startswith("OK ") == n + len(pairs)
    # a full root (tests/full_root.py) holds fixtures in place of STS 2017, BIOSSES and STS22: not mteb's figures
    fixtures = [line.split()[1] for line in out.splitlines() if line.startswith("MISMATCH")]
    pins = content_pins.load_pins()  # a multilingual release's pin checks each of its files
    assert set(fixtures) <= {pin["file"] for pin in pins.values()} | {
        f"{source.target}/{f}" for source in sources.SOURCES.values() if "subsets" in pins.get(source.name, {})
        for f in source.files}
    assert f"{n + len(pairs)} OK, {len(fixtures)} MISMATCH, 0 MISSING" in out and code == (1 if fixtures else 0)


def test_one_changed_byte_fails_naming_the_file(data_dir, tmp_path, capsys):
    shutil.copytree(data_dir / "sts2012", tmp_path / "sts2012")
    victim = tmp_path / "sts2012" / "test" / "STS.input.MSRvid.txt"
    data = bytearray(victim.read_bytes())
    data[100] ^= 0x01  # same size, one bit off
    victim.write_bytes(bytes(data))
    (tmp_path / "sts2012" / "train" / "STS.gs.MSRpar.txt").unlink()
    assert cli.main(["--data-dir", str(tmp_path), "verify", "--quiet"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert set(lines[:2]) == {"MISMATCH sts2012/test/STS.input.MSRvid.txt  (sha256 differs)",
                              "MISSING  sts2012/train/STS.gs.MSRpar.txt"}
    assert lines[-1].endswith("1 MISMATCH, 1 MISSING")


def test_verify_only_the_named_datasets_and_notes_unlisted_ones(data_dir, tmp_path, capsys):
    shutil.copytree(data_dir / "sts2013", tmp_path / "sts2013")
    (tmp_path / "sts2013" / "test" / "STS.gs.FNWN.txt").write_text("changed\n")
    assert cli.main(["--data-dir", str(tmp_path), "verify", "sts2013-test"]) == 1
    assert "MISMATCH sts2013/test/STS.gs.FNWN.txt  (size" in capsys.readouterr().out
    assert cli.main(["--data-dir", str(tmp_path), "verify", "sts2017-test"]) == 1  # pinned by mteb's figures
    assert "MISSING  sts2017/test/STS.input.track5.en-en.txt" in capsys.readouterr().out
    assert cli.main(["--data-dir", str(tmp_path / "empty"), "verify"]) == 0
    assert "nothing to verify" in capsys.readouterr().out
    assert cli.main(["--data-dir", str(tmp_path), "verify", "sts1999"]) == 1
    assert "unknown dataset" in capsys.readouterr().err
