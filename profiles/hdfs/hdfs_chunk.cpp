#include "profiles/hdfs/hdfs_chunk.h"

#include <algorithm>
#include <charconv>
#include <cstring>

namespace perfplan::profiles {
namespace {

// Bytes a JSON string must escape: '"', '\\' and the control bytes.
struct EscapeTable {
  bool needs[256] = {};
  constexpr EscapeTable() {
    for (int c = 0; c < 0x20; ++c) needs[c] = true;
    needs[static_cast<unsigned char>('"')] = needs[static_cast<unsigned char>('\\')] = true;
  }
};
constexpr EscapeTable kEscape;

// Writers into a buffer with room for the worst case (HdfsChunkBuilder::Room).
char* PutInt(std::int64_t v, char* p) { return std::to_chars(p, p + 20, v).ptr; }

char* PutChars(std::string_view s, char* p) {
  if (s.empty()) return p;  // an empty view may have a null data(), which memcpy must not get
  std::memcpy(p, s.data(), s.size());
  return p + s.size();
}

// True when one of the 8 bytes of `w` is below 0x20, '"' or '\\' (the usual bit tricks: a byte
// b has (b - k) & ~b & 0x80 set exactly when b < k, for k <= 0x80).
constexpr bool MayNeedEscape(std::uint64_t w) {
  constexpr std::uint64_t kOnes = 0x0101010101010101ULL, kHigh = 0x8080808080808080ULL;
  const std::uint64_t quote = w ^ (kOnes * '"'), backslash = w ^ (kOnes * '\\');
  return (((w - kOnes * 0x20) & ~w) | ((quote - kOnes) & ~quote) |
          ((backslash - kOnes) & ~backslash)) &
         kHigh;
}

char* PutString(std::string_view s, char* p) {
  *p++ = '"';
  std::size_t i = 0;
  // Eight bytes at a time while none needs escaping (most fields never do).
  while (i + 8 <= s.size()) {
    std::uint64_t w;
    std::memcpy(&w, s.data() + i, 8);
    if (MayNeedEscape(w)) break;
    std::memcpy(p, &w, 8);
    p += 8;
    i += 8;
  }
  std::size_t run = i;  // start of the bytes not yet copied
  for (; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (!kEscape.needs[c]) continue;
    p = PutChars(s.substr(run, i - run), p);
    run = i + 1;
    if (c == '"' || c == '\\') {
      *p++ = '\\';
      *p++ = static_cast<char>(c);
    } else {
      static const char kHex[] = "0123456789abcdef";
      const char esc[6] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 15]};
      p = PutChars(std::string_view(esc, sizeof esc), p);
    }
  }
  p = PutChars(s.substr(run), p);
  *p++ = '"';
  return p;
}

// The most bytes PutString writes for `s` (every byte escaped as \u00XX, the quotes, a comma).
constexpr std::size_t StringRoom(std::string_view s) { return 6 * s.size() + 3; }

void AppendUtf8(std::uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

// Reads one chunk's JSON: '[' then records '[v,v,…]' separated by ',' then ']'.
// With skip_strings, strings are checked and passed over but not copied out (Str leaves its
// argument alone): enough to find each record's time and end.
class Cursor {
 public:
  explicit Cursor(std::string_view text, std::size_t offset = 0, bool skip_strings = false)
      : p_(text.data() + offset), end_(text.data() + text.size()), skip_(skip_strings) {}

  bool ok() const { return ok_; }
  std::size_t offset(std::string_view text) const {
    return static_cast<std::size_t>(p_ - text.data());
  }

  bool Open() { return Expect('['); }
  // Before each record: true when one follows (consumes its '['), false at the closing ']'.
  bool NextRecord() {
    if (!ok_) return false;
    SkipSpace();
    if (p_ < end_ && *p_ == ']') {
      ++p_;
      SkipSpace();
      if (p_ != end_) ok_ = false;  // text after the array
      return false;
    }
    if (records_++ > 0 && !Expect(',')) return false;
    return Expect('[');
  }
  void Int(std::int64_t* v, bool first = false) {
    if (!first) Expect(',');
    SkipSpace();
    if (!ok_) return;
    auto [q, ec] = std::from_chars(p_, end_, *v);
    if (ec != std::errc()) {
      ok_ = false;
      return;
    }
    p_ = q;
  }
  void Bool(bool* v) {
    std::int64_t i = 0;
    Int(&i);
    *v = i != 0;
  }
  void Str(std::string* out) {
    Expect(',');
    SkipSpace();
    if (skip_) {
      escaped_.clear();
      out = &escaped_;  // only escapes land there
    }
    out->clear();
    if (!ok_ || p_ >= end_ || *p_ != '"') {
      ok_ = false;
      return;
    }
    ++p_;
    for (;;) {
      const char* q = p_;
      while (q < end_ && *q != '"' && *q != '\\') ++q;
      if (!skip_) out->append(p_, static_cast<std::size_t>(q - p_));
      p_ = q;
      if (p_ >= end_) {
        ok_ = false;
        return;
      }
      if (*p_ == '"') {
        ++p_;
        return;
      }
      if (!Escape(out)) {
        ok_ = false;
        return;
      }
    }
  }
  void Close() { Expect(']'); }

 private:
  void SkipSpace() {
    while (p_ < end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\t' || *p_ == '\r')) ++p_;
  }
  bool Expect(char c) {
    if (!ok_) return false;
    SkipSpace();
    if (p_ >= end_ || *p_ != c) return ok_ = false;
    ++p_;
    return true;
  }
  bool Hex4(std::uint32_t* v) {
    if (end_ - p_ < 4) return false;
    *v = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = *p_++;
      const int d = c >= '0' && c <= '9'   ? c - '0'
                    : c >= 'a' && c <= 'f' ? c - 'a' + 10
                    : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                           : -1;
      if (d < 0) return false;
      *v = *v * 16 + static_cast<std::uint32_t>(d);
    }
    return true;
  }
  // At a '\\': appends the escaped character.
  bool Escape(std::string* out) {
    if (end_ - p_ < 2) return false;
    ++p_;
    const char c = *p_++;
    switch (c) {
      case '"': out->push_back('"'); return true;
      case '\\': out->push_back('\\'); return true;
      case '/': out->push_back('/'); return true;
      case 'b': out->push_back('\b'); return true;
      case 'f': out->push_back('\f'); return true;
      case 'n': out->push_back('\n'); return true;
      case 'r': out->push_back('\r'); return true;
      case 't': out->push_back('\t'); return true;
      case 'u': {
        std::uint32_t cp = 0;
        if (!Hex4(&cp)) return false;
        if (cp >= 0xD800 && cp < 0xDC00 && end_ - p_ >= 6 && p_[0] == '\\' && p_[1] == 'u') {
          const char* save = p_;
          p_ += 2;
          std::uint32_t lo = 0;
          if (Hex4(&lo) && lo >= 0xDC00 && lo < 0xE000) {
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          } else {
            p_ = save;
          }
        }
        AppendUtf8(cp, out);
        return true;
      }
      default:
        return false;
    }
  }

  const char* p_;
  const char* end_;
  bool skip_;
  std::string escaped_;  // a skipped string's escapes
  bool ok_ = true;
  std::int64_t records_ = 0;
};

// `json` starts at byte `json_start` of the chunk's text (0: the whole text).
Status Broken(std::int64_t chunk_id, const Cursor& c, std::string_view json, const char* kind,
              std::size_t json_start = 0) {
  return Status::Failed("hdfs chunk " + std::to_string(chunk_id) + ": not a chunk of " + kind +
                        " records (unexpected text at byte " +
                        std::to_string(json_start + c.offset(json)) + ")");
}

// The fields after time_ms, in the order HdfsChunkBuilder writes them.
void ReadFields(Cursor& c, models::HdfsAuditRecord& a) {
  c.Bool(&a.allowed);
  for (std::string* s : {&a.user, &a.real_user, &a.ip, &a.cmd, &a.src, &a.dst, &a.proto}) c.Str(s);
}
void ReadFields(Cursor& c, models::HdfsTransferRecord& t) {
  c.Bool(&t.is_read);
  c.Str(&t.datanode);
  c.Str(&t.peer);
  c.Int(&t.bytes);
  c.Str(&t.block);
  c.Str(&t.client_id);
  c.Int(&t.duration_ns);
}
void ReadFields(Cursor& c, models::HdfsBlockRecord& b) {
  c.Str(&b.block);
  c.Str(&b.path);
}

const char* KindName(const models::HdfsAuditRecord*) { return "audit"; }
const char* KindName(const models::HdfsTransferRecord*) { return "transfer"; }
const char* KindName(const models::HdfsBlockRecord*) { return "block"; }

// One record from its '[' on (the cursor's position) to its ']'.
template <typename Record>
void ReadRecord(Cursor& c, Record& r) {
  c.Int(&r.time_ms, true);
  ReadFields(c, r);
  c.Close();
}

// Reads every record of a chunk in order, calling keep(record, offset of its '['); on text that
// is not a chunk of Record's kind, calls undo() and says where. With skip_strings the records'
// strings are checked but not read (they stay as they were).
template <typename Record, typename Keep, typename Undo>
Status ReadEach(std::int64_t chunk_id, std::string_view json, bool skip_strings, Keep keep,
                Undo undo) {
  Cursor c(json, 0, skip_strings);
  c.Open();
  Record r;
  while (c.NextRecord()) {
    const std::size_t offset = c.offset(json) - 1;  // NextRecord consumed the '['
    ReadRecord(c, r);
    if (!c.ok()) break;
    keep(r, offset);
  }
  if (c.ok()) return Status::Ok();
  undo();
  return Broken(chunk_id, c, json, KindName(static_cast<const Record*>(nullptr)));
}

template <typename Record>
Status Decode(std::int64_t chunk_id, std::string_view json, std::int64_t from_ms,
              std::int64_t to_ms, std::vector<Record>* out) {
  const std::size_t before = out->size();
  return ReadEach<Record>(
      chunk_id, json, false,
      [&](const Record& r, std::size_t) {
        if (r.time_ms >= from_ms && r.time_ms < to_ms) out->push_back(r);
      },
      [&] { out->erase(out->begin() + static_cast<std::ptrdiff_t>(before), out->end()); });
}

template <typename Record>
Status ReadAt(std::int64_t chunk_id, std::string_view json, std::uint32_t offset,
              std::uint32_t json_start, Record* out) {
  const std::size_t at = offset >= json_start ? offset - json_start : json.size();
  Cursor c(json, std::min(at, json.size()));
  c.Open();
  ReadRecord(c, *out);
  if (!c.ok()) {
    return Broken(chunk_id, c, json, KindName(static_cast<const Record*>(nullptr)), json_start);
  }
  return Status::Ok();
}

}  // namespace

template <typename Record>
Status IndexHdfsChunk(std::int64_t chunk_id, std::string_view json, std::int64_t from_ms,
                      std::int64_t to_ms, std::vector<HdfsChunkEntry>* out) {
  if (json.size() > UINT32_MAX) {
    return Status::Failed("hdfs chunk " + std::to_string(chunk_id) + ": " +
                          std::to_string(json.size()) + " bytes, more than a chunk holds");
  }
  const std::size_t before = out->size();
  return ReadEach<Record>(
      chunk_id, json, true,
      [&](const Record& r, std::size_t offset) {
        if (r.time_ms >= from_ms && r.time_ms < to_ms) {
          out->push_back({r.time_ms, static_cast<std::uint32_t>(offset), 0});
        }
      },
      [&] { out->erase(out->begin() + static_cast<std::ptrdiff_t>(before), out->end()); });
}
template Status IndexHdfsChunk<models::HdfsAuditRecord>(std::int64_t, std::string_view,
                                                        std::int64_t, std::int64_t,
                                                        std::vector<HdfsChunkEntry>*);
template Status IndexHdfsChunk<models::HdfsTransferRecord>(std::int64_t, std::string_view,
                                                           std::int64_t, std::int64_t,
                                                           std::vector<HdfsChunkEntry>*);
template Status IndexHdfsChunk<models::HdfsBlockRecord>(std::int64_t, std::string_view,
                                                        std::int64_t, std::int64_t,
                                                        std::vector<HdfsChunkEntry>*);

char* HdfsChunkBuilder::Begin(std::int64_t time_ms, std::size_t room) {
  // Room for the record: "[" or ",[", the time, its strings (counted by the caller), "]]".
  room += 2 + 20 + 2 + 2 * 24;
  if (used_ + room > text_.size()) text_.resize(std::max(2 * text_.size(), used_ + room));
  char* p = text_.data() + used_;
  if (records_ == 0) {
    *p++ = '[';
    min_time_ms_ = max_time_ms_ = time_ms;
  } else {
    --p;  // over the closing ']' of the chunk
    *p++ = ',';
    min_time_ms_ = std::min(min_time_ms_, time_ms);
    max_time_ms_ = std::max(max_time_ms_, time_ms);
  }
  ++records_;
  *p++ = '[';
  return PutInt(time_ms, p);
}

void HdfsChunkBuilder::End(char* p) {
  *p++ = ']';
  *p++ = ']';
  used_ = static_cast<std::size_t>(p - text_.data());
}

void HdfsChunkBuilder::Add(const HdfsAuditView& a) {
  const std::string_view fields[] = {a.user, a.real_user, a.ip, a.cmd, a.src, a.dst, a.proto};
  std::size_t room = 0;
  for (std::string_view f : fields) room += StringRoom(f);
  char* p = Begin(a.time_ms, room);
  p = PutChars(a.allowed ? ",1" : ",0", p);
  for (std::string_view f : fields) {
    *p++ = ',';
    p = PutString(f, p);
  }
  End(p);
}

void HdfsChunkBuilder::Add(const HdfsTransferView& t) {
  char* p = Begin(t.time_ms, StringRoom(t.datanode) + StringRoom(t.peer) + StringRoom(t.block) +
                                 StringRoom(t.client_id));
  p = PutChars(t.is_read ? ",1," : ",0,", p);
  p = PutString(t.datanode, p);
  *p++ = ',';
  p = PutString(t.peer, p);
  *p++ = ',';
  p = PutInt(t.bytes, p);
  *p++ = ',';
  p = PutString(t.block, p);
  *p++ = ',';
  p = PutString(t.client_id, p);
  *p++ = ',';
  p = PutInt(t.duration_ns, p);
  End(p);
}

void HdfsChunkBuilder::Add(const HdfsBlockView& b) {
  char* p = Begin(b.time_ms, StringRoom(b.block) + StringRoom(b.path));
  *p++ = ',';
  p = PutString(b.block, p);
  *p++ = ',';
  p = PutString(b.path, p);
  End(p);
}

const std::string& HdfsChunkBuilder::Json() {
  static const std::string kEmpty = "[]";
  if (records_ == 0) return kEmpty;
  text_.resize(used_);  // every Add leaves the array closed; Begin makes room again
  return text_;
}

void HdfsChunkBuilder::Clear() {
  used_ = 0;
  records_ = 0;
}

Status ReadHdfsChunkRecord(std::int64_t chunk_id, std::string_view json, std::uint32_t offset,
                           models::HdfsAuditRecord* out, std::uint32_t json_start) {
  return ReadAt(chunk_id, json, offset, json_start, out);
}
Status ReadHdfsChunkRecord(std::int64_t chunk_id, std::string_view json, std::uint32_t offset,
                           models::HdfsTransferRecord* out, std::uint32_t json_start) {
  return ReadAt(chunk_id, json, offset, json_start, out);
}
Status ReadHdfsChunkRecord(std::int64_t chunk_id, std::string_view json, std::uint32_t offset,
                           models::HdfsBlockRecord* out, std::uint32_t json_start) {
  return ReadAt(chunk_id, json, offset, json_start, out);
}

Status DecodeHdfsChunk(std::int64_t chunk_id, std::string_view json, std::int64_t from_ms,
                       std::int64_t to_ms, std::vector<models::HdfsAuditRecord>* out) {
  return Decode(chunk_id, json, from_ms, to_ms, out);
}
Status DecodeHdfsChunk(std::int64_t chunk_id, std::string_view json, std::int64_t from_ms,
                       std::int64_t to_ms, std::vector<models::HdfsTransferRecord>* out) {
  return Decode(chunk_id, json, from_ms, to_ms, out);
}
Status DecodeHdfsChunk(std::int64_t chunk_id, std::string_view json, std::int64_t from_ms,
                       std::int64_t to_ms, std::vector<models::HdfsBlockRecord>* out) {
  return Decode(chunk_id, json, from_ms, to_ms, out);
}

}  // namespace perfplan::profiles
