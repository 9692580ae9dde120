"""Train scikit-learn's DecisionTreeClassifier on given rows of a PMLB data set.

Usage: sklearn_tree.py DATA.tsv.gz TRAIN_ROWS TEST_ROWS CRITERION MAX_DEPTH [RANDOM_STATE]

DATA.tsv.gz is a gzipped TSV file with a header line and a `target` column;
TRAIN_ROWS and TEST_ROWS hold 0-based data row indices, one per line. The
script trains DecisionTreeClassifier(criterion=CRITERION, max_depth=MAX_DEPTH,
random_state=RANDOM_STATE, default 0) on the training rows and prints one JSON object:
{"accuracy": test accuracy, "fit_seconds": wall time of fit, "sklearn": version,
 "nodes": node count, "depth": tree depth}.

It is run by docs/cart-vs-sklearn/main.go; see docs/CART.md.
"""

import csv
import gzip
import json
import sys
import time

import numpy as np
import sklearn
from sklearn.tree import DecisionTreeClassifier

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


def main():
    data, train_path, test_path, criterion, depth = sys.argv[1:6]
    random_state = int(sys.argv[6]) if len(sys.argv) > 6 else 0
    x, y = load(data)
    train, test = rows(train_path), rows(test_path)
    clf = DecisionTreeClassifier(criterion=criterion, max_depth=int(depth), random_state=random_state)
    start = time.perf_counter()
    clf.fit(x[train], y[train])
    fit = time.perf_counter() - start
    acc = float(np.mean(clf.predict(x[test]) == y[test]))
    print(json.dumps({
        "accuracy": acc,
        "fit_seconds": fit,
        "sklearn": sklearn.__version__,
        "nodes": int(clf.tree_.node_count),
        "depth": int(clf.get_depth()),
    }))


if __name__ == "__main__":
    main()
