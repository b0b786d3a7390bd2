// JSON documents for the fit, evaluate, backtest and import answers (planner/runtime/fit_eval.h). Keys follow DESIGN
// §6; units in every key name. The fit document is itself a profile `perfplan predict` reads (the
// profile keys at top level, plus an informational "fit" object). nlohmann::json stays in the .cpp.
#pragma once

#include <string>

#include "planner/runtime/fit_eval.h"

namespace perfplan::planner {

std::string ToJson(const FitAnswer& answer);
std::string ToJson(const EvaluateAnswer& answer);
std::string ToJson(const BacktestAnswer& answer);
std::string ToJson(const ImportScoutAnswer& answer);

}  // namespace perfplan::planner
