#include "profiles/runtime/profile_writer.h"

#include <doctest/doctest.h>

#include "profiles/runtime/profile_reader.h"

namespace perfplan::profiles {
namespace {

TEST_CASE("a written profile reads back with the same numbers and explicit classes") {
  models::RuntimeProfile p;
  p.application = "lr \"spark\"";
  p.reduction_object_class = models::ReductionObjectClass::kLinear;
  p.reduction_object_scaling = models::ReductionObjectScaling::kComputeNodes;
  p.global_reduction_class = models::GlobalReductionClass::kConstantLinear;
  p.retrieval_scales_with_storage_nodes = false;
  p.reduction_communication = models::ReductionCommunication{0.1 / 3, 2.0 / 7};
  models::ProfileRun run;
  run.dataset_bytes = 48060212000;
  run.storage_nodes = 8;
  run.compute_nodes = 8;
  run.bandwidth_bytes_per_second = 156250000;
  run.disk_seconds = 1.0 / 3;
  run.network_seconds = 0;
  run.reduction_object_bytes = 1;
  run.reduction_seconds = 0.1 / 3 + 2.0 / 7;
  run.global_reduction_seconds = 12.5;
  run.compute_seconds = 1000.0 / 7 + run.reduction_seconds + run.global_reduction_seconds;
  p.runs.push_back(run);

  const std::string text = WriteProfileYaml(p, "r4.xlarge", "", {"fitted", "by a test"});
  CHECK(text.rfind("# fitted\n# by a test\nschema_version: 1\n", 0) == 0);
  Loaded<ProfileDocument> back = ParseProfile(text, "p.yaml");
  REQUIRE(back.ok());
  const models::RuntimeProfile& q = back.value.profile;
  CHECK(q.application == p.application);
  CHECK(back.value.profiled_site == "r4.xlarge");
  CHECK(*q.reduction_object_class == models::ReductionObjectClass::kLinear);
  CHECK(q.reduction_object_scaling == models::ReductionObjectScaling::kComputeNodes);
  CHECK(*q.global_reduction_class == models::GlobalReductionClass::kConstantLinear);
  CHECK(!q.retrieval_scales_with_storage_nodes);
  CHECK(q.reduction_communication->seconds_per_byte == p.reduction_communication->seconds_per_byte);
  CHECK(q.reduction_communication->fixed_seconds == p.reduction_communication->fixed_seconds);
  REQUIRE(q.runs.size() == 1);
  CHECK(q.runs[0].disk_seconds == run.disk_seconds);
  CHECK(q.runs[0].compute_seconds == run.compute_seconds);
  CHECK(q.runs[0].dataset_bytes == run.dataset_bytes);
}

}  // namespace
}  // namespace perfplan::profiles
