"""Rebuild the data set catalogue from a local copy of the clustering-benchmarks files.

    python datasets/build_catalogue.py /path/to/clustering-data-v1

Reads each set's points and label files to record n, d and k, takes the checksums from the
folder's ``SHA256SUMS`` (and checks them), the size of every file, and the citation from the
set's ``.txt``. It writes ``cluval_core/data/catalogue.json``, the copy installed with the package
(read with ``importlib.resources``). The data files themselves are never copied into the
repository.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import re
import sys
from pathlib import Path

import numpy as np

SUITE = "clustering-benchmarks v1.1.0"
URL = "https://github.com/gagolews/clustering-data-v1/raw/v1.1.0/{battery}/{name}.{kind}.gz"
SUITE_CITATION = ("Gagolewski M., A framework for benchmarking clustering algorithms, SoftwareX 20:101270, "
                  "2022. DOI: 10.1016/j.softx.2022.101270")

# name: (battery, display title, one-line description)
SETS = {
    "s1": ("sipu", "S1", "15 Gaussian clusters in 2-D, little overlap (the S sets increase the overlap)."),
    "s2": ("sipu", "S2", "15 Gaussian clusters in 2-D, moderate overlap."),
    "s3": ("sipu", "S3", "15 Gaussian clusters in 2-D, strong overlap."),
    "s4": ("sipu", "S4", "15 Gaussian clusters in 2-D, very strong overlap."),
    "unbalance": ("sipu", "Unbalance", "Three dense clusters of 2000 points and five sparse clusters of 100: "
                  "the PSI paper's imbalance test."),
    "aggregation": ("sipu", "Aggregate", "Seven clusters of different shapes and sizes, some touching."),
    "compound": ("sipu", "Compound", "Six clusters of arbitrary shape: nested, touching and of varying density."),
    "birch2": ("sipu", "Birch2", "100 000 points in 100 Gaussian clusters along a sine curve."),
    "a1": ("sipu", "A1", "20 Gaussian clusters in 2-D (the A sets add clusters: 20, 35, 50)."),
    "a2": ("sipu", "A2", "35 Gaussian clusters in 2-D."),
    "a3": ("sipu", "A3", "50 Gaussian clusters in 2-D."),
    "d31": ("sipu", "D31", "31 Gaussian clusters in 2-D, slightly overlapping."),
    "r15": ("sipu", "R15", "15 Gaussian clusters in 2-D: eight around a centre, seven further out."),
    "flame": ("sipu", "Flame", "Two clusters of different shape and density with a few outliers."),
    "jain": ("sipu", "Jain", "Two crescent-shaped clusters of different density."),
    "pathbased": ("sipu", "Pathbased", "Three clusters, one a ring around the other two."),
    "spiral": ("sipu", "Spiral", "Three intertwined spirals."),
    "yeast": ("uci", "Yeast", "Protein localisation sites: 8 features, 10 very imbalanced classes."),
    "wine": ("uci", "Wine", "Chemical analysis of Italian wines: 13 features, 3 cultivars."),
    "ecoli": ("uci", "Ecoli", "Protein localisation sites in E. coli: 7 features, 8 imbalanced classes."),
    "glass": ("uci", "Glass", "Glass identification: 9 features, 6 classes."),
    "iris": ("other", "Iris", "Fisher's iris flowers: 4 features, 3 species."),
}


def _citation(txt: str) -> str:
    match = re.search(r"Source:\s*(.+?)(?:\n\s*\n)", txt, re.S)
    if not match:
        match = re.search(r"Please cite as:\s*(.+?)(?:\n\s*\n|\Z)", txt, re.S)
    text = match.group(1) if match else txt.strip().split("\n\n")[0]
    return " ".join(text.split())


def build(mirror: Path) -> dict:
    sums = {}
    for line in (mirror / "SHA256SUMS").read_text().splitlines():
        digest, path = line.split()
        sums[path.removeprefix("./")] = digest
    catalogue = {"suite": SUITE, "url": URL, "suite_citation": SUITE_CITATION, "datasets": {}}
    for name, (battery, title, description) in SETS.items():
        files, sizes = {}, {}
        data_path = f"{battery}/{name}.data.gz"
        files["data"] = sums[data_path]
        with gzip.open(mirror / data_path, "rt") as fh:
            points = np.loadtxt(fh, ndmin=2)
        partitions = {}
        i = 0
        while f"{battery}/{name}.labels{i}.gz" in sums:
            kind = f"labels{i}"
            files[kind] = sums[f"{battery}/{name}.{kind}.gz"]
            with gzip.open(mirror / f"{battery}/{name}.{kind}.gz", "rt") as fh:
                labels = np.loadtxt(fh, dtype=np.int64)
            partitions[kind] = {"k": int(len(np.unique(labels[labels > 0]))), "noise": int((labels == 0).sum())}
            i += 1
        for kind, digest in files.items():
            content = (mirror / f"{battery}/{name}.{kind}.gz").read_bytes()
            if hashlib.sha256(content).hexdigest() != digest:
                raise SystemExit(f"{battery}/{name}.{kind}.gz does not match SHA256SUMS")
            sizes[kind] = len(content)
        catalogue["datasets"][name] = {
            "title": title, "battery": battery, "n": int(points.shape[0]), "d": int(points.shape[1]),
            "k": partitions["labels0"]["k"], "partitions": partitions, "description": description,
            "citation": _citation((mirror / f"{battery}/{name}.txt").read_text()),
            "sha256": files, "bytes": sizes,
        }
    return catalogue


if __name__ == "__main__":
    mirror = Path(sys.argv[1] if len(sys.argv) > 1 else "../shared/datasets")
    out = Path(__file__).resolve().parents[1] / "cluval_core" / "data" / "catalogue.json"
    out.write_text(json.dumps(build(mirror), indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {out}")
