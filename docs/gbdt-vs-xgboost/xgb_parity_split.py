"""Record XGBoost's first trees with L1, max_delta_step, monotone constraints
and categorical features, for the parity test of train/gbdt.

Usage: xgb_parity_split.py DATASETS_DIR OUT.json

As xgb_parity.py (see there), for cases that set alpha, max_delta_step,
monotone_constraints, or categorical features: those are columns of pandas'
category dtype whose categories are 0..max, so that XGBoost's category codes
are the values themselves, trained with enable_categorical=True. OUT.json is
read by train/gbdt/parity_split_test.go. Run from the repository root:

    /usr/bin/python3 docs/gbdt-vs-xgboost/xgb_parity_split.py testdata/pmlb train/gbdt/testdata/xgb_parity_split.json
"""

import json
import os
import sys

import numpy as np
import pandas as pd
import xgboost as xgb

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from xgb_train import load  # noqa: E402

HEART_MONOTONE = [1, 0, 0, -1, 1, 0, 0, 1, 0, -1, 0, -1, 0]

CASES = [
    {"name": "alpha", "dataset": "heart_c", "objective": "binary:logistic",
     "max_depth": 4, "eta": 0.3, "rounds": 3, "nan_every": 0, "alpha": 2},
    {"name": "max delta step", "dataset": "heart_c", "objective": "binary:logistic",
     "max_depth": 4, "eta": 0.3, "rounds": 3, "nan_every": 0, "max_delta_step": 0.3},
    {"name": "monotone", "dataset": "heart_c", "objective": "binary:logistic",
     "max_depth": 4, "eta": 0.3, "rounds": 3, "nan_every": 0, "monotone": HEART_MONOTONE},
    {"name": "monotone, squared error, missing values, alpha, max delta step", "dataset": "heart_c",
     "objective": "reg:squarederror", "max_depth": 4, "eta": 0.5, "rounds": 3, "nan_every": 7,
     "monotone": HEART_MONOTONE, "alpha": 0.5, "max_delta_step": 0.4},
    {"name": "categorical", "dataset": "crx", "objective": "binary:logistic",
     "max_depth": 4, "eta": 0.3, "rounds": 3, "nan_every": 0, "categorical": [0, 3, 4, 5, 6, 12]},
    {"name": "categorical, one-hot up to 10", "dataset": "crx", "objective": "binary:logistic",
     "max_depth": 3, "eta": 0.3, "rounds": 3, "nan_every": 0, "categorical": [0, 3, 4, 5, 6, 12],
     "max_cat_to_onehot": 11},
    {"name": "categorical, missing values", "dataset": "heart_c", "objective": "reg:squarederror",
     "max_depth": 4, "eta": 0.5, "rounds": 3, "nan_every": 5, "categorical": [2, 6, 10, 11, 12]},
]


def main():
    datasets, out = sys.argv[1:3]
    result = {"xgboost": xgb.__version__, "cases": []}
    for case in CASES:
        x, y = load(os.path.join(datasets, case["dataset"] + ".tsv.gz"))
        if case["nan_every"]:
            flat = x.reshape(-1)
            flat[np.arange(flat.size) % case["nan_every"] == 0] = np.nan
        label = y
        params = {"tree_method": "hist", "max_depth": case["max_depth"], "eta": case["eta"],
                  "lambda": 1, "min_child_weight": 1, "max_bin": 256, "nthread": 1,
                  "objective": case["objective"], "verbosity": 0,
                  "base_score": float(label.mean())}
        for key in ("alpha", "max_delta_step", "max_cat_to_onehot"):
            if key in case:
                params[key] = case[key]
        if "monotone" in case:
            params["monotone_constraints"] = "(" + ",".join(str(c) for c in case["monotone"]) + ")"
        frame = pd.DataFrame({"f%d" % j: x[:, j] for j in range(x.shape[1])})
        for j in case.get("categorical", []):
            col = x[:, j]
            top = int(np.nanmax(col))
            cat = pd.Categorical(col, categories=list(range(top + 1)))
            present = ~np.isnan(col)
            assert (cat.codes[present] == col[present]).all() and (cat.codes[~present] == -1).all()
            frame["f%d" % j] = cat
        dm = xgb.DMatrix(frame, label=label, missing=np.nan, enable_categorical=True)
        booster = xgb.train(params, dm, case["rounds"])
        trees = [json.loads(t) for t in booster.get_dump(dump_format="json")]
        result["cases"].append(dict(case, base_score=params["base_score"], trees=trees))
    with open(out, "w") as f:
        json.dump(result, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
