// A store row mapped in one statement instead of one line per column: ReadColumns(q, 0, a, b, c)
// reads result columns 0, 1, 2 into a, b, c by their types (NULL → std::nullopt for optionals,
// "" or 0 otherwise), and BindAll(q, a, b, c) binds ?1, ?2, ?3. The type → column rule lives here
// once. Private to profiles/.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "profiles/store.h"

namespace perfplan::profiles::detail {

inline void ReadColumn(const Statement& q, int i, std::string& out) { out = q.ColumnText(i); }
inline void ReadColumn(const Statement& q, int i, std::int64_t& out) { out = q.ColumnInt(i); }
inline void ReadColumn(const Statement& q, int i, double& out) { out = q.ColumnDouble(i); }
inline void ReadColumn(const Statement& q, int i, std::optional<std::int64_t>& out) {
  out = q.ColumnIsNull(i) ? std::nullopt : std::optional<std::int64_t>(q.ColumnInt(i));
}
inline void ReadColumn(const Statement& q, int i, std::optional<double>& out) {
  out = q.ColumnIsNull(i) ? std::nullopt : std::optional<double>(q.ColumnDouble(i));
}

template <typename... T>
void ReadColumns(const Statement& q, int first, T&... out) {
  int i = first;
  (ReadColumn(q, i++, out), ...);
}

template <typename... T>
Statement& BindAll(Statement& q, const T&... values) {
  int i = 1;
  (q.Bind(i++, values), ...);
  return q;
}

}  // namespace perfplan::profiles::detail
