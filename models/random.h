// The one seeded random source of perfplan (xoshiro256** seeded through SplitMix64): simulations,
// bootstrap resampling, k-means++ seeding, cross-validation folds and Latin-hypercube sampling.
//
// perfplan's models take randomness only through an Rng the caller owns, so a seed goes in and the
// same numbers come out on every platform and compiler (std::*_distribution are
// implementation-defined; these draws are not). Not thread-safe: one Rng per thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>

namespace perfplan::models {

class Rng {
 public:
  explicit Rng(std::uint64_t seed) {
    std::uint64_t x = seed;
    for (std::uint64_t& s : state_) s = SplitMix64(x);
  }

  // 64 uniformly distributed bits.
  std::uint64_t Next() {
    const std::uint64_t result = Rotl(state_[1] * 5, 7) * 9;
    const std::uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = Rotl(state_[3], 45);
    return result;
  }

  // Uniform on the open interval (0, 1): never exactly 0 or 1, so inverse CDFs stay finite.
  double Uniform() { return (static_cast<double>(Next() >> 11) + 0.5) * 0x1.0p-53; }

  // Uniform integer in [0, n), without modulo bias (rejects the few draws below 2^64 mod n).
  // n must be at least 1.
  std::uint64_t Below(std::uint64_t n) {
    const std::uint64_t reject_below = (0 - n) % n;  // 2^64 mod n
    for (;;) {
      const std::uint64_t x = Next();
      if (x >= reject_below) return x % n;
    }
  }

  // Shuffles `items` in place (Fisher-Yates): every order equally likely.
  template <typename Vector>
  void Shuffle(Vector& items) {
    for (std::size_t i = items.size(); i > 1; --i) {
      const std::size_t j = static_cast<std::size_t>(Below(i));
      std::swap(items[i - 1], items[j]);
    }
  }

 private:
  static std::uint64_t Rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  static std::uint64_t SplitMix64(std::uint64_t& x) {
    std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  std::uint64_t state_[4];
};

}  // namespace perfplan::models
