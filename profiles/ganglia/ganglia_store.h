// Ganglia samples in the profile store (component "ganglia"): hosts, metrics and timestamped
// samples, so an application's time window can later be joined with the hosts it ran on.
//
// Tables (migration 1):
//   ganglia_hosts(id, cluster, name, ip)            UNIQUE(cluster, name)
//   ganglia_metrics(id, name, type, units, metric_group)   UNIQUE(name)
//   ganglia_samples(host_id, metric_id, time_seconds, value, text)
//       PRIMARY KEY(host_id, metric_id, time_seconds): a value is stored once per update time, so
//       polling an unchanged gmond, or storing the same file twice, adds nothing.
// A sample's time is when its value was last updated: the serving daemon's LOCALTIME minus the
// metric's TN (falling back to the caller's poll time when the document has no LOCALTIME).
// Numeric values go to `value` (REAL), string metrics to `text` (value NULL).
//
// Each Store* call writes in one transaction: on failure nothing of that call is kept. Not
// thread-safe beyond the Store's own rules (one Store per thread).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/status.h"
#include "models/task_vectors.h"
#include "profiles/ganglia/ganglia.h"
#include "profiles/store.h"

namespace perfplan::profiles {

// The "ganglia" component's migrations; pass to Store::Open.
const Migrations& GangliaMigrations();

struct GangliaStoreCounts {
  std::int64_t samples_seen = 0;     // METRICs / export points in the input
  std::int64_t samples_added = 0;    // new rows (already-stored samples are not counted)
  std::vector<std::string> hosts;    // "cluster/host" seen in the input, in first-seen order
  std::vector<std::string> metrics;  // metric names seen, in first-seen order
};

// Stores one XML snapshot. `poll_epoch` is used for clusters without LOCALTIME. Failed with the
// SQLite message when the store refuses the write (the transaction is rolled back).
Result<GangliaStoreCounts> StoreGangliaSnapshot(Store& store, const GangliaSnapshot& snapshot,
                                                std::int64_t poll_epoch);
// Stores the series of an RRD export (every point a sample).
Result<GangliaStoreCounts> StoreGangliaExport(Store& store, const GangliaExport& exported);

// Numeric samples with from_epoch <= time <= to_epoch of the hosts named (host names without the
// cluster; empty = every host), ordered by host, metric, time. Failed on an SQLite error.
Result<std::vector<models::MetricSample>> LoadGangliaSamples(Store& store, std::int64_t from_epoch,
                                                             std::int64_t to_epoch,
                                                             const std::vector<std::string>& hosts);

// Every stored host (cluster, name, ip), ordered by cluster and name; ip "" when not served.
// For matching the executor hosts of an event log (short names, FQDNs, IPs) with Ganglia's.
Result<std::vector<models::KnownHost>> LoadGangliaHosts(Store& store);

}  // namespace perfplan::profiles
