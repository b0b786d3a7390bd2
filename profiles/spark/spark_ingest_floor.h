// The store's part of `ingest spark` alone, for benchmarks (bench/spark_ingest_bench floor,
// docs/performance.md "session 12"): what the task rows cost however fast the parsing gets.
#pragma once

#include "models/status.h"
#include "profiles/store.h"

namespace perfplan::profiles::spark {

// Inserts `tasks` task rows shaped as `spark_ingest_bench generate` writes them (10 stages, 200
// executors on 50 hosts, every metric of a task end) into a new attempt of `store`, through the
// ingest's own insert and summaries, in one transaction, and commits it. Nothing is parsed.
Status InsertGeneratedTaskRows(Store& store, long tasks);

}  // namespace perfplan::profiles::spark
