// A small seeded random source for simulations (xoshiro256** seeded through SplitMix64).
//
// perfplan's models take randomness only through an Rng the caller owns, so a seed goes in and the
// same numbers come out on every platform and compiler (std::*_distribution are
// implementation-defined; these draws are not). Not thread-safe: one Rng per thread.
#pragma once

#include <cstdint>

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
