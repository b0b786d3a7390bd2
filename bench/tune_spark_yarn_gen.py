#!/usr/bin/python3
"""A Spark-on-YARN tuning data set with failed runs, from Spark's and YARN's documented failure
mechanisms: the second held-out check of failure-aware `tune recommend` (docs/accuracy.md,
"Held-out failure sets"). Its failure rules come from the Spark and YARN documentation and
sources named below, not from bench/tune_hadoop_gen.py's rules, and were written before perfplan
ran on the set.

Usage: /usr/bin/python3 bench/tune_spark_yarn_gen.py OUT.csv [RUNS=150] [SEED=8]
       /usr/bin/python3 bench/tune_spark_yarn_gen.py --judge RECOMMEND.json
The second form reads `perfplan tune recommend --json` output for this set (its `config_text`,
Spark's own value strings) and prints whether the configuration fails by the rules below and, if
not, its noise-free run time.

The file is a CSV in spark-defaults.conf spelling (`4608m`, `64k`, `3s`, `lz4`, `true`), the
first row Spark's defaults on YARN, the others a Latin hypercube over the ranges below, integers
whole, sizes in whole MiB (KiB for the shuffle file buffer), `time_seconds` = run time, -1 for a
failed run. Two YARN scheduler limits are columns too (`yarn-site.xml`), as BestConf's Hadoop sets
vary `yarn.scheduler.maximum-allocation-mb`.

The job: a shuffle-heavy Spark SQL aggregation, 200 GiB read in 1,600 input partitions, 60 GiB
shuffled, on 10 NodeManagers of 56 GiB (yarn.nodemanager.resource.memory-mb 57344) and 16 vcores.

  overhead(m)       = max(384 MiB, 0.10 x m)          (spark.executor.memoryOverhead's default,
                                                       also spark.driver.memoryOverhead's)
  executors         = min(instances, 10 x min(floor(57344 / (memory + overhead)), floor(16 / cores)))
  slots             = executors x cores
  task memory       = (executor memory - 300 MiB) x memory.fraction / cores
                      (UnifiedMemoryManager: 300 MiB reserved, then spark.memory.fraction of the
                      rest is the unified pool, shared by the cores' concurrent tasks)
  GC factor         = 1 + 0.25 x sqrt(512 MiB / task memory) + 0.6 x max(0, memory.fraction - 0.75)
  map stage         = ceil(1600 / slots) waves of 7 s tasks x GC factor x codec CPU
                      (lz4 1.00, snappy 1.02, zstd 1.08; x 0.96 when shuffle.compress is false)
                      + remote reads on (0.3 x exp(-locality.wait / 2 s)) of them (+30%)
                      + locality.wait x 0.05 per wave
  shuffle write     = 60 GiB (x 0.4 compressed: lz4 0.45, snappy 0.47, zstd 0.35) over the
                      cluster's 4 GiB/s of disk, slowed by small buffers (1 + 0.5 sqrt(16k / file.buffer))
  reduce stage      = ceil(partitions / slots) waves of (60 GiB x 1.4 skew / partitions) at 80 MiB/s,
                      x 1.7 when a task's share exceeds its task memory (it spills), fetch slowed
                      by small requests (1 + 0.3 (12m / maxSizeInFlight)^0.7),
                      + 0.35 s per task (scheduling, output commit)
  total             = 10 s submit + 0.4 s per executor + stages, x lognormal noise (sigma 0.04)

A run fails (time_seconds -1) when any of these holds:
  * executor memory + overhead > yarn.scheduler.maximum-allocation-mb: Spark's YARN client refuses
    to submit ("Required executor memory (M MB), offHeap memory (0) MB, overhead (O MB), and
    PySpark memory (0 MB) is above the max threshold (A MB) of this cluster!", yarn/Client.scala
    verifyClusterResources);
  * driver memory + its overhead > yarn.scheduler.maximum-allocation-mb (cluster mode: the driver
    runs in the ApplicationMaster's container; the same check, "Required AM memory");
  * spark.executor.cores > yarn.scheduler.maximum-allocation-vcores: the ResourceManager rejects
    the container request (InvalidResourceRequestException, "Invalid resource request, requested
    virtual cores < 0, or requested virtual cores > max configured"), the application fails;
  * task memory < the largest reduce task's working set that cannot spill (the rows of one key
    group, 80,000 MiB / partitions: 400 MiB at the default 200 partitions): OutOfMemoryError
    in the reduce tasks, spark.task.maxFailures (4) attempts, the job fails.
The ranges and the working-set constant were chosen (twice: the first try failed 89 of 150 runs and
Spark's own defaults) to give a failed share near BestConf's (a quarter to a half) before
perfplan ran on the set; nothing was changed after.
"""
import math

from tune_gen_common import judge_config_text, latin_hypercube, main, write_csv

MIB = 1
NODES, NODE_MB, NODE_VCORES = 10, 57344, 16

# name, min, max, default, kind: int | mib | kib | seconds | fraction | codec | bool
COLUMNS = [
    ("spark.executor.instances", 2, 40, 2, "int"),
    ("spark.executor.cores", 1, 8, 1, "int"),
    ("spark.executor.memory", 1024, 16384, 1024, "mib"),
    ("spark.driver.memory", 1024, 8192, 1024, "mib"),
    ("spark.memory.fraction", 0.3, 0.9, 0.6, "fraction"),
    ("spark.memory.storageFraction", 0.1, 0.9, 0.5, "fraction"),
    ("spark.sql.shuffle.partitions", 20, 800, 200, "int"),
    ("spark.shuffle.file.buffer", 16, 1024, 32, "kib"),
    ("spark.reducer.maxSizeInFlight", 12, 192, 48, "mib"),
    ("spark.locality.wait", 0, 10, 3, "seconds"),
    ("spark.io.compression.codec", 0, 3, 0, "codec"),
    ("spark.shuffle.compress", 0, 2, 1, "bool"),
    ("yarn.scheduler.maximum-allocation-mb", 6144, 24576, 8192, "int"),
    ("yarn.scheduler.maximum-allocation-vcores", 2, 16, 4, "int"),
]
NAMES = [c[0] for c in COLUMNS]
CODECS = ["lz4", "snappy", "zstd"]
CODEC_CPU = {"lz4": 1.00, "snappy": 1.02, "zstd": 1.08}
CODEC_RATIO = {"lz4": 0.45, "snappy": 0.47, "zstd": 0.35}
WORKING_SET_MIB_PARTITIONS = 80000.0


def overhead(memory_mib):
    return max(384.0, 0.10 * memory_mib)


def failure(c):
    """The rule that fails configuration c (a dict of real values), or None."""
    alloc = c["yarn.scheduler.maximum-allocation-mb"]
    mem = c["spark.executor.memory"]
    if mem + overhead(mem) > alloc:
        return "executor container above yarn.scheduler.maximum-allocation-mb"
    driver = c["spark.driver.memory"]
    if driver + overhead(driver) > alloc:
        return "driver (AM) container above yarn.scheduler.maximum-allocation-mb"
    if c["spark.executor.cores"] > c["yarn.scheduler.maximum-allocation-vcores"]:
        return "spark.executor.cores above yarn.scheduler.maximum-allocation-vcores"
    task_mib = (mem - 300) * c["spark.memory.fraction"] / c["spark.executor.cores"]
    if task_mib < WORKING_SET_MIB_PARTITIONS / c["spark.sql.shuffle.partitions"]:
        return "OutOfMemoryError: task memory below the reduce working set"
    return None


def runtime(c, rng=None):
    mem, cores = c["spark.executor.memory"], c["spark.executor.cores"]
    per_node = min(math.floor(NODE_MB / (mem + overhead(mem))), NODE_VCORES // cores)
    executors = min(c["spark.executor.instances"], NODES * per_node)
    slots = executors * cores
    fraction = c["spark.memory.fraction"]
    task_mib = (mem - 300) * fraction / cores
    gc = 1 + 0.25 * math.sqrt(512 / task_mib) + 0.6 * max(0.0, fraction - 0.75)
    codec = c["spark.io.compression.codec"]
    compress = c["spark.shuffle.compress"] == "true"
    cpu = CODEC_CPU[codec] if compress else 0.96
    wait = c["spark.locality.wait"]
    waves = math.ceil(1600 / slots)
    map_task = 7 * gc * cpu * (1 + 0.3 * 0.3 * math.exp(-wait / 2))
    map_stage = waves * map_task + waves * wait * 0.05

    written_gib = 60 * (CODEC_RATIO[codec] if compress else 1.0)
    buffer = c["spark.shuffle.file.buffer"]
    write = written_gib / 4 * (1 + 0.5 * math.sqrt(16 / buffer))

    partitions = c["spark.sql.shuffle.partitions"]
    share_mib = 60 * 1024 * 1.4 / partitions
    fetch = 1 + 0.3 * (12 / c["spark.reducer.maxSizeInFlight"]) ** 0.7
    reduce_task = share_mib / 80 * fetch * (1.7 if share_mib > task_mib else 1.0) * gc + 0.35
    reduce_stage = math.ceil(partitions / slots) * reduce_task

    total = 10 + 0.4 * executors + map_stage + write + reduce_stage
    return total * (math.exp(rng.normal(0, 0.04)) if rng is not None else 1.0)


def spark_text(name, kind, v):
    if kind == "int":
        return str(int(v))
    if kind == "mib":
        return f"{int(v)}m"
    if kind == "kib":
        return f"{int(v)}k"
    if kind == "seconds":
        return f"{int(round(v * 1000))}ms"
    if kind == "fraction":
        return f"{v:.3f}"
    if kind == "codec":
        return CODECS[int(v)]
    if kind == "bool":
        return "true" if int(v) == 1 else "false"
    raise ValueError(kind)


def parse_size_mib(text):
    units = {"k": 1 / 1024, "m": 1, "g": 1024, "t": 1024 * 1024}
    t = text.strip().lower().rstrip("b")
    if t[-1] in units:
        return float(t[:-1]) * units[t[-1]]
    return float(t) / (1024 * 1024)  # plain bytes


def parse_seconds(text):
    t = text.strip().lower()
    for suffix, scale in (("ms", 0.001), ("min", 60), ("us", 1e-6), ("s", 1), ("h", 3600)):
        if t.endswith(suffix):
            return float(t[: -len(suffix)]) * scale
    return float(t)


def from_text(cells):
    """Real values of a configuration given as Spark strings (a CSV row, or config_text)."""
    c = {}
    for name, _, _, _, kind in COLUMNS:
        text = cells[name]
        if kind in ("int", "fraction"):
            c[name] = float(text)
        elif kind == "mib":
            c[name] = parse_size_mib(text)
        elif kind == "kib":
            c[name] = parse_size_mib(text) * 1024
        elif kind == "seconds":
            c[name] = parse_seconds(text)
        else:
            c[name] = text
    return c


def judge(path):
    judge_config_text(path, from_text, failure, runtime)


def write(out, runs, rng):
    rows = [[spark_text(n, k, d) for n, _, _, d, k in COLUMNS]]  # Spark's defaults first
    for drawn in latin_hypercube(rng, runs - 1, [(lo, hi) for _, lo, hi, _, _ in COLUMNS]):
        row = []
        for v, (name, lo, hi, _, kind) in zip(drawn, COLUMNS):
            if kind in ("int", "mib", "kib", "codec", "bool"):
                v = min(math.floor(v), hi if kind in ("int", "mib", "kib") else hi - 1)
            row.append(spark_text(name, kind, v))
        rows.append(row)
    write_csv(out, NAMES, rows, failure, runtime, from_text, rng)


if __name__ == "__main__":
    main(write, judge, default_runs=150, default_seed=8)
