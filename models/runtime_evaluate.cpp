#include "models/runtime_evaluate.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include "models/conformal.h"
#include "models/runtime_calibration.h"
#include "models/short_number.h"

namespace perfplan::models {
namespace {

FitOptions WithClasses(FitOptions options, const RuntimeFit& fit) {
  options.reduction_object_class = fit.reduction_object_class;
  options.reduction_object_scaling = fit.reduction_object_scaling;
  options.global_reduction_class = fit.global_reduction_class;
  options.memory_overhead_factor = fit.memory_overhead_factor;
  return options;
}

// Fewest completed runs for leave-one-out residuals; below, in-sample (which are exact when runs ≈
// parameters, so they understate the error: the intervals say so through short_of_points).
constexpr std::size_t kMinRunsForLooResiduals = 3;
// Fewest reference-workload errors worth joining the calibration set.
constexpr std::size_t kMinDesignErrors = 5;

// |log(measured / predicted)| of the completed runs, each predicted by the fit without it
// (classes fixed) when there are enough runs, in-sample otherwise.
std::vector<double> LogResiduals(const std::vector<MeasuredRun>& runs, const RuntimeFit& fit,
                                 const FitOptions& options) {
  std::vector<double> out;
  std::size_t completed = 0;
  for (const MeasuredRun& r : runs) completed += r.completed ? 1 : 0;
  FitOptions loo = WithClasses(options, fit);
  loo.min_completed_runs = 1;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (!runs[i].completed) continue;
    double predicted = PredictFitted(fit, ConfigOf(runs[i])).TotalSeconds();
    if (completed >= kMinRunsForLooResiduals) {
      std::vector<MeasuredRun> rest;
      for (std::size_t j = 0; j < runs.size(); ++j) {
        if (j != i) rest.push_back(runs[j]);
      }
      Result<RuntimeFit> refit = FitRuntime(rest, loo);
      if (refit.ok()) predicted = PredictFitted(refit.value(), ConfigOf(runs[i])).TotalSeconds();
    }
    if (predicted > 0) out.push_back(std::abs(std::log(runs[i].runtime_seconds / predicted)));
  }
  return out;
}

}  // namespace

void TrainedNodeRanges::Range::Add(double nodes) {
  lo = lo == 0 ? nodes : std::min(lo, nodes);
  hi = std::max(hi, nodes);
}

TrainedNodeRanges::TrainedNodeRanges(const std::vector<MeasuredRun>& train) {
  for (const MeasuredRun& r : train) {
    if (!r.completed) continue;
    by_type_[r.instance_type].Add(r.compute_nodes);
    all_.Add(r.compute_nodes);
  }
}

double TrainedNodeRanges::Widening(const MeasuredRun& target, bool* transfer) const {
  const auto own = by_type_.find(target.instance_type);
  *transfer = own == by_type_.end();
  const Range& range = *transfer ? all_ : own->second;
  if (!(range.lo > 0)) return 1;
  const double m = target.compute_nodes;
  const double d = std::max({0.0, std::log(m / range.hi), std::log(range.lo / m)});
  const double span = std::max(std::log(range.hi / range.lo), std::log(2.0));
  // The log error's variance, not its scale, grows linearly with the distance (a discrepancy
  // between form and truth that wanders like a Wiener process in log m; docs/accuracy.md, session
  // 17): its scale grows as the square root.
  return std::sqrt(1 + d / span) + (*transfer ? 1 : 0);
}

double WideningFactor(const std::vector<MeasuredRun>& train, const MeasuredRun& target,
                      bool* transfer) {
  return TrainedNodeRanges(train).Widening(target, transfer);
}

std::string_view ToString(HeterogeneityMode mode) {
  return mode == HeterogeneityMode::kHardware ? "hardware" : "references";
}

bool Parse(std::string_view text, HeterogeneityMode* out) {
  for (auto v : {HeterogeneityMode::kHardware, HeterogeneityMode::kReferences}) {
    if (text == ToString(v)) return *out = v, true;
  }
  return false;
}

Status EvaluateOptions::Validate() const {
  if (Status s = fit.Validate(); !s.ok()) return s;
  if (candidates.empty()) return Status::InvalidField("candidates", "must not be empty");
  if (!(interval_level > 0 && interval_level < 1)) {
    return Status::InvalidField("interval_level",
                                "must be in (0, 1), got " + FormatShort(interval_level));
  }
  return Status::Ok();
}

ErrorSummary Summarize(std::vector<double> apes) {
  ErrorSummary s;
  s.predicted = apes.size();
  if (apes.empty()) return s;
  std::sort(apes.begin(), apes.end());
  const std::size_t n = apes.size();
  s.median_ape = n % 2 ? apes[n / 2] : (apes[n / 2 - 1] + apes[n / 2]) / 2;
  const auto rank = static_cast<std::size_t>(std::ceil(0.9 * static_cast<double>(n)));
  s.p90_ape = apes[std::max<std::size_t>(rank, 1) - 1];
  double sum = 0;
  for (double v : apes) sum += v;
  s.mean_ape = sum / static_cast<double>(n);
  return s;
}

Result<Evaluation> EvaluateWorkload(const std::vector<MeasuredRun>& rows,
                                    const std::vector<bool>& train, const std::string& workload,
                                    const EvaluateOptions& options) {
  if (Status s = options.Validate(); !s.ok()) return s;
  if (rows.size() != train.size()) {
    return Status::InvalidArgument("evaluate: " + std::to_string(rows.size()) + " rows but " +
                                   std::to_string(train.size()) + " training flags");
  }
  if (Status s = ValidateRuns(rows); !s.ok()) return s;
  Evaluation ev;
  ev.workload = workload;
  ev.heterogeneity = options.heterogeneity;

  bool any_row = false;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const MeasuredRun& r = rows[i];
    if (r.workload != workload) continue;
    any_row = true;
    if (train[i]) ev.train_rows.push_back(i);
    if (ev.heterogeneity == HeterogeneityMode::kHardware &&
        (!(r.vcpus > 0) || !(r.memory_bytes > 0))) {
      ev.heterogeneity = HeterogeneityMode::kReferences;
      ev.notes.push_back("instance type " + r.instance_type +
                         " has no vCPU/memory figures; using reference-workload factors");
    }
  }
  if (!any_row) return Status::InvalidArgument("evaluate: no row has workload " + workload);
  if (ev.train_rows.empty()) {
    return Status::InvalidField("train", "selects no row of workload " + workload);
  }
  const bool hardware = ev.heterogeneity == HeterogeneityMode::kHardware;
  constexpr const char* kPooled = "*";

  // Training runs of the workload, grouped by fit: one pooled group (hardware) or one per type.
  std::vector<std::string> groups;
  std::map<std::string, std::vector<MeasuredRun>> train_by_group;
  std::map<std::string, std::vector<MeasuredRun>> reference_by_type_workload;
  std::set<std::string> reference_workloads;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const MeasuredRun& r = rows[i];
    if (r.workload == workload) {
      if (!train[i]) continue;
      const std::string key = hardware ? kPooled : r.instance_type;
      if (!train_by_group.count(key)) groups.push_back(key);
      train_by_group[key].push_back(r);
    } else {
      reference_workloads.insert(r.workload);
      reference_by_type_workload[r.instance_type + "\n" + r.workload].push_back(r);
    }
  }

  FitOptions fit_options = options.fit;
  fit_options.hardware_aware = hardware;
  std::map<std::string, RuntimeFit> fits;
  std::map<std::string, std::vector<double>> residual_pool;
  std::string base_type;
  std::size_t base_completed = 0;
  Status last_error;
  // kHardware: the model is chosen among the candidate forms on the training rows only.
  std::vector<std::string> target_types;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].workload == workload && !train[i] &&
        std::find(target_types.begin(), target_types.end(), rows[i].instance_type) ==
            target_types.end()) {
      target_types.push_back(rows[i].instance_type);
    }
  }
  ChoiceOptions choice_options;
  choice_options.fit = fit_options;
  choice_options.candidates = options.candidates;
  choice_options.partial_pooling = options.partial_pooling;
  if (hardware) {
    Result<ModelChoice> choice =
        ChooseRuntimeForm(train_by_group[kPooled], target_types, choice_options);
    if (!choice.ok()) return choice.status();
    ev.choice = choice.value();
  }
  for (const std::string& g : groups) {
    if (hardware && ev.choice->model.freeride) {
      fits[g] = *ev.choice->model.freeride;
      ev.fits.push_back(fits[g]);
      base_type = g;
      continue;
    }
    // The FREERIDE-G fit is reported (fits[]) when it was a candidate, even if another form won.
    if (hardware && std::find(options.candidates.begin(), options.candidates.end(),
                              RuntimeForm::kFreerideG) == options.candidates.end()) {
      continue;
    }
    Result<RuntimeFit> fit = FitRuntime(train_by_group[g], fit_options);
    if (!fit.ok()) {
      last_error = fit.status();
      ev.notes.push_back("no model for " + std::string(g == kPooled ? "the training rows" : g) +
                         ": " + fit.status().message());
      continue;
    }
    fits[g] = fit.value();
    ev.fits.push_back(fit.value());
    if (!hardware) residual_pool[g] = LogResiduals(train_by_group[g], fit.value(), fit_options);
    std::size_t completed = 0;
    for (const MeasuredRun& r : train_by_group[g]) completed += r.completed ? 1 : 0;
    if (completed > base_completed) {
      base_completed = completed;
      base_type = g;
    }
  }
  if (fits.empty() && !hardware) return last_error;

  // Reference fits (kReferences), per (type, workload), fitted lazily.
  FitOptions reference_options = options.fit;
  reference_options.hardware_aware = false;
  std::map<std::string, std::optional<RuntimeFit>> reference_fits;
  auto reference_fits_on = [&](const std::string& type) {
    std::vector<RuntimeFit> out;
    for (const std::string& k : reference_workloads) {
      const std::string key = type + "\n" + k;
      if (!reference_fits.count(key)) {
        auto it = reference_by_type_workload.find(key);
        std::optional<RuntimeFit> f;
        if (it != reference_by_type_workload.end()) {
          Result<RuntimeFit> r = FitRuntime(it->second, reference_options);
          if (r.ok()) f = r.value();
        }
        reference_fits[key] = f;
      }
      if (reference_fits[key]) out.push_back(*reference_fits[key]);
    }
    return out;
  };
  std::map<std::string, std::optional<ScalingFactors>> factors_for;
  auto factors_to = [&](const std::string& type) -> std::optional<ScalingFactors> {
    if (factors_for.count(type)) return factors_for[type];
    Result<HeterogeneityFactors> h =
        LearnHeterogeneity(reference_fits_on(base_type), reference_fits_on(type));
    std::optional<ScalingFactors> f;
    if (h.ok()) {
      f = h.value().factors;
      ev.notes.push_back(type + " from " + base_type + ": factors disk " + FormatShort(f->disk) +
                         ", network " + FormatShort(f->network) + ", compute " +
                         FormatShort(f->compute) + " from " +
                         std::to_string(h.value().references.size()) + " reference workload(s)");
    } else {
      ev.notes.push_back("no prediction on " + type + ": " + h.status().message());
    }
    factors_for[type] = f;
    return f;
  };

  // Baselines per training type (Ernest: one model per instance type, as its authors do).
  std::map<std::string, std::vector<MeasuredRun>> train_by_type;
  std::vector<MeasuredRun> all_train;
  for (std::size_t i : ev.train_rows) {
    train_by_type[rows[i].instance_type].push_back(rows[i]);
    all_train.push_back(rows[i]);
  }
  std::map<std::string, ErnestModel> ernest;
  std::map<std::string, AmdahlModel> amdahl;
  for (const auto& [t, runs] : train_by_type) {
    std::size_t completed = 0;
    for (const MeasuredRun& r : runs) completed += r.completed ? 1 : 0;
    // Two points fix Amdahl's two terms; Ernest is allowed from two points too (NNLS picks).
    if (completed >= 2) {
      if (auto e = FitErnest(runs); e.ok()) ernest[t] = e.value();
      if (auto a = FitAmdahl(runs); a.ok()) amdahl[t] = a.value();
    }
  }
  std::optional<AmdahlModel> amdahl_pooled;
  if (auto a = FitAmdahl(all_train); a.ok()) amdahl_pooled = a.value();

  // Predictions.
  std::vector<double> apes, ernest_apes, amdahl_apes, perfplan_on_ernest;
  std::vector<std::string> row_group;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const MeasuredRun& r = rows[i];
    if (r.workload != workload || train[i]) continue;
    EvaluatedRow out;
    out.row = i;
    out.run = r;
    const RunConfig x = ConfigOf(r);
    std::string group;
    ScalingFactors scaling;
    if (hardware) {
      group = kPooled;
      out.method = "hardware-aware " + std::string(ToString(ev.choice->chosen));
    } else if (fits.count(r.instance_type)) {
      group = r.instance_type;
      out.method = "same-type fit";
    } else if (auto f = factors_to(r.instance_type)) {
      group = base_type;
      scaling = *f;
      out.method = "heterogeneity from " + base_type;
    }
    if (hardware) {
      out.predicted_seconds = PredictForm(ev.choice->model, r);
    } else if (!group.empty()) {
      out.predicted_seconds = PredictFitted(fits[group], x, scaling).TotalSeconds();
    }
    if (ernest.count(r.instance_type)) {
      out.ernest_seconds = PredictErnest(ernest[r.instance_type], x);
    }
    if (amdahl.count(r.instance_type)) {
      out.amdahl_seconds = PredictAmdahl(amdahl[r.instance_type], x);
    } else if (amdahl_pooled) {
      out.amdahl_seconds = PredictAmdahl(*amdahl_pooled, x);
    }
    if (r.completed) {
      if (out.predicted_seconds) {
        out.ape = PredictionError(r.runtime_seconds, *out.predicted_seconds);
        apes.push_back(*out.ape);
      }
      if (out.ernest_seconds) {
        out.ernest_ape = PredictionError(r.runtime_seconds, *out.ernest_seconds);
        ernest_apes.push_back(*out.ernest_ape);
        if (out.ape) perfplan_on_ernest.push_back(*out.ape);
      }
      if (out.amdahl_seconds) {
        out.amdahl_ape = PredictionError(r.runtime_seconds, *out.amdahl_seconds);
        amdahl_apes.push_back(*out.amdahl_ape);
      }
    } else {
      ++ev.censored_rows;
      if (out.predicted_seconds) {
        out.respects_bound = *out.predicted_seconds >= r.runtime_seconds;
        ev.censored_respected += *out.respects_bound ? 1 : 0;
      }
    }
    ev.rows.push_back(out);
    row_group.push_back(group);
  }

  // Conformal intervals on log residuals. Out-of-sample errors of the same training design on the
  // reference workloads join each row's calibration set, centred at its prediction.
  std::size_t inside = 0, with_interval = 0;
  std::vector<double> design_radii;
  if (options.intervals && options.interval_noise_from_references) {
    EvaluateOptions inner = options;
    inner.intervals = false;
    inner.interval_noise_from_references = false;
    inner.heterogeneity = ev.heterogeneity;
    std::set<std::pair<std::string, double>> design;
    for (std::size_t i : ev.train_rows) {
      design.insert({rows[i].instance_type, rows[i].compute_nodes});
    }
    for (const std::string& k : reference_workloads) {
      std::vector<bool> mask(rows.size(), false);
      for (std::size_t i = 0; i < rows.size(); ++i) {
        mask[i] = rows[i].workload == k &&
                  design.count({rows[i].instance_type, rows[i].compute_nodes}) > 0;
      }
      Result<Evaluation> reference = EvaluateWorkload(rows, mask, k, inner);
      if (!reference.ok()) continue;
      for (const EvaluatedRow& r : reference.value().rows) {
        if (r.ape && *r.predicted_seconds > 0) {
          design_radii.push_back(std::abs(std::log(r.run.runtime_seconds / *r.predicted_seconds)));
        }
      }
    }
    if (design_radii.size() < kMinDesignErrors) design_radii.clear();
    ev.interval_noise_references = design_radii.size();
  }
  if (options.intervals) {
    std::vector<MeasuredRun> all_training;
    for (std::size_t i : ev.train_rows) all_training.push_back(rows[i]);
    // Normalised CV+ (models/runtime_calibration.h): each calibration radius over its own fold's
    // widening, times the target's. kReferences' jackknife radii are in-type and not normalised.
    const std::vector<double> difficulty =
        hardware ? CalibrationDifficulty(*ev.choice, train_by_group[kPooled])
                 : std::vector<double>{};
    // One training type: the scalings it cannot tell apart (step 7 of docs/accuracy.md).
    const std::vector<ScalingAlternative> alternatives =
        hardware && options.span_unidentified_scalings
            ? UnidentifiedScalings(*ev.choice, train_by_group[kPooled], target_types,
                                   choice_options)
            : std::vector<ScalingAlternative>{};
    // Step 8: the reference workloads' runs, for "changes between types as this reference does".
    std::map<std::string, std::vector<MeasuredRun>> reference_runs;
    const MeasuredRun* base_run = nullptr;
    if (!alternatives.empty() && options.span_reference_workloads) {
      for (const MeasuredRun& r : rows) {
        if (r.workload != workload) reference_runs[r.workload].push_back(r);
      }
      for (const MeasuredRun& r : train_by_group[kPooled]) {
        if (r.completed && !base_run) base_run = &r;
      }
    }
    std::set<std::string> references_used;
    std::vector<double> spreads;
    std::size_t exact_rows = 0;  // intervals widened to an exactly determined form's prediction
    const TrainedNodeRanges trained(all_training);
    for (std::size_t k = 0; k < ev.rows.size(); ++k) {
      EvaluatedRow& row = ev.rows[k];
      if (!row.predicted_seconds) continue;
      const double predicted = *row.predicted_seconds;
      row.interval_widening = trained.Widening(row.run, &row.transfer);
      std::vector<ConformalPoint> points;
      bool own_short = false;  // spanned rows: the chosen form's own calibration set is short
      if (hardware) {
        // The spanned scalings stand for the transfer's unknown: its +1 is not added again.
        const bool span = row.transfer && !alternatives.empty();
        if (span) row.interval_widening -= 1;
        points = NormalisedCalibrationPoints(*ev.choice, difficulty, row.run, predicted,
                                             row.interval_widening);
        if (span) {
          // The spanned sets repeat the same calibration errors: they add no evidence.
          own_short = CvPlusInterval(points, predicted, options.interval_level).short_of_points;
          double lowest = predicted, highest = predicted;
          for (const ScalingAlternative& a : alternatives) {
            const std::optional<double> p = PredictForm(a.choice.model, row.run);
            const std::vector<ConformalPoint> more = NormalisedCalibrationPoints(
                a.choice, a.difficulty, row.run, p ? *p : predicted, row.interval_widening);
            points.insert(points.end(), more.begin(), more.end());
            if (p) lowest = std::min(lowest, *p), highest = std::max(highest, *p);
          }
          // The same configuration on the training type, scaled as each reference changes.
          MeasuredRun at_base = row.run;
          if (base_run) {
            at_base.instance_type = base_run->instance_type;
            at_base.vcpus = base_run->vcpus;
            at_base.memory_bytes = base_run->memory_bytes;
            at_base.bandwidth_bytes_per_second = base_run->bandwidth_bytes_per_second;
          }
          const std::optional<double> on_base =
              base_run ? PredictForm(ev.choice->model, at_base) : std::nullopt;
          for (const auto& [name, runs] : reference_runs) {
            if (!on_base) break;
            const std::optional<double> to =
                ReferenceRuntime(runs, row.run.instance_type, row.run.compute_nodes);
            const std::optional<double> from =
                ReferenceRuntime(runs, base_run->instance_type, row.run.compute_nodes);
            if (!to || !from) continue;
            std::vector<ConformalPoint> more = NormalisedCalibrationPoints(
                *ev.choice, difficulty, at_base, *on_base, row.interval_widening);
            for (ConformalPoint& p : more) p.centre_log += std::log(*to / *from);
            points.insert(points.end(), more.begin(), more.end());
            const double p = *on_base * *to / *from;
            lowest = std::min(lowest, p), highest = std::max(highest, p);
            references_used.insert(name);
          }
          row.scaling_spread = highest / lowest;
          spreads.push_back(row.scaling_spread);
        }
      } else {
        for (double radius : residual_pool[row_group[k]]) {
          points.push_back({std::log(predicted), radius * row.interval_widening});
        }
      }
      for (double radius : design_radii) points.push_back({std::log(predicted), radius});
      if (points.empty()) continue;
      const ConformalInterval interval = CvPlusInterval(points, predicted, options.interval_level);
      row.interval_low_seconds = interval.low_seconds;
      row.interval_high_seconds = interval.high_seconds;
      // Forms that pass through the training runs exactly: the runs cannot reject them.
      bool exact_widened = false;
      const std::vector<FormModel> no_forms;
      for (const FormModel& f : hardware ? ev.choice->exact_forms : no_forms) {
        const std::optional<double> p = PredictForm(f, row.run);
        if (!p) continue;
        if (*p < *row.interval_low_seconds) row.interval_low_seconds = *p, exact_widened = true;
        if (*p > *row.interval_high_seconds) row.interval_high_seconds = *p, exact_widened = true;
      }
      exact_rows += exact_widened ? 1 : 0;
      ev.intervals_short_of_points += interval.short_of_points || own_short ? 1 : 0;
      if (row.interval_widening > 1 || row.scaling_spread > 1) {
        ++ev.widened_rows;
        ev.max_interval_widening = std::max(ev.max_interval_widening, row.interval_widening);
      }
      if (row.run.completed) {
        row.inside_interval = row.run.runtime_seconds >= *row.interval_low_seconds &&
                              row.run.runtime_seconds <= *row.interval_high_seconds;
        ++with_interval;
        inside += *row.inside_interval ? 1 : 0;
      }
    }
    if (ev.widened_rows) {
      std::size_t transfers = 0;
      for (const EvaluatedRow& r : ev.rows) transfers += r.transfer ? 1 : 0;
      ev.notes.push_back("intervals widened on " + std::to_string(ev.widened_rows) + " of " +
                         std::to_string(ev.rows.size()) +
                         " rows beyond the trained node range or on a type reached by transfer (" +
                         std::to_string(transfers) + "): own-residual radii" +
                         (hardware ? ", each over its own fold's widening," : "") +
                         " multiplied by up to " +
                         FormatShort(std::round(100 * ev.max_interval_widening) / 100));
    }
    if (!spreads.empty()) {
      ev.scaling_rows = spreads.size();
      ev.max_scaling_spread = *std::max_element(spreads.begin(), spreads.end());
      ev.median_scaling_spread = Summarize(spreads).median_ape;
      std::string figures, type;
      for (const ScalingAlternative& a : alternatives) {
        figures += ", " + std::string(ToString(a.scaling));
      }
      ev.scaling_references.assign(references_used.begin(), references_used.end());
      std::string references;
      for (const std::string& name : ev.scaling_references) {
        references += (references.empty() ? "" : ", ") + name;
      }
      if (!references.empty()) {
        figures += " and as reference workload(s) " + references + " change between the types";
      }
      for (const MeasuredRun& r : train_by_group[kPooled]) {
        if (r.completed && type.empty()) type = r.instance_type;
      }
      ev.notes.push_back(
          std::to_string(ev.scaling_rows) + " interval(s) on types reached by transfer span " +
          std::string(ToString(ev.choice->chosen)) + " with its hardware ratio from vCPUs" +
          figures + ": the training runs, all of " + type +
          ", cannot tell them apart; their predictions differ by up to " +
          FormatShort(std::round(100 * ev.max_scaling_spread) / 100) + "x (median " +
          FormatShort(std::round(100 * ev.median_scaling_spread) / 100) +
          "x), the point prediction is the vCPU one");
    }
    if (exact_rows) {
      std::string names;
      for (const FormModel& f : ev.choice->exact_forms) {
        names += (names.empty() ? "" : ", ") + std::string(ToString(f.form));
      }
      ev.notes.push_back(std::to_string(exact_rows) +
                         " interval(s) widened to contain the predictions of " + names +
                         ", which pass through the training runs exactly: the runs cannot reject "
                         "them, though cross-validation cannot judge them");
    }
    if (ev.intervals_short_of_points) {
      ev.notes.push_back(std::to_string(ev.intervals_short_of_points) +
                         " interval(s) rest on fewer calibration errors than the level needs (" +
                         FormatShort(std::ceil(1 / (1 - options.interval_level) - 1 - 1e-9)) +
                         "): their bounds are the extreme errors");
    }
  }
  ev.interval_coverage =
      with_interval ? static_cast<double>(inside) / static_cast<double>(with_interval) : 0;
  ev.perfplan = Summarize(apes);
  ev.ernest = Summarize(ernest_apes);
  ev.amdahl = Summarize(amdahl_apes);
  ev.perfplan_on_ernest_rows = Summarize(perfplan_on_ernest);

  // Selection: predict every configuration of the workload, training rows included.
  constexpr double kTieFraction = 1e-9;  // relative: equal predictions up to rounding
  constexpr double kUnmeasured = std::numeric_limits<double>::infinity();
  double picked_known = kUnmeasured;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const MeasuredRun& r = rows[i];
    if (r.workload != workload) continue;
    const double measured = r.runtime_seconds * r.compute_nodes;
    if (r.completed && (!ev.selection.best_measured_node_seconds ||
                        measured < ev.selection.best_measured_node_seconds)) {
      ev.selection.best_measured_node_seconds = measured;
      ev.selection.best_row = i;
    }
    std::optional<double> predicted;
    if (hardware) {
      predicted = PredictForm(ev.choice->model, r);
    } else if (!hardware && fits.count(r.instance_type)) {
      predicted = PredictFitted(fits[r.instance_type], ConfigOf(r)).TotalSeconds();
    } else if (!hardware && factors_for.count(r.instance_type) && factors_for[r.instance_type]) {
      predicted =
          PredictFitted(fits[base_type], ConfigOf(r), *factors_for[r.instance_type]).TotalSeconds();
    }
    if (!predicted) continue;
    // A censored training run is known to take at least its bound: the selection does not pick it
    // on a prediction below what was measured (rows not trained on keep their bound unseen).
    if (train[i] && !r.completed) predicted = std::max(*predicted, r.runtime_seconds);
    const double node_seconds = *predicted * r.compute_nodes;
    // Configurations the model cannot tell apart (a pooled form gives every type with the same
    // vCPUs the same time) tie; the tie goes to the one measured fastest among the training runs,
    // the only evidence that separates them (untrained rows' measurements stay unseen).
    const double known = train[i] && r.completed ? measured : kUnmeasured;
    const double picked = ev.selection.picked_predicted_node_seconds;
    if (!ev.selection.available || node_seconds < picked * (1 - kTieFraction) ||
        (node_seconds <= picked * (1 + kTieFraction) && known < picked_known)) {
      picked_known = known;
      ev.selection.available = true;
      ev.selection.picked_row = i;
      ev.selection.picked_predicted_node_seconds = node_seconds;
      ev.selection.picked_measured_node_seconds = measured;
      ev.selection.picked_completed = r.completed;
    }
  }
  if (ev.selection.available && ev.selection.best_measured_node_seconds > 0) {
    ev.selection.gap =
        ev.selection.picked_measured_node_seconds / ev.selection.best_measured_node_seconds - 1;
  }
  return ev;
}

}  // namespace perfplan::models
