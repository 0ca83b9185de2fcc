"""Tests of semsts.corpora.europeana: the TYPED record fetcher against a fake record API."""
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, unquote, urlparse

import pytest

from semsts import corpora
from semsts.corpora import europeana, typed2013
from tests.conftest import write

# --- The Europeana fetcher against a fake record API on 127.0.0.1: exact record bytes, retries, resume, 404s.


KEY = "s3cret"
ADDR = "http://www.europeana.eu/portal/record/{}.html"


def proxy(**fields):
    return {"about": "/proxy/provider/x", "europeanaProxy": False, **fields}


RECORDS = {
    "2022/rich_1": {"object": {
        "proxies": [
            proxy(dcTitle={"def": ["Leeds Town Hall", "Leeds Town Hall"], "fr": ["Hôtel de ville"]},
                  dcCreator={"def": ["SUTCLIFFE; Frank Meadow (1853-1941)", "http://data.europeana.eu/agent/1"]},
                  dcDescription={"en": ["Façade\tand  tower,\nseen from the Headrow."]},
                  dcDate=["c. 1890"], dcSubject={"def": ["architecture", "town halls"]}),
            {"about": "/proxy/europeana/x", "europeanaProxy": True, "dcSubject": {"def": ["http://concept/9"]}},
        ],
        "agents": [{"about": "http://data.europeana.eu/agent/1", "prefLabel": {"en": ["Frank Meadow Sutcliffe"]}}],
    }},
    "2022/empty": {"object": {"proxies": [proxy()]}},
    "9200/Ünïcode.x": {"object": {"proxies": [proxy(dcTitle={"def": ["Ærøskøbing — 東京"]},
                                                    dcSource={"def": ["Culture Grid"]})]}},
    "2022/flaky": {"object": {"proxies": [proxy(dcTitle={"def": ["Flaky"]})]}},
}
EXPECTED = {
    "001a_2022_rich_1.txt": ("dcTitle:\tLeeds Town Hall\n"
                             "dcSubject:\tarchitecture\ttown halls\n"
                             "dcDescription:\tFaçade and  tower, seen from the Headrow.\n"
                             "dcCreator:\tSUTCLIFFE; Frank Meadow (1853-1941)\tFrank Meadow Sutcliffe\n"
                             "dcDate:\tc. 1890\n").encode(),
    "001b_2022_empty.txt": b"",
    "002a_9200_Ünïcode.x.txt": "dcTitle:\tÆrøskøbing — 東京\ndcSource:\tCulture Grid\n".encode(),
    "002b_2022_gone.txt": None,
    "003a_2022_flaky.txt": b"dcTitle:\tFlaky\n",
    "003b_2022_rich_1.txt": None,  # same bytes as 001a
}


class FakeApi:
    """A record API: 401 on a wrong key, 404 for unknown records, 503 once for 'flaky', down on demand."""

    def __init__(self):
        self.requests, self.down, self.flaky_left = [], False, 1
        api = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                url = urlparse(self.path)
                rid = unquote(url.path)[len("/record/v2/"):-len(".json")]
                api.requests.append(rid)
                if parse_qs(url.query).get("wskey") != [KEY]:
                    return self._send(401, {"success": False, "error": "Invalid API key"})
                if api.down:
                    return self._send(503, {"error": "maintenance"})
                if rid == "2022/flaky" and api.flaky_left:
                    api.flaky_left -= 1
                    return self._send(503, {"error": "busy"}, {"Retry-After": "0"})
                if rid not in RECORDS:
                    return self._send(404, {"success": False, "error": "Invalid record identifier"})
                return self._send(200, RECORDS[rid])

            def _send(self, status, body, headers=()):
                data = json.dumps(body, ensure_ascii=False).encode("utf-8")
                self.send_response(status)
                self.send_header("Content-Type", "application/json; charset=utf-8")
                self.send_header("Content-Length", str(len(data)))
                for name, value in dict(headers).items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)


@pytest.fixture
def api():
    fake = FakeApi()
    fake.thread.start()
    yield fake
    fake.server.shutdown()
    fake.server.server_close()


@pytest.fixture
def folder(tmp_path):
    folder = tmp_path / "typed2013" / "test"
    pairs = [("2022/rich_1", "2022/empty"), ("9200/Ünïcode.x", "2022/gone"), ("2022/flaky", "2022/rich_1")]
    write(folder / typed2013.INPUT_NAME, "".join(f"{ADDR.format(a)}\t{ADDR.format(b)}\n" for a, b in pairs))
    write(folder / typed2013.GOLD_NAME, "".join("5\t4\t3\t2\t1\t0\t1\t2\n" for _ in pairs))
    return folder


def client(api, key=KEY, retries=2, sleeps=None):
    sleep = sleeps.append if sleeps is not None else (lambda s: None)
    return europeana.RecordClient(key, api.base, retries=retries, backoff=0.5, min_interval=0, sleep=sleep)


def test_records_are_written_byte_identical_and_gone_ones_reported(api, folder, tmp_path):
    sleeps = []
    report = europeana.fetch_records(folder, client(api, sleeps=sleeps))
    text = folder / "text"
    for name, expected in EXPECTED.items():
        if expected is not None:
            assert (text / name).read_bytes() == expected, name
    assert (text / "003b_2022_rich_1.txt").read_bytes() == EXPECTED["001a_2022_rich_1.txt"]
    assert not (text / "002b_2022_gone.txt").exists()
    assert report.missing == ["2022/gone"]
    assert (text / typed2013.MISSING_NAME).read_text() == "2022/gone\tnot found (HTTP 404)\n"
    assert (report.requested, report.cached, report.written) == (5, 0, 5)
    assert sleeps == [0.5]  # the one 503 of 'flaky' was retried after the backoff
    ds = corpora.load("typed2013-test", tmp_path)
    assert ds.subsets[0].pairs[1][1] == "" and "1 records no longer exist" in ds.notes[0]


def test_an_interrupted_fetch_resumes_without_asking_again(api, folder):
    calls = []

    def progress(done, total):
        calls.append(done)
        if done == 2:
            api.down = True

    with pytest.raises(europeana.EuropeanaError, match=r"record 9200/Ünïcode.x: gave up after 2 attempts \(HTTP 503\)"):
        europeana.fetch_records(folder, client(api, retries=1), progress=progress)
    assert calls == [1, 2] and not (folder / "text").exists()
    assert sorted(p.name for p in (folder / europeana.CACHE_DIR).iterdir()) == ["2022_empty.json", "2022_rich_1.json"]
    api.down, before = False, len(api.requests)
    report = europeana.fetch_records(folder, client(api))
    assert (report.cached, report.requested) == (2, 3)
    assert "2022/rich_1" not in api.requests[before:] and "2022/empty" not in api.requests[before:]
    assert (folder / "text" / "002a_9200_Ünïcode.x.txt").read_bytes() == EXPECTED["002a_9200_Ünïcode.x.txt"]
    again = europeana.fetch_records(folder, client(api))
    assert (again.cached, again.requested, again.missing) == (5, 0, ["2022/gone"])


def test_a_refused_key_stops_at_once_without_showing_the_key(api, folder):
    with pytest.raises(europeana.EuropeanaError, match=r"refused the API key \(HTTP 401\)") as info:
        europeana.fetch_records(folder, client(api, key="wrong"))
    assert "wrong" not in str(info.value) and len(api.requests) == 1
    with pytest.raises(europeana.EuropeanaError, match="EUROPEANA_API_KEY"):
        europeana.RecordClient("")


def test_an_answer_that_is_no_record_is_refused(folder):
    with pytest.raises(europeana.EuropeanaError, match="not a record"):
        europeana._check_record(b'{"success": true}', "2022/x")
    with pytest.raises(europeana.EuropeanaError, match="not a record"):
        europeana._check_record(b"<html>", "2022/x")


def test_sts_data_fetch_typed2013_reports_what_it_did(api, folder, tmp_path, capsys, monkeypatch):
    from semsts.data_cli import main
    api.flaky_left = 0
    monkeypatch.setenv(europeana.KEY_VAR, KEY)
    argv = ["--data-dir", str(tmp_path), "fetch", "typed2013", "--api-url", api.base, "--quiet"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert f"{folder}: 5 record files written (5 fetched, 0 cached)" in out
    assert "1 records no longer exist at Europeana" in out
    assert main(argv[:-1] + ["--api-key", "wrong", "--quiet"]) == 0  # all cached: the key is not needed again
    monkeypatch.delenv(europeana.KEY_VAR)
    assert main(["--data-dir", str(tmp_path / "elsewhere"), "fetch", "typed2013-train", "--api-key", KEY]) == 1
    assert "no STS.input.europeana.txt under" in capsys.readouterr().err


def test_an_answer_of_another_shape_is_one_error_not_a_traceback():
    lone = b'{"object": {"proxies": [{"dcTitle": {"def": ["a \\ud800 b"]}}]}}'  # half a character: no text file takes it
    for raw in (b'{"object": {"proxies": [5]}}', b'{"object": {"agents": {"a": 1}}}', lone):
        with pytest.raises(europeana.EuropeanaError, match=r"record /1/a: the answer is not a record \("):
            europeana._check_record(raw, "/1/a")
