// Test support for crash-safety tests: a store's contents as one comparable string, and SQLite's
// own integrity check. Two stores holding the same records (in any insertion order) dump equal.
#pragma once

#include <string>
#include <vector>

#include "profiles/store.h"

namespace perfplan::testing {

// For each table whose name starts with `table_prefix` (name order): "name: N rows #H" where H
// hashes the table's rows, each rendered with SQLite's quote() per column and sorted. Equal
// strings = the same rows: nothing lost, nothing doubled. Throws std::runtime_error on an SQL
// error.
std::string DumpTables(profiles::Store& store, const std::string& table_prefix);

// The first column of every row of each query in turn, one line per row: for comparing what
// DumpTables leaves out (row ids, the order rows were written in). Throws like DumpTables.
std::string QueryLines(profiles::Store& store, const std::vector<std::string>& queries);

// The text of `PRAGMA integrity_check` ("ok" for a sound database file).
std::string IntegrityCheck(profiles::Store& store);

}  // namespace perfplan::testing
