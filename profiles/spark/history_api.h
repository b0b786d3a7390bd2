// The answers of Spark's History Server REST API (`/api/v1/<path>`, monitoring.html), computed from
// the Spark tables of the store this module owns (profiles/spark/spark_store.h).
//
// HistoryApi returns the same JSON document the History Server returns for the applications in the
// store; docs/spark.md lists the supported paths and the fields perfplan cannot produce. The store
// is only read. Thread-safety: one call per Store at a time. nlohmann::json stays inside the .cpp.
#pragma once

#include <string>

#include "models/status.h"
#include "profiles/store.h"

namespace perfplan::profiles::spark {

// Answers `path` (relative to /api/v1/, with an optional "?query"), e.g.
// "applications/local-1422981780767/stages/1?details=true". On success returns the JSON text
// (pretty-printed, 2-space indent). Fails with NotFound for an unknown application, job, stage or
// RDD ("unknown app: ID", as the History Server's 404 text) and for an endpoint of an existing
// application that perfplan does not serve ("unsupported endpoint: PATH (docs/spark.md lists the
// served ones)"), and InvalidArgument for a parameter it does not support or a path outside
// applications/, naming it.
Result<std::string> HistoryApi(Store& store, const std::string& path);

}  // namespace perfplan::profiles::spark
