// Test support: writers for the compressed framings Spark uses for event logs, so codec tests can
// build .lz4/.snappy/.lzf/.zstd/.gz inputs at run time from a plain log (no such real files
// exist). Each returns the whole encoded file.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace perfplan::testing {

// lz4-java LZ4BlockOutputStream framing (blocks of block_bytes, XXHash32 checks, end block).
std::string EncodeLz4Block(const std::string& data, std::size_t block_bytes = 64 * 1024);
// The LZ4 frame format with default preferences, as the `lz4` command-line tool writes it.
std::string EncodeLz4Frame(const std::string& data);
// snappy-java SnappyOutputStream framing (16-byte header, length-prefixed raw snappy blocks).
std::string EncodeSnappyStream(const std::string& data, std::size_t block_bytes = 32 * 1024);
// compress-lzf framing ("ZV" chunks; compressed when that is smaller, stored otherwise).
std::string EncodeLzf(const std::string& data, std::size_t chunk_bytes = 65535);
// zstd, one frame per chunk_bytes of input (concatenated frames, as zstd-jni may write).
std::string EncodeZstdFrames(const std::string& data, std::size_t chunk_bytes = 64 * 1024);
// gzip, one member per chunk_bytes of input (concatenated members).
std::string EncodeGzipMembers(const std::string& data, std::size_t chunk_bytes = 64 * 1024);

// A small but complete synthetic Spark 3 event log: one job, `stages` stages in sequence,
// `tasks_per_stage` successful tasks each (task k of stage s lasts 100 + 10·k ms), then
// ApplicationEnd (unless `complete` is false).
std::string SyntheticEventLog(const std::string& app_id, int stages, int tasks_per_stage,
                              bool complete = true);

// SyntheticEventLog with a SparkListenerEnvironmentUpdate after ApplicationStart carrying
// `spark_properties` (name, value) as its "Spark Properties".
std::string SyntheticEventLogWithProperties(
    const std::string& app_id, int stages, int tasks_per_stage,
    const std::vector<std::pair<std::string, std::string>>& spark_properties);

// The synthetic log with task k on executor (k mod executors) + 1, each executor announced (one
// core each) after ApplicationStart.
std::string OnExecutors(const std::string& log, int executors);

}  // namespace perfplan::testing
