// `perfplan tune train|cv|sensitivity|recommend|next|classify|predict`: config-sensitivity models.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <ostream>
#include <thread>

#include "models/text.h"
#include "planner/cli/command.h"
#include "planner/cli/options.h"
#include "planner/cli/table.h"
#include "planner/output/report.h"
#include "planner/runtime/json_output.h"
#include "planner/tuning/tune.h"
#include "planner/tuning/tune_json.h"

namespace perfplan::cli {
namespace {

struct TuneFlags {
  std::string data_file;
  std::string store;
  std::vector<std::string> apps;
  std::string app_name;
  std::string target;
  std::vector<std::string> ignore;
  std::string categorical = "onehot";
  bool drop_constant = false;
  std::vector<double> failed_markers;
  int folds = 5;
  std::uint64_t seed = 1;
  double budget_seconds = std::numeric_limits<double>::infinity();  // none: the full search
  std::vector<std::string> kinds;
  std::string search = "halving";
  bool json = false;
  std::string model_file;
  std::string out_file;
  std::vector<std::string> at;
  bool maximize = false;
  double step_fraction = 0.01;
  std::size_t samples = 2000;
  int threads = 0;
  std::vector<std::string> constraints;
  std::vector<std::string> fixed;
  double threshold = 60;
  double max_failure_probability = 0.2;
  std::string conf_dir;
  std::string ranges;
  std::size_t count = 1;
};

// Builds the request structs from the flags; InvalidArgument for an unknown model kind or a
// malformed --at.
Status ToOptions(const TuneFlags& f, planner::TuneDataRequest* data,
                 tuning::SearchOptions* search, bool store_target_optional = false) {
  if (f.data_file.empty() == f.store.empty()) {
    return Status::InvalidArgument(f.data_file.empty()
                                       ? "give --data FILE or --store DB (one of them)"
                                       : "give --data FILE or --store DB, not both");
  }
  if (f.target.empty() && !(store_target_optional && !f.store.empty())) {
    return Status::InvalidArgument("--target NAME is required");
  }
  if (f.store.empty() && (!f.apps.empty() || !f.app_name.empty())) {
    return Status::InvalidArgument("--apps and --app-name select applications of --store DB");
  }
  data->data_file = f.data_file;
  data->store_path = f.store;
  data->store_apps = f.apps;
  data->store_app_name = f.app_name;
  data->ranges_file = f.ranges;
  data->dataset.target = f.target;
  data->dataset.ignore = f.ignore;
  data->dataset.categorical = f.categorical == "reject" ? tuning::CategoricalPolicy::kReject
                                                        : tuning::CategoricalPolicy::kOneHot;
  data->dataset.drop_constant = f.drop_constant;
  data->dataset.failed_markers = f.failed_markers;
  search->cv.folds = f.folds;
  search->cv.seed = f.seed;
  search->budget_seconds = f.budget_seconds;
  if (!f.kinds.empty()) {
    search->kinds.clear();
    for (const std::string& k : f.kinds) {
      tuning::ModelKind kind;
      if (!tuning::Parse(k, &kind)) {
        std::string all;
        for (auto known : tuning::AllModelKinds()) {
          all += (all.empty() ? "" : ", ") + std::string(tuning::ToString(known));
        }
        return Status::InvalidArgument("--kinds: unknown model kind \"" + k + "\"; expected " +
                                       all);
      }
      search->kinds.push_back(kind);
    }
  }
  // --search is checked by CLI11; --threads 0 = every core (the answer does not depend on it).
  tuning::Parse(f.search, &search->strategy);
  search->threads = f.threads > 0 ? f.threads
                                  : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  return Status::Ok();
}

// store_target_optional: sensitivity takes the worst-scoring dimension's metric when --store
// comes without --target (planner::WorstScoredTarget).
Status SourceFrom(const TuneFlags& f, planner::TuneModelSource* source,
                  bool store_target_optional = false) {
  source->model_file = f.model_file;
  if (!f.model_file.empty()) {
    if (!f.data_file.empty() || !f.store.empty()) {
      return Status::InvalidArgument(
          "give --model FILE, or --data FILE / --store DB with "
          "--target NAME, not both");
    }
    return Status::Ok();
  }
  const bool target_optional = store_target_optional && !f.store.empty();
  if ((f.data_file.empty() && f.store.empty()) || (f.target.empty() && !target_optional)) {
    return Status::InvalidArgument(
        "give --model FILE, or --data FILE (or --store DB) and --target NAME");
  }
  return ToOptions(f, &source->data, &source->search, store_target_optional);
}

Result<std::vector<std::pair<std::string, std::string>>> ParseAt(
    const std::vector<std::string>& at) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const std::string& a : at) {
    const auto eq = a.find('=');
    if (eq == std::string::npos || eq == 0) {
      return Status::InvalidArgument("--at \"" + a +
                                     "\": expected NAME=VALUE, e.g. "
                                     "spark.executor.memory=4g");
    }
    out.emplace_back(a.substr(0, eq), a.substr(eq + 1));
  }
  return out;
}

// Exactly one of --data and --store is checked in ToOptions (a clear message, exit 2).
void AddDataFlags(CLI::App* cmd, TuneFlags* f) {
  cmd->add_option("--data", f->data_file, "Runs: CSV with a header, or ARFF");
  cmd->add_option("--store", f->store,
                  "Profile store: one run per ingested Spark application, or per MapReduce job "
                  "when it has no Spark application (instead of --data)");
  cmd->add_option("--apps", f->apps, "With --store: only these application ids")->delimiter(',');
  cmd->add_option("--app-name", f->app_name,
                  "With --store: only applications whose name contains this text");
  cmd->add_option("--target", f->target,
                  "Metric column to model (sensitivity with --store: default the metric of "
                  "the worst-scoring dimension of the latest Spark application or MapReduce "
                  "job)");
  cmd->add_option("--ranges", f->ranges,
                  "YAML of min/max/default per parameter: turns normalised values x of --data "
                  "into max(x*max, min); the defaults become the baseline");
  cmd->add_option("--ignore", f->ignore, "Columns that are neither parameters nor the target")
      ->delimiter(',');
  cmd->add_option("--categorical", f->categorical,
                  "Text parameter columns: onehot (default) or reject")
      ->check(CLI::IsMember({"onehot", "reject"}));
  cmd->add_flag("--drop-constant", f->drop_constant,
                "Drop parameters that never vary instead of failing");
  cmd->add_option("--failed-marker", f->failed_markers,
                  "Target value that marks a failed run (e.g. -1 in BestConf); such runs are "
                  "dropped")
      ->delimiter(',');
  cmd->add_option("--folds", f->folds, "Cross-validation folds (default 5)")
      ->check(CLI::Range(2, 1000));
  cmd->add_option("--seed", f->seed, "Seed for folds and sampling (default 1)");
  cmd->add_option("--budget-seconds", f->budget_seconds,
                  "Time budget of the hyper-parameter search in seconds (default: none, the full "
                  "search; a budget that ends it early makes the answer depend on machine speed)")
      ->check(CLI::Range(1e-3, 1e7));
  cmd->add_option("--kinds", f->kinds,
                  "Model kinds to compare (default all): eps-svr-rbf, eps-svr-linear, "
                  "eps-svr-poly, nu-svr-rbf, ridge, poly-ridge, gaussian-process, mean")
      ->delimiter(',');
  AddJsonFlag(*cmd, f->json, "a table");
}

std::string Mre(double v) { return std::isfinite(v) ? Fixed(100 * v, 2) + "%" : "-"; }

void PrintCv(std::ostream& out, const planner::TuneCvAnswer& a) {
  const tuning::Selection& s = a.selection;
  out << s.target << " from " << a.parameters << " parameters, " << a.runs << " runs of "
      << a.source << "; " << s.folds << "-fold CV, seed " << s.seed << ", "
      << tuning::ToString(s.strategy) << " search\n\n";
  Table t({"kind", "CV MRE", "on runs", "candidates tried", "fits"});
  for (const auto& k : s.kinds) {
    t.AddRow({std::string(tuning::ToString(k.kind)), Mre(k.mre), std::to_string(k.mre_runs),
              std::to_string(k.evaluated) + "/" + std::to_string(k.candidates),
              std::to_string(k.fits)});
  }
  t.Print(out);
  out << "\nchosen: " << tuning::ToString(s.chosen) << " (CV MRE " << Mre(s.chosen_mre) << ")\n";
  for (const auto& w : a.warnings) out << "warning: " << w << "\n";
}

void PrintSensitivity(std::ostream& out, const tuning::Sensitivity& s) {
  out << "sensitivity of " << s.target << " (" << tuning::ToString(s.kind) << ", CV MRE "
      << Mre(s.cv_mre) << "), predicted " << Fixed(s.predicted, 3) << " at the configuration\n\n";
  Table t({"rank", "parameter", "value", "eta", "effect over range", "improve by"});
  for (const auto& p : s.parameters) {
    char eta[32];
    std::snprintf(eta, sizeof eta, "%.4g", p.eta);
    t.AddRow({std::to_string(p.rank), p.name, tuning::FormatSparkValue(p.value, p.unit), eta,
              Fixed(p.scaled, 3), p.direction});
  }
  t.Print(out);
  for (const auto& w : s.warnings) out << "warning: " << w << "\n";
}

void PrintRecommendation(std::ostream& out, const tuning::Recommendation& r) {
  out << "# perfplan tune recommend: " << r.target << " predicted " << Fixed(r.predicted, 3)
      << " [" << Fixed(r.interval_low, 3) << ", " << Fixed(r.interval_high, 3) << "]"
      << " vs baseline " << Fixed(r.baseline_predicted, 3) << " (gain "
      << Fixed(100 * r.predicted_gain, 1) << "%; model " << tuning::ToString(r.kind) << ", CV MRE "
      << Mre(r.cv_mre) << ")\n";
  if (r.failure_aware) {
    out << "# failure-aware: a logistic model (" << r.failure_features;
    if (r.failure_units > 1) out << ", any of " << r.failure_units << " units";
    out << ", lambda " << models::FormatNumber(r.failure_lambda) << ") of " << r.failed_runs
        << " failed run(s) (nested 5-fold CV accuracy " << Fixed(100 * r.failure_cv_accuracy, 1)
        << "% vs " << Fixed(100 * r.failure_majority_accuracy, 1)
        << "% for the majority class) skipped " << r.failure_rejected
        << " sampled configuration(s) with failure probability > "
        << Fixed(r.max_failure_probability, 2) << " and " << r.bound_rejected << " beyond the "
        << r.failure_bounds << " bound(s) of the successful runs; this one's is "
        << Fixed(r.failure_probability, 3) << " (baseline "
        << Fixed(r.baseline_failure_probability, 3) << ")\n";
    for (const auto& b : r.binding_bounds) out << "# at the bound " << b << "\n";
  }
  for (const auto& line : r.spark_defaults) out << line << "\n";
  if (!r.mapred_site_xml.empty()) out << "# mapred-site.xml:\n" << r.mapred_site_xml;
  if (!r.yarn_site_xml.empty()) out << "# yarn-site.xml:\n" << r.yarn_site_xml;
  for (const auto& w : r.warnings) out << "# warning: " << w << "\n";
}

// --conf-dir: the fragments as files a cluster reads (only the files that have properties).
Status WriteConfFiles(const std::string& dir, const tuning::Recommendation& r) {
  std::string spark;
  for (const auto& line : r.spark_defaults) spark += line + "\n";
  const std::pair<const char*, const std::string*> files[] = {
      {"spark-defaults.conf", &spark},
      {"mapred-site.xml", &r.mapred_site_xml},
      {"yarn-site.xml", &r.yarn_site_xml}};
  for (const auto& [name, text] : files) {
    if (text->empty()) continue;
    const std::string path = dir + "/" + name;
    if (Status s = planner::WriteFileAtomically(path, *text); !s.ok()) {
      return Status::Failed("--conf-dir: " + s.message());
    }
  }
  return Status::Ok();
}

void PrintClassify(std::ostream& out, const planner::TuneClassifyAnswer& a) {
  out << "classes of " << a.cv.selection.target << " at threshold " << Fixed(a.report.threshold, 1)
      << " (cross-validated " << tuning::ToString(a.cv.selection.chosen) << ")\n\n";
  Table t({"class", "precision", "recall", "F1", "support"});
  for (const auto& c : a.report.classes) {
    t.AddRow({c.label == 0 ? "0 (>= threshold)" : "1 (< threshold)", Fixed(c.precision, 3),
              Fixed(c.recall, 3), Fixed(c.f1, 3), std::to_string(c.support)});
  }
  t.Print(out);
  out << "accuracy " << Fixed(a.report.accuracy, 3) << "\n";
}

// One `tune` verb: a subcommand whose callback turns the flags into an answer with `answer`
// (a Result) and prints it as JSON (--json) or with `print`; either error goes to ReportError.
template <typename AnswerFn, typename PrintFn>
CLI::App* AddTuneVerb(CLI::App& tune, CliContext& ctx, const std::shared_ptr<TuneFlags>& f,
                      const std::string& name, const std::string& description, AnswerFn answer,
                      PrintFn print) {
  CLI::App* cmd = AddVerb(tune, name, description);
  cmd->callback([f, &ctx, name, answer, print] {
    WriteAnswer(ctx, "tune " + name, f->json, answer(*f), print,
                [](const auto& a) { return planner::ToJson(a); });
  });
  return cmd;
}

// The data set and search settings of the verbs that cross-validate (cv, train, classify).
struct DataRequest {
  planner::TuneDataRequest data;
  tuning::SearchOptions search;
};
Result<DataRequest> ToDataRequest(const TuneFlags& f) {
  DataRequest r;
  if (Status s = ToOptions(f, &r.data, &r.search); !s.ok()) return s;
  return r;
}

}  // namespace

void AddTuneCommand(CLI::App& command, CliContext& ctx) {
  CLI::App* tune = &command;
  tune->footer(
      "Examples:\n"
      "  perfplan tune cv --data examples/tuning/spark_runs.csv --target time_seconds\n"
      "  perfplan tune train --data examples/tuning/spark_runs.csv --target time_seconds "
      "--out m.json\n"
      "  perfplan tune sensitivity --model m.json\n"
      "  perfplan tune recommend --model m.json "
      "--constraint 'spark.executor.memory * spark.executor.instances <= 24g'\n"
      "See docs/tuning.md.");

  auto cv = std::make_shared<TuneFlags>();
  CLI::App* cv_cmd = AddTuneVerb(
      *tune, ctx, cv, "cv", "Cross-validated MRE of every model kind",
      [](const TuneFlags& f) {
        return AndThen(ToDataRequest(f), [](const DataRequest& r) {
          return planner::AnswerTuneCv(r.data, r.search);
        });
      },
      PrintCv);
  AddDataFlags(cv_cmd, cv.get());
  cv_cmd
      ->add_option("--search", cv->search,
                   "Hyper-parameter search: halving (successive halving, default) or grid")
      ->check(CLI::IsMember({"halving", "grid"}));
  cv_cmd
      ->add_option("--threads", cv->threads,
                   "Threads sharing the search (default 0 = all cores; the answer does not "
                   "depend on it)")
      ->check(CLI::Range(0, 1024));

  auto train = std::make_shared<TuneFlags>();
  CLI::App* train_cmd = AddTuneVerb(
      *tune, ctx, train, "train", "Choose a model kind by CV and save it",
      [](const TuneFlags& f) {
        return AndThen(ToDataRequest(f), [&f](const DataRequest& r) {
          return planner::AnswerTuneTrain(r.data, r.search, f.out_file);
        });
      },
      [](std::ostream& out, const planner::TuneTrainAnswer& a) {
        PrintCv(out, a.cv);
        out << "saved to " << a.model_file << "\n";
      });
  AddDataFlags(train_cmd, train.get());
  train_cmd->add_option("--out", train->out_file, "Model file to write (JSON)")->required();

  auto sens = std::make_shared<TuneFlags>();
  CLI::App* sens_cmd = AddTuneVerb(
      *tune, ctx, sens, "sensitivity", "Rank parameters by their effect",
      [](const TuneFlags& f) -> Result<tuning::Sensitivity> {
        planner::TuneModelSource source;
        auto at = ParseAt(f.at);
        Status s = at.ok() ? SourceFrom(f, &source, /*store_target_optional=*/true) : at.status();
        if (!s.ok()) return s;
        tuning::SensitivityOptions settings;
        settings.goal = f.maximize ? tuning::Goal::kMaximize : tuning::Goal::kMinimize;
        settings.step_fraction = f.step_fraction;
        return planner::AnswerTuneSensitivity(source, at.value(), settings);
      },
      PrintSensitivity);
  AddDataFlags(sens_cmd, sens.get());
  sens_cmd->add_option("--model", sens->model_file, "Saved model (instead of --data/--target)");
  sens_cmd->add_option("--at", sens->at, "Configuration NAME=VALUE (default: the baseline run)");
  sens_cmd->add_flag("--maximize", sens->maximize, "Higher is better for the target");
  sens_cmd
      ->add_option("--step-fraction", sens->step_fraction,
                   "Step as a fraction of each parameter's range (default 0.01)")
      ->check(CLI::Range(1e-9, 1.0));

  auto rec = std::make_shared<TuneFlags>();
  CLI::App* rec_cmd = AddTuneVerb(
      *tune, ctx, rec, "recommend", "Search for a better configuration",
      [](const TuneFlags& f) -> Result<tuning::Recommendation> {
        planner::TuneModelSource source;
        if (Status s = SourceFrom(f, &source); !s.ok()) return s;
        tuning::RecommendOptions settings;
        settings.goal = f.maximize ? tuning::Goal::kMaximize : tuning::Goal::kMinimize;
        settings.samples = f.samples;
        settings.threads = f.threads > 0
                               ? f.threads
                               : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
        settings.seed = f.seed;
        settings.constraints = f.constraints;
        settings.fixed = f.fixed;
        settings.max_failure_probability = f.max_failure_probability;
        auto r = planner::AnswerTuneRecommend(source, settings);
        if (r.ok() && !f.conf_dir.empty()) {
          if (Status s = WriteConfFiles(f.conf_dir, r.value()); !s.ok()) return s;
        }
        return r;
      },
      PrintRecommendation);
  AddDataFlags(rec_cmd, rec.get());
  rec_cmd->add_option("--model", rec->model_file, "Saved model (instead of --data/--target)");
  rec_cmd->add_flag("--maximize", rec->maximize, "Higher is better for the target");
  rec_cmd->add_option("--samples", rec->samples, "Space-filling candidates (default 2000)")
      ->check(CLI::Range(1, 10'000'000));
  rec_cmd->add_option(
      "--constraint", rec->constraints,
      "e.g. 'spark.executor.memory * spark.executor.instances <= 48g' (repeatable)");
  rec_cmd
      ->add_option("--threads", rec->threads,
                   "Threads predicting the sample (default 0 = all cores; the answer does not "
                   "depend on it)")
      ->check(CLI::Range(0, 1024));
  rec_cmd->add_option("--fix", rec->fixed, "Parameters to keep at the baseline")->delimiter(',');
  rec_cmd
      ->add_option("--max-failure-probability", rec->max_failure_probability,
                   "With --failed-marker (or a --model trained with it): skip configurations a "
                   "logistic model of the failed runs gives a higher failure probability "
                   "(default 0.2)")
      ->check(CLI::Range(0.0, 1.0));
  rec_cmd->add_option("--conf-dir", rec->conf_dir,
                      "Also write spark-defaults.conf, mapred-site.xml and yarn-site.xml (those "
                      "that have properties) into this existing directory");

  auto next = std::make_shared<TuneFlags>();
  CLI::App* next_cmd = AddTuneVerb(
      *tune, ctx, next, "next",
      "The configurations most worth running next (Gaussian process, expected improvement)",
      [](const TuneFlags& f) -> Result<planner::TuneNextAnswer> {
        auto r = ToDataRequest(f);
        if (!r.ok()) return r.status();
        return planner::AnswerTuneNext(r.value().data, f.count, f.samples, f.seed,
                                       f.maximize ? tuning::Goal::kMaximize
                                                  : tuning::Goal::kMinimize,
                                       f.max_failure_probability);
      },
      [](std::ostream& out, const planner::TuneNextAnswer& a) {
        out << "# perfplan tune next: " << a.proposals.size() << " configuration(s) to run next for "
            << a.target << " (Gaussian process on " << a.runs << " runs of " << a.source
            << ", length scale " << Fixed(a.length_scale, 3) << ", noise " << Fixed(a.noise, 2)
            << (a.log_target ? ", log target" : "") << "; " << a.candidates
            << " sampled candidates, seed " << a.seed << ")\n";
        if (a.failure_rejected > 0) {
          out << "# " << a.failure_rejected
              << " candidate(s) skipped: a logistic model of the failed runs predicts they fail\n";
        }
        for (std::size_t i = 0; i < a.proposals.size(); ++i) {
          const auto& p = a.proposals[i];
          out << "\n# " << i + 1 << ": predicted " << Fixed(p.predicted, 3)
              << ", expected improvement " << Fixed(p.expected_improvement, 4) << "\n";
          for (const auto& v : p.config) {
            out << v.property << " " << v.text;
            if (v.file != tuning::ConfFile::kSparkDefaults) {
              out << "  # " << (v.file == tuning::ConfFile::kNone
                                    ? std::string("not a Spark property")
                                    : std::string(tuning::ToString(v.file)));
            }
            out << "\n";
          }
        }
        for (const auto& w : a.warnings) out << "# warning: " << w << "\n";
      });
  AddDataFlags(next_cmd, next.get());
  next_cmd->add_option("--count", next->count, "How many configurations to propose (default 1)")
      ->check(CLI::Range(1, 1000));
  next_cmd
      ->add_option("--samples", next->samples,
                   "Candidate configurations sampled over the measured ranges (default 2000)")
      ->check(CLI::Range(1, 1'000'000));
  next_cmd->add_flag("--maximize", next->maximize, "Higher is better for the target");
  next_cmd
      ->add_option("--max-failure-probability", next->max_failure_probability,
                   "With --failed-marker: skip candidates predicted to fail more likely than "
                   "this (default 0.2)")
      ->check(CLI::Range(0.0, 1.0));

  auto cls = std::make_shared<TuneFlags>();
  CLI::App* cls_cmd = AddTuneVerb(
      *tune, ctx, cls, "classify",
      "Precision/recall/F1 of cross-validated scores (score >= 60 vs below)",
      [](const TuneFlags& f) {
        return AndThen(ToDataRequest(f), [&f](const DataRequest& r) {
          return planner::AnswerTuneClassify(r.data, r.search, f.threshold);
        });
      },
      PrintClassify);
  AddDataFlags(cls_cmd, cls.get());
  cls_cmd->add_option("--threshold", cls->threshold, "Class boundary on the score (default 60)");

  auto pred = std::make_shared<TuneFlags>();
  CLI::App* pred_cmd = AddTuneVerb(
      *tune, ctx, pred, "predict", "Predict every run of a table with a model",
      [](const TuneFlags& f) { return planner::AnswerTunePredict(f.model_file, f.data_file); },
      [](std::ostream& out, const planner::TunePredictAnswer& a) {
        Table t({"line", "predicted " + a.target, "measured"});
        for (const auto& p : a.predictions) {
          t.AddRow({std::to_string(p.line), Fixed(p.predicted, 4),
                    p.has_measured ? Fixed(p.measured, 4) : "-"});
        }
        t.Print(out);
      });
  pred_cmd->add_option("--model", pred->model_file, "Saved model")->required();
  pred_cmd->add_option("--data", pred->data_file, "Runs to predict (CSV or ARFF)")->required();
  AddJsonFlag(*pred_cmd, pred->json, "a table");
}

}  // namespace perfplan::cli
