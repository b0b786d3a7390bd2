// libFuzzer target for HDFS log lines (profiles/hdfs/hdfs_log.h): NameNode audit, NameNode
// state-change and DataNode clienttrace lines under every log4j layout. The input is split at
// '\n' and each line is parsed and counted as `ingest hdfs` does; a record's fields are copied
// out. Any line must get a kind (garbled ones a reason) — never a crash, a sanitizer report or a
// hang. Run with scripts/fuzz.sh.
#include <cstdint>
#include <string_view>

#include "profiles/hdfs/hdfs_log.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view rest(reinterpret_cast<const char*>(data), size);
  perfplan::profiles::HdfsParseCounts counts;
  perfplan::profiles::HdfsLine line;
  while (true) {
    const std::size_t end = rest.find('\n');
    perfplan::profiles::ParseHdfsLine(rest.substr(0, end), &line);
    if (line.kind == perfplan::profiles::HdfsLineKind::kGarbled && line.reason.empty()) {
      __builtin_trap();
    }
    switch (line.kind) {
      case perfplan::profiles::HdfsLineKind::kAudit:
        (void)line.audit.ToRecord();
        break;
      case perfplan::profiles::HdfsLineKind::kTransfer:
        (void)line.transfer.ToRecord();
        break;
      case perfplan::profiles::HdfsLineKind::kBlock:
        (void)line.block.ToRecord();
        break;
      default:
        break;
    }
    counts.Add(line);
    if (end == std::string_view::npos) break;
    rest.remove_prefix(end + 1);
  }
  std::size_t consumed = 0;
  (void)perfplan::profiles::ParseLog4jTime(
      std::string_view(reinterpret_cast<const char*>(data), size), &consumed);
  (void)perfplan::profiles::NormalizeBlockId(
      std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
