#!/usr/bin/python3
"""scikit-learn peer of `tune_bench --grid`: GridSearchCV over perfplan's eps-svr-rbf grid.
Usage: /usr/bin/python3 bench/tune_gridsearch_bench.py FILE.csv [N_JOBS=1]
The grid is tuning::SearchCandidates(kEpsSvrRbf): C in {1, 10, 100, 0.1, 1000}, gamma = g0 x
{1, 0.3, 3, 0.1} with g0 = 1/parameters, epsilon in {0.1, 0.01}: 40 candidates. Features and
target are standardized inside each fold (as perfplan does), 5 shuffled folds, scored by mean
relative error on the original target. Prints wall and CPU time of fit() and the best MRE."""
import sys
import time

import numpy as np
from sklearn.compose import TransformedTargetRegressor
from sklearn.model_selection import GridSearchCV, KFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVR

data = np.loadtxt(sys.argv[1], delimiter=",", skiprows=1)
n_jobs = int(sys.argv[2]) if len(sys.argv) > 2 else 1
x, y = data[:, :-1], data[:, -1]
g0 = 1.0 / x.shape[1]
model = TransformedTargetRegressor(
    regressor=make_pipeline(StandardScaler(), SVR(kernel="rbf", tol=1e-3, cache_size=200)),
    transformer=StandardScaler())
grid = {"regressor__svr__C": [1, 10, 100, 0.1, 1000],
        "regressor__svr__gamma": [g0 * m for m in (1, 0.3, 3, 0.1)],
        "regressor__svr__epsilon": [0.1, 0.01]}


def neg_mre(estimator, xs, ys):
    return -float(np.mean(np.abs(estimator.predict(xs) - ys) / np.abs(ys)))


search = GridSearchCV(model, grid, scoring=neg_mre, cv=KFold(5, shuffle=True, random_state=1),
                      n_jobs=n_jobs, refit=False)
t0, c0 = time.perf_counter(), time.process_time()
search.fit(x, y)
best = search.best_params_
print(f"sklearn GridSearchCV eps-svr-rbf: {x.shape[0]} runs x {x.shape[1]} parameters, "
      f"{len(search.cv_results_['params'])} candidates x 5 folds, n_jobs={n_jobs}: "
      f"{time.perf_counter() - t0:.3f} s wall, {time.process_time() - c0:.3f} s CPU (parent "
      f"process); best C={best['regressor__svr__C']} gamma={best['regressor__svr__gamma']:.4g} "
      f"epsilon={best['regressor__svr__epsilon']} MRE {-search.best_score_:.4f}")
