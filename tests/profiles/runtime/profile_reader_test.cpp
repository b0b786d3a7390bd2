// Specification of profiles/runtime/profile_reader.h: one schema for YAML and JSON, every problem
// reported at once with file, line, field, the value seen and what was expected.
#include "profiles/runtime/profile_reader.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <random>

#include "profiles/runtime/profile_writer.h"
#include "tests/support/problem_lines.h"
#include "tests/support/test_support.h"

namespace perfplan::profiles {
namespace {

using testing::ProblemLines;

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
  CHECK(ProblemLines(ParseProfile(text, "p.yaml")) ==
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
    CHECK(ProblemLines(ParseProfile(c.text, "p.yaml")) == c.messages);
  }
}

TEST_CASE("a document nested 100,000 deep is refused with a message, not a stack overflow") {
  const std::string deep =
      "{\"runs\": " + std::string(100000, '[') + std::string(100000, ']') + "}";
  const std::vector<std::string> messages = ProblemLines(ParseProfile(deep, "deep.json"));
  REQUIRE(messages.size() == 1);
  CHECK(messages[0].rfind("deep.json:1: not valid YAML or JSON: nested too deeply (the parser "
                          "stops at a recursion depth of ",
                          0) == 0);
}

TEST_CASE("cross-field problems found by the model are reported too") {
  std::string text = kValidYaml;
  text.replace(text.find("compute_seconds: 26"), 19, "compute_seconds: 7");
  CHECK(ProblemLines(ParseProfile(text, "p.yaml")) ==
        std::vector<std::string>{"p.yaml:13: runs[1].compute_seconds: must include "
                                 "reduction_seconds + global_reduction_seconds (8), got 7"});
}

TEST_CASE("a missing file is reported with the reason") {
  Loaded<ProfileDocument> loaded = LoadProfile("/nonexistent/p.yaml");
  CHECK(ProblemLines(loaded) ==
        std::vector<std::string>{"/nonexistent/p.yaml: cannot open (No such file or directory)"});
}


// ---- the one-pass reader of plain documents (the documents perfplan writes) ----

// A leading comment holding a tab keeps the meaning of any YAML or JSON document but is outside
// the one-pass reader's subset: the same document read by yaml-cpp.
Loaded<ProfileDocument> ParseWithYamlCpp(const std::string& text) {
  return ParseProfile("#\t\n" + text, "p.yaml");
}

bool SameDouble(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Every value of the two documents, doubles bit for bit.
bool SameDocument(const ProfileDocument& a, const ProfileDocument& b) {
  const models::RuntimeProfile& p = a.profile;
  const models::RuntimeProfile& q = b.profile;
  if (p.application != q.application || a.profiled_site != b.profiled_site ||
      p.reduction_object_class != q.reduction_object_class ||
      p.reduction_object_scaling != q.reduction_object_scaling ||
      p.global_reduction_class != q.global_reduction_class ||
      p.retrieval_scales_with_storage_nodes != q.retrieval_scales_with_storage_nodes ||
      p.reduction_communication.has_value() != q.reduction_communication.has_value() ||
      p.runs.size() != q.runs.size()) {
    return false;
  }
  if (p.reduction_communication &&
      (!SameDouble(p.reduction_communication->seconds_per_byte,
                   q.reduction_communication->seconds_per_byte) ||
       !SameDouble(p.reduction_communication->fixed_seconds,
                   q.reduction_communication->fixed_seconds))) {
    return false;
  }
  for (std::size_t i = 0; i < p.runs.size(); ++i) {
    const models::ProfileRun& r = p.runs[i];
    const models::ProfileRun& s = q.runs[i];
    for (auto m : {&models::ProfileRun::dataset_bytes, &models::ProfileRun::storage_nodes,
                   &models::ProfileRun::compute_nodes,
                   &models::ProfileRun::bandwidth_bytes_per_second,
                   &models::ProfileRun::disk_seconds, &models::ProfileRun::network_seconds,
                   &models::ProfileRun::compute_seconds,
                   &models::ProfileRun::reduction_object_bytes,
                   &models::ProfileRun::reduction_seconds,
                   &models::ProfileRun::global_reduction_seconds}) {
      if (!SameDouble(r.*m, s.*m)) return false;
    }
  }
  return true;
}

models::RuntimeProfile GeneratedProfile(std::size_t runs) {
  models::RuntimeProfile p;
  p.application = "kmeans \"sky\" \\ survey";
  p.reduction_object_class = models::ReductionObjectClass::kConstant;
  p.global_reduction_class = models::GlobalReductionClass::kLinearConstant;
  p.reduction_communication = models::ReductionCommunication{1.25e-9, 0.003};
  for (std::size_t i = 0; i < runs; ++i) {
    models::ProfileRun r;
    r.dataset_bytes = 1.4e9 * static_cast<double>(1 + i % 7);
    r.storage_nodes = 2;
    r.compute_nodes = static_cast<double>(4 << (i % 3));
    r.bandwidth_bytes_per_second = 12.5e6;
    r.disk_seconds = 14.0 + 0.1 * static_cast<double>(i);
    r.network_seconds = 56.0 / 3.0;
    r.compute_seconds = 121.5;
    r.reduction_object_bytes = 16000;
    r.reduction_seconds = 0.9;
    r.global_reduction_seconds = 0.6;
    p.runs.push_back(r);
  }
  return p;
}

const char* kPlainJson = R"({
  "schema_version": 1,
  "application": "em",
  "description": {"note": ["fit", 2, {"x": null}], "y": true},
  "reduction_object_class": "constant",
  "global_reduction_class": "constant-linear",
  "retrieval_scales_with_storage_nodes": false,
  "reduction_communication": {"seconds_per_byte": 0.001, "fixed_seconds": 1},
  "runs": [
    {"dataset_bytes": 1.4e9, "storage_nodes": 2, "compute_nodes": 4,
     "bandwidth_bytes_per_second": 12.5e6, "disk_seconds": 14, "network_seconds": 56,
     "compute_seconds": 310, "reduction_object_bytes": 48000, "reduction_seconds": 2.4,
     "global_reduction_seconds": 4.5, "note": "first \/ \"one\""},
    {"note": {"n": [1]}, "dataset_bytes": 2.8E+9, "storage_nodes": 2, "compute_nodes": 8,
     "bandwidth_bytes_per_second": 12.5e6, "disk_seconds": 28, "network_seconds": 112,
     "compute_seconds": 300, "reduction_object_bytes": 48000, "reduction_seconds": 2.4,
     "global_reduction_seconds": -0}
  ],
  "fit": {"residual_seconds": [0.5, -1e-3], "runs_used": 2}
})";

TEST_CASE("the documents perfplan writes are read in one pass, to the value yaml-cpp reads") {
  std::vector<std::pair<std::string, std::string>> documents = {
      {"writer, 1 run", WriteProfileYaml(GeneratedProfile(1), "osu", "a \"quoted\" text",
                                         {"written by a test", "second comment"})},
      {"writer, 50 runs", WriteProfileYaml(GeneratedProfile(50), "", "", {})},
      {"JSON, pretty", kPlainJson},
  };
  std::string compact = kPlainJson;
  std::erase(compact, '\n');
  documents.emplace_back("JSON, one line", compact);
  for (const char* name : {"kmeans", "em", "knn", "vortex"}) {
    documents.emplace_back(name, testing::ReadFile(testing::SourceDir() + "/examples/profiles/" +
                                                   name + ".yaml"));
  }
  for (const auto& [name, text] : documents) {
    CAPTURE(name);
    Loaded<ProfileDocument> fast = ParseProfile(text, "p.yaml");
    Loaded<ProfileDocument> slow = ParseWithYamlCpp(text);
    REQUIRE(fast.ok());
    REQUIRE(slow.ok());
    CHECK(fast.value.read_in_one_pass);
    CHECK_FALSE(slow.value.read_in_one_pass);
    CHECK(SameDocument(fast.value, slow.value));
  }
}

TEST_CASE("other YAML, and every document with a problem, is read by yaml-cpp") {
  const std::string writer = WriteProfileYaml(GeneratedProfile(3), "", "", {});
  std::string crlf;
  for (char c : writer) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  std::string unknown = writer;
  unknown.replace(unknown.find("compute_nodes"), 13, "compute_nodez");
  struct Case {
    const char* name;
    std::string text;
  };
  const Case cases[] = {
      {"flow runs", kValidYaml},
      {"CRLF", crlf},
      {"tab", "schema_version:\t1\n" + writer.substr(writer.find('\n') + 1)},
      {"anchor", "schema_version: &v 1\n" + writer.substr(writer.find('\n') + 1)},
      {"unknown key", unknown},
      {"repeated key", "schema_version: 1\n" + writer},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    CHECK_FALSE(ParseProfile(c.text, "p.yaml").value.read_in_one_pass);
  }
  CHECK(ProblemLines(ParseProfile(unknown, "p.yaml")) ==
        std::vector<std::string>{
            "p.yaml:13: runs[0].compute_nodez: unknown key; did you mean \"compute_nodes\"?",
            "p.yaml:11: runs[0].compute_nodes: missing"});
}

// Random edits of plain documents (characters YAML and JSON give meaning to, inserted, replaced,
// deleted; lines doubled): whenever the one-pass reader accepts an edit, yaml-cpp reads the same
// edit without a problem and to the same value. Fails if the subset is wider than it knows.
TEST_CASE("an edited document the one-pass reader accepts is one yaml-cpp reads the same") {
  const std::string seeds[] = {WriteProfileYaml(GeneratedProfile(3), "osu", "d", {"c"}),
                               kPlainJson,
                               testing::ReadFile(testing::SourceDir() +
                                                 "/examples/profiles/kmeans.yaml")};
  const std::string alphabet = " :#-\"\\{}[],.\n0123456789eE+-_aflnrstu~'&*!|>?%@";
  const char* snippets[] = {" ", "  # c", "\n# c\n", "\n\n", "\"", "0", "e+1", ".5", "-",
                            ": ", "~", "null", "\\n", "\\\"", "  ", "\n  "};
  std::mt19937_64 rng(16);
  int accepted = 0, read_by_yaml_cpp = 0;
  for (const std::string& seed : seeds) {
    for (int k = 0; k < 3000; ++k) {
      std::string text = seed;
      const int edits = 1 + static_cast<int>(rng() % 3);
      for (int e = 0; e < edits; ++e) {
        const std::size_t at = rng() % text.size();
        const char c = alphabet[rng() % alphabet.size()];
        switch (rng() % 5) {
          case 0: text.insert(at, 1, c); break;
          case 4: text.insert(at, snippets[rng() % std::size(snippets)]); break;
          case 1: text[at] = c; break;
          case 2: text.erase(at, 1 + rng() % 3); break;
          default: {
            const std::size_t start = text.rfind('\n', at) + 1;
            const std::size_t end = text.find('\n', at);
            if (end != std::string::npos) text.insert(start, text.substr(start, end - start + 1));
          }
        }
        if (text.empty()) text = "x";
      }
      CAPTURE(text);
      Loaded<ProfileDocument> fast = ParseProfile(text, "p.yaml");
      if (!fast.value.read_in_one_pass) {
        ++read_by_yaml_cpp;
        continue;
      }
      ++accepted;
      Loaded<ProfileDocument> slow = ParseWithYamlCpp(text);
      REQUIRE(slow.ok());
      CHECK(SameDocument(fast.value, slow.value));
    }
  }
  // Both paths are exercised: many edits (numbers, spaces, comments) stay plain and valid.
  MESSAGE("accepted ", accepted, ", read by yaml-cpp ", read_by_yaml_cpp);
  CHECK(accepted > 400);
  CHECK(read_by_yaml_cpp > 4000);
}

}  // namespace
}  // namespace perfplan::profiles
