#!/usr/bin/env bash
# `perfplan hdfs reduce` over the map output of ~10^6 and ~10^7 HDFS records (issue 16, items 2
# and 6; docs/performance.md, "`hdfs reduce` in bounded memory"): the real CLI under
# /usr/bin/time (wall, user + sys CPU, peak RSS), sorted as Hadoop's shuffle hands it to a reducer
# (`LC_ALL=C sort`) and shuffled (`shuf`, every kind out of time order: the external sort's path),
# with and without --streams, the answers kept so two builds can be compared byte for byte. The
# logs come from `perfplan_hdfs_bench generate LOG BYTES 20000` (as bench/hdfs_workload_scale.sh:
# 10,000 clients, 40 users, 20,000 files) and go through `perfplan hdfs map`; the map outputs
# (~94 MB and ~0.95 GB, each twice) stay in SCRATCH and are reused when present. Not a test: run
# by hand on a normal build.
#
#   bench/hdfs_reduce_scale.sh BUILD_DIR [SCRATCH] [OTHER_PERFPLAN]
#   e.g. ninja -C build perfplan perfplan_hdfs_bench && bench/hdfs_reduce_scale.sh build /tmp/hr
# With OTHER_PERFPLAN (e.g. a build of main; "" for none), that binary answers too, right after,
# and the JSON is compared. The reduce's scratch files go to $TMPDIR (else /tmp).
set -euo pipefail
build=${1:?usage: hdfs_reduce_scale.sh BUILD_DIR [SCRATCH] [OTHER_PERFPLAN]}
perfplan=$build/perfplan bench=$build/bench/perfplan_hdfs_bench
scratch=${2:-$(mktemp -d)} other=${3:-}
mkdir -p "$scratch" && echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
for size in k1m:309000000 k10m:3090000000; do
  name=${size%%:*} bytes=${size#*:}
  if [ ! -s "$scratch/$name.shuf.tsv" ]; then
    "$bench" generate "$scratch/$name.log" "$bytes" 20000
    "$perfplan" hdfs map < "$scratch/$name.log" 2> /dev/null |
      LC_ALL=C sort -S 512M -T "$scratch" > "$scratch/$name.tsv"
    rm -f "$scratch/$name.log"
    shuf --random-source=<(yes) "$scratch/$name.tsv" > "$scratch/$name.shuf.tsv"
  fi
  for order in "" .shuf; do  # sorted, shuffled
    for streams in "" --streams; do
      tag=$name$order${streams:+.streams}
      /usr/bin/time -f "$tag: wall %e s, cpu %U+%S s, peak %M KB" \
        "$perfplan" hdfs reduce $streams < "$scratch/$name$order.tsv" > "$scratch/$tag.json"
      [ -n "$other" ] || continue
      /usr/bin/time -f "$tag ($other): wall %e s, cpu %U+%S s, peak %M KB" \
        "$other" hdfs reduce $streams < "$scratch/$name$order.tsv" > "$scratch/$tag.other.json"
      if cmp -s "$scratch/$tag.json" "$scratch/$tag.other.json"; then
        echo "$tag: identical answers ($(wc -c < "$scratch/$tag.json") bytes)"
      else
        echo "$tag: ANSWERS DIFFER"
      fi
      rm -f "$scratch/$tag.other.json"
    done
  done
done
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
