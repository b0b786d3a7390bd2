#!/usr/bin/env bash
# Validates docs/openapi.json with swagger-cli (npm @apidevtools/swagger-cli, pinned), installed on
# first use into a cache folder outside the repository. Exit 0: valid; 1: swagger-cli reported
# errors; 77 (CTest: skipped, never passed) when npm or the registry is unreachable, with the
# reason on stderr.
# Usage: openapi_lint.sh SOURCE_DIR [CACHE_DIR]
set -u
src=${1:?usage: openapi_lint.sh SOURCE_DIR [CACHE_DIR]}
cache=${2:-${PERFPLAN_NPM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/perfplan-npm}}
version=4.0.4
tool="$cache/node_modules/.bin/swagger-cli"
if [[ ! -x $tool ]]; then
  if ! command -v npm >/dev/null 2>&1; then
    echo "SKIPPED: npm is not installed (scripts/deps.sh installs it)" >&2
    exit 77
  fi
  mkdir -p "$cache"
  if ! timeout 300 npm install --prefix "$cache" --no-audit --no-fund --silent \
      "@apidevtools/swagger-cli@$version" >"$cache/install.log" 2>&1; then
    echo "SKIPPED: npm could not install @apidevtools/swagger-cli@$version (registry unreachable?):" >&2
    tail -5 "$cache/install.log" >&2
    exit 77
  fi
fi
"$tool" validate "$src/docs/openapi.json"
