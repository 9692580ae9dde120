"""Time XGBoost's training (tree_method="hist") on one data set.

Usage: xgb_speed.py JOB_JSON
       xgb_speed.py --check

JOB_JSON is a JSON object with the keys file (a TSV file, gzipped or not,
with a header line and a `target` column), objective (treegen's name:
softmax, logistic or squarederror), rounds, max_depth, eta, lambda,
min_child_weight, max_bin, nthread, dmatrix ("quantile": an
xgboost.QuantileDMatrix, which quantises the features when it is built;
"plain": an xgboost.DMatrix, which xgboost.train quantises) and pred (a
path, or "" for none).

The script reads the file (pandas.read_csv when it can import pandas, with
"?" and pandas' usual markers as missing values; else numpy.loadtxt, which
takes no empty cells) as float32 features and float64 targets; numbers the
classes as data.Classes does (the distinct target values in ascending
order); builds the DMatrix with the base margins treegen starts from (the
mean target for squarederror, the log-odds of the fraction of the second
class for logistic, clipped to [1e-15, 1-1e-15], the log class priors for
softmax); trains with the objective reg:squarederror, binary:logistic or
multi:softprob; and prints one JSON object: {"load_seconds",
"dmatrix_seconds", "train_seconds": wall times of reading, of building the
DMatrix and of xgboost.train; "maxrss_kib": the peak resident set size
after training (VmHWM of /proc/self/status, KiB); "import_rss_kib" and
"load_rss_kib": the same before reading (the interpreter and its imports)
and after reading; "rounds"; "loader": "pandas" or "numpy"}. With pred set
it then writes the predictions of the training rows to that path: rows ×
outputs little-endian float64, row by row (the probability of the second
class for logistic, of every class for softmax, the prediction for
squarederror).

--check prints the versions of xgboost, Python, numpy and pandas ("" when
pandas cannot be imported) as JSON, and fails when xgboost cannot be
imported.

It is run by docs/gbdt-speed/main.go, which computes the training loss of
these predictions with the same code as treegen's; see docs/GBDT.md.
"""

import gzip
import json
import platform
import resource
import sys
import time

import numpy as np
import xgboost as xgb

try:
    import pandas as pd
except ImportError:
    pd = None

def peak_kib():
    """The peak resident set size of this process so far, in KiB.

    The VmHWM line of /proc/self/status is the high-water mark of this
    process's own memory since its exec. resource.getrusage's ru_maxrss, the
    fallback, is carried over an exec on Linux, and would include the peak
    of the parent that started this process.
    """
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def load(path):
    """Returns the float32 features, the float64 targets and the loader."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        header = [h.strip() for h in f.readline().rstrip("\r\n").split("\t")]
    t = header.index("target")
    if pd is not None:
        dtype = {h: np.float32 for h in header}
        dtype["target"] = np.float64
        df = pd.read_csv(path, sep="\t", header=0, names=header, dtype=dtype, na_values=["?"])
        y = df.pop("target").to_numpy()
        return df.to_numpy(dtype=np.float32), y, "pandas"
    a = np.loadtxt(path, delimiter="\t", skiprows=1, dtype=np.float64, ndmin=2)
    return np.delete(a, t, axis=1).astype(np.float32), a[:, t].copy(), "numpy"


def check():
    print(json.dumps({
        "xgboost": xgb.__version__,
        "python": platform.python_version(),
        "numpy": np.__version__,
        "pandas": pd.__version__ if pd is not None else "",
    }))


def main():
    if sys.argv[1:] == ["--check"]:
        check()
        return
    (job_json,) = sys.argv[1:]
    job = json.loads(job_json)
    import_rss = peak_kib()

    start = time.perf_counter()
    x, y, loader = load(job["file"])
    load_seconds = time.perf_counter() - start
    load_rss = peak_kib()

    n = len(y)
    obj = job["objective"]
    params = {
        "tree_method": "hist",
        "max_depth": job["max_depth"],
        "eta": job["eta"],
        "lambda": job["lambda"],
        "min_child_weight": job["min_child_weight"],
        "max_bin": job["max_bin"],
        "subsample": 1,
        "colsample_bytree": 1,
        "nthread": job["nthread"],
        "seed": 0,
        "verbosity": 0,
    }
    if obj == "squarederror":
        params["objective"] = "reg:squarederror"
        label = y
        margin = np.full(n, y.mean(), dtype=np.float32)
    else:
        labels, label = np.unique(y, return_inverse=True)
        counts = np.bincount(label, minlength=len(labels)).astype(np.float64)
        if obj == "logistic":
            if len(labels) != 2:
                sys.exit(f"xgb_speed.py: logistic needs 2 classes, found {len(labels)}")
            params["objective"] = "binary:logistic"
            q = min(max(counts[1] / n, 1e-15), 1 - 1e-15)
            margin = np.full(n, np.log(q / (1 - q)), dtype=np.float32)
        elif obj == "softmax":
            params["objective"] = "multi:softprob"
            params["num_class"] = len(labels)
            margin = np.tile(np.log(counts / n).astype(np.float32), (n, 1))
        else:
            sys.exit(f"xgb_speed.py: unknown objective {obj!r}")
        label = label.astype(np.float32)

    start = time.perf_counter()
    if job["dmatrix"] == "quantile":
        dtrain = xgb.QuantileDMatrix(x, label=label, base_margin=margin, missing=np.nan,
                                     max_bin=job["max_bin"], nthread=job["nthread"])
    else:
        dtrain = xgb.DMatrix(x, label=label, base_margin=margin, missing=np.nan,
                             nthread=job["nthread"])
    dmatrix_seconds = time.perf_counter() - start

    start = time.perf_counter()
    booster = xgb.train(params, dtrain, num_boost_round=job["rounds"])
    train_seconds = time.perf_counter() - start
    maxrss = peak_kib()

    if job["pred"]:
        pred = booster.inplace_predict(x, base_margin=margin)
        np.asarray(pred, dtype="<f8").reshape(-1).tofile(job["pred"])
    print(json.dumps({
        "load_seconds": load_seconds,
        "dmatrix_seconds": dmatrix_seconds,
        "train_seconds": train_seconds,
        "maxrss_kib": maxrss,
        "import_rss_kib": import_rss,
        "load_rss_kib": load_rss,
        "rounds": booster.num_boosted_rounds(),
        "loader": loader,
    }))


if __name__ == "__main__":
    main()
