// RRD exports of Ganglia data: Ambari's rrd.py text protocol and ganglia-web's graph.php JSON,
// plus ReadGangliaFile, which tells the three file kinds apart.
#include <charconv>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "profiles/json_depth.h"
#include "profiles/ganglia/ganglia.h"
#include "models/input_file.h"
#include "models/json_text.h"

namespace perfplan::profiles {
namespace {

constexpr const char* kSummaryHost = "__SummaryInfo__";
// Bounds that keep the time arithmetic exact (the points' bound is kMaxAmbariPoints in ganglia.h).
constexpr double kMaxEpoch = 9.0e15;
constexpr double kMaxStepSeconds = 1.0e9;
constexpr const char* kSplitIt =
    " (points and gaps over all its series; split the export by host or time)";

bool EpochInRange(double v) { return v >= -kMaxEpoch && v <= kMaxEpoch; }

std::optional<double> ParseNumber(std::string_view text) {
  while (!text.empty() && (text.back() == '\r' || text.back() == ' ')) text.remove_suffix(1);
  if (text.empty()) return std::nullopt;
  double v = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || ptr != text.data() + text.size() || !std::isfinite(v)) {
    return std::nullopt;
  }
  return v;
}

// Lines of a text with their 1-based numbers; a trailing "\r" is dropped.
class Lines {
 public:
  explicit Lines(std::string_view text) : text_(text) {}
  bool Next(std::string_view& line) {
    if (pos_ >= text_.size()) return false;
    std::size_t end = text_.find('\n', pos_);
    if (end == std::string_view::npos) end = text_.size();
    line = text_.substr(pos_, end - pos_);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    pos_ = end + 1;
    ++number_;
    return true;
  }
  int number() const { return number_; }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
  int number_ = 0;
};

}  // namespace

Result<GangliaExport> ParseAmbariRrdText(std::string_view text, const std::string& origin,
                                         std::int64_t max_points) {
  GangliaExport out;
  // Points and gaps of the series already read; with the current one's, at most max_points.
  std::int64_t earlier_points = 0;
  out.format = "ambari-rrd-text";
  Lines lines(text);
  std::string_view line;
  auto where = [&] { return origin + ":" + std::to_string(lines.number()) + ": "; };
  if (!lines.Next(line)) return Status::InvalidArgument(origin + ": empty file");
  const std::optional<double> server = ParseNumber(line);
  if (!server || !EpochInRange(*server)) {
    return Status::InvalidArgument(where() + "first line '" + std::string(line) +
                                   "' is not the server epoch (a number)");
  }
  out.server_epoch = static_cast<std::int64_t>(*server);
  while (true) {
    if (!lines.Next(line)) {
      return Status::InvalidArgument(origin + ": ends after line " +
                                     std::to_string(lines.number()) +
                                     " without [~EOF] (the export was cut off)");
    }
    if (line == "[~EOF]") break;
    GangliaSeries s;
    s.ds_name = std::string(line);
    const char* kHeader[] = {"cluster name", "host name", "metric name", "start epoch",
                             "step seconds"};
    std::string fields[5];
    for (int i = 0; i < 5; ++i) {
      if (!lines.Next(line)) {
        return Status::InvalidArgument(origin + ": block '" + s.ds_name + "' ends before its " +
                                       kHeader[i]);
      }
      fields[i] = std::string(line);
    }
    s.cluster = fields[0];
    s.host = fields[1].empty() ? kSummaryHost : fields[1];
    s.metric = fields[2];
    const std::optional<double> start = ParseNumber(fields[3]);
    const std::optional<double> step = ParseNumber(fields[4]);
    if (!start || !EpochInRange(*start)) {
      return Status::InvalidArgument(origin + ":" + std::to_string(lines.number() - 1) +
                                     ": start epoch '" + fields[3] + "' is not a number");
    }
    if (!step || *step < 1 || *step > kMaxStepSeconds) {
      return Status::InvalidArgument(where() + "step '" + fields[4] +
                                     "' is not a number of seconds in [1, 1e9]");
    }
    s.step_seconds = static_cast<std::int64_t>(*step);
    std::int64_t time = static_cast<std::int64_t>(*start);
    double last = 0;
    bool last_present = false;  // false: the previous line was "[~n]"
    bool have_last = false;     // any value line seen yet
    auto points_so_far = [&] {
      return earlier_points + static_cast<std::int64_t>(s.points.size() + s.missing);
    };
    while (true) {
      if (!lines.Next(line)) {
        return Status::InvalidArgument(origin + ": series " + s.cluster + "/" + s.host + "/" +
                                       s.metric + " ends without [~EOM]");
      }
      if (line == "[~EOM]") break;
      if (line.rfind("[~r]", 0) == 0) {
        std::int64_t repeat = 0;
        std::string_view n = line.substr(4);
        auto [ptr, ec] = std::from_chars(n.data(), n.data() + n.size(), repeat);
        if (n.empty() || ec != std::errc() || ptr != n.data() + n.size() || repeat < 1) {
          return Status::InvalidArgument(where() + "repeat '" + std::string(line) +
                                         "' needs a count >= 1 after [~r]");
        }
        if (repeat - 1 > max_points - points_so_far()) {
          return Status::InvalidArgument(where() + "repeat '" + std::string(line) +
                                         "' makes the export longer than " +
                                         std::to_string(max_points) + " points" + kSplitIt);
        }
        if (!have_last) {
          return Status::InvalidArgument(where() + "repeat '" + std::string(line) +
                                         "' has no previous value to repeat");
        }
        // As Ambari's GangliaPropertyProvider reads it: N counts the value already given, so
        // N - 1 more points follow.
        for (std::int64_t i = 0; i + 1 < repeat; ++i) {
          if (last_present) {
            s.points.emplace_back(time, last);
          } else {
            ++s.missing;
          }
          time += s.step_seconds;
        }
        continue;
      }
      if (points_so_far() >= max_points) {
        return Status::InvalidArgument(where() + "the export holds more than " +
                                       std::to_string(max_points) + " points" + kSplitIt);
      }
      if (line == "[~n]") {
        last_present = false;
        ++s.missing;
      } else {
        const std::optional<double> v = ParseNumber(line);
        if (!v) {
          return Status::InvalidArgument(where() + "value '" + std::string(line) +
                                         "' is not a number, [~n], [~r]N or [~EOM]");
        }
        last = *v;
        last_present = true;
        s.points.emplace_back(time, last);
      }
      have_last = true;
      time += s.step_seconds;
    }
    earlier_points = points_so_far();
    out.series.push_back(std::move(s));
  }
  return out;
}

Result<GangliaExport> ParseGangliaWebJson(std::string_view text, const std::string& origin) {
  // Copying a parsed tree recurses per level: refuse absurd nesting before parsing.
  if (JsonDeeperThan(text, kMaxJsonDepth)) {
    return Status::InvalidArgument(origin + ": malformed JSON: arrays/objects nested deeper than " +
                                   std::to_string(kMaxJsonDepth) + " levels");
  }
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::parse_error& e) {
    return Status::InvalidArgument(origin + ": byte " + std::to_string(e.byte) +
                                   ": malformed JSON: " + e.what());
  } catch (const nlohmann::json::exception& e) {  // e.g. a number too large for a double
    return Status::InvalidArgument(origin + ": malformed JSON: " + e.what());
  }
  if (!doc.is_array()) {
    return Status::InvalidArgument(origin +
                                   ": expected a JSON array of series objects (ganglia-web "
                                   "graph.php?json=1)");
  }
  GangliaExport out;
  out.format = "ganglia-web-json";
  for (std::size_t i = 0; i < doc.size(); ++i) {
    const nlohmann::json& o = doc[i];
    const std::string at = origin + ": [" + std::to_string(i) + "]";
    if (!o.is_object()) return Status::InvalidArgument(at + ": expected an object");
    auto text_field = [&](const char* key, std::string& dst) -> Status {
      auto it = o.find(key);
      if (it == o.end() || it->is_null()) return Status::Ok();
      if (!it->is_string()) return Status::InvalidArgument(at + "." + key + ": expected a string");
      dst = it->get<std::string>();
      return Status::Ok();
    };
    GangliaSeries s;
    for (auto [key, dst] : {std::pair{"ds_name", &s.ds_name}, std::pair{"cluster_name", &s.cluster},
                            std::pair{"host_name", &s.host}, std::pair{"metric_name", &s.metric}}) {
      if (Status st = text_field(key, *dst); !st.ok()) return st;
    }
    if (s.host.empty()) s.host = kSummaryHost;
    auto dp = o.find("datapoints");
    if (dp == o.end() || !dp->is_array()) {
      return Status::InvalidArgument(at + ".datapoints: expected an array of [value, epoch]");
    }
    for (std::size_t k = 0; k < dp->size(); ++k) {
      const nlohmann::json& p = (*dp)[k];
      const std::string pat = at + ".datapoints[" + std::to_string(k) + "]";
      if (!p.is_array() || p.size() != 2 || !p[1].is_number()) {
        return Status::InvalidArgument(pat + ": expected [value, epoch] with a numeric epoch");
      }
      const double epoch_value = p[1].get<double>();
      if (!(epoch_value >= -9.0e15 && epoch_value <= 9.0e15) ||
          epoch_value != std::floor(epoch_value)) {
        return Status::InvalidArgument(pat + "[1]: epoch " + JsonText(p[1]) +
                                       " is not a whole number of seconds");
      }
      const std::int64_t epoch = p[1].is_number_integer() ? p[1].get<std::int64_t>()
                                                          : static_cast<std::int64_t>(epoch_value);
      // ganglia-web writes unknown RRD values as null or the string "NaN".
      if (p[0].is_null() || (p[0].is_string() && (p[0] == "NaN" || p[0] == "nan"))) {
        ++s.missing;
        continue;
      }
      if (!p[0].is_number()) {
        return Status::InvalidArgument(pat + "[0]: value " + JsonText(p[0]) +
                                       " is not a number, null or \"NaN\"");
      }
      s.points.emplace_back(epoch, p[0].get<double>());
    }
    out.series.push_back(std::move(s));
  }
  return out;
}

Result<GangliaFile> ReadGangliaFile(const std::string& path) {
  Result<std::string> read = ReadInputFile(path);
  if (!read.ok()) return read.status();
  const std::string& text = read.value();
  const std::size_t first = text.find_first_not_of(" \t\r\n\xEF\xBB\xBF");
  if (first == std::string::npos) return Status::InvalidArgument(path + ": empty file");
  GangliaFile out;
  const char c = text[first];
  if (c == '<') {
    Result<GangliaSnapshot> s = ParseGangliaXml(text, path);
    if (!s.ok()) return s.status();
    out.kind = GangliaFileKind::kXml;
    out.snapshot = std::move(s).value();
  } else if (c == '[' || c == '{') {
    Result<GangliaExport> e = ParseGangliaWebJson(text, path);
    if (!e.ok()) return e.status();
    out.kind = GangliaFileKind::kGangliaWebJson;
    out.exported = std::move(e).value();
  } else if ((c >= '0' && c <= '9') || c == '-') {
    Result<GangliaExport> e = ParseAmbariRrdText(text, path);
    if (!e.ok()) return e.status();
    out.kind = GangliaFileKind::kAmbariText;
    out.exported = std::move(e).value();
  } else {
    return Status::InvalidArgument(
        path +
        ": not a Ganglia file (expected gmond/gmetad XML, ganglia-web JSON or Ambari "
        "rrd.py text; first byte is '" +
        std::string(1, c) + "')");
  }
  return out;
}

}  // namespace perfplan::profiles
