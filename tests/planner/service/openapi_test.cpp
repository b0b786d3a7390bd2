// Keeps docs/openapi.json true: every documented operation is called over a real socket with its
// x-perfplan-example request, and the answer must have the documented status and every key the
// documented response schema requires (following $ref, one level into objects and arrays).
#include <doctest/doctest.h>
#include <httplib.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "planner/service/service.h"
#include "planner/tuning/tune.h"
#include "profiles/spark/spark_ingest.h"
#include "profiles/spark/spark_store.h"
#include "tests/support/plan_inputs.h"
#include "tests/support/example_catalog.h"
#include "tests/support/spark_codecs.h"
#include "tests/support/test_support.h"

namespace perfplan::planner {
namespace {

using nlohmann::json;

const json& Deref(const json& doc, const json& schema) {
  if (!schema.contains("$ref")) return schema;
  std::string ref = schema["$ref"].get<std::string>();  // "#/components/schemas/Name"
  return doc["components"]["schemas"][ref.substr(ref.rfind('/') + 1)];
}

bool HasRequired(const json& schema, const json& value) {
  if (!schema.contains("required")) return true;
  if (!value.is_object()) return false;
  for (const json& key : schema["required"]) {
    if (!value.contains(key.get<std::string>())) return false;
  }
  return true;
}

void CheckRequired(const json& doc, const json& schema_in, const json& value,
                   const std::string& where, int depth) {
  const json& schema = Deref(doc, schema_in);
  if (schema.contains("oneOf")) {
    // The alternative whose required keys the value has; the first when none has them all, so
    // the check names what is missing.
    const json* pick = &Deref(doc, schema["oneOf"][0]);
    for (const json& alternative : schema["oneOf"]) {
      if (HasRequired(Deref(doc, alternative), value)) {
        pick = &Deref(doc, alternative);
        break;
      }
    }
    return CheckRequired(doc, *pick, value, where, depth);
  }
  if (schema.contains("required")) {
    REQUIRE_MESSAGE(value.is_object(), where << " is not an object");
    for (const json& key : schema["required"]) {
      CHECK_MESSAGE(value.contains(key.get<std::string>()), where << " lacks " << key);
    }
  }
  if (depth == 0 || !schema.contains("properties") || !value.is_object()) return;
  for (const auto& [key, sub] : schema["properties"].items()) {
    if (!value.contains(key)) continue;
    const json& v = value[key];
    if (Deref(doc, sub).contains("items") && v.is_array() && !v.empty()) {
      CheckRequired(doc, Deref(doc, sub)["items"], v[0], where + "." + key + "[0]", depth - 1);
    } else {
      CheckRequired(doc, sub, v, where + "." + key, depth - 1);
    }
  }
}

TEST_CASE("every documented endpoint answers as documented over a real socket") {
  const json doc = json::parse(testing::ReadFile(testing::SourceDir() + "/docs/openapi.json"));
  const std::string examples = testing::SourceDir() + "/examples";
  // A store with one synthetic Spark application, and a saved tuning model named "example".
  const std::string dir = testing::MakeTempDir();
  testing::WriteFile(dir + "/app-openapi-1", testing::SyntheticEventLog("app-openapi-1", 2, 30));
  {
    auto store = profiles::Store::Open(dir + "/spark.db", {profiles::spark::StoreMigrations()});
    REQUIRE(store.ok());
    REQUIRE(profiles::spark::IngestEventLogs(*store.value(), {dir + "/app-openapi-1"}).ok());
  }
  std::filesystem::create_directory(dir + "/models");
  TuneDataRequest data;
  data.data_file = examples + "/tuning/spark_runs.csv";
  data.dataset.target = "time_seconds";
  tuning::SearchOptions search;
  search.kinds = {tuning::ModelKind::kRidge};  // fast and deterministic; the endpoint is the point
  REQUIRE(AnswerTuneTrain(data, search, dir + "/models/example.model.json").ok());

  ServiceOptions options;
  options.port = 0;
  options.store_path = dir + "/spark.db";
  options.models_dir = dir + "/models";
  Service service(testing::ExampleCatalog(), options, nullptr);
  REQUIRE(service.Start().ok());
  httplib::Client client("127.0.0.1", service.port());

  int operations = 0;
  for (const auto& [path, item] : doc["paths"].items()) {
    for (const auto& [method, op] : item.items()) {
      CAPTURE(path);
      CAPTURE(method);
      ++operations;
      REQUIRE_MESSAGE(op.contains("x-perfplan-example"), "undocumented example");
      const json& example = op["x-perfplan-example"];
      // A templated path ("/api/v1/{path}") is called at the example's concrete target.
      const std::string target = example.value("target", path);
      httplib::Result r =
          method == "get" ? client.Get(target.c_str())
                          : client.Post(target.c_str(), example["body"].dump(), "application/json");
      REQUIRE(r);
      const int status = example["status"].get<int>();
      CHECK(r->status == status);
      if (r->status != status) MESSAGE(r->body);
      const json& response = op["responses"][std::to_string(status)];
      if (response["content"].contains("text/plain")) {  // GET /metrics
        CHECK(r->get_header_value("Content-Type").rfind("text/plain", 0) == 0);
        CHECK(r->body.rfind("# HELP ", 0) == 0);
        continue;
      }
      const json body = json::parse(r->body);
      CheckRequired(doc, response["content"]["application/json"]["schema"], body, "response", 2);
    }
  }
  CHECK(operations == 14);

  // POST /v1/plan's second form: a Spark application of the served store (SparkPlan).
  httplib::Result r = client.Post("/v1/plan", R"({"spark_app": "app-openapi-1"})",
                                  "application/json");
  REQUIRE(r);
  CHECK(r->status == 200);
  const json& plan_schema =
      doc["paths"]["/v1/plan"]["post"]["responses"]["200"]["content"]["application/json"]["schema"];
  const json body = json::parse(r->body);
  CHECK(HasRequired(doc["components"]["schemas"]["SparkPlan"], body));
  CHECK_FALSE(HasRequired(doc["components"]["schemas"]["Plan"], body));
  CheckRequired(doc, plan_schema, body, "spark plan response", 2);
  // Its third form: a served profile and the application together (CombinedPlan).
  r = client.Post("/v1/plan",
                  R"({"application": "kmeans", "dataset": "sky-survey", "spark_app": "app-openapi-1"})",
                  "application/json");
  REQUIRE(r);
  CHECK(r->status == 200);
  const json combined = json::parse(r->body);
  CHECK(HasRequired(doc["components"]["schemas"]["CombinedPlan"], combined));
  CheckRequired(doc, plan_schema, combined, "combined plan response", 2);
  // A runs CSV given inline (Plan), alone and with the profile (CombinedPlan).
  const json runs_body = {
      {"runs_csv", testing::LinearRunsCsv("sort", {{"m5", 40, 1500}}, {4, 8, 16, 32})},
      {"workload", "sort"},
      {"nodes", {4, 64}}};
  CHECK(HasRequired(doc["components"]["schemas"]["PlanRequest"], runs_body));
  r = client.Post("/v1/plan", runs_body.dump(), "application/json");
  REQUIRE(r);
  CHECK(r->status == 200);
  const json by_runs = json::parse(r->body);
  CHECK(HasRequired(doc["components"]["schemas"]["Plan"], by_runs));
  CheckRequired(doc, plan_schema, by_runs, "runs plan response", 2);
  json with_profile = runs_body;
  with_profile["application"] = "kmeans";
  with_profile["dataset"] = "sky-survey";
  r = client.Post("/v1/plan", with_profile.dump(), "application/json");
  REQUIRE(r);
  CHECK(r->status == 200);
  CHECK(HasRequired(doc["components"]["schemas"]["CombinedPlan"], json::parse(r->body)));
  for (const char* key : {"runs_csv", "workload", "nodes", "dataset_bytes", "instance_types"}) {
    CHECK(doc["components"]["schemas"]["PlanRequest"]["properties"].contains(key));
  }
  service.Stop();
}

}  // namespace
}  // namespace perfplan::planner
