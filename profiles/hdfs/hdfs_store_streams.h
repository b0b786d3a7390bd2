// The HDFS store's records as streams (models/hdfs_record_streams.h), for a workload analysis in
// memory that does not grow with the number of stored records.
//
// Each cursor reads one kind's chunks (profiles/hdfs/hdfs_chunk.h) in the order of their first
// time and merges the chunks that overlap in time, so it holds only the unread text of those
// chunks (a chunk or so per node) and a 16-byte index entry per record, however long the history;
// records are decoded one at a time. Records come ordered by time, then insertion (chunk id, position):
// the order of LoadHdfsRecords, and the same records: audits and transfers in [from_ms, to_ms),
// every block whatever its time (a file allocated before the window is read inside it). The
// analysis's sorts spill to a temporary file (profiles/scratch_file.h).
//
// Thread-safety: one thread; the store must outlive the streams and their cursors.
#pragma once

#include <cstdint>
#include <memory>

#include "models/hdfs_record_streams.h"
#include "profiles/store.h"

namespace perfplan::profiles {

std::unique_ptr<models::HdfsRecordStreams> HdfsStoreStreams(Store& store, std::int64_t from_ms,
                                                            std::int64_t to_ms);

}  // namespace perfplan::profiles
