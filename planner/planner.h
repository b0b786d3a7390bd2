// The index of the query facade. The CLI (planner/cli/) and the HTTP service (planner/service/)
// turn requests into answers through these headers only; each declares its answer structs and the
// one serializer of each (`ToJson`). Include the one you need; this header includes them all for a
// reader who wants the whole facade at once (and so that a test keeps them compiling together).
//
// | domain   | header                              | answers                                      |
// |----------|-------------------------------------|----------------------------------------------|
// | runtime  | planner/runtime/runtime.h           | predict, select, validate                    |
// |          | planner/runtime/json_output.h       | their JSON                                   |
// |          | planner/runtime/fit_eval.h          | fit, evaluate, backtest, import scout, JSON  |
// |          | planner/runtime/accuracy.h          | the leave-out accuracy study                 |
// | spark    | planner/spark/spark_api.h           | ingest spark, apps, app, whatif executors    |
// |          | planner/spark/spark_streaming.h     | spark map, spark reduce                      |
// |          | profiles/spark/history_api.h        | spark api (the History Server's /api/v1)     |
// | hdfs     | planner/hdfs/hdfs.h                 | ingest hdfs, workload, simulate hdfs         |
// |          | planner/hdfs/hdfs_streaming.h       | hdfs map, hdfs reduce                        |
// | ganglia  | planner/ganglia/ganglia_collect.h   | collect ganglia                              |
// | hindex   | planner/hindex/hindex.h             | hindex, simulate hindex, their JSON          |
// |          | planner/hindex/stragglers.h         | stragglers                                   |
// | scoring  | planner/scoring/spark_scoring.h     | label, classify, score, scores               |
// |          | planner/scoring/task_scoring.h      | task types and scores over stored runs       |
// | tuning   | planner/tuning/tune.h               | tune train, cv, sensitivity, recommend, next |
// |          | planner/tuning/tune_json.h          | their JSON                                   |
// | plan     | planner/plan/plan.h                 | plan (profile, runs CSV), its JSON           |
// |          | planner/plan/spark_plan.h           | plan --store --app (a Spark application)     |
// |          | planner/plan/combined_plan.h        | plan over several evidence paths at once     |
// |          | planner/plan/capacity.h             | capacity                                     |
// | output   | planner/output/export.h             | export                                       |
// |          | planner/output/report.h             | report (HTML with SVG charts)                |
// | service  | planner/service/service.h           | serve                                        |
#pragma once

#include "planner/ganglia/ganglia_collect.h"
#include "planner/hdfs/hdfs.h"
#include "planner/hdfs/hdfs_streaming.h"
#include "planner/hindex/hindex.h"
#include "planner/hindex/stragglers.h"
#include "planner/mapreduce/mapreduce_api.h"
#include "planner/output/export.h"
#include "planner/output/report.h"
#include "planner/plan/capacity.h"
#include "planner/plan/combined_plan.h"
#include "planner/plan/plan.h"
#include "planner/plan/spark_plan.h"
#include "planner/runtime/accuracy.h"
#include "planner/runtime/fit_eval.h"
#include "planner/runtime/json_output.h"
#include "planner/runtime/runtime.h"
#include "planner/scoring/spark_scoring.h"
#include "planner/scoring/task_scoring.h"
#include "planner/service/service.h"
#include "planner/spark/spark_api.h"
#include "planner/spark/spark_streaming.h"
#include "planner/tuning/tune.h"
#include "planner/tuning/tune_json.h"
#include "profiles/spark/history_api.h"
