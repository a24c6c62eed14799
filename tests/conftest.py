"""Shared test configuration.

Benchmark data: when CLUVAL_DATA_DIR is unset and the read-only mirror sits beside the
checkout (``../shared/datasets``), tests use it. Tests marked ``data`` need the real sets:
they fail when CI runs (``CI`` set) or CLUVAL_DATA_DIR was given and the data is missing, and
are reported as skipped only on a developer machine that has no data at all.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from hypothesis import settings

# CI explores the same examples every run (a failure there is reproducible); developers'
# runs keep drawing new ones.
settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

ROOT = Path(__file__).resolve().parents[1]
_MIRROR = ROOT.parent / "shared" / "datasets"
DATA_REQUESTED = bool(os.environ.get("CLUVAL_DATA_DIR") or os.environ.get("CI"))
if not os.environ.get("CLUVAL_DATA_DIR") and _MIRROR.is_dir():
    os.environ["CLUVAL_DATA_DIR"] = str(_MIRROR)


def data_available() -> bool:
    data_dir = os.environ.get("CLUVAL_DATA_DIR")
    return bool(data_dir) and (Path(data_dir) / "sipu" / "s1.data.gz").is_file()


def pytest_collection_modifyitems(config, items):
    if data_available() or DATA_REQUESTED:
        return  # with data requested, a missing set makes the test fail loudly
    marker = pytest.mark.skip(reason="benchmark data not found: set CLUVAL_DATA_DIR to run these tests")
    for item in items:
        if "data" in item.keywords:
            item.add_marker(marker)


@pytest.fixture(autouse=True)
def _fresh_streamlit_caches(request):
    """AppTest runs share Streamlit's caches within one pytest process: each app test starts
    with empty ones, so that it computes (and can fail) for itself."""
    if request.module.__name__.split(".")[-1].startswith("test_app"):
        import streamlit as st

        st.cache_data.clear()
        st.cache_resource.clear()
    yield


# ---------------------------------------------------------------------- a real browser
# Tests in tests/test_browser*.py use these fixtures: one server and one browser per module.
ARTIFACTS = ROOT / "tests" / "artifacts"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server():
    yield from _serve()


@pytest.fixture
def fresh_server():
    yield from _serve()


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    if CHROMIUM is None:  # .ci/run installs it: in CI a missing browser is a failure, not a skip
        if os.environ.get("CI"):
            pytest.fail("CI needs chromium for the browser tests (.ci/run installs it)")
        pytest.skip("no chromium installed (apt-get install chromium)")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        yield chromium
        chromium.close()


def _serve():
    port = _free_port()
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    log = open(ARTIFACTS / f"server-{port}.log", "w")  # noqa: SIM115 - closed in the teardown
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"), "--server.port", str(port),
         "--server.headless", "true", "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false",
         "--server.fileWatcherType", "none"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            if urllib.request.urlopen(f"{url}/_stcore/health", timeout=2).read() == b"ok":
                break
        except OSError:
            time.sleep(0.5)
    else:
        proc.terminate()
        log.close()
        pytest.fail("the app did not answer /_stcore/health within 60 s")
    yield url
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
    log.close()
