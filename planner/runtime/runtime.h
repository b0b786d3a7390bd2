// The runtime questions of the query facade: predict, select and validate (DESIGN §3.1, §3.3).
//
// Each function loads and validates its input files, calls the models, and returns a plain answer
// struct (or a Status whose message lists every problem, one per line, as "file:line: field:
// message"). InvalidArgument/NotFound mean bad input (exit 2), Failed means the question has no
// answer (exit 1). No globals; safe to call concurrently.
#pragma once

#include <string>
#include <vector>

#include "models/runtime_model.h"
#include "models/status.h"
#include "planner/runtime/selection.h"
#include "profiles/runtime/profile_reader.h"
#include "profiles/runtime/topology.h"
#include "profiles/runtime/validate.h"

namespace perfplan::planner {

struct PredictRequest {
  std::string profile_file;
  double dataset_bytes = 0;
  double storage_nodes = 0;
  double compute_nodes = 0;
  double bandwidth_bytes_per_second = 0;
  std::string cluster_file;  // heterogeneity: a topology file …
  std::string site;          // … and the target site in it (both or neither)
  models::ModelVariant variant = models::ModelVariant::kAuto;
};

struct PredictAnswer {
  std::string profile_file;
  std::string profiled_site;
  std::string site;  // target site, when heterogeneity factors were applied
  models::ResolvedModel model;
  models::Target target;
  models::Prediction prediction;
};

// Loads request.profile_file (and request.cluster_file) and answers.
Result<PredictAnswer> AnswerPredict(const PredictRequest& request);
// Answers over an already-loaded profile; `cluster` (may be null) supplies the heterogeneity
// factors of request.site. The request's file fields are ignored.
Result<PredictAnswer> AnswerPredict(const profiles::ProfileDocument& profile,
                                    const profiles::Topology* cluster,
                                    const PredictRequest& request);

struct SelectRequest {
  std::string profile_file;
  std::string topology_file;
  SelectOptions options;  // options.profiled_site defaults to the profile's profiled_site
  models::ModelVariant variant = models::ModelVariant::kAuto;
};

struct SelectAnswer {
  std::string profile_file;
  std::string topology_file;
  models::ResolvedModel model;
  Selection selection;
};

// Loads request.profile_file and request.topology_file and answers.
Result<SelectAnswer> AnswerSelect(const SelectRequest& request);
// Answers over already-loaded documents. The request's file fields are ignored.
Result<SelectAnswer> AnswerSelect(const profiles::ProfileDocument& profile,
                                  const profiles::Topology& topology, const SelectRequest& request);

struct ValidateAnswer {
  std::vector<profiles::FileValidation> files;
  std::size_t ProblemCount() const;
};

ValidateAnswer AnswerValidate(const std::vector<std::string>& files);

}  // namespace perfplan::planner
