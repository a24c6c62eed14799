"""The ``cluval`` command line.

    cluval app                              start the Streamlit app (from a checkout, with cluval[app])
    cluval datasets list                    the catalogue, and which sets are available here
    cluval datasets fetch [NAME ...]        download (and verify) sets into the cache
    cluval datasets verify                  check every local file against its checksum
    cluval compare FILE --true COL --pred COL [--json]
                                            every index for two label columns of a CSV/Parquet file
    cluval experiments list                 the papers' tables and figures cluval reproduces
    cluval experiments run NAME [--full] --out DIR
                                            run one (or "all"): CSV of values and checks, HTML figure

Exit status: 0 on success; 1 when ``datasets verify`` or ``datasets fetch`` finds a problem or
``experiments run`` computes a claim that differs from the paper; 2 on an error, reported
as one line on stderr (never a traceback).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
import warnings
from pathlib import Path

from ._validation import CluvalError

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
    from . import datasets

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
    return 1 if failed else 0


def _compare(args) -> int:
    from .comparison import compare
    from .export import to_json
    from .registry import INDICES
    from .userdata import label_column, read_table

    frame = read_table(args.file)
    labels_true, _ = label_column(frame, args.true)
    labels_pred, _ = label_column(frame, args.pred)
    scores = compare(labels_true, labels_pred).scores()
    if args.json:
        print(to_json(scores))
    else:
        for index_id, value in scores.items():
            print(f"{INDICES[index_id].name:<45} {index_id:<16} {value:.6g}")
    return 0


def _duration(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 90 else f"{seconds / 60:.0f} min"


def _experiments(args) -> int:
    import time

    from .experiments import EXPERIMENTS, WITHIN, run_experiment

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
    out.mkdir(parents=True, exist_ok=True)
    differs = 0
    for name in names:
        start = time.perf_counter()
        result = run_experiment(name, full=args.full, progress=_progress_bar)
        seconds = time.perf_counter() - start
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


def _app(args) -> int:
    app = Path(__file__).resolve().parents[1] / "app.py"
    if not app.is_file():
        raise CluvalError(f"the app is not part of this installation ({app} does not exist); {APP_HELP}")
    if importlib.util.find_spec("streamlit") is None:
        raise CluvalError('the app needs Streamlit, which is not installed: run python -m pip install -e ".[app]" '
                          "in the checkout")
    return subprocess.call([sys.executable, "-m", "streamlit", "run", str(app), *args.streamlit_args],
                           cwd=app.parent)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cluval", description="External cluster validity: compare partitions.")
    sub = parser.add_subparsers(dest="command", required=True)
    app = sub.add_parser("app", help="start the Streamlit app (other options go to 'streamlit run')")
    app.set_defaults(func=_app)
    ds = sub.add_parser("datasets", help="list, fetch or verify the benchmark data sets")
    ds.add_argument("action", choices=["list", "fetch", "verify"])
    ds.add_argument("names", nargs="*", help="data set names (default: all)")
    ds.set_defaults(func=_datasets)
    cmp_ = sub.add_parser("compare", help="every index for two label columns of a CSV or Parquet file")
    cmp_.add_argument("file")
    cmp_.add_argument("--true", required=True, help="column of the reference labels")
    cmp_.add_argument("--pred", required=True, help="column of the candidate labels")
    cmp_.add_argument("--json", action="store_true", help="print strict JSON (an undefined index is null)")
    cmp_.set_defaults(func=_compare)
    ex = sub.add_parser("experiments", help="reproduce the papers' tables and figures")
    ex.add_argument("action", choices=["list", "run"])
    ex.add_argument("name", nargs="?", help="experiment name, or 'all'")
    ex.add_argument("--full", action="store_true", help="the paper's full settings (see 'list' for the time)")
    ex.add_argument("--out", default="results", help="output folder (default: results)")
    ex.set_defaults(func=_experiments)
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
            return args.func(args)
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
