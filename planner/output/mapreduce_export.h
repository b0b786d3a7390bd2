// `perfplan export --what stragglers JOB` for a MapReduce job: the rows of the Spark stragglers
// export (StragglersTable, docs/export.md) with the phase in place of the stage — column
// `phase` ("map", "reduce", "reduce.shuffle", "reduce.merge", "reduce.reduce") instead of
// `stage_id` and `attempt_id`, `job` instead of `application`, `tasks` counting the successful
// attempts. h_job (map and reduce weighted by attempt time) is on every row; the sub-phases
// never enter it (weight 0). Pure; thread-safe.
#pragma once

#include "planner/mapreduce/mapreduce_api.h"
#include "planner/output/export.h"

namespace perfplan::planner {

ExportTable MapReduceStragglersTable(const MapReduceStragglersAnswer& answer);

// Opens the store (mapreduce component) and builds the table; errors as
// AnswerMapReduceStragglers.
Result<ExportTable> AnswerMapReduceStragglersExport(const std::string& store_path,
                                                    const std::string& job_id,
                                                    const models::HIndexOptions& options);

}  // namespace perfplan::planner
