"""The ``cluval`` command line::

    cluval app                              start the Streamlit app (from a checkout, with cluval[app])
    cluval datasets list                    the catalogue, and which sets are available here
    cluval datasets fetch [NAME ...]        download (and verify) sets into the cache
    cluval datasets verify                  check every local file against its checksum
    cluval compare PATH --true COL --pred COL [--json] [--memory-budget SIZE] [--scheduler ADDRESS]
                                            every index for two label columns of a CSV/Parquet file
                                            or a folder of them
    cluval paired PATH --true COL --a COL --b COL [--indices ID,...] [--bootstrap N]
                  [--permutations N] [--level L] [--seed S] [--json]
                                            is candidate A closer to the reference than candidate B?
                                            each index's difference, its paired jackknife and bootstrap
                                            intervals and a permutation test, with what they show
    cluval experiments list                 the papers' tables and figures cluval reproduces
    cluval experiments run NAME [--full] --out DIR
                                            run one (or "all"): CSV of values and checks, HTML figure
    cluval disagreement [--full] [--indices ID,...] --out DIR
                                            where the indices disagree on the benchmark sets: CSVs of
                                            the scores, the disagreement matrix and the rankings, HTML
    cluval atlas [--having PROP,...] [--out FILE.csv]
                                            the property atlas kept with cluval: which index has which
                                            property (proved, holds on every case tried, or fails)
    cluval atlas --search [--tries N] [--seed S] [--out FILE.json]
                                            search for counterexamples afresh; report what differs from
                                            the kept atlas (exit 1 if a proved claim is contradicted)

``compare`` reads a file in memory when it fits the memory budget (default 1GB); a larger one,
or a folder whose files do not each fit, is read out of core in blocks through Dask (the
``cluval[dask]`` extra), on this machine's threads or, with ``--scheduler``, on a running Dask
cluster (whose workers must see the same paths). The files of a folder (all CSV or all
Parquet) follow each other in natural name order (part.2 before part.10).

Exit status, the same for every command: 0 on success; 1 when the command ran and found
something to report (``datasets verify``: a corrupt file; ``experiments run``: a claim that
differs from the paper); 2 when it could not do what was asked (bad input, a set that could
not be fetched, data missing offline), said in one line on stderr (never a traceback); 130
when interrupted; 141 when the reader of the output went away (``cluval compare ... | head``),
silently, as for any program killed by a broken pipe.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import os
import re
import sys
import time
import warnings
from fractions import Fraction
from pathlib import Path

import pandas as pd

from .._version import __version__
from ..core.chunks import compare_chunks
from ..core.labels import compare
from ..core.paired import NULL, compare_paired
from ..core.registry import INDICES
from ..core.validation import CluvalError
from ..data import datasets
from ..data.userdata import (
    ACCEPTED,
    csv_label_chunks,
    dask_label_columns,
    fits_in_memory,
    is_parquet,
    label_column,
    quoted_line_break,
    read_table,
    table_files,
)
from ..experiments import EXPERIMENTS, WITHIN, run_experiment
from ..experiments.disagreement import FULL, REDUCED, battery_scores, disagreement, ranked_pairs, rankings
from ..indices import properties
from .export import to_json
from .plots.disagreement import critical_difference_diagram, disagreement_heatmap

DEFAULT_MEMORY_BUDGET = "1GB"
DASK_EXTRA = 'python -m pip install "cluval[dask]"'
SCHEDULER_TIMEOUT = "10s"  # to connect to a --scheduler
# Memory per byte of a CSV block read out of core, so that the blocks read at once by every
# thread fit the budget (measured: about 16 for two columns of short labels; the rest is room
# for longer labels and the allocator's slack).
_BLOCK_EXPANSION = 50
_MIN_BLOCK = 1 << 18
_UNITS = {"": 1, "b": 1, "kb": 10**3, "mb": 10**6, "gb": 10**9, "tb": 10**12,
          "kib": 2**10, "mib": 2**20, "gib": 2**30, "tib": 2**40}
APP_HELP = ('the app runs from a checkout of the cluval repository: clone it, then run '
            'python -m pip install -e ".[app]" && python -m streamlit run app.py')


def _progress_bar(fraction: float, message: str) -> None:
    width = 30
    filled = int(round(fraction * width))
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {fraction:6.1%} {message[:50]:<50}")
    if fraction >= 1:
        sys.stderr.write("\n")
    sys.stderr.flush()


def _datasets(args) -> int:

    if args.action == "list":
        status = datasets.verify_datasets()
        print(f"{'name':<12} {'n':>7} {'d':>3} {'k':>4}  {'status':<8} description")
        for name, entry in datasets.catalogue()["datasets"].items():
            state = status[name] if status[name] in ("ok", "missing") else "CORRUPT"
            print(f"{name:<12} {entry['n']:>7} {entry['d']:>3} {entry['k']:>4}  {state:<8} {entry['description']}")
        data_dir = os.environ.get("CLUVAL_DATA_DIR") or "unset"
        print(f"Files are read from CLUVAL_DATA_DIR ({data_dir}), then the download cache ({datasets.cache_dir()}).")
        return 0
    if args.action == "verify":
        failures = 0
        for name, state in datasets.verify_datasets(args.names or None).items():
            print(f"{name:<12} {state}")
            failures += state not in ("ok", "missing")
        return 1 if failures else 0
    names = args.names or datasets.dataset_names()
    failed = 0
    for name in names:
        try:
            paths = datasets.fetch_dataset(name, progress=_progress_bar)
            print(f"{name}: {paths['data'].parent}")
        except CluvalError as exc:
            print(f"\n{name}: {exc}", file=sys.stderr)
            failed += 1
    return 2 if failed else 0  # a set that could not be fetched: the command could not do what was asked


def byte_size(text: str, name: str = "--memory-budget") -> int:
    """A size such as ``1GB``, ``512MiB`` or ``2e9`` in bytes (kB, MB, GB, TB are powers of
    1000; KiB, MiB, GiB, TiB powers of 1024).

    >>> byte_size("1GB"), byte_size("512 MiB"), byte_size("2e9")
    (1000000000, 536870912, 2000000000)
    """
    match = re.fullmatch(r"\s*(\d+(?:\.\d*)?|\.\d+)(?:[eE](\d+))?\s*([A-Za-z]*)\s*", text)
    unit = match.group(3).lower() if match else ""
    if not match or unit not in _UNITS:
        raise CluvalError(f"{name} must be a size such as 1GB, 512MB or 2GiB, got {text!r}")
    value = Fraction(match.group(1)) * 10 ** int(match.group(2) or 0) * _UNITS[unit]  # exact: 1e400 is no overflow
    if value < 1:
        raise CluvalError(f"{name} must be at least one byte, got {text!r}")
    if value >= 2**63:
        raise CluvalError(f"{name} must be less than 2**63 bytes (about 9.2 EB), got {text!r}")
    return int(value)


def _size_text(n: int) -> str:
    if n >= 10**9:
        return f"{n / 10**9:.3g} GB"
    return f"{n / 10**6:.3g} MB" if n >= 10**6 else f"{n:,} bytes"


def _file_labels(path, args, in_folder: bool = False):
    """One file's two label columns, read in memory; a folder's file is named in errors."""
    frame = read_table(path)
    try:
        return label_column(frame, args.true)[0], label_column(frame, args.pred)[0]
    except CluvalError as exc:
        if not in_folder:
            raise
        raise CluvalError(f"{path}: {exc}") from None


def _comparison_of_path(args):
    """The comparison of the two label columns of a file or folder, in memory or out of core."""
    budget = byte_size(args.memory_budget)
    files = table_files(args.file)
    if args.scheduler is None and all(fits_in_memory(path, budget) for path in files):
        if len(files) == 1:
            return compare(*_file_labels(files[0], args))
        return compare_chunks(_file_labels(path, args, in_folder=True) for path in files)
    csv_files = [path for path in files if not is_parquet(path)]
    if any(quoted_line_break(path) for path in csv_files):
        # quoted fields span lines: the file cannot be cut into blocks, so it is read in order
        if args.scheduler is not None:
            print(f"cluval: {args.file} has line breaks inside quoted fields, so it is read here in order, not by "
                  "the Dask scheduler", file=sys.stderr)
        rows = max(1000, byte_size(args.memory_budget) // (_BLOCK_EXPANSION * 64))
        return compare_chunks(csv_label_chunks(files, args.true, args.pred, rows=rows))
    try:
        import dask
    except ImportError:
        why = "--scheduler uses" if args.scheduler else (f"{args.file} needs more memory than --memory-budget "
                                                         f"({_size_text(budget)}) and is read out of core with")
        raise CluvalError(f"{why} Dask, which is not installed: {DASK_EXTRA}") from None
    from pyarrow import ArrowException

    blocksize = max(_MIN_BLOCK, budget // (_BLOCK_EXPANSION * (os.cpu_count() or 1)))
    try:
        labels_true, labels_pred = dask_label_columns(files, args.true, args.pred, blocksize=blocksize)
        if args.scheduler is None:
            with dask.config.set(scheduler="threads"):
                return compare(labels_true, labels_pred)
        with _dask_client(args.scheduler):
            return compare(labels_true, labels_pred)
    except UnicodeDecodeError as exc:
        raise CluvalError(f"{args.file} is not UTF-8 text (byte 0x{exc.object[exc.start]:02x} cannot be decoded): "
                          "save it as UTF-8 (in a spreadsheet: 'CSV UTF-8')") from None
    except pd.errors.ParserError as exc:
        raise CluvalError(f"{args.file} could not be read as CSV ({_first_line(exc)}): check that every row has the "
                          "same number of fields") from None
    except ArrowException as exc:
        raise CluvalError(f"{args.file} could not be read ({_first_line(exc)}): give {ACCEPTED}, or a folder of "
                          "them") from None


def _first_line(exc: Exception) -> str:
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__


def _dask_client(address: str):
    """A ``distributed.Client`` of the Dask scheduler at `address` (closed by its ``with``)."""
    try:
        from distributed import Client
    except ImportError:
        raise CluvalError(f"--scheduler needs dask.distributed, which is not installed: {DASK_EXTRA}") from None
    try:
        return Client(address, timeout=SCHEDULER_TIMEOUT)
    except (OSError, TimeoutError, ValueError) as exc:
        raise CluvalError(f"cannot connect to the Dask scheduler at {address} ({_first_line(exc)}): start one (dask "
                          "scheduler) or leave out --scheduler") from None


def _compare(args) -> int:

    scores = _comparison_of_path(args).scores()
    if args.json:
        print(to_json(scores))
    else:
        name_width = max(len(INDICES[i].name) for i in scores)
        id_width = max(len(i) for i in scores)
        for index_id, value in scores.items():
            print(f"{INDICES[index_id].name:<{name_width}}  {index_id:<{id_width}}  {value:.6g}")
    return 0


def _paired(args) -> int:
    frame = read_table(args.file)
    labels = [label_column(frame, column)[0] for column in (args.true, args.a, args.b)]
    ids = [i.strip() for i in args.indices.split(",") if i.strip()] if args.indices else None
    paired = compare_paired(*labels, ids, n_bootstrap=args.bootstrap, n_permutations=args.permutations,
                            level=args.level, seed=args.seed, names=(args.a, args.b), budget=math.inf,
                            progress=None if args.json else lambda done, total: _progress_bar(
                                done / total, f"resamples and permutations ({done:,} of {total:,})"))
    if args.json:
        rows = paired.table.reset_index().to_dict(orient="records")
        print(to_json({"n": paired.n, "level": paired.level, "a": args.a, "b": args.b, "null": NULL,
                       "indices": [{**row, "sentence": paired.sentence(row["index"])} for row in rows]}))
        return 0
    print(f"{paired.n:,} objects; A = {args.a}, B = {args.b}, reference {args.true}; {100 * paired.level:g} % "
          f"intervals; {args.bootstrap:,} resamples, {args.permutations:,} permutations")
    shown = paired.table.copy()
    for column in shown.columns:
        if column != "closer":
            shown[column] = [f"{value:.4g}" for value in shown[column]]
    print(shown.to_string())
    print()
    for index_id in paired.table.index:
        print(paired.sentence(index_id))
    print(f"\nThe permutation test's null hypothesis: {NULL}.")
    return 0


def _duration(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 90 else f"{seconds / 60:.0f} min"


# The files one experiment writes, and the list in the output folder of the files cluval wrote there.
_RESULT_FILES = (".csv", "_checks.csv", ".html")
_WRITTEN = ".cluval-written"


def _written_before(out: Path) -> set[str]:
    try:
        return set((out / _WRITTEN).read_text(encoding="utf-8").split("\n")) - {""}
    except OSError:
        return set()


def _record_written(out: Path, names: list[str]) -> None:
    """Add `names` to the folder's list of the files cluval wrote (before writing them)."""
    listed = sorted(_written_before(out) | set(names))
    (out / _WRITTEN).write_text("\n".join(listed) + "\n", encoding="utf-8")


def _experiments(args) -> int:


    if args.action == "list":
        print(f"{'name':<22} {'full run':>9}  title (reduced form: what the default run leaves out)")
        for e in EXPERIMENTS.values():
            needs = f"; data: {', '.join(e.datasets)}" if e.datasets else ""
            print(f"{e.name:<22} {_duration(e.full_seconds):>9}  {e.title} (reduced: {e.reduced}{needs})")
        print("Full-run (--full) times were measured on a 2-core machine; the reduced forms take seconds.")
        return 0
    if not args.name:
        raise CluvalError("name the experiment to run (or 'all'); see 'cluval experiments list'")
    if args.name != "all" and args.name not in EXPERIMENTS:
        raise CluvalError(f"unknown experiment {args.name!r}; known: all, {', '.join(EXPERIMENTS)}")
    names = list(EXPERIMENTS) if args.name == "all" else [args.name]
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise CluvalError(f"--out {out} is an existing file, not a folder: give a folder for the CSV and HTML "
                          "results (it is created if missing)")
    written = _written_before(out)
    targets = [out / f"{name}{ending}" for name in names for ending in _RESULT_FILES]
    foreign = [path.name for path in targets if path.exists() and path.name not in written]
    if foreign and not args.force:
        raise CluvalError(f"--out {out} holds {', '.join(foreign[:3])}{' ...' if len(foreign) > 3 else ''}, which "
                          "cluval did not write: choose another folder, or pass --force to replace them")
    out.mkdir(parents=True, exist_ok=True)
    differs = 0
    for name in names:
        start = time.perf_counter()
        result = run_experiment(name, full=args.full, progress=_progress_bar)
        seconds = time.perf_counter() - start
        _record_written(out, [f"{name}{ending}" for ending in _RESULT_FILES])
        result.values.to_csv(out / f"{name}.csv", index=False)
        result.checks.to_csv(out / f"{name}_checks.csv", index=False)
        result.figure.write_html(out / f"{name}.html", include_plotlyjs="cdn")
        within = int((result.checks["verdict"] == WITHIN).sum())
        differs += len(result.checks) - within
        print(f"{name}: {within} of {len(result.checks)} claims within tolerance ({seconds:.1f} s) -> "
              f"{out / name}.csv, {name}_checks.csv, {name}.html")
        for _, row in result.checks[result.checks["verdict"] != WITHIN].iterrows():
            print(f"  differs: {row['claim']}: published {row['published']}, computed {row['computed']} "
                  f"(tolerance {row['tolerance']}). Likely reason: {row['likely reason']}")
        for note in result.notes:
            print(f"  note: {note}")
    if differs:
        print(f"{differs} claim(s) differ from the published values (exit status 1)")
    return 1 if differs else 0


_DISAGREEMENT_FILES = ("disagreement_scores.csv", "disagreement.csv", "disagreement_rankings.csv",
                       "disagreement.html")


def _disagreement(args) -> int:
    ids = [i.strip() for i in args.indices.split(",") if i.strip()] if args.indices else None
    battery = FULL if args.full else REDUCED
    missing = [name for name in battery.datasets if not datasets.locate(name)]
    if missing:
        raise CluvalError(f"the battery needs the data sets {', '.join(missing)}, not found here: run 'cluval "
                          "datasets fetch' or set CLUVAL_DATA_DIR")
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise CluvalError(f"--out {out} is an existing file, not a folder")
    written = _written_before(out)
    foreign = [name for name in _DISAGREEMENT_FILES if (out / name).exists() and name not in written]
    if foreign and not args.force:
        raise CluvalError(f"--out {out} holds {', '.join(foreign)}, which cluval did not write: choose another "
                          "folder, or pass --force to replace them")
    start = time.perf_counter()
    scores = battery_scores(battery, ids, progress=_progress_bar)
    ids = [c for c in scores.columns if c in INDICES]
    matrix = disagreement(scores, ids)
    ranked = {i: rankings(scores, i) for i in ids}
    out.mkdir(parents=True, exist_ok=True)
    _record_written(out, list(_DISAGREEMENT_FILES))
    scores.to_csv(out / "disagreement_scores.csv", index=False)
    matrix.to_csv(out / "disagreement.csv")
    rows = [{"index": i, "algorithm": algorithm, "mean rank": rank, "friedman": r.friedman, "p": r.p_value,
             "critical difference": r.critical_difference} for i, r in ranked.items()
            for algorithm, rank in r.mean_ranks.items()]
    pd.DataFrame(rows).to_csv(out / "disagreement_rankings.csv", index=False)
    shown = [i for i in ("ari", "ami", "nmi_sum", "nvd", "psi", "ci_partition") if i in ranked] or ids[:4]
    html = [disagreement_heatmap(matrix).to_html(full_html=False, include_plotlyjs="cdn")]
    html += [critical_difference_diagram(ranked[i]).to_html(full_html=False, include_plotlyjs=False) for i in shown]
    (out / "disagreement.html").write_text("<html><body>" + "".join(html) + "</body></html>", encoding="utf-8")
    worst = ranked_pairs(matrix)
    print(f"{len(scores)} clusterings of {len(battery.datasets)} sets by {len(battery.algorithms)} algorithms, "
          f"{len(ids)} indices ({time.perf_counter() - start:.1f} s) -> {out}")
    for (i, j), share in worst.head(3).items():
        print(f"  {i} and {j} order {share:.0%} of the pairs of clusterings the other way round")
    for i in shown:
        r = ranked[i]
        best = ", ".join(str(a) for a in r.mean_ranks.index[r.mean_ranks <= r.mean_ranks.iloc[0]])
        print(f"  {i}: best {best} (mean rank {r.mean_ranks.iloc[0]:.2f}; critical difference "
              f"{r.critical_difference:.2f}; Friedman p = {r.p_value:.2g})")
    return 0


def _atlas(args) -> int:
    wanted = [p.strip() for p in args.having.split(",") if p.strip()] if args.having else []
    for name in wanted:
        if name not in properties.PROPERTIES:
            raise CluvalError(f"unknown property {name!r}; the properties are {', '.join(properties.PROPERTIES)}")
    out = Path(args.out) if args.out else None
    if out is not None and out.is_dir():
        raise CluvalError(f"--out {out} is a folder; give a file name")
    if args.search:
        if wanted:
            raise CluvalError("--having lists the kept atlas's indices; it does not go with --search")
        if args.tries < 1:
            raise CluvalError(f"--tries must be at least 1, not {args.tries}")
        start = time.perf_counter()
        found = properties.build_atlas(tries=args.tries, seed=args.seed,
                                       progress=lambda done, total, name: _progress_bar(done / total, name))
        changed = properties.differences(properties._stored(), found)
        contradicted = [(i, p) for i, p in properties.PROVED if found["properties"][p][i]["counterexample"]]
        print(f"{len(properties.PROPERTIES)} properties x {len(INDICES)} indices, {args.tries} cases per size "
              f"({time.perf_counter() - start:.0f} s); {len(changed)} states differ from the kept atlas")
        for row in changed.itertuples():
            print(f"  {row.index} / {row.property}: {row.state_before} -> {row.state_after}")
        for i, p in contradicted:
            print(f"  a counterexample contradicts the proof that {i} has {p}")
        if out is not None:
            out.write_text(json.dumps(found, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
            print(f"-> {out}")
        return 1 if contradicted else 0
    if wanted:
        having = properties.filter_indices(wanted)
        print(f"{len(having)} indices have {' and '.join(wanted)}: {', '.join(having) or 'none'}")
        return 0
    if out is not None:
        properties.atlas().to_csv(out, index=False)
        print(f"-> {out}")
        return 0
    mark = {"proved": "P", "holds": "h", "fails": ".", "not searched": "?"}
    matrix = properties.atlas_matrix().replace(mark).rename(columns=properties.SHORT)
    print(matrix.to_string())
    print("P proved, h holds on every case tried, . fails (a counterexample is kept)")
    return 0


def _app(args) -> int:
    app = Path(__file__).resolve().parents[2] / "app.py"
    if not app.is_file():
        raise CluvalError(f"the app is not part of this installation ({app} does not exist); {APP_HELP}")
    if importlib.util.find_spec("streamlit") is None:
        raise CluvalError('the app needs Streamlit, which is not installed: run python -m pip install -e ".[app]" '
                          "in the checkout")
    os.chdir(app.parent)
    command = [sys.executable, "-m", "streamlit", "run", str(app), *args.streamlit_args]
    os.execv(sys.executable, command)  # the server replaces this process: stopping it stops everything


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cluval", description="External cluster validity: compare partitions.")
    parser.add_argument("--version", action="version", version=f"cluval {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    app = sub.add_parser("app", help="start the Streamlit app (other options go to 'streamlit run')")
    app.set_defaults(func=_app)
    ds = sub.add_parser("datasets", help="list, fetch or verify the benchmark data sets")
    ds.add_argument("action", choices=["list", "fetch", "verify"])
    ds.add_argument("names", nargs="*", default=[], help="data set names (default: all)")
    ds.set_defaults(func=_datasets)
    cmp_ = sub.add_parser("compare", help="every index for two label columns of a CSV or Parquet file, or of a "
                                          "folder of them")
    cmp_.add_argument("file", metavar="PATH", help="a CSV or Parquet file, or a folder of them (read in natural name "
                                                   "order)")
    cmp_.add_argument("--true", required=True, help="column of the reference labels")
    cmp_.add_argument("--pred", required=True, help="column of the candidate labels")
    cmp_.add_argument("--json", action="store_true", help="print strict JSON (an undefined index is null)")
    cmp_.add_argument("--memory-budget", default=DEFAULT_MEMORY_BUDGET, metavar="SIZE",
                      help="memory the data may take, e.g. 500MB or 4GB (default: %(default)s); a larger input is "
                           "read out of core through Dask")
    cmp_.add_argument("--scheduler", metavar="ADDRESS",
                      help="compute on the running Dask cluster at ADDRESS (e.g. tcp://10.0.0.5:8786); its workers "
                           "read the files at the same paths")
    cmp_.set_defaults(func=_compare)
    par = sub.add_parser("paired", help="is candidate A closer to the reference than candidate B? three label "
                                        "columns of a CSV or Parquet file")
    par.add_argument("file", metavar="PATH", help="a CSV or Parquet file")
    par.add_argument("--true", required=True, help="column of the reference labels")
    par.add_argument("--a", required=True, help="column of candidate A's labels")
    par.add_argument("--b", required=True, help="column of candidate B's labels")
    par.add_argument("--indices", metavar="ID,...", help="the index ids (default: the headline indices)")
    par.add_argument("--bootstrap", type=int, default=1000, help="paired resamples of the objects, 0 for none "
                                                                 "(default: %(default)s)")
    par.add_argument("--permutations", type=int, default=1000, help="random swaps of the two candidates' labels, 0 "
                                                                    "for none (default: %(default)s)")
    par.add_argument("--level", type=float, default=0.95, help="the intervals' coverage (default: %(default)s)")
    par.add_argument("--seed", type=int, default=0, help="seed of the resamples and swaps (default: %(default)s)")
    par.add_argument("--json", action="store_true", help="print strict JSON (an undefined value is null)")
    par.set_defaults(func=_paired)
    ex = sub.add_parser("experiments", help="reproduce the papers' tables and figures")
    ex.add_argument("action", choices=["list", "run"])
    ex.add_argument("name", nargs="?", help="experiment name, or 'all'")
    ex.add_argument("--full", action="store_true", help="the paper's full settings (see 'list' for the time)")
    ex.add_argument("--out", default="results", help="output folder (default: results); files that cluval did "
                                                     "not write there are never replaced")
    ex.add_argument("--force", action="store_true", help="replace files in --out that cluval did not write")
    ex.set_defaults(func=_experiments)
    dis = sub.add_parser("disagreement", help="where the indices disagree about which clustering is closer to the "
                                              "truth, on the benchmark sets")
    dis.add_argument("--full", action="store_true", help="every set and algorithm, three seeds (minutes; the default "
                                                         "takes seconds)")
    dis.add_argument("--indices", metavar="ID,...", help="the index ids to compare (default: every index)")
    dis.add_argument("--out", default="results", help="output folder (default: results); files that cluval did "
                                                      "not write there are never replaced")
    dis.add_argument("--force", action="store_true", help="replace files in --out that cluval did not write")
    dis.set_defaults(func=_disagreement)
    atl = sub.add_parser("atlas", help="which index has which property: the kept atlas, or a fresh search")
    atl.add_argument("--having", metavar="PROP,...", help="list the indices that have all these properties")
    atl.add_argument("--search", action="store_true", help="search for counterexamples afresh (about a minute per "
                                                           "50 tries)")
    atl.add_argument("--tries", type=int, default=200, help="cases per number of objects (default: %(default)s)")
    atl.add_argument("--seed", type=int, default=0, help="seed of the search (default: %(default)s)")
    atl.add_argument("--out", metavar="FILE", help="write the atlas: without --search the kept atlas as CSV (one "
                                                   "row per index and property); with --search the fresh one as "
                                                   "JSON, the form cluval keeps")
    atl.set_defaults(func=_atlas)
    return parser


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    print(f"cluval: warning: {message}", file=sys.stderr)


def main(argv=None) -> int:
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if args.command == "app":
        args.streamlit_args = extra
    elif extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    with warnings.catch_warnings():
        warnings.showwarning = _show_warning  # one line each, without the source line
        try:
            code = args.func(args)
            sys.stdout.flush()  # a reader that went away is found here, not at exit
            return code
        except BrokenPipeError:
            # the reader of our output closed it (| head): stop quietly, and let nothing flush again
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 141
        except (CluvalError, OSError) as exc:
            print(f"cluval: error: {exc}", file=sys.stderr)
            return 2
        except KeyboardInterrupt:
            print("cluval: interrupted", file=sys.stderr)
            return 130
        except Exception as exc:  # noqa: BLE001 - a bug: still one line, never a traceback
            detail = str(exc).splitlines()[0] if str(exc) else ""
            print(f"cluval: unexpected error ({type(exc).__name__}: {detail}); please report it", file=sys.stderr)
            return 2


if __name__ == "__main__":
    sys.exit(main())
