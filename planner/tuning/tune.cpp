#include "planner/tuning/tune.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string_view>

#include "models/task_vectors.h"
#include "models/text.h"
#include "planner/mapreduce/mapreduce_runs.h"
#include "planner/scoring/spark_scoring.h"
#include "profiles/mapreduce/mapreduce_run_table.h"
#include "profiles/mapreduce/mapreduce_store.h"
#include "profiles/problem.h"
#include "profiles/tuning/ranges_reader.h"
#include "profiles/tuning/run_table_reader.h"
#include "profiles/spark/spark_run_table.h"
#include "profiles/spark/spark_store.h"
#include "profiles/store.h"
#include "tuning/failure.h"
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
  auto store = profiles::Store::OpenReadOnly(data.store_path, RunStoreMigrations());
  if (!store.ok()) return Status::InvalidArgument(store.status().message());
  profiles::spark::RunTableSelection selection;
  selection.app_ids = data.store_apps;
  selection.name_contains = data.store_app_name;
  // The store's MapReduce jobs are its runs when it has no Spark application or --apps names
  // jobs (planner/mapreduce/mapreduce_runs.h).
  Result<bool> jobs = StoreRunsAreJobs(*store.value(), selection);
  if (!jobs.ok()) return jobs.status();
  auto table = jobs.value() ? profiles::mapreduce::ReadJobRunTable(*store.value(), selection)
                            : profiles::spark::ReadStoreRunTable(*store.value(), selection);
  if (!table.ok()) return table.status();
  const std::vector<std::string>& metrics = jobs.value()
                                                ? profiles::mapreduce::JobMetricColumns()
                                                : profiles::spark::MetricColumns();
  const models::RunTable& t = table.value().table;
  std::vector<std::string> columns;
  for (const auto& c : t.columns) columns.push_back(c.name);
  if (!data.dataset.target.empty()) {
    Status s = CheckName("target column", data.dataset.target, columns, t.source + ": ");
    if (!s.ok()) return s;
  }
  // No spark.* property varies: say which were left out and why, and what would help, instead
  // of the data set's generic "no parameter columns left".
  if (t.columns.size() <= metrics.size()) {
    std::string why;
    for (const auto& note : table.value().notes) why += "\n  " + note;
    const bool j = jobs.value();
    return Status::InvalidArgument(
        t.source + ": nothing to tune " + data.dataset.target + " on: no " +
        (j ? "conf.xml" : "spark.*") + " property is set in every one of the " +
        std::to_string(t.rows.size()) + (j ? " job(s)" : " application(s)") +
        " with different values" + why + "\na model needs " + (j ? "runs" : "applications") +
        " of the same job run with different settings of at least one property (e.g. " +
        (j ? "hadoop jar … -D mapreduce.job.reduces=2, =4" : "spark-submit --conf "
                                                            "spark.executor.cores=2, =4") +
        ", ...): at least as many as the cross-validation folds (--folds, 5 by default), better "
        "10 or more; --apps or --app-name selects them");
  }
  tuning::DatasetOptions settings = data.dataset;
  for (const auto& m : metrics) {
    if (m != settings.target) settings.ignore.push_back(m);
  }
  Result<tuning::Dataset> ds = tuning::BuildDataset(t, settings);
  if (!ds.ok()) return ds.status();
  std::vector<std::string> warnings = table.value().notes;
  warnings.insert(warnings.end(), ds.value().warnings.begin(), ds.value().warnings.end());
  ds.value().warnings = std::move(warnings);
  return ds;
}

// x_true = max(x · max, min) for every column the ranges file lists; a value outside [0, 1] is
// not normalised and is reported with its line.
Status Denormalise(const profiles::RangesFile& ranges, models::RunTable* table) {
  std::vector<std::string> columns;
  for (const auto& c : table->columns) columns.push_back(c.name);
  std::vector<std::string> problems;
  for (const profiles::ParameterRange& p : ranges.parameters) {
    const auto it = std::find(columns.begin(), columns.end(), p.name);
    if (it == columns.end()) {
      Status s = CheckName("parameter", p.name, columns,
                           ranges.file + ":" + std::to_string(p.line) + ": ");
      return Status::InvalidArgument("--ranges: " + s.message() + " (in " + table->source + ")");
    }
    const auto c = static_cast<std::size_t>(it - columns.begin());
    for (auto& row : table->rows) {
      std::string& cell = row.cells[c];
      char* end = nullptr;
      const double x = std::strtod(cell.c_str(), &end);
      if (cell.empty() || end != cell.c_str() + cell.size() || !std::isfinite(x) || x < -1e-9 ||
          x > 1 + 1e-9) {
        if (problems.size() < 20) {
          problems.push_back(table->source + ":" + std::to_string(row.line) + ": " + p.name +
                             ": \"" + cell + "\" is not a normalised value (0 to 1); the ranges "
                             "file " + ranges.file + " lists this column");
        }
        continue;
      }
      char buf[40];
      std::snprintf(buf, sizeof buf, "%.17g", std::max(x * p.max, p.min));
      cell = buf;
    }
  }
  if (problems.empty()) return Status::Ok();
  std::string message;
  for (const auto& m : problems) message += (message.empty() ? "" : "\n") + m;
  return Status::InvalidArgument(message);
}

Result<profiles::RangesFile> ReadRanges(const std::string& path) {
  profiles::Loaded<profiles::RangesFile> r = profiles::ReadRangesFile(path);
  if (!r.ok()) return profiles::ToStatus(r.problems);
  return std::move(r.value);
}

// The ranges file's defaults as the model's baseline, when it gives one for every parameter.
Status UseRangeDefaults(const std::string& ranges_file, tuning::Model* model) {
  if (ranges_file.empty()) return Status::Ok();
  Result<profiles::RangesFile> ranges = ReadRanges(ranges_file);
  if (!ranges.ok()) return ranges.status();
  std::vector<std::pair<std::string, std::string>> at;
  for (const auto& f : model->features()) {
    if (!at.empty() && at.back().first == f.parameter) continue;
    const profiles::ParameterRange* found = nullptr;
    for (const auto& p : ranges.value().parameters) {
      if (p.name == f.parameter && p.has_default) found = &p;
    }
    if (found == nullptr || !f.category.empty()) return Status::Ok();
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", found->default_value);
    at.emplace_back(f.parameter, buf);
  }
  Result<std::vector<double>> x = tuning::ResolveConfiguration(*model, at);
  if (!x.ok()) return x.status();
  model->set_baseline(std::move(x).value());
  return Status::Ok();
}

Result<tuning::Dataset> LoadDataset(const TuneDataRequest& data) {
  if (!data.data_file.empty() && !data.store_path.empty()) {
    return Status::InvalidArgument("give either --data FILE or --store DB, not both");
  }
  if (!data.store_path.empty()) {
    if (!data.ranges_file.empty()) {
      return Status::InvalidArgument(
          "--ranges applies to a data file of normalised values, not to --store");
    }
    return LoadStoreDataset(data);
  }
  if (data.data_file.empty()) {
    return Status::InvalidArgument("no runs given: use --data FILE or --store DB");
  }
  Result<models::RunTable> table = ReadTable(data.data_file);
  if (!table.ok()) return table.status();
  if (!data.ranges_file.empty()) {
    Result<profiles::RangesFile> ranges = ReadRanges(data.ranges_file);
    if (!ranges.ok()) return ranges.status();
    if (Status s = Denormalise(ranges.value(), &table.value()); !s.ok()) return s;
  }
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
  Result<tuning::Model> model = tuning::TrainSelected(ds.value(), sel.value(), source.search.solver);
  if (!model.ok()) return model;
  if (Status s = UseRangeDefaults(source.data.ranges_file, &model.value()); !s.ok()) return s;
  return model;
}

// Failure-aware: the runs dropped as failed train a classifier kept with the model (and in its
// saved file), which recommendations steer clear of.
Status AttachFailureModel(const tuning::Dataset& ds, int threads, tuning::Model* model) {
  if (ds.failed_x.empty()) return Status::Ok();
  tuning::FailureOptions options;
  options.threads = threads;
  Result<tuning::FailureModel> fm = tuning::FitFailureModel(ds, options);
  if (!fm.ok()) return fm.status();
  model->set_failure(std::move(fm).value());
  return Status::Ok();
}

// Recommend with the model's own failure model, when it has one.
Result<tuning::Recommendation> RecommendWith(const tuning::Model& model,
                                             const tuning::RecommendOptions& settings) {
  tuning::RecommendOptions with_failures = settings;
  if (with_failures.failure == nullptr) with_failures.failure = model.failure();
  return tuning::Recommend(model, with_failures);
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
  if (Status s = UseRangeDefaults(data.ranges_file, &model.value()); !s.ok()) return s;
  if (Status s = AttachFailureModel(ds.value(), search.threads, &model.value()); !s.ok()) {
    return s;
  }
  if (Status s = model.value().Save(out_file); !s.ok()) return s;
  TuneTrainAnswer a;
  a.cv = std::move(cv).value();
  a.model_file = out_file;
  a.support_vectors = model.value().support_vectors();
  return a;
}

Result<WorstDimensionTarget> WorstScoredTarget(const TuneDataRequest& data) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(data.store_path, ec)) {
    return Status::NotFound(data.store_path + ": no such store; run `perfplan ingest spark` first");
  }
  std::vector<profiles::Migrations> components = ScoringMigrations();
  components.push_back(profiles::mapreduce::StoreMigrations());
  auto store = profiles::Store::OpenReadOnly(data.store_path, components);
  // A read-only Spark store without the mapreduce schema (it cannot be added here) has no jobs.
  const bool may_hold_jobs = store.ok();
  if (!may_hold_jobs) store = profiles::Store::OpenReadOnly(data.store_path, ScoringMigrations());
  if (!store.ok()) return store.status();
  // A MapReduce store's (or --apps job_…) target comes from the latest job's score.
  profiles::spark::RunTableSelection selection;
  selection.app_ids = data.store_apps;
  selection.name_contains = data.store_app_name;
  bool jobs = false;
  if (may_hold_jobs) {
    Result<bool> are_jobs = StoreRunsAreJobs(*store.value(), selection);
    if (!are_jobs.ok()) return are_jobs.status();
    jobs = are_jobs.value();
  }
  std::optional<ScoreAnswer> scored;
  if (jobs) {
    auto latest = ScoreLatestJob(*store.value(), selection);
    if (!latest.ok()) return latest.status();
    if (!latest.value()) {
      return Status::InvalidArgument(
          "--target: not given, and no selected MapReduce job of " + data.store_path +
          " has a successful attempt, so there is no score to take the worst dimension from; "
          "give --target NAME");
    }
    scored = std::move(latest).value();
  } else {
    Result<std::vector<StoredRun>> runs = LoadStoredRuns(*store.value());  // latest first
    if (!runs.ok()) return runs.status();
    const StoredRun* latest = nullptr;
    for (const StoredRun& r : runs.value()) {
      const bool selected =
          (data.store_apps.empty() || std::find(data.store_apps.begin(), data.store_apps.end(),
                                                r.run.app_id) != data.store_apps.end()) &&
          (data.store_app_name.empty() ||
           r.run.name.find(data.store_app_name) != std::string::npos);
      if (selected && r.tasks > 0) {
        latest = &r;
        break;
      }
    }
    if (latest == nullptr) {
      return Status::InvalidArgument(
          "--target: not given, and no selected application of " + data.store_path +
          " has a finished task, so there is no score to take the worst dimension from; give "
          "--target NAME");
    }
    Result<std::vector<ScoreAnswer>> answers =
        ScoreStoredApplications(*store.value(), latest->run.app_id);
    if (!answers.ok()) return answers.status();
    scored = std::move(answers.value().front());
  }
  static const std::pair<std::string_view, std::string_view> kMetric[] = {
      {"executor_compute_time_share", "beta_compute_share"},
      {"shuffle_time_share", "beta_shuffle_share"},
      {"shuffle_bytes", "beta_shuffle_bytes"},
      {"gc_time_share", "beta_gc_share"},
      {"total_time_seconds", "total_time_seconds"},
      {"result_serialization_share", "beta_result_serialization_share"},
  };
  auto metric_of = [&](std::string_view dimension) -> std::string_view {
    if (jobs) return JobMetricOfDimension(dimension);
    for (const auto& [d, metric] : kMetric) {
      if (d == dimension) return metric;
    }
    return {};
  };
  const models::ScoreResult& result = scored->result;
  std::string passed;
  for (std::size_t j : result.worst_first) {
    const models::DimensionScore& d = result.dimensions[j];
    if (!d.score) continue;
    const std::string_view metric = metric_of(d.name);
    if (metric.empty()) {
      passed += (passed.empty() ? "" : ", ") + d.name;
      continue;
    }
    WorstDimensionTarget w;
    w.app_id = scored->app_id;
    w.dimension = d.name;
    w.score = *d.score;
    w.target = metric;
    w.maximize =
        models::Dimensions()[d.dimension].direction == models::Direction::kHigherIsBetter;
    return w;
  }
  return Status::InvalidArgument(
      "--target: not given, and no scored dimension of " + scored->app_id +
      (passed.empty() ? std::string(" (none has a score)") : " (" + passed + ")") +
      " has a per-" + (jobs ? "job" : "application") +
      " metric in the store; give --target NAME");
}

Result<tuning::Sensitivity> AnswerTuneSensitivity(
    const TuneModelSource& given, const std::vector<std::pair<std::string, std::string>>& at,
    tuning::SensitivityOptions settings) {
  TuneModelSource source = given;
  std::string chosen;
  if (source.model_file.empty() && !source.data.store_path.empty() &&
      source.data.dataset.target.empty()) {
    Result<WorstDimensionTarget> worst = WorstScoredTarget(source.data);
    if (!worst.ok()) return worst.status();
    const WorstDimensionTarget& w = worst.value();
    source.data.dataset.target = w.target;
    settings.goal = w.maximize ? tuning::Goal::kMaximize : tuning::Goal::kMinimize;
    chosen = "target " + w.target + ": the worst-scoring dimension of " + w.app_id + " is " +
             w.dimension + " (score " + models::FormatNumber(w.score) +
             "); give --target to choose another";
  }
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
  Result<tuning::Sensitivity> answer = tuning::ComputeSensitivity(model.value(), settings);
  if (answer.ok() && !chosen.empty()) {
    answer.value().warnings.insert(answer.value().warnings.begin(), chosen);
  }
  return answer;
}

Result<tuning::Recommendation> AnswerTuneRecommend(const TuneModelSource& source,
                                                   const tuning::RecommendOptions& settings) {
  if (!source.model_file.empty()) {
    Result<tuning::Model> model = tuning::Model::Load(source.model_file);
    if (!model.ok()) return model.status();
    return RecommendWith(model.value(), settings);
  }
  Result<tuning::Dataset> ds = LoadDataset(source.data);
  if (!ds.ok()) return ds.status();
  Result<tuning::Selection> sel = tuning::SelectModel(ds.value(), source.search);
  if (!sel.ok()) return sel.status();
  Result<tuning::Model> model =
      tuning::TrainSelected(ds.value(), sel.value(), source.search.solver);
  if (!model.ok()) return model.status();
  if (Status s = UseRangeDefaults(source.data.ranges_file, &model.value()); !s.ok()) return s;
  if (Status s = AttachFailureModel(ds.value(), settings.threads, &model.value()); !s.ok()) {
    return s;
  }
  Result<tuning::Recommendation> r = RecommendWith(model.value(), settings);
  if (!r.ok()) return r;
  r.value().warnings.insert(r.value().warnings.begin(), ds.value().warnings.begin(),
                            ds.value().warnings.end());
  return r;
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

Result<TuneNextAnswer> AnswerTuneNext(const TuneDataRequest& data, std::size_t count,
                                      std::size_t samples, std::uint64_t seed, tuning::Goal goal,
                                      double max_failure_probability) {
  if (count < 1) return Status::InvalidArgument("--count: expected at least 1");
  if (samples < count) {
    return Status::InvalidArgument("--samples: " + std::to_string(samples) +
                                   " candidates cannot give " + std::to_string(count) +
                                   " proposals");
  }
  Result<tuning::Dataset> ds = LoadDataset(data);
  if (!ds.ok()) return ds.status();
  const tuning::Dataset& d = ds.value();
  std::vector<std::vector<double>> candidates =
      tuning::SampleCandidates(d.features, d.x.front(), samples, seed);
  TuneNextAnswer a;
  a.source = d.source;
  a.target = d.target;
  a.runs = d.runs();
  a.seed = seed;
  a.warnings = d.warnings;
  if (!d.failed_x.empty()) {
    Result<tuning::FailureModel> fm = tuning::FitFailureModel(d);
    if (!fm.ok()) return fm.status();
    std::vector<std::vector<double>> kept;
    for (auto& c : candidates) {
      if (fm.value().Probability(c) > max_failure_probability) {
        ++a.failure_rejected;
      } else {
        kept.push_back(std::move(c));
      }
    }
    candidates = std::move(kept);
    if (candidates.empty()) {
      return Status::InvalidArgument(
          "every sampled configuration is predicted to fail (failure probability > " +
          tuning::FormatSparkValue(max_failure_probability, tuning::Unit::kNone) +
          "); raise --samples or --max-failure-probability");
    }
  }
  a.candidates = candidates.size() + a.failure_rejected;
  Result<tuning::GaussianProcess> gp = tuning::GaussianProcess::Fit(d.features, d.x, d.y);
  if (!gp.ok()) return gp.status();
  a.length_scale = gp.value().length_scale();
  a.noise = gp.value().noise();
  a.log_target = gp.value().log_target();
  Result<std::vector<tuning::NextExperiment>> next =
      tuning::ProposeNext(d.features, d.x, d.y, candidates, count, goal);
  if (!next.ok()) return next.status();
  for (const tuning::NextExperiment& e : next.value()) {
    const std::vector<double>& x = candidates[e.candidate];
    TuneNextProposal p;
    p.expected_improvement = e.expected_improvement;
    p.predicted = e.predicted;
    p.predicted_sd = e.predicted_sd;
    for (std::size_t j = 0; j < d.features.size(); ++j) {
      const tuning::Feature& f = d.features[j];
      if (!f.category.empty()) {
        if (x[j] != 1.0) continue;  // the one-hot level that is set names the category
      } else if (!p.config.empty() && p.config.back().parameter == f.parameter) {
        continue;
      }
      const tuning::PropertyInfo info = tuning::DescribeProperty(f);
      tuning::RecommendedValue v;
      v.parameter = f.parameter;
      v.property = info.property;
      v.file = info.file;
      v.type = info.type;
      v.unit = f.unit;
      v.value = x[j];
      v.text = tuning::PropertyValueText(info, x[j], f.category);
      p.config.push_back(std::move(v));
    }
    a.proposals.push_back(std::move(p));
  }
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
