#!/usr/bin/python3
"""A MapReduce-on-YARN tuning data set whose runs fail by the NodeManager's memory monitors and
the task JVMs' heap: the third held-out check of failure-aware `tune recommend` (docs/accuracy.md,
"Held-out failure sets"). Written in session 9 *after* docs/tuning.md's "bounds of the successful
runs" rule was committed, from mechanisms that neither bench/tune_hadoop_gen.py nor
bench/tune_spark_yarn_gen.py uses; nothing here was changed after perfplan ran on the set.

Usage: /usr/bin/python3 bench/tune_mr_memory_gen.py OUT.csv [RUNS=150] [SEED=21]
       /usr/bin/python3 bench/tune_mr_memory_gen.py --judge RECOMMEND.json
The second form reads `perfplan tune recommend --json` output for this set (its `config_text`)
and prints whether the configuration fails by the rules below and, if not, its noise-free run
time.

The file is a CSV with Hadoop's property names and values as mapred-site.xml / yarn-site.xml
write them (integers in MB, fractions, true/false), the first row the cluster's site defaults
(a distribution's: 2 GiB map and 4 GiB reduce containers, Hadoop's default ratios), the others a
Latin hypercube over the ranges below; `time_seconds` = run time, -1 for a failed run.

The job: a sort of 100 GiB (800 splits of 128 MiB, map output = input) into R reducers, on 8
NodeManagers of 16 vcores and yarn.nodemanager.resource.memory-mb each.

  heap(c)        = mapreduce.job.heap.memory-mb.ratio x c      (the task JVM's -Xmx when
                                                                mapreduce.*.java.opts sets none,
                                                                MAPREDUCE-5785)
  map containers = min(floor(nm_memory / map_mb), 16) per node, CPU factor max(1, n / 14)
  map task       = 9 s read/map x CPU factor x (1.1 when map output is compressed)
                   + sort: spills = ceil(128 MiB / (io.sort.mb x sort.spill.percent)),
                     each spill after the first + 1.2 s, merge passes
                     ceil(log(spills) / log(io.sort.factor)) x 2.5 s
                   x GC factor 1 + 1.5 x max(0, (io.sort.mb + 256) / map heap - 0.6)
  map stage      = ceil(800 / (8 x map containers)) waves
  reduce         = 100 GiB (x 0.45 compressed) in R reducers, ceil(R / (8 x reduce containers))
                   waves; a reducer fetches its share at 90 MiB/s; what does not fit in
                   reduce heap x shuffle.input.buffer.percent goes to disk, merged in
                   ceil(spilled / (in-memory buffer x shuffle.merge.percent)) rounds of
                   io.sort.factor (+ 40 % per pass of the spilled bytes); + 5 s per reducer
                   (sort-merge final pass at 150 MiB/s of its share on top)
  overlap        = the first reduce wave's fetch overlaps the map stage by (1 - slowstart) x 0.5
  total          = 20 s job start + map stage + reduce stage - overlap, x lognormal (sigma 0.04)

A run fails (time_seconds -1) when any of these holds (Hadoop 2.x/3.x behaviour):
  * a task JVM's physical memory exceeds its container: heap + 300 MiB of non-heap (metaspace,
    code cache, thread stacks, GC structures) > mapreduce.map.memory.mb (or reduce.memory.mb):
    the NodeManager's ContainersMonitorImpl kills it ("Container ... is running beyond physical
    memory limits"), four attempts, the job fails. A sort job fills its heap, so the JVM
    reaches its -Xmx;
  * its virtual memory exceeds yarn.nodemanager.vmem-pmem-ratio x the container (vmem-check is
    on by default): heap + 300 MiB + 1,536 MiB reserved address space (the JVM's 1 GiB compressed
    class space, 240 MiB code cache, MALLOC_ARENA_MAX=4 arenas of 64 MiB) ("running beyond
    virtual memory limits");
  * the map heap cannot hold the sort buffer and the mapper: io.sort.mb + 256 MiB > map heap
    (OutOfMemoryError in MapTask$MapOutputBuffer.init);
  * io.sort.mb above 2,047: MapOutputBuffer.init rejects it ("Invalid
    "mapreduce.task.io.sort.mb"", the buffer is addressed with 11 bits of MB);
  * the reduce heap cannot hold the shuffle's in-memory segments and the reducer: MergeManagerImpl
    lets in-memory map outputs reach heap x shuffle.input.buffer.percent and one more segment of
    up to shuffle.memory.limit.percent of that, so heap x input.buffer.percent x
    (1 + memory.limit.percent) + 300 MiB > heap (OutOfMemoryError in the fetcher,
    "error in shuffle in fetcher");
  * yarn.app.mapreduce.am.resource.mb above yarn.scheduler.maximum-allocation-mb: the
    ResourceManager rejects the ApplicationMaster's container at submission.
The ranges were chosen for a failed share between a quarter and a half (as BestConf's sets)
before perfplan ran on the set: the first try (heap ratio to 0.95, vmem-pmem-ratio from 1.2,
io.sort.mb to 2,400, shuffle.input.buffer.percent to 0.9, memory.limit.percent to 0.6) failed
107 of 150 runs; the second, below, fails 71. Nothing was changed after.
"""
import math

from tune_gen_common import judge_config_text, latin_hypercube, main, write_csv

NODES, VCORES = 8, 16

# name, min, max, site default, kind: int | fraction | bool
COLUMNS = [
    ("mapreduce.map.memory.mb", 1024, 6144, 2048, "int"),
    ("mapreduce.reduce.memory.mb", 1024, 8192, 4096, "int"),
    ("mapreduce.job.heap.memory-mb.ratio", 0.5, 0.9, 0.8, "fraction"),
    ("yarn.nodemanager.vmem-pmem-ratio", 1.5, 4.0, 2.1, "fraction"),
    ("mapreduce.task.io.sort.mb", 50, 2100, 100, "int"),
    ("mapreduce.map.sort.spill.percent", 0.5, 0.95, 0.8, "fraction"),
    ("mapreduce.task.io.sort.factor", 5, 100, 10, "int"),
    ("mapreduce.reduce.shuffle.input.buffer.percent", 0.2, 0.8, 0.7, "fraction"),
    ("mapreduce.reduce.shuffle.memory.limit.percent", 0.1, 0.4, 0.25, "fraction"),
    ("mapreduce.reduce.shuffle.merge.percent", 0.3, 0.9, 0.66, "fraction"),
    ("mapreduce.job.reduces", 4, 128, 16, "int"),
    ("mapreduce.job.reduce.slowstart.completedmaps", 0.05, 1.0, 0.05, "fraction"),
    ("mapreduce.map.output.compress", 0, 2, 0, "bool"),
    ("yarn.app.mapreduce.am.resource.mb", 1024, 6144, 1536, "int"),
    ("yarn.scheduler.maximum-allocation-mb", 4096, 8192, 8192, "int"),
    ("yarn.nodemanager.resource.memory-mb", 16384, 57344, 40960, "int"),
]
NAMES = [c[0] for c in COLUMNS]
KINDS = {c[0]: c[4] for c in COLUMNS}
NON_HEAP_MIB = 300
RESERVED_VIRTUAL_MIB = 1536


def failure(c):
    """The rule that fails configuration c (a dict of real values), or None."""
    ratio = c["mapreduce.job.heap.memory-mb.ratio"]
    for task in ("map", "reduce"):
        container = c[f"mapreduce.{task}.memory.mb"]
        heap = ratio * container
        if heap + NON_HEAP_MIB > container:
            return f"{task} container killed: beyond physical memory limits"
        if heap + NON_HEAP_MIB + RESERVED_VIRTUAL_MIB > (
                c["yarn.nodemanager.vmem-pmem-ratio"] * container):
            return f"{task} container killed: beyond virtual memory limits"
    sort_mb = c["mapreduce.task.io.sort.mb"]
    if sort_mb > 2047:
        return "invalid mapreduce.task.io.sort.mb (above 2047)"
    if sort_mb + 256 > ratio * c["mapreduce.map.memory.mb"]:
        return "map OutOfMemoryError: sort buffer and mapper above the heap"
    reduce_heap = ratio * c["mapreduce.reduce.memory.mb"]
    shuffle = reduce_heap * c["mapreduce.reduce.shuffle.input.buffer.percent"] * (
        1 + c["mapreduce.reduce.shuffle.memory.limit.percent"])
    if shuffle + NON_HEAP_MIB > reduce_heap:
        return "reduce OutOfMemoryError in the shuffle"
    if c["yarn.app.mapreduce.am.resource.mb"] > c["yarn.scheduler.maximum-allocation-mb"]:
        return "AM container above yarn.scheduler.maximum-allocation-mb"
    return None


def runtime(c, rng=None):
    nm_mb = c["yarn.nodemanager.resource.memory-mb"]
    ratio = c["mapreduce.job.heap.memory-mb.ratio"]
    compress = c["mapreduce.map.output.compress"] == "true"
    map_mb, reduce_mb = c["mapreduce.map.memory.mb"], c["mapreduce.reduce.memory.mb"]
    sort_mb, factor = c["mapreduce.task.io.sort.mb"], max(2, int(c["mapreduce.task.io.sort.factor"]))

    map_per_node = max(1, min(math.floor(nm_mb / map_mb), VCORES))
    cpu = max(1.0, map_per_node / 14)
    spills = math.ceil(128 / (sort_mb * c["mapreduce.map.sort.spill.percent"]))
    passes = math.ceil(math.log(spills) / math.log(factor)) if spills > 1 else 0
    gc = 1 + 1.5 * max(0.0, (sort_mb + 256) / (ratio * map_mb) - 0.6)
    map_task = (9 * cpu * (1.1 if compress else 1.0) + 1.2 * (spills - 1) + 2.5 * passes) * gc
    map_stage = math.ceil(800 / (NODES * map_per_node)) * map_task

    reducers = int(c["mapreduce.job.reduces"])
    reduce_per_node = max(1, min(math.floor(nm_mb / reduce_mb), VCORES))
    share_mib = 100 * 1024 * (0.45 if compress else 1.0) / reducers
    fetch = share_mib / 90
    buffer_mib = ratio * reduce_mb * c["mapreduce.reduce.shuffle.input.buffer.percent"]
    spilled = max(0.0, share_mib - buffer_mib)
    merge = 0.0
    if spilled > 0:
        segments = math.ceil(spilled / (buffer_mib * c["mapreduce.reduce.shuffle.merge.percent"]))
        rounds = math.ceil(math.log(max(segments, 2)) / math.log(factor))
        merge = 0.4 * rounds * spilled / 90
    reduce_task = fetch + merge + share_mib / 150 + 5
    reduce_stage = math.ceil(reducers / (NODES * reduce_per_node)) * reduce_task
    overlap = min(fetch, map_stage) * (1 - c["mapreduce.job.reduce.slowstart.completedmaps"]) * 0.5
    total = 20 + map_stage + reduce_stage - overlap
    return total * (math.exp(rng.normal(0, 0.04)) if rng is not None else 1.0)


def text(kind, v):
    if kind == "int":
        return str(int(v))
    if kind == "fraction":
        return f"{v:.3f}"
    return "true" if int(v) == 1 else "false"


def from_text(cells):
    """Real values of a configuration given as strings (a CSV row, or config_text)."""
    return {name: (cells[name] if KINDS[name] == "bool" else float(cells[name])) for name in NAMES}


def judge(path):
    judge_config_text(path, from_text, failure, runtime)


def write(out, runs, rng):
    rows = [[text(k, d) for _, _, _, d, k in COLUMNS]]  # the site defaults first
    for values in latin_hypercube(rng, runs - 1, [(lo, hi) for _, lo, hi, _, _ in COLUMNS]):
        row = []
        for v, (_, _, hi, _, kind) in zip(values, COLUMNS):
            if kind == "int":
                v = min(math.floor(v), hi)
            elif kind == "bool":
                v = min(math.floor(v), hi - 1)
            row.append(text(kind, v))
        rows.append(row)
    write_csv(out, NAMES, rows, failure, runtime, from_text, rng)


if __name__ == "__main__":
    main(write, judge, default_runs=150, default_seed=21)
