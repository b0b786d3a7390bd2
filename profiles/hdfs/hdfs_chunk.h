// The compact form of HDFS records in the store (schema v2): one row per chunk of up to
// kMaxChunkRecords records of one kind and one node, the records held as one JSON array of
// arrays, in the order they were read:
//
//   audit     [time_ms, allowed (0|1), user, real_user, ip, cmd, src, dst, proto]
//   transfer  [time_ms, is_read (0|1), datanode, peer, bytes, block, client_id, duration_ns]
//   block     [time_ms, block, path]
//
// JSON so that SQLite itself can read the records back (json_each): the views hdfs_audit,
// hdfs_transfer and hdfs_block of profiles/hdfs/hdfs_store.cpp expose one row per record with
// the v1 columns. One INSERT per chunk instead of one per record is what makes ingest cheap.
//
// Strings are written byte for byte except '"', '\\' and control bytes below 0x20, which are
// escaped; bytes >= 0x80 pass through. The decoder reads what this encoder and SQLite's
// json_array() write (the v1 → v2 migration), including \uXXXX escapes (surrogate pairs too).
//
// Thread-safety: plain values and pure functions. Units as in models/hdfs_records.h.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "models/hdfs_records.h"
#include "models/status.h"
#include "profiles/hdfs/hdfs_log.h"

namespace perfplan::profiles {

// Records per chunk at most: the views number record k of chunk c as c * 65536 + k.
inline constexpr std::int64_t kMaxChunkRecords = 65536;
// A chunk is also full once its text reaches 8 MiB, which bounds an ingester's memory whatever
// the lines' lengths.
inline constexpr std::size_t kMaxChunkBytes = std::size_t{8} << 20;

// One chunk being filled: the JSON text so far, its record count and time range. Callers store
// and Clear() it when full().
class HdfsChunkBuilder {
 public:
  void Add(const HdfsAuditView& a);
  void Add(const HdfsTransferView& t);
  void Add(const HdfsBlockView& b);
  bool empty() const { return records_ == 0; }
  bool full() const { return records_ >= kMaxChunkRecords || used_ >= kMaxChunkBytes; }
  std::int64_t records() const { return records_; }
  std::int64_t min_time_ms() const { return min_time_ms_; }
  std::int64_t max_time_ms() const { return max_time_ms_; }
  // The JSON array of the records so far ("[[…],…]"; "[]" when empty); valid until the next
  // Add or Clear.
  const std::string& Json();
  void Clear();

 private:
  // Starts a record whose strings need at most `room` bytes; returns where to write next.
  char* Begin(std::int64_t time_ms, std::size_t room);
  void End(char* p);
  std::string text_;  // a buffer: the chunk is its first used_ bytes
  std::size_t used_ = 0;
  std::int64_t records_ = 0;
  std::int64_t min_time_ms_ = 0, max_time_ms_ = 0;
};

// Appends the records of one chunk whose time_ms lies in [from_ms, to_ms) to *out, in chunk
// order. Failed("hdfs chunk ID: …") when the text is not a chunk of that kind (*out is then left
// as it was).
Status DecodeHdfsChunk(std::int64_t chunk_id, std::string_view json, std::int64_t from_ms,
                       std::int64_t to_ms, std::vector<models::HdfsAuditRecord>* out);
Status DecodeHdfsChunk(std::int64_t chunk_id, std::string_view json, std::int64_t from_ms,
                       std::int64_t to_ms, std::vector<models::HdfsTransferRecord>* out);
Status DecodeHdfsChunk(std::int64_t chunk_id, std::string_view json, std::int64_t from_ms,
                       std::int64_t to_ms, std::vector<models::HdfsBlockRecord>* out);

// A chunk read one record at a time, for readers that hold several chunks at once (the store's
// streams, profiles/hdfs/hdfs_store_streams.h): they keep the text and an index of 16 bytes a
// record instead of the decoded records (~200 bytes and a few strings each), and decode each
// record when its turn comes into one reused record, whose strings keep their capacity.
struct HdfsChunkEntry {
  std::int64_t time_ms = 0;
  std::uint32_t offset = 0;   // of the record's '[' in the chunk's text
  std::uint32_t padding = 0;  // zero
};
// Appends an entry for each record of the chunk whose time_ms lies in [from_ms, to_ms), in chunk
// order. Checks the whole chunk as DecodeHdfsChunk does, with the same error (*out is then left
// as it was), without copying a string. Record is one of models::HdfsAuditRecord,
// HdfsTransferRecord and HdfsBlockRecord: the kind of the chunk.
template <typename Record>
Status IndexHdfsChunk(std::int64_t chunk_id, std::string_view json, std::int64_t from_ms,
                      std::int64_t to_ms, std::vector<HdfsChunkEntry>* out);
// Decodes the record at `offset` (an entry's) into *out, reusing its strings' capacity.
// `json` may be the chunk's text from byte `json_start` on (a reader that keeps only what it has
// yet to read); offsets, in the entry and in errors, count from the start of the whole text.
// Failed("hdfs chunk ID: …") when there is no record of that kind there.
Status ReadHdfsChunkRecord(std::int64_t chunk_id, std::string_view json, std::uint32_t offset,
                           models::HdfsAuditRecord* out, std::uint32_t json_start = 0);
Status ReadHdfsChunkRecord(std::int64_t chunk_id, std::string_view json, std::uint32_t offset,
                           models::HdfsTransferRecord* out, std::uint32_t json_start = 0);
Status ReadHdfsChunkRecord(std::int64_t chunk_id, std::string_view json, std::uint32_t offset,
                           models::HdfsBlockRecord* out, std::uint32_t json_start = 0);

}  // namespace perfplan::profiles
