// SWIM workload traces (SWIMProjectUCB/SWIM, workloadSuite/*.tsv; ../shared/data/README.md §4.6):
// one job per line, six tab-separated columns written by upstream WorkloadSynthesis.pl:
//
//   job id, submit time (s since the sample's start, cumulative), gap since the previous job (s),
//   map input bytes, shuffle bytes, reduce output bytes
//
// There are no durations: a SWIM trace is arrivals and data sizes; `perfplan capacity` predicts
// the runtimes. Every bad line is reported (file:line: column: message), not just the first.
// Plain data; no globals.
#pragma once

#include <string>
#include <vector>

#include "profiles/problem.h"

namespace perfplan::profiles {

struct SwimJob {
  std::string id;
  double submit_seconds = 0;
  double gap_seconds = 0;
  double map_input_bytes = 0;
  double shuffle_bytes = 0;
  double reduce_output_bytes = 0;
  int line = 0;
};

struct SwimTrace {
  std::string file;
  std::vector<SwimJob> jobs;  // file order
};

Loaded<SwimTrace> ParseSwimTrace(const std::string& text, const std::string& file);
Loaded<SwimTrace> LoadSwimTrace(const std::string& path);

}  // namespace perfplan::profiles
