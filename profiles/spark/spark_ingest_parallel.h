// Parallel ingest of Spark event logs (`ingest spark --jobs N`, issue 16 item 3).
//
// N parser threads each take the next log, decode and parse it and fold it exactly as the
// sequential IngestEventLogs does (the same AppBuilder), but hand its task rows, as they end, to
// the writer in batches instead of inserting them, and add up their summaries. The calling
// thread is the one writer: it takes the logs in the order FindEventLogs lists them and, per log,
// in ONE transaction of the real store does what the sequential ingest does (skip an unchanged
// source, insert the placeholder attempt, insert the task rows as the batches come, refuse a
// shorter or stale copy, replace the earlier rows of the same attempt, write the rest of the
// folded application). The store's contents are therefore the same as with one job (same attempt
// keys, same rows, same row order), and a crash leaves the previous state of every attempt, as
// before. The summaries added up by the parser are used when every row was stored; when the store
// turned a row away (a task id twice in one log) they are grouped from the stored rows instead.
//
// Memory: at most `jobs` logs are parsed or waiting at a time; each holds what one log's
// sequential ingest holds plus a queue of batches of 512 task rows that the parser waits on when
// the writer is behind: max(4, 64 / jobs) batches a log, so about 20 MiB of rows for all logs
// in flight up to 16 jobs, and 4 batches (about 1.3 MiB) a log beyond. Nothing is written outside the store (earlier
// versions' scratch stores under the temporary directory, left by a killed run, are removed).
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
// A log whose parser fails (an exception) is read by the writer itself, as with one job.
Result<IngestSummary> IngestEventLogsParallel(Store& store, const std::vector<std::string>& paths,
                                              int jobs, const IngestProgress& progress = {},
                                              const IngestLimits& limits = {});

}  // namespace perfplan::profiles::spark
