#!/usr/bin/python3
"""Peer check: perfplan's epsilon-SVR predictions equal scikit-learn's SVR (the same libsvm).

Usage: /usr/bin/python3 sklearn_peer_test.py PERFPLAN_BINARY

Trains perfplan (`tune train --kinds eps-svr-<kernel>`) on a small deterministic data set, reads
the chosen hyper-parameters from its JSON answer, fits sklearn.svm.SVR with the same parameters on
the same standardized data (features and target standardized with the training mean and the
population standard deviation, as perfplan does), and compares the predictions of
`perfplan tune predict` with scikit-learn's. Exits 0 on agreement, 1 on disagreement, and 77
(CTest: skipped) when numpy or scikit-learn is not installed (Debian: python3-sklearn).
"""
import json
import math
import os
import subprocess
import sys
import tempfile

try:
    import numpy as np
    from sklearn.svm import SVR
except ImportError as e:  # the reason goes to the CTest log
    print(f"SKIPPED: scikit-learn is not importable by {sys.executable} ({e}); "
          "install the Debian package python3-sklearn")
    sys.exit(77)

# Agreement bound in target standard deviations (the 1e-6). With bit-identical
# standardized inputs both sides run the same libsvm solver, so the observed difference is 0 or
# a few ulps from the kernel's summation order.
TOLERANCE = 1e-6


def make_data(n=120, d=5, seed=3):
    rng = np.random.RandomState(seed)
    x = rng.uniform(0.0, 1.0, size=(n, d))
    x[:, 0] = np.round(1 + 15 * x[:, 0])          # executor memory in GiB
    x[:, 1] = np.round(1 + 7 * x[:, 1])           # cores
    y = 50 + 400 / (x[:, 0] + 2) + 200 / x[:, 1] + 60 * x[:, 2] ** 2 + 5 * x[:, 3] \
        + rng.normal(0, 2, n)
    return x, y


def standardize(columns):
    """Mean and population standard deviation per column, summed in row order exactly as
    perfplan's Model::Fit does, so both sides see bit-identical standardized data (libsvm's
    solver stops at a tolerance, so a last-bit difference in the input can move predictions by
    about that tolerance)."""
    n = len(columns[0])
    means, sds = [], []
    for col in columns:
        total = 0.0
        for v in col:
            total += v
        mean = total / n
        ss = 0.0
        for v in col:
            ss += (v - mean) * (v - mean)
        sd = math.sqrt(ss / n)
        means.append(mean)
        sds.append(sd if sd != 0 else 1.0)
    return means, sds


def write_csv(path, x, y):
    names = [f"p{j}" for j in range(x.shape[1])]
    with open(path, "w") as f:
        f.write(",".join(names + ["time_seconds"]) + "\n")
        for row, t in zip(x, y):
            f.write(",".join(repr(float(v)) for v in row) + "," + repr(float(t)) + "\n")


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        print("command failed:", " ".join(cmd), "\n", p.stdout, p.stderr)
        sys.exit(1)
    return json.loads(p.stdout)


def main():
    perfplan = sys.argv[1]
    x, y = make_data()
    failures = 0
    with tempfile.TemporaryDirectory(prefix="perfplan-sklearn-") as tmp:
        data = os.path.join(tmp, "runs.csv")
        write_csv(data, x, y)
        x_cols = [[float(v) for v in x[:, j]] for j in range(x.shape[1])]
        x_means, x_sds = standardize(x_cols)
        xs = np.array([[(x_cols[j][i] - x_means[j]) / x_sds[j] for j in range(len(x_cols))]
                       for i in range(len(y))])
        (y_mean,), (y_sd,) = standardize([[float(v) for v in y]])
        ys = np.array([(float(v) - y_mean) / y_sd for v in y])
        for kind, kernel in (("eps-svr-rbf", "rbf"), ("eps-svr-linear", "linear"),
                             ("eps-svr-poly", "poly")):
            model = os.path.join(tmp, kind + ".json")
            trained = run([perfplan, "tune", "train", "--data", data, "--target", "time_seconds",
                           "--kinds", kind, "--folds", "3", "--out", model, "--json"])
            p = trained["models"][0]["params"]
            svr = SVR(kernel=kernel, C=p["c"], epsilon=p["epsilon"], tol=1e-3, shrinking=True,
                      cache_size=200, gamma=p.get("gamma", "scale"),
                      degree=p.get("degree", 3), coef0=p.get("coef0", 0.0))
            svr.fit(xs, ys)
            ours = np.array([r["predicted"] for r in
                             run([perfplan, "tune", "predict", "--model", model, "--data", data,
                                  "--json"])["predictions"]])
            theirs = np.array([y_mean + y_sd * float(v) for v in svr.predict(xs)])
            worst = float(np.max(np.abs(ours - theirs)) / y_sd)
            ok = worst <= TOLERANCE
            failures += not ok
            print(f"{kind}: params {p}, support vectors {len(svr.support_)} "
                  f"(perfplan {trained['support_vectors']}), "
                  f"max |difference| = {worst:.3g} target sd -> {'ok' if ok else 'DIFFERENT'}")
            if trained["support_vectors"] != len(svr.support_):
                print(f"{kind}: support vector counts differ")
                failures += 1
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
