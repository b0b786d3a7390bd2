#include "planner/runtime/runtime.h"

namespace perfplan::planner {
namespace {

Result<models::ResolvedModel> Resolve(const profiles::ProfileDocument& doc,
                                      models::ModelVariant variant) {
  models::ResolveOptions options;
  options.variant = variant;
  Result<models::ResolvedModel> model = models::ResolveModel(doc.profile, options);
  if (!model.ok()) return Status::InvalidArgument(doc.file + ": " + model.status().message());
  return model;
}

}  // namespace

Result<PredictAnswer> AnswerPredict(const PredictRequest& request) {
  if (request.cluster_file.empty() != request.site.empty()) {
    return Status::InvalidArgument(
        "--cluster and --site go together: give both to apply heterogeneity factors, or neither");
  }
  profiles::Loaded<profiles::ProfileDocument> doc = profiles::LoadProfile(request.profile_file);
  if (!doc.ok()) return profiles::ToStatus(doc.problems);
  if (request.cluster_file.empty()) return AnswerPredict(doc.value, nullptr, request);
  profiles::Loaded<profiles::Topology> cluster = profiles::LoadTopology(request.cluster_file);
  if (!cluster.ok()) return profiles::ToStatus(cluster.problems);
  return AnswerPredict(doc.value, &cluster.value, request);
}

Result<PredictAnswer> AnswerPredict(const profiles::ProfileDocument& profile,
                                    const profiles::Topology* cluster,
                                    const PredictRequest& request) {
  PredictAnswer answer;
  answer.profile_file = profile.file;
  answer.profiled_site = profile.profiled_site;
  models::Target& target = answer.target;
  target.dataset_bytes = request.dataset_bytes;
  target.storage_nodes = request.storage_nodes;
  target.compute_nodes = request.compute_nodes;
  target.bandwidth_bytes_per_second = request.bandwidth_bytes_per_second;
  if (!request.site.empty()) {
    if (cluster == nullptr) {
      return Status::InvalidArgument("site \"" + request.site +
                                     "\": no cluster topology to read its hardware from");
    }
    Result<models::ScalingFactors> scaling =
        profiles::SiteScaling(*cluster, profile.profiled_site, request.site);
    if (!scaling.ok()) {
      return Status::InvalidArgument(cluster->file + ": " + scaling.status().message());
    }
    target.scaling = scaling.value();
    answer.site = request.site;
  }
  if (Status s = models::ValidateTarget(target); !s.ok()) return s;

  Result<models::ResolvedModel> model = Resolve(profile, request.variant);
  if (!model.ok()) return model.status();
  answer.model = std::move(model).value();
  answer.prediction = models::Predict(answer.model, target);
  return answer;
}

Result<SelectAnswer> AnswerSelect(const SelectRequest& request) {
  profiles::Loaded<profiles::ProfileDocument> doc = profiles::LoadProfile(request.profile_file);
  profiles::Loaded<profiles::Topology> topology = profiles::LoadTopology(request.topology_file);
  if (!doc.ok() || !topology.ok()) {
    std::vector<profiles::Problem> all = doc.problems;
    all.insert(all.end(), topology.problems.begin(), topology.problems.end());
    return profiles::ToStatus(all);
  }
  return AnswerSelect(doc.value, topology.value, request);
}

Result<SelectAnswer> AnswerSelect(const profiles::ProfileDocument& profile,
                                  const profiles::Topology& topology,
                                  const SelectRequest& request) {
  SelectAnswer answer;
  answer.profile_file = profile.file;
  answer.topology_file = topology.file;
  Result<models::ResolvedModel> model = Resolve(profile, request.variant);
  if (!model.ok()) return model.status();
  answer.model = std::move(model).value();

  SelectOptions options = request.options;
  if (options.profiled_site.empty()) options.profiled_site = profile.profiled_site;
  Result<Selection> selection = Select(answer.model, topology, options);
  if (!selection.ok()) return selection.status();
  answer.selection = std::move(selection).value();
  return answer;
}

std::size_t ValidateAnswer::ProblemCount() const {
  std::size_t n = 0;
  for (const profiles::FileValidation& f : files) n += f.problems.size();
  return n;
}

ValidateAnswer AnswerValidate(const std::vector<std::string>& files) {
  ValidateAnswer answer;
  for (const std::string& f : files) answer.files.push_back(profiles::ValidateFile(f));
  return answer;
}

}  // namespace perfplan::planner
