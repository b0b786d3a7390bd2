// Reading back the tab-separated fields perfplan writes itself: the records of `hdfs map` /
// `hdfs reduce` (planner/hdfs/hdfs_streaming.h) and the MapReduce store's packed counters
// (profiles/mapreduce/mapreduce_store.cpp) escape a field's tabs, newlines and backslashes as \t,
// \n and \\ so that a field never splits a record. Pure; thread-safe.
#pragma once

#include <string>
#include <string_view>

namespace perfplan::models {

// "\t" → tab, "\n" → newline, "\X" → X for any other byte X (so "\\" → "\"); a lone backslash at
// the end stays.
std::string UnescapeTabs(std::string_view s);

}  // namespace perfplan::models
