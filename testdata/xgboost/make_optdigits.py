#!/usr/bin/python3
"""Makes the fixture optdigits_softprob_d5: a 10-class multi:softprob model.

Run from this folder with Debian's python3-xgboost 1.7.4:

    apt-get install python3-xgboost
    /usr/bin/python3 make_optdigits.py

It reads ../pmlb/optdigits.tsv.gz and writes optdigits_softprob_d5/ in the
layout of the other fixtures: model.json, inputs.csv (held-out rows, header =
feature names), margin.csv (predict(output_margin=True)), pred.csv
(predict()), both float32 printed with %.9g, and README.md. The output is
deterministic: running the script again rewrites the same files.
"""

import csv
import gzip
import json
import os
import shutil

import numpy as np
import xgboost as xgb

HERE = os.path.dirname(os.path.abspath(__file__))
NAME = "optdigits_softprob_d5"
PARAMS = {"objective": "multi:softprob", "num_class": 10, "max_depth": 5, "eta": 0.3,
          "tree_method": "hist", "seed": 1}
ROUNDS = 60
N_TEST = 400

assert xgb.__version__ == "1.7.4", xgb.__version__


def g9(v):
    return "%.9g" % v


def main():
    with gzip.open(os.path.join(HERE, "../pmlb/optdigits.tsv.gz"), "rt") as f:
        rows = list(csv.reader(f, delimiter="\t"))
    header = rows[0]
    data = np.array(rows[1:], dtype=np.float64)
    t = header.index("target")
    names = [h for i, h in enumerate(header) if i != t]
    X = np.delete(data, t, axis=1).astype(np.float32)
    y = data[:, t]
    idx = np.random.default_rng(7).permutation(len(y))
    te, tr = idx[:N_TEST], idx[N_TEST:]

    booster = xgb.train(PARAMS, xgb.DMatrix(X[tr], label=y[tr], feature_names=names), ROUNDS)
    d = os.path.join(HERE, NAME)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    booster.save_model(os.path.join(d, "model.json"))
    dm = xgb.DMatrix(X[te], feature_names=names)
    margin = np.asarray(booster.predict(dm, output_margin=True), dtype=np.float32).reshape(N_TEST, -1)
    pred = np.asarray(booster.predict(dm), dtype=np.float32).reshape(N_TEST, -1)
    with open(os.path.join(d, "inputs.csv"), "w") as f:
        f.write(",".join(names) + "\n")
        for row in X[te]:
            f.write(",".join(g9(v) for v in row) + "\n")
    for fname, out in (("margin.csv", margin), ("pred.csv", pred)):
        with open(os.path.join(d, fname), "w") as f:
            for row in out:
                f.write(",".join(g9(v) for v in row) + "\n")
    with open(os.path.join(d, "README.md"), "w") as f:
        f.write("# %s\n\n" % NAME)
        f.write("XGBoost %s model trained on PMLB `optdigits` (%d training rows) with params `%s`, %d rounds.\n"
                % (xgb.__version__, len(tr), json.dumps(PARAMS, sort_keys=True), ROUNDS))
        f.write("`inputs.csv`: %d held-out rows (header = feature names; no missing cells). "
                "`margin.csv`: XGBoost's `predict(output_margin=True)`; `pred.csv`: XGBoost's `predict()`; "
                "both float32 printed with %%.9g (exact float32 round trip). One row per input row, one "
                "column per output. Made by ../make_optdigits.py.\n" % N_TEST)


if __name__ == "__main__":
    main()
