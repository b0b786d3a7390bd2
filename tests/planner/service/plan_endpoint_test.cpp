// POST /v1/plan over a real socket: the same document as AnswerPlan over the files, prices given
// inline; bad prices name the field inside the request. With "spark_app": the same document as
// AnswerSparkPlan (`perfplan plan --store DB --app NAME --json`) over the served store.
#include <doctest/doctest.h>
#include <httplib.h>

#include <memory>
#include <nlohmann/json.hpp>

#include "planner/plan/combined_plan.h"
#include "planner/plan/plan.h"
#include "planner/plan/spark_plan.h"
#include "planner/scoring/spark_scoring.h"
#include "planner/service/service.h"
#include "profiles/spark/spark_ingest.h"
#include "tests/support/example_catalog.h"
#include "tests/support/plan_inputs.h"
#include "tests/support/spark_codecs.h"
#include "tests/support/test_support.h"

namespace perfplan::planner {
namespace {

using nlohmann::json;

// The combined plan of the same evidence read from files (AnswerCombinedPlan), as JSON: what the
// service's answer must equal.
json CombinedPlanOf(const PlanRequest& files) {
  Result<CombinedPlanAnswer> answer = AnswerCombinedPlan(files);
  REQUIRE(answer.ok());
  return json::parse(ToJson(answer.value()));
}

// The service over the example catalog on a free port (no store), and a client of it.
struct Served {
  Served() : service(testing::ExampleCatalog(), FreePort(), nullptr) {
    REQUIRE(service.Start().ok());
    client = std::make_unique<httplib::Client>("127.0.0.1", service.port());  // port once started
  }
  ~Served() { service.Stop(); }
  static ServiceOptions FreePort() {
    ServiceOptions options;
    options.port = 0;
    return options;
  }
  Service service;
  std::unique_ptr<httplib::Client> client;
};

// Each request body is answered 400 with its field named.
template <std::size_t N>
void CheckRefused(httplib::Client& client, const std::pair<json, std::string> (&refused)[N]) {
  for (const auto& [bad, field] : refused) {
    CAPTURE(bad.dump());
    auto r = client.Post("/v1/plan", bad.dump(), "application/json");
    REQUIRE(r);
    CHECK(r->status == 400);
    CHECK(json::parse(r->body)["field"] == field);
  }
}

TEST_CASE("POST /v1/plan answers what perfplan plan answers, and names bad price fields") {
  const std::string examples = testing::SourceDir() + "/examples";
  Served served;
  httplib::Client& client = *served.client;

  const json prices = {{"schema_version", 1},
                       {"currency", "USD"},
                       {"minimum_billing_seconds", 60},
                       {"prices",
                        {{{"site", "osu-cluster"}, {"price_per_node_hour", 0.4}},
                         {{"site", "anl-cluster"}, {"price_per_node_hour", 0.9}},
                         {{"site", "campus-lab"}, {"price_per_node_hour", 0.2}}}}};
  const json body = {{"application", "kmeans"},
                     {"dataset", "sky-survey"},
                     {"objective", "cost"},
                     {"max_nodes", 16},
                     {"prices", prices}};
  httplib::Result r = client.Post("/v1/plan", body.dump(), "application/json");
  REQUIRE(r);
  REQUIRE(r->status == 200);
  const json answer = json::parse(r->body);

  const std::string dir = testing::MakeTempDir();
  testing::WriteFile(dir + "/p.json", prices.dump());
  PlanRequest request;
  request.profile_file = examples + "/profiles/kmeans.yaml";
  request.topology_file = examples + "/topology.yaml";
  request.dataset = "sky-survey";
  request.objective = PlanObjective::kCost;
  request.max_nodes = 16;
  request.price_file = dir + "/p.json";
  Result<PlanAnswer> local = AnswerPlan(request);
  REQUIRE(local.ok());
  const json expected = json::parse(ToJson(local.value()));
  CHECK(answer["recommendation"] == expected["recommendation"]);
  CHECK(answer["front"] == expected["front"]);
  CHECK(answer["alternatives"].size() == expected["alternatives"].size());

  json bad = body;
  bad["prices"]["prices"][0]["price_per_node_hour"] = -1;
  r = client.Post("/v1/plan", bad.dump(), "application/json");
  REQUIRE(r);
  CHECK(r->status == 400);
  CHECK(json::parse(r->body)["field"] == "prices.prices[0].price_per_node_hour");

  json no_prices = body;
  no_prices.erase("prices");
  r = client.Post("/v1/plan", no_prices.dump(), "application/json");
  REQUIRE(r);
  CHECK(r->status == 400);
  CHECK(json::parse(r->body)["message"] ==
        "objective: cost needs prices (--prices FILE, or \"prices\" in a /v1/plan request)");
  CHECK(json::parse(r->body)["field"] == "objective");
}

TEST_CASE("POST /v1/plan with spark_app answers what perfplan plan --store --app answers") {
  const std::string examples = testing::SourceDir() + "/examples";
  const std::string dir = testing::MakeTempDir();
  std::vector<std::string> logs;
  for (int i = 0; i < 3; ++i) {
    const std::string id = "app-plan-" + std::to_string(i);
    testing::WriteFile(dir + "/" + id, testing::SyntheticEventLog(id, 2, 10 + 2 * i));
    logs.push_back(dir + "/" + id);
  }
  {
    auto store = profiles::Store::Open(dir + "/spark.db", ScoringMigrations());
    REQUIRE(store.ok());
    REQUIRE(profiles::spark::IngestEventLogs(*store.value(), logs).ok());
  }
  ServiceOptions options;
  options.port = 0;
  options.store_path = dir + "/spark.db";
  Service service(testing::ExampleCatalog(), options, nullptr);
  REQUIRE(service.Start().ok());
  httplib::Client client("127.0.0.1", service.port());

  PlanRequest request;
  request.store_path = dir + "/spark.db";
  request.app = "app-plan-2";
  request.deadline_seconds = 100;
  request.node_counts = {1, 2, 4};
  Result<SparkPlanAnswer> local = AnswerSparkPlan(request);
  REQUIRE(local.ok());
  const json body = {{"spark_app", "app-plan-2"}, {"deadline_seconds", 100},
                     {"executors", {1, 2, 4}}};
  httplib::Result r = client.Post("/v1/plan", body.dump(), "application/json");
  REQUIRE(r);
  REQUIRE(r->status == 200);
  // Byte for byte the CLI's --json document.
  CHECK(r->body == ToJson(local.value()));
  const json answer = json::parse(r->body);
  CHECK(answer["evidence"] == "spark-application");
  CHECK(answer["executors"]["options"].size() == 3);

  // What the Spark path cannot take is refused with the field named.
  const std::pair<json, std::string> refused[] = {
      {{{"spark_app", "app-plan-2"}, {"dataset", "sky-survey"}}, "dataset"},
      {{{"spark_app", "app-plan-2"}, {"objective", "cost"}}, "objective"},
      {{{"spark_app", "app-plan-2"}, {"prices", {{"schema_version", 1}}}}, "prices"},
      {{{"spark_app", "app-plan-2"}, {"executors", {0}}}, "executors"},
      {{{"spark_app", ""}}, "spark_app"},
      {{{"application", "kmeans"}, {"dataset", "sky-survey"}, {"executors", {2}}}, "executors"},
  };
  CheckRefused(client, refused);
  r = client.Post("/v1/plan", json({{"spark_app", "no-such-app"}}).dump(), "application/json");
  REQUIRE(r);
  CHECK(r->status == 404);

  // A served profile and the application together: the combined plan, the same parts and
  // recommendation as AnswerCombinedPlan over the files.
  const json prices = {{"schema_version", 1},
                       {"currency", "USD"},
                       {"prices",
                        {{{"site", "osu-cluster"}, {"price_per_node_hour", 0.4}},
                         {{"site", "anl-cluster"}, {"price_per_node_hour", 0.9}},
                         {{"site", "campus-lab"}, {"price_per_node_hour", 0.2}}}}};
  const json both = {{"application", "kmeans"}, {"dataset", "sky-survey"},
                     {"spark_app", "app-plan-2"}, {"objective", "cost"}, {"prices", prices}};
  r = client.Post("/v1/plan", both.dump(), "application/json");
  REQUIRE(r);
  REQUIRE(r->status == 200);
  const json combined = json::parse(r->body);
  testing::WriteFile(dir + "/p.json", prices.dump());
  PlanRequest files;
  files.profile_file = examples + "/profiles/kmeans.yaml";
  files.topology_file = examples + "/topology.yaml";
  files.dataset = "sky-survey";
  files.store_path = dir + "/spark.db";
  files.app = "app-plan-2";
  files.objective = PlanObjective::kCost;
  files.price_file = dir + "/p.json";
  const json e = CombinedPlanOf(files);
  CHECK(combined["evidence"] == "combined");
  CHECK(combined["recommendation"] == e["recommendation"]);
  CHECK(combined["front"] == e["front"]);
  CHECK(combined["parts"]["spark_application"] == e["parts"]["spark_application"]);
  CHECK(combined["parts"]["profile"]["alternatives"] == e["parts"]["profile"]["alternatives"]);
  CHECK(combined["parts"]["runs"].is_null());
  json no_dataset = both;
  no_dataset.erase("dataset");
  r = client.Post("/v1/plan", no_dataset.dump(), "application/json");
  REQUIRE(r);
  CHECK(r->status == 400);
  CHECK(json::parse(r->body)["field"] == "dataset");
  service.Stop();

  // A service started without a store has no Spark plans.
  ServiceOptions no_store;
  no_store.port = 0;
  Service without(testing::ExampleCatalog(), no_store, nullptr);
  REQUIRE(without.Start().ok());
  httplib::Client other("127.0.0.1", without.port());
  r = other.Post("/v1/plan", body.dump(), "application/json");
  REQUIRE(r);
  CHECK(r->status == 404);
  CHECK(json::parse(r->body)["message"] ==
        "\"spark_app\" plans are served when the service is started with --store");
  without.Stop();
}

std::string RunsCsv() {
  return testing::LinearRunsCsv("kmeans", {{"m5", 40, 1500}, {"c5", 30, 2500}}, {4, 8, 16, 32});
}

TEST_CASE("POST /v1/plan with runs_csv answers what perfplan plan --runs answers") {
  const std::string examples = testing::SourceDir() + "/examples";
  const std::string dir = testing::MakeTempDir();
  Served served;
  httplib::Client& client = *served.client;

  const json prices = {{"schema_version", 1},
                       {"currency", "EUR"},
                       {"prices",
                        {{{"instance_type", "m5"}, {"price_per_node_hour", 0.2}},
                         {{"instance_type", "c5"}, {"price_per_node_hour", 0.15}},
                         {{"site", "osu-cluster"}, {"price_per_node_hour", 0.4}},
                         {{"site", "anl-cluster"}, {"price_per_node_hour", 0.9}},
                         {{"site", "campus-lab"}, {"price_per_node_hour", 0.2}}}}};
  const json body = {{"runs_csv", RunsCsv()},
                     {"workload", "kmeans"},
                     {"nodes", {4, 8, 16, 32, 64}},
                     {"objective", "cost"},
                     {"prices", prices}};
  httplib::Result r = client.Post("/v1/plan", body.dump(), "application/json");
  REQUIRE(r);
  REQUIRE(r->status == 200);
  // The CLI's document over the same CSV in a file, but for the name of the runs.
  testing::WriteFile(dir + "/runs.csv", RunsCsv());
  testing::WriteFile(dir + "/p.json", prices.dump());
  PlanRequest files;
  files.runs_file = dir + "/runs.csv";
  files.workload = "kmeans";
  files.node_counts = {4, 8, 16, 32, 64};
  files.objective = PlanObjective::kCost;
  files.price_file = dir + "/p.json";
  Result<PlanAnswer> local = AnswerPlan(files);
  REQUIRE(local.ok());
  json expected = json::parse(ToJson(local.value()));
  json answer = json::parse(r->body);
  CHECK(answer["evidence"] == "runs");
  CHECK(answer["recommendation"] == expected["recommendation"]);
  CHECK(answer["front"] == expected["front"]);
  CHECK(answer["alternatives"] == expected["alternatives"]);
  CHECK(r->body.find("request.runs_csv") != std::string::npos);

  // With a profile too: the combined plan, its parts the plans of each path alone.
  json both = body;
  both["application"] = "kmeans";
  both["dataset"] = "sky-survey";
  r = client.Post("/v1/plan", both.dump(), "application/json");
  REQUIRE(r);
  REQUIRE(r->status == 200);
  const json combined = json::parse(r->body);
  files.profile_file = examples + "/profiles/kmeans.yaml";
  files.topology_file = examples + "/topology.yaml";
  files.dataset = "sky-survey";
  const json e = CombinedPlanOf(files);
  CHECK(combined["evidence"] == "combined");
  CHECK(combined["recommendation"] == e["recommendation"]);
  CHECK(combined["front"] == e["front"]);
  CHECK(combined["parts"]["runs"]["alternatives"] == e["parts"]["runs"]["alternatives"]);
  CHECK(combined["parts"]["profile"]["alternatives"] == e["parts"]["profile"]["alternatives"]);

  // Bad runs and misplaced fields are refused with the field named.
  const std::pair<json, std::string> refused[] = {
      {{{"runs_csv", RunsCsv()}}, "workload"},
      {{{"runs_csv", ""}, {"workload", "kmeans"}}, "runs_csv"},
      {{{"runs_csv", 3}, {"workload", "kmeans"}}, "runs_csv"},
      {{{"runs_csv", RunsCsv()}, {"workload", "kmeans"}, {"nodes", {0}}}, "nodes"},
      {{{"runs_csv", RunsCsv()}, {"workload", "kmeans"}, {"instance_types", "m5"}},
       "instance_types"},
      {{{"runs_csv", RunsCsv()}, {"workload", "kmeans"}, {"dataset", "sky-survey"}}, "dataset"},
      {{{"application", "kmeans"}, {"dataset", "sky-survey"}, {"workload", "kmeans"}},
       "workload"},
      {{{"runs_csv", RunsCsv()}, {"workload", "kmeans"}, {"spark_app", "a"}, {"executors", {2}}},
       "executors"},
  };
  CheckRefused(client, refused);
  // A CSV that does not parse: its first problem, as request.runs_csv:LINE: column: message.
  r = client.Post("/v1/plan",
                  json({{"runs_csv", RunsCsv() + "kmeans,m5,abc,4,4,1e8,100,true\n"},
                        {"workload", "kmeans"}})
                      .dump(),
                  "application/json");
  REQUIRE(r);
  CHECK(r->status == 400);
  CHECK(json::parse(r->body)["field"] == "runs_csv.dataset_bytes");
  CHECK(json::parse(r->body)["message"].get<std::string>().rfind("request.runs_csv:10: ", 0) ==
        0);
  r = client.Post("/v1/plan", json({{"runs_csv", RunsCsv()}, {"workload", "nope"}}).dump(),
                  "application/json");
  REQUIRE(r);
  CHECK(r->status == 404);
  CHECK(json::parse(r->body)["message"] ==
        "workload: no runs of \"nope\" in request.runs_csv");
}

}  // namespace
}  // namespace perfplan::planner
