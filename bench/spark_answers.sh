#!/usr/bin/env bash
# Answer times on a large Spark application (issue 16, Targets): generates one application of
# TASKS tasks in STAGES stages as a real Spark 3 event log (spark_ingest_bench generate: 200
# executors on 50 hosts), ingests it with `perfplan ingest spark`, then times each read answer
# with /usr/bin/time (wall, user, sys seconds, peak RSS). The peer is `jq` reading the same log
# (its count of task ends), the speed of merely reading the JSON once. Not a test: run by hand on a
# release build. Needs ~3 GB of free disk per 10^6 tasks in SCRATCH.
#
#   bench/spark_answers.sh BUILD_DIR [SCRATCH] [TASKS] [STAGES]
#   e.g. ninja -C build perfplan spark_ingest_bench && bench/spark_answers.sh build /tmp/sa
#
# Results go in docs/performance.md, "Spark answers at 10^6 tasks".
set -euo pipefail
build=${1:?usage: spark_answers.sh BUILD_DIR [SCRATCH] [TASKS] [STAGES]}
scratch=${2:-$(mktemp -d)}
tasks=${3:-1000000}
stages=${4:-10000}
mkdir -p "$scratch"
perfplan=$build/perfplan
log=$scratch/answers-$tasks.log
store=$scratch/answers-$tasks.db
app=application_1700000000000_0001
timed() {  # label, command...
  local label=$1
  shift
  /usr/bin/time -f "$label: %e s wall, %U s user, %S s sys, %M KiB peak" "$@" >/dev/null
}
if [[ ! -s $log ]]; then
  timed "generate $tasks tasks, $stages stages" "$build/bench/spark_ingest_bench" generate \
    "$log" "$tasks" "$stages"
fi
ls -l "$log"
if [[ ! -s $store ]]; then
  timed "ingest spark" "$perfplan" ingest spark "$log" --store "$store"
fi
ls -l "$store"
timed "peer: jq -c 'select(.Event == \"SparkListenerTaskEnd\")' | wc -l" \
  bash -c "jq -c 'select(.Event == \"SparkListenerTaskEnd\") | .\"Task Info\".\"Task ID\"' '$log' | wc -l"
middle=$((stages / 2))
timed "spark api one stage (stages/$middle/0)" \
  "$perfplan" spark api "applications/$app/stages/$middle/0" --store "$store"
timed "spark api one stage, all attempts (stages/$middle)" \
  "$perfplan" spark api "applications/$app/stages/$middle" --store "$store"
timed "spark api stage list (stages)" "$perfplan" spark api "applications/$app/stages" \
  --store "$store"
timed "spark api executors" "$perfplan" spark api "applications/$app/executors" --store "$store"
timed "spark api taskSummary (stages/$middle/0/taskSummary)" \
  "$perfplan" spark api "applications/$app/stages/$middle/0/taskSummary" --store "$store"
timed "spark api one stage withSummaries" \
  "$perfplan" spark api "applications/$app/stages/$middle/0?withSummaries=true" --store "$store"
timed "apps" "$perfplan" apps --store "$store"
timed "stragglers" "$perfplan" stragglers "$app" --store "$store" --json
timed "whatif executors, 12 counts" "$perfplan" whatif executors "$app" \
  --counts 1,2,4,8,16,32,64,100,128,200,256,400 --store "$store" --json
