// Ganglia XML (gmond and gmetad) through pugixml. pugixml types stay in this file.
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <utility>
#include <pugixml.hpp>

#include "profiles/ganglia/ganglia.h"

namespace perfplan::profiles {

std::string_view ToString(GangliaType type) {
  switch (type) {
    case GangliaType::kString:
      return "string";
    case GangliaType::kInt8:
      return "int8";
    case GangliaType::kUint8:
      return "uint8";
    case GangliaType::kInt16:
      return "int16";
    case GangliaType::kUint16:
      return "uint16";
    case GangliaType::kInt32:
      return "int32";
    case GangliaType::kUint32:
      return "uint32";
    case GangliaType::kFloat:
      return "float";
    case GangliaType::kDouble:
      return "double";
    case GangliaType::kTimestamp:
      return "timestamp";
  }
  return "string";
}

std::optional<GangliaType> GangliaTypeFromString(std::string_view text) {
  static constexpr GangliaType kAll[] = {
      GangliaType::kString, GangliaType::kInt8,     GangliaType::kUint8,  GangliaType::kInt16,
      GangliaType::kUint16, GangliaType::kInt32,    GangliaType::kUint32, GangliaType::kFloat,
      GangliaType::kDouble, GangliaType::kTimestamp};
  for (GangliaType t : kAll) {
    if (ToString(t) == text) return t;
  }
  return std::nullopt;
}

bool IsNumeric(GangliaType type) { return type != GangliaType::kString; }

std::string_view ToString(GangliaSlope slope) {
  switch (slope) {
    case GangliaSlope::kUnspecified:
      return "unspecified";
    case GangliaSlope::kZero:
      return "zero";
    case GangliaSlope::kPositive:
      return "positive";
    case GangliaSlope::kNegative:
      return "negative";
    case GangliaSlope::kBoth:
      return "both";
    case GangliaSlope::kDerivative:
      return "derivative";
  }
  return "unspecified";
}

std::string GangliaMetric::Group() const {
  for (const auto& [k, v] : extra) {
    if (k == "GROUP") return v;
  }
  return "";
}

std::size_t GangliaSnapshot::MetricCount() const {
  std::size_t n = 0;
  for (const GangliaCluster& c : clusters) {
    for (const GangliaHost& h : c.hosts) n += h.metrics.size();
  }
  return n;
}

namespace {

// Thrown inside the walk only; converted to a Status at the function boundary.
struct XmlError {
  std::ptrdiff_t offset;
  std::string message;
};

class Walker {
 public:
  explicit Walker(std::string_view xml) : xml_(xml) {}

  // `offset` into the parsed part, which starts `base` bytes into the text (after a banner).
  std::string Locate(std::ptrdiff_t offset, std::size_t base = 0) const {
    if (offset < 0) offset = 0;
    offset += static_cast<std::ptrdiff_t>(base);
    const std::size_t end = std::min<std::size_t>(static_cast<std::size_t>(offset), xml_.size());
    std::size_t line = 1, col = 1;
    for (std::size_t i = 0; i < end; ++i) {
      if (xml_[i] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
    return std::to_string(line) + ":" + std::to_string(col) + " (byte " + std::to_string(end) + ")";
  }

  void Document(const pugi::xml_node& root, GangliaSnapshot& out) {
    out.version = root.attribute("VERSION").value();
    out.source = root.attribute("SOURCE").value();
    for (pugi::xml_node child = root.first_child(); child; child = child.next_sibling()) {
      if (child.type() != pugi::node_element) continue;
      Container(child, "", out);
    }
  }

 private:
  void Container(const pugi::xml_node& node, const std::string& grid, GangliaSnapshot& out) {
    const char* tag = node.name();
    if (std::strcmp(tag, "GRID") == 0) {
      GangliaGridSummary g;
      g.name = Required(node, "NAME", "GRID");
      g.authority = node.attribute("AUTHORITY").value();
      g.localtime_epoch = Integer(node, "LOCALTIME", "GRID '" + g.name + "'", 0);
      const std::size_t index = out.grids.size();
      out.grids.push_back(std::move(g));
      for (pugi::xml_node child = node.first_child(); child; child = child.next_sibling()) {
        if (child.type() != pugi::node_element) continue;
        const std::string what = "GRID '" + out.grids[index].name + "'";
        if (std::strcmp(child.name(), "HOSTS") == 0) {
          out.grids[index].hosts_summary = HostsSummary(child, what);
        } else if (std::strcmp(child.name(), "METRICS") == 0) {
          out.grids[index].metric_summaries.push_back(MetricsSummary(child, what));
        } else {
          Container(child, out.grids[index].name, out);
        }
      }
    } else if (std::strcmp(tag, "HOST") == 0) {
      // Ganglia 2.5.x gmond answers put HOST directly under GANGLIA_XML (its DTD still allows
      // GRID|CLUSTER|HOST): such hosts form one unnamed cluster per enclosing grid.
      auto [it, added] = bare_clusters_.try_emplace(grid, out.clusters.size());
      if (added) {
        GangliaCluster c;
        c.grid = grid;
        out.clusters.push_back(std::move(c));
      }
      out.clusters[it->second].hosts.push_back(Host(node));
    } else if (std::strcmp(tag, "CLUSTER") == 0) {
      GangliaCluster c;
      c.grid = grid;
      c.name = Required(node, "NAME", "CLUSTER");
      const std::string what = "CLUSTER '" + c.name + "'";
      c.localtime_epoch = Integer(node, "LOCALTIME", what, 0);
      c.owner = node.attribute("OWNER").value();
      c.latlong = node.attribute("LATLONG").value();
      c.url = node.attribute("URL").value();
      for (pugi::xml_node child = node.first_child(); child; child = child.next_sibling()) {
        if (child.type() != pugi::node_element) continue;
        const char* name = child.name();
        if (std::strcmp(name, "HOST") == 0) {
          c.hosts.push_back(Host(child));
        } else if (std::strcmp(name, "HOSTS") == 0) {
          c.hosts_summary = HostsSummary(child, what);
        } else if (std::strcmp(name, "METRICS") == 0) {
          c.metric_summaries.push_back(MetricsSummary(child, what));
        } else {
          Fail(child, what + ": unexpected element <" + std::string(name) +
                          "> (expected HOST, HOSTS or METRICS)");
        }
      }
      out.clusters.push_back(std::move(c));
    } else {
      Fail(node, "unexpected element <" + std::string(tag) + "> under " +
                     (grid.empty() ? std::string("GANGLIA_XML") : "GRID '" + grid + "'") +
                     " (expected GRID, CLUSTER or HOST)");
    }
  }

  GangliaHost Host(const pugi::xml_node& node) {
    GangliaHost h;
    h.name = Required(node, "NAME", "HOST");
    const std::string what = "HOST '" + h.name + "'";
    h.ip = node.attribute("IP").value();
    h.reported_epoch = Integer(node, "REPORTED", what, 0);
    h.tn_seconds = Integer(node, "TN", what, 0);
    h.tmax_seconds = Integer(node, "TMAX", what, 0);
    h.dmax_seconds = Integer(node, "DMAX", what, 0);
    h.gmond_started_epoch = Integer(node, "GMOND_STARTED", what, 0);
    h.location = node.attribute("LOCATION").value();
    std::size_t children = 0;
    for (pugi::xml_node child = node.first_child(); child; child = child.next_sibling()) ++children;
    h.metrics.reserve(children);
    for (pugi::xml_node child = node.first_child(); child; child = child.next_sibling()) {
      if (child.type() != pugi::node_element) continue;
      if (std::strcmp(child.name(), "METRIC") != 0) {
        Fail(child,
             what + ": unexpected element <" + std::string(child.name()) + "> (expected METRIC)");
      }
      h.metrics.push_back(Metric(child, what));
    }
    return h;
  }

  GangliaMetric Metric(const pugi::xml_node& node, const std::string& host_what) {
    GangliaMetric m;
    const char* name = nullptr;
    const char* val = nullptr;
    const char* type = nullptr;
    const char* slope = nullptr;
    const char* tn = nullptr;
    const char* tmax = nullptr;
    const char* dmax = nullptr;
    // One pass over the attributes: a gmetad document has hundreds of thousands of METRICs.
    for (pugi::xml_attribute a = node.first_attribute(); a; a = a.next_attribute()) {
      const char* n = a.name();
      switch (n[0]) {
        case 'N':
          if (std::strcmp(n, "NAME") == 0) name = a.value();
          break;
        case 'V':
          if (std::strcmp(n, "VAL") == 0) val = a.value();
          break;
        case 'U':
          if (std::strcmp(n, "UNITS") == 0) m.units = a.value();
          break;
        case 'S':
          if (std::strcmp(n, "SLOPE") == 0) {
            slope = a.value();
          } else if (std::strcmp(n, "SOURCE") == 0) {
            m.source = a.value();
          }
          break;
        case 'T':
          if (std::strcmp(n, "TYPE") == 0) {
            type = a.value();
          } else if (std::strcmp(n, "TN") == 0) {
            tn = a.value();
          } else if (std::strcmp(n, "TMAX") == 0) {
            tmax = a.value();
          }
          break;
        case 'D':
          if (std::strcmp(n, "DMAX") == 0) dmax = a.value();
          break;
        default:
          break;
      }
    }
    if (name == nullptr) Fail(node, host_what + ": METRIC without NAME");
    m.name = name;
    // The location text is built only when something is wrong.
    auto what = [&] { return host_what + " METRIC '" + m.name + "'"; };
    if (val == nullptr) Fail(node, what() + ": missing VAL");
    if (type == nullptr) Fail(node, what() + ": missing TYPE");
    m.text = val;
    m.type = Type(node, type, what);
    if (slope != nullptr) m.slope = Slope(node, slope, what);
    m.tn_seconds = IntegerText(node, tn, "TN", what, 0);
    m.tmax_seconds = IntegerText(node, tmax, "TMAX", what, 0);
    m.dmax_seconds = IntegerText(node, dmax, "DMAX", what, 0);
    if (IsNumeric(m.type)) m.value = Value(node, m.text, m.type, what);
    Extra(node, m.extra);
    return m;
  }

  GangliaHostSummary HostsSummary(const pugi::xml_node& node, const std::string& parent) {
    GangliaHostSummary s;
    const std::string what = parent + " HOSTS";
    s.up = Integer(node, "UP", what, std::nullopt);
    s.down = Integer(node, "DOWN", what, std::nullopt);
    s.source = node.attribute("SOURCE").value();
    return s;
  }

  GangliaMetricSummary MetricsSummary(const pugi::xml_node& node, const std::string& parent) {
    GangliaMetricSummary s;
    s.name = Required(node, "NAME", parent + " METRICS");
    const std::string what = parent + " METRICS '" + s.name + "'";
    s.type = Type(node, Required(node, "TYPE", what).c_str(), what);
    const std::string sum = Required(node, "SUM", what);
    // gmetad sums every TYPE, strings included (as 0); the sum is always a decimal number.
    const std::optional<double> v = ParseDouble(sum);
    if (!v) Fail(node, what + ": SUM '" + sum + "' is not a number");
    s.sum = *v;
    s.num = Integer(node, "NUM", what, std::nullopt);
    s.units = node.attribute("UNITS").value();
    if (pugi::xml_attribute a = node.attribute("SLOPE")) s.slope = Slope(node, a.value(), what);
    s.source = node.attribute("SOURCE").value();
    Extra(node, s.extra);
    return s;
  }

  void Extra(const pugi::xml_node& node, std::vector<std::pair<std::string, std::string>>& extra) {
    for (pugi::xml_node data = node.child("EXTRA_DATA"); data;
         data = data.next_sibling("EXTRA_DATA")) {
      for (pugi::xml_node e = data.child("EXTRA_ELEMENT"); e; e = e.next_sibling("EXTRA_ELEMENT")) {
        extra.emplace_back(e.attribute("NAME").value(), e.attribute("VAL").value());
      }
    }
  }

  // `what` names the element in errors: a string, or a callable building it on demand.
  static std::string Text(const std::string& what) { return what; }
  template <typename F>
  static std::string Text(const F& what) {
    return what();
  }

  template <typename What>
  GangliaType Type(const pugi::xml_node& node, const char* text, const What& what) {
    std::optional<GangliaType> t = GangliaTypeFromString(text);
    if (!t) {
      Fail(node, Text(what) + ": unknown TYPE '" + std::string(text) +
                     "' (expected string, int8, uint8, int16, uint16, int32, uint32, float, "
                     "double or timestamp)");
    }
    return *t;
  }

  template <typename What>
  GangliaSlope Slope(const pugi::xml_node& node, const char* text, const What& what) {
    static constexpr GangliaSlope kAll[] = {GangliaSlope::kUnspecified, GangliaSlope::kZero,
                                            GangliaSlope::kPositive,    GangliaSlope::kNegative,
                                            GangliaSlope::kBoth,        GangliaSlope::kDerivative};
    for (GangliaSlope s : kAll) {
      if (ToString(s) == text) return s;
    }
    Fail(node, Text(what) + ": unknown SLOPE '" + std::string(text) +
                   "' (expected zero, positive, negative, both, unspecified or derivative)");
    return GangliaSlope::kUnspecified;
  }

  static std::optional<double> ParseDouble(std::string_view text) {
    // Leading/trailing blanks are tolerated (gmetad pads some sums); nothing else.
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
    if (text.empty()) return std::nullopt;
    double v = 0;
    const char* begin = text.data();
    if (*begin == '+') ++begin;
    auto [ptr, ec] = std::from_chars(begin, text.data() + text.size(), v);
    if (ec != std::errc() || ptr != text.data() + text.size() || !std::isfinite(v)) {
      return std::nullopt;
    }
    return v;
  }

  template <typename T>
  static std::pair<double, double> RangeOf() {
    return {static_cast<double>(std::numeric_limits<T>::min()),
            static_cast<double>(std::numeric_limits<T>::max())};
  }

  // The values an integer type of gmond holds (int8 … uint32, timestamp as uint32); {0, 0} for
  // the others.
  static std::pair<double, double> IntegerRange(GangliaType type) {
    switch (type) {
      case GangliaType::kInt8:
        return RangeOf<std::int8_t>();
      case GangliaType::kUint8:
        return RangeOf<std::uint8_t>();
      case GangliaType::kInt16:
        return RangeOf<std::int16_t>();
      case GangliaType::kUint16:
        return RangeOf<std::uint16_t>();
      case GangliaType::kInt32:
        return RangeOf<std::int32_t>();
      case GangliaType::kUint32:
      case GangliaType::kTimestamp:
        return RangeOf<std::uint32_t>();
      default:
        return {0, 0};
    }
  }

  template <typename What>
  double Value(const pugi::xml_node& node, const std::string& text, GangliaType type,
               const What& what) {
    const std::optional<double> v = ParseDouble(text);
    if (type == GangliaType::kFloat || type == GangliaType::kDouble) {
      if (!v)
        Fail(node, Text(what) + ": VAL '" + text + "' is not a " + std::string(ToString(type)));
      return *v;
    }
    const auto [lo, hi] = IntegerRange(type);
    if (!v || *v != std::floor(*v) || *v < lo || *v > hi) {
      Fail(node, Text(what) + ": VAL '" + text + "' is not a " + std::string(ToString(type)) +
                     " (an " + "integer in [" + std::to_string(static_cast<long long>(lo)) + ", " +
                     std::to_string(static_cast<long long>(hi)) + "])");
    }
    return *v;
  }

  std::string Required(const pugi::xml_node& node, const char* attr, const std::string& what) {
    pugi::xml_attribute a = node.attribute(attr);
    if (!a) Fail(node, what + ": missing " + attr);
    return a.value();
  }

  std::int64_t Integer(const pugi::xml_node& node, const char* attr, const std::string& what,
                       std::optional<std::int64_t> fallback) {
    pugi::xml_attribute a = node.attribute(attr);
    if (!a) {
      if (!fallback) Fail(node, what + ": missing " + attr);
      return *fallback;
    }
    return IntegerText(node, a.value(), attr, what, 0);
  }

  template <typename What>
  std::int64_t IntegerText(const pugi::xml_node& node, const char* text, const char* attr,
                           const What& what, std::int64_t fallback) {
    if (text == nullptr) return fallback;
    std::string_view s(text);
    std::int64_t v = 0;
    auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || ec != std::errc() || ptr != s.data() + s.size()) {
      Fail(node, Text(what) + ": " + attr + " '" + std::string(s) + "' is not an integer");
    }
    return v;
  }

  [[noreturn]] void Fail(const pugi::xml_node& node, std::string message) {
    throw XmlError{node.offset_debug(), std::move(message)};
  }

  std::string_view xml_;
  std::map<std::string, std::size_t> bare_clusters_;  // grid → index of its unnamed cluster
};

// True when no byte has its high bit set; eight bytes at a time.
bool IsAscii(std::string_view text) {
  std::size_t i = 0;
  std::uint64_t any = 0;
  for (; i + 8 <= text.size(); i += 8) {
    std::uint64_t word;
    std::memcpy(&word, text.data() + i, 8);
    any |= word;
  }
  for (; i < text.size(); ++i) any |= static_cast<unsigned char>(text[i]);
  return (any & 0x8080808080808080ULL) == 0;
}


// Where the XML of a saved telnet/nc capture starts and ends: lines before the first line that
// starts with "<?xml" or "<GANGLIA_XML" ("Trying 10.0.0.1...", "Connected to …", "Escape
// character is '^]'.") and text after the last "</GANGLIA_XML>" ("Connection closed by foreign
// host.") are the client's, not gmond's. A document that starts with '<' is taken whole.
std::pair<std::size_t, std::size_t> XmlSpan(std::string_view text) {
  std::size_t begin = 0;
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first != std::string_view::npos && text[first] != '<' &&
      text.substr(first, 3) != "\xEF\xBB\xBF") {
    for (std::size_t line = 0; line < text.size();) {
      const std::string_view rest = text.substr(line);
      if (rest.substr(0, 5) == "<?xml" || rest.substr(0, 12) == "<GANGLIA_XML") {
        begin = line;
        break;
      }
      const std::size_t nl = text.find('\n', line);
      if (nl == std::string_view::npos) break;
      line = nl + 1;
    }
  }
  std::size_t end = text.size();
  constexpr std::string_view kClose = "</GANGLIA_XML>";
  const std::size_t close = text.rfind(kClose);
  if (close != std::string_view::npos && close >= begin) end = close + kClose.size();
  return {begin, end};
}

}  // namespace

Result<GangliaSnapshot> ParseGangliaXml(std::string_view text, const std::string& origin) {
  const auto [base, end] = XmlSpan(text);
  const std::string_view xml = text.substr(base, end - base);
  pugi::xml_document doc;
  // Default flags: entities and attribute normalization as XML requires; encoding from the
  // declaration (gmond declares ISO-8859-1, converted to UTF-8); the inline DTD gmond
  // writes is skipped (pugixml does not validate, and a DTD changes nothing Ganglia serves).
  // A pure-ASCII document reads the same in ISO-8859-1 and UTF-8: skip pugixml's conversion pass
  // (a copy of the whole buffer) in that common case.
  const bool ascii = IsAscii(xml);
  const pugi::xml_parse_result parsed =
      doc.load_buffer(xml.data(), xml.size(), pugi::parse_default,
                      ascii ? pugi::encoding_utf8 : pugi::encoding_auto);
  Walker walker(text);
  if (!parsed) {
    return Status::InvalidArgument(origin + ":" + walker.Locate(parsed.offset, base) +
                                   ": malformed XML: " + parsed.description());
  }
  pugi::xml_node root = doc.document_element();
  if (!root || std::strcmp(root.name(), "GANGLIA_XML") != 0) {
    return Status::InvalidArgument(origin + ": root element is <" +
                                   std::string(root ? root.name() : "") +
                                   "> (expected GANGLIA_XML as served by gmond or gmetad)");
  }
  GangliaSnapshot out;
  try {
    walker.Document(root, out);
  } catch (const XmlError& e) {
    return Status::InvalidArgument(origin + ":" + walker.Locate(e.offset, base) + ": " +
                                   e.message);
  }
  return out;
}

}  // namespace perfplan::profiles
