#!/usr/bin/env bash
# The README's demo command: installs what is missing (as root), builds, and runs a whole planning
# session over examples/ — validation, predictions, and the replica/node choices a scheduler
# would act on.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/deps.sh"
perfplan_ensure_packages
perfplan_build
build=${PERFPLAN_BUILD_DIR:-$here/../build}
exec "$build/perfplan" demo "$@"
