// The task metrics of a Spark event log, in one table used by the store schema, the ingester and
// the History-Server-compatible answers, so a metric is named in one place only.
#pragma once

#include <array>
#include <string_view>

namespace perfplan::profiles::spark::detail {

struct TaskMetricSpec {
  std::string_view column;     // column of spark_tasks (units in the name)
  std::string_view log_group;  // object inside "Task Metrics" ("" = top level; "Push" = the
                               // "Push Based Shuffle" object inside "Shuffle Read Metrics")
  std::string_view log_field;  // key in the event log
  std::string_view api_group;  // object in the REST taskMetrics ("" = top level)
  std::string_view api_field;  // key in the REST taskMetrics
};

inline constexpr std::array<TaskMetricSpec, 34> kTaskMetrics = {{
    {"executor_deserialize_time_ms", "", "Executor Deserialize Time", "",
     "executorDeserializeTime"},
    {"executor_deserialize_cpu_time_ns", "", "Executor Deserialize CPU Time", "",
     "executorDeserializeCpuTime"},
    {"executor_run_time_ms", "", "Executor Run Time", "", "executorRunTime"},
    {"executor_cpu_time_ns", "", "Executor CPU Time", "", "executorCpuTime"},
    {"result_size_bytes", "", "Result Size", "", "resultSize"},
    {"jvm_gc_time_ms", "", "JVM GC Time", "", "jvmGcTime"},
    {"result_serialization_time_ms", "", "Result Serialization Time", "",
     "resultSerializationTime"},
    {"memory_bytes_spilled", "", "Memory Bytes Spilled", "", "memoryBytesSpilled"},
    {"disk_bytes_spilled", "", "Disk Bytes Spilled", "", "diskBytesSpilled"},
    {"peak_execution_memory_bytes", "", "Peak Execution Memory", "", "peakExecutionMemory"},
    {"input_bytes", "Input Metrics", "Bytes Read", "inputMetrics", "bytesRead"},
    {"input_records", "Input Metrics", "Records Read", "inputMetrics", "recordsRead"},
    {"output_bytes", "Output Metrics", "Bytes Written", "outputMetrics", "bytesWritten"},
    {"output_records", "Output Metrics", "Records Written", "outputMetrics", "recordsWritten"},
    {"shuffle_remote_blocks_fetched", "Shuffle Read Metrics", "Remote Blocks Fetched",
     "shuffleReadMetrics", "remoteBlocksFetched"},
    {"shuffle_local_blocks_fetched", "Shuffle Read Metrics", "Local Blocks Fetched",
     "shuffleReadMetrics", "localBlocksFetched"},
    {"shuffle_fetch_wait_time_ms", "Shuffle Read Metrics", "Fetch Wait Time", "shuffleReadMetrics",
     "fetchWaitTime"},
    {"shuffle_remote_bytes_read", "Shuffle Read Metrics", "Remote Bytes Read", "shuffleReadMetrics",
     "remoteBytesRead"},
    {"shuffle_remote_bytes_read_to_disk", "Shuffle Read Metrics", "Remote Bytes Read To Disk",
     "shuffleReadMetrics", "remoteBytesReadToDisk"},
    {"shuffle_local_bytes_read", "Shuffle Read Metrics", "Local Bytes Read", "shuffleReadMetrics",
     "localBytesRead"},
    {"shuffle_records_read", "Shuffle Read Metrics", "Total Records Read", "shuffleReadMetrics",
     "recordsRead"},
    {"shuffle_remote_reqs_duration_ms", "Shuffle Read Metrics", "Remote Requests Duration",
     "shuffleReadMetrics", "remoteReqsDuration"},
    {"push_corrupt_merged_block_chunks", "Push", "Corrupt Merged Block Chunks",
     "shufflePushReadMetrics", "corruptMergedBlockChunks"},
    {"push_merged_fetch_fallback_count", "Push", "Merged Fetch Fallback Count",
     "shufflePushReadMetrics", "mergedFetchFallbackCount"},
    {"push_remote_merged_blocks_fetched", "Push", "Merged Remote Blocks Fetched",
     "shufflePushReadMetrics", "remoteMergedBlocksFetched"},
    {"push_local_merged_blocks_fetched", "Push", "Merged Local Blocks Fetched",
     "shufflePushReadMetrics", "localMergedBlocksFetched"},
    {"push_remote_merged_chunks_fetched", "Push", "Merged Remote Chunks Fetched",
     "shufflePushReadMetrics", "remoteMergedChunksFetched"},
    {"push_local_merged_chunks_fetched", "Push", "Merged Local Chunks Fetched",
     "shufflePushReadMetrics", "localMergedChunksFetched"},
    {"push_remote_merged_bytes_read", "Push", "Merged Remote Bytes Read", "shufflePushReadMetrics",
     "remoteMergedBytesRead"},
    {"push_local_merged_bytes_read", "Push", "Merged Local Bytes Read", "shufflePushReadMetrics",
     "localMergedBytesRead"},
    {"push_remote_merged_reqs_duration_ms", "Push", "Merged Remote Requests Duration",
     "shufflePushReadMetrics", "remoteMergedReqsDuration"},
    {"shuffle_bytes_written", "Shuffle Write Metrics", "Shuffle Bytes Written",
     "shuffleWriteMetrics", "bytesWritten"},
    {"shuffle_write_time_ns", "Shuffle Write Metrics", "Shuffle Write Time", "shuffleWriteMetrics",
     "writeTime"},
    {"shuffle_records_written", "Shuffle Write Metrics", "Shuffle Records Written",
     "shuffleWriteMetrics", "recordsWritten"},
}};

}  // namespace perfplan::profiles::spark::detail
