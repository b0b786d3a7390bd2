// JSON text that is always valid UTF-8: the one way perfplan turns an nlohmann::json document into
// text (CLI --json answers, HTTP bodies, export files, store columns).
//
// nlohmann::json::dump() throws type_error.316 when a string holds bytes that are not UTF-8 (a log
// line, a file name or a stored user name with a \xff byte). JsonText replaces each invalid byte
// with U+FFFD instead, so the answer is still produced. Valid UTF-8 is written unchanged.
//
// The text is byte for byte what dump(indent, ' ', false, error_handler_t::replace) writes
// (tests/models/json_text_test.cpp checks that over random documents), written by a leaner walk:
// strings of plain ASCII are copied in one piece, numbers use nlohmann's own shortest float
// formatting, and only strings that need escaping go through nlohmann's escaper. dump() spent
// about 70 instructions a byte on a /v1/predict answer (docs/performance.md).
//
// Only the forward declarations of nlohmann's types are included here. Pure; thread-safe.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>

namespace perfplan {

// `indent` as in dump(): -1 = one line, n >= 0 = pretty-printed with n spaces.
std::string JsonText(const nlohmann::json& doc, int indent = -1);
std::string JsonText(const nlohmann::ordered_json& doc, int indent = -1);

// JsonText(doc, indent) followed by a newline: the form CLI answers and HTTP bodies use.
std::string JsonLine(const nlohmann::json& doc, int indent = 2);
std::string JsonLine(const nlohmann::ordered_json& doc, int indent = 2);

}  // namespace perfplan
