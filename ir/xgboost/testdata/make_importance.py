#!/usr/bin/python3
"""Records XGBoost's feature importances of the test models in models/.

Run from this folder with Debian's python3-xgboost 1.7.4, after
make_models.py (which trains the models):

    /usr/bin/python3 make_importance.py

For each models/NAME/model.json it writes models/NAME/importance.json:

    {"xgboost": "1.7.4",
     "weight": {FEATURE: value, ...}, "gain": {...}, "total_gain": {...},
     "cover": {...}, "total_cover": {...}}

the dictionaries of Booster.get_score(importance_type=TYPE) for the five
types, keyed by feature name (XGBoost leaves out the features no split
uses). XGBoost computes them in float32 over every tree of the file (early
stopping's best_iteration does not cut them). The output is deterministic:
running the script again rewrites the same files. CI has neither python nor
xgboost: the produced files are committed, and TestImportanceXGBoost in
importance_test.go compares ir/importance's numbers with them.
"""

import json
import os

import xgboost as xgb

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS = os.path.join(HERE, "models")
TYPES = ["weight", "gain", "total_gain", "cover", "total_cover"]


def main():
    for name in sorted(os.listdir(MODELS)):
        path = os.path.join(MODELS, name, "model.json")
        if not os.path.exists(path):
            continue
        bst = xgb.Booster(model_file=path)
        out = {"xgboost": xgb.__version__}
        for t in TYPES:
            out[t] = {k: float(v) for k, v in bst.get_score(importance_type=t).items()}
        with open(os.path.join(MODELS, name, "importance.json"), "w") as f:
            json.dump(out, f, indent=1, sort_keys=True)
            f.write("\n")


if __name__ == "__main__":
    main()
