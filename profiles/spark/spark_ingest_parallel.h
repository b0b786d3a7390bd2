// Parallel ingest of Spark event logs (`ingest spark --jobs N`, issue 16 item 3).
//
// N parser threads each take the next log, decode and parse it and fold it exactly as the
// sequential IngestEventLogs does, into a private scratch store (a SQLite file under the temporary
// directory, unsynchronised, with the schema of the real store), including the summaries of
// WriteSummaries. The calling thread is the one writer: it takes the logs in the order
// FindEventLogs lists them and, per log, in ONE transaction of the real store does what the
// sequential ingest does after reading (skip an unchanged source, refuse a shorter or stale copy,
// replace the earlier rows of the same attempt) and copies the scratch store's rows in. The
// store's contents are therefore the same as with one job (same attempt keys, same rows), and a
// crash leaves the previous state of every attempt, as before.
//
// Memory: at most `jobs` logs are parsed or waiting at a time (the queue between the parsers and
// the writer holds at most `jobs` finished scratch stores, on disk); each parser holds what one
// log's sequential ingest holds plus SQLite's page cache. Scratch files are removed after use;
// those of a killed run (named after its process id) are removed by the next parallel run.
//
// Thread-safety: one call per Store at a time; `progress` is called on the calling thread only.
#pragma once

#include <string>
#include <vector>

#include "profiles/spark/spark_ingest.h"

namespace perfplan::profiles::spark {

// The default number of parser threads: the machine's cores (at least 1).
int DefaultIngestJobs();

// IngestEventLogs on `jobs` parser threads and one writer; jobs == 1 is IngestEventLogs itself.
// Fails with InvalidField("jobs", …) when jobs < 1 or > 256, and like IngestEventLogs otherwise.
// A log whose scratch store cannot be written (no writable temporary directory, a full disk) is
// read by the writer itself, as with one job.
Result<IngestSummary> IngestEventLogsParallel(Store& store, const std::vector<std::string>& paths,
                                              int jobs, const IngestProgress& progress = {},
                                              const IngestLimits& limits = {});

}  // namespace perfplan::profiles::spark
