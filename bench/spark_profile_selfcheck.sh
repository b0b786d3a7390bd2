#!/bin/sh
# Issue 15 item 5: does a Spark application's derived profile predict its own runtime?
# For every completed application with 2 or more executors in the store: `spark profile`, then
# `predict` at the profile's own configuration (runs[0]), against the measured duration.
#   bench/spark_profile_selfcheck.sh build/perfplan spark.db
# (ingest the logs first, e.g. `build/perfplan ingest spark ../shared/data/01-spark-eventlogs/... --store spark.db`)
set -u
P=$1
S=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
"$P" apps --store "$S" | awk 'NR > 1 && $(NF-1) + 0 >= 2 && $NF == "completed" {print $1, $(NF-6)}' |
  while read -r app secs; do
    if ! "$P" spark profile "$app" --store "$S" --out "$T/app.yaml" > "$T/err" 2>&1; then
      echo "$app measured=$secs no profile: $(tail -1 "$T/err")"
      continue
    fi
    get() { awk -v k="$1:" '$1 == k || $2 == k {print $NF; exit}' "$T/app.yaml"; }
    pred=$("$P" predict --profile "$T/app.yaml" --dataset-bytes "$(get dataset_bytes)" \
      --storage-nodes "$(get storage_nodes)" --compute-nodes "$(get compute_nodes)" \
      --bandwidth-bytes-per-second "$(get bandwidth_bytes_per_second)" --json |
      sed -n 's/.*"runtime_seconds": *\([0-9.e+-]*\).*/\1/p' | tail -1)
    echo "$app $secs $pred" | awk '{printf "%s measured=%s predicted=%.1f error=%.1f%%\n", $1, $2, $3, 100 * ($3 - $2) / $2}'
  done
