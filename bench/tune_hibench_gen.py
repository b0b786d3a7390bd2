#!/usr/bin/python3
"""A HiBench-like Spark tuning data set: RUNS measured TeraSort runs x 32 Spark parameters, written
the way the published HiBench tuning sets are (values normalised to [0, 1], a ranges file with
min/max/default per parameter, x_true = max(x * max, min)).

Usage: /usr/bin/python3 bench/tune_hibench_gen.py OUT.csv OUT_RANGES.yaml [RUNS=1000] [SEED=21]

The published HiBench sets are not in ../shared/data, so this writes one of the same shape. The
parameters and ranges come from Spark's configuration documentation (docs/configuration.md: name,
default, meaning) and the ranges tuning papers on HiBench use; the response is a cost model of
TeraSort (100 GiB, HDFS blocks of 128 MiB) on 8 YARN nodes of 16 vcores and 64 GiB, fixed before
perfplan was run on it (docs/accuracy.md, "HiBench-like data set", states it in words):

  executors   = min(instances, 8 * min(floor(16 / cores), floor(64 GiB / (memory + overhead))))
  slots       = executors * cores
  map stage   = ceil(800 / slots) waves of 9 s tasks, x GC factor, x compression CPU (+8% when
                shuffle.compress), + 25% remote-read cost on a share of tasks that falls as
                locality.wait grows, + locality.wait * 0.05 per wave
  shuffle     = 100 GiB (x 0.45 when shuffle.compress) over 10 GiB/s, slowed by small fetches
                (1 + 0.35 * (8 MiB / maxSizeInFlight)^0.7) and small write buffers
                (1 + 0.4 * sqrt(16 KiB / shuffle.file.buffer)) on 3.2 GiB/s of disk
  reduce      = ceil(parallelism / slots) waves of (100 GiB / parallelism) at 60 MiB/s per core,
                spilling (1 + 0.6 * log2(data / memory), x 0.7 when spill.compress) when a task's
                data exceeds executor memory * memory.fraction * (1 - storageFraction / 2) / cores,
                + 40 ms per task of scheduling overhead
  GC factor   = 1 + 0.12 * cores / memory_GiB + 0.8 * max(0, memory.fraction - 0.75)
  speculation = stage times x (0.93 + 0.02 * (multiplier - 1.5)) when on
  total       = 12 s start + 0.3 s per executor + stages, x lognormal noise (sigma 0.04)
The other 16 parameters (driver, broadcast, RPC, kryo buffers, timeouts, ...) do not enter it,
as most of a real configuration space does not matter for one workload.
"""
import math
import sys

import numpy as np

KIB, MIB, GIB = 1, 1024, 1024 * 1024  # Size. columns are KiB (BestConf's convention)

# name, min, max, default, kind (int | bool | real); Size. in KiB, Time. in ms.
PARAMETERS = [
    ("spark.executor.cores", 2, 8, 2, "int"),
    ("spark.executor.instances", 8, 32, 8, "int"),
    ("Size.spark.executor.memory", 1 * GIB, 32 * GIB, 1 * GIB, "int"),
    ("Size.spark.executor.memoryOverhead", 384 * MIB, 4 * GIB, 384 * MIB, "int"),
    ("spark.default.parallelism", 8, 1000, 200, "int"),
    ("spark.memory.fraction", 0.3, 0.9, 0.6, "real"),
    ("spark.memory.storageFraction", 0.1, 0.9, 0.5, "real"),
    ("spark.shuffle.compress", 0, 1, 1, "bool"),
    ("spark.shuffle.spill.compress", 0, 1, 1, "bool"),
    ("Size.spark.reducer.maxSizeInFlight", 2 * MIB, 128 * MIB, 48 * MIB, "int"),
    ("Size.spark.shuffle.file.buffer", 2 * KIB, 128 * KIB, 32 * KIB, "int"),
    ("Time.spark.locality.wait", 100, 10000, 3000, "int"),
    ("spark.speculation", 0, 1, 0, "bool"),
    ("spark.speculation.multiplier", 1, 5, 1.5, "real"),
    ("spark.speculation.quantile", 0.5, 0.95, 0.75, "real"),
    ("spark.shuffle.sort.bypassMergeThreshold", 10, 1000, 200, "int"),
    # No effect on this workload:
    ("spark.driver.cores", 1, 4, 1, "int"),
    ("Size.spark.driver.memory", 1 * GIB, 8 * GIB, 1 * GIB, "int"),
    ("spark.sql.shuffle.partitions", 8, 1000, 200, "int"),
    ("spark.task.maxFailures", 1, 8, 4, "int"),
    ("spark.rpc.message.maxSize", 64, 512, 128, "int"),
    ("Size.spark.broadcast.blockSize", 1 * MIB, 16 * MIB, 4 * MIB, "int"),
    ("Size.spark.storage.memoryMapThreshold", 1 * MIB, 16 * MIB, 2 * MIB, "int"),
    ("Size.spark.kryoserializer.buffer", 2 * KIB, 128 * KIB, 64 * KIB, "int"),
    ("Size.spark.kryoserializer.buffer.max", 8 * MIB, 256 * MIB, 64 * MIB, "int"),
    ("Time.spark.network.timeout", 20000, 500000, 120000, "int"),
    ("Time.spark.executor.heartbeatInterval", 5000, 50000, 10000, "int"),
    ("Time.spark.speculation.interval", 10, 1000, 100, "int"),
    ("Time.spark.scheduler.revive.interval", 100, 5000, 1000, "int"),
    ("spark.broadcast.compress", 0, 1, 1, "bool"),
    ("spark.rdd.compress", 0, 1, 0, "bool"),
    ("spark.kryo.referenceTracking", 0, 1, 1, "bool"),
]
assert len(PARAMETERS) == 32


def setting(x, lo, hi, kind):
    v = max(x * hi, lo)  # the published convention
    if kind == "int":
        return float(round(v))
    if kind == "bool":
        return 1.0 if v >= 0.5 else 0.0
    return v


def runtime(p, rng):
    cores = p["spark.executor.cores"]
    mem = p["Size.spark.executor.memory"] / GIB
    overhead = max(p["Size.spark.executor.memoryOverhead"] / GIB, 0.1 * mem)
    per_node = min(16 // cores, math.floor(64 / (mem + overhead)))
    executors = min(p["spark.executor.instances"], 8 * per_node)
    slots = executors * cores
    fraction = p["spark.memory.fraction"]
    gc = 1 + 0.12 * cores / mem + 0.8 * max(0.0, fraction - 0.75)
    compress = p["spark.shuffle.compress"] == 1
    wait_s = p["Time.spark.locality.wait"] / 1000
    spec = 1.0
    if p["spark.speculation"] == 1:
        spec = 0.93 + 0.02 * (p["spark.speculation.multiplier"] - 1.5)

    map_waves = math.ceil(800 / slots)
    remote_share = 0.5 * math.exp(-wait_s / 1.5)
    map_task = 9.0 * gc * (1.08 if compress else 1.0) * (1 + 0.25 * remote_share)
    map_stage = (map_waves * map_task + map_waves * 0.05 * wait_s) * spec

    shuffle_gib = 100 * (0.45 if compress else 1.0)
    inflight_mib = p["Size.spark.reducer.maxSizeInFlight"] / MIB
    buffer_kib = p["Size.spark.shuffle.file.buffer"] / KIB
    network = shuffle_gib / 10 * (1 + 0.35 * (8 / inflight_mib) ** 0.7)
    disk = shuffle_gib / 3.2 * (1 + 0.4 * math.sqrt(16 / buffer_kib))
    shuffle = network + disk

    parallelism = p["spark.default.parallelism"]
    data_mib = 100 * 1024 / parallelism
    task_mem_mib = mem * 1024 * fraction * (1 - p["spark.memory.storageFraction"] / 2) / cores
    spill = 1.0
    if data_mib > task_mem_mib:
        spill = 1 + 0.6 * math.log2(data_mib / task_mem_mib)
        if p["spark.shuffle.spill.compress"] == 1:
            spill = 1 + 0.7 * (spill - 1)
    reduce_task = data_mib / 60 * gc * spill
    reduce_stage = (math.ceil(parallelism / slots) * reduce_task + 0.04 * parallelism) * spec

    total = 12 + 0.3 * executors + map_stage + shuffle + reduce_stage
    return total * math.exp(rng.normal(0, 0.04))


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: tune_hibench_gen.py OUT.csv OUT_RANGES.yaml [RUNS=1000] [SEED=21]")
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
    seed = int(sys.argv[4]) if len(sys.argv) > 4 else 21
    rng = np.random.default_rng(seed)
    names = [q[0] for q in PARAMETERS]
    with open(sys.argv[1], "w") as out:
        out.write(",".join(names) + ",time_seconds\n")
        for _ in range(runs):
            xs = rng.random(len(PARAMETERS))
            p = {n: setting(x, lo, hi, kind) for x, (n, lo, hi, _, kind) in zip(xs, PARAMETERS)}
            t = runtime(p, rng)
            out.write(",".join(f"{x:.6f}" for x in xs) + f",{t:.3f}\n")
    with open(sys.argv[2], "w") as out:
        out.write("# Real ranges of the generated HiBench-like runs (values there are x in [0, 1];\n"
                  "# the setting is max(x * max, min)). Size. columns are KiB, Time. columns ms.\n")
        for n, lo, hi, default, _ in PARAMETERS:
            out.write(f"{n}: {{min: {lo:.10g}, max: {hi:.10g}, default: {default:.10g}}}\n")


if __name__ == "__main__":
    main()
