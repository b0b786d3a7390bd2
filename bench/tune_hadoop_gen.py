#!/usr/bin/python3
"""A BestConf-layout Hadoop tuning data set from a known response surface and failure region:
the held-out check of `tune recommend` on Hadoop runs (docs/accuracy.md, "Held-out Hadoop set").

Usage: /usr/bin/python3 bench/tune_hadoop_gen.py OUT.arff [RUNS=120] [SEED=19]
       /usr/bin/python3 bench/tune_hadoop_gen.py --judge RECOMMEND.json
The second form reads `perfplan tune recommend --json` output for this set and prints whether its
configuration fails by the rule below and, if not, its noise-free run time.

BestConf's own Hadoop set (testResults/hive/hadoopPageRank.arff in github.com/zhuyuqing/bestconf)
is not in ../shared/data. This writes one in its published layout: ARFF `@relation
InitialSetByLHS`, every attribute `numeric`, the column named by the site file glued to the
property (`mapredmapreduce.job.reduces`, `yarnyarn.nodemanager.resource.cpu-vcores`), the first
row Hadoop's defaults, the others a Latin hypercube with BestConf's unrounded values (37.286299
reducers), `performance` = run time in seconds and -1 for a failed run. The columns are 16 of
hadoopPageRank.arff's, in its order.

The job (fixed before perfplan was run on it): a PageRank-like MapReduce job over 50 GiB on
8 NodeManagers of 16 cores and 60 GiB, 400 input splits (mapreduce.job.maps is only a hint to
FileInputFormat, so it has no effect, as in Hadoop).

  containers per node = min(floor(nm_memory / container_mb), floor(nm_vcores / container_vcores))
  CPU oversubscription = max(1, running containers x vcores per container / 16 physical cores)
  map task   = 20 s x oversubscription x (1 + 0.18 x (spills - 1)) x (1 + 0.05 x merge passes),
               spills = ceil(300 MiB map output / (0.8 x io.sort.mb)),
               merge passes = ceil(log(spills) / log(io.sort.factor)) when spills > 1
  map stage  = ceil(400 / (8 x map containers per node)) waves
  reduce     = 30 GiB shuffled into R = round(job.reduces) reducers, in
               ceil(R / (8 x reduce containers per node)) waves; a reducer fetches its share at
               min(parallelcopies x 12, 110) MiB/s, merges in memory when its share fits in
               0.8 x reduce.memory.mb x shuffle.input.buffer.percent (else 1.6x the fetch time on
               disk), + 4 s start per reducer
  overlap    = the first reduce wave's fetch overlaps the map stage by (1 - slowstart) x 0.5
  total      = 15 s job start + map stage + reduce stage - overlap, x lognormal noise (sigma 0.04)

A run fails (performance -1), by Hadoop's own rules:
  * mapreduce.map.memory.mb or mapreduce.reduce.memory.mb above
    yarn.scheduler.maximum-allocation-mb: the ResourceManager rejects the container request
    (InvalidResourceRequestException), the job fails;
  * mapreduce.task.io.sort.mb above 70 % of the map task's heap (0.8 x mapreduce.map.memory.mb,
    mapreduce.job.heap.memory-mb.ratio): the sort buffer allocation runs out of heap
    (OutOfMemoryError in MapTask$MapOutputBuffer.init).
`failed(row)` below is that rule; tests/planner/cli/tune_cmd_test.cpp ("Held out: …") checks the
recommendation against the same rule written again in C++.
"""
import math
import sys

from tune_gen_common import latin_hypercube, main

# BestConf column name, min, max, Hadoop default; in hadoopPageRank.arff's column order.
COLUMNS = [
    ("mapredmapreduce.reduce.shuffle.parallelcopies", 1, 50, 5),
    ("mapredmapreduce.job.jvm.numtasks", 1, 100, 1),
    ("mapredmapreduce.job.reduces", 1, 64, 1),
    ("mapredmapreduce.job.speculative.slowtaskthreshold", 0.01, 2, 1),
    ("yarnyarn.scheduler.maximum-allocation-mb", 4096, 16384, 8192),
    ("yarnyarn.resourcemanager.client.thread-count", 10, 100, 50),
    ("mapredmapreduce.task.timeout", 60000, 1200000, 600000),
    ("mapredmapreduce.map.memory.mb", 1024, 8192, 1024),
    ("mapredmapreduce.task.io.sort.mb", 50, 1600, 100),
    ("yarnyarn.nodemanager.resource.cpu-vcores", 4, 32, 8),
    ("mapredmapreduce.job.reduce.slowstart.completedmaps", 0.01, 1, 0.05),
    ("mapredmapreduce.task.io.sort.factor", 5, 100, 10),
    ("yarnyarn.nodemanager.resource.memory-mb", 8192, 61440, 8192),
    ("mapredmapreduce.reduce.memory.mb", 1024, 8192, 1024),
    ("mapredmapreduce.reduce.shuffle.input.buffer.percent", 0.1, 0.9, 0.7),
    ("mapredmapreduce.job.maps", 1, 200, 2),
    ("mapredmapreduce.map.cpu.vcores", 1, 4, 1),
]
NAMES = [c[0] for c in COLUMNS]


def value(row, name):
    return row[NAMES.index("mapred" + name if name.startswith("mapreduce") else "yarn" + name)]


def failed(row):
    map_mb = value(row, "mapreduce.map.memory.mb")
    reduce_mb = value(row, "mapreduce.reduce.memory.mb")
    max_alloc = value(row, "yarn.scheduler.maximum-allocation-mb")
    sort_mb = value(row, "mapreduce.task.io.sort.mb")
    return map_mb > max_alloc or reduce_mb > max_alloc or sort_mb > 0.7 * 0.8 * map_mb


def runtime(row, rng=None):
    nodes, cores = 8, 16
    nm_mb = value(row, "yarn.nodemanager.resource.memory-mb")
    nm_vcores = math.floor(value(row, "yarn.nodemanager.resource.cpu-vcores"))
    map_mb = value(row, "mapreduce.map.memory.mb")
    map_vcores = max(1, math.floor(value(row, "mapreduce.map.cpu.vcores")))
    reduce_mb = value(row, "mapreduce.reduce.memory.mb")
    sort_mb = value(row, "mapreduce.task.io.sort.mb")
    factor = max(2, math.floor(value(row, "mapreduce.task.io.sort.factor")))
    reducers = max(1, round(value(row, "mapreduce.job.reduces")))
    copies = max(1, math.floor(value(row, "mapreduce.reduce.shuffle.parallelcopies")))
    buffer = value(row, "mapreduce.reduce.shuffle.input.buffer.percent")
    slowstart = value(row, "mapreduce.job.reduce.slowstart.completedmaps")

    map_per_node = max(1, min(math.floor(nm_mb / map_mb), nm_vcores // map_vcores))
    over = max(1.0, map_per_node * map_vcores / cores)
    spills = math.ceil(300 / (0.8 * sort_mb))
    passes = math.ceil(math.log(spills) / math.log(factor)) if spills > 1 else 0
    map_task = 20 * over * (1 + 0.18 * (spills - 1)) * (1 + 0.05 * passes)
    map_stage = math.ceil(400 / (nodes * map_per_node)) * map_task

    reduce_per_node = max(1, min(math.floor(nm_mb / reduce_mb), nm_vcores))
    share_mib = 30 * 1024 / reducers
    fetch = share_mib / min(copies * 12, 110)
    if share_mib > 0.8 * reduce_mb * buffer:
        fetch *= 1.6
    reduce_task = fetch + 4
    reduce_stage = math.ceil(reducers / (nodes * reduce_per_node)) * reduce_task
    overlap = min(fetch, map_stage) * (1 - slowstart) * 0.5
    total = 15 + map_stage + reduce_stage - overlap
    return total * (math.exp(rng.normal(0, 0.04)) if rng is not None else 1.0)


def judge(path):
    import json
    with open(path) as f:
        config = json.load(f)["config"]
    row = [float(config[name]) for name in NAMES]
    if failed(row):
        print("fails by the rule")
    else:
        print(f"succeeds; noise-free run time {runtime(row):.1f} s")


def write(out, runs, rng):
    rows = [[c[3] for c in COLUMNS]]  # Hadoop's defaults first, as BestConf writes them
    rows += latin_hypercube(rng, runs - 1, [(lo, hi) for _, lo, hi, _ in COLUMNS])
    with open(out, "w") as f:
        f.write("% Generated by bench/tune_hadoop_gen.py (not measured): "
                "BestConf's Hadoop layout,\n")
        f.write("% a known response surface and failure region (the script's docstring).\n")
        f.write("@relation InitialSetByLHS\n\n")
        for name in NAMES:
            f.write(f"@attribute {name} numeric\n")
        f.write("@attribute performance numeric\n\n@data\n")
        failures = 0
        for i, row in enumerate(rows):
            if failed(row):
                perf = "-1"
                failures += 1
            else:
                perf = f"{runtime(row, rng):.1f}"
            cells = [f"{v:g}" if i == 0 else f"{v:.6f}".rstrip("0").rstrip(".") for v in row]
            f.write(",".join(cells + [perf]) + "\n")
    print(f"{out}: {runs} runs, {failures} failed", file=sys.stderr)


if __name__ == "__main__":
    main(write, judge, default_runs=120, default_seed=19)
