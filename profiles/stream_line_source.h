// The bytes of a std::istream (stdin of a Hadoop Streaming task or of an RDD.pipe process) as a
// LineSource, 64 KiB at a time, for the map and reduce steps that read records on stdin
// (planner/hdfs/hdfs_streaming.cpp, planner/spark/spark_streaming.cpp). Not thread-safe.
#pragma once

#include <istream>
#include <string>

#include "profiles/line_reader.h"

namespace perfplan::profiles {

class IstreamLineSource : public LineSource {
 public:
  explicit IstreamLineSource(std::istream& in) : in_(in) {}
  bool Read(std::string* out) override {
    char chunk[1 << 16];
    const std::streamsize n = in_.rdbuf()->sgetn(chunk, sizeof chunk);
    if (n <= 0) {
      in_.setstate(std::ios::eofbit);
      return false;
    }
    out->append(chunk, static_cast<std::size_t>(n));
    return true;
  }

 private:
  std::istream& in_;
};

}  // namespace perfplan::profiles
