#!/usr/bin/python3
"""scikit-learn side of bench/tune_bench: times SVR(kernel='rbf') on the CSV tune_bench wrote.
Usage: /usr/bin/python3 bench/tune_sklearn_bench.py FILE.csv C
Standardizes features and target (population sd) as perfplan does; times fit() only."""
import sys
import time

import numpy as np
from sklearn.svm import SVR

data = np.loadtxt(sys.argv[1], delimiter=",", skiprows=1)
c = float(sys.argv[2])
x, y = data[:, :-1], data[:, -1]
xs = (x - x.mean(axis=0)) / x.std(axis=0)
ys = (y - y.mean()) / y.std()
svr = SVR(kernel="rbf", C=c, gamma=1.0 / x.shape[1], epsilon=0.1, tol=1e-3, cache_size=200)
t0, c0 = time.perf_counter(), time.process_time()
svr.fit(xs, ys)
print(f"sklearn SVR rbf: {x.shape[0]} runs x {x.shape[1]} parameters, C={c}: "
      f"{time.perf_counter() - t0:.3f} s wall, {time.process_time() - c0:.3f} s CPU, "
      f"{len(svr.support_)} support vectors")
