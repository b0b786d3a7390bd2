// JSON documents for the tuning answers (planner/tuning/tune.h), with the keys DESIGN §6 fixes:
// cv: models[] {kind, mre}; sensitivity: parameters[] {name, eta, direction, rank}; recommend:
// config{}, predicted, baseline_predicted — plus the diagnostics each answer carries. One document
// per call, ending in a newline. nlohmann::json stays in the .cpp file.
#pragma once

#include <string>

#include "planner/tuning/tune.h"

namespace perfplan::planner {

std::string ToJson(const TuneCvAnswer& answer);
std::string ToJson(const TuneTrainAnswer& answer);
std::string ToJson(const tuning::Sensitivity& answer);
std::string ToJson(const tuning::Recommendation& answer);
std::string ToJson(const TuneClassifyAnswer& answer);
std::string ToJson(const TunePredictAnswer& answer);
std::string ToJson(const TuneNextAnswer& answer);

}  // namespace perfplan::planner
