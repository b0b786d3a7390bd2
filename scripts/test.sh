#!/usr/bin/env bash
# The README's test command: installs what is missing (as root), builds everything, and runs
# every test with CTest. Suites that need ../shared/data report themselves as skipped when it is
# absent. Extra arguments go to ctest (e.g. -R runtime_model).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/deps.sh"
perfplan_ensure_packages
perfplan_build
build=${PERFPLAN_BUILD_DIR:-$here/../build}
cd "$build"
ctest --output-on-failure --timeout 900 -j "$(nproc)" "$@"
