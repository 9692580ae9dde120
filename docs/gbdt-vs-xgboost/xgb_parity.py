"""Record XGBoost's first trees for the parity test of train/gbdt.

Usage: xgb_parity.py DATASETS_DIR OUT.json

For a few small cases (data set, objective, parameters), trains XGBoost 1.7
with tree_method="hist" on every row of the data set and writes the trees
(XGBoost's JSON dump) to OUT.json, which train/gbdt/parity_test.go reads:
treegen's trainer, given the same base margins, must grow the same trees.
Run from the repository root:

    /usr/bin/python3 docs/gbdt-vs-xgboost/xgb_parity.py ../shared/datasets train/gbdt/testdata/xgb_parity.json

A case with "nan_every" > 0 blanks the cells whose index row*features+column
is a multiple of it, as the Go test does, so that the trees learn default
directions.

In the first round of a classification every row has the same gradient
pair per class, so many different splits score exactly the same, and which
one wins depends on rounding (XGBoost computes in float32, treegen in
float64). The cases are chosen to have no such ties on the way; other data
(ecoli with missing values, say) do, and then the trees part.
"""

import json
import os
import sys

import numpy as np
import xgboost as xgb

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from xgb_train import load  # noqa: E402

CASES = [
    {"name": "logistic", "dataset": "heart_c", "objective": "binary:logistic",
     "max_depth": 3, "eta": 0.3, "rounds": 3, "nan_every": 0},
    {"name": "logistic, missing values", "dataset": "heart_c", "objective": "binary:logistic",
     "max_depth": 4, "eta": 0.3, "rounds": 3, "nan_every": 7},
    {"name": "squared error", "dataset": "heart_c", "objective": "reg:squarederror",
     "max_depth": 4, "eta": 0.5, "rounds": 3, "nan_every": 0},
    {"name": "softmax", "dataset": "dermatology", "objective": "multi:softprob",
     "max_depth": 4, "eta": 0.3, "rounds": 2, "nan_every": 0},
]


def main():
    datasets, out = sys.argv[1:3]
    result = {"xgboost": xgb.__version__, "cases": []}
    for case in CASES:
        x, y = load(os.path.join(datasets, case["dataset"] + ".tsv.gz"))
        if case["nan_every"]:
            flat = x.reshape(-1)
            flat[np.arange(flat.size) % case["nan_every"] == 0] = np.nan
        labels = np.unique(y)
        label = np.searchsorted(labels, y).astype(np.float64) if case["objective"] != "reg:squarederror" else y
        params = {"tree_method": "hist", "max_depth": case["max_depth"], "eta": case["eta"],
                  "lambda": 1, "min_child_weight": 1, "max_bin": 256, "nthread": 1,
                  "objective": case["objective"], "verbosity": 0}
        if case["objective"] == "multi:softprob":
            params["num_class"] = len(labels)
            base = 0.5
        elif case["objective"] == "binary:logistic":
            base = float(label.mean())
        else:
            base = float(label.mean())
        params["base_score"] = base
        booster = xgb.train(params, xgb.DMatrix(x, label=label, missing=np.nan), case["rounds"])
        trees = [json.loads(t) for t in booster.get_dump(dump_format="json")]
        result["cases"].append(dict(case, base_score=base, trees=trees))
    with open(out, "w") as f:
        json.dump(result, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
