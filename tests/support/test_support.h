// Helpers shared by every perfplan test executable: where the source tree, the build tree and the
// real public data (../shared/data) are, and scratch folders. Tests never write outside a folder
// returned by MakeTempDir().
#pragma once

#include <string>

namespace perfplan::testing {

// Absolute path of the repository's source tree, e.g. "/work/main".
std::string SourceDir();
// Absolute path of the CMake build tree (where the perfplan binary is built).
std::string BinaryDir();
// ../shared/data resolved relative to the source tree. May not exist.
std::string SharedDataDir();
bool SharedDataAvailable();

// Marks the test executable as reading ../shared/data. When the folder is absent the executable
// prints why and exits 77, which CTest reports as skipped, never as passed. Use once per file:
//   PERFPLAN_REQUIRE_SHARED_DATA();
struct SharedDataRequirement {
  SharedDataRequirement();
};
bool SharedDataRequired();
#define PERFPLAN_REQUIRE_SHARED_DATA() \
  static const ::perfplan::testing::SharedDataRequirement perfplan_shared_data_requirement_

// A fresh empty folder under $TMPDIR (or /tmp); removed when the test process exits.
std::string MakeTempDir();

// Reads a whole file; throws std::runtime_error naming the path when it cannot.
std::string ReadFile(const std::string& path);
void WriteFile(const std::string& path, const std::string& contents);

}  // namespace perfplan::testing
