#include "planner/tuning/tune_json.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "models/json_text.h"

namespace perfplan::planner {
namespace {

using json = nlohmann::ordered_json;

std::string Dump(const json& j) { return JsonLine(j); }

json Number(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

json Params(tuning::ModelKind kind, const tuning::HyperParams& p) {
  using tuning::ModelKind;
  switch (kind) {
    case ModelKind::kEpsSvrRbf:
      return {{"c", p.c}, {"gamma", p.gamma}, {"epsilon", p.epsilon}};
    case ModelKind::kEpsSvrLinear:
      return {{"c", p.c}, {"epsilon", p.epsilon}};
    case ModelKind::kEpsSvrPoly:
      return {{"c", p.c},
              {"gamma", p.gamma},
              {"epsilon", p.epsilon},
              {"degree", p.degree},
              {"coef0", p.coef0}};
    case ModelKind::kNuSvrRbf:
      return {{"c", p.c}, {"gamma", p.gamma}, {"nu", p.nu}};
    case ModelKind::kRidge:
    case ModelKind::kPolyRidge:
      return {{"lambda", p.lambda}};
    case ModelKind::kGaussianProcess:
      return {{"max_runs", tuning::kGpMaxRuns}};
    case ModelKind::kMean:
      return json::object();
  }
  return json::object();
}

json CvJson(const TuneCvAnswer& a) {
  const tuning::Selection& s = a.selection;
  json models = json::array();
  for (const auto& k : s.kinds) {
    models.push_back({{"kind", std::string(tuning::ToString(k.kind))},
                      {"mre", Number(k.mre)},
                      {"mre_runs", k.mre_runs},
                      {"params", Params(k.kind, k.params)},
                      {"evaluated", k.evaluated},
                      {"candidates", k.candidates},
                      {"fits", k.fits},
                      {"rung_runs", k.rung_runs}});
  }
  return {{"source", a.source},
          {"target", s.target},
          {"runs", a.runs},
          {"parameters", a.parameters},
          {"folds", s.folds},
          {"seed", s.seed},
          {"search", std::string(tuning::ToString(s.strategy))},
          {"models", models},
          {"chosen",
           {{"kind", std::string(tuning::ToString(s.chosen))}, {"mre", Number(s.chosen_mre)}}},
          {"mean_mre", s.mean_mre >= 0 ? Number(s.mean_mre) : json(nullptr)},
          {"budget_exhausted", s.budget_exhausted},
          {"warnings", a.warnings}};
}

json ModelJson(tuning::ModelKind kind, double cv_mre) {
  return {{"kind", std::string(tuning::ToString(kind))},
          {"cv_mre", cv_mre >= 0 ? Number(cv_mre) : json(nullptr)}};
}

}  // namespace

std::string ToJson(const TuneCvAnswer& a) { return Dump(CvJson(a)); }

std::string ToJson(const TuneTrainAnswer& a) {
  json j = CvJson(a.cv);
  j["model_file"] = a.model_file;
  j["support_vectors"] = a.support_vectors;
  return Dump(j);
}

std::string ToJson(const tuning::Sensitivity& s) {
  json params = json::array();
  for (const auto& p : s.parameters) {
    params.push_back({{"name", p.name},
                      {"eta", Number(p.eta)},
                      {"direction", p.direction},
                      {"rank", p.rank},
                      {"value", Number(p.value)},
                      {"unit", std::string(tuning::ToString(p.unit))},
                      {"step", Number(p.step)},
                      {"scaled", Number(p.scaled)}});
  }
  return Dump({{"target", s.target},
               {"model", ModelJson(s.kind, s.cv_mre)},
               {"predicted", Number(s.predicted)},
               {"parameters", params},
               {"warnings", s.warnings}});
}

std::string ToJson(const tuning::Recommendation& r) {
  json config = json::object();
  json text = json::object();
  json baseline = json::object();
  json properties = json::array();
  for (const auto& v : r.config) {
    config[v.parameter] = Number(v.value);
    text[v.parameter] = v.text;
    baseline[v.parameter] = v.baseline_text;
    properties.push_back({{"column", v.parameter},
                          {"property", v.property},
                          {"file", std::string(tuning::ToString(v.file))},
                          {"type", std::string(tuning::ToString(v.type))},
                          {"value", v.text},
                          {"baseline", v.baseline_text}});
  }
  json failure = nullptr;
  if (r.failure_aware) {
    failure = {{"failed_runs", r.failed_runs},
               {"max_probability", Number(r.max_failure_probability)},
               {"probability", Number(r.failure_probability)},
               {"baseline_probability", Number(r.baseline_failure_probability)},
               {"rejected_candidates", r.failure_rejected},
               {"bound_rejected", r.bound_rejected},
               {"bounds", r.failure_bounds},
               {"binding_bounds", r.binding_bounds},
               {"cv_accuracy", Number(r.failure_cv_accuracy)},
               {"cv_log_loss", Number(r.failure_cv_log_loss)},
               {"majority_accuracy", Number(r.failure_majority_accuracy)},
               {"features", r.failure_features},
               {"units", r.failure_units},
               {"lambda", Number(r.failure_lambda)}};
  }
  return Dump({{"target", r.target},
               {"config", config},
               {"config_text", text},
               {"baseline_config_text", baseline},
               {"predicted", Number(r.predicted)},
               {"predicted_interval", {Number(r.interval_low), Number(r.interval_high)}},
               {"beyond_measured", r.beyond_measured},
               {"baseline_predicted", Number(r.baseline_predicted)},
               {"predicted_gain", Number(r.predicted_gain)},
               {"cv_mre", r.cv_mre >= 0 ? Number(r.cv_mre) : json(nullptr)},
               {"model", ModelJson(r.kind, r.cv_mre)},
               {"spark_defaults", r.spark_defaults},
               {"mapred_site_xml", r.mapred_site_xml},
               {"yarn_site_xml", r.yarn_site_xml},
               {"properties", properties},
               {"failure", failure},
               {"evaluated", r.evaluated},
               {"feasible", r.feasible},
               {"seed", r.seed},
               {"warnings", r.warnings}});
}

std::string ToJson(const TuneClassifyAnswer& a) {
  json classes = json::array();
  for (const auto& c : a.report.classes) {
    classes.push_back({{"class", c.label},
                       {"label", c.label == 0 ? "score >= threshold" : "score < threshold"},
                       {"precision", c.precision},
                       {"recall", c.recall},
                       {"f1", c.f1},
                       {"support", c.support},
                       {"predicted", c.predicted}});
  }
  return Dump({{"target", a.cv.selection.target},
               {"threshold", a.report.threshold},
               {"runs", a.report.runs},
               {"model", ModelJson(a.cv.selection.chosen, a.cv.selection.chosen_mre)},
               {"classes", classes},
               {"accuracy", a.report.accuracy},
               {"warnings", a.cv.warnings}});
}

std::string ToJson(const TunePredictAnswer& a) {
  json preds = json::array();
  for (const auto& p : a.predictions) {
    json row = {{"line", p.line}, {"predicted", Number(p.predicted)}};
    if (p.has_measured) row["measured"] = Number(p.measured);
    preds.push_back(row);
  }
  return Dump({{"model_file", a.model_file}, {"target", a.target}, {"predictions", preds}});
}

std::string ToJson(const TuneNextAnswer& a) {
  json proposals = json::array();
  for (const auto& p : a.proposals) {
    json config = json::object();
    json properties = json::array();
    for (const auto& v : p.config) {
      config[v.parameter] = v.text;
      properties.push_back({{"column", v.parameter},
                            {"property", v.property},
                            {"file", std::string(tuning::ToString(v.file))},
                            {"type", std::string(tuning::ToString(v.type))},
                            {"value", v.text}});
    }
    proposals.push_back({{"config", config},
                         {"properties", properties},
                         {"expected_improvement", Number(p.expected_improvement)},
                         {"predicted", Number(p.predicted)},
                         {"predicted_sd", Number(p.predicted_sd)}});
  }
  return Dump({{"source", a.source},
               {"target", a.target},
               {"runs", a.runs},
               {"model", {{"kind", "gaussian-process"},
                          {"length_scale", Number(a.length_scale)},
                          {"noise", Number(a.noise)},
                          {"log_target", a.log_target}}},
               {"candidates", a.candidates},
               {"failure_rejected", a.failure_rejected},
               {"seed", a.seed},
               {"proposals", proposals},
               {"warnings", a.warnings}});
}

}  // namespace perfplan::planner
