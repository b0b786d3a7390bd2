// JSON text that is always valid UTF-8: the one way perfplan turns an nlohmann::json document into
// text (CLI --json answers, HTTP bodies, export files, store columns).
//
// nlohmann::json::dump() throws type_error.316 when a string holds bytes that are not UTF-8 (a log
// line, a file name or a stored user name with a \xff byte). Every writer calls JsonText instead,
// which replaces each invalid byte with U+FFFD ("\uFFFD" after escaping when ascii_only) so the
// answer is still produced. Valid UTF-8 is written unchanged.
//
// A template over the document type so that this header does not include nlohmann/json.hpp
// (models/ does not depend on it); the caller already does. Pure; thread-safe.
#pragma once

#include <string>

namespace perfplan {

// `indent` as in dump(): -1 = one line, n >= 0 = pretty-printed with n spaces.
template <typename Json>
std::string JsonText(const Json& doc, int indent = -1) {
  return doc.dump(indent, ' ', /*ensure_ascii=*/false, Json::error_handler_t::replace);
}

// JsonText(doc, indent) followed by a newline: the form CLI answers and HTTP bodies use.
template <typename Json>
std::string JsonLine(const Json& doc, int indent = 2) {
  return JsonText(doc, indent) + "\n";
}

}  // namespace perfplan
