// What the JSON writers share: PERFPLAN_JSON_FIELDS(object, field, …), the JSON object
// {"field": object.field, …}, and OrNull(optional).
//
// Where an answer's key is its struct field's name (STYLE.md 8: a name is spelled the same in
// C++ and in JSON), the writers name the field once instead of twice, so the key cannot drift from
// the field. Each value converts exactly as in `nlohmann::json{{"field", object.field}}`; keys the
// struct spells differently, optional values and computed ones are added beside it by hand:
//
//   nlohmann::json j = PERFPLAN_JSON_FIELDS(s, job_id, name, maps, reduces);
//   j["submit_time_ms"] = OrNull(s.submit_ms);
//
// The object is an nlohmann::json, whose keys come out sorted, so the order the fields are named
// in does not change the text. At most 63 fields (nlohmann's macro limit). Include it only in a
// .cpp file: nlohmann types stay inside the writers (STYLE.md 5).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>

// The names nlohmann_json_j and nlohmann_json_t are the ones NLOHMANN_JSON_TO expects (the macro
// under nlohmann's own NLOHMANN_DEFINE_TYPE_* helpers).
#define PERFPLAN_JSON_FIELDS(perfplan_json_source, ...)                      \
  ([](const auto& nlohmann_json_t) {                                         \
    nlohmann::json nlohmann_json_j = nlohmann::json::object();               \
    NLOHMANN_JSON_EXPAND(NLOHMANN_JSON_PASTE(NLOHMANN_JSON_TO, __VA_ARGS__)) \
    return nlohmann_json_j;                                                  \
  }(perfplan_json_source))

namespace perfplan {

// The value `v` holds, or JSON null when it holds none (how every answer writes an optional).
template <typename T>
nlohmann::json OrNull(const std::optional<T>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

}  // namespace perfplan
