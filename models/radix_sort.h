// Sorting large arrays of doubles ascending: LSD radix sort on the IEEE-754 bit patterns (five
// passes of 13 bits, passes whose digit is the same for every value skipped), about 2.5× faster
// than std::sort at n = 10^7 (0.45 s against 1.1 s of CPU here). Small arrays (below
// kRadixSortMinSize) use std::sort.
//
// Order: IEEE totalOrder restricted to non-NaN values: −∞ < negatives < −0.0 < +0.0 < positives <
// +∞. NaN must not be present (callers check values first). Allocates one scratch array of n
// doubles. Thread-safe on distinct arrays.
#pragma once

#include <cstddef>
#include <span>

namespace perfplan::models {

inline constexpr std::size_t kRadixSortMinSize = 1 << 16;

void SortAscending(std::span<double> values);

}  // namespace perfplan::models
