#include "planner/tuning/tune.h"

#include <algorithm>
#include <string_view>

#include "profiles/problem.h"
#include "profiles/tuning/run_table_reader.h"
#include "profiles/spark/spark_run_table.h"
#include "profiles/spark/spark_store.h"
#include "profiles/store.h"
#include "tuning/model.h"

namespace perfplan::planner {
namespace {

Result<models::RunTable> ReadTable(const std::string& path) {
  profiles::Loaded<models::RunTable> t = profiles::ReadRunTable(path);
  if (!t.ok()) return profiles::ToStatus(t.problems);
  return std::move(t.value);
}

// "unknown NAME" errors get a "did you mean" from the names that exist.
Status CheckName(const std::string& what, const std::string& name,
                 const std::vector<std::string>& known, const std::string& where) {
  if (std::find(known.begin(), known.end(), name) != known.end()) return Status::Ok();
  std::vector<std::string_view> views(known.begin(), known.end());
  const std::string suggestion = profiles::SuggestClosest(name, views);
  std::string list;
  for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
  return Status::InvalidArgument(
      where + what + " \"" + name + "\" not found" +
      (suggestion.empty() ? "" : "; did you mean \"" + suggestion + "\"?") +
      (suggestion.empty() ? "; known: " : " Known: ") + list);
}

// One run per Spark application of the store; the metric columns other than the target are
// never parameters.
Result<tuning::Dataset> LoadStoreDataset(const TuneDataRequest& data) {
  auto store = profiles::Store::OpenReadOnly(data.store_path, {profiles::spark::StoreMigrations()});
  if (!store.ok()) return Status::InvalidArgument(store.status().message());
  profiles::spark::RunTableSelection selection;
  selection.app_ids = data.store_apps;
  selection.name_contains = data.store_app_name;
  auto table = profiles::spark::ReadStoreRunTable(*store.value(), selection);
  if (!table.ok()) return table.status();
  const models::RunTable& t = table.value().table;
  std::vector<std::string> columns;
  for (const auto& c : t.columns) columns.push_back(c.name);
  if (!data.dataset.target.empty()) {
    Status s = CheckName("target column", data.dataset.target, columns, t.source + ": ");
    if (!s.ok()) return s;
  }
  tuning::DatasetOptions settings = data.dataset;
  for (const auto& m : profiles::spark::MetricColumns()) {
    if (m != settings.target) settings.ignore.push_back(m);
  }
  Result<tuning::Dataset> ds = tuning::BuildDataset(t, settings);
  if (!ds.ok()) return ds.status();
  std::vector<std::string> warnings = table.value().notes;
  warnings.insert(warnings.end(), ds.value().warnings.begin(), ds.value().warnings.end());
  ds.value().warnings = std::move(warnings);
  return ds;
}

Result<tuning::Dataset> LoadDataset(const TuneDataRequest& data) {
  if (!data.data_file.empty() && !data.store_path.empty()) {
    return Status::InvalidArgument("give either --data FILE or --store DB, not both");
  }
  if (!data.store_path.empty()) return LoadStoreDataset(data);
  if (data.data_file.empty()) {
    return Status::InvalidArgument("no runs given: use --data FILE or --store DB");
  }
  Result<models::RunTable> table = ReadTable(data.data_file);
  if (!table.ok()) return table.status();
  std::vector<std::string> columns;
  for (const auto& c : table.value().columns) columns.push_back(c.name);
  if (!data.dataset.target.empty()) {
    Status s = CheckName("target column", data.dataset.target, columns, data.data_file + ": ");
    if (!s.ok()) return s;
  }
  return tuning::BuildDataset(table.value(), data.dataset);
}

Result<TuneCvAnswer> CvOn(const tuning::Dataset& ds, const tuning::SearchOptions& search) {
  Result<tuning::Selection> sel = tuning::SelectModel(ds, search);
  if (!sel.ok()) return sel.status();
  TuneCvAnswer a;
  a.source = ds.source;
  a.runs = ds.runs();
  a.parameters = ds.features.size();
  a.selection = std::move(sel).value();
  a.warnings = ds.warnings;
  a.warnings.insert(a.warnings.end(), a.selection.warnings.begin(), a.selection.warnings.end());
  return a;
}

Result<tuning::Model> ModelFrom(const TuneModelSource& source) {
  if (!source.model_file.empty()) return tuning::Model::Load(source.model_file);
  Result<tuning::Dataset> ds = LoadDataset(source.data);
  if (!ds.ok()) return ds.status();
  Result<tuning::Selection> sel = tuning::SelectModel(ds.value(), source.search);
  if (!sel.ok()) return sel.status();
  return tuning::TrainSelected(ds.value(), sel.value(), source.search.solver);
}

}  // namespace

Result<TuneCvAnswer> AnswerTuneCv(const TuneDataRequest& data,
                                  const tuning::SearchOptions& search) {
  Result<tuning::Dataset> ds = LoadDataset(data);
  if (!ds.ok()) return ds.status();
  return CvOn(ds.value(), search);
}

Result<TuneTrainAnswer> AnswerTuneTrain(const TuneDataRequest& data,
                                        const tuning::SearchOptions& search,
                                        const std::string& out_file) {
  if (out_file.empty()) return Status::InvalidArgument("--out: no model file given");
  Result<tuning::Dataset> ds = LoadDataset(data);
  if (!ds.ok()) return ds.status();
  Result<TuneCvAnswer> cv = CvOn(ds.value(), search);
  if (!cv.ok()) return cv.status();
  Result<tuning::Model> model =
      tuning::TrainSelected(ds.value(), cv.value().selection, search.solver);
  if (!model.ok()) return model.status();
  if (Status s = model.value().Save(out_file); !s.ok()) return s;
  TuneTrainAnswer a;
  a.cv = std::move(cv).value();
  a.model_file = out_file;
  a.support_vectors = model.value().support_vectors();
  return a;
}

Result<tuning::Sensitivity> AnswerTuneSensitivity(
    const TuneModelSource& source, const std::vector<std::pair<std::string, std::string>>& at,
    tuning::SensitivityOptions settings) {
  Result<tuning::Model> model = ModelFrom(source);
  if (!model.ok()) return model.status();
  if (!at.empty()) {
    std::vector<std::string> parameters;
    for (const auto& f : model.value().features()) {
      if (parameters.empty() || parameters.back() != f.parameter) parameters.push_back(f.parameter);
    }
    for (const auto& [name, value] : at) {
      Status s = CheckName("parameter", name, parameters, "--at: ");
      if (!s.ok()) return s;
    }
    Result<std::vector<double>> x = tuning::ResolveConfiguration(model.value(), at);
    if (!x.ok()) return x.status();
    settings.at = std::move(x).value();
  }
  return tuning::ComputeSensitivity(model.value(), settings);
}

Result<tuning::Recommendation> AnswerTuneRecommend(const TuneModelSource& source,
                                                   const tuning::RecommendOptions& settings) {
  Result<tuning::Model> model = ModelFrom(source);
  if (!model.ok()) return model.status();
  return tuning::Recommend(model.value(), settings);
}

Result<TuneClassifyAnswer> AnswerTuneClassify(const TuneDataRequest& data,
                                              const tuning::SearchOptions& search,
                                              double threshold) {
  Result<tuning::Dataset> ds = LoadDataset(data);
  if (!ds.ok()) return ds.status();
  Result<TuneCvAnswer> cv = CvOn(ds.value(), search);
  if (!cv.ok()) return cv.status();
  const tuning::Selection& sel = cv.value().selection;
  tuning::HyperParams params;
  for (const auto& k : sel.kinds) {
    if (k.kind == sel.chosen) params = k.params;
  }
  Result<tuning::CvResult> oof =
      tuning::CrossValidate(ds.value(), sel.chosen, params, search.cv, search.solver);
  if (!oof.ok()) return oof.status();
  Result<tuning::ClassificationReport> report =
      tuning::ClassifyScores(ds.value().y, oof.value().predictions, threshold);
  if (!report.ok()) return report.status();
  TuneClassifyAnswer a;
  a.cv = std::move(cv).value();
  a.report = std::move(report).value();
  return a;
}

Result<TunePredictAnswer> AnswerTunePredict(const std::string& model_file,
                                            const std::string& data_file) {
  Result<tuning::Model> model = tuning::Model::Load(model_file);
  if (!model.ok()) return model.status();
  Result<models::RunTable> table = ReadTable(data_file);
  if (!table.ok()) return table.status();
  const models::RunTable& t = table.value();
  std::vector<int> column_of_parameter;
  std::vector<std::string> parameters;
  for (const auto& f : model.value().features()) {
    if (!parameters.empty() && parameters.back() == f.parameter) continue;
    parameters.push_back(f.parameter);
  }
  int target_col = -1;
  for (std::size_t c = 0; c < t.columns.size(); ++c) {
    if (t.columns[c].name == model.value().target()) target_col = static_cast<int>(c);
  }
  for (const auto& p : parameters) {
    int col = -1;
    for (std::size_t c = 0; c < t.columns.size(); ++c) {
      if (t.columns[c].name == p) col = static_cast<int>(c);
    }
    if (col < 0) {
      return Status::InvalidArgument(data_file + ": the model's parameter \"" + p +
                                     "\" is not a column");
    }
    column_of_parameter.push_back(col);
  }
  TunePredictAnswer a;
  a.model_file = model_file;
  a.target = model.value().target();
  for (const auto& row : t.rows) {
    std::vector<std::pair<std::string, std::string>> cfg;
    for (std::size_t i = 0; i < parameters.size(); ++i) {
      cfg.emplace_back(parameters[i], row.cells[column_of_parameter[i]]);
    }
    Result<std::vector<double>> x = tuning::ResolveConfiguration(model.value(), cfg);
    if (!x.ok()) {
      return Status::InvalidArgument(data_file + ":" + std::to_string(row.line) + ": " +
                                     x.status().message());
    }
    TunePrediction p;
    p.line = row.line;
    p.predicted = model.value().Predict(x.value());
    if (target_col >= 0) {
      Result<tuning::Quantity> q =
          tuning::ParseSparkQuantity(row.cells[target_col], tuning::UnitHint::kAuto);
      if (q.ok()) {
        p.has_measured = true;
        p.measured = q.value().value;
      }
    }
    a.predictions.push_back(p);
  }
  return a;
}

}  // namespace perfplan::planner
