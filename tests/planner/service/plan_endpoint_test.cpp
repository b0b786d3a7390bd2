// POST /v1/plan over a real socket: the same document as AnswerPlan over the files, prices given
// inline; bad prices name the field inside the request.
#include <doctest/doctest.h>
#include <httplib.h>

#include <nlohmann/json.hpp>

#include "planner/plan/plan.h"
#include "planner/service/service.h"
#include "tests/support/test_support.h"

namespace perfplan::planner {
namespace {

using nlohmann::json;

TEST_CASE("POST /v1/plan answers what perfplan plan answers, and names bad price fields") {
  const std::string examples = testing::SourceDir() + "/examples";
  Result<Catalog> catalog = Catalog::Load({examples + "/profiles"}, examples + "/topology.yaml");
  REQUIRE(catalog.ok());
  ServiceOptions options;
  options.port = 0;
  Service service(std::move(catalog).value(), options, nullptr);
  REQUIRE(service.Start().ok());
  httplib::Client client("127.0.0.1", service.port());

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
  service.Stop();
}

}  // namespace
}  // namespace perfplan::planner
