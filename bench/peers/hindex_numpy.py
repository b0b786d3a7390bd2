#!/usr/bin/python3
"""NumPy peer of perfplan's change-point search (DESIGN §3.4), for bench/hindex_bench.cpp.

Usage: hindex_numpy.py FILE.f64 DEGREE OMEGA
FILE.f64 holds the raw values as little-endian float64. Prints "m_hat seconds": seconds is the CPU
time of the search after the Lorenz curve is built (the C++ side reports CPU time too). Method:
prefix sums of x^k and x^k·L in float64 with x centred at 0.5, and one batched
numpy.linalg.solve of the normal equations per side — the textbook vectorised way, without
perfplan's running QR.
"""
import sys
import time

import numpy as np


def main():
    values = np.fromfile(sys.argv[1], dtype="<f8")
    p, omega = int(sys.argv[2]), int(sys.argv[3])
    n = len(values)
    s = np.cumsum(np.sort(values))
    lorenz = s / s[-1]
    start = time.process_time()
    x = np.arange(1, n + 1) / n - 0.5
    powers = np.stack([x**k for k in range(2 * p + 1)], 1).cumsum(0)
    moments = np.stack([x**k * lorenz for k in range(p + 1)], 1).cumsum(0)
    squares = (lorenz * lorenz).cumsum()
    gram = np.empty((n, p + 1, p + 1))
    for k in range(p + 1):
        for l in range(p + 1):
            gram[:, k, l] = powers[:, k + l]
    m = np.arange(omega, n - omega + 1)
    left_g, left_b, left_y = gram[m - 1], moments[m - 1], squares[m - 1]
    right_g, right_b, right_y = gram[-1] - left_g, moments[-1] - left_b, squares[-1] - left_y

    def sse(g, b, y):
        return y - np.einsum("ij,ij->i", b, np.linalg.solve(g, b[..., None])[..., 0])

    cost = sse(left_g, left_b, left_y) + sse(right_g, right_b, right_y)
    best = int(m[np.argmin(cost)])
    print(best, time.process_time() - start)


if __name__ == "__main__":
    main()
