"""The data set loader: real sets through CLUVAL_DATA_DIR, downloads against a local server."""

from __future__ import annotations

import gzip
import hashlib
import http.server
import importlib.resources
import importlib.util
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pooch
import pytest

from cluval_core import CluvalError, CluvalWarning
from cluval_core.data import datasets
from cluval_core.data.datasets import DatasetUnavailable, fetch_dataset, load_dataset, verify_datasets

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "datasets"
REQUIRED = ["s1", "s2", "s3", "s4", "unbalance", "aggregation", "compound", "birch2", "a1", "a2", "a3", "d31",
            "r15", "flame", "jain", "pathbased", "spiral", "yeast", "wine", "ecoli", "glass", "iris"]


def test_catalogue_is_package_data():
    resource = importlib.resources.files("cluval_core.data").joinpath("catalogue.json")
    assert resource.is_file() and Path(str(resource)).parent == Path(datasets.__file__).parent
    assert not (ROOT / "datasets" / "catalogue.json").exists()  # one copy: the package's
    assert (ROOT / "datasets" / "build_catalogue.py").is_file()


@pytest.mark.data
def test_build_catalogue_writes_what_the_package_holds():
    spec = importlib.util.spec_from_file_location("build_catalogue", ROOT / "datasets" / "build_catalogue.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.build(Path(os.environ["CLUVAL_DATA_DIR"])) == datasets.catalogue()


def test_catalogue_lists_every_required_set():
    cat = datasets.catalogue()
    assert set(REQUIRED) <= set(cat["datasets"])
    assert "v1.1.0" in cat["url"]
    for name in REQUIRED:
        entry = cat["datasets"][name]
        assert {"n", "d", "k", "partitions", "sha256", "bytes", "description", "citation", "battery"} <= set(entry)
        assert all(len(h) == 64 for h in entry["sha256"].values())
        assert set(entry["bytes"]) == set(entry["sha256"]) and all(b > 0 for b in entry["bytes"].values())


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
    """Serves `files`; `modes` makes one path misbehave; every request is recorded."""

    files: dict = {}
    modes: dict = {}
    requests: list = []

    def do_GET(self):  # noqa: N802 - http.server's name
        self.requests.append(self.path)
        body, mode = self.files.get(self.path), self.modes.get(self.path)
        if mode == "fail once" and self.requests.count(self.path) == 1:
            self.send_error(503)
            return
        if body is None:
            self.send_error(404)
            return
        self.send_response(200)
        if mode != "no length":
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if mode == "truncate":
            self.wfile.write(body[: len(body) // 2])
        elif mode == "trickle":  # one byte every 50 ms, until the client gives up
            for i in range(len(body)):
                try:
                    self.wfile.write(body[i:i + 1])
                    self.wfile.flush()
                except OSError:
                    return
                time.sleep(0.05)
        else:
            self.wfile.write(body)

    def log_message(self, *args):
        pass


def _tiny_catalogue(data: bytes, labels: bytes) -> dict:
    entry = {"title": "Tiny", "battery": "test", "n": 4, "d": 2, "k": 2,
             "partitions": {"labels0": {"k": 2, "noise": 0}}, "description": "four points", "citation": "none",
             "sha256": {"data": hashlib.sha256(data).hexdigest(), "labels0": hashlib.sha256(labels).hexdigest()},
             "bytes": {"data": len(data), "labels0": len(labels)}}
    return {"suite": "test", "url": "http://127.0.0.1:9/{battery}/{name}.{kind}.gz", "suite_citation": "",
            "datasets": {"tiny": entry}}


@pytest.fixture
def server(tmp_path, monkeypatch):
    """A catalogue with one tiny set served on 127.0.0.1; no data folder; an empty cache; no retries."""
    data, labels = _gz(POINTS), _gz(LABELS)
    cat = _tiny_catalogue(data, labels)
    monkeypatch.setattr(datasets, "catalogue", lambda: cat)
    monkeypatch.setenv("CLUVAL_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("CLUVAL_DATA_DIR", raising=False)
    monkeypatch.setattr(datasets, "DOWNLOAD_RETRIES", 0)
    monkeypatch.setattr(_Handler, "files", {"/test/tiny.data.gz": data, "/test/tiny.labels0.gz": labels})
    monkeypatch.setattr(_Handler, "modes", {})
    monkeypatch.setattr(_Handler, "requests", [])
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    monkeypatch.setenv("CLUVAL_DATA_URL", f"http://127.0.0.1:{httpd.server_address[1]}")
    yield tmp_path
    httpd.shutdown()
    httpd.server_close()


def _cached(tmp_path) -> list[str]:
    """Every file left in the cache, temporary ones included."""
    cache = tmp_path / "cache"
    return sorted(str(p.relative_to(cache)) for p in cache.rglob("*") if p.is_file()) if cache.exists() else []


def test_download_good_file_with_progress(server):
    seen = []
    ds = load_dataset("tiny", progress=lambda f, m: seen.append(f))
    assert ds.X.tolist() == [[0, 0], [1, 1], [10, 10], [11, 11]]
    assert ds.labels.tolist() == [1, 1, 2, 2]
    assert seen[-1] == 1.0 and all(0 <= f <= 1 for f in seen)
    assert _cached(server) == ["test/tiny.data.gz", "test/tiny.labels0.gz"]
    _Handler.files = {}  # now offline: the cache serves it
    assert load_dataset("tiny").n == 4
    assert len(_Handler.requests) == 2


def test_download_with_wrong_checksum_is_not_kept(server):
    corrupt = bytearray(_Handler.files["/test/tiny.data.gz"])
    corrupt[20] ^= 1  # same size, one bit flipped
    _Handler.files["/test/tiny.data.gz"] = bytes(corrupt)
    with pytest.raises(CluvalError, match=r"the download of http://127\.0\.0\.1:\d+/test/tiny\.data\.gz does not "
                                          r"match its sha256 checksum, even after 0 retries: the file was not kept"):
        load_dataset("tiny")
    assert _cached(server) == []


def test_oversized_file_announced_is_refused(server):
    _Handler.files["/test/tiny.data.gz"] = _gz(POINTS * 50)
    with pytest.raises(DatasetUnavailable, match=r"could not be downloaded: http://127\.0\.0\.1:\d+/test/tiny\.data"
                                                  r"\.gz is \d+ bytes, more than the 37 expected: refused"):
        load_dataset("tiny")
    assert _cached(server) == [] and len(_Handler.requests) == 1


def test_oversized_file_without_length_is_cut_off(server):
    _Handler.files["/test/tiny.data.gz"] = _gz(POINTS * 50)
    _Handler.modes["/test/tiny.data.gz"] = "no length"
    with pytest.raises(DatasetUnavailable, match=r"tiny\.data\.gz sent more than the 37 bytes expected: refused"):
        load_dataset("tiny")
    assert _cached(server) == []


def test_slow_server_meets_the_deadline(server):
    _Handler.modes["/test/tiny.data.gz"] = "trickle"  # 37 bytes at 20 per second: about 2 s
    with pytest.raises(DatasetUnavailable, match=r"the download of http://127\.0\.0\.1:\d+/test/tiny\.data\.gz did "
                                                  "not finish within the deadline"):
        fetch_dataset("tiny", deadline=0.3)
    assert _cached(server) == []


def test_network_errors_are_retried(server, monkeypatch):
    monkeypatch.setattr(datasets, "DOWNLOAD_RETRIES", 1)
    _Handler.modes["/test/tiny.labels0.gz"] = "fail once"
    assert load_dataset("tiny").labels.tolist() == [1, 1, 2, 2]
    assert _Handler.requests.count("/test/tiny.labels0.gz") == 2


def test_missing_file_404_is_not_retried(server, monkeypatch):
    monkeypatch.setattr(datasets, "DOWNLOAD_RETRIES", 2)
    del _Handler.files["/test/tiny.labels0.gz"]
    with pytest.raises(DatasetUnavailable, match=r"tiny\.labels0\.gz answered 404 Not Found\. Either set "
                                                  r"CLUVAL_DATA_DIR .* or connect to the internet"):
        load_dataset("tiny")
    assert _Handler.requests.count("/test/tiny.labels0.gz") == 1


def test_truncated_download_is_rejected(server):
    _Handler.modes["/test/tiny.data.gz"] = "truncate"
    with pytest.raises(DatasetUnavailable, match="could not be downloaded from .*(truncated|IncompleteRead)"):
        load_dataset("tiny")
    assert _cached(server) == []


def test_server_down(server, monkeypatch):
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()  # nothing listens here now
    monkeypatch.setenv("CLUVAL_DATA_URL", f"http://127.0.0.1:{port}")
    with pytest.raises(DatasetUnavailable, match="not available offline and could not be downloaded"):
        load_dataset("tiny")


def test_corrupt_cached_file_is_replaced_by_a_fetch(server):
    bad = server / "cache" / "test" / "tiny.data.gz"
    bad.parent.mkdir(parents=True)
    bad.write_bytes(_gz(b"9 9\n" * 4))
    assert verify_datasets(["tiny"])["tiny"].startswith(f"{bad} is corrupt or truncated (cache")
    assert load_dataset("tiny").X.tolist()[3] == [11, 11]
    assert hashlib.sha256(bad.read_bytes()).hexdigest() == datasets.catalogue()["datasets"]["tiny"]["sha256"]["data"]
    assert _Handler.requests.count("/test/tiny.data.gz") == 1
    assert verify_datasets(["tiny"]) == {"tiny": "ok"}


def _corrupt_data_dir(server, monkeypatch) -> Path:
    bad = server / "mirror" / "test"
    bad.mkdir(parents=True)
    (bad / "tiny.data.gz").write_bytes(_gz(b"9 9\n" * 4))
    (bad / "tiny.labels0.gz").write_bytes(_gz(LABELS))
    monkeypatch.setenv("CLUVAL_DATA_DIR", str(server / "mirror"))
    return bad / "tiny.data.gz"


def test_corrupt_file_in_data_dir_is_reported_and_a_download_used(server, monkeypatch):
    bad = _corrupt_data_dir(server, monkeypatch)
    with pytest.warns(CluvalWarning, match=f"{bad} \\(in CLUVAL_DATA_DIR\\) is corrupt or truncated: its sha256 "
                                           "differs from the catalogue's. It is skipped; a good copy will be "
                                           "downloaded into the cache"):
        ds = load_dataset("tiny")
    assert ds.X.tolist()[3] == [11, 11]
    assert _Handler.requests == ["/test/tiny.data.gz"]  # the good labels in the data folder are used
    assert verify_datasets(["tiny"])["tiny"] == (f"{bad} is corrupt or truncated (CLUVAL_DATA_DIR: sha256 differs "
                                                 "from the catalogue's); a good copy is used instead")


def test_corrupt_file_in_data_dir_gives_way_to_the_cache(server, monkeypatch):
    fetch_dataset("tiny")
    bad = _corrupt_data_dir(server, monkeypatch)
    _Handler.files = {}
    with pytest.warns(CluvalWarning, match=f"It is skipped; using {server / 'cache' / 'test' / 'tiny.data.gz'} "
                                           "instead"):
        assert load_dataset("tiny", download=False).X.tolist()[3] == [11, 11]
    assert bad.read_bytes() == _gz(b"9 9\n" * 4)  # the data folder is never written


def test_corrupt_file_in_data_dir_without_any_good_copy(server, monkeypatch):
    _corrupt_data_dir(server, monkeypatch)
    with pytest.warns(CluvalWarning, match="It is skipped"), \
            pytest.raises(DatasetUnavailable, match="'tiny' is not available locally"):
        load_dataset("tiny", download=False)
    assert verify_datasets(["tiny"])["tiny"].endswith("fetch it again with 'cluval datasets fetch tiny'")
    assert datasets.available_datasets() == []


def test_fetch_reports_paths(server):
    paths = fetch_dataset("tiny")
    assert paths == {"data": server / "cache" / "test" / "tiny.data.gz",
                     "labels0": server / "cache" / "test" / "tiny.labels0.gz"}


def test_cache_is_the_users_cache_folder_or_cluval_cache_dir(monkeypatch, tmp_path):
    monkeypatch.delenv("CLUVAL_CACHE_DIR", raising=False)
    assert datasets.cache_dir() == Path(pooch.os_cache("cluval")).expanduser()
    assert "site-packages" not in str(datasets.cache_dir()) and ROOT not in datasets.cache_dir().parents
    monkeypatch.setenv("CLUVAL_CACHE_DIR", str(tmp_path / "elsewhere"))
    assert datasets.cache_dir() == tmp_path / "elsewhere"
    assert not (tmp_path / "elsewhere").exists()  # created only when a file is downloaded


def test_unwritable_cache_gives_a_clear_error(server, monkeypatch):
    blocker = server / "a file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("CLUVAL_CACHE_DIR", str(blocker / "cache"))
    with pytest.raises(DatasetUnavailable, match=f"cannot be stored in the download cache {blocker / 'cache'} .*"
                                                 "Set CLUVAL_CACHE_DIR to a writable folder"):
        load_dataset("tiny")


# ---------------------------------------------------------------------- read-only home
def _read_only_home(tmp_path) -> dict:
    """An environment whose home folder cannot be created nor written, even by root."""
    blocker = tmp_path / "blocker"
    blocker.write_text("a regular file: nothing can be created below it")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "CLUVAL_CACHE"))}
    env["HOME"] = str(blocker / "home")
    return env


@pytest.mark.slow  # a Python process of its own
@pytest.mark.data
def test_read_only_home_works_from_the_data_dir(tmp_path):
    script = """
import sys
from cluval_core.data import datasets
from cluval_core.outputs.cli import main
assert datasets.load_dataset("iris", download=False).n == 150
assert datasets.load_dataset("iris").n == 150
assert "iris" in datasets.available_datasets()
assert main(["datasets", "list"]) == 0
assert main(["datasets", "verify", "iris"]) == 0
"""
    result = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=_read_only_home(tmp_path),
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert "iris             150   4    3  ok" in result.stdout
    assert result.stderr == ""


@pytest.mark.data
@pytest.mark.slow
def test_read_only_home_app_starts(tmp_path):
    script = f"""
from streamlit.testing.v1 import AppTest
at = AppTest.from_file({str(ROOT / "pages" / "_entrypoint.py")!r}, default_timeout=120)
at.run()
assert not at.exception, [e.message for e in at.exception]
assert "Iris (n=150, k=3)" in at.selectbox(key="dataset").options, at.selectbox(key="dataset").options
"""
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=_read_only_home(tmp_path),
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
