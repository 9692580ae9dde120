"""Train XGBoost (tree_method="hist") on given rows of a PMLB data set.

Usage: xgb_train.py DATA.tsv.gz TRAIN_ROWS TEST_ROWS OUT_PROBS PARAMS_JSON

DATA.tsv.gz is a gzipped TSV file with a header line and a `target` column;
TRAIN_ROWS and TEST_ROWS hold 0-based data row indices, one per line.
PARAMS_JSON is a JSON object with the keys rounds, max_depth, eta, lambda,
min_child_weight, max_bin, subsample, colsample_bytree, nthread and seed.
The classes are the distinct target values in ascending order (as
data.Classes numbers them); two classes train binary:logistic, more
multi:softprob. The script writes the test rows' class probabilities to
OUT_PROBS, one row per line, one column per class (for two classes: 1-p, p),
each value as the hexadecimal bits of a float64, and prints one JSON object:
{"fit_seconds": wall time of xgboost.train, "xgboost": version, "trees": n}.

It is run by docs/gbdt-vs-xgboost/main.go, which computes the AUC of these
probabilities with the same code as treegen's; see docs/GBDT.md.
"""

import csv
import gzip
import json
import struct
import sys
import time

import numpy as np
import xgboost as xgb

MISSING = {"", "NA", "na", "?", "nan", "NaN", "NAN"}


def load(path):
    with gzip.open(path, "rt", newline="") as f:
        reader = csv.reader(f, delimiter="\t")
        header = [h.strip() for h in next(reader)]
        t = header.index("target")
        xs, ys = [], []
        for row in reader:
            if not row:
                continue
            vals = [float("nan") if c.strip() in MISSING else float(c) for c in row]
            ys.append(vals[t])
            xs.append(vals[:t] + vals[t + 1:])
    return np.array(xs, dtype=np.float64), np.array(ys, dtype=np.float64)


def rows(path):
    with open(path) as f:
        return np.array([int(line) for line in f if line.strip()], dtype=np.int64)


def hexbits(v):
    return format(struct.unpack("<Q", struct.pack("<d", float(v)))[0], "x")


def main():
    data, train_path, test_path, out_path, params_json = sys.argv[1:6]
    p = json.loads(params_json)
    x, y = load(data)
    labels = np.unique(y)
    cls = np.searchsorted(labels, y)
    train, test = rows(train_path), rows(test_path)
    k = len(labels)
    params = {
        "tree_method": "hist",
        "max_depth": p["max_depth"],
        "eta": p["eta"],
        "lambda": p["lambda"],
        "min_child_weight": p["min_child_weight"],
        "max_bin": p["max_bin"],
        "subsample": p["subsample"],
        "colsample_bytree": p["colsample_bytree"],
        "nthread": p["nthread"],
        "seed": p["seed"],
        "verbosity": 0,
    }
    if k == 2:
        params["objective"] = "binary:logistic"
    else:
        params["objective"] = "multi:softprob"
        params["num_class"] = k
    dtrain = xgb.DMatrix(x[train], label=cls[train], missing=np.nan, nthread=p["nthread"])
    dtest = xgb.DMatrix(x[test], missing=np.nan, nthread=p["nthread"])
    start = time.perf_counter()
    booster = xgb.train(params, dtrain, num_boost_round=p["rounds"])
    fit = time.perf_counter() - start
    prob = booster.predict(dtest)
    if k == 2:
        prob = np.stack([1 - prob, prob], axis=1)
    with open(out_path, "w") as f:
        for r in prob:
            f.write(" ".join(hexbits(v) for v in r))
            f.write("\n")
    print(json.dumps({
        "fit_seconds": fit,
        "xgboost": xgb.__version__,
        "trees": len(booster.get_dump()),
    }))


if __name__ == "__main__":
    main()
