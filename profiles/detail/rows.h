// One store query run to its end in one call: EachRow(store, sql, row, a, b) prepares `sql`,
// binds a, b to ?1, ?2 (BindAll), calls row(q) on each result row and returns the statement's
// error, so the prepare / bind / step / error-check loop is written here once instead of in
// every typed read. A row function that returns bool stops the query when it returns false (a
// limit reached, the one row looked for found). Private to profiles/.
#pragma once

#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "models/status.h"
#include "profiles/detail/columns.h"
#include "profiles/store.h"

namespace perfplan::profiles::detail {

// Steps `sql` (params bound to ?1, ?2, …) and calls row(q) on each result row, or on the first
// only, or until row(q) returns false; the statement's error, if any.
template <typename Row, typename... P>
Status StepRows(Store& store, const std::string& sql, bool first_only, Row&& row,
                const P&... params) {
  auto q = store.Prepare(sql);
  if (!q.ok()) return q.status();
  BindAll(q.value(), params...);
  while (q.value().Step()) {
    if constexpr (std::is_same_v<decltype(row(q.value())), bool>) {
      if (!row(q.value())) break;
    } else {
      row(q.value());
    }
    if (first_only) break;
  }
  return q.value().Error();
}

template <typename Row, typename... P>
Status EachRow(Store& store, const std::string& sql, Row&& row, const P&... params) {
  return StepRows(store, sql, false, row, params...);
}

// The same for a query read at most once: calls row(q) on the first result row, if there is one.
template <typename Row, typename... P>
Status FirstRow(Store& store, const std::string& sql, Row&& row, const P&... params) {
  return StepRows(store, sql, true, row, params...);
}

// Every result row mapped by map(q) into a vector, in the query's order.
template <typename Map, typename... P>
auto CollectRows(Store& store, const std::string& sql, Map&& map, const P&... params)
    -> Result<std::vector<decltype(map(std::declval<Statement&>()))>> {
  std::vector<decltype(map(std::declval<Statement&>()))> out;
  Status s = EachRow(
      store, sql, [&](Statement& q) { out.push_back(map(q)); }, params...);
  if (!s.ok()) return s;
  return out;
}

}  // namespace perfplan::profiles::detail
