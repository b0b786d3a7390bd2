#include "profiles/hdfs/hdfs_log.h"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>

#include "models/input_file.h"

namespace perfplan::profiles {
namespace {

using std::string_view;

// Byte loops instead of memcmp calls: the strings compared here are a few bytes long.
inline bool SameBytes(const char* a, const char* b, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    if (a[i] != b[i]) return false;
  }
  return true;
}
inline bool Eq(string_view a, string_view b) {
  return a.size() == b.size() && SameBytes(a.data(), b.data(), a.size());
}
inline bool StartsWith(string_view s, string_view p) {
  return s.size() >= p.size() && SameBytes(s.data(), p.data(), p.size());
}
inline bool EndsWith(string_view s, string_view p) {
  return s.size() >= p.size() && SameBytes(s.data() + s.size() - p.size(), p.data(), p.size());
}
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Inline scans for the short fields of one log line: a libc memchr call per field costs more
// than the scan itself (it was 44% of parse time in a profile).
inline std::size_t FindChar(string_view s, char c, std::size_t from = 0) {
  for (std::size_t i = from; i < s.size(); ++i) {
    if (s[i] == c) return i;
  }
  return string_view::npos;
}
inline std::size_t RFindChar(string_view s, char c) {
  for (std::size_t i = s.size(); i-- > 0;) {
    if (s[i] == c) return i;
  }
  return string_view::npos;
}
// First position at or after `from` of byte `c` in `s` (s.size() when absent), 8 bytes at a
// time: values run to a ',' or a tab, and most are tens of bytes long.
inline std::size_t ScanTo(string_view s, std::size_t from, char c) {
  constexpr std::uint64_t kOnes = 0x0101010101010101ULL, kHighs = 0x8080808080808080ULL;
  const std::uint64_t pattern = kOnes * static_cast<unsigned char>(c);
  std::size_t i = from;
  for (; i + 8 <= s.size(); i += 8) {
    std::uint64_t w;
    std::memcpy(&w, s.data() + i, 8);
    const std::uint64_t x = w ^ pattern;
    const std::uint64_t hit = (x - kOnes) & ~x & kHighs;
    if (hit != 0) return i + static_cast<std::size_t>(__builtin_ctzll(hit)) / 8;
  }
  for (; i < s.size(); ++i) {
    if (s[i] == c) return i;
  }
  return s.size();
}

// First position of `p` in `s` (naive; patterns here are a few bytes).
inline std::size_t FindStr(string_view s, string_view p) {
  if (p.size() > s.size()) return string_view::npos;
  const std::size_t last = s.size() - p.size();
  for (std::size_t i = 0; i <= last; ++i) {
    if (s[i] == p[0] && SameBytes(s.data() + i, p.data(), p.size())) return i;
  }
  return string_view::npos;
}

// Parses exactly `n` digits at s[pos..]; -1 when not all digits.
int Digits(string_view s, std::size_t pos, std::size_t n) {
  if (pos + n > s.size()) return -1;
  int v = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const char c = s[pos + i];
    if (!IsDigit(c)) return -1;
    v = v * 10 + (c - '0');
  }
  return v;
}

// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil).
std::int64_t DaysFromCivil(int y, int m, int d) {
  y -= m <= 2;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

std::int64_t ToEpochMs(int y, int mo, int d, int h, int mi, int s, int ms) {
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60) return -1;
  return ((DaysFromCivil(y, mo, d) * 24 + h) * 60 + mi) * 60000LL + s * 1000LL + ms;
}

bool ParseInt64(string_view s, std::int64_t* out) {
  if (s.empty()) return false;
  const char* end = s.data() + s.size();
  auto [p, ec] = std::from_chars(s.data(), end, *out);
  return ec == std::errc() && p == end;
}

// "/10.0.0.1:50010", "10.0.0.1:50010", "host/10.0.0.1:50010", "/[::1]:50010" → "10.0.0.1".
string_view AddressIp(string_view a) {
  const std::size_t slash = RFindChar(a, '/');
  if (slash != string_view::npos) a.remove_prefix(slash + 1);
  const std::size_t colon = RFindChar(a, ':');
  if (colon != string_view::npos && FindChar(a, ':') == colon)
    a = a.substr(0, colon);
  else if (!a.empty() && a.front() == '[') {
    const std::size_t close = a.find(']');
    if (close != string_view::npos) a = a.substr(1, close - 1);
  } else if (colon != string_view::npos) {
    a = a.substr(0, colon);  // bare IPv6 with a port: the port is after the last ':'
  }
  return a;
}

string_view NullToEmpty(string_view v) { return v == "null" ? string_view() : v; }

bool IsLevel(string_view w) {
  return w == "INFO" || w == "WARN" || w == "ERROR" || w == "DEBUG" || w == "TRACE" || w == "FATAL";
}

void Garbled(HdfsLine* out, std::string reason) {
  out->kind = HdfsLineKind::kGarbled;
  out->reason = std::move(reason);
}

void SetUgi(string_view ugi, HdfsAuditView* a) {
  const std::size_t sp = FindChar(ugi, ' ');
  a->user = ugi.substr(0, sp);
  a->real_user = {};
  const std::size_t via = FindStr(ugi, " via ");
  if (via != string_view::npos) {
    string_view rest = ugi.substr(via + 5);
    a->real_user = rest.substr(0, rest.find(' '));
  }
}

// One "key=value" audit field.
bool AuditField(string_view key, string_view value, HdfsAuditView* a, unsigned* seen,
                std::string* reason) {
  if (Eq(key, "allowed")) {
    if (value != "true" && value != "false") {
      *reason = "audit field allowed: expected true or false, saw \"" + std::string(value) + "\"";
      return false;
    }
    a->allowed = value == "true";
    *seen |= 1;
  } else if (Eq(key, "ugi")) {
    if (value.empty() || value == "null") {
      *reason = "audit field ugi: empty";
      return false;
    }
    SetUgi(value, a);
    *seen |= 2;
  } else if (Eq(key, "ip")) {
    value = NullToEmpty(value);
    const std::size_t slash = RFindChar(value, '/');
    a->ip = slash == string_view::npos ? value : value.substr(slash + 1);
    *seen |= 4;
  } else if (Eq(key, "cmd")) {
    if (value.empty()) {
      *reason = "audit field cmd: empty";
      return false;
    }
    a->cmd = value;
    *seen |= 8;
  } else if (Eq(key, "src")) {
    a->src = NullToEmpty(value);
    *seen |= 16;
  } else if (Eq(key, "dst")) {
    a->dst = NullToEmpty(value);
  } else if (Eq(key, "proto")) {
    a->proto = value;
  }
  // perm, trackingId, callerContext and future keys carry nothing the analysis needs.
  return true;
}

constexpr unsigned kAuditRequired = 1 | 2 | 4 | 8 | 16;

void ParseAudit(string_view msg, HdfsLine* out) {
  HdfsAuditView& a = out->audit;
  a.time_ms = out->time_ms;
  a.dst = {};
  a.proto = {};
  unsigned seen = 0;
  std::string reason;
  if (FindChar(msg, '\t') != string_view::npos) {
    // One pass: the key runs to '=', the value to the next tab.
    const std::size_t n = msg.size();
    std::size_t i = 0;
    while (i < n) {
      std::size_t k = i;
      while (k < n && msg[k] != '=' && msg[k] != '\t') ++k;
      if (k == n || msg[k] == '\t') {
        Garbled(out, "audit field \"" +
                         std::string(msg.substr(i, std::min<std::size_t>(k - i, 40))) +
                         "\": expected key=value");
        return;
      }
      const std::size_t e = ScanTo(msg, k + 1, '\t');
      if (!AuditField(msg.substr(i, k - i), msg.substr(k + 1, e - k - 1), &a, &seen, &reason)) {
        Garbled(out, reason);
        return;
      }
      i = e + 1;
    }
  } else {
    // Tabs turned into spaces by a log shipper: find the fixed keys in their order.
    static constexpr string_view kKeys[] = {
        "allowed=", " ugi=",  " ip=",    " cmd=",        " src=",
        " dst=",    " perm=", " proto=", " trackingId=", " callerContext="};
    std::size_t positions[std::size(kKeys)];
    std::size_t from = 0;
    for (std::size_t k = 0; k < std::size(kKeys); ++k) {
      positions[k] = msg.find(kKeys[k], from);
      if (positions[k] != string_view::npos) from = positions[k] + kKeys[k].size();
    }
    for (std::size_t k = 0; k < std::size(kKeys); ++k) {
      if (positions[k] == string_view::npos) continue;
      const std::size_t begin = positions[k] + kKeys[k].size();
      std::size_t end = msg.size();
      for (std::size_t j = k + 1; j < std::size(kKeys); ++j) {
        if (positions[j] != string_view::npos) {
          end = positions[j];
          break;
        }
      }
      string_view key = kKeys[k];
      if (key.front() == ' ') key.remove_prefix(1);
      key.remove_suffix(1);
      if (!AuditField(key, msg.substr(begin, end - begin), &a, &seen, &reason)) {
        Garbled(out, reason);
        return;
      }
    }
  }
  if ((seen & kAuditRequired) != kAuditRequired) {
    static constexpr const char* kNames[] = {"allowed", "ugi", "ip", "cmd", "src"};
    for (int i = 0; i < 5; ++i) {
      if (!(seen & (1u << i))) {
        Garbled(out, std::string("audit line without the ") + kNames[i] + "= field");
        return;
      }
    }
  }
  out->kind = HdfsLineKind::kAudit;
}

void ParseClientTrace(string_view msg, HdfsLine* out) {
  string_view src, dest, bytes, op, cli, block, duration;
  bool has_src = false, has_dest = false, has_bytes = false, has_op = false;
  // One pass: the key runs to ':', the value from after ": " to the next ", ".
  const std::size_t len = msg.size();
  std::size_t i = 0;
  while (i < len) {
    std::size_t k = i;
    while (k < len && msg[k] != ':' && msg[k] != ',') ++k;
    if (k == len || msg[k] == ',') {
      std::size_t end = k;
      while (end < len && !(msg[end] == ',' && end + 1 < len && msg[end + 1] == ' ')) ++end;
      Garbled(out, "clienttrace field \"" +
                       std::string(msg.substr(i, std::min<std::size_t>(end - i, 40))) +
                       "\": expected \"key: value\"");
      return;
    }
    const string_view key = msg.substr(i, k - i);
    std::size_t v = k + 1;
    if (v < len && msg[v] == ' ') ++v;
    std::size_t e = ScanTo(msg, v, ',');
    while (e < len && !(e + 1 < len && msg[e + 1] == ' ')) e = ScanTo(msg, e + 1, ',');
    const string_view value = msg.substr(v, e - v);
    i = e < len ? e + 2 : len;
    if (Eq(key, "src"))
      src = value, has_src = true;
    else if (Eq(key, "dest"))
      dest = value, has_dest = true;
    else if (Eq(key, "bytes"))
      bytes = value, has_bytes = true;
    else if (Eq(key, "op"))
      op = value, has_op = true;
    else if (Eq(key, "cliID"))
      cli = value;
    else if (Eq(key, "blockid"))
      block = value;
    else if (Eq(key, "duration") || Eq(key, "duration(ns)"))
      duration = value;
    // volume, offset, srvID, reduceID: not needed.
  }
  if (!has_src || !has_dest || !has_bytes || !has_op) {
    Garbled(out, std::string("clienttrace line without the ") +
                     (!has_src     ? "src"
                      : !has_dest  ? "dest"
                      : !has_bytes ? "bytes"
                                   : "op") +
                     " field");
    return;
  }
  std::int64_t n = 0;
  if (!ParseInt64(bytes, &n) || n < 0) {
    Garbled(out, "clienttrace field bytes: expected a non-negative integer, saw \"" +
                     std::string(bytes.substr(0, 40)) + "\"");
    return;
  }
  const bool is_read = Eq(op, "HDFS_READ");
  if (!is_read && !Eq(op, "HDFS_WRITE")) {
    out->kind = HdfsLineKind::kOtherTrace;
    out->other_op = op;
    return;
  }
  const string_view blk = NormalizeBlockId(block);
  if (blk.empty()) {
    Garbled(out, "clienttrace field blockid: expected blk_<id>, saw \"" +
                     std::string(block.substr(0, 60)) + "\"");
    return;
  }
  HdfsTransferView& t = out->transfer;
  t.time_ms = out->time_ms;
  t.is_read = is_read;
  t.bytes = n;
  t.datanode = AddressIp(is_read ? src : dest);
  t.peer = AddressIp(is_read ? dest : src);
  t.block = blk;
  t.client_id = cli;
  t.duration_ns = -1;
  if (!duration.empty()) {
    std::int64_t d = 0;
    if (!ParseInt64(duration, &d) || d < 0) {
      Garbled(out, "clienttrace field duration: expected a non-negative integer, saw \"" +
                       std::string(duration.substr(0, 40)) + "\"");
      return;
    }
    t.duration_ns = d;
  }
  out->kind = HdfsLineKind::kTransfer;
}

void ParseAllocate(string_view msg, HdfsLine* out) {
  // 3.x: "blk_1073741825_1001, replicas=… for /path"; 2.x: "blk_…{UCState=…} for /path".
  const std::size_t for_pos = msg.rfind(" for ");
  const string_view blk = NormalizeBlockId(msg.substr(0, msg.find_first_of(",{ ")));
  if (for_pos == string_view::npos || blk.empty() || for_pos + 5 >= msg.size()) {
    Garbled(out, "BLOCK* allocate line: expected \"BLOCK* allocate blk_<id>… for <path>\"");
    return;
  }
  out->block.time_ms = out->time_ms;
  out->block.block = blk;
  out->block.path = msg.substr(for_pos + 5);
  out->kind = HdfsLineKind::kBlock;
}

void ParseOldAllocate(string_view msg, HdfsLine* out) {
  // 0.18-0.20: "/path. blk_-1608999687919862906"
  const std::size_t sep = msg.rfind(". blk_");
  if (sep == string_view::npos || sep == 0) {
    Garbled(out, "BLOCK* NameSystem.allocateBlock line: expected \"<path>. blk_<id>\"");
    return;
  }
  out->block.time_ms = out->time_ms;
  out->block.block = NormalizeBlockId(msg.substr(sep + 2));
  out->block.path = msg.substr(0, sep);
  out->kind = HdfsLineKind::kBlock;
}

bool LooksLikeContinuation(string_view line) {
  if (line.front() == ' ' || line.front() == '\t') return true;
  if (StartsWith(line, "Caused by") || StartsWith(line, "at ") || StartsWith(line, "...")) {
    return true;
  }
  // "java.io.IOException: …" — an exception's first line printed after the log line.
  const std::size_t colon = line.find(':');
  const string_view head = line.substr(0, colon);
  if (head.find(' ') == string_view::npos && head.find('.') != string_view::npos &&
      (EndsWith(head, "Exception") || EndsWith(head, "Error") || EndsWith(head, "Throwable"))) {
    return true;
  }
  return false;
}

// The second half of an audit record whose line was broken in two (a newline written into the
// middle of it, or two writers interleaved): no timestamp, and at least two of the audit
// fields FSNamesystem.audit writes, tab-separated. A stack-trace line also starts with a tab,
// but never carries these fields.
bool LooksLikeAuditTail(string_view line) {
  static constexpr string_view kKeys[] = {"allowed=", "ugi=",  "ip=",    "cmd=",
                                          "src=",     "dst=",  "perm=",  "proto="};
  std::size_t start = 0;
  while (start < line.size() && (line[start] == ' ' || line[start] == '\t')) ++start;
  int fields = 0;  // keys seen at the start or right after a tab, each counted once
  for (string_view key : kKeys) {
    for (std::size_t at = line.find(key); at != string_view::npos; at = line.find(key, at + 1)) {
      if (at == start || (at > 0 && line[at - 1] == '\t')) {
        ++fields;
        break;
      }
    }
  }
  return fields >= 2;
}

}  // namespace

models::HdfsAuditRecord HdfsAuditView::ToRecord() const {
  models::HdfsAuditRecord r;
  r.time_ms = time_ms;
  models::AuditFields(r) = models::AuditFields(*this);
  return r;
}

models::HdfsTransferRecord HdfsTransferView::ToRecord() const {
  models::HdfsTransferRecord r;
  r.time_ms = time_ms;
  models::TransferFields(r) = models::TransferFields(*this);
  return r;
}

models::HdfsBlockRecord HdfsBlockView::ToRecord() const {
  return {time_ms, std::string(block), std::string(path)};
}

namespace {

constexpr HdfsLineKindCount kLineKinds[] = {
    {HdfsLineKind::kAudit, "audit", &HdfsParseCounts::audit},
    {HdfsLineKind::kTransfer, "transfer", &HdfsParseCounts::transfer},
    {HdfsLineKind::kBlock, "block", &HdfsParseCounts::block},
    {HdfsLineKind::kCreate, "create", &HdfsParseCounts::create},
    {HdfsLineKind::kComplete, "complete", &HdfsParseCounts::complete},
    {HdfsLineKind::kOtherTrace, "other_trace", &HdfsParseCounts::other_trace},
    {HdfsLineKind::kOther, "other", &HdfsParseCounts::other},
    {HdfsLineKind::kContinuation, "continuation", &HdfsParseCounts::continuation},
    {HdfsLineKind::kBlank, "blank", &HdfsParseCounts::blank},
    {HdfsLineKind::kGarbled, "garbled", &HdfsParseCounts::garbled},
};

// kLineKinds[k] describes the kind whose value is k, so a line's kind indexes it.
constexpr bool InEnumOrder() {
  for (std::size_t k = 0; k < std::size(kLineKinds); ++k) {
    if (static_cast<std::size_t>(kLineKinds[k].kind) != k) return false;
  }
  return true;
}
static_assert(InEnumOrder());

const HdfsLineKindCount& KindCount(HdfsLineKind kind) {
  return kLineKinds[static_cast<std::size_t>(kind)];
}

}  // namespace

std::span<const HdfsLineKindCount> HdfsLineKinds() { return kLineKinds; }

const char* ToString(HdfsLineKind kind) {
  return static_cast<std::size_t>(kind) < std::size(kLineKinds) ? KindCount(kind).name : "?";
}

std::int64_t ParseLog4jTime(string_view s, std::size_t* consumed) {
  // yyyy-MM-dd[ T]HH:mm:ss[,.]SSS  |  yyyy-MM-dd HH:mm:ss
  if (s.size() >= 19 && s[4] == '-' && s[7] == '-' && (s[10] == ' ' || s[10] == 'T') &&
      s[13] == ':' && s[16] == ':') {
    const int y = Digits(s, 0, 4), mo = Digits(s, 5, 2), d = Digits(s, 8, 2), h = Digits(s, 11, 2),
              mi = Digits(s, 14, 2), sec = Digits(s, 17, 2);
    if (y < 0 || mo < 0 || d < 0 || h < 0 || mi < 0 || sec < 0) return -1;
    int ms = 0;
    std::size_t n = 19;
    if (s.size() >= 23 && (s[19] == ',' || s[19] == '.')) {
      ms = Digits(s, 20, 3);
      if (ms < 0) return -1;
      n = 23;
    }
    const std::int64_t t = ToEpochMs(y, mo, d, h, mi, sec, ms);
    if (t >= 0) *consumed = n;
    return t;
  }
  // yy/MM/dd HH:mm:ss
  if (s.size() >= 17 && s[2] == '/' && s[5] == '/' && s[8] == ' ' && s[11] == ':' && s[14] == ':') {
    const int y = Digits(s, 0, 2), mo = Digits(s, 3, 2), d = Digits(s, 6, 2), h = Digits(s, 9, 2),
              mi = Digits(s, 12, 2), sec = Digits(s, 15, 2);
    if (y < 0 || mo < 0 || d < 0 || h < 0 || mi < 0 || sec < 0) return -1;
    const std::int64_t t = ToEpochMs(2000 + y, mo, d, h, mi, sec, 0);
    if (t >= 0) *consumed = 17;
    return t;
  }
  // yyMMdd HHmmss (Hadoop 0.18)
  if (s.size() >= 13 && s[6] == ' ' && (s.size() == 13 || s[13] == ' ')) {
    const int y = Digits(s, 0, 2), mo = Digits(s, 2, 2), d = Digits(s, 4, 2), h = Digits(s, 7, 2),
              mi = Digits(s, 9, 2), sec = Digits(s, 11, 2);
    if (y < 0 || mo < 0 || d < 0 || h < 0 || mi < 0 || sec < 0) return -1;
    const std::int64_t t = ToEpochMs(2000 + y, mo, d, h, mi, sec, 0);
    if (t >= 0) *consumed = 13;
    return t;
  }
  return -1;
}

string_view NormalizeBlockId(string_view text) {
  const std::size_t at = FindStr(text, "blk_");
  if (at == string_view::npos) return {};
  std::size_t end = at + 4;
  if (end < text.size() && text[end] == '-') ++end;
  const std::size_t digits = end;
  while (end < text.size() && IsDigit(text[end])) ++end;
  if (end == digits) return {};
  return text.substr(at, end - at);
}

void ParseHdfsLine(string_view line, HdfsLine* out) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  out->time_ms = -1;
  if (line.empty()) {
    out->kind = HdfsLineKind::kBlank;
    return;
  }
  std::size_t pos = 0;
  const std::int64_t t = ParseLog4jTime(line, &pos);
  if (t < 0) {
    if (LooksLikeAuditTail(line)) {
      Garbled(out,
              "the second half of a broken audit record (audit fields with no log4j timestamp "
              "before them)");
    } else if (LooksLikeContinuation(line)) {
      out->kind = HdfsLineKind::kContinuation;
    } else {
      Garbled(out, "no log4j timestamp at the start of the line");
    }
    return;
  }
  out->time_ms = t;
  string_view rest = line.substr(pos);
  auto skip_spaces = [&rest] {
    while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
  };
  auto word = [&rest] {
    const std::size_t sp = FindChar(rest, ' ');
    string_view w = rest.substr(0, sp);
    rest = sp == string_view::npos ? string_view() : rest.substr(sp);
    return w;
  };
  skip_spaces();
  string_view w = word();
  if (!w.empty() && std::all_of(w.begin(), w.end(), IsDigit)) {  // 0.18: thread/pid number
    skip_spaces();
    w = word();
  }
  if (!IsLevel(w)) {
    Garbled(out, "expected a log level (INFO, WARN, …) after the timestamp, saw \"" +
                     std::string(w.substr(0, 20)) + "\"");
    return;
  }
  skip_spaces();
  if (!rest.empty() && rest.front() == '[') {
    const std::size_t close = rest.find("] ");
    if (close == string_view::npos) {
      Garbled(out, "unterminated [thread] after the log level");
      return;
    }
    rest.remove_prefix(close + 2);
    skip_spaces();
  }
  std::size_t logger_end = std::min(ScanTo(rest, 0, ':'), ScanTo(rest, 0, ' '));
  if (logger_end == rest.size()) logger_end = string_view::npos;
  string_view logger = rest.substr(0, logger_end);
  string_view msg;
  if (logger_end == string_view::npos) {
    Garbled(out, "expected \"logger: message\" after the log level");
    return;
  }
  rest.remove_prefix(logger_end);
  if (StartsWith(rest, ": ")) {
    msg = rest.substr(2);
  } else if (rest == ":") {
    msg = {};
  } else if (StartsWith(rest, " (")) {  // "%c{2} (%F:%M(%L)) - %m"
    const std::size_t dash = rest.find(") - ");
    if (dash == string_view::npos) {
      Garbled(out, "expected \"(File.java:method(line)) - message\" after the logger");
      return;
    }
    msg = rest.substr(dash + 4);
  } else if (StartsWith(rest, " - ")) {
    msg = rest.substr(3);
  } else {
    Garbled(out, "expected \"logger: message\" after the log level");
    return;
  }

  if (StartsWith(msg, "allowed=")) {
    ParseAudit(msg, out);
  } else if (EndsWith(logger, ".audit") && EndsWith(logger, "FSNamesystem.audit")) {
    Garbled(out, "audit line that does not start with allowed=");
  } else if (EndsWith(logger, "clienttrace") ||
             (StartsWith(msg, "src: ") && msg.find(", op: ") != string_view::npos)) {
    ParseClientTrace(msg, out);
  } else if (StartsWith(msg, "BLOCK* allocate ")) {
    ParseAllocate(msg.substr(16), out);
  } else if (StartsWith(msg, "BLOCK* NameSystem.allocateBlock: ")) {
    ParseOldAllocate(msg.substr(33), out);
  } else if (StartsWith(msg, "*DIR* NameNode.create: ")) {
    if (StartsWith(msg.substr(23), "file "))
      out->kind = HdfsLineKind::kCreate;
    else
      Garbled(out, "*DIR* NameNode.create line: expected \"file <path> for <client> at <ip>\"");
  } else if (StartsWith(msg, "DIR* completeFile: ")) {
    if (msg.find(" is closed by ") != string_view::npos)
      out->kind = HdfsLineKind::kComplete;
    else
      Garbled(out, "DIR* completeFile line: expected \"<path> is closed by <client>\"");
  } else {
    out->kind = HdfsLineKind::kOther;
  }
}

void HdfsParseCounts::Add(const HdfsLine& line) {
  ++lines;
  ++(this->*KindCount(line.kind).count);
}

void HdfsParseCounts::Merge(const HdfsParseCounts& o) {
  lines += o.lines;
  for (const HdfsLineKindCount& k : kLineKinds) this->*k.count += o.*k.count;
  time_backwards += o.time_backwards;
  for (const Problem& p : o.problems) {
    if (problems.size() < kMaxProblems) problems.push_back(p);
  }
}

// ---- HdfsLogReader -------------------------------------------------------------------------

Result<std::unique_ptr<HdfsLogReader>> HdfsLogReader::Open(const std::string& path,
                                                           std::size_t max_line_bytes) {
  if (Status s = CheckInputPath(path); !s.ok()) return s;
  gzFile gz = gzopen(path.c_str(), "rb");
  if (gz == nullptr) return Status::Failed(path + ": cannot open for reading");
  gzbuffer(gz, 1 << 17);
  std::unique_ptr<HdfsLogReader> r(new HdfsLogReader(max_line_bytes));
  r->source_.gz = gz;
  r->source_.path = path;
  // gzdirect() is only meaningful after the first read; peek one byte then rewind.
  char probe_byte;
  const int got = gzread(gz, &probe_byte, 1);
  r->compressed_ = got > 0 && gzdirect(gz) == 0;
  gzrewind(gz);
  return r;
}

HdfsLogReader::~HdfsLogReader() {
  if (source_.gz != nullptr) gzclose(static_cast<gzFile>(source_.gz));
}

Result<std::string> HdfsLogReader::Peek(std::int64_t n) {
  std::string out(static_cast<std::size_t>(n), '\0');
  gzFile gz = static_cast<gzFile>(source_.gz);
  gzrewind(gz);
  std::size_t got = 0;
  while (got < out.size()) {
    const int r = gzread(gz, out.data() + got, static_cast<unsigned>(out.size() - got));
    if (r < 0) {
      int errnum = 0;
      const char* msg = gzerror(gz, &errnum);
      return Status::Failed(source_.path + ": read error: " + (msg ? msg : "unknown"));
    }
    if (r == 0) break;
    got += static_cast<std::size_t>(r);
  }
  out.resize(got);
  Status s = Seek(0);
  if (!s.ok()) return s;
  return out;
}

Status HdfsLogReader::Seek(std::int64_t offset) {
  source_.error = Status::Ok();
  const z_off_t at =
      gzseek(static_cast<gzFile>(source_.gz), static_cast<z_off_t>(offset), SEEK_SET);
  if (at != offset) {
    return Status::Failed(source_.path + ": cannot seek to byte " + std::to_string(offset) +
                          " (the file is shorter)");
  }
  source_.offset = offset;
  lines_.Reset(offset);
  return Status::Ok();
}

bool HdfsLogReader::GzSource::Read(std::string* out) {
  constexpr std::size_t kChunkBytes = 1 << 20;
  const std::size_t old_size = out->size();
  out->resize(old_size + kChunkBytes);
  const int n = gzread(static_cast<gzFile>(gz), out->data() + old_size, kChunkBytes);
  out->resize(old_size + static_cast<std::size_t>(n > 0 ? n : 0));
  if (n > 0) {
    offset += n;
    return true;
  }
  // A truncated gzip stream reads as end of file with Z_BUF_ERROR.
  int errnum = 0;
  const char* msg = gzerror(static_cast<gzFile>(gz), &errnum);
  if (n < 0 || (errnum != Z_OK && errnum != Z_STREAM_END)) {
    error = Status::Failed(path + ": read error after byte " + std::to_string(offset) + ": " +
                           (msg ? msg : "unknown"));
  }
  return false;
}

std::string HdfsLogReader::TooLongReason() const {
  return profiles::TooLongReason(lines_.max_line_bytes());
}

bool HdfsLogReader::Next(string_view* line, bool* terminated) {
  if (!lines_.Next(line)) return false;
  *terminated = lines_.terminated();
  return true;
}

void ParseHdfsReaderLine(const HdfsLogReader& reader, string_view line, HdfsLine* out) {
  if (!reader.line_too_long()) {
    ParseHdfsLine(line, out);
    return;
  }
  out->kind = HdfsLineKind::kGarbled;
  out->time_ms = -1;
  out->other_op = string_view();
  out->reason = reader.TooLongReason();
}

Result<HdfsParseCounts> ParseHdfsLogFile(const std::string& path, HdfsRecordSink* sink) {
  auto opened = HdfsLogReader::Open(path);
  if (!opened.ok()) return opened.status();
  HdfsLogReader& reader = *opened.value();
  HdfsParseCounts counts;
  HdfsLine parsed;
  string_view line;
  bool terminated = true;
  std::int64_t line_number = 0;
  std::int64_t last_time_ms = -1;
  while (reader.Next(&line, &terminated)) {
    ++line_number;
    ParseHdfsReaderLine(reader, line, &parsed);
    counts.Add(parsed);
    if (parsed.time_ms >= 0) {
      if (parsed.time_ms < last_time_ms) ++counts.time_backwards;
      last_time_ms = parsed.time_ms;
    }
    if (parsed.kind == HdfsLineKind::kGarbled) {
      if (counts.problems.size() < HdfsParseCounts::kMaxProblems) {
        counts.problems.push_back(
            {path, static_cast<int>(line_number), ToString(parsed.kind), parsed.reason});
      }
    } else if (sink != nullptr &&
               (parsed.kind == HdfsLineKind::kAudit || parsed.kind == HdfsLineKind::kTransfer ||
                parsed.kind == HdfsLineKind::kBlock)) {
      sink->OnLine(parsed);
    }
  }
  if (!reader.error().ok()) return reader.error();
  return counts;
}

}  // namespace perfplan::profiles
