"""Benchmark data sets: a catalogue, a checksummed loader and a downloader.

The catalogue (``catalogue.json``, installed with the package) lists each set's size, its
reference partitions, the sha256 and size of every file and where the public, versioned
copy lives (the clustering-benchmarks suite v1.1.0). Files are looked up, in order, in

1. the folder named by the ``CLUVAL_DATA_DIR`` environment variable (``BATTERY/NAME.KIND.gz``),
   which is only ever read: a file there that fails its checksum is reported with a
   :class:`CluvalWarning` and skipped in favour of a good copy;
2. the download cache: the folder named by ``CLUVAL_CACHE_DIR``, else the user's cache
   folder (``pooch.os_cache("cluval")``: ``~/.cache/cluval`` on Linux,
   ``~/Library/Caches/cluval`` on macOS, ``%LOCALAPPDATA%\\cluval\\Cache`` on Windows);
   a cached file that fails its checksum is downloaded again;
3. the public source (or ``CLUVAL_DATA_URL``), downloaded with ``pooch`` into the cache:
   checked against its sha256, retried on network errors, refused beyond the size the
   catalogue records, and abandoned after an overall deadline.

The cache folder is created only when a file is downloaded, so everything works from
``CLUVAL_DATA_DIR`` with a read-only installation and home folder. The data files are never
part of the repository.
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import importlib.resources
import io
import json
import logging
import os
import re
import time
import warnings
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np
import pooch
import requests
import urllib3

from ..core.places import cache_dir  # the download cache (``datasets.cache_dir()``)
from ..core.validation import CluvalError, CluvalWarning

__all__ = ["Dataset", "catalogue", "dataset_names", "load_dataset", "fetch_dataset", "verify_datasets",
           "locate", "cache_dir", "DatasetUnavailable", "available_datasets"]

ALIASES = {"aggregate": "aggregation"}
Progress = Callable[[float, str], None]

DOWNLOAD_TIMEOUT = 30.0     # seconds to connect, and between two packets of a response
DOWNLOAD_DEADLINE = 300.0   # seconds for all the files of one set, retries included
DOWNLOAD_RETRIES = 2        # further attempts after a network error or a checksum mismatch
MAX_DOWNLOAD_BYTES = 64 * 2**20  # per file, when the catalogue does not record its size


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
    """The parsed catalogue (suite, url template, and one entry per data set).

    >>> catalogue()["datasets"]["s1"]["battery"], catalogue()["suite"]
    ('sipu', 'clustering-benchmarks v1.1.0')
    """
    resource = importlib.resources.files(__package__).joinpath("catalogue.json")
    try:
        return json.loads(resource.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CluvalError(f"the data set catalogue is missing from this installation ({resource}); reinstall "
                          "cluval") from None


def dataset_names() -> list[str]:
    return list(catalogue()["datasets"])


def _entry(name: str) -> tuple[str, dict]:
    """The catalogue's key and entry of a set's name (any case; a path-like name such as
    ``Path("s1")`` is its text)."""
    if isinstance(name, os.PathLike):
        name = os.fspath(name)
    if not isinstance(name, str):
        raise CluvalError(f"a data set is named by text, got {name!r}; known sets: {', '.join(dataset_names())}")
    key = ALIASES.get(name.lower(), name.lower())
    try:
        return key, catalogue()["datasets"][key]
    except KeyError:
        raise CluvalError(f"unknown data set {name!r}; known sets: {', '.join(dataset_names())}") from None


@lru_cache(maxsize=256)
def _sha256_of(path: str, size: int, mtime_ns: int) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _sha256(path: Path) -> str:
    """The file's sha256, computed once per (path, size, modification time)."""
    info = path.stat()
    return _sha256_of(str(path), info.st_size, info.st_mtime_ns)


# A path part built from a name: letters, digits and . _ + - (never a separator, never "." or "..").
_SAFE_PART = re.compile(r"[A-Za-z0-9][A-Za-z0-9_+-]*(\.[A-Za-z0-9_+-]+)*")


def _relative(entry: dict, name: str, kind: str) -> str:
    """BATTERY/NAME.KIND.gz for one of the set's catalogued files, every part checked to stay
    inside the folder it is joined to."""
    if not isinstance(kind, str) or kind not in entry["sha256"]:
        raise CluvalError(f"the set {name!r} has no {kind!r} file; its files are {', '.join(entry['sha256'])}")
    for part in (entry["battery"], name, kind):
        if not isinstance(part, str) or not _SAFE_PART.fullmatch(part):
            raise CluvalError(f"the catalogue's entry for {name!r} names the path part {part!r}, which could lead "
                              "outside the data folder: it is refused")
    return f"{entry['battery']}/{name}.{kind}.gz"


def _url(entry: dict, name: str, kind: str) -> str:
    base = os.environ.get("CLUVAL_DATA_URL")
    if base:
        return f"{base.rstrip('/')}/{_relative(entry, name, kind)}"
    return catalogue()["url"].format(battery=entry["battery"], name=name, kind=kind)


def _find(key: str, entry: dict, kind: str) -> tuple[Path | None, list[tuple[str, Path]]]:
    """The first verified copy of one file, and the copies that failed their checksum.

    Each failed copy comes with where it was found: ``"CLUVAL_DATA_DIR"`` or ``"cache"``.
    """
    rel = _relative(entry, key, kind)
    places = []
    if os.environ.get("CLUVAL_DATA_DIR"):
        places.append(("CLUVAL_DATA_DIR", Path(os.environ["CLUVAL_DATA_DIR"]) / rel))
    places.append(("cache", cache_dir() / rel))
    corrupt = []
    for where, path in places:
        try:
            if not path.is_file():
                continue
            good = _sha256(path) == entry["sha256"][kind]
        except OSError:  # unreadable: as good as corrupt
            good = False
        if good:
            return path, corrupt
        corrupt.append((where, path))
    return None, corrupt


def locate(name: str, kind: str = "data") -> Path | None:
    """The verified local file of one set's part (``data``, ``labels0``, ...), or None.

    A file in ``CLUVAL_DATA_DIR`` that fails its checksum is reported with a
    :class:`CluvalWarning` and skipped; a corrupt file in the cache is ignored here and
    replaced by the next download.
    """
    key, entry = _entry(name)
    path, corrupt = _find(key, entry, kind)
    for where, bad in corrupt:
        if where == "CLUVAL_DATA_DIR":
            instead = f"using {path} instead" if path else "a good copy will be downloaded into the cache"
            warnings.warn(f"{bad} (in CLUVAL_DATA_DIR) is corrupt or truncated: its sha256 differs from the "
                          f"catalogue's. It is skipped; {instead}. Replace it with a good copy.",
                          CluvalWarning, stacklevel=2)
    return path


class _DownloadRefused(Exception):
    """A download that must not be retried: too large, too slow, or not on the server.

    Not a ValueError nor a network error, so pooch does not retry it.
    """


class _Downloader:
    """A pooch downloader: streams one URL within a size cap and an overall deadline.

    Network errors are raised as ``requests`` exceptions, which pooch retries; refusals
    (size, deadline, a missing file) as :class:`_DownloadRefused`, which it does not.
    """

    def __init__(self, max_bytes: int, timeout: float, deadline_at: float, progress: Progress | None):
        self.max_bytes, self.timeout, self.deadline_at, self.progress = max_bytes, timeout, deadline_at, progress

    def _remaining(self, url: str) -> float:
        remaining = self.deadline_at - time.monotonic()
        if remaining <= 0:
            raise _DownloadRefused(f"the download of {url} did not finish within the deadline")
        return remaining

    def __call__(self, url: str, output_file, pooch_instance=None, check_only: bool = False):
        wait = min(self.timeout, self._remaining(url))
        try:
            with requests.get(url, stream=True, timeout=(wait, wait)) as response:
                if response.status_code in (400, 401, 403, 404, 410):
                    raise _DownloadRefused(f"{url} answered {response.status_code} {response.reason}")
                response.raise_for_status()
                if check_only:
                    return True
                announced = int(response.headers.get("Content-Length") or 0)
                if announced > self.max_bytes and "Content-Encoding" not in response.headers:
                    raise _DownloadRefused(f"{url} is {announced:,} bytes, more than the {self.max_bytes:,} "
                                           "expected: refused")
                done = 0
                read = getattr(response.raw, "read1", response.raw.read)  # read1: whatever has arrived (urllib3 2)
                with open(output_file, "wb") as out:
                    while True:
                        block = read(1 << 16, decode_content=True)
                        if not block:
                            break
                        done += len(block)
                        if done > self.max_bytes:
                            raise _DownloadRefused(f"{url} sent more than the {self.max_bytes:,} bytes expected: "
                                                   "refused")
                        out.write(block)
                        self._remaining(url)
                        if self.progress is not None:
                            total = announced or self.max_bytes
                            self.progress(min(done / total, 1.0), f"{url.rsplit('/', 1)[-1]}: {done / 1e6:.1f} MB")
        except urllib3.exceptions.HTTPError as exc:  # a broken connection while streaming: retried
            raise requests.exceptions.ConnectionError(f"connection broken ({exc})") from None
        if announced and done != announced and "Content-Encoding" not in response.headers:
            raise requests.exceptions.ConnectionError(f"truncated: {done:,} of {announced:,} bytes")
        return None


@contextmanager
def _quiet(logger: logging.Logger):
    """Silence pooch's own progress messages: cluval reports progress itself."""
    level = logger.level
    logger.setLevel(logging.WARNING)
    try:
        yield
    finally:
        logger.setLevel(level)


def _download(key: str, entry: dict, kind: str, progress: Progress | None, timeout: float,
              deadline_at: float) -> Path:
    rel = _relative(entry, key, kind)
    url = _url(entry, key, kind)
    cache = cache_dir()
    fetcher = pooch.create(path=cache, base_url="", registry={rel: f"sha256:{entry['sha256'][kind]}"},
                           urls={rel: url}, retry_if_failed=DOWNLOAD_RETRIES)
    max_bytes = entry.get("bytes", {}).get(kind, MAX_DOWNLOAD_BYTES)
    downloader = _Downloader(max_bytes, timeout, deadline_at, progress)
    offline = (f"Either set CLUVAL_DATA_DIR to a folder holding the clustering-benchmarks files ({rel}), or "
               f"connect to the internet and retry ('cluval datasets fetch {key}').")
    new_folders = [folder for folder in (cache / rel).parents if not folder.exists()]  # deepest first
    try:
        with _quiet(pooch.get_logger()):
            return Path(fetcher.fetch(rel, downloader=downloader))
    except _DownloadRefused as exc:
        raise DatasetUnavailable(f"data set {key!r} is not available offline and could not be downloaded: {exc}. "
                                 f"{offline}") from None
    except requests.exceptions.RequestException as exc:
        inner = exc.args[0] if exc.args else exc
        reason = getattr(inner, "reason", None) or inner  # urllib3's cause, without its retry wrapper
        raise DatasetUnavailable(f"data set {key!r} is not available offline and could not be downloaded from "
                                 f"{url} ({reason}). {offline}") from None
    except ValueError as exc:  # pooch: the downloaded file's hash differs
        raise CluvalError(f"the download of {url} does not match its sha256 checksum, even after "
                          f"{DOWNLOAD_RETRIES} retries: the file was not kept ({str(exc).splitlines()[0]})") from None
    except OSError as exc:
        raise DatasetUnavailable(f"data set {key!r} cannot be stored in the download cache {cache} "
                                 f"({exc.strerror or exc}). Set CLUVAL_CACHE_DIR to a writable folder, or "
                                 f"CLUVAL_DATA_DIR to a folder holding the files ({rel}).") from None
    finally:
        for folder in new_folders:  # a failed download leaves no empty folder behind
            with contextlib.suppress(OSError):
                folder.rmdir()  # only an empty one: a downloaded file keeps its folder


def fetch_dataset(name: str, *, progress: Progress | None = None, timeout: float = DOWNLOAD_TIMEOUT,
                  deadline: float = DOWNLOAD_DEADLINE) -> dict[str, Path]:
    """Make every file of a set available locally (downloading what is missing); return their paths.

    `timeout` bounds each wait for the server (seconds); `deadline` bounds the whole call,
    every file and retry included.
    """
    key, entry = _entry(name)
    deadline_at = time.monotonic() + deadline
    paths = {}
    kinds = list(entry["sha256"])
    for i, kind in enumerate(kinds):
        path = locate(key, kind)
        if path is None:
            def report(fraction, message, i=i):
                if progress is not None:
                    progress((i + fraction) / len(kinds), message)

            path = _download(key, entry, kind, report, timeout, deadline_at)
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


def _status(key: str, entry: dict) -> tuple[bool, list[str]]:
    """Whether every file of a set has a verified copy, and a description of each corrupt copy."""
    complete, problems = True, []
    for kind in entry["sha256"]:
        path, corrupt = _find(key, entry, kind)
        complete &= path is not None
        problems += [f"{bad} is corrupt or truncated ({where}: sha256 differs from the catalogue's)"
                     for where, bad in corrupt]
    return complete, problems


def verify_datasets(names=None) -> dict[str, str]:
    """Check every local file against the catalogue: ``{name: "ok" | "missing" | what is corrupt}``.

    A set with a corrupt file is reported even when a good copy exists elsewhere (then the
    message says the good copy is used). Nothing is downloaded and nothing is written.
    """
    report = {}
    if isinstance(names, (str, os.PathLike)):
        names = [names]  # one name, not its letters
    for name in names or dataset_names():
        key, entry = _entry(name)
        complete, problems = _status(key, entry)
        if problems:
            what = "a good copy is used instead" if complete else f"fetch it again with 'cluval datasets fetch {key}'"
            report[key] = "; ".join(problems) + f"; {what}"
        else:
            report[key] = "ok" if complete else "missing"
    return report


def available_datasets() -> list[str]:
    """Names of the sets whose every file has a verified local copy (nothing is downloaded)."""
    return [key for key, entry in catalogue()["datasets"].items() if _status(key, entry)[0]]
