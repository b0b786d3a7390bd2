#include "models/hindex_simulation.h"

#include <algorithm>
#include <cmath>

namespace perfplan::models {

Status HIndexSimulationOptions::Validate() const {
  if (n == 0) return Status::InvalidField("n", "must be at least 1; got 0");
  if (reps == 0) return Status::InvalidField("reps", "must be at least 1; got 0");
  return hindex.Validate();
}

Result<HIndexSimulationResult> SimulateHIndex(const Mixture& mixture,
                                              const HIndexSimulationOptions& options, Rng& rng) {
  if (Status s = options.Validate(); !s.ok()) return s;
  // Fail on too few values before spending any time.
  const std::size_t omega = EffectiveMinSegment(options.hindex, options.n);
  const int degree = options.hindex.choose_degree ? 1 : options.hindex.degree;
  if (Status s = CheckChangePointArguments(options.n, degree, omega); !s.ok()) return s;

  HIndexSimulationResult out;
  Result<TrueHIndex> truth = ComputeTrueHIndex(mixture);
  if (!truth.ok()) return truth.status();
  out.truth = truth.value();

  HIndexOptions hindex = options.hindex;
  hindex.allow_negative = hindex.allow_negative || CanBeNegative(mixture);
  std::vector<double> h_values;
  h_values.reserve(options.reps);
  double sum_m = 0, sum_fraction = 0, sum_gini = 0;
  std::string first_failure;
  for (std::size_t rep = 0; rep < options.reps; ++rep) {
    Result<HIndexResult> r = ComputeHIndex(Sample(mixture, options.n, rng), hindex);
    if (!r.ok()) {
      ++out.failed_reps;
      if (first_failure.empty()) {
        first_failure = "repetition " + std::to_string(rep + 1) + ": " + r.status().message();
      }
      continue;
    }
    const HIndexResult& h = r.value();
    h_values.push_back(h.h_index);
    sum_m += static_cast<double>(h.change_point);
    sum_fraction += h.change_point_fraction;
    sum_gini += h.gini;
    if (!h.has_change_point) ++out.reps_without_change_point;
  }
  if (h_values.empty()) return Status::Failed("every repetition failed; " + first_failure);
  if (!first_failure.empty()) {
    out.warnings.push_back(
        std::to_string(out.failed_reps) +
        " repetitions had no defined H and were left out; first: " + first_failure);
  }
  const double count = static_cast<double>(h_values.size());
  out.reps = h_values.size();
  out.mean_change_point = sum_m / count;
  out.mean_change_point_fraction = sum_fraction / count;
  out.mean_gini = sum_gini / count;
  double sum_h = 0;
  for (double h : h_values) sum_h += h;
  out.mean_h_index = sum_h / count;
  double sum_sq = 0;
  for (double h : h_values) sum_sq += (h - out.mean_h_index) * (h - out.mean_h_index);
  out.sd_h_index = h_values.size() > 1 ? std::sqrt(sum_sq / (count - 1)) : 0.0;
  std::sort(h_values.begin(), h_values.end());
  const std::size_t k = h_values.size();
  out.median_h_index = k % 2 ? h_values[k / 2] : 0.5 * (h_values[k / 2 - 1] + h_values[k / 2]);
  return out;
}

}  // namespace perfplan::models
