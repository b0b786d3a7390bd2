#!/usr/bin/env bash
# The README's demo command: installs what is missing (as root), builds, and runs a whole planning
# session over examples/ — validation, predictions, and the replica/node choices a scheduler
# would act on — and ends with the decision table of `perfplan plan` (cost, Pareto front,
# the recommendation) and a capacity table for a day of SWIM jobs.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/deps.sh"
perfplan_ensure_packages
perfplan_build  # sets $build
"$build/perfplan" demo "$@"
cd "$here/.."
echo
echo "== capacity: how many nodes finish 50 Facebook-2009 jobs within an hour (docs/plan.md) =="
"$build/perfplan" capacity --trace examples/swim/fb2009_first50.tsv \
  --profile examples/profiles/kmeans.yaml --nodes 2,4,16,64 \
  --prices examples/prices/grid.yaml --price-site osu-cluster --within-hours 1
events=../shared/data/01-spark-eventlogs/apache-spark/spark-events/app-20161116163331-0000
if [ -e "$events" ]; then
  echo
  echo "== a Spark application from ../shared/data: executors, parameters, score, stragglers =="
  store=$(mktemp -d)/demo-spark.db
  "$build/perfplan" ingest spark "$events" --store "$store" > /dev/null
  "$build/perfplan" plan --store "$store" --app app-20161116163331-0000
  rm -rf "$(dirname "$store")"
fi
echo
echo "== the decision: perfplan plan, cheapest within 10 minutes (docs/plan.md) =="
exec "$build/perfplan" plan --profile examples/profiles/kmeans.yaml \
  --topology examples/topology.yaml --dataset sky-survey --prices examples/prices/grid.yaml \
  --objective cost --deadline-seconds 600 --top 5
