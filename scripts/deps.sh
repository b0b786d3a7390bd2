#!/usr/bin/env bash
# Sourced by scripts/demo.sh and scripts/test.sh: makes sure the Debian packages perfplan builds
# and tests with are installed. As root it installs what is missing with apt-get; otherwise it
# prints the exact apt-get line to run and exits 1.
#
# The one list of system packages; add a package here when a module starts to need it.
PERFPLAN_PACKAGES=(
  cmake ninja-build g++ pkg-config
  libeigen3-dev nlohmann-json3-dev libyaml-cpp-dev libboost-graph-dev libcli11-dev
  libsqlite3-dev doctest-dev libcpp-httplib-dev
  libsvm-dev python3-sklearn
  zlib1g-dev  # gzip-compressed rotated HDFS logs (profiles/hdfs_log)
  libpugixml-dev ganglia-monitor
  libzstd-dev liblz4-dev libxxhash-dev libsnappy-dev libsimdjson-dev  # Spark event-log codecs
  # npm is not listed: the machine's Node.js (nodesource nodejs 20) provides it and conflicts with
  # Debian's npm package; tests/planner/service/openapi_lint.sh skips (77) when npm is absent.
  chromium  # headless browser test of the HTML report (tests/planner/report_browser_test)
  tzdata  # tz database zones of `ingest hdfs --timezone` (profiles/hdfs/log4j_time_zone)
  python3-distributed python3-dask  # the Dask LocalCluster of the fleet-mode test (spark map|reduce)
)

perfplan_ensure_packages() {
  local missing=()
  local pkg
  for pkg in "${PERFPLAN_PACKAGES[@]}" "$@"; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
      missing+=("$pkg")
    fi
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -ne 0 ]; then
    echo "perfplan needs these Debian packages; install them as root, then run this again:" >&2
    echo "  apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
  echo "Installing: ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y --no-install-recommends "${missing[@]}" >&2 ||
    { apt-get update >&2 && apt-get install -y --no-install-recommends "${missing[@]}" >&2; }
}

# Configures (once) and builds the tree in $PERFPLAN_BUILD_DIR (default: build/), and leaves
# that folder's path in $build for the caller.
perfplan_build() {
  local root
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  build=${PERFPLAN_BUILD_DIR:-$root/build}
  if [ ! -f "$build/build.ninja" ]; then
    cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >&2
  fi
  cmake --build "$build" >&2
}
