#!/usr/bin/env bash
# `perfplan workload --json` over generated HDFS stores of ~10^6 and ~10^7 records (issue 16,
# item 2; docs/performance.md, "Session 9"): the real CLI under /usr/bin/time (wall, user + sys
# CPU, peak RSS), with the answer kept so two builds can be compared byte for byte. The logs come
# from `perfplan_hdfs_bench generate LOG BYTES 20000` (10,000 clients, 40 users, 20,000 files), so
# a longer log is more history of the same cluster. Not a test: run by hand on a normal build;
# the logs and stores (~3 GB + ~1 GB at 10^7) stay in SCRATCH and are reused when present.
#
#   bench/hdfs_workload_scale.sh BUILD_DIR [SCRATCH] [OTHER_PERFPLAN] [--streams]
#   e.g. ninja -C build perfplan perfplan_hdfs_bench && bench/hdfs_workload_scale.sh build /tmp/hw
# With OTHER_PERFPLAN (e.g. a build of main; "" for none), that binary answers too and the JSON is
# diffed. With --streams the answers hold every client's read streams (~70 MB at 10^6 records,
# ~630 MB at 10^7, kept in SCRATCH).
set -euo pipefail
build=${1:?usage: hdfs_workload_scale.sh BUILD_DIR [SCRATCH] [OTHER_PERFPLAN]}
scratch=${2:-$(mktemp -d)}
other=${3:-}
streams=${4:-}
tag=${streams:+.streams}
mkdir -p "$scratch"
perfplan=$build/perfplan
bench=$build/bench/perfplan_hdfs_bench
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
for size in k1m:309000000 k10m:3090000000; do
  name=${size%%:*} bytes=${size#*:}
  if [ ! -s "$scratch/$name.db" ]; then
    "$bench" generate "$scratch/$name.log" "$bytes" 20000
    "$bench" ingest "$scratch/$name.log" "$scratch/$name.db"
    rm -f "$scratch/$name.log"
  fi
  /usr/bin/time -f "$name workload $streams: wall %e s, cpu %U+%S s, peak %M KB" \
    "$perfplan" workload --store "$scratch/$name.db" --json $streams > "$scratch/$name$tag.json"
  if [ -n "$other" ]; then
    /usr/bin/time -f "$name workload $streams ($other): wall %e s, cpu %U+%S s, peak %M KB" \
      "$other" workload --store "$scratch/$name.db" --json $streams > "$scratch/$name$tag.other.json"
    if cmp -s "$scratch/$name$tag.json" "$scratch/$name$tag.other.json"; then
      echo "$name: identical answers ($(wc -c < "$scratch/$name$tag.json") bytes)"
    else
      echo "$name: ANSWERS DIFFER"; cmp "$scratch/$name$tag.json" "$scratch/$name$tag.other.json"
    fi
  fi
done
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
