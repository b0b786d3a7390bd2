#!/bin/sh
# The held-out failure check of `tune recommend` (docs/accuracy.md, "Held-out failure sets"):
# recommend on one of the three generated sets for seeds FIRST..LAST and judge each answer by the
# set's generator (its failure rules and noise-free run time).
#
# Usage: bench/tune_held_out.sh PERFPLAN hadoop|spark-yarn|mr-memory [FIRST=1] [LAST=20] [OUTDIR]
# Prints one line per seed: seed, the generator's verdict, the predicted failure probability, the
# bounds and the candidates they rejected; then how many of the seeds fail. The answers are kept
# in OUTDIR (default a temporary directory).
set -eu
perfplan=$1
set_name=$2
first=${3:-1}
last=${4:-20}
out=${5:-$(mktemp -d)}
here=$(dirname "$0")
case $set_name in
  hadoop) data=$here/../examples/tuning/hadoop_held_out.arff; target=performance
          gen=$here/tune_hadoop_gen.py ;;
  spark-yarn) data=$here/../examples/tuning/spark_yarn_held_out.csv; target=time_seconds
              gen=$here/tune_spark_yarn_gen.py ;;
  mr-memory) data=$here/../examples/tuning/mr_memory_held_out.csv; target=time_seconds
             gen=$here/tune_mr_memory_gen.py ;;
  *) echo "unknown set $set_name; expected hadoop, spark-yarn or mr-memory" >&2; exit 2 ;;
esac
mkdir -p "$out"
failed=0
seed=$first
while [ "$seed" -le "$last" ]; do
  "$perfplan" tune recommend --data "$data" --target "$target" --failed-marker -1 \
    --samples 20000 --seed "$seed" --json > "$out/rec$seed.json"
  verdict=$(/usr/bin/python3 "$gen" --judge "$out/rec$seed.json")
  case $verdict in fails*) failed=$((failed + 1)) ;; esac
  extra=$(/usr/bin/python3 -c 'import json,sys; f=json.load(open(sys.argv[1]))["failure"]
print("P %.3f, %d bounds, %d rejected by them" % (f["probability"], f["bounds"], f["bound_rejected"]))' \
    "$out/rec$seed.json")
  echo "seed $seed: $verdict ($extra)"
  seed=$((seed + 1))
done
echo "$set_name: $failed of $((last - first + 1)) seeds in the failed region (answers in $out)"
