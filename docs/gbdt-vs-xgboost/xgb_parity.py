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

The regression objectives other than squared error need a target of counts
or positive values. A case with "label" set derives it from the classes of
the data set (the distinct target values in ascending order, numbered as
data.Classes numbers them): "class_index" is the class number 0, 1, 2, ...
(a count with zeros: poisson, tweedie), "class_number" that number plus 1
(positive: gamma, pseudohuber), "class_plus3" that number plus 3.
dermatology has six classes, so these are the counts 0..5, the values 1..6
and the counts 3..8.

For count:poisson XGBoost 1.7 also caps every leaf value at max_delta_step,
0.7 when not given, and scores splits with the capped values; treegen caps
only with MaxDeltaStep > 0. The poisson cases use the counts 3..8, whose
leaf values, before shrinkage, stay within ±0.7 (no subset of rows has a
mean count beyond 2.4 times or below 0.4 times the mean), so that neither
caps.

A case with "weights": "cycle4" weighs row r (0-based) 0.5 + 0.5*(r mod 4),
that is 0.5, 1, 1.5, 2, 0.5, ...; "params" are passed to XGBoost as they are
(treegen's test maps them to its options). The base score is the treegen's
start on XGBoost's scale: the weighted mean of the label (a probability for
binary:logistic, with scale_pos_weight weighing the positive rows; the mean
count or value for the exp-link objectives, whose base margin is its log),
and the median label for reg:pseudohubererror, which the Go test gives
treegen as its base margin.

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
    {"name": "poisson", "dataset": "dermatology", "objective": "count:poisson",
     "max_depth": 3, "eta": 0.3, "rounds": 3, "nan_every": 0, "label": "class_plus3"},
    {"name": "poisson, weighted", "dataset": "dermatology", "objective": "count:poisson",
     "max_depth": 3, "eta": 0.5, "rounds": 3, "nan_every": 0, "label": "class_plus3", "weights": "cycle4"},
    {"name": "gamma", "dataset": "dermatology", "objective": "reg:gamma",
     "max_depth": 3, "eta": 0.3, "rounds": 3, "nan_every": 0, "label": "class_number"},
    {"name": "tweedie", "dataset": "dermatology", "objective": "reg:tweedie",
     "max_depth": 3, "eta": 0.3, "rounds": 3, "nan_every": 0, "label": "class_index"},
    {"name": "tweedie, power 1.2", "dataset": "dermatology", "objective": "reg:tweedie",
     "max_depth": 3, "eta": 0.3, "rounds": 3, "nan_every": 0, "label": "class_index",
     "params": {"tweedie_variance_power": 1.2}},
    {"name": "pseudohuber", "dataset": "dermatology", "objective": "reg:pseudohubererror",
     "max_depth": 3, "eta": 0.5, "rounds": 3, "nan_every": 0, "label": "class_number"},
    {"name": "pseudohuber, slope 2", "dataset": "dermatology", "objective": "reg:pseudohubererror",
     "max_depth": 3, "eta": 0.5, "rounds": 3, "nan_every": 0, "label": "class_number",
     "params": {"huber_slope": 2.0}},
    {"name": "squared error, weighted", "dataset": "heart_c", "objective": "reg:squarederror",
     "max_depth": 4, "eta": 0.5, "rounds": 3, "nan_every": 0, "weights": "cycle4"},
    {"name": "logistic, weighted", "dataset": "heart_c", "objective": "binary:logistic",
     "max_depth": 3, "eta": 0.3, "rounds": 3, "nan_every": 0, "weights": "cycle4"},
    {"name": "softmax, weighted", "dataset": "dermatology", "objective": "multi:softprob",
     "max_depth": 4, "eta": 0.3, "rounds": 2, "nan_every": 0, "weights": "cycle4"},
    {"name": "logistic, scale_pos_weight", "dataset": "heart_c", "objective": "binary:logistic",
     "max_depth": 3, "eta": 0.3, "rounds": 3, "nan_every": 0, "params": {"scale_pos_weight": 2.5}},
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
        index = np.searchsorted(labels, y).astype(np.float64)
        label = index if case["objective"] != "reg:squarederror" else y
        if case.get("label") == "class_index":
            label = index
        elif case.get("label") == "class_number":
            label = index + 1
        elif case.get("label") == "class_plus3":
            label = index + 3
        weight = np.ones(len(label))
        if case.get("weights") == "cycle4":
            weight = 0.5 + 0.5 * (np.arange(len(label)) % 4)
        params = {"tree_method": "hist", "max_depth": case["max_depth"], "eta": case["eta"],
                  "lambda": 1, "min_child_weight": 1, "max_bin": 256, "nthread": 1,
                  "objective": case["objective"], "verbosity": 0}
        params.update(case.get("params", {}))
        if case["objective"] == "multi:softprob":
            params["num_class"] = len(labels)
            base = 0.5
        elif case["objective"] == "binary:logistic":
            w = weight * np.where(label == 1, params.get("scale_pos_weight", 1.0), 1.0)
            base = float((w * label).sum() / w.sum())
        elif case["objective"] == "reg:pseudohubererror":
            base = float(np.median(label))
        else:
            base = float((weight * label).sum() / weight.sum())
        params["base_score"] = base
        dm = xgb.DMatrix(x, label=label, missing=np.nan,
                         weight=weight if case.get("weights") else None)
        booster = xgb.train(params, dm, case["rounds"])
        trees = [json.loads(t) for t in booster.get_dump(dump_format="json")]
        result["cases"].append(dict(case, base_score=base, trees=trees))
    with open(out, "w") as f:
        json.dump(result, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
