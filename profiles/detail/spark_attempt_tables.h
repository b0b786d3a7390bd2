// The Spark store's tables that hold an application attempt's rows, keyed by attempt_key, with
// spark_attempts last (so a loop that deletes or copies them leaves the attempt row for the end).
// spark_summary_attempts and spark_stage_durations are not listed: schema version 5's trigger
// removes them with their attempt row. Shared by the ingester (replacing and copying an attempt)
// and the fleet-mode loader (replacing one), so a new table is added in one place.
#pragma once

namespace perfplan::profiles::detail {

inline constexpr const char* kSparkAttemptTables[] = {
    "spark_properties",         "spark_resource_profiles", "spark_executors",
    "spark_jobs",               "spark_stages",            "spark_tasks",
    "spark_sql_executions",     "spark_stage_summaries",   "spark_stage_executor_summaries",
    "spark_executor_summaries", "spark_rdds",              "spark_misc_processes",
    "spark_attempts"};

}  // namespace perfplan::profiles::detail
