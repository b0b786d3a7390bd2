"""What the held-out tuning-set generators share (bench/tune_hadoop_gen.py,
bench/tune_spark_yarn_gen.py, bench/tune_mr_memory_gen.py): their command line, the Latin
hypercube their runs are drawn from and the CSV they write. Imported from those scripts (run as /usr/bin/python3 bench/NAME.py: bench/ is on sys.path).
"""

import json
import sys

import numpy as np


def latin_hypercube(rng, n, bounds):
    """n rows of one value per (lo, hi) in bounds: each column takes one value in each of its n
    equal strata, in random order (a column's strata drawn first, then row by row the values)."""
    strata = [rng.permutation(n) for _ in bounds]
    rows = []
    for i in range(n):
        row = []
        for k, (lo, hi) in enumerate(bounds):
            u = (strata[k][i] + rng.uniform()) / n
            row.append(lo + u * (hi - lo))
        rows.append(row)
    return rows


def write_csv(out, names, rows, failure, runtime, from_text, rng):
    """Writes rows (lists of cell texts, one per name) as a CSV with a time_seconds column: -1 when
    failure(config) names a rule, else runtime(config, rng); config = from_text(dict of cells).
    Prints how many runs failed, by rule, on stderr."""
    failures = {}
    with open(out, "w") as f:
        f.write(",".join(names + ["time_seconds"]) + "\n")
        for row in rows:
            c = from_text(dict(zip(names, row)))
            rule = failure(c)
            if rule:
                failures[rule] = failures.get(rule, 0) + 1
                time = "-1"
            else:
                time = f"{runtime(c, rng):.1f}"
            f.write(",".join(row + [time]) + "\n")
    print(f"{out}: {len(rows)} runs, {sum(failures.values())} failed", file=sys.stderr)
    for rule, n in sorted(failures.items()):
        print(f"  {n:3d}  {rule}", file=sys.stderr)


def judge_config_text(path, from_text, failure, runtime):
    """Reads `perfplan tune recommend --json` output (its config_text) and prints whether the
    configuration fails by failure() and, if not, its noise-free runtime()."""
    with open(path) as f:
        answer = json.load(f)
    c = from_text(answer["config_text"])
    rule = failure(c)
    print(f"fails: {rule}" if rule else f"succeeds; noise-free run time {runtime(c):.1f} s")


def main(write, judge, default_runs, default_seed):
    """`NAME.py OUT [RUNS] [SEED]` calls write(out, runs, rng) with a generator of that seed;
    `NAME.py --judge RECOMMEND.json` calls judge(path)."""
    if sys.argv[1] == "--judge":
        judge(sys.argv[2])
        return
    out = sys.argv[1]
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else default_runs
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else default_seed
    write(out, runs, np.random.default_rng(seed))
