#include "tests/support/spark_codecs.h"

#include <lz4.h>
#include <lz4frame.h>
#include <snappy-c.h>
#include <xxhash.h>
#include <zlib.h>
#include <zstd.h>

#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace perfplan::testing {
namespace {

void PutLe32(std::string* out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
void PutBe32(std::string* out, std::uint32_t v) {
  for (int i = 3; i >= 0; --i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
void PutBe16(std::string* out, std::uint32_t v) {
  out->push_back(static_cast<char>((v >> 8) & 0xff));
  out->push_back(static_cast<char>(v & 0xff));
}

// Greedy LZF compressor: 3-byte hash matches within the 8 KiB window, literal runs of <= 32.
std::string LzfCompress(const std::string& in) {
  std::string out;
  const std::size_t n = in.size();
  std::vector<long> table(1 << 14, -1);
  std::size_t lit_start = 0, i = 0;
  auto flush = [&](std::size_t end) {
    while (lit_start < end) {
      std::size_t run = std::min<std::size_t>(32, end - lit_start);
      out.push_back(static_cast<char>(run - 1));
      out.append(in, lit_start, run);
      lit_start += run;
    }
  };
  while (i + 2 < n) {
    auto b = [&](std::size_t k) { return static_cast<unsigned char>(in[k]); };
    std::uint32_t h = ((b(i) << 16) | (b(i + 1) << 8) | b(i + 2)) * 2654435761u >> 18;
    long ref = table[h];
    table[h] = static_cast<long>(i);
    if (ref >= 0 && i - static_cast<std::size_t>(ref) - 1 < 8192 &&
        in.compare(static_cast<std::size_t>(ref), 3, in, i, 3) == 0) {
      flush(i);
      std::size_t len = 3;
      while (i + len < n && len < 264 && in[static_cast<std::size_t>(ref) + len] == in[i + len]) {
        ++len;
      }
      std::size_t off = i - static_cast<std::size_t>(ref) - 1;
      std::size_t l = len - 2;
      if (l < 7) {
        out.push_back(static_cast<char>((l << 5) | (off >> 8)));
      } else {
        out.push_back(static_cast<char>((7u << 5) | (off >> 8)));
        out.push_back(static_cast<char>(l - 7));
      }
      out.push_back(static_cast<char>(off & 0xff));
      i += len;
      lit_start = i;
    } else {
      ++i;
    }
  }
  flush(n);
  return out;
}

}  // namespace

std::string EncodeLz4Block(const std::string& data, std::size_t block_bytes) {
  std::string out;
  auto header = [&out](int method, std::uint32_t compressed, std::uint32_t raw,
                       std::uint32_t check) {
    out += "LZ4Block";
    out.push_back(static_cast<char>(method | 6));  // level nibble as lz4-java writes for 64 KiB
    PutLe32(&out, compressed);
    PutLe32(&out, raw);
    PutLe32(&out, check);
  };
  for (std::size_t at = 0; at < data.size(); at += block_bytes) {
    std::size_t raw = std::min(block_bytes, data.size() - at);
    std::string buf(static_cast<std::size_t>(LZ4_compressBound(static_cast<int>(raw))), '\0');
    int n = LZ4_compress_default(data.data() + at, buf.data(), static_cast<int>(raw),
                                 static_cast<int>(buf.size()));
    std::uint32_t check = XXH32(data.data() + at, raw, 0x9747b28c) & 0x0FFFFFFFu;
    if (n <= 0 || static_cast<std::size_t>(n) >= raw) {
      header(0x10, static_cast<std::uint32_t>(raw), static_cast<std::uint32_t>(raw), check);
      out.append(data, at, raw);
    } else {
      header(0x20, static_cast<std::uint32_t>(n), static_cast<std::uint32_t>(raw), check);
      out.append(buf.data(), static_cast<std::size_t>(n));
    }
  }
  header(0x10, 0, 0, 0);
  return out;
}

std::string EncodeSnappyStream(const std::string& data, std::size_t block_bytes) {
  std::string out("\x82SNAPPY\0", 8);
  PutBe32(&out, 1);
  PutBe32(&out, 1);
  for (std::size_t at = 0; at < data.size(); at += block_bytes) {
    std::size_t raw = std::min(block_bytes, data.size() - at);
    std::size_t len = snappy_max_compressed_length(raw);
    std::string buf(len, '\0');
    if (snappy_compress(data.data() + at, raw, buf.data(), &len) != SNAPPY_OK) {
      throw std::runtime_error("snappy_compress failed");
    }
    PutBe32(&out, static_cast<std::uint32_t>(len));
    out.append(buf.data(), len);
  }
  return out;
}

std::string EncodeLzf(const std::string& data, std::size_t chunk_bytes) {
  std::string out;
  for (std::size_t at = 0; at < data.size(); at += chunk_bytes) {
    std::string chunk = data.substr(at, chunk_bytes);
    std::string packed = LzfCompress(chunk);
    out += "ZV";
    if (packed.size() < chunk.size() && packed.size() <= 0xffff) {
      out.push_back('\x01');
      PutBe16(&out, static_cast<std::uint32_t>(packed.size()));
      PutBe16(&out, static_cast<std::uint32_t>(chunk.size()));
      out += packed;
    } else {
      out.push_back('\x00');
      PutBe16(&out, static_cast<std::uint32_t>(chunk.size()));
      out += chunk;
    }
  }
  return out;
}

std::string EncodeZstdFrames(const std::string& data, std::size_t chunk_bytes) {
  std::string out;
  for (std::size_t at = 0; at < data.size(); at += chunk_bytes) {
    std::size_t raw = std::min(chunk_bytes, data.size() - at);
    std::string buf(ZSTD_compressBound(raw), '\0');
    std::size_t n = ZSTD_compress(buf.data(), buf.size(), data.data() + at, raw, 3);
    if (ZSTD_isError(n)) throw std::runtime_error("ZSTD_compress failed");
    out.append(buf.data(), n);
  }
  return out;
}

std::string EncodeGzipMembers(const std::string& data, std::size_t chunk_bytes) {
  std::string out;
  for (std::size_t at = 0; at < data.size(); at += chunk_bytes) {
    std::size_t raw = std::min(chunk_bytes, data.size() - at);
    z_stream z{};
    deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
    std::string buf(deflateBound(&z, raw), '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data() + at));
    z.avail_in = static_cast<uInt>(raw);
    z.next_out = reinterpret_cast<Bytef*>(buf.data());
    z.avail_out = static_cast<uInt>(buf.size());
    deflate(&z, Z_FINISH);
    out.append(buf.data(), buf.size() - z.avail_out);
    deflateEnd(&z);
  }
  return out;
}

std::string SyntheticEventLog(const std::string& app_id, int stages, int tasks_per_stage,
                              bool complete) {
  const long t0 = 1700000000000;
  std::string log;
  log += R"({"Event":"SparkListenerLogStart","Spark Version":"3.4.1"})"
         "\n";
  log += R"({"Event":"SparkListenerApplicationStart","App Name":"synthetic","App ID":")" + app_id +
         R"(","Timestamp":)" + std::to_string(t0) +
         R"(,"User":"tester"})"
         "\n";
  std::string stage_infos, stage_ids;
  for (int s = 0; s < stages; ++s) {
    if (s) {
      stage_infos += ",";
      stage_ids += ",";
    }
    stage_infos += R"({"Stage ID":)" + std::to_string(s) +
                   R"(,"Stage Attempt ID":0,"Stage Name":"stage )" + std::to_string(s) +
                   R"(","Number of Tasks":)" + std::to_string(tasks_per_stage) +
                   R"(,"RDD Info":[],"Parent IDs":[],"Details":"","Accumulables":[]})";
    stage_ids += std::to_string(s);
  }
  log += R"({"Event":"SparkListenerJobStart","Job ID":0,"Submission Time":)" +
         std::to_string(t0 + 10) + R"(,"Stage Infos":[)" + stage_infos + R"(],"Stage IDs":[)" +
         stage_ids +
         R"(],"Properties":{}})"
         "\n";
  long now = t0 + 20;
  long task_id = 0;
  for (int s = 0; s < stages; ++s) {
    std::string info =
        R"({"Stage ID":)" + std::to_string(s) + R"(,"Stage Attempt ID":0,"Stage Name":"stage )" +
        std::to_string(s) + R"(","Number of Tasks":)" + std::to_string(tasks_per_stage) +
        R"(,"RDD Info":[],"Parent IDs":[],"Details":"","Submission Time":)" + std::to_string(now);
    log += R"({"Event":"SparkListenerStageSubmitted","Stage Info":)" + info +
           R"(,"Accumulables":[]},"Properties":{}})"
           "\n";
    long stage_end = now;
    for (int k = 0; k < tasks_per_stage; ++k, ++task_id) {
      long launch = now + k;
      long finish = launch + 100 + 10 * k;
      stage_end = std::max(stage_end, finish);
      std::string ti = R"({"Task ID":)" + std::to_string(task_id) + R"(,"Index":)" +
                       std::to_string(k) + R"(,"Attempt":0,"Partition ID":)" + std::to_string(k) +
                       R"(,"Launch Time":)" + std::to_string(launch) +
                       R"(,"Executor ID":"1","Host":"node1","Locality":"PROCESS_LOCAL",)"
                       R"("Speculative":false,"Getting Result Time":0,"Finish Time":)";
      log += R"({"Event":"SparkListenerTaskStart","Stage ID":)" + std::to_string(s) +
             R"(,"Stage Attempt ID":0,"Task Info":)" + ti +
             R"(0,"Failed":false,"Killed":false,)"
             R"("Accumulables":[]}})"
             "\n";
      log += R"({"Event":"SparkListenerTaskEnd","Stage ID":)" + std::to_string(s) +
             R"(,"Stage Attempt ID":0,"Task Type":"ResultTask","Task End Reason":{"Reason":)"
             R"("Success"},"Task Info":)" +
             ti + std::to_string(finish) +
             R"(,"Failed":false,"Killed":false,"Accumulables":[]},"Task Metrics":{)"
             R"("Executor Deserialize Time":2,"Executor Run Time":)" +
             std::to_string(90 + 10 * k) +
             R"(,"Result Size":1000,"JVM GC Time":1,"Input Metrics":{"Bytes Read":4096,)"
             R"("Records Read":10},"Shuffle Read Metrics":{"Remote Bytes Read":0,)"
             R"("Local Bytes Read":0},"Shuffle Write Metrics":{"Shuffle Bytes Written":0}}})"
             "\n";
    }
    log += R"({"Event":"SparkListenerStageCompleted","Stage Info":)" + info +
           R"(,"Completion Time":)" + std::to_string(stage_end) +
           R"(,"Accumulables":[]}})"
           "\n";
    now = stage_end + 5;
  }
  log += R"({"Event":"SparkListenerJobEnd","Job ID":0,"Completion Time":)" + std::to_string(now) +
         R"(,"Job Result":{"Result":"JobSucceeded"}})"
         "\n";
  if (complete) {
    log +=
        R"({"Event":"SparkListenerApplicationEnd","Timestamp":)" + std::to_string(now + 1) + "}\n";
  }
  return log;
}

std::string SyntheticEventLogWithProperties(
    const std::string& app_id, int stages, int tasks_per_stage,
    const std::vector<std::pair<std::string, std::string>>& spark_properties) {
  std::string log = SyntheticEventLog(app_id, stages, tasks_per_stage);
  std::string props;
  for (const auto& [name, value] : spark_properties) {
    props += (props.empty() ? "\"" : ",\"") + name + "\":\"" + value + "\"";
  }
  const std::string env = R"({"Event":"SparkListenerEnvironmentUpdate","JVM Information":{},)"
                          R"("Spark Properties":{)" +
                          props + R"(},"System Properties":{},"Classpath Entries":{}})" + "\n";
  const std::size_t second_line = log.find('\n', log.find('\n') + 1) + 1;
  log.insert(second_line, env);
  return log;
}

std::string EncodeLz4Frame(const std::string& data) {
  std::string out(LZ4F_compressFrameBound(data.size(), nullptr), '\0');
  std::size_t n = LZ4F_compressFrame(out.data(), out.size(), data.data(), data.size(), nullptr);
  if (LZ4F_isError(n)) throw std::runtime_error(LZ4F_getErrorName(n));
  out.resize(n);
  return out;
}

std::string OnExecutors(const std::string& log, int executors) {
  std::istringstream in(log);
  std::string out, line;
  bool announced = false;
  while (std::getline(in, line)) {
    const std::size_t id = line.find("\"Task ID\":");
    if (id != std::string::npos) {
      const long task = std::stol(line.substr(id + 10));
      const std::string from = "\"Executor ID\":\"1\"";
      const std::size_t at = line.find(from);
      if (at != std::string::npos) {
        line.replace(at, from.size(),
                     "\"Executor ID\":\"" + std::to_string(task % executors + 1) + "\"");
      }
    }
    out += line + "\n";
    if (!announced && line.find("SparkListenerApplicationStart") != std::string::npos) {
      announced = true;
      for (int e = 1; e <= executors; ++e) {
        out += R"({"Event":"SparkListenerExecutorAdded","Timestamp":1700000000005,"Executor ID":")" +
               std::to_string(e) +
               R"(","Executor Info":{"Host":"node)" + std::to_string(e) +
               R"(","Total Cores":1,"Log Urls":{}}})"
               "\n";
      }
    }
  }
  return out;
}

}  // namespace perfplan::testing
