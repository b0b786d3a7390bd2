#include "tuning/recommend.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <thread>

#include "models/random.h"

namespace perfplan::tuning {
namespace {

std::string KnownParameters(const Model& model) {
  std::string known, last;
  for (const Feature& f : model.features()) {
    if (f.parameter == last) continue;
    last = f.parameter;
    known += (known.empty() ? "" : ", ") + f.parameter;
  }
  return known;
}

// One searched dimension: a numeric feature, or a categorical parameter's one-hot group.
struct Dim {
  std::string parameter;
  std::vector<std::size_t> features;  // one for numeric; the group for categorical
  bool categorical = false;
  bool integer = false;
  bool fixed = false;
  double lo = 0, hi = 0;
  // Values are multiples of this (0 = continuous): 1 for integers, 1 MiB (or 1 KiB for small
  // ranges) for sizes, 1 ms for durations, so recommendations read like settings people write.
  double quantum = 0;
  PropertyInfo info;  // the property the dimension sets (tuning/properties.h)

  double Snap(double v) const {
    if (quantum > 0) v = std::round(v / quantum) * quantum;
    return std::clamp(v, lo, hi);
  }
};

double QuantumFor(const Feature& f) {
  constexpr double kMiB = 1024.0 * 1024.0;
  if (f.integer && f.unit == Unit::kNone) return 1.0;
  if (f.unit == Unit::kBytes) return f.max - f.min >= 64 * kMiB ? kMiB : 1024.0;
  if (f.unit == Unit::kSeconds) return 1e-3;
  return f.integer ? 1.0 : 0.0;
}

void SetLevel(const Dim& d, std::size_t level, std::vector<double>* x) {
  for (std::size_t k = 0; k < d.features.size(); ++k) (*x)[d.features[k]] = k == level ? 1.0 : 0.0;
}
std::size_t LevelOf(const Dim& d, const std::vector<double>& x) {
  for (std::size_t k = 0; k < d.features.size(); ++k) {
    if (x[d.features[k]] == 1.0) return k;
  }
  return 0;
}

// "mapreduce.task.io.sort.mb / mapreduce.map.memory.mb <= 0.529 (the successful runs' largest)".
std::string BoundText(const Model& model, const FailureBound& b) {
  const auto name = [&](std::size_t j) { return DescribeProperty(model.features()[j]).property; };
  return name(b.a) + (b.product ? " * " : " / ") + name(b.b) + (b.upper ? " <= " : " >= ") +
         FormatSparkValue(b.limit, Unit::kNone) + " (the successful runs' " +
         (b.upper ? "largest" : "smallest") + ")";
}

}  // namespace

Result<Constraint> Constraint::Parse(std::string_view text, const Model& model) {
  Constraint c;
  c.text_ = std::string(text);
  auto fail = [&](std::size_t pos, const std::string& what) {
    return Status::InvalidArgument("constraint \"" + c.text_ + "\" at character " +
                                   std::to_string(pos + 1) + ": " + what);
  };
  std::size_t i = 0;
  double side = 1;  // +1 left of the comparison, -1 right of it
  bool have_op = false;
  double sign = 1;
  Term term;
  bool expect_factor = true;
  auto flush = [&] {
    term.sign = sign * side;
    c.terms_.push_back(term);
    term = Term{};
    sign = 1;
  };
  while (i < text.size()) {
    const char ch = text[i];
    if (std::isspace(static_cast<unsigned char>(ch))) {
      ++i;
      continue;
    }
    if (ch == '<' || ch == '>') {
      if (expect_factor) return fail(i, "expected a parameter or a number before the comparison");
      if (have_op) return fail(i, "more than one comparison");
      flush();
      const bool eq = i + 1 < text.size() && text[i + 1] == '=';
      c.op_ = ch == '<' ? (eq ? 0 : 1) : (eq ? 2 : 3);
      i += eq ? 2 : 1;
      have_op = true;
      side = -1;
      expect_factor = true;
      continue;
    }
    if (ch == '*' || ch == '+' || (ch == '-' && !expect_factor)) {
      if (expect_factor) return fail(i, "expected a parameter or a number");
      if (ch != '*') {
        flush();
        sign = ch == '-' ? -1 : 1;
      }
      ++i;
      expect_factor = true;
      continue;
    }
    if (!expect_factor) return fail(i, "expected *, +, - or a comparison");
    std::size_t j = i;
    while (j < text.size() && !std::isspace(static_cast<unsigned char>(text[j])) &&
           std::string_view("*+<>").find(text[j]) == std::string_view::npos &&
           !(text[j] == '-' && j > i)) {
      ++j;
    }
    const std::string token(text.substr(i, j - i));
    bool matched = false;
    for (std::size_t f = 0; f < model.features().size(); ++f) {
      const Feature& feat = model.features()[f];
      if (feat.category.empty() && feat.parameter == token) {
        term.features.push_back(f);
        matched = true;
      }
    }
    if (!matched) {
      Result<Quantity> q = ParseSparkQuantity(token, UnitHint::kAuto);
      if (!q.ok()) {
        return fail(i, "unknown parameter \"" + token +
                           "\"; the model's numeric parameters are: " + KnownParameters(model));
      }
      term.constant *= q.value().value;
    }
    i = j;
    expect_factor = false;
  }
  if (expect_factor) return fail(text.size(), "expected a parameter or a number at the end");
  if (!have_op) return fail(0, "no comparison; expected one of <=, <, >=, >");
  flush();
  return c;
}

bool Constraint::Holds(const std::vector<double>& x) const {
  double s = 0;
  for (const Term& t : terms_) {
    double v = t.sign * t.constant;
    for (std::size_t f : t.features) v *= x[f];
    s += v;
  }
  switch (op_) {
    case 0:
      return s <= 0;
    case 1:
      return s < 0;
    case 2:
      return s >= 0;
    default:
      return s > 0;
  }
}

Status RecommendOptions::Validate() const {
  if (samples < 1 || samples > 10'000'000) {
    return Status::InvalidField("samples",
                                "" + std::to_string(samples) + "; expected 1 to 10,000,000");
  }
  if (refine_starts < 0) {
    return Status::InvalidField("refine_starts",
                                "" + std::to_string(refine_starts) + "; expected >= 0");
  }
  if (threads < 1 || threads > 1024) {
    return Status::InvalidField("threads", "" + std::to_string(threads) + "; expected 1 to 1024");
  }
  if (refine_sweeps < 0) {
    return Status::InvalidField("refine_sweeps",
                                "" + std::to_string(refine_sweeps) + "; expected >= 0");
  }
  if (!(max_failure_probability >= 0 && max_failure_probability <= 1)) {
    return Status::InvalidField("max_failure_probability",
                                FormatSparkValue(max_failure_probability, Unit::kNone) +
                                    "; expected 0 to 1");
  }
  return Status::Ok();
}

std::string SparkValueText(const std::string& parameter, double value, Unit unit, bool integer) {
  Feature f;
  f.parameter = parameter;
  f.unit = unit;
  f.integer = integer;
  f.min = f.max = value;
  return PropertyValueText(DescribeProperty(f), value);
}

std::string SparkDefaultsLine(const std::string& parameter, const std::string& text) {
  const PropertyInfo info = DescribeColumn(parameter);
  if (info.file == ConfFile::kSparkDefaults) return info.property + " " + text;
  return "# " + info.property + " = " + text + " (not a Spark property)";
}

Result<Recommendation> Recommend(const Model& model, const RecommendOptions& settings) {
  if (Status s = settings.Validate(); !s.ok()) return s;
  const std::vector<Feature>& features = model.features();
  std::vector<Constraint> constraints;
  for (const std::string& text : settings.constraints) {
    Result<Constraint> c = Constraint::Parse(text, model);
    if (!c.ok()) return c.status();
    constraints.push_back(std::move(c).value());
  }
  Result<std::vector<double>> base_r = ResolveConfiguration(model, {});
  if (!base_r.ok()) return base_r.status();
  const std::vector<double> baseline = base_r.value();

  std::vector<Dim> dims;
  std::map<std::string, std::size_t> dim_of;
  for (std::size_t j = 0; j < features.size(); ++j) {
    const Feature& f = features[j];
    if (!f.category.empty()) {
      auto it = dim_of.find(f.parameter);
      if (it != dim_of.end()) {
        dims[it->second].features.push_back(j);
        continue;
      }
      dim_of[f.parameter] = dims.size();
      dims.push_back({f.parameter, {j}, true, true, false, 0, 0, 0, DescribeProperty(f)});
    } else {
      dim_of[f.parameter] = dims.size();
      Dim dim{f.parameter, {j},   false,        f.integer, false,
              f.min,       f.max, QuantumFor(f), DescribeProperty(f)};
      // Typed properties are searched in the steps they are written in: integers, booleans and
      // enumeration codes in whole numbers inside the measured range.
      if (dim.info.quantum > 0) {
        dim.quantum = dim.info.quantum;
        const double lo = std::ceil(f.min / dim.quantum) * dim.quantum;
        const double hi = std::floor(f.max / dim.quantum) * dim.quantum;
        if (lo <= hi) dim.lo = lo, dim.hi = hi;
        dim.integer = true;
      }
      dims.push_back(std::move(dim));
    }
  }
  for (const std::string& name : settings.fixed) {
    auto it = dim_of.find(name);
    if (it == dim_of.end()) {
      return Status::InvalidArgument(
          "unknown parameter \"" + name +
          "\" to hold fixed; the model's parameters are: " + KnownParameters(model));
    }
    dims[it->second].fixed = true;
  }

  const double sense = settings.goal == Goal::kMinimize ? 1.0 : -1.0;
  Recommendation out;
  out.target = model.target();
  out.kind = model.kind();
  out.cv_mre = model.cv_mre();
  out.seed = settings.seed;
  const FailureModel* failure = settings.failure;
  auto likely_to_fail = [&](const std::vector<double>& x) {
    return failure != nullptr && failure->Probability(x) > settings.max_failure_probability;
  };
  auto beyond_bounds = [&](const std::vector<double>& x) {
    return failure != nullptr && failure->BrokenBound(x) != nullptr;
  };
  auto feasible = [&](const std::vector<double>& x) {
    for (const Constraint& c : constraints) {
      if (!c.Holds(x)) return false;
    }
    return !likely_to_fail(x) && !beyond_bounds(x);
  };
  auto clipped = [&](const std::vector<double>& x) {
    return std::clamp(model.Predict(x), model.target_min(), model.target_max());
  };
  auto score = [&](const std::vector<double>& x) {
    ++out.evaluated;
    return sense * clipped(x);
  };
  out.baseline_predicted = model.Predict(baseline);
  const bool baseline_feasible = feasible(baseline);
  if (!baseline_feasible) {
    if (likely_to_fail(baseline)) {
      out.warnings.push_back("the baseline configuration is predicted to fail");
    } else if (beyond_bounds(baseline)) {
      out.warnings.push_back("the baseline configuration lies beyond the bound " +
                             BoundText(model, *failure->BrokenBound(baseline)));
    } else {
      out.warnings.push_back("the baseline configuration violates the constraints");
    }
  }

  // Latin hypercube: each dimension's N strata in a seeded random order.
  const std::size_t n = settings.samples;
  models::Rng rng(settings.seed);
  std::vector<std::vector<std::size_t>> strata(dims.size(), std::vector<std::size_t>(n));
  for (auto& s : strata) {
    for (std::size_t i = 0; i < n; ++i) s[i] = i;
    rng.Shuffle(s);
  }
  struct Scored {
    double score;
    std::vector<double> x;
  };
  std::vector<Scored> best;  // top refine_starts, ascending score
  const std::size_t keep = static_cast<std::size_t>(std::max(settings.refine_starts, 1));
  // Candidates are generated and predicted in fixed-size chunks (batch prediction is much faster
  // than one libsvm call per candidate). Up to `threads` chunks are predicted in parallel and
  // merged in generation order, so the answer does not depend on the thread count.
  constexpr std::size_t kChunk = 512;
  const std::size_t threads = std::max(1, settings.threads);
  std::vector<std::vector<std::vector<double>>> chunks(1);
  auto flush = [&] {
    std::vector<std::vector<double>> predicted(chunks.size());
    std::vector<std::thread> workers;
    for (std::size_t c = 1; c < chunks.size(); ++c) {
      workers.emplace_back([&, c] { model.PredictBatch(chunks[c], &predicted[c]); });
    }
    model.PredictBatch(chunks[0], &predicted[0]);
    for (auto& w : workers) w.join();
    for (std::size_t c = 0; c < chunks.size(); ++c) {
      out.evaluated += chunks[c].size();
      for (std::size_t i = 0; i < chunks[c].size(); ++i) {
        const double s =
            sense * std::clamp(predicted[c][i], model.target_min(), model.target_max());
        if (best.size() < keep || s < best.back().score) {
          best.push_back({s, chunks[c][i]});
          std::stable_sort(best.begin(), best.end(),
                           [](const Scored& a, const Scored& b) { return a.score < b.score; });
          if (best.size() > keep) best.pop_back();
        }
      }
    }
    chunks.assign(1, {});
  };
  std::vector<double> x = baseline;
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t d = 0; d < dims.size(); ++d) {
      const Dim& dim = dims[d];
      if (dim.fixed) continue;
      if (dim.categorical) {
        SetLevel(dim, strata[d][i] % dim.features.size(), &x);
      } else {
        double v = dim.lo + (static_cast<double>(strata[d][i]) + rng.Uniform()) /
                                static_cast<double>(n) * (dim.hi - dim.lo);
        x[dim.features[0]] = dim.Snap(v);
      }
    }
    if (!feasible(x)) {
      if (likely_to_fail(x)) {
        ++out.failure_rejected;
      } else if (beyond_bounds(x)) {
        ++out.bound_rejected;
      }
      continue;
    }
    ++out.feasible;
    chunks.back().push_back(x);
    if (chunks.back().size() == kChunk) {
      if (chunks.size() == threads) {
        flush();
      } else {
        chunks.emplace_back();
      }
    }
  }
  if (!chunks.front().empty()) flush();
  // Re-score the kept candidates with the exact (libsvm) prediction used everywhere else.
  for (Scored& b : best) b.score = score(b.x);
  std::stable_sort(best.begin(), best.end(),
                   [](const Scored& a, const Scored& b) { return a.score < b.score; });
  if (baseline_feasible) best.push_back({score(baseline), baseline});
  if (best.empty()) {
    std::string names;
    for (const auto& c : constraints) names += (names.empty() ? "" : "; ") + c.text();
    if (failure != nullptr && out.failure_rejected > 0) {
      names += (names.empty() ? "" : "; ") + std::string("failure probability <= ") +
               FormatSparkValue(settings.max_failure_probability, Unit::kNone);
    }
    if (failure != nullptr && out.bound_rejected > 0) {
      names += (names.empty() ? "" : "; ") + std::string("the bounds of the successful runs");
    }
    return Status::InvalidArgument("no sampled configuration satisfies the constraints (" + names +
                                   "); relax them or raise the sample count");
  }

  // Pattern search from each start: try ±step per dimension, halve steps when a sweep fails.
  Scored winner = best.front();
  const std::size_t starts = std::min<std::size_t>(best.size(), keep + 1);
  for (std::size_t s = 0; s < starts && settings.refine_sweeps > 0; ++s) {
    Scored cur = best[s];
    std::vector<double> step(dims.size());
    for (std::size_t d = 0; d < dims.size(); ++d) {
      const double q = dims[d].quantum;
      step[d] = q > 0 ? std::max(q, std::round((dims[d].hi - dims[d].lo) / 8 / q) * q)
                      : (dims[d].hi - dims[d].lo) / 8;
    }
    for (int sweep = 0; sweep < settings.refine_sweeps; ++sweep) {
      bool improved = false;
      for (std::size_t d = 0; d < dims.size(); ++d) {
        const Dim& dim = dims[d];
        if (dim.fixed) continue;
        if (dim.categorical) {
          const std::size_t now = LevelOf(dim, cur.x);
          for (std::size_t level = 0; level < dim.features.size(); ++level) {
            if (level == now) continue;
            std::vector<double> y = cur.x;
            SetLevel(dim, level, &y);
            if (!feasible(y)) continue;
            const double sc = score(y);
            if (sc < cur.score) {
              cur = {sc, y};
              improved = true;
              break;
            }
          }
          continue;
        }
        for (double dir : {1.0, -1.0}) {
          std::vector<double> y = cur.x;
          const std::size_t f = dim.features[0];
          y[f] = dim.Snap(y[f] + dir * step[d]);
          if (y[f] == cur.x[f] || !feasible(y)) continue;
          const double sc = score(y);
          if (sc < cur.score) {
            cur = {sc, y};
            improved = true;
            break;
          }
        }
      }
      if (!improved) {
        bool any = false;
        for (std::size_t d = 0; d < dims.size(); ++d) {
          const double q = dims[d].quantum;
          const double min_step = q > 0 ? q : (dims[d].hi - dims[d].lo) * 1e-3;
          if (step[d] > min_step) {
            step[d] = q > 0 ? std::max(q, std::floor(step[d] / 2 / q) * q) : step[d] / 2;
            any = true;
          }
        }
        if (!any) break;
      }
    }
    if (cur.score < winner.score) winner = cur;
  }

  // The search ranks clipped predictions (an RBF-SVR far from its support vectors can predict
  // absurd values); the answer reports the model's own prediction, never the clip.
  out.predicted = model.Predict(winner.x);
  out.interval_low = out.interval_high = out.predicted;
  if (model.cv_mre() >= 0) {
    out.interval_low = out.predicted * (1 - model.cv_mre());
    out.interval_high = out.predicted * (1 + model.cv_mre());
  }
  if (out.predicted < model.target_min() || out.predicted > model.target_max()) {
    const bool better = sense * out.predicted < sense * (sense > 0 ? model.target_min()
                                                                   : model.target_max());
    out.beyond_measured = better;
    out.warnings.push_back(
        "the model predicts " + FormatSparkValue(out.predicted, Unit::kNone) + " here, " +
        (better ? "better than the best" : "outside the range of the") + " measured " +
        model.target() + " (" + FormatSparkValue(model.target_min(), Unit::kNone) + " to " +
        FormatSparkValue(model.target_max(), Unit::kNone) +
        "): an extrapolation; try the configuration and retrain");
  }
  const double denom = std::fabs(out.baseline_predicted);
  out.predicted_gain = denom > 0 ? sense * (out.baseline_predicted - out.predicted) / denom : 0.0;
  std::vector<ConfEntry> spark, mapred, yarn;
  std::vector<std::string> others;
  for (const Dim& dim : dims) {
    RecommendedValue rv;
    rv.parameter = dim.parameter;
    rv.property = dim.info.property;
    rv.file = dim.info.file;
    rv.type = dim.info.type;
    if (dim.categorical) {
      const std::size_t level = LevelOf(dim, winner.x);
      rv.value = static_cast<double>(level);
      rv.baseline = static_cast<double>(LevelOf(dim, baseline));
      rv.text = features[dim.features[level]].category;
      rv.baseline_text = features[dim.features[LevelOf(dim, baseline)]].category;
    } else {
      const Feature& f = features[dim.features[0]];
      rv.unit = f.unit;
      rv.value = winner.x[dim.features[0]];
      rv.baseline = baseline[dim.features[0]];
      rv.text = PropertyValueText(dim.info, rv.value);
      rv.baseline_text = PropertyValueText(dim.info, rv.baseline);
    }
    switch (rv.file) {
      case ConfFile::kSparkDefaults: spark.push_back({rv.property, rv.text}); break;
      case ConfFile::kMapredSite: mapred.push_back({rv.property, rv.text}); break;
      case ConfFile::kYarnSite: yarn.push_back({rv.property, rv.text}); break;
      case ConfFile::kNone:
        others.push_back("# " + rv.property + " = " + rv.text + " (not a Spark property)");
        break;
    }
    out.config.push_back(std::move(rv));
  }
  out.spark_defaults = SparkDefaultsFragment(spark);
  out.spark_defaults.insert(out.spark_defaults.end(), others.begin(), others.end());
  if (!mapred.empty()) out.mapred_site_xml = HadoopSiteXml(mapred);
  if (!yarn.empty()) out.yarn_site_xml = HadoopSiteXml(yarn);
  if (failure != nullptr) {
    out.failure_aware = true;
    out.max_failure_probability = settings.max_failure_probability;
    out.failure_probability = failure->Probability(winner.x);
    out.baseline_failure_probability = failure->Probability(baseline);
    out.failed_runs = failure->failed_runs;
    out.failure_cv_accuracy = failure->cv_accuracy;
    out.failure_majority_accuracy = failure->majority_accuracy;
    out.failure_cv_log_loss = failure->cv_log_loss;
    out.failure_features = std::string(ToString(failure->features));
    out.failure_units = failure->units.size();
    out.failure_lambda = failure->lambda;
    out.failure_bounds = failure->bounds.size();
    for (const FailureBound& b : failure->bounds) {
      // A bound the answer sits on (within 1 % of it) is what keeps it from going further.
      if (std::fabs(b.Value(winner.x) - b.limit) <= 0.01 * std::fabs(b.limit)) {
        out.binding_bounds.push_back(BoundText(model, b));
      }
    }
    if (!failure->bounds_known) {
      out.warnings.push_back(
          "the model file has no bounds of the successful runs (written before session 9): "
          "only the logistic model keeps this answer out of the failed region; retrain to bound "
          "it");
    }
    if (failure->cv_accuracy <= failure->majority_accuracy) {
      out.warnings.push_back(
          "the failure model does not beat always answering the majority class held out (" +
          FormatSparkValue(100 * failure->cv_accuracy, Unit::kNone) + "% vs " +
          FormatSparkValue(100 * failure->majority_accuracy, Unit::kNone) +
          "%): the failed runs are too few or their region is not one the failure model can "
          "draw, so avoiding them is weak evidence");
    }
  }
  if (model.cv_mre() >= 0 && out.predicted_gain > 0 && out.predicted_gain < model.cv_mre()) {
    out.warnings.push_back(
        "the predicted gain is smaller than the model's CV error; it may not "
        "be real");
  }
  return out;
}

}  // namespace perfplan::tuning
