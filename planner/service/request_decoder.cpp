#include "planner/service/request_decoder.h"

#include <nlohmann/json.hpp>

#include "models/json_text.h"
#include "models/text.h"
#include "profiles/json_depth.h"
#include "profiles/problem.h"

namespace perfplan::planner {
namespace {

using nlohmann::json;

std::string TypeName(const json& v) {
  switch (v.type()) {
    case json::value_t::null:
      return "null";
    case json::value_t::boolean:
      return "a boolean";
    case json::value_t::string:
      return "a string";
    case json::value_t::object:
      return "an object";
    case json::value_t::array:
      return "an array";
    default:
      return "a number";
  }
}

ApiError FieldError(const std::string& field, const std::string& message) {
  return {400, "invalid_field", field + ": " + message, field};
}

// Reads fields of one request object, stopping at the first problem.
class Fields {
 public:
  explicit Fields(const json& object) : object_(object) {}

  std::optional<ApiError> CheckKnown(const std::vector<std::string_view>& allowed) const {
    for (const auto& [key, value] : object_.items()) {
      bool known = false;
      for (std::string_view a : allowed) known |= key == a;
      if (known) continue;
      std::string message = key + ": unknown field";
      const std::string suggestion = profiles::SuggestClosest(key, allowed);
      if (!suggestion.empty()) message += "; did you mean \"" + suggestion + "\"?";
      return ApiError{400, "unknown_field", message, key};
    }
    return std::nullopt;
  }

  std::optional<ApiError> Number(const char* key, double* out, bool required) const {
    auto it = object_.find(key);
    if (it == object_.end()) {
      if (!required) return std::nullopt;
      return ApiError{400, "missing_field", std::string(key) + ": required", key};
    }
    if (!it->is_number()) return FieldError(key, "expected a number, got " + TypeName(*it));
    *out = it->get<double>();
    return std::nullopt;
  }

  std::optional<ApiError> Integer(const char* key, int* out) const {
    auto it = object_.find(key);
    if (it == object_.end()) return std::nullopt;
    if (!it->is_number_integer() || it->get<long long>() < -(1LL << 30) ||
        it->get<long long>() > (1LL << 30)) {
      return FieldError(
          key, "expected a whole number, got " + (it->is_number() ? it->dump() : TypeName(*it)));
    }
    *out = static_cast<int>(it->get<long long>());
    return std::nullopt;
  }

  std::optional<ApiError> String(const char* key, std::string* out) const {
    auto it = object_.find(key);
    if (it == object_.end()) return std::nullopt;
    if (!it->is_string()) return FieldError(key, "expected a string, got " + TypeName(*it));
    *out = it->get<std::string>();
    return std::nullopt;
  }

  // A non-empty array of whole numbers >= 1 (node or executor counts).
  std::optional<ApiError> Counts(const char* key, std::vector<int>* out) const {
    auto it = object_.find(key);
    if (it == object_.end()) return std::nullopt;
    if (!it->is_array() || it->empty())
      return FieldError(key, "expected a non-empty array of whole numbers");
    for (const json& v : *it) {
      if (!v.is_number_integer() || v.get<long long>() < 1 || v.get<long long>() > (1LL << 30))
        return FieldError(key, "expected whole numbers >= 1, got " + JsonText(v));
      out->push_back(static_cast<int>(v.get<long long>()));
    }
    return std::nullopt;
  }

  // An array of strings.
  std::optional<ApiError> Strings(const char* key, std::vector<std::string>* out) const {
    auto it = object_.find(key);
    if (it == object_.end()) return std::nullopt;
    if (!it->is_array())
      return FieldError(key, "expected an array of strings, got " + TypeName(*it));
    for (const json& v : *it) {
      if (!v.is_string()) return FieldError(key, "expected strings, got " + TypeName(v));
      out->push_back(v.get<std::string>());
    }
    return std::nullopt;
  }

  // "application" (a name) or "profile" (an inline object): exactly one.
  std::optional<ApiError> Profile(std::string* application,
                                  std::optional<std::string>* inline_profile) const {
    if (auto e = String("application", application)) return e;
    auto it = object_.find("profile");
    if (it != object_.end()) {
      if (!it->is_object())
        return FieldError("profile", "expected an object, got " + TypeName(*it));
      if (!application->empty()) {
        return FieldError("profile", "give either \"application\" or \"profile\", not both");
      }
      *inline_profile = it->dump();
    } else if (application->empty()) {
      return ApiError{400, "missing_field",
                      "application: required (or an inline \"profile\" object)", "application"};
    }
    return std::nullopt;
  }

  template <typename Enum>
  std::optional<ApiError> Choice(const char* key, Enum* out, const char* choices) const {
    std::string text;
    if (auto e = String(key, &text)) return e;
    if (text.empty() && object_.find(key) == object_.end()) return std::nullopt;
    if (!Parse(text, out)) {
      return FieldError(key, "expected " + std::string(choices) + ", got \"" + text + "\"");
    }
    return std::nullopt;
  }

 private:
  const json& object_;
};

std::optional<ApiError> ParseObject(std::string_view body, json* out) {
  // The tree of a deeper body would be parsed fine, but copying or dumping it recurses once per
  // level and overflows the stack near 100,000 levels.
  if (profiles::JsonDeeperThan(body, profiles::kMaxJsonDepth)) {
    return ApiError{400, "invalid_json",
                    "the request body nests arrays/objects deeper than " +
                        std::to_string(profiles::kMaxJsonDepth) + " levels",
                    ""};
  }
  *out = json::parse(body.begin(), body.end(), nullptr, /*allow_exceptions=*/false);
  if (out->is_discarded()) {
    return ApiError{400, "invalid_json", "the request body is not valid JSON", ""};
  }
  if (!out->is_object()) {
    return ApiError{400, "invalid_json",
                    "the request body must be a JSON object, got " + TypeName(*out), ""};
  }
  return std::nullopt;
}

// The opening of every decoder: one JSON object whose fields are all among `allowed`.
std::optional<ApiError> ParseRequest(std::string_view body,
                                     const std::vector<std::string_view>& allowed, json* out) {
  if (auto e = ParseObject(body, out)) return e;
  return Fields(*out).CheckKnown(allowed);
}

}  // namespace

std::string ToJson(const ApiError& e) {
  json j = {{"error", e.error},
            {"message", e.message},
            {"field", e.field.empty() ? json(nullptr) : json(e.field)}};
  return JsonText(j) + "\n";
}

std::optional<ApiError> DecodePredictCall(std::string_view body, PredictCall* out) {
  json object;
  if (auto e = ParseRequest(body,
                            {"application", "profile", "dataset_bytes", "storage_nodes",
                             "compute_nodes", "bandwidth_bytes_per_second", "site", "model"},
                            &object))
    return e;
  Fields f(object);
  if (auto e = f.Profile(&out->application, &out->inline_profile)) return e;
  PredictRequest& r = out->request;
  if (auto e = f.Number("dataset_bytes", &r.dataset_bytes, true)) return e;
  if (auto e = f.Number("storage_nodes", &r.storage_nodes, true)) return e;
  if (auto e = f.Number("compute_nodes", &r.compute_nodes, true)) return e;
  if (auto e = f.Number("bandwidth_bytes_per_second", &r.bandwidth_bytes_per_second, true)) {
    return e;
  }
  if (auto e = f.String("site", &r.site)) return e;
  if (auto e = f.Choice("model", &r.variant, "auto, simple or reductions")) return e;
  return std::nullopt;
}

std::optional<ApiError> DecodeSelectCall(std::string_view body, SelectCall* out) {
  json object;
  if (auto e = ParseRequest(body,
                            {"application", "profile", "dataset", "objective", "max_compute_nodes",
                             "deadline_seconds", "top", "profiled_site", "model"},
                            &object))
    return e;
  Fields f(object);
  if (auto e = f.Profile(&out->application, &out->inline_profile)) return e;
  SelectOptions& o = out->request.options;
  if (auto e = f.String("dataset", &o.dataset)) return e;
  if (o.dataset.empty()) return ApiError{400, "missing_field", "dataset: required", "dataset"};
  if (auto e = f.Choice("objective", &o.objective, "time or node-seconds")) return e;
  if (auto e = f.Integer("max_compute_nodes", &o.max_compute_nodes)) return e;
  if (auto e = f.Number("deadline_seconds", &o.deadline_seconds, false)) return e;
  if (auto e = f.Integer("top", &o.top)) return e;
  if (auto e = f.String("profiled_site", &o.profiled_site)) return e;
  if (auto e = f.Choice("model", &out->request.variant, "auto, simple or reductions")) return e;
  return std::nullopt;
}

std::optional<ApiError> DecodePlanCall(std::string_view body, PlanCall* out) {
  json object;
  if (auto e = ParseRequest(
          body,
          {"application", "profile", "dataset", "prices", "objective", "deadline_seconds", "budget",
           "max_nodes", "sites", "profiled_site", "model", "spark_app", "executors", "runs_csv",
           "workload", "nodes", "dataset_bytes", "instance_types"},
          &object)) {
    return e;
  }
  Fields f(object);
  PlanRequest& r = out->request;
  // The evidence paths: a profile ("application" or "profile") with its dataset, a runs CSV
  // ("runs_csv") with its workload, a Spark application of the served store ("spark_app"); one,
  // or several for the combined plan (planner/plan/combined_plan.h).
  const bool with_profile = object.contains("application") || object.contains("profile");
  const bool with_runs = object.contains("runs_csv");
  const bool with_spark = object.contains("spark_app");
  if (with_spark) {
    if (auto e = f.String("spark_app", &r.app)) return e;
    if (r.app.empty()) return FieldError("spark_app", "expected an application name or id");
  }
  if (with_profile || (!with_runs && !with_spark)) {
    if (auto e = f.Profile(&out->application, &out->inline_profile)) return e;
    if (auto e = f.String("dataset", &r.dataset)) return e;
    if (r.dataset.empty()) {
      return ApiError{
          400, "missing_field",
          with_runs || with_spark ? "dataset: required with a profile" : "dataset: required",
          "dataset"};
    }
  } else {
    for (const char* key : {"dataset", "profiled_site", "model"}) {
      if (object.contains(key)) {
        return FieldError(key, std::string("only with a profile (\"application\" or "
                                           "\"profile\"), not ") +
                                   (with_runs ? "a runs CSV" : "a Spark application") + " alone");
      }
    }
  }
  if (with_runs) {
    std::string text;
    if (auto e = f.String("runs_csv", &text)) return e;
    if (text.empty()) return FieldError("runs_csv", "expected the text of a runs CSV");
    out->inline_runs = std::move(text);
    r.runs_file = "request.runs_csv";
    if (auto e = f.String("workload", &r.workload)) return e;
    if (r.workload.empty()) {
      return ApiError{400, "missing_field", "workload: required with \"runs_csv\"", "workload"};
    }
    if (auto e = f.Number("dataset_bytes", &r.dataset_bytes, false)) return e;
    if (auto e = f.Counts("nodes", &r.node_counts)) return e;
    if (auto e = f.Strings("instance_types", &r.allowed_types)) return e;
  } else {
    for (const char* key : {"workload", "nodes", "dataset_bytes", "instance_types"}) {
      if (object.contains(key)) {
        return FieldError(key, "only with \"runs_csv\" (a runs CSV to fit)");
      }
    }
  }
  if (object.contains("executors")) {
    if (!with_spark)
      return FieldError("executors", "only with \"spark_app\" (executor counts to replay)");
    if (with_runs)
      return FieldError("executors",
                        "not with \"runs_csv\": the combined plan replays the "
                        "Spark application at its default executor counts");
    if (auto e = f.Counts("executors", &r.node_counts)) return e;
  }
  if (auto it = object.find("prices"); it != object.end()) {
    if (!it->is_object()) return FieldError("prices", "expected an object, got " + TypeName(*it));
    out->inline_prices = it->dump();
  }
  if (auto e = f.Choice("objective", &r.objective, "time, cost or node-seconds")) return e;
  if (auto e = f.Number("deadline_seconds", &r.deadline_seconds, false)) return e;
  if (auto e = f.Number("budget", &r.budget, false)) return e;
  if (auto e = f.Integer("max_nodes", &r.max_nodes)) return e;
  if (auto e = f.Strings("sites", &r.allowed_sites)) return e;
  if (auto e = f.String("profiled_site", &r.profiled_site)) return e;
  if (auto e = f.Choice("model", &r.variant, "auto, simple or reductions")) return e;
  return std::nullopt;
}

std::optional<ApiError> DecodeRecommendCall(std::string_view body, RecommendCall* out) {
  json object;
  if (auto e = ParseRequest(body,
                            {"workload", "maximize", "samples", "seed", "constraints", "fixed",
                             "max_failure_probability"},
                            &object))
    return e;
  Fields f(object);
  if (auto e = f.String("workload", &out->workload)) return e;
  if (out->workload.empty())
    return ApiError{400, "missing_field", "workload: required", "workload"};
  if (auto it = object.find("maximize"); it != object.end()) {
    if (!it->is_boolean())
      return FieldError("maximize", "expected true or false, got " + TypeName(*it));
    out->maximize = it->get<bool>();
  }
  int samples = static_cast<int>(out->samples);
  if (auto e = f.Integer("samples", &samples)) return e;
  if (samples < 1 || samples > 1000000) {
    return FieldError("samples", "must be 1..1000000, got " + std::to_string(samples));
  }
  out->samples = static_cast<std::size_t>(samples);
  int seed = static_cast<int>(out->seed);
  if (auto e = f.Integer("seed", &seed)) return e;
  out->seed = static_cast<std::uint64_t>(static_cast<std::uint32_t>(seed));
  if (auto e = f.Number("max_failure_probability", &out->max_failure_probability, false)) return e;
  if (!(out->max_failure_probability >= 0 && out->max_failure_probability <= 1)) {
    return FieldError("max_failure_probability",
                      "must be 0..1, got " + models::FormatNumber(out->max_failure_probability));
  }
  for (auto [key, list] : {std::pair{"constraints", &out->constraints}, {"fixed", &out->fixed}}) {
    auto it = object.find(key);
    if (it == object.end()) continue;
    if (!it->is_array())
      return FieldError(key, "expected an array of strings, got " + TypeName(*it));
    for (const json& v : *it) {
      if (!v.is_string()) {
        return FieldError(key,
                          "expected an array of strings, got an element that is " + TypeName(v));
      }
      list->push_back(v.get<std::string>());
    }
  }
  return std::nullopt;
}

ApiError ApiErrorFromStatus(const Status& status) {
  ApiError e;
  e.message = status.message();
  switch (status.code()) {
    case StatusCode::kNotFound:
      e.http_status = 404;
      e.error = "not_found";
      break;
    case StatusCode::kFailed:
      e.http_status = 422;
      e.error = "failed";
      break;
    default:
      e.http_status = 400;
      e.error = "invalid_field";
      break;
  }
  e.field = status.field();
  return e;
}

}  // namespace perfplan::planner
