// Specification of profiles/runtime/profile_reader.h: one schema for YAML and JSON, every problem
// reported at once with file, line, field, the value seen and what was expected.
#include "profiles/runtime/profile_reader.h"

#include <doctest/doctest.h>

#include "tests/support/test_support.h"

namespace perfplan::profiles {
namespace {

std::vector<std::string> Messages(const Loaded<ProfileDocument>& loaded) {
  std::vector<std::string> out;
  for (const Problem& p : loaded.problems) out.push_back(FormatProblem(p));
  return out;
}

const char* kValidYaml = R"(schema_version: 1
application: kmeans
profiled_site: osu
reduction_object_class: constant
global_reduction_class: auto
retrieval_scales_with_storage_nodes: false
reduction_communication: {seconds_per_byte: 0.001, fixed_seconds: 1}
runs:
  - {dataset_bytes: 1e9, storage_nodes: 2, compute_nodes: 4, bandwidth_bytes_per_second: 1e7,
     disk_seconds: 10, network_seconds: 20, compute_seconds: 40, reduction_object_bytes: 1000,
     reduction_seconds: 2, global_reduction_seconds: 3}
  - {dataset_bytes: 1e9, storage_nodes: 2, compute_nodes: 8, bandwidth_bytes_per_second: 1e7,
     disk_seconds: 10, network_seconds: 20, compute_seconds: 26, reduction_object_bytes: 1000,
     reduction_seconds: 2, global_reduction_seconds: 6}
)";

TEST_CASE("a valid YAML profile becomes a RuntimeProfile") {
  Loaded<ProfileDocument> loaded = ParseProfile(kValidYaml, "p.yaml");
  REQUIRE(loaded.ok());
  const models::RuntimeProfile& p = loaded.value.profile;
  CHECK(p.application == "kmeans");
  CHECK(loaded.value.profiled_site == "osu");
  CHECK(p.reduction_object_class == models::ReductionObjectClass::kConstant);
  CHECK_FALSE(p.global_reduction_class.has_value());  // "auto": inferred later
  CHECK_FALSE(p.retrieval_scales_with_storage_nodes);
  REQUIRE(p.reduction_communication.has_value());
  CHECK(p.reduction_communication->seconds_per_byte == 0.001);
  REQUIRE(p.runs.size() == 2);
  CHECK(p.runs[1].compute_nodes == 8);
  CHECK(p.runs[1].global_reduction_seconds == 6);
}

TEST_CASE("JSON profiles use the same schema") {
  const char* json = R"({"schema_version": 1, "application": "em",
    "reduction_object_class": "constant", "global_reduction_class": "constant-linear",
    "runs": [{"dataset_bytes": 1.4e9, "storage_nodes": 2, "compute_nodes": 4,
              "bandwidth_bytes_per_second": 12.5e6, "disk_seconds": 14, "network_seconds": 56,
              "compute_seconds": 310, "reduction_object_bytes": 48000,
              "reduction_seconds": 2.4, "global_reduction_seconds": 4.5}]})";
  Loaded<ProfileDocument> loaded = ParseProfile(json, "p.json");
  REQUIRE(loaded.ok());
  CHECK(loaded.value.profile.global_reduction_class ==
        models::GlobalReductionClass::kConstantLinear);
  CHECK(loaded.value.profile.runs[0].compute_seconds == 310);
}

TEST_CASE("every problem in a profile is reported with its line and field") {
  const char* text = R"(schema_version: 1
application: kmeans
reduction_object_clas: constant
global_reduction_class: linear-konstant
runs:
  - dataset_bytes: -5
    storage_nodes: 0
    compute_nodes: four
    bandwidth_bytes_per_second: 1e7
    disk_seconds: 1
    network_seconds: 1
)";
  CHECK(Messages(ParseProfile(text, "p.yaml")) ==
        std::vector<std::string>{
            "p.yaml:3: reduction_object_clas: unknown key; did you mean "
            "\"reduction_object_class\"?",
            "p.yaml:4: global_reduction_class: expected linear-constant, constant-linear or "
            "auto, got \"linear-konstant\"; did you mean \"linear-constant\"?",
            "p.yaml:6: runs[0].dataset_bytes: must be > 0, got -5",
            "p.yaml:7: runs[0].storage_nodes: must be >= 1, got 0",
            "p.yaml:8: runs[0].compute_nodes: expected a whole number, got \"four\"",
            "p.yaml:6: runs[0].compute_seconds: missing",
        });
}

TEST_CASE("malformed documents are reported, not crashed on") {
  struct Case {
    const char* text;
    std::vector<std::string> messages;
  };
  const Case cases[] = {
      {"schema_version: 1\napplication: [a\n",
       {"p.yaml:3: not valid YAML or JSON: end of sequence flow not found"}},
      {"", {"p.yaml: expected a mapping at the top level, got nothing"}},
      {"- 1\n- 2\n", {"p.yaml:1: expected a mapping at the top level, got a list"}},
      {R"({"schema_version": 2, "application": "x", "runs": []})",
       {"p.yaml:1: schema_version: this perfplan reads version 1, got 2",
        "p.yaml:1: runs: expected at least 1 profile run, got 0"}},
      {"schema_version: 1\napplication: x\nruns: 5\n",
       {"p.yaml:3: runs: expected a list, got \"5\""}},
      {"schema_version: 1\napplication: x\nruns:\n  - 7\n",
       {"p.yaml:4: runs[0]: expected a mapping, got \"7\""}},
      {"schema_version: 1\napplication: x\nretrieval_scales_with_storage_nodes: yes\nruns: []\n",
       {"p.yaml:3: retrieval_scales_with_storage_nodes: expected true or false, got \"yes\"",
        "p.yaml:4: runs: expected at least 1 profile run, got 0"}},
      {"schema_version: 1\nruns:\n  - {dataset_bytes: .inf}\n",
       {"p.yaml:1: application: missing",
        "p.yaml:3: runs[0].dataset_bytes: expected a finite number, got \".inf\"",
        "p.yaml:3: runs[0].storage_nodes: missing", "p.yaml:3: runs[0].compute_nodes: missing",
        "p.yaml:3: runs[0].bandwidth_bytes_per_second: missing",
        "p.yaml:3: runs[0].disk_seconds: missing", "p.yaml:3: runs[0].network_seconds: missing",
        "p.yaml:3: runs[0].compute_seconds: missing"}},
  };
  for (const Case& c : cases) {
    CAPTURE(c.text);
    CHECK(Messages(ParseProfile(c.text, "p.yaml")) == c.messages);
  }
}

TEST_CASE("a document nested 100,000 deep is refused with a message, not a stack overflow") {
  const std::string deep =
      "{\"runs\": " + std::string(100000, '[') + std::string(100000, ']') + "}";
  const std::vector<std::string> messages = Messages(ParseProfile(deep, "deep.json"));
  REQUIRE(messages.size() == 1);
  CHECK(messages[0].rfind("deep.json:1: not valid YAML or JSON: nested too deeply (the parser "
                          "stops at a recursion depth of ",
                          0) == 0);
}

TEST_CASE("cross-field problems found by the model are reported too") {
  std::string text = kValidYaml;
  text.replace(text.find("compute_seconds: 26"), 19, "compute_seconds: 7");
  CHECK(Messages(ParseProfile(text, "p.yaml")) ==
        std::vector<std::string>{"p.yaml:13: runs[1].compute_seconds: must include "
                                 "reduction_seconds + global_reduction_seconds (8), got 7"});
}

TEST_CASE("a missing file is reported with the reason") {
  Loaded<ProfileDocument> loaded = LoadProfile("/nonexistent/p.yaml");
  CHECK(Messages(loaded) ==
        std::vector<std::string>{"/nonexistent/p.yaml: cannot open (No such file or directory)"});
}

}  // namespace
}  // namespace perfplan::profiles
