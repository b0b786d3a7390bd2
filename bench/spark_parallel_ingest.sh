#!/usr/bin/env bash
# Parallel ingest (issue 16 item 3, target `--jobs 2` over 8 logs >= 1.6x `--jobs 1`): generates
# LOGS event logs of TASKS tasks each (spark_ingest_bench generate, distinct application ids),
# then ingests the folder into a fresh store with --jobs 1 and --jobs J, alternating, ROUNDS times
# each, and prints each run's wall and CPU seconds (spark_ingest_bench ingest: wall clock and
# getrusage of the process, all threads), the median wall-time ratio, and the load average before
# and after (the machine's other work is part of the figure). The --jobs 1 run is the sequential
# ingest itself. On a machine busy with other work the wall ratio says little, so it also prints
# the CPU accounting: the writer thread's CPU seconds (getrusage RUSAGE_THREAD) and the bound the
# accounting sets on J idle cores, cpu(--jobs 1) / max(writer cpu, cpu(--jobs J) / J): the writer
# is serial and the rest spreads over J cores at best. Not a test: run by hand on a release build.
#
#   bench/spark_parallel_ingest.sh BUILD_DIR [SCRATCH] [LOGS] [TASKS] [J] [ROUNDS]
#   e.g. ninja -C build spark_ingest_bench && bench/spark_parallel_ingest.sh build /tmp/spi
#
# Results go in docs/performance.md, "Parallel ingest".
set -euo pipefail
build=${1:?usage: spark_parallel_ingest.sh BUILD_DIR [SCRATCH] [LOGS] [TASKS] [J] [ROUNDS]}
scratch=${2:-$(mktemp -d)}
logs=${3:-8}
tasks=${4:-20000}
jobs=${5:-2}
rounds=${6:-3}
bench=$build/bench/spark_ingest_bench
dir=$scratch/logs-$logs-$tasks
mkdir -p "$dir"
for ((k = 0; k < logs; ++k)); do
  f=$dir/app-$k.log
  if [[ ! -s $f ]]; then
    "$bench" generate "$f.tmp" "$tasks" 100 >/dev/null
    # distinct application ids, so that the logs are 8 applications, not 8 copies of one
    sed "s/application_1700000000000_0001/application_1700000000000_$((1000 + k))/g" "$f.tmp" >"$f"
    rm "$f.tmp"
  fi
done
echo "logs: $logs x $(stat -c %s "$dir/app-0.log") bytes, $tasks tasks each; $(nproc) cores"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
declare -a one many bound
cpu1=
for ((r = 0; r < rounds; ++r)); do
  for j in 1 "$jobs"; do
    line=$("$bench" ingest --jobs "$j" "$scratch/store-$j.db" "$dir")
    echo "round $r: $line"
    wall=$(sed -E 's/.*seconds=([0-9.]+).*/\1/' <<<"$line")
    cpu=$(sed -E 's/.* cpu_s=([0-9.]+).*/\1/' <<<"$line")
    writer=$(sed -E 's/.*writer_cpu_s=([0-9.]+).*/\1/' <<<"$line")
    if [[ $j == 1 ]]; then
      one+=("$wall")
      cpu1=$cpu
    else
      many+=("$wall")
      bound+=("$(echo "scale=2; w = $writer; p = $cpu / $j; if (p > w) w = p; $cpu1 / w" | bc)")
    fi
  done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
median() { printf '%s\n' "$@" | sort -g | sed -n "$(((${#@} + 1) / 2))p"; }
m1=$(median "${one[@]}")
mj=$(median "${many[@]}")
echo "median wall: --jobs 1 ${m1} s, --jobs $jobs ${mj} s, speed-up $(echo "scale=2; $m1 / $mj" | bc)x"
echo "median CPU-accounting bound on $jobs idle cores: $(median "${bound[@]}")x"
rm -f "$scratch"/store-*.db*
