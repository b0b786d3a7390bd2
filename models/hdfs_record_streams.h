// HDFS records read one at a time, for a workload analysis whose memory does not grow with the
// number of records (only with the number of distinct clients, users, paths, blocks and DataNodes,
// and with the opens of the one path whose cache-window count is being taken).
//
// A source hands out cursors; each call starts a new pass over the records of one kind, ordered by
// time_ms (ties in a fixed order of the source's choosing). The analysis makes two passes over
// the transfers and the blocks and one over the audits. A source also hands out scratch storage
// for the sort that joins transfers to accesses (models/external_sort.h), so that the analysis's
// memory does not grow with the number of (client, path) pairs either. The store
// (profiles/hdfs/hdfs_store.h, HdfsStoreStreams: a temporary file) and plain vectors
// (VectorHdfsStreams: memory) are the two sources.
//
// Thread-safety: a source and its cursors belong to one thread.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "models/external_sort.h"
#include "models/hdfs_records.h"
#include "models/hdfs_workload.h"
#include "models/status.h"

namespace perfplan::models {

template <typename Record>
class HdfsRecordCursor {
 public:
  virtual ~HdfsRecordCursor() = default;
  // The next record in time order, or nullptr at the end or on an error (then status() says
  // which). The record stays valid until the next call.
  virtual const Record* Next() = 0;
  virtual Status status() const { return Status::Ok(); }
};

class HdfsRecordStreams {
 public:
  virtual ~HdfsRecordStreams() = default;
  virtual std::unique_ptr<HdfsRecordCursor<HdfsAuditRecord>> Audits() = 0;
  virtual std::unique_ptr<HdfsRecordCursor<HdfsTransferRecord>> Transfers() = 0;
  virtual std::unique_ptr<HdfsRecordCursor<HdfsBlockRecord>> Blocks() = 0;
  // Storage for a sort's runs, asked for only when a sort outgrows
  // HdfsWorkloadOptions::sort_run_bytes. Memory unless the source says otherwise; a failure
  // fails the analysis.
  virtual Result<std::unique_ptr<ScratchFile>> Scratch() {
    return std::unique_ptr<ScratchFile>(std::make_unique<MemoryScratch>());
  }
};

// Records held in vectors (any order; each cursor visits them by time, stably). The vectors must
// outlive the streams.
class VectorHdfsStreams : public HdfsRecordStreams {
 public:
  VectorHdfsStreams(const std::vector<HdfsAuditRecord>& audits,
                    const std::vector<HdfsTransferRecord>& transfers,
                    const std::vector<HdfsBlockRecord>& blocks)
      : audits_(audits), transfers_(transfers), blocks_(blocks) {}
  std::unique_ptr<HdfsRecordCursor<HdfsAuditRecord>> Audits() override;
  std::unique_ptr<HdfsRecordCursor<HdfsTransferRecord>> Transfers() override;
  std::unique_ptr<HdfsRecordCursor<HdfsBlockRecord>> Blocks() override;

 private:
  const std::vector<HdfsAuditRecord>& audits_;
  const std::vector<HdfsTransferRecord>& transfers_;
  const std::vector<HdfsBlockRecord>& blocks_;
};

// One read of a client's stream (HdfsClientStream) as a streamed analysis hands them out: client
// by client in name order; a client's block reads first, by (time, DataNode, block, bytes), then
// its file reads, by (time, path): the order of HdfsWorkload::streams, flattened. Exactly one of
// `file` and `block` is set. The pointers stay valid until the next call to Next().
struct HdfsStreamRead {
  const std::string* client = nullptr;
  const HdfsFileRead* file = nullptr;
  const HdfsBlockRead* block = nullptr;
};
class HdfsReadStreams {
 public:
  virtual ~HdfsReadStreams() = default;
  // The next read, or nullptr at the end or on an error (then status() says which).
  virtual const HdfsStreamRead* Next() = 0;
  virtual Status status() const = 0;
};

// Reads every read of `reads` into one HdfsClientStream per client (appended to *streams, in the
// reader's order): HdfsWorkload::streams as the analysis without a reader fills it. The reader's
// status at the end.
Status CollectReadStreams(HdfsReadStreams& reads, std::vector<HdfsClientStream>* streams);

// AnalyzeHdfsWorkload (models/hdfs_workload.h) over streamed records: the same answer for the
// same records, in memory that does not grow with their number: state per distinct client, user,
// path, block and DataNode, and one sort of at most options.sort_run_bytes (its runs go to
// records.Scratch()) for what is per (client, path) pair and per (user, path) pair. Fails only
// when a cursor or the scratch storage does.
Result<HdfsWorkload> AnalyzeHdfsWorkload(HdfsRecordStreams& records,
                                         const HdfsWorkloadOptions& options);

// The same analysis, but with options.streams the per-client read streams are not held in the
// answer (HdfsWorkload::streams stays empty): *streams is set to a reader that hands them out from
// a sort of at most options.sort_run_bytes (its runs in records.Scratch()), so that a caller can
// write them as they come, in memory that does not grow with the number of reads. Without
// options.streams, *streams is set to a reader with no reads. The reader owns what it needs and
// outlives `records`.
Result<HdfsWorkload> AnalyzeHdfsWorkload(HdfsRecordStreams& records,
                                         const HdfsWorkloadOptions& options,
                                         std::unique_ptr<HdfsReadStreams>* streams);

}  // namespace perfplan::models
