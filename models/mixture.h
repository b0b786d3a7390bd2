// Mixture distributions of bucket or task times for H-index simulations (DESIGN §3.4, seed 000 §6):
// parse "0.9*pareto(4,0.1)+0.1*pareto(1.7,1)", draw from it with a caller-owned Rng, and compute
// the true H-index by numerical integration of two Lorenz curves.
//
// Components: pareto(alpha, c) with CDF 1 − (x/c)^(−alpha) for x ≥ c (alpha > 1 so the mean is
// finite, c > 0), and normal(mean, sd) (sd > 0; its draws can be negative). The FIRST term is the
// straggler-free baseline; the others are the stragglers. The true H is
//   H = 1 − A(L_mixture) / A(L_first term),   A(L_F) = ∫₀¹ L_F(p) dp = E[X·(1 − F(X))] / E[X],
// each integral by tanh-sinh quadrature in the quantile variable of every component, split where
// another component's CDF has a kink, to about 1e-12. For the two mixtures of DESIGN §3.4 this
// gives 0.579655 and 0.143418.
//
// Pure functions and plain values; thread-safe except that Sample advances the Rng it is given.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "models/random.h"
#include "models/status.h"

namespace perfplan::models {

enum class DistributionKind {
  kPareto,  // first = alpha (tail index), second = c (scale, the smallest value)
  kNormal,  // first = mean, second = sd
};
std::string_view ToString(DistributionKind kind);  // "pareto", "normal"

struct MixtureComponent {
  double weight = 1;
  DistributionKind kind = DistributionKind::kPareto;
  double first = 0;
  double second = 0;
  std::size_t column = 1;  // 1-based column of the term in the expression (for messages)
};

struct Mixture {
  std::vector<MixtureComponent> components;  // at least one; weights sum to 1
};

// Parses `w*name(a,b) + w*name(a,b) + …` (spaces allowed between tokens; the weight may be left
// out when there is a single term). InvalidArgument naming the 1-based column of the bad token,
// e.g. "column 5: unknown distribution 'paretto'; expected pareto or normal", or a rule broken by
// the values ("column 3: pareto alpha must be > 1 for a finite mean; got 0.9"; "weights sum to
// 0.95; they must sum to 1").
Result<Mixture> ParseMixture(std::string_view text);

// The expression in canonical form, e.g. "0.9*pareto(4,0.1)+0.1*pareto(1.7,1)".
std::string ToString(const Mixture& mixture);

double Mean(const MixtureComponent& component);
double Mean(const Mixture& mixture);
// True when any component can produce values below 0.
bool CanBeNegative(const Mixture& mixture);

// One draw: a component chosen by weight, then its inverse CDF at a fresh uniform.
double Sample(const Mixture& mixture, Rng& rng);
// n draws.
std::vector<double> Sample(const Mixture& mixture, std::size_t n, Rng& rng);

// The standard normal quantile Φ⁻¹(p) given p and q = 1 − p (both, so either tail is accurate);
// relative error about 1e-15. Requires 0 < p < 1 (asserted).
double NormalQuantile(double p, double q);

struct TrueHIndex {
  double area_l = 0;         // A(L) of the whole mixture
  double area_baseline = 0;  // A(L) of the first term alone (the ideal curve L*)
  double h_index = 0;        // 1 − area_l/area_baseline; exactly 0 for a single term
};
// Failed when the integration does not converge; InvalidArgument when a mean is not positive.
Result<TrueHIndex> ComputeTrueHIndex(const Mixture& mixture);

}  // namespace perfplan::models
