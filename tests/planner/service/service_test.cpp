// Specification of planner/service/service.h: routing and errors without a socket, then the real server
// over loopback (token, body limit, concurrency) and `perfplan serve` stopping on SIGTERM.
#include "planner/service/service.h"

#include <doctest/doctest.h>
#include <httplib.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "planner/tuning/tune.h"
#include "profiles/spark/spark_ingest.h"
#include "profiles/spark/spark_store.h"
#include "tests/support/example_catalog.h"
#include "tests/support/spark_codecs.h"
#include "tests/support/test_support.h"

namespace perfplan::planner {
namespace {

using testing::ExampleCatalog;

// One request and its answer: the status, and the exact body unless `reply` is "".
struct RouteCase {
  std::string method, target, body;
  int status;
  std::string reply;
};

template <typename Cases>
void CheckRoutes(const Catalog& catalog, const ServiceOptions& options, const Cases& cases) {
  for (const RouteCase& c : cases) {
    CAPTURE(c.method);
    CAPTURE(c.target);
    CAPTURE(c.body);
    HttpReply reply = HandleRequest(catalog, options, c.method, c.target, "", c.body);
    CHECK(reply.status == c.status);
    if (!c.reply.empty()) CHECK(reply.body == c.reply);
  }
}

const char* kPredictBody =
    R"({"application": "kmeans", "dataset_bytes": 8e9, "storage_nodes": 4,
        "compute_nodes": 16, "bandwidth_bytes_per_second": 1.25e8})";

TEST_CASE("requests are routed and bad ones get the right 4xx with the field") {
  const Catalog catalog = ExampleCatalog();
  const ServiceOptions options;
  using Case = RouteCase;
  const Case cases[] = {
      {"GET", "/v1/health", "", 200,
       R"({"status": "ok", "applications": ["defect", "em", "kmeans", "knn", "vortex"], "topology": true})"
       "\n"},
      {"POST", "/v1/predict", kPredictBody, 200, ""},
      {"POST", "/v1/predict", "{bad", 400,
       R"({"error":"invalid_json","field":null,"message":"the request body is not valid JSON"})"
       "\n"},
      {"POST", "/v1/predict", "[1]", 400,
       R"({"error":"invalid_json","field":null,"message":"the request body must be a JSON object, got an array"})"
       "\n"},
      {"POST", "/v1/predict", R"({"aplication": "kmeans"})", 400,
       R"({"error":"unknown_field","field":"aplication","message":"aplication: unknown field; did you mean \"application\"?"})"
       "\n"},
      {"POST", "/v1/predict", R"({"application": "kmeans", "dataset_bytes": "8e9"})", 400,
       R"({"error":"invalid_field","field":"dataset_bytes","message":"dataset_bytes: expected a number, got a string"})"
       "\n"},
      {"POST", "/v1/predict", R"({"dataset_bytes": 1})", 400,
       R"J({"error":"missing_field","field":"application","message":"application: required (or an inline \"profile\" object)"})J"
       "\n"},
      {"POST", "/v1/predict",
       R"({"application": "kmean", "dataset_bytes": 1, "storage_nodes": 1, "compute_nodes": 1, "bandwidth_bytes_per_second": 1})",
       404,
       R"({"error":"not_found","field":"application","message":"application: no profile named \"kmean\"; did you mean \"kmeans\"?"})"
       "\n"},
      {"POST", "/v1/predict",
       R"({"application": "kmeans", "dataset_bytes": 0, "storage_nodes": 1, "compute_nodes": 1, "bandwidth_bytes_per_second": 1})",
       400,
       R"({"error":"invalid_field","field":"dataset_bytes","message":"dataset_bytes: must be > 0, got 0"})"
       "\n"},
      {"POST", "/v1/predict",
       R"({"profile": {"schema_version": 1, "application": "x", "runs": []}, "dataset_bytes": 1, "storage_nodes": 1, "compute_nodes": 1, "bandwidth_bytes_per_second": 1})",
       400,
       R"({"error":"invalid_field","field":"profile.runs","message":"request.profile:1: runs: expected at least 1 profile run, got 0"})"
       "\n"},
      {"POST", "/v1/select", R"({"application": "kmeans", "dataset": "sky-survey", "top": 1.5})",
       400,
       R"({"error":"invalid_field","field":"top","message":"top: expected a whole number, got 1.5"})"
       "\n"},
      {"POST", "/v1/select", R"({"application": "kmeans", "dataset": "sky", "objective": "cost"})",
       400,
       R"({"error":"invalid_field","field":"objective","message":"objective: expected time or node-seconds, got \"cost\""})"
       "\n"},
      {"POST", "/v1/select", R"({"application": "kmeans", "dataset": "sky"})", 404,
       R"({"error":"not_found","field":null,"message":"dataset \"sky\" is not in )" +
           testing::SourceDir() + R"(/examples/topology.yaml"})" + "\n"},
      {"POST", "/v1/select",
       R"({"application": "kmeans", "dataset": "sky-survey", "deadline_seconds": 1})", 422,
       R"J({"error":"failed","field":null,"message":"no alternative meets the deadline of 1 s (188 evaluated)"})J"
       "\n"},
      {"GET", "/v1/predict", "", 405,
       R"({"error":"method_not_allowed","field":null,"message":"/v1/predict accepts POST, not GET"})"
       "\n"},
      {"GET", "/v2", "", 404,
       R"({"error":"not_found","field":null,"message":"no endpoint /v2; see docs/openapi.json"})"
       "\n"},
      // HEAD answers every GET (httplib drops the body on the wire) and nothing else.
      {"HEAD", "/v1/health", "", 200, ""},
      {"HEAD", "/v1/predict", "", 405,
       R"({"error":"method_not_allowed","field":null,"message":"/v1/predict accepts POST, not HEAD"})"
       "\n"},
      // Paths and queries are percent-decoded; a broken escape, or an escaped '/', is a 400.
      {"GET", "/v1/he%61lth", "", 200, ""},
      {"GET", "/v1/health%4", "", 400,
       R"j({"error":"bad_request","field":null,"message":"malformed percent-encoding in the request target (or an escaped '/', '?', '&', '=' or '#')"})j"
       "\n"},
      {"GET", "/v1%2Fhealth", "", 400, ""},
  };
  CheckRoutes(catalog, options, cases);
}

TEST_CASE("an inline profile is answered like a loaded one") {
  const Catalog catalog = ExampleCatalog();
  const std::string inline_body =
      R"({"profile": {"schema_version": 1, "application": "scan", "runs": [{"dataset_bytes": 1e9,
          "storage_nodes": 1, "compute_nodes": 1, "bandwidth_bytes_per_second": 1e8,
          "disk_seconds": 10, "network_seconds": 10, "compute_seconds": 100}]},
          "dataset_bytes": 1e9, "storage_nodes": 1, "compute_nodes": 4,
          "bandwidth_bytes_per_second": 1e8})";
  HttpReply reply = HandleRequest(catalog, {}, "POST", "/v1/predict", "", inline_body);
  REQUIRE(reply.status == 200);
  CHECK(nlohmann::json::parse(reply.body)["runtime_seconds"].get<double>() ==
        doctest::Approx(45).epsilon(1e-12));
}

TEST_CASE("a token guards every endpoint but health, compared in constant time") {
  const Catalog catalog = ExampleCatalog();
  ServiceOptions options;
  options.token = "s3cret";
  CHECK(HandleRequest(catalog, options, "GET", "/v1/health", "", "").status == 200);
  HttpReply missing = HandleRequest(catalog, options, "POST", "/v1/predict", "", kPredictBody);
  CHECK(missing.status == 401);
  CHECK(
      missing.body ==
      R"({"error":"unauthorized","field":null,"message":"missing \"Authorization: Bearer <token>\" header"})"
      "\n");
  CHECK(HandleRequest(catalog, options, "POST", "/v1/predict", "Bearer s3cre", kPredictBody).body ==
        R"({"error":"unauthorized","field":null,"message":"wrong bearer token"})"
        "\n");
  CHECK(
      HandleRequest(catalog, options, "POST", "/v1/predict", "Basic s3cret", kPredictBody).status ==
      401);
  CHECK(HandleRequest(catalog, options, "POST", "/v1/predict", "Bearer s3cret", kPredictBody)
            .status == 200);
  CHECK(ConstantTimeEquals("abc", "abc"));
  CHECK_FALSE(ConstantTimeEquals("abc", "abd"));
  CHECK_FALSE(ConstantTimeEquals("abc", "abcd"));
  CHECK_FALSE(ConstantTimeEquals("", "a"));
}

TEST_CASE("access-log lines are written while the service runs, not only when it stops") {
  const std::string file = testing::MakeTempDir() + "/access.log";
  std::ofstream log(file);
  ServiceOptions options;
  options.port = 0;
  Service service(ExampleCatalog(), options, &log);
  REQUIRE(service.Start().ok());
  httplib::Client client("127.0.0.1", service.port());
  REQUIRE(client.Get("/v1/health"));
  // The writer thread writes every 50 ms; two seconds is generous on a loaded machine.
  std::string text;
  for (int i = 0; i < 200 && text.find('\n') == std::string::npos; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    std::ifstream in(file);
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  CHECK(text.find(" 127.0.0.1 \"GET /v1/health\" 200 ") != std::string::npos);
  CHECK(std::count(text.begin(), text.end(), '\n') == 1);
  service.Stop();
}

TEST_CASE("the server answers over loopback, limits bodies and serves concurrent clients") {
  std::ostringstream log;
  ServiceOptions options;
  options.port = 0;
  options.max_body_bytes = 4096;
  options.threads = 4;
  Service service(ExampleCatalog(), options, &log);
  REQUIRE(service.Start().ok());
  const int port = service.port();
  REQUIRE(port > 0);

  httplib::Client client("127.0.0.1", port);
  auto health = client.Get("/v1/health");
  REQUIRE(health);
  CHECK(health->status == 200);
  CHECK(health->get_header_value("Content-Type") == "application/json");

  auto big = client.Post("/v1/predict", std::string(5000, ' '), "application/json");
  REQUIRE(big);
  CHECK(big->status == 413);
  CHECK(
      big->body ==
      R"({"error":"payload_too_large","field":null,"message":"the request body is larger than 4096 bytes"})"
      "\n");

  auto expected = client.Post("/v1/predict", kPredictBody, "application/json");
  REQUIRE(expected);
  REQUIRE(expected->status == 200);
  std::vector<std::thread> threads;
  std::atomic<int> same{0};
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&] {
      httplib::Client c("127.0.0.1", port);
      for (int i = 0; i < 25; ++i) {
        auto r = c.Post("/v1/predict", kPredictBody, "application/json");
        if (r && r->status == 200 && r->body == expected->body) ++same;
      }
    });
  }
  for (auto& t : threads) t.join();
  CHECK(same == 200);
  service.Stop();
  // One access-log line per request: 3 above plus 200 concurrent ones.
  const std::string lines = log.str();
  CHECK(std::count(lines.begin(), lines.end(), '\n') == 203);
  // Each line starts with its ISO timestamp; the first request was the health check.
  CHECK(lines.substr(0, lines.find('\n')).find(" 127.0.0.1 \"GET /v1/health\" 200 ") !=
        std::string::npos);
}

TEST_CASE("a port in use is a clear failure") {
  Service first(
      ExampleCatalog(),
      [] {
        ServiceOptions o;
        o.port = 0;
        return o;
      }(),
      nullptr);
  REQUIRE(first.Start().ok());
  ServiceOptions taken;
  taken.port = first.port();
  Service second(ExampleCatalog(), taken, nullptr);
  Status s = second.Start();
  CHECK(s.code() == StatusCode::kFailed);
  CHECK(s.message() == "cannot listen on 127.0.0.1:" + std::to_string(first.port()) +
                           " (address in use, or not an address of this machine)");
}

TEST_CASE("perfplan serve stops cleanly on SIGTERM") {
  const std::string err_file = testing::MakeTempDir() + "/serve.err";
  testing::WriteFile(err_file, "");  // exists before the child reopens it: the poll can read it
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  // A failed REQUIRE below must not leave the server running (it would hold CTest's pipe open).
  struct KillOnExit {
    pid_t pid;
    bool armed = true;
    ~KillOnExit() {
      if (armed) kill(pid, SIGKILL), waitpid(pid, nullptr, 0);
    }
  } guard{pid};
  if (pid == 0) {
    freopen(err_file.c_str(), "w", stderr);
    chdir(testing::SourceDir().c_str());
    execl((testing::BinaryDir() + "/perfplan").c_str(), "perfplan", "serve", "--listen",
          "127.0.0.1:0", "--profiles", "examples/profiles", "--topology", "examples/topology.yaml",
          nullptr);
    _exit(127);
  }
  // Wait for "listening on http://127.0.0.1:PORT".
  int port = 0;
  for (int i = 0; i < 500 && port == 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    const std::string err = testing::ReadFile(err_file);
    const std::size_t at = err.find("http://127.0.0.1:");
    if (at != std::string::npos && err.find('\n', at) != std::string::npos) {
      port = std::stoi(err.substr(at + 17));
    }
  }
  REQUIRE(port > 0);
  httplib::Client client("127.0.0.1", port);
  auto r = client.Post("/v1/predict", kPredictBody, "application/json");
  REQUIRE(r);
  CHECK(r->status == 200);
  kill(pid, SIGTERM);
  int status = 0;
  waitpid(pid, &status, 0);
  guard.armed = false;
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  const std::string err = testing::ReadFile(err_file);
  CHECK(err.find("\"POST /v1/predict\" 200") != std::string::npos);
  CHECK(err.find("perfplan serve: SIGTERM, stopping after in-flight requests\n") !=
        std::string::npos);
}

TEST_CASE("History Server paths and tuning endpoints explain what the service lacks") {
  const Catalog catalog = ExampleCatalog();
  ServiceOptions bare;
  using Case = RouteCase;
  const std::string models = testing::MakeTempDir();
  ServiceOptions with_models;
  with_models.models_dir = models;
  const Case bare_cases[] = {
      {"GET", "/api/v1/applications", "", 404,
       R"({"error":"not_found","field":null,"message":"/api/v1/ is served when the service is started with --store"})"
       "\n"},
      {"GET", "/v1/tuning/pagerank/sensitivity", "", 404,
       R"({"error":"not_found","field":null,"message":"the tuning endpoints are served when the service is started with --models"})"
       "\n"},
      {"POST", "/api/v1/applications", "", 405,
       R"({"error":"method_not_allowed","field":null,"message":"/api/v1/applications accepts GET, not POST"})"
       "\n"},
  };
  CheckRoutes(catalog, bare, bare_cases);
  const Case model_cases[] = {
      // An escaped '/' is refused before routing (it could not reach a file anyway).
      {"GET", "/v1/tuning/..%2Fetc/sensitivity", "", 400,
       R"j({"error":"bad_request","field":null,"message":"malformed percent-encoding in the request target (or an escaped '/', '?', '&', '=' or '#')"})j"
       "\n"},
      {"GET", "/v1/tuning/../sensitivity", "", 400, ""},
      {"GET", "/v1/tuning/pagerank/sensitivity", "", 404,
       R"J({"error":"not_found","field":"workload","message":"workload: no model \"pagerank\" (expected )J" +
           models + R"J(/pagerank.model.json)"})J" + "\n"},
      {"POST", "/v1/tuning/recommend", R"({"workload": "pagerank", "samples": 0})", 400,
       R"({"error":"invalid_field","field":"samples","message":"samples: must be 1..1000000, got 0"})"
       "\n"},
      {"POST", "/v1/tuning/recommend", R"({"workload": "pagerank", "constraints": "a < b"})", 400,
       R"({"error":"invalid_field","field":"constraints","message":"constraints: expected an array of strings, got a string"})"
       "\n"},
  };
  CheckRoutes(catalog, with_models, model_cases);
}

TEST_CASE("POST /v1/tuning/recommend is failure-aware with a model trained on failed runs") {
  const Catalog catalog = ExampleCatalog();
  const std::string models = testing::MakeTempDir();
  TuneDataRequest data;
  data.data_file = testing::SourceDir() + "/examples/tuning/hadoop_runs.arff";
  data.dataset.target = "performance";
  data.dataset.failed_markers = {-1};
  tuning::SearchOptions search;
  search.kinds = {tuning::ModelKind::kRidge, tuning::ModelKind::kMean};
  REQUIRE(AnswerTuneTrain(data, search, models + "/hadoop.model.json").ok());
  ServiceOptions options;
  options.models_dir = models;
  const HttpReply reply = HandleRequest(catalog, options, "POST", "/v1/tuning/recommend", "",
                                        R"({"workload": "hadoop", "samples": 500})");
  REQUIRE(reply.status == 200);
  const auto j = nlohmann::json::parse(reply.body);
  REQUIRE(j["failure"].is_object());
  CHECK(j["failure"]["failed_runs"] == 22);
  CHECK(j["failure"]["max_probability"] == 0.2);
  CHECK(j["failure"]["probability"].get<double>() <= 0.2);
  const HttpReply strict =
      HandleRequest(catalog, options, "POST", "/v1/tuning/recommend", "",
                    R"({"workload": "hadoop", "samples": 500, "max_failure_probability": 0.05})");
  REQUIRE(strict.status == 200);
  CHECK(nlohmann::json::parse(strict.body)["failure"]["probability"].get<double>() <= 0.05);
  const HttpReply bad =
      HandleRequest(catalog, options, "POST", "/v1/tuning/recommend", "",
                    R"({"workload": "hadoop", "max_failure_probability": 1.5})");
  CHECK(bad.status == 400);
  CHECK(bad.body ==
        R"({"error":"invalid_field","field":"max_failure_probability","message":"max_failure_probability: must be 0..1, got 1.5"})"
        "\n");
}

TEST_CASE("GET /v1/apps/{id}/score answers perfplan score's document from the store") {
  const Catalog catalog = ExampleCatalog();
  const std::string dir = testing::MakeTempDir();
  for (const char* id : {"app-score-1", "app-score-2"}) {
    testing::WriteFile(dir + "/" + id, testing::SyntheticEventLog(id, 2, 20));
  }
  {
    auto store = profiles::Store::Open(dir + "/spark.db", {profiles::spark::StoreMigrations()});
    REQUIRE(store.ok());
    REQUIRE(profiles::spark::IngestEventLogs(*store.value(),
                                             {dir + "/app-score-1", dir + "/app-score-2"})
                .ok());
  }
  ServiceOptions options;
  options.store_path = dir + "/spark.db";

  HttpReply ok = HandleRequest(catalog, options, "GET", "/v1/apps/app-score-2/score", "", "");
  REQUIRE(ok.status == 200);
  const nlohmann::json j = nlohmann::json::parse(ok.body);
  CHECK(j["app_id"] == "app-score-2");
  CHECK(j["dimensions"].size() == 12);

  HttpReply unknown = HandleRequest(catalog, options, "GET", "/v1/apps/app-score-3/score", "", "");
  CHECK(unknown.status == 404);
  CHECK(
      unknown.body ==
      R"({"error":"not_found","field":"id","message":"no Spark application app-score-3 in the store; did you mean 'app-score-1'?"})"
      "\n");
  HttpReply post = HandleRequest(catalog, options, "POST", "/v1/apps/app-score-1/score", "", "");
  CHECK(post.status == 405);

  HttpReply bare = HandleRequest(catalog, ServiceOptions{}, "GET", "/v1/apps/x/score", "", "");
  CHECK(bare.status == 404);
  CHECK(
      bare.body ==
      R"({"error":"not_found","field":null,"message":"/v1/apps/{id}/score is served when the service is started with --store"})"
      "\n");
  // Nested paths are not application ids.
  CHECK(HandleRequest(catalog, options, "GET", "/v1/apps/a/b/score", "", "").status == 404);

  std::filesystem::remove(dir + "/spark.db");
  HttpReply gone = HandleRequest(catalog, options, "GET", "/v1/apps/app-score-1/score", "", "");
  CHECK(gone.status == 503);
}

}  // namespace
}  // namespace perfplan::planner
