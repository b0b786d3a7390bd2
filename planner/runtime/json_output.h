// JSON documents for the answers of planner/runtime/runtime.h: one serializer per answer, used by `--json` on the
// CLI, by export and by the HTTP service, so none of them rebuilds a result. Keys follow the
// interface contract of DESIGN §6; units are in every key name. nlohmann::json stays inside the
// .cpp file.
#pragma once

#include <string>

#include "planner/runtime/runtime.h"

namespace perfplan::planner {

std::string ToJson(const PredictAnswer& answer);
std::string ToJson(const SelectAnswer& answer);
std::string ToJson(const ValidateAnswer& answer);
// {"error": code, "message": text, "field": Status::field() or null} for any failed request.
std::string ErrorToJson(const Status& status);

}  // namespace perfplan::planner
