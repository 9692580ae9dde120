#!/usr/bin/python3
"""The random-forest reference of docs/E2E.md: scikit-learn's
RandomForestClassifier on the rows E2EDF trains and tests on.

    go run ./docs/e2e-vs-paper split -dataset letter -out /tmp/split
    /usr/bin/python3 docs/e2e-vs-paper/random_forest.py letter /tmp/split 10 1,3,5,10

Arguments: the data set (testdata/pmlb/NAME.tsv.gz), the folder holding
NAME-train.txt and NAME-test.txt (the 80/20 split that e2e-vs-paper makes,
0-based data rows), the maximum depth, and the forest sizes. For every
size T it trains RandomForestClassifier(n_estimators=T, max_depth=DEPTH,
random_state=SEED) for SEED = 1, 2, 3 on the training rows and prints the
test accuracy (mean over the seeds) as CSV. Needs Debian's python3-sklearn
(apt-get install python3-sklearn); CI does not run it.
"""

import csv
import gzip
import os
import sys

import numpy as np
from sklearn.ensemble import RandomForestClassifier

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    name, split_dir, depth, sizes = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    path = os.path.join(HERE, "..", "..", "testdata", "pmlb", name + ".tsv.gz")
    with gzip.open(path, "rt") as f:
        rows = list(csv.reader(f, delimiter="\t"))
    header, body = rows[0], rows[1:]
    t = header.index("target")
    X = np.array([[float(v) for j, v in enumerate(r) if j != t] for r in body])
    y = np.array([r[t] for r in body])

    def rows_of(part):
        with open(os.path.join(split_dir, "%s-%s.txt" % (name, part))) as f:
            return np.array([int(line) for line in f if line.strip()])

    train, test = rows_of("train"), rows_of("test")
    out = csv.writer(sys.stdout)
    out.writerow(["dataset", "trees", "depth", "test_accuracy", "seeds"])
    for T in [int(v) for v in sizes.split(",")]:
        accs = []
        for seed in (1, 2, 3):
            rf = RandomForestClassifier(n_estimators=T, max_depth=depth, random_state=seed, n_jobs=1)
            rf.fit(X[train], y[train])
            accs.append(float((rf.predict(X[test]) == y[test]).mean()))
        out.writerow([name, T, depth, "%.4f" % np.mean(accs), " ".join("%.4f" % a for a in accs)])


if __name__ == "__main__":
    main()
