#!/usr/bin/python3
"""Makes the early-stopping test models of package ir/xgboost.

Run from any folder with Debian's python3-xgboost 1.7.4 and python3-sklearn:

    apt-get install python3-xgboost python3-sklearn
    /usr/bin/python3 make_rounds.py

It trains XGBoost's scikit-learn classifiers with early stopping on small
samples of PMLB datasets (../../../testdata/pmlb), so that the saved model
holds more rounds than its best iteration (learner.attributes.best_iteration),
and writes, for each model, a folder models/NAME with

    model.json           XGBoost's JSON (save_model("model.json"))
    model.ubj            XGBoost's UBJSON, for some models
    inputs.csv           held-out rows: header = feature names, empty cell = missing
    margin.csv           the scikit-learn interface's margins, which use the first
                         best_iteration+1 rounds: predict(output_margin=True), equal to
                         Booster.predict(output_margin=True, iteration_range=(0, best_iteration+1))
    pred.csv             predict_proba (its second column for a binary model): the same rounds
    margin_all.csv       Booster.predict(output_margin=True): every round of the file
    margin_firstK.csv    Booster.predict(output_margin=True, iteration_range=(0, K))
    leaves.csv           apply(): Booster.predict(pred_leaf=True, iteration_range=(0,
                         best_iteration+1)), XGBoost's node id of the leaf each row reaches
                         in each tree of those rounds
    README.md            what the model is

Numbers are float32 printed with %.9g (an exact round trip). The files have
the layout of make_models.py's, so TestParity checks margin.csv and pred.csv
against the default import (best_iteration+1 rounds) like every other model.
The output is deterministic: running the script again rewrites the same
files. CI has neither python nor xgboost: the produced files are committed.
"""

import csv
import gzip
import json
import os
import shutil

import numpy as np
import xgboost as xgb

HERE = os.path.dirname(os.path.abspath(__file__))
DATASETS = os.path.join(HERE, "../../../testdata/pmlb")
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


def stratified(y, counts, seed):
    """Index arrays of disjoint random samples, counts[j] rows of each class
    for sample j."""
    rng = np.random.default_rng(seed)
    out = [[] for _ in counts]
    for c in np.unique(y):
        idx = rng.permutation(np.flatnonzero(y == c))
        at = 0
        for j, n in enumerate(counts):
            out[j].extend(idx[at:at + n])
            at += n
    return [rng.permutation(np.array(o)) for o in out]


def blank(X, frac, seed):
    """X with a fraction of its cells set missing (NaN)."""
    X = X.copy()
    X[np.random.default_rng(seed).random(X.shape) < frac] = np.nan
    return X


def g9(v):
    return "%.9g" % v


def write_rows(path, rows, fmt=g9):
    with open(path, "w") as f:
        for row in rows:
            f.write(",".join(fmt(v) for v in row) + "\n")


def write_case(name, clf, X_test, names, readme, first, ubj=False):
    """Saves the classifier's booster and XGBoost's outputs on X_test in
    models/name; first is the K of margin_firstK.csv."""
    d = os.path.join(MODELS, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    booster = clf.get_booster()
    best = clf.best_iteration
    rounds = booster.num_boosted_rounds()
    per_round = len(booster.get_dump()) // rounds
    assert 0 < first <= best < rounds - 1, (first, best, rounds)
    clf.save_model(os.path.join(d, "model.json"))
    if ubj:
        clf.save_model(os.path.join(d, "model.ubj"))
    attrs = json.load(open(os.path.join(d, "model.json")))["learner"]["attributes"]
    assert attrs["best_iteration"] == str(best), attrs
    n = X_test.shape[0]
    dm = xgb.DMatrix(X_test)  # no names: the classifiers were fitted on bare arrays
    best_range = (0, best + 1)

    def margins(rng):
        return np.asarray(booster.predict(dm, output_margin=True, iteration_range=rng),
                          dtype=np.float32).reshape(n, -1)

    margin = np.asarray(clf.predict(X_test, output_margin=True), dtype=np.float32).reshape(n, -1)
    assert np.array_equal(margin.view(np.uint32), margins(best_range).view(np.uint32))
    proba = np.asarray(clf.predict_proba(X_test), dtype=np.float32)
    if proba.shape[1] == 2:
        proba = proba[:, 1:]  # the probability of class 1, as pred.csv of binary models
    leaves = np.asarray(clf.apply(X_test)).reshape(n, -1)
    assert np.array_equal(leaves, booster.predict(dm, pred_leaf=True, iteration_range=best_range).reshape(n, -1))
    all_rounds = margins((0, 0))
    assert not np.array_equal(all_rounds, margin)

    with open(os.path.join(d, "inputs.csv"), "w") as f:
        f.write(",".join(names) + "\n")
        for row in X_test:
            f.write(",".join("" if np.isnan(v) else g9(v) for v in row) + "\n")
    write_rows(os.path.join(d, "margin.csv"), margin)
    write_rows(os.path.join(d, "pred.csv"), proba)
    write_rows(os.path.join(d, "margin_all.csv"), all_rounds)
    write_rows(os.path.join(d, "margin_first%d.csv" % first), margins((0, first)))
    write_rows(os.path.join(d, "leaves.csv"), leaves, fmt=lambda v: "%d" % v)
    with open(os.path.join(d, "README.md"), "w") as f:
        f.write("# %s\n\n%s\n\nEarly stopping kept best_iteration %d of the %d rounds saved "
                "(%d %s a round).\n\nMade by ../../make_rounds.py with XGBoost %s; %d held-out rows.\n"
                % (name, readme, best, rounds, per_round, "tree" if per_round == 1 else "trees",
                   xgb.__version__, n))


def describe(data, params, rows):
    return "PMLB `%s` (%s), XGBClassifier `%s`." % (data, rows, json.dumps(params, sort_keys=True))


def main():
    # Binary: breast_cancer_wisconsin, 300 training rows, 150 for early
    # stopping, the rest held out with 5% of their cells missing.
    X, y, names = dataset("breast_cancer_wisconsin")
    idx = np.random.default_rng(51).permutation(len(y))
    tr, va, te = idx[:300], idx[300:450], idx[450:]
    p = {"n_estimators": 60, "max_depth": 2, "learning_rate": 0.3, "tree_method": "exact",
         "early_stopping_rounds": 5, "n_jobs": 1, "random_state": 0}
    clf = xgb.XGBClassifier(**p)
    clf.fit(X[tr], y[tr], eval_set=[(X[va], y[va])], verbose=False)
    write_case("bcw_early_stop", clf, blank(X[te], 0.05, 52), names,
               describe("breast_cancer_wisconsin", p, "300 training rows, 150 for early stopping"
                        ", 5% of the test cells missing"), first=3, ubj=True)

    # Three classes: connect_4, a sample balanced by class; plain, then
    # boosted forests of 2 trees (the 6 trees of a round ordered class by
    # class: tree_info 0, 0, 1, 1, 2, 2).
    X, y, names = dataset("connect_4")
    tr, va, te = stratified(y, [100, 40, 30], 53)
    Xte = blank(X[te], 0.05, 54)
    rows = "100 training rows of each class, 40 for early stopping, 30 held out; " \
           "5% of the test cells missing"
    for name, extra, first in [
        ("connect4_early_stop", {}, 4),
        ("connect4_parallel2_early_stop", {"num_parallel_tree": 2, "subsample": 0.8,
                                           "colsample_bynode": 0.8}, 4),
    ]:
        p = {"n_estimators": 40, "max_depth": 3, "learning_rate": 0.5, "tree_method": "hist",
             "early_stopping_rounds": 4, "n_jobs": 1, "random_state": 55}
        p.update(extra)
        clf = xgb.XGBClassifier(**p)
        clf.fit(X[tr], y[tr], eval_set=[(X[va], y[va])], verbose=False)
        write_case(name, clf, Xte, names, describe("connect_4", p, rows), first=first)

if __name__ == "__main__":
    main()
