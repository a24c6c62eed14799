"""Benchmark data sets: a catalogue, a checksummed loader and a downloader.

The catalogue (``datasets/catalogue.json`` in the repository) lists each set's size, its
reference partitions, the sha256 of every file and where the public, versioned copy lives
(the clustering-benchmarks suite v1.1.0). Files are looked up, in order, in

1. the folder named by the ``CLUVAL_DATA_DIR`` environment variable (``BATTERY/NAME.KIND.gz``),
2. the local cache (``datasets/cache/`` in the repository when writable, else the user's
   cache folder, e.g. ``~/.cache/cluval``),
3. the public source, downloaded into the cache with a progress report.

Every file is checked against its sha256 before use: a corrupt or truncated file is never
read. The data files are never part of the repository.
"""

from __future__ import annotations

import gzip
import hashlib
import http.client
import io
import json
import os
import tempfile
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Callable

import numpy as np

from ._validation import CluvalError

__all__ = ["Dataset", "catalogue", "dataset_names", "load_dataset", "fetch_dataset", "verify_datasets",
           "locate", "cache_dir", "DatasetUnavailable", "available_datasets"]

REPO_ROOT = Path(__file__).resolve().parents[1]
CATALOGUE_PATH = REPO_ROOT / "datasets" / "catalogue.json"
ALIASES = {"aggregate": "aggregation"}
Progress = Callable[[float, str], None]


class DatasetUnavailable(CluvalError):
    """A benchmark set is neither on disk nor downloadable."""


@dataclass(frozen=True, eq=False)
class Dataset:
    """Points and reference partitions of one benchmark set."""

    name: str
    title: str
    X: np.ndarray
    partitions: dict[str, np.ndarray]
    description: str
    citation: str
    source: str = ""
    meta: dict = field(default_factory=dict)

    @property
    def labels(self) -> np.ndarray:
        """The first reference partition (``labels0``); 0 marks noise."""
        return self.partitions["labels0"]

    @property
    def n(self) -> int:
        return self.X.shape[0]

    @property
    def d(self) -> int:
        return self.X.shape[1]

    @property
    def k(self) -> int:
        labels = self.labels
        return int(len(np.unique(labels[labels > 0])))


@lru_cache(maxsize=1)
def catalogue() -> dict:
    """The parsed catalogue (suite, url template, and one entry per data set)."""
    try:
        return json.loads(CATALOGUE_PATH.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CluvalError(f"the data set catalogue is missing ({CATALOGUE_PATH}); reinstall cluval from its "
                          "repository with 'pip install -e .'") from None


def dataset_names() -> list[str]:
    return list(catalogue()["datasets"])


def _entry(name: str) -> tuple[str, dict]:
    key = ALIASES.get(name.lower(), name.lower())
    try:
        return key, catalogue()["datasets"][key]
    except KeyError:
        raise CluvalError(f"unknown data set {name!r}; known sets: {', '.join(dataset_names())}") from None


def cache_dir() -> Path:
    """Where downloaded files are kept: ``datasets/cache`` if writable, else the user cache."""
    local = REPO_ROOT / "datasets" / "cache"
    try:
        local.mkdir(parents=True, exist_ok=True)
        if os.access(local, os.W_OK):
            return local
    except OSError:
        pass
    base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "cluval"
    base.mkdir(parents=True, exist_ok=True)
    return base


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _relative(entry: dict, name: str, kind: str) -> str:
    return f"{entry['battery']}/{name}.{kind}.gz"


def _url(entry: dict, name: str, kind: str) -> str:
    base = os.environ.get("CLUVAL_DATA_URL")
    if base:
        return f"{base.rstrip('/')}/{_relative(entry, name, kind)}"
    return catalogue()["url"].format(battery=entry["battery"], name=name, kind=kind)


def locate(name: str, kind: str = "data") -> Path | None:
    """The verified local file of one set's part (``data``, ``labels0``, ...), or None.

    Raises CluvalError when a file is present but fails its checksum.
    """
    key, entry = _entry(name)
    rel = _relative(entry, key, kind)
    expected = entry["sha256"][kind]
    candidates = []
    if os.environ.get("CLUVAL_DATA_DIR"):
        candidates.append(Path(os.environ["CLUVAL_DATA_DIR"]) / rel)
    candidates.append(cache_dir() / rel)
    for path in candidates:
        if path.is_file():
            if _sha256(path) != expected:
                raise CluvalError(f"{path} is corrupt or truncated (sha256 differs from the catalogue's); "
                                  f"delete it and fetch it again with 'cluval datasets fetch {key}'")
            return path
    return None


def _download(url: str, target: Path, expected: str, progress: Progress | None, timeout: float) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha256()
    with urllib.request.urlopen(url, timeout=timeout) as response:  # noqa: S310 - https/http only
        total = int(response.headers.get("Content-Length") or 0)
        done = 0
        with tempfile.NamedTemporaryFile(dir=target.parent, delete=False, suffix=".part") as tmp:
            try:
                for block in iter(lambda: response.read(1 << 16), b""):
                    tmp.write(block)
                    digest.update(block)
                    done += len(block)
                    if progress is not None:
                        progress(done / total if total else 0.0, f"{target.name}: {done / 1e6:.1f} MB")
            except BaseException:
                Path(tmp.name).unlink(missing_ok=True)
                raise
    if total and done != total:
        Path(tmp.name).unlink(missing_ok=True)
        raise CluvalError(f"download of {url} was truncated ({done} of {total} bytes)")
    if digest.hexdigest() != expected:
        Path(tmp.name).unlink(missing_ok=True)
        raise CluvalError(f"download of {url} does not match its sha256 checksum: the file was not kept")
    os.replace(tmp.name, target)


def fetch_dataset(name: str, *, progress: Progress | None = None, timeout: float = 30.0) -> dict[str, Path]:
    """Make every file of a set available locally (downloading what is missing); return their paths."""
    key, entry = _entry(name)
    paths = {}
    kinds = list(entry["sha256"])
    for i, kind in enumerate(kinds):
        path = locate(key, kind)
        if path is None:
            url = _url(entry, key, kind)
            target = cache_dir() / _relative(entry, key, kind)

            def report(fraction, message, i=i):
                if progress is not None:
                    progress((i + fraction) / len(kinds), message)

            try:
                _download(url, target, entry["sha256"][kind], report, timeout)
            except (urllib.error.URLError, http.client.HTTPException, OSError) as exc:
                reason = getattr(exc, "reason", None) or exc
                raise DatasetUnavailable(
                    f"data set {key!r} is not available offline and could not be downloaded from {url} "
                    f"({reason}). Either set CLUVAL_DATA_DIR to a folder holding the clustering-benchmarks "
                    f"files ({_relative(entry, key, kind)}), or connect to the internet and retry "
                    f"('cluval datasets fetch {key}')."
                ) from None
            path = target
        paths[kind] = path
    if progress is not None:
        progress(1.0, f"{key}: ready")
    return paths


def _read(path: Path, dtype) -> np.ndarray:
    with gzip.open(path, "rb") as fh:
        text = fh.read()
    return np.loadtxt(io.BytesIO(text), dtype=dtype, ndmin=2 if dtype is float else 1)


def load_dataset(name: str, *, progress: Progress | None = None, download: bool = True) -> Dataset:
    """Points, reference partitions, description and citation of a benchmark set.

    >>> entry = catalogue()["datasets"]["iris"]  # what load_dataset("iris") will return
    >>> entry["n"], entry["d"], entry["k"]
    (150, 4, 3)
    """
    key, entry = _entry(name)
    if download:
        paths = fetch_dataset(key, progress=progress)
    else:
        paths = {kind: locate(key, kind) for kind in entry["sha256"]}
        missing = [kind for kind, path in paths.items() if path is None]
        if missing:
            raise DatasetUnavailable(f"data set {key!r} is not available locally: set CLUVAL_DATA_DIR or run "
                                     f"'cluval datasets fetch {key}'")
    X = _read(paths["data"], float)
    partitions = {kind: _read(path, np.int64) for kind, path in paths.items() if kind != "data"}
    for kind, labels in partitions.items():
        if len(labels) != len(X):
            raise CluvalError(f"{key}: {kind} has {len(labels)} labels for {len(X)} points")
    X.flags.writeable = False
    return Dataset(key, entry["title"], X, partitions, entry["description"],
                   entry["citation"] + " " + catalogue()["suite_citation"], str(paths["data"].parent), entry)


def verify_datasets(names=None) -> dict[str, str]:
    """Check every local file against the catalogue: ``{name: "ok" | "missing" | reason}``."""
    report = {}
    for name in names or dataset_names():
        key, entry = _entry(name)
        try:
            found = [locate(key, kind) for kind in entry["sha256"]]
            report[key] = "ok" if all(found) else "missing"
        except CluvalError as exc:
            report[key] = str(exc)
    return report


def available_datasets() -> list[str]:
    """Names of the sets that are on disk and verified (nothing is downloaded)."""
    return [name for name, status in verify_datasets().items() if status == "ok"]
