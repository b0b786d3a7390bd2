#include "tuning/sensitivity.h"

#include <algorithm>
#include <cmath>

namespace perfplan::tuning {

Result<std::vector<double>> ResolveConfiguration(
    const Model& model, const std::vector<std::pair<std::string, std::string>>& overrides) {
  const std::vector<Feature>& features = model.features();
  std::vector<double> x = model.baseline();
  if (x.size() != features.size()) {
    x.assign(features.size(), 0.0);
    for (std::size_t j = 0; j < features.size(); ++j) {
      x[j] = (features[j].min + features[j].max) / 2;
    }
  }
  for (const auto& [name, text] : overrides) {
    bool found = false;
    bool category_found = false;
    for (std::size_t j = 0; j < features.size(); ++j) {
      const Feature& f = features[j];
      if (f.parameter != name) continue;
      found = true;
      if (!f.category.empty()) {
        x[j] = f.category == text ? 1.0 : 0.0;
        category_found |= f.category == text;
        continue;
      }
      category_found = true;
      const UnitHint hint = f.unit == Unit::kBytes     ? UnitHint::kBytes
                            : f.unit == Unit::kSeconds ? UnitHint::kSeconds
                                                       : UnitHintFor(name);
      Result<Quantity> q = ParseSparkQuantity(text, hint);
      if (!q.ok()) return Status::InvalidArgument(name + ": " + q.status().message());
      if (q.value().unit != f.unit) {
        return Status::InvalidArgument(
            name + ": \"" + text + "\" has unit \"" + std::string(ToString(q.value().unit)) +
            "\" but the model was trained with \"" + std::string(ToString(f.unit)) + "\"");
      }
      x[j] = q.value().value;
    }
    if (!found) {
      std::string known;
      std::string last;
      for (const Feature& f : features) {
        if (f.parameter == last) continue;
        last = f.parameter;
        known += (known.empty() ? "" : ", ") + f.parameter;
      }
      return Status::InvalidArgument("unknown parameter \"" + name +
                                     "\"; the model's parameters are: " + known);
    }
    if (!category_found) {
      return Status::InvalidArgument(name + ": \"" + text +
                                     "\" is not a category the model was trained on");
    }
  }
  return x;
}

Status SensitivityOptions::Validate() const {
  if (!(step_fraction > 0 && step_fraction <= 1)) {
    return Status::InvalidField(
        "step_fraction", "" + std::to_string(step_fraction) + "; expected a value in (0, 1]");
  }
  return Status::Ok();
}

Result<Sensitivity> ComputeSensitivity(const Model& model, const SensitivityOptions& settings) {
  if (Status s = settings.Validate(); !s.ok()) return s;
  const std::vector<Feature>& features = model.features();
  std::vector<double> x = settings.at;
  if (x.empty()) {
    Result<std::vector<double>> base = ResolveConfiguration(model, {});
    if (!base.ok()) return base.status();
    x = base.value();
  }
  if (x.size() != features.size()) {
    return Status::InvalidArgument("configuration has " + std::to_string(x.size()) +
                                   " values; the model has " + std::to_string(features.size()) +
                                   " features");
  }
  Sensitivity out;
  out.target = model.target();
  out.kind = model.kind();
  out.cv_mre = model.cv_mre();
  out.predicted = model.Predict(x);
  for (std::size_t j = 0; j < features.size(); ++j) {
    const Feature& f = features[j];
    const double range = f.max - f.min;
    ParameterSensitivity ps;
    ps.name = f.name;
    ps.unit = f.unit;
    ps.value = x[j];
    std::vector<double> moved = x;
    if (!f.category.empty()) {
      if (x[j] == 1.0) {
        ps.step = 0;
      } else {
        for (std::size_t k = 0; k < features.size(); ++k) {
          if (features[k].parameter == f.parameter) moved[k] = 0.0;
        }
        moved[j] = 1.0;
        ps.step = 1.0;
      }
    } else {
      double step = range * settings.step_fraction;
      if (f.integer) step = std::max(1.0, std::round(step));
      if (x[j] + step > f.max && x[j] - step >= f.min) step = -step;
      ps.step = step;
      moved[j] = x[j] + step;
    }
    if (ps.step != 0) ps.eta = (model.Predict(moved) - out.predicted) / ps.step;
    ps.scaled = std::fabs(ps.eta) * range;
    const bool up_helps = settings.goal == Goal::kMinimize ? ps.eta < 0 : ps.eta > 0;
    if (!f.category.empty()) {
      ps.direction = ps.eta == 0 ? "none" : up_helps ? "choose" : "avoid";
    } else {
      ps.direction = ps.eta == 0 ? "none" : up_helps ? "increase" : "decrease";
    }
    out.parameters.push_back(ps);
  }
  std::stable_sort(out.parameters.begin(), out.parameters.end(),
                   [](const ParameterSensitivity& a, const ParameterSensitivity& b) {
                     return a.scaled > b.scaled;
                   });
  for (std::size_t i = 0; i < out.parameters.size(); ++i) {
    out.parameters[i].rank = static_cast<int>(i + 1);
  }
  if (model.kind() == ModelKind::kMean) {
    out.warnings.push_back("the model is the mean predictor: every sensitivity is 0");
  }
  return out;
}

}  // namespace perfplan::tuning
