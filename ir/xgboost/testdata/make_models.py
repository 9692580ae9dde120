#!/usr/bin/python3
"""Makes the XGBoost test models of package ir/xgboost.

Run from this folder with Debian's python3-xgboost 1.7.4 (and python3-pandas,
for the categorical models):

    apt-get install python3-xgboost python3-pandas
    /usr/bin/python3 make_models.py

It reads the PMLB datasets in ../../../testdata/pmlb and writes, for each
model, a folder models/NAME with

    model.json    XGBoost's JSON (save_model("model.json"))
    model.ubj     XGBoost's UBJSON, for some models
    inputs.csv    held-out rows: header = feature names, empty cell = missing
    margin.csv    XGBoost's predict(output_margin=True), float32 as %.9g
    pred.csv      XGBoost's predict(), float32 as %.9g (class ids for multi:softmax)
    README.md     what the model is

and ubj/FIXTURE.ubj, UBJSON copies of some fixtures of ../../../testdata/xgboost; the schema
variants in schema/ (see schema_variants); base_margins.csv (see
base_margins); tiny.ubj, XGBoost's UBJSON of the handwritten tiny.json. The
output is deterministic: running the script again rewrites the same files.
CI has neither python nor xgboost: the produced files are committed.
"""

import csv
import gzip
import json
import os
import shutil

import numpy as np
import pandas as pd
import xgboost as xgb

HERE = os.path.dirname(os.path.abspath(__file__))
DATASETS = os.path.join(HERE, "../../../testdata/pmlb")
FIXTURES = os.path.join(HERE, "../../../testdata/xgboost")
MODELS = os.path.join(HERE, "models")

assert xgb.__version__ == "1.7.4", xgb.__version__


def dataset(name):
    """Features (float32), target (float64) and feature names of a PMLB file."""
    with gzip.open(os.path.join(DATASETS, name + ".tsv.gz"), "rt") as f:
        rows = list(csv.reader(f, delimiter="\t"))
    header = rows[0]
    data = np.array(rows[1:], dtype=np.float64)
    t = header.index("target")
    names = [h for i, h in enumerate(header) if i != t]
    X = np.delete(data, t, axis=1).astype(np.float32)
    return X, data[:, t], names


def split(X, y, n_train, n_test, seed):
    """A random train/test split of n_train and n_test rows."""
    idx = np.random.default_rng(seed).permutation(len(y))
    tr, te = idx[:n_train], idx[n_train:n_train + n_test]
    return X[tr], y[tr], X[te], y[te]


def blank(X, frac, seed):
    """X with a fraction of its cells set missing (NaN)."""
    X = X.copy()
    X[np.random.default_rng(seed).random(X.shape) < frac] = np.nan
    return X


def g9(v):
    return "%.9g" % v


def write_case(name, booster, X_test, names, readme, ubj=False, feature_types=None):
    """Saves the model and XGBoost's outputs on X_test in models/name."""
    d = os.path.join(MODELS, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    booster.save_model(os.path.join(d, "model.json"))
    if ubj:
        booster.save_model(os.path.join(d, "model.ubj"))
    dm = xgb.DMatrix(X_test, feature_names=names, feature_types=feature_types,
                     enable_categorical=feature_types is not None)
    margin = booster.predict(dm, output_margin=True)
    pred = booster.predict(dm)
    n = X_test.shape[0]
    margin = np.asarray(margin, dtype=np.float32).reshape(n, -1)
    pred = np.asarray(pred, dtype=np.float32).reshape(n, -1)
    with open(os.path.join(d, "inputs.csv"), "w") as f:
        f.write(",".join(names) + "\n")
        for row in X_test:
            f.write(",".join("" if np.isnan(v) else g9(v) for v in row) + "\n")
    for fname, out in (("margin.csv", margin), ("pred.csv", pred)):
        with open(os.path.join(d, fname), "w") as f:
            for row in out:
                f.write(",".join(g9(v) for v in row) + "\n")
    with open(os.path.join(d, "README.md"), "w") as f:
        f.write("# %s\n\n%s\n\nMade by ../../make_models.py with XGBoost %s; %d held-out rows.\n"
                % (name, readme, xgb.__version__, n))


def train(params, X, y, rounds, names, **info):
    dm = xgb.DMatrix(X, label=y, feature_names=names)
    for k, v in info.items():
        dm.set_float_info(k, v)
    return xgb.train(params, dm, rounds)


def describe(data, params, rounds):
    return "PMLB `%s`, params `%s`, %d rounds." % (data, json.dumps(params, sort_keys=True), rounds)


def main():
    bcw_X, bcw_y, bcw_names = dataset("breast_cancer_wisconsin")
    Xtr, ytr, Xte, yte = split(bcw_X, bcw_y, 400, 150, 1)
    Xte_nan = blank(Xte, 0.1, 2)

    # Binary classification with a base_score whose log-odds are not 0,
    # missing values at prediction time, JSON and UBJSON.
    p = {"objective": "binary:logistic", "max_depth": 3, "eta": 0.3, "base_score": 0.3,
         "tree_method": "exact"}
    write_case("bcw_logistic", train(p, Xtr, ytr, 10, bcw_names), Xte_nan, bcw_names,
               describe("breast_cancer_wisconsin", p, 10) + " 10% of the test cells are missing.",
               ubj=True)

    # Learning to rank: random query groups of 10 rows.
    for obj in ("rank:pairwise", "rank:ndcg", "rank:map"):
        p = {"objective": obj, "max_depth": 3, "eta": 0.3}
        dm = xgb.DMatrix(Xtr, label=ytr, feature_names=bcw_names)
        dm.set_group([10] * 40)
        b = xgb.train(p, dm, 6)
        write_case("bcw_" + obj.replace(":", "_"), b, Xte, bcw_names,
                   describe("breast_cancer_wisconsin", p, 6) + " Query groups of 10 rows.")

    # num_parallel_tree = 4: boosted random forests.
    p = {"objective": "binary:logistic", "max_depth": 3, "eta": 0.5, "num_parallel_tree": 4,
         "subsample": 0.8, "colsample_bynode": 0.8, "seed": 3}
    write_case("bcw_parallel4", train(p, Xtr, ytr, 5, bcw_names), Xte_nan, bcw_names,
               describe("breast_cancer_wisconsin", p, 5) + " 10% of the test cells are missing.")

    # Dart: leaves scaled by weight_drop.
    p = {"objective": "binary:logistic", "booster": "dart", "max_depth": 3, "eta": 0.3,
         "rate_drop": 0.3, "skip_drop": 0.0, "seed": 5}
    write_case("bcw_dart", train(p, Xtr, ytr, 10, bcw_names), Xte_nan, bcw_names,
               describe("breast_cancer_wisconsin", p, 10), ubj=True)

    # Regression objectives on California housing (target in units of 100,000).
    h_X, h_y, h_names = dataset("537_houses")
    h_y = h_y / 1e5
    Xtr, ytr, Xte, yte = split(h_X, h_y, 2000, 200, 7)
    Xte_nan = blank(Xte, 0.05, 8)
    regs = [
        ("reg:logistic", {"base_score": 0.3}, (ytr - ytr.min()) / (ytr.max() - ytr.min())),
        ("reg:squaredlogerror", {}, ytr),
        ("reg:pseudohubererror", {"base_score": 2.0}, ytr),
        ("reg:absoluteerror", {}, ytr),
        ("count:poisson", {"base_score": 2.07}, ytr),
        ("reg:gamma", {}, ytr),
        ("reg:tweedie", {"tweedie_variance_power": 1.3, "base_score": 1.5}, ytr),
        ("survival:cox", {}, np.where(np.arange(len(ytr)) % 4 == 0, -ytr, ytr)),
    ]
    for obj, extra, y in regs:
        p = {"objective": obj, "max_depth": 4, "eta": 0.3, "tree_method": "hist"}
        p.update(extra)
        write_case("houses_" + obj.replace(":", "_"), train(p, Xtr, y, 8, h_names), Xte_nan, h_names,
                   describe("537_houses", p, 8) + " Target / 100,000; 5% of the test cells are missing.")
    p = {"objective": "survival:aft", "max_depth": 4, "eta": 0.3, "tree_method": "hist",
         "aft_loss_distribution": "normal", "aft_loss_distribution_scale": 1.2}
    upper = np.where(np.arange(len(ytr)) % 5 == 0, np.inf, ytr)
    b = train(p, Xtr, None, 8, h_names, label_lower_bound=ytr, label_upper_bound=upper)
    write_case("houses_survival_aft", b, Xte_nan, h_names,
               describe("537_houses", p, 8) + " Target / 100,000, every fifth right-censored.")

    # Multiclass, JSON and UBJSON; with num_parallel_tree; dart.
    y_X, y_y, y_names = dataset("yeast")
    Xtr, ytr, Xte, yte = split(y_X, y_y, 1000, 150, 11)
    for name, p, rounds, ubj in [
        ("yeast_softprob", {"objective": "multi:softprob", "num_class": 9, "max_depth": 4,
                            "eta": 0.3}, 5, True),
        ("yeast_parallel4", {"objective": "multi:softmax", "num_class": 9, "max_depth": 3,
                             "eta": 0.5, "num_parallel_tree": 4, "subsample": 0.7,
                             "colsample_bynode": 0.7, "seed": 13}, 3, False),
        ("yeast_dart", {"objective": "multi:softprob", "num_class": 9, "max_depth": 3,
                        "eta": 0.3, "booster": "dart", "rate_drop": 0.2, "skip_drop": 0.0,
                        "seed": 17}, 6, False),
    ]:
        write_case(name, train(p, Xtr, ytr, rounds, y_names), blank(Xte, 0.05, 12), y_names,
                   describe("yeast", p, rounds), ubj=ubj)

    categorical()
    fixture_ubj()
    schema_variants()
    base_margins()
    tiny = xgb.Booster(model_file=os.path.join(HERE, "tiny.json"))  # written by hand
    tiny.save_model(os.path.join(HERE, "tiny.ubj"))


def categorical():
    """Models with categorical splits, checked on held-out rows and on rows
    with invalid categories (negative, fractional, >= 2^24) and NaN."""
    edge = [-0.5, -0.0, -1.0, -3.0, 0.5, 1.9, 2.5, 16777215.0, 16777216.0, 1e9, np.nan]

    # crx: nine categorical columns among 15, partition-based splits.
    X, y, names = dataset("crx")
    cat_cols = ["A1", "A4", "A5", "A6", "A7", "A9", "A10", "A12", "A13"]
    types = ["c" if n in cat_cols else "q" for n in names]
    Xtr, ytr, Xte, yte = split(X, y, 500, 150, 21)
    rng = np.random.default_rng(22)
    rows = []
    for v in edge:
        for j, n in enumerate(names):
            if n in cat_cols:
                r = Xte[rng.integers(len(Xte))].copy()
                r[j] = v
                rows.append(r)
    Xte = np.vstack([blank(Xte, 0.05, 23), np.array(rows, dtype=np.float32)])

    def frame(X):
        df = pd.DataFrame(X, columns=names)
        for n in cat_cols:
            df[n] = pd.Categorical(X[:, names.index(n)].astype(int),
                                   categories=list(range(int(np.nanmax(X[:, names.index(n)])) + 1)))
        return df

    for name, p in [
        ("crx_categorical", {"objective": "binary:logistic", "max_depth": 4, "eta": 0.3,
                             "tree_method": "hist", "max_cat_to_onehot": 1}),
        ("crx_onehot", {"objective": "binary:logistic", "max_depth": 3, "eta": 0.3,
                        "tree_method": "hist", "max_cat_to_onehot": 64}),
    ]:
        dm = xgb.DMatrix(frame(Xtr), label=ytr, enable_categorical=True)
        b = xgb.train(p, dm, 8)
        write_case(name, b, Xte, names,
                   describe("crx", p, 8) + " Columns %s are categorical; the last %d test rows set one"
                   " of them to an invalid category or NaN (%s)." % (", ".join(cat_cols), len(rows), edge),
                   ubj=name == "crx_categorical", feature_types=types)

    # car_evaluation: its one-hot columns folded back into six categorical
    # features; multiclass.
    X, y, names = dataset("car_evaluation")
    groups = {}
    for j, n in enumerate(names):
        groups.setdefault(n.rsplit("_", 1)[0], []).append(j)
    feats = list(groups)
    codes = np.stack([np.argmax(X[:, groups[g]], axis=1) for g in feats], axis=1).astype(np.float32)
    Xtr, ytr, Xte, yte = split(codes, y, 1200, 150, 31)
    rows = []
    for v in edge:
        for j in range(len(feats)):
            r = Xte[rng.integers(len(Xte))].copy()
            r[j] = v
            rows.append(r)
    Xte = np.vstack([Xte, np.array(rows, dtype=np.float32)])
    df = pd.DataFrame({f: pd.Categorical(Xtr[:, j].astype(int), categories=list(range(len(groups[f]))))
                       for j, f in enumerate(feats)})
    p = {"objective": "multi:softprob", "num_class": 4, "max_depth": 4, "eta": 0.3,
         "tree_method": "hist", "max_cat_to_onehot": 1}
    b = xgb.train(p, xgb.DMatrix(df, label=ytr, enable_categorical=True), 5)
    write_case("car_categorical", b, Xte, feats,
               describe("car_evaluation", p, 5) + " The one-hot columns folded back into six categorical"
               " features (codes 0..3); the last %d test rows hold invalid categories or NaN." % len(rows),
               feature_types=["c"] * len(feats))


def fixture_ubj():
    """UBJSON copies of some shared fixtures: load model.json, save .ubj."""
    d = os.path.join(HERE, "ubj")
    os.makedirs(d, exist_ok=True)
    for name in ("bcw_binary_d4", "spambase_nan_d6", "satimage_softmax_d5"):
        b = xgb.Booster(model_file=os.path.join(FIXTURES, name, "model.json"))
        b.save_model(os.path.join(d, name + ".ubj"))


def schema_variants():
    """The JSON spellings of XGBoost 2 and 3, derived by hand from a small
    1.7 model (models/bcw_logistic): each variant must import to the same IR.

    v2_bools.json     default_left as booleans
    v3_vector.json    base_score as a bracketed vector "[3E-1]"
    v3_both.json      both, plus "iteration_indptr" and an empty
                      "categories*" set written as in XGBoost 3
    """
    d = os.path.join(HERE, "schema")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(MODELS, "bcw_logistic", "model.json")) as f:
        text = f.read()
    base = json.loads(text)

    def save(name, m):
        with open(os.path.join(d, name), "w") as f:
            json.dump(m, f, separators=(",", ":"))

    m = json.loads(text)
    for t in m["learner"]["gradient_booster"]["model"]["trees"]:
        t["default_left"] = [bool(v) for v in t["default_left"]]
    save("v2_bools.json", m)
    m = json.loads(text)
    m["learner"]["learner_model_param"]["base_score"] = "[" + base["learner"]["learner_model_param"]["base_score"] + "]"
    save("v3_vector.json", m)
    m = json.loads(text)
    m["version"] = [3, 0, 0]
    m["learner"]["learner_model_param"]["base_score"] = "[" + base["learner"]["learner_model_param"]["base_score"] + "]"
    model = m["learner"]["gradient_booster"]["model"]
    model["iteration_indptr"] = list(range(len(model["trees"]) + 1))
    for t in model["trees"]:
        t["default_left"] = [bool(v) for v in t["default_left"]]
    save("v3_both.json", m)


def base_margins():
    """XGBoost's base margin for many values of base_score: base_margins.csv.

    For binary:logistic it is -logf(1/base_score - 1), for count:poisson
    logf(base_score), in float32 with glibc's logf, which is not always
    correctly rounded: the values where it differs from the correctly
    rounded logarithm are all kept, with as many ordinary ones. XGBoost
    computes each margin from a model whose base_score is edited; its one
    tree adds 0 (eta = 0).
    """
    import ctypes
    libm = ctypes.CDLL("libm.so.6")
    libm.logf.restype = ctypes.c_float
    libm.logf.argtypes = [ctypes.c_float]
    rng = np.random.default_rng(41)
    X = rng.normal(size=(4, 3)).astype(np.float32)
    y = (X[:, 0] > 0).astype(np.float32)
    out = ["objective,base_score,margin"]
    for obj, arg, draw in [
        ("binary:logistic", lambda b: np.float32(1) / b - np.float32(1),
         lambda n: np.concatenate([rng.uniform(0, 1, n), rng.uniform(0.45, 0.55, n),
                                   np.exp(rng.uniform(-80, 0, n))])),
        ("count:poisson", lambda b: b, lambda n: np.exp(rng.uniform(-80, 80, n))),
    ]:
        cands = [v for v in draw(40000).astype(np.float32) if v > 0 and (obj != "binary:logistic" or v < 1)]
        odd = [v for v in cands if np.float32(libm.logf(arg(v))) != np.float32(np.log(np.float64(arg(v))))]
        vals = odd + cands[:max(len(odd), 300)]
        b = xgb.train({"objective": obj, "eta": 0.0, "max_depth": 1, "base_score": 0.5},
                      xgb.DMatrix(X, label=y + (obj != "binary:logistic")), 1)
        cfg = json.loads(b.save_raw("json").decode())
        for v in vals:
            s = np.format_float_scientific(v, unique=True, trim="-")
            mant, exp = s.split("e")
            s = "%sE%d" % (mant, int(exp))  # as XGBoost writes it
            cfg["learner"]["learner_model_param"]["base_score"] = s
            bb = xgb.Booster(model_file=bytearray(json.dumps(cfg).encode()))
            m = bb.predict(xgb.DMatrix(X[:1]), output_margin=True)[0]
            out.append("%s,%s,%s" % (obj, s, g9(m)))
    with open(os.path.join(HERE, "base_margins.csv"), "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
