#include "tests/support/store_dump.h"

#include <algorithm>
#include <functional>
#include <stdexcept>
#include <vector>

namespace perfplan::testing {
namespace {

profiles::Statement MustPrepare(profiles::Store& store, const std::string& sql) {
  Result<profiles::Statement> st = store.Prepare(sql);
  if (!st.ok()) throw std::runtime_error(st.status().message());
  return std::move(st).value();
}

std::vector<std::string> Texts(profiles::Statement st) {
  std::vector<std::string> out;
  while (st.Step()) out.push_back(st.ColumnText(0));
  if (!st.Error().ok()) throw std::runtime_error(st.Error().message());
  return out;
}

}  // namespace

std::string DumpTables(profiles::Store& store, const std::string& table_prefix) {
  profiles::Statement tables =
      MustPrepare(store,
                  "SELECT name FROM sqlite_master WHERE type = 'table' AND substr(name, 1, ?) = ? "
                  "ORDER BY name");
  tables.Bind(1, static_cast<std::int64_t>(table_prefix.size())).Bind(2, table_prefix);
  std::string out;
  for (const std::string& table : Texts(std::move(tables))) {
    profiles::Statement columns = MustPrepare(store, "SELECT name FROM pragma_table_info(?)");
    columns.Bind(1, table);
    std::string row_sql;
    for (const std::string& column : Texts(std::move(columns))) {
      row_sql += (row_sql.empty() ? "" : " || '|' || ") + std::string("quote(\"") + column + "\")";
    }
    std::vector<std::string> rows =
        Texts(MustPrepare(store, "SELECT " + row_sql + " FROM \"" + table + "\""));
    std::sort(rows.begin(), rows.end());
    std::string all;
    for (const std::string& r : rows) all += r + "\n";
    out += table + ": " + std::to_string(rows.size()) + " rows #" +
           std::to_string(std::hash<std::string>{}(all)) + "\n";
  }
  return out;
}

std::string QueryLines(profiles::Store& store, const std::vector<std::string>& queries) {
  std::string out;
  for (const std::string& sql : queries) {
    for (const std::string& line : Texts(MustPrepare(store, sql))) out += line + "\n";
  }
  return out;
}

std::string IntegrityCheck(profiles::Store& store) {
  std::string out;
  for (const std::string& line : Texts(MustPrepare(store, "PRAGMA integrity_check"))) {
    out += (out.empty() ? "" : "\n") + line;
  }
  return out;
}

}  // namespace perfplan::testing
