// `perfplan collect ganglia`: poll a live gmond/gmetad (or read one saved file) into the store.
//
// Each poll is parsed completely and then written in one transaction, so stopping at any moment
// (SIGINT/SIGTERM → `should_stop` returns true) keeps every poll already committed and none in
// part. The clock and the sleep come from the caller so tests run without waiting.
// Not thread-safe: one collection per Store.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "models/status.h"
#include "profiles/store.h"

namespace perfplan::planner {

struct CollectOptions {
  // HOST:PORT of a gmond (8649) or gmetad (8651), or a path to a saved XML / RRD export file.
  std::string source;
  // Seconds between polls. Default 15 (gmond's usual fastest refresh); lower it only with a
  // gmond configured to sample faster.
  double interval_seconds = 15;
  // Seconds to keep polling; 0 (default) polls once. Ignored for a file source.
  double duration_seconds = 0;
  // Seconds a single poll may take (connect + read until the peer closes). Default 10.
  double timeout_seconds = 10;
  // InvalidArgument naming the field when a value is out of range or the source is empty.
  Status Validate() const;
};

struct CollectAnswer {
  std::string source;
  std::string kind;          // "live", "xml-file", "ambari-rrd-text", "ganglia-web-json"
  int polls = 0;             // successful polls (1 for a file)
  int failed_polls = 0;      // polls that failed after the first succeeded
  std::int64_t samples = 0;  // samples added to the store
  std::int64_t samples_seen = 0;
  std::vector<std::string> hosts;    // "cluster/host", first-seen order, each once
  std::vector<std::string> metrics;  // metric names, first-seen order, each once
  bool interrupted = false;          // stopped by should_stop before the duration ended
  std::vector<std::string> warnings;
};

struct CollectHooks {
  std::function<bool()> should_stop = [] { return false; };
  std::function<std::int64_t()> now_epoch;    // default: system clock
  std::function<double()> monotonic_seconds;  // default: steady clock
  std::function<void(double)> sleep_seconds;  // default: sleeps in slices of 50 ms,
                                              // returning early when should_stop()
};

// Runs the collection. Fails (kFailed) when the first poll fails (unreachable or timed-out
// gmond, with that message) or a store write fails; InvalidArgument for bad settings or a
// malformed file; NotFound for a missing file. Later poll failures become warnings.
Result<CollectAnswer> CollectGanglia(profiles::Store& store, const CollectOptions& settings,
                                     CollectHooks hooks = {});

std::string ToJson(const CollectAnswer& answer);

}  // namespace perfplan::planner
