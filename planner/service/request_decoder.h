// Decoding of HTTP JSON request bodies into facade requests, and of failures into HTTP errors.
//
// Strict: a body must be one JSON object; every field must have the documented type; unknown
// fields are errors with a "did you mean". Every error names the field. nlohmann::json stays in
// the .cpp. Pure functions; thread-safe. The libFuzzer target fuzzes DecodePredictCall and
// DecodeSelectCall.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/status.h"
#include "planner/plan/plan.h"
#include "planner/runtime/runtime.h"

namespace perfplan::planner {

// What the service sends back on failure: {"error": error, "message": message, "field": field}.
struct ApiError {
  int http_status = 400;
  std::string error;    // invalid_json | invalid_field | unknown_field | missing_field |
                        // not_found | payload_too_large | unauthorized | method_not_allowed |
                        // failed | internal
  std::string message;  // for people
  std::string field;    // the offending request field, "" when none
};
std::string ToJson(const ApiError& error);

// A prediction request: a profile named by application (from the service's catalog) or given
// inline (same schema as a profile file, as a JSON object), and the target.
struct PredictCall {
  std::string application;
  std::optional<std::string> inline_profile;  // JSON text of the "profile" object
  PredictRequest request;                     // file fields unused
};
std::optional<ApiError> DecodePredictCall(std::string_view body, PredictCall* out);

struct SelectCall {
  std::string application;
  std::optional<std::string> inline_profile;
  SelectRequest request;  // file fields unused
};
std::optional<ApiError> DecodeSelectCall(std::string_view body, SelectCall* out);

// POST /v1/plan: one or more evidence paths — the profile (by name or inline) with its dataset,
// a runs CSV inline ("runs_csv": its text, docs/fit.md columns) with its workload (and "nodes",
// "dataset_bytes", "instance_types"), a Spark application of the served store ("spark_app") —,
// objective and constraints, and optionally a price list inline ("prices": an object of the
// price-file schema, docs/plan.md).
struct PlanCall {
  std::string application;
  std::optional<std::string> inline_profile;
  std::optional<std::string> inline_runs;    // the "runs_csv" text; request.runs_file names it
  std::optional<std::string> inline_prices;  // JSON text of the "prices" object
  PlanRequest request;                       // file fields unused
};
std::optional<ApiError> DecodePlanCall(std::string_view body, PlanCall* out);

// POST /v1/tuning/recommend: which saved model, and the search settings.
struct RecommendCall {
  std::string workload;  // model file <models_dir>/<workload>.model.json
  bool maximize = false;
  std::size_t samples = 2000;
  std::uint64_t seed = 1;
  std::vector<std::string>
      constraints;  // e.g. "spark.executor.memory * spark.executor.instances <= 48g"
  std::vector<std::string> fixed;
  // Skip configurations the model's failure model (saved by `tune train` from failed runs) gives
  // a higher failure probability; 0 to 1.
  double max_failure_probability = 0.2;
};
std::optional<ApiError> DecodeRecommendCall(std::string_view body, RecommendCall* out);

// Maps a facade Status to an HTTP error: InvalidArgument → 400, NotFound → 404, Failed → 422; the
// field is the Status's field() (null when it names none) and the message is kept as it is.
ApiError ApiErrorFromStatus(const Status& status);

}  // namespace perfplan::planner
