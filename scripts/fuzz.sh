#!/usr/bin/env bash
# Builds the libFuzzer targets with clang 14 (ASan + UBSan) in build-fuzz/ and runs each for
# SECONDS (default 60) on a copy of its seed corpus, one target at a time on one core. Crashes are
# written as crash-* files in the current folder; the script exits 1 when any target fails.
# PERFPLAN_FUZZ_FLAGS adds libFuzzer flags, e.g. "-fork=1 -ignore_crashes=1" to keep going after a
# finding (the campaign of docs/reliability.md ran that way).
#   scripts/fuzz.sh [SECONDS] [TARGET...]      e.g. scripts/fuzz.sh 600 request_decoder_fuzz
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
source "$here/deps.sh"
perfplan_ensure_packages clang-14 libclang-rt-14-dev
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(request_decoder_fuzz http_request_fuzz ganglia_fuzz spark_event_log_fuzz spark_stream_fuzz
  hdfs_line_fuzz profile_fuzz run_tables_fuzz train_filter_fuzz mixture_fuzz)
build=${PERFPLAN_FUZZ_BUILD_DIR:-$root/build-fuzz}
if [ ! -f "$build/build.ninja" ]; then
  CXX=clang++-14 cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DPERFPLAN_BUILD_FUZZ=ON -DPERFPLAN_BUILD_TESTS=OFF -DPERFPLAN_BUILD_BENCH=OFF >&2
fi
cmake --build "$build" -j1 --target "${targets[@]}" >&2
status=0
for t in "${targets[@]}"; do
  corpus=$(mktemp -d)
  seeds="$root/fuzz/corpus/${t%_fuzz}"
  [ -d "$seeds" ] && cp -r "$seeds/." "$corpus/"
  echo "== $t for ${seconds}s" >&2
  "$build/fuzz/$t" -max_total_time="$seconds" -timeout=1 -rss_limit_mb=2048 -print_final_stats=1 \
    ${PERFPLAN_FUZZ_FLAGS:-} "$corpus" >&2 || status=1
  rm -rf "$corpus"
done
exit $status
