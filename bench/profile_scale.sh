#!/usr/bin/env bash
# `validate` and `predict` on generated profiles of 2,000, 20,000 and 200,000 runs (issue 16,
# item 5; docs/performance.md, "Profiles of 200,000 runs"): the real CLI under /usr/bin/time
# (wall, user + sys CPU, peak RSS), YAML and JSON, then the same text through yaml-cpp at 2,000
# and 20,000 runs (profile_bench read FILE yaml-cpp) for the comparison. Not a test: run by hand
# on a normal build; the generated files (~130 MB at 200,000 runs) stay in SCRATCH.
#
#   bench/profile_scale.sh BUILD_DIR [SCRATCH]
#   e.g. ninja -C build perfplan profile_bench && bench/profile_scale.sh build /tmp/profiles
set -euo pipefail
build=${1:?usage: profile_scale.sh BUILD_DIR [SCRATCH]}
scratch=${2:-$(mktemp -d)}
mkdir -p "$scratch"
perfplan=$build/perfplan
bench=$build/bench/profile_bench
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
for runs in 2000 20000 200000; do
  for format in yaml json; do
    file=$scratch/p$runs.$format
    "$bench" generate "$runs" "$file" "$format"
    for command in validate predict; do
      if [ "$command" = validate ]; then
        args=(validate "$file")
      else
        args=(predict --profile "$file" --dataset-bytes 8e9 --storage-nodes 4 --compute-nodes 16
              --bandwidth-bytes-per-second 1.25e8 --json)
      fi
      /usr/bin/time -f "$runs runs $format $command: wall %e s, cpu %U+%S s, peak %M KB" \
        "$perfplan" "${args[@]}" > /dev/null
    done
  done
done
for runs in 2000 20000; do
  echo "== $runs runs through yaml-cpp (profile_bench read … yaml-cpp)"
  "$bench" read "$scratch/p$runs.yaml" yaml-cpp
done
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
