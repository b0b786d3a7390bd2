#!/usr/bin/env bash
# `perfplan ingest mapreduce` throughput on a generated .jhist history folder, beside jq on the
# same files (docs/performance.md, "MapReduce ingest"). The folder is the real Sleep-job history of
# ../shared/data (Hadoop 0.23, 10 maps + 2 reduces, 95 KB) copied under distinct job ids until it
# reaches MB megabytes, so the event mix and counter density are those of a real file.
#   bench/mapreduce_ingest_bench.sh [MB=1024] [OUT=/tmp/perfplan-mr-bench]
# Prints CPU seconds (user+sys) and MB/s of CPU for both tools. The store goes to OUT too.
set -euo pipefail
MB=${1:-1024}
OUT=${2:-/tmp/perfplan-mr-bench}
HERE=$(cd "$(dirname "$0")/.." && pwd)
PERFPLAN=${PERFPLAN:-$HERE/build/perfplan}
SRC=$HERE/../shared/data/04-workload-runtime-traces/hadoop-jobhistory/job_1329348432655_0001-1329348443227-user-Sleep+job-1329348468601-10-1-SUCCEEDED-default.jhist
mkdir -p "$OUT/history"
python3 - "$SRC" "$OUT/history" "$MB" <<'PY'
import os, sys
src, out, mb = sys.argv[1], sys.argv[2], int(sys.argv[3])
text = open(src).read()
target = mb * 1024 * 1024
have = sum(os.path.getsize(os.path.join(out, f)) for f in os.listdir(out))
k = len(os.listdir(out))
while have < target:
    jid = "1329348432655_%06d" % (k + 1)
    data = text.replace("1329348432655_0001", jid)
    with open(os.path.join(out, "job_%s.jhist" % jid), "w") as f:
        f.write(data)
    have += len(data)
    k += 1
print("history: %d files, %.1f MB" % (k, have / 1e6))
PY
BYTES=$(du -sb "$OUT/history" | cut -f1)
rm -f "$OUT/store.db" "$OUT/store.db.lock"
cpu() { awk '/User time/{u=$4} /System time/{s=$4} END{printf "%.2f", u+s}' "$1"; }
/usr/bin/time -v "$PERFPLAN" ingest mapreduce "$OUT/history" --store "$OUT/store.db" \
  >"$OUT/ingest.out" 2>"$OUT/ingest.time"
tail -1 "$OUT/ingest.out"
/usr/bin/time -v sh -c "find '$OUT/history' -name '*.jhist' -exec tail -q -n +2 {} + | jq -c . >/dev/null" \
  2>"$OUT/jq.time"
P=$(cpu "$OUT/ingest.time"); J=$(cpu "$OUT/jq.time")
awk -v b="$BYTES" -v p="$P" -v j="$J" 'BEGIN{
  printf "perfplan ingest mapreduce: %.2f s CPU, %.1f MB/s\n", p, b/1e6/p;
  printf "jq -c . (same lines):       %.2f s CPU, %.1f MB/s\n", j, b/1e6/j;
  printf "ratio perfplan/jq CPU time: %.2f\n", p/j }'
grep 'Maximum resident' "$OUT/ingest.time"
