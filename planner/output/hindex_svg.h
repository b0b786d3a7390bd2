// The figure of seed 000 (Fig. 4.3) as a self-contained SVG: the Lorenz curve L of the values, the
// ideal curve L* of the values before the change point, the oracle line y = x, the change point,
// axis labels and the H value. Curves with more than 2000 points are thinned for drawing (L is
// monotone, so every drawn point lies on the curve). Pure; thread-safe.
#pragma once

#include <span>
#include <string>

#include "models/hindex.h"

namespace perfplan::planner {

// `sorted` are the values ComputeHIndex saw, ascending; `result` is its answer for them.
std::string LorenzFigureSvg(std::span<const double> sorted, const models::HIndexResult& result,
                            const std::string& title);

}  // namespace perfplan::planner
