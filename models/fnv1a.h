// FNV-1a 64 (Fowler–Noll–Vo), the one hash perfplan stores: a tuning model file's checksum
// (tuning/model.cpp) and the identity of an HDFS log file's first bytes
// (profiles/hdfs/hdfs_store.cpp). It tells a changed or different file, not a forged one: it is
// not a cryptographic hash. Pure; thread-safe; header-only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace perfplan::models {

// FNV-1a 64's offset basis, as published.
inline constexpr std::uint64_t kFnv1a64Offset = 14695981039346656037ULL;

// One digit short of the basis. Sums already stored were computed from it and must not change:
// the HDFS store's file fingerprints, and tuning model files written before session 9.
inline constexpr std::uint64_t kFnv1a64ShortOffset = 1469598103934665603ULL;

// FNV-1a 64 of `bytes` from `offset`.
constexpr std::uint64_t Fnv1a64(std::string_view bytes, std::uint64_t offset = kFnv1a64Offset) {
  std::uint64_t h = offset;
  for (char c : bytes) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ULL;  // FNV's 64-bit prime
  }
  return h;
}

// The same hash as 16 lowercase hex digits, leading zeros kept ("cbf29ce484222325" for "").
inline std::string Fnv1a64Hex(std::string_view bytes, std::uint64_t offset = kFnv1a64Offset) {
  std::uint64_t h = Fnv1a64(bytes, offset);
  std::string hex(16, '0');
  for (std::size_t i = hex.size(); i-- > 0; h >>= 4) hex[i] = "0123456789abcdef"[h & 0xf];
  return hex;
}

}  // namespace perfplan::models
