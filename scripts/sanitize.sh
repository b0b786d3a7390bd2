#!/usr/bin/env bash
# Builds the whole tree with AddressSanitizer + UndefinedBehaviorSanitizer (gcc, -O1, the `asan`
# CMake preset, folder build-asan/) and runs every test under it. Any ASan report, leak or UB
# report makes the test that triggered it fail. Prints the wall time of the build and of the suite.
#
#   scripts/sanitize.sh                 # configure + build + whole suite
#   scripts/sanitize.sh -R spark        # extra arguments go to ctest
#   PERFPLAN_SANITIZE_JOBS=2 scripts/sanitize.sh   # parallel build and tests (default: nproc)
#
# See docs/reliability.md, "Sanitizer build", for the last result and the tests' caveats.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
source "$here/deps.sh"
perfplan_ensure_packages
jobs=${PERFPLAN_SANITIZE_JOBS:-$(nproc)}
build=$root/build-asan

# detect_leaks: LeakSanitizer at exit. halt_on_error: the first UB report aborts (the build also
# passes -fno-sanitize-recover=undefined). Child processes (the perfplan binary run by CLI tests)
# inherit these. Python, gmond and chromium run by some tests are not instrumented and ignore them.
# Reports go to files (log_path), not stderr: many CLI tests send the child's stderr to /dev/null
# or compare it exactly, so a report there would be lost or garble the comparison; the exit code
# (1 for ASan, 23 for leaks) still fails the test, and the files are listed below.
reports=$build/sanitizer-reports
rm -rf "$reports"
mkdir -p "$reports"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:strict_string_checks=1:log_path=$reports/asan}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1:log_path=$reports/ubsan}

start=$(date +%s)
cd "$root"
if [ ! -f "$build/build.ninja" ]; then
  cmake --preset asan >&2
fi
cmake --build "$build" -j "$jobs" >&2
built=$(date +%s)
echo "sanitize: build took $((built - start)) s" >&2
status=0
ctest --test-dir "$build" --output-on-failure --timeout 1800 -j "$jobs" "$@" || status=$?
done_at=$(date +%s)
echo "sanitize: suite took $((done_at - built)) s (total $((done_at - start)) s)" >&2
# The crash-safety tests SIGKILL the ASan-built perfplan at random points. A kill that lands while
# LeakSanitizer is checking at exit leaves a file holding only its tracer's complaint "==N==Unable
# to get registers from thread M." (or nothing, when the kill came right after the file was
# opened); seen in 2 of 3 CI-like runs. Those are artefacts of the kill, not findings: drop them.
# Any other content is a report and fails the run.
for f in "$reports"/*; do
  [ -f "$f" ] || continue
  if ! grep -qvE '^(==[0-9]+==Unable to get registers from thread [0-9]+\.)?$' "$f"; then
    echo "sanitize: ignoring $f (a process killed during its leak check): $(head -c 200 "$f")" >&2
    rm -f "$f"
  fi
done
if [ -n "$(ls -A "$reports")" ]; then
  echo "sanitize: sanitizer reports (a report is a failure even when the test passed):" >&2
  for f in "$reports"/*; do
    echo "== $f" >&2
    head -60 "$f" >&2
  done
  status=1
fi
exit $status
