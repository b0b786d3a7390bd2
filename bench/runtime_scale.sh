#!/usr/bin/env bash
# `evaluate` and `backtest` as the history grows (issue 15 item 4; docs/performance.md, "Runtime
# model at scale"). Generates runs CSVs of one workload (bench/runtime_history_gen.py) and prints,
# for each size, the user CPU seconds and peak RSS of `evaluate` (every run but the last 10 trains)
# and of `backtest` (each run predicted from the runs before it), for PERFPLAN and, when given, a
# second binary PEER (e.g. an older build) in the same run. Not a test: run by hand on a release
# build; sizes default to evaluate 200 800 3200 12800 and backtest 100 200 400.
#
#   bench/runtime_scale.sh PERFPLAN [SCRATCH] [PEER]
#   e.g. bench/runtime_scale.sh build/perfplan /tmp/rs
set -euo pipefail
perfplan=${1:?usage: runtime_scale.sh PERFPLAN [SCRATCH] [PEER]}
scratch=${2:-$(mktemp -d)}
peer=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$scratch"
measure() {  # LABEL BINARY ARGS...
  local label=$1 bin=$2
  shift 2
  /usr/bin/time -f "$label %U user-s %M KiB" "$bin" "$@" >/dev/null
}
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
for n in ${EVALUATE_SIZES:-200 800 3200 12800}; do
  f=$scratch/history-$n.csv
  [[ -s $f ]] || "$here/runtime_history_gen.py" "$n" >"$f"
  measure "evaluate n=$n" "$perfplan" evaluate --runs "$f" --workload w --train "time<$((n - 10))"
  if [[ -n $peer ]]; then
    measure "peer evaluate n=$n" "$peer" evaluate --runs "$f" --workload w --train "time<$((n - 10))"
  fi
done
for n in ${BACKTEST_SIZES:-100 200 400}; do
  f=$scratch/history-$n.csv
  [[ -s $f ]] || "$here/runtime_history_gen.py" "$n" >"$f"
  measure "backtest n=$n" "$perfplan" backtest --runs "$f" --workload w
  [[ -z $peer ]] || measure "peer backtest n=$n" "$peer" backtest --runs "$f" --workload w
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
