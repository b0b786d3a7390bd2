// The profile reader (profiles/runtime/profile_reader.h) in pieces its two paths share:
// - ParseProfileNode reads a document yaml-cpp has already parsed: `validate` parses a file once
//   to tell a profile from a topology and reads the profile from that tree (half the time and
//   half the memory of parsing twice). Same problems and value as ParseProfile on the text.
// - the key lists and the table of run fields, also read by the plain fast path
//   (plain_profile.h), so both paths accept the same keys and check each field the same way.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "models/runtime_model.h"
#include "profiles/problem.h"
#include "profiles/runtime/profile_reader.h"

namespace perfplan::profiles::detail {

Loaded<ProfileDocument> ParseProfileNode(const YAML::Node& root, const std::string& file);

inline const std::vector<std::string_view> kProfileTopKeys = {
    "schema_version", "application", "description", "profiled_site", "reduction_object_class",
    "reduction_object_scaling", "global_reduction_class", "retrieval_scales_with_storage_nodes",
    "reduction_communication", "runs",
    // written by `perfplan fit --json` (residuals, runs used); informational, not read
    "fit"};
inline const std::vector<std::string_view> kReductionCommunicationKeys = {"seconds_per_byte",
                                                                          "fixed_seconds"};
inline const std::vector<std::string_view> kObjectClassChoices = {"constant", "linear", "auto"};
inline const std::vector<std::string_view> kObjectScalingChoices = {"dataset", "compute-nodes"};
inline const std::vector<std::string_view> kGlobalClassChoices = {"linear-constant",
                                                                  "constant-linear", "auto"};

// One field of a profile run: its key, how it is checked and where its value goes.
struct RunField {
  enum class Check { kPositive, kNonNegative, kNodeCount };
  std::string_view key;
  Check check;
  bool required;
  double models::ProfileRun::*member;
};
// In the order problems are reported. A run may also hold "note" (free text, not read).
inline constexpr RunField kRunFields[] = {
    {"dataset_bytes", RunField::Check::kPositive, true, &models::ProfileRun::dataset_bytes},
    {"storage_nodes", RunField::Check::kNodeCount, true, &models::ProfileRun::storage_nodes},
    {"compute_nodes", RunField::Check::kNodeCount, true, &models::ProfileRun::compute_nodes},
    {"bandwidth_bytes_per_second", RunField::Check::kPositive, true,
     &models::ProfileRun::bandwidth_bytes_per_second},
    {"disk_seconds", RunField::Check::kNonNegative, true, &models::ProfileRun::disk_seconds},
    {"network_seconds", RunField::Check::kNonNegative, true, &models::ProfileRun::network_seconds},
    {"compute_seconds", RunField::Check::kNonNegative, true, &models::ProfileRun::compute_seconds},
    {"reduction_object_bytes", RunField::Check::kNonNegative, false,
     &models::ProfileRun::reduction_object_bytes},
    {"reduction_seconds", RunField::Check::kNonNegative, false,
     &models::ProfileRun::reduction_seconds},
    {"global_reduction_seconds", RunField::Check::kNonNegative, false,
     &models::ProfileRun::global_reduction_seconds},
};
inline constexpr std::string_view kRunNoteKey = "note";

// Every key a run may hold (kRunFields, then "note"), for unknown-key suggestions.
const std::vector<std::string_view>& RunKeys();

// Checks one run field's scalar text as the YAML reader does; the value, or nullopt with the
// message in *problem.
std::optional<double> CheckRunField(const RunField& field, const std::string& text, bool quoted,
                                    std::string* problem);

}  // namespace perfplan::profiles::detail
