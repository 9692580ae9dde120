# Trains the five XGBoost 1.7 models of docs/vector-speed (see main.go) on
# synthetic data with fixed seeds and writes NAME.json (the model) and
# NAME.csv (4,000 rows) into the folder given as the argument.
import os, sys
import numpy as np, xgboost as xgb
from sklearn.datasets import make_classification, make_regression
rng = np.random.RandomState(0)
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
def save(name, bst, X):
    bst.save_model(os.path.join(out, name + ".json"))
    np.savetxt(os.path.join(out, name + ".csv"), X, delimiter=",", header=",".join("f%d" % i for i in range(X.shape[1])), comments="", fmt="%.9g")
def cls(n, f, classes=2):
    return make_classification(n_samples=n, n_features=f, n_informative=f // 2, n_classes=classes, random_state=1)
X, y = cls(20000, 50)
p = dict(max_depth=6, eta=0.1, objective="binary:logistic", nthread=1, tree_method="hist")
save("b100", xgb.train(p, xgb.DMatrix(X, y), 100), X[:4000])
save("b1000", xgb.train(p, xgb.DMatrix(X, y), 1000), X[:4000])
X, y = make_regression(n_samples=20000, n_features=20, noise=1.0, random_state=2)
p = dict(max_depth=8, eta=0.1, objective="reg:squarederror", nthread=1, tree_method="hist")
save("r300", xgb.train(p, xgb.DMatrix(X, y), 300), X[:4000])
X, y = cls(20000, 30)
X[rng.rand(*X.shape) < 0.1] = np.nan
p = dict(max_depth=6, eta=0.1, objective="binary:logistic", nthread=1, tree_method="hist")
save("nan200", xgb.train(p, xgb.DMatrix(X, y, missing=np.nan), 200), X[:4000])
X, y = cls(20000, 64, 10)
p = dict(max_depth=4, eta=0.1, objective="multi:softprob", num_class=10, nthread=1, tree_method="hist")
save("m500", xgb.train(p, xgb.DMatrix(X, y), 50), X[:4000])
