// Throughput of the H-index change-point search (models/change_point.h) and of the whole
// ComputeHIndex (sort included) at n = 1e3, 1e5, 1e7 and p = 1..3; the straightforward O(n²)
// direct-fit search next to it at the sizes where it is feasible (1e3, 1e4; 1e5 timed on a stride
// of candidates and extrapolated); the agreement of the running fits with direct QR fits at
// n = 1e7, p = 3; and, when /usr/bin/python3 has numpy, the NumPy peer bench/peers/hindex_numpy.py
// on the same data. Plain chrono loops, one thread.
//
//   ninja -C build -j1 hindex_bench && build/bench/hindex_bench [--quick]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <string>
#include <vector>

#include "models/change_point.h"
#include "models/hindex.h"
#include "models/mixture.h"
#include "models/random.h"

namespace {

using perfplan::models::ChangePointSearch;
// CPU time of this thread: on a shared machine it is the fair measure of one core's work.
double CpuSeconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

std::vector<double> Draw(std::size_t n, std::uint64_t seed) {
  perfplan::models::Rng rng(seed);
  const perfplan::models::Mixture mixture =
      perfplan::models::ParseMixture("0.9*pareto(4,0.1)+0.1*pareto(1.7,1)").value();
  return perfplan::models::Sample(mixture, n, rng);
}

std::vector<double> Lorenz(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return perfplan::models::LorenzPoints(v);
}

// Runs f repeatedly for at least min_seconds of CPU time (at least once); returns CPU seconds per
// run.
template <typename F>
double Time(const F& f, double min_seconds) {
  int runs = 0;
  const double start = CpuSeconds();
  do {
    f();
    ++runs;
  } while (CpuSeconds() - start < min_seconds);
  return (CpuSeconds() - start) / runs;
}

std::size_t Omega(std::size_t n) { return std::max<std::size_t>(10, n / 100); }

void FastSection(const std::vector<std::size_t>& sizes) {
  std::printf("\n## Fast search (running Givens fits) and the whole ComputeHIndex\n\n");
  std::printf("| n | p | search ms | search Mpoints/s | ComputeHIndex ms (incl. sort) | m̂ | H |\n");
  std::printf("|---:|---:|---:|---:|---:|---:|---:|\n");
  for (std::size_t n : sizes) {
    const std::vector<double> values = Draw(n, 42);
    const std::vector<double> lorenz = Lorenz(values);
    for (int p = 1; p <= 3; ++p) {
      ChangePointSearch found;
      const double search = Time(
          [&] { found = perfplan::models::FindChangePoint(lorenz, p, Omega(n)).value(); }, 0.3);
      perfplan::models::HIndexOptions options;
      options.degree = p;
      perfplan::models::HIndexResult r;
      const double whole =
          Time([&] { r = perfplan::models::ComputeHIndex(values, options).value(); }, 0.3);
      std::printf("| %zu | %d | %.3f | %.1f | %.3f | %zu | %.4f |\n", n, p, 1e3 * search,
                  n / search / 1e6, 1e3 * whole, found.m, r.h_index);
      std::fflush(stdout);
    }
  }
}

void DirectSection(bool quick) {
  std::printf("\n## Direct O(n²) search (Householder QR of both segments per candidate)\n\n");
  std::printf("| n | p | direct s | fast s | ratio | same m̂ | max relative SSE difference |\n");
  std::printf("|---:|---:|---:|---:|---:|:---:|---:|\n");
  std::vector<std::size_t> full = {1000};
  if (!quick) full.push_back(10000);
  for (std::size_t n : full) {
    const std::vector<double> lorenz = Lorenz(Draw(n, 42));
    for (int p = 1; p <= 3; ++p) {
      ChangePointSearch direct, fast;
      const double direct_s = Time(
          [&] { direct = perfplan::models::FindChangePointDirect(lorenz, p, Omega(n)).value(); },
          0.0);
      const double fast_s =
          Time([&] { fast = perfplan::models::FindChangePoint(lorenz, p, Omega(n)).value(); }, 0.3);
      std::printf("| %zu | %d | %.3f | %.6f | %.0f | %s | %.1e |\n", n, p, direct_s, fast_s,
                  direct_s / fast_s, direct.m == fast.m ? "yes" : "NO",
                  std::abs(direct.sse - fast.sse) / direct.sse);
      std::fflush(stdout);
    }
  }
  // n = 1e5: every candidate costs O(n); time a stride of candidates and extrapolate.
  const std::size_t n = 100000;
  const std::vector<double> lorenz = Lorenz(Draw(n, 42));
  const std::size_t omega = Omega(n);
  const std::size_t candidates = n - 2 * omega + 1;
  const std::size_t sampled = quick ? 20 : 200;
  for (int p = 1; p <= 3; ++p) {
    const double start = CpuSeconds();
    double sink = 0;
    for (std::size_t k = 0; k < sampled; ++k) {
      const std::size_t m = omega + k * (candidates - 1) / (sampled - 1);
      sink += perfplan::models::SegmentSse(lorenz, 1, m, p) +
              perfplan::models::SegmentSse(lorenz, m + 1, n, p);
    }
    const double per_candidate = (CpuSeconds() - start) / sampled;
    const double fast_s =
        Time([&] { perfplan::models::FindChangePoint(lorenz, p, omega).value(); }, 0.3);
    std::printf("| %zu | %d | %.1f (extrapolated from %zu candidates) | %.6f | %.0f | — | — |\n", n,
                p, per_candidate * candidates, sampled, fast_s,
                per_candidate * candidates / fast_s);
    if (sink < 0) std::printf("impossible\n");
    std::fflush(stdout);
  }
}

// SSE of a degree-p fit from moment sums Σx^k (k ≤ 2p), Σx^k·L (k ≤ p) and ΣL²: yy − bᵀG⁻¹b by
// Gaussian elimination — the textbook O(n) prefix-sum method, kept here only to show its error.
double SseFromMoments(const double* powers, const double* moments, double yy, int p) {
  const int k = p + 1;
  double g[4][5];
  for (int i = 0; i < k; ++i) {
    for (int j = 0; j < k; ++j) g[i][j] = powers[i + j];
    g[i][k] = moments[i];
  }
  for (int c = 0; c < k; ++c) {
    int pivot = c;
    for (int r = c + 1; r < k; ++r) {
      if (std::abs(g[r][c]) > std::abs(g[pivot][c])) pivot = r;
    }
    for (int j = 0; j <= k; ++j) std::swap(g[c][j], g[pivot][j]);
    for (int r = c + 1; r < k; ++r) {
      const double f = g[r][c] / g[c][c];
      for (int j = c; j <= k; ++j) g[r][j] -= f * g[c][j];
    }
  }
  double beta[4];
  double fit = 0;
  for (int i = k - 1; i >= 0; --i) {
    double v = g[i][k];
    for (int j = i + 1; j < k; ++j) v -= g[i][j] * beta[j];
    beta[i] = v / g[i][i];
  }
  for (int i = 0; i < k; ++i) fit += beta[i] * moments[i];
  return yy - fit;
}

// Split SSEs at the given m from running moment sums with x − centre.
std::vector<double> MomentSplitCosts(const std::vector<double>& lorenz, int p, double centre,
                                     const std::vector<std::size_t>& ms) {
  const std::size_t n = lorenz.size();
  double powers[7] = {}, moments[4] = {}, yy = 0;
  std::vector<std::vector<double>> at;  // prefix state at each m: powers, moments, yy
  std::size_t next = 0;
  for (std::size_t i = 1; i <= n; ++i) {
    const double x = static_cast<double>(i) / n - centre;
    double xp = 1;
    for (int k = 0; k <= 2 * p; ++k) {
      powers[k] += xp;
      if (k <= p) moments[k] += xp * lorenz[i - 1];
      xp *= x;
    }
    yy += lorenz[i - 1] * lorenz[i - 1];
    if (next < ms.size() && i == ms[next]) {
      std::vector<double> state(powers, powers + 7);
      state.insert(state.end(), moments, moments + 4);
      state.push_back(yy);
      at.push_back(std::move(state));
      ++next;
    }
  }
  std::vector<double> out;
  for (const std::vector<double>& state : at) {
    double right_powers[7], right_moments[4];
    for (int k = 0; k < 7; ++k) right_powers[k] = powers[k] - state[k];
    for (int k = 0; k < 4; ++k) right_moments[k] = moments[k] - state[7 + k];
    out.push_back(SseFromMoments(state.data(), state.data() + 7, state[11], p) +
                  SseFromMoments(right_powers, right_moments, yy - state[11], p));
  }
  return out;
}

void AccuracySection(std::size_t n) {
  std::printf("\n## Split SSEs against direct QR fits at n = %zu, p = 3 (relative differences)\n\n",
              n);
  const std::vector<double> lorenz = Lorenz(Draw(n, 7));
  const std::size_t omega = Omega(n);
  const std::vector<double> costs = perfplan::models::SplitCosts(lorenz, 3, omega).value();
  std::vector<std::size_t> ms;
  for (double fraction : {0.0, 0.25, 0.5, 0.8, 0.9, 0.95, 1.0}) {
    ms.push_back(omega + static_cast<std::size_t>(fraction * (costs.size() - 1)));
  }
  const std::vector<double> moments_from_0 = MomentSplitCosts(lorenz, 3, 0.0, ms);
  const std::vector<double> moments_centred = MomentSplitCosts(lorenz, 3, 0.5, ms);
  std::printf(
      "| m | direct QR SSE | running fits | moment sums, x from 0 | moment sums, x − 0.5 |\n");
  std::printf("|---:|---:|---:|---:|---:|\n");
  double worst[3] = {0, 0, 0};
  for (std::size_t t = 0; t < ms.size(); ++t) {
    const std::size_t m = ms[t];
    const double direct = perfplan::models::SegmentSse(lorenz, 1, m, 3) +
                          perfplan::models::SegmentSse(lorenz, m + 1, n, 3);
    const double rel[3] = {std::abs(costs[m - omega] - direct) / direct,
                           std::abs(moments_from_0[t] - direct) / direct,
                           std::abs(moments_centred[t] - direct) / direct};
    for (int k = 0; k < 3; ++k) worst[k] = std::max(worst[k], rel[k]);
    std::printf("| %zu | %.10e | %.1e | %.1e | %.1e |\n", m, direct, rel[0], rel[1], rel[2]);
  }
  std::printf(
      "\nworst relative difference from the direct fit: running fits %.1e, moment sums %.1e "
      "(x from 0) and %.1e (x − 0.5); requirement 1e-6\n",
      worst[0], worst[1], worst[2]);
}

void NumpySection(const std::string& script) {
  if (std::system("/usr/bin/python3 -c 'import numpy' 2>/dev/null") != 0) {
    std::printf("\n## NumPy peer: skipped (/usr/bin/python3 has no numpy)\n");
    return;
  }
  std::printf("\n## NumPy peer (%s): normal equations on prefix sums, batched solves\n\n",
              script.c_str());
  std::printf("| n | p | perfplan fast ms | numpy ms | same m̂ |\n|---:|---:|---:|---:|:---:|\n");
  for (std::size_t n : {10000u, 100000u}) {
    const std::vector<double> values = Draw(n, 42);
    const std::vector<double> lorenz = Lorenz(values);
    const std::string path = "/tmp/perfplan_hindex_bench_" + std::to_string(n) + ".f64";
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(values.data()),
               static_cast<std::streamsize>(values.size() * sizeof(double)));
    for (int p = 1; p <= 3; ++p) {
      ChangePointSearch fast;
      const double fast_s =
          Time([&] { fast = perfplan::models::FindChangePoint(lorenz, p, Omega(n)).value(); }, 0.3);
      const std::string cmd = "/usr/bin/python3 " + script + " " + path + " " + std::to_string(p) +
                              " " + std::to_string(Omega(n));
      FILE* pipe = popen(cmd.c_str(), "r");
      std::size_t m = 0;
      double numpy_s = 0;
      if (pipe == nullptr || std::fscanf(pipe, "%zu %lf", &m, &numpy_s) != 2) {
        std::printf("| %zu | %d | %.3f | failed | — |\n", n, p, 1e3 * fast_s);
      } else {
        std::printf("| %zu | %d | %.3f | %.3f | %s |\n", n, p, 1e3 * fast_s, 1e3 * numpy_s,
                    m == fast.m ? "yes" : "NO");
      }
      if (pipe != nullptr) pclose(pipe);
      std::fflush(stdout);
    }
    std::remove(path.c_str());
  }
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::string(argv[1]) == "--quick";
  std::printf("# hindex_bench%s\n", quick ? " --quick" : "");
  std::printf("Data: .9·Pareto(4, .1) + .1·Pareto(1.7, 1) draws, seed 42; ω = max(10, n/100).\n");
  std::printf("Times are CPU seconds of the benchmark thread (the machine is shared).\n");
  FastSection(quick ? std::vector<std::size_t>{1000, 100000}
                    : std::vector<std::size_t>{1000, 100000, 10000000});
  DirectSection(quick);
  AccuracySection(quick ? 1000000 : 10000000);
  NumpySection(std::string(PERFPLAN_SOURCE_DIR) + "/bench/peers/hindex_numpy.py");
  return 0;
}
