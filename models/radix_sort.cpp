#include "models/radix_sort.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

namespace perfplan::models {
namespace {

constexpr int kDigitBits = 13;
constexpr int kPasses = 5;  // 5 · 13 = 65 ≥ 64 bits; measured faster than 6 × 11 and 4 × 16 here
constexpr std::size_t kBuckets = std::size_t{1} << kDigitBits;

// Maps a double's bits to an unsigned key with the same order: flip every bit of a negative,
// only the sign bit of a positive.
std::uint64_t Key(double v) {
  std::uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  return bits ^ ((bits >> 63) ? ~std::uint64_t{0} : std::uint64_t{1} << 63);
}

double FromKey(std::uint64_t key) {
  const std::uint64_t bits = key ^ ((key >> 63) ? std::uint64_t{1} << 63 : ~std::uint64_t{0});
  double v;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

}  // namespace

void SortAscending(std::span<double> values) {
  const std::size_t n = values.size();
  if (n < kRadixSortMinSize) {
    std::sort(values.begin(), values.end());
    return;
  }
  // The keys live in the caller's array itself (bit patterns copied with memcpy), so the only
  // extra memory is one scratch array.
  unsigned char* const home = reinterpret_cast<unsigned char*>(values.data());
  std::vector<std::uint64_t> scratch_keys(n);
  unsigned char* const scratch = reinterpret_cast<unsigned char*>(scratch_keys.data());
  auto load = [](const unsigned char* base, std::size_t i) {
    std::uint64_t k;
    std::memcpy(&k, base + 8 * i, 8);
    return k;
  };
  auto store = [](unsigned char* base, std::size_t i, std::uint64_t k) {
    std::memcpy(base + 8 * i, &k, 8);
  };
  std::vector<std::array<std::size_t, kBuckets>> counts(kPasses);
  for (auto& c : counts) c.fill(0);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t k = Key(values[i]);
    store(home, i, k);
    for (int p = 0; p < kPasses; ++p) ++counts[p][(k >> (p * kDigitBits)) & (kBuckets - 1)];
  }
  unsigned char* from = home;
  unsigned char* to = scratch;
  for (int p = 0; p < kPasses; ++p) {
    std::array<std::size_t, kBuckets>& c = counts[p];
    // Every key has the same digit: this pass would not move anything.
    if (std::find(c.begin(), c.end(), n) != c.end()) continue;
    std::size_t offset = 0;
    for (std::size_t& b : c) {
      const std::size_t count = b;
      b = offset;
      offset += count;
    }
    const int shift = p * kDigitBits;
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint64_t k = load(from, i);
      store(to, c[(k >> shift) & (kBuckets - 1)]++, k);
    }
    std::swap(from, to);
  }
  for (std::size_t i = 0; i < n; ++i) values[i] = FromKey(load(from, i));
}

}  // namespace perfplan::models
