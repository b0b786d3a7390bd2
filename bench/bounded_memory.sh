#!/usr/bin/env bash
# Peak memory on ~5 GB inputs (issue 10, item 5): generates a ~5 GB Spark event log and a ~5 GB
# HDFS log in a scratch folder, runs them through the readers and ingesters, prints peak RSS
# (getrusage ru_maxrss) of each, and deletes the inputs; likewise ~1.6 GB Spark logs of 10^4 and
# 10^5 stages, whatever GB is. Not a test: run by hand on a normal (not sanitized) build. Needs
# ~12 GB of free disk in SCRATCH.
#
#   bench/bounded_memory.sh BUILD_DIR [SCRATCH] [GB]
#   e.g. ninja -C build spark_ingest_bench perfplan_hdfs_bench && bench/bounded_memory.sh build
#
# Results go in docs/performance.md, "Memory on 5 GB inputs" (the many-stage cases: "`ingest
# spark` memory on applications of many stages" and "`ingest spark` memory independent of the
# number of stages").
set -euo pipefail
build=${1:?usage: bounded_memory.sh BUILD_DIR [SCRATCH] [GB]}
scratch=${2:-$(mktemp -d)}
gb=${3:-5}
mkdir -p "$scratch"
trap 'rm -f "$scratch"/bounded-*' EXIT
spark_bench=$build/bench/spark_ingest_bench
hdfs_bench=$build/bench/perfplan_hdfs_bench
# A generated task pair is ~1,585 bytes (1.58 GB per 10^6 tasks, docs/performance.md).
tasks=$((gb * 1000000000 / 1585))

echo "== Spark: generating $tasks tasks (~$gb GB)"
/usr/bin/time -f "generate: %e s" "$spark_bench" generate "$scratch/bounded-spark.log" "$tasks" 200
ls -l "$scratch/bounded-spark.log"
echo "== Spark: ingest into a fresh store (reader + simdjson + SQLite)"
"$spark_bench" ingest "$scratch/bounded-spark.db" "$scratch/bounded-spark.log"
rm -f "$scratch"/bounded-spark*

# Many stages: memory that grew with stages x executors (issue 16, session 13). The issue's
# benchmark application, 10^6 tasks in 10^4 stages of 100 tasks on 200 executors (~1.6 GB),
# whatever GB says; --jobs 1 and 2 (the parser adds up the summaries there).
# And what grew with the stages alone (issue 16, session 14): the same 10^6 tasks in 10^5 stages
# of 10 tasks (~1.7 GB); the peak is to be that of 10^4 stages.
for stages in 10000 100000; do
  echo "== Spark: 10^6 tasks in $stages stages"
  "$spark_bench" generate "$scratch/bounded-stages.log" 1000000 "$stages"
  for jobs in 1 2; do
    rm -f "$scratch"/bounded-stages.db*
    "$spark_bench" ingest --jobs "$jobs" "$scratch/bounded-stages.db" "$scratch/bounded-stages.log"
  done
  rm -f "$scratch"/bounded-stages*
done

echo "== HDFS: generating ~$gb GB"
/usr/bin/time -f "generate: %e s" "$hdfs_bench" generate "$scratch/bounded-hdfs.log" \
  "$((gb * 1000000000))"
ls -l "$scratch/bounded-hdfs.log"
echo "== HDFS: parse every line (reader, no store)"
"$hdfs_bench" parse "$scratch/bounded-hdfs.log"
echo "== HDFS: ingest into a fresh store"
"$hdfs_bench" ingest "$scratch/bounded-hdfs.log" "$scratch/bounded-hdfs.db"
