"""The data set loader: real sets through CLUVAL_DATA_DIR, downloads against a local server."""

from __future__ import annotations

import gzip
import hashlib
import http.server
import json
import socket
import threading
from pathlib import Path

import numpy as np
import pytest

from cluval_core import CluvalError, datasets
from cluval_core.datasets import DatasetUnavailable, fetch_dataset, load_dataset, verify_datasets

SHARED = Path(__file__).resolve().parents[2] / "shared" / "datasets"
REQUIRED = ["s1", "s2", "s3", "s4", "unbalance", "aggregation", "compound", "birch2", "a1", "a2", "a3", "d31",
            "r15", "flame", "jain", "pathbased", "spiral", "yeast", "wine", "ecoli", "glass", "iris"]


def test_catalogue_lists_every_required_set():
    cat = datasets.catalogue()
    assert set(REQUIRED) <= set(cat["datasets"])
    assert "v1.1.0" in cat["url"]
    for name in REQUIRED:
        entry = cat["datasets"][name]
        assert {"n", "d", "k", "partitions", "sha256", "description", "citation", "battery"} <= set(entry)
        assert all(len(h) == 64 for h in entry["sha256"].values())


def test_catalogue_checksums_match_the_mirror_list():
    sums = (SHARED / "SHA256SUMS").read_text() if (SHARED / "SHA256SUMS").exists() else None
    if sums is None:
        assert datasets.catalogue()  # nothing to compare with on a machine without the mirror
        return
    listed = {p.removeprefix("./"): h for h, p in (line.split() for line in sums.splitlines())}
    for name, entry in datasets.catalogue()["datasets"].items():
        for kind, digest in entry["sha256"].items():
            assert listed[f"{entry['battery']}/{name}.{kind}.gz"] == digest


@pytest.mark.data
@pytest.mark.parametrize("name", REQUIRED)
def test_real_sets_load_with_their_catalogued_shape(name):
    ds = load_dataset(name, download=False)
    entry = datasets.catalogue()["datasets"][name]
    assert ds.X.shape == (entry["n"], entry["d"])
    assert ds.k == entry["k"]
    assert np.isfinite(ds.X).all()
    assert ds.citation and ds.description


@pytest.mark.data
def test_unbalance_has_three_dense_and_five_sparse_clusters():
    ds = load_dataset("unbalance", download=False)
    assert sorted(np.bincount(ds.labels)[1:].tolist()) == [100] * 5 + [2000] * 3


@pytest.mark.data
def test_verify_reports_every_set_ok():
    assert set(verify_datasets(REQUIRED).values()) == {"ok"}


def test_alias_and_unknown_names():
    assert datasets._entry("Aggregate")[0] == "aggregation"
    with pytest.raises(CluvalError, match="unknown data set 'nope'; known sets: s1"):
        load_dataset("nope")


# ---------------------------------------------------------------------- downloads
POINTS = b"0 0\n1 1\n10 10\n11 11\n"
LABELS = b"1\n1\n2\n2\n"


def _gz(data: bytes) -> bytes:
    return gzip.compress(data, mtime=0)


class _Handler(http.server.BaseHTTPRequestHandler):
    files: dict = {}
    truncate: set = set()

    def do_GET(self):  # noqa: N802 - http.server's name
        body = self.files.get(self.path)
        if body is None:
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body[: len(body) // 2] if self.path in self.truncate else body)

    def log_message(self, *args):
        pass


@pytest.fixture
def server(tmp_path, monkeypatch):
    """A tiny catalogue with one set, served on 127.0.0.1; an empty data dir and cache."""
    data, labels = _gz(POINTS), _gz(LABELS)
    entry = {"title": "Tiny", "battery": "test", "n": 4, "d": 2, "k": 2,
             "partitions": {"labels0": {"k": 2, "noise": 0}}, "description": "four points",
             "citation": "none", "sha256": {"data": hashlib.sha256(data).hexdigest(),
                                            "labels0": hashlib.sha256(labels).hexdigest()}}
    cat = {"suite": "test", "url": "http://127.0.0.1:9/{battery}/{name}.{kind}.gz", "suite_citation": "",
           "datasets": {"tiny": entry}}
    path = tmp_path / "catalogue.json"
    path.write_text(json.dumps(cat))
    monkeypatch.setattr(datasets, "CATALOGUE_PATH", path)
    datasets.catalogue.cache_clear()
    monkeypatch.setattr(datasets, "cache_dir", lambda: tmp_path / "cache")
    monkeypatch.delenv("CLUVAL_DATA_DIR", raising=False)
    _Handler.files = {"/test/tiny.data.gz": data, "/test/tiny.labels0.gz": labels}
    _Handler.truncate = set()
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    monkeypatch.setenv("CLUVAL_DATA_URL", f"http://127.0.0.1:{httpd.server_address[1]}")
    yield tmp_path
    httpd.shutdown()
    httpd.server_close()
    datasets.catalogue.cache_clear()


def test_download_good_file_with_progress(server):
    seen = []
    ds = load_dataset("tiny", progress=lambda f, m: seen.append(f))
    assert ds.X.tolist() == [[0, 0], [1, 1], [10, 10], [11, 11]]
    assert ds.labels.tolist() == [1, 1, 2, 2]
    assert seen[-1] == 1.0 and all(0 <= f <= 1 for f in seen)
    assert (server / "cache" / "test" / "tiny.data.gz").is_file()
    _Handler.files = {}  # now offline: the cache serves it
    assert load_dataset("tiny").n == 4


def test_download_with_wrong_checksum_is_not_kept(server):
    _Handler.files["/test/tiny.data.gz"] = _gz(POINTS + b"5 5\n")
    with pytest.raises(CluvalError, match="does not match its sha256 checksum"):
        load_dataset("tiny")
    assert not list((server / "cache").rglob("*.gz"))


def test_truncated_download_is_rejected(server):
    _Handler.truncate = {"/test/tiny.data.gz"}
    with pytest.raises(CluvalError, match="truncated|could not be downloaded"):
        load_dataset("tiny")
    assert not list((server / "cache").rglob("*.gz"))


def test_missing_file_404(server):
    del _Handler.files["/test/tiny.labels0.gz"]
    with pytest.raises(DatasetUnavailable, match="Either set CLUVAL_DATA_DIR .* or connect to the internet"):
        load_dataset("tiny")


def test_server_down(server, monkeypatch):
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()  # nothing listens here now
    monkeypatch.setenv("CLUVAL_DATA_URL", f"http://127.0.0.1:{port}")
    with pytest.raises(DatasetUnavailable, match="not available offline and could not be downloaded"):
        load_dataset("tiny")


def test_corrupt_file_in_data_dir_is_never_used(server, monkeypatch):
    bad = server / "mirror" / "test"
    bad.mkdir(parents=True)
    (bad / "tiny.data.gz").write_bytes(_gz(b"9 9\n" * 4))
    (bad / "tiny.labels0.gz").write_bytes(_gz(LABELS))
    monkeypatch.setenv("CLUVAL_DATA_DIR", str(server / "mirror"))
    with pytest.raises(CluvalError, match="corrupt or truncated"):
        load_dataset("tiny")
    assert verify_datasets(["tiny"])["tiny"].startswith(str(bad / "tiny.data.gz"))


def test_fetch_reports_paths(server):
    paths = fetch_dataset("tiny")
    assert set(paths) == {"data", "labels0"}
