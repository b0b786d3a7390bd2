// Parallel HDFS ingest (`ingest hdfs --jobs N`, issue 16 item 3).
//
// N parser threads each take the next --node source and read its files (decompression, line
// parsing, chunk building) exactly as the sequential IngestHdfs does, but record each batch —
// chunks, garbled lines, the checkpoint, begin and commit — on a queue instead of writing it. The
// calling thread is the one writer: it replays the sources' queues in the order the sources were
// given, so the store receives the same statements in the same order as with one job (same chunk
// and checkpoint ids, same batches, each committed with its checkpoint: crash safety unchanged).
// A node given again later depends on the checkpoints its earlier source writes, so the writer
// reads that later source itself.
//
// Memory: at most `jobs` sources are parsed or wait for the writer at once; each parser's queue
// holds at most 8 MiB of chunk text beyond the one chunk being queued, besides the chunks being
// built (profiles/hdfs/hdfs_chunk.h).
//
// Thread-safety: one call per Store at a time.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "profiles/hdfs/hdfs_store.h"

namespace perfplan::profiles {

// Called on the calling thread after each source is stored, with (sources done, sources total,
// uncompressed bytes of new lines read so far).
using HdfsIngestProgress = std::function<void(std::size_t, std::size_t, std::int64_t)>;

// IngestHdfs on `jobs` parser threads and one writer (jobs == 1: IngestHdfs itself). Fails with
// InvalidField("jobs", …) when jobs < 1 or > 256, and like IngestHdfs otherwise.
Result<HdfsIngestReport> IngestHdfsParallel(Store& store, const std::vector<HdfsSource>& sources,
                                            const HdfsIngestOptions& options, int jobs,
                                            const HdfsIngestProgress& progress = {});

}  // namespace perfplan::profiles
