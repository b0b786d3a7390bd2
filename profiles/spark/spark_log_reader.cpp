#include "profiles/spark/spark_log_reader.h"

#include <lz4.h>
#include <lz4frame.h>
#include <snappy-c.h>
#include <xxhash.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>

#include <sys/stat.h>

#include "profiles/detail/lzf.h"
#include "models/enum_names.h"
#include "models/input_file.h"
#include "profiles/line_reader.h"

namespace perfplan::profiles::spark {
namespace fs = std::filesystem;

namespace {

constexpr std::size_t kReadChunkBytes = 1u << 20;
constexpr std::string_view kInProgress = ".inprogress";
constexpr std::string_view kLz4Magic = "LZ4Block";
// The LZ4 frame format (the `lz4` command-line tool, LZ4F): magic 0x184D2204 little-endian.
constexpr std::string_view kLz4FrameMagic("\x04\x22\x4d\x18", 4);
constexpr std::string_view kSnappyMagic("\x82SNAPPY\0", 8);
constexpr std::string_view kZstdMagic("\x28\xb5\x2f\xfd", 4);
constexpr std::string_view kGzipMagic("\x1f\x8b", 2);
constexpr std::string_view kLzfMagic = "ZV";
// lz4-java's LZ4BlockOutputStream hashes each block with XXHash32 and this seed.
constexpr std::uint32_t kLz4Seed = 0x9747b28c;
constexpr int kLz4HeaderBytes = 21;

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}
bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// 4000 -> "4,000", as the codec messages print byte offsets.
std::string WithThousands(std::int64_t n) {
  std::string digits = std::to_string(n), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0 && digits[i - 1] != '-') out += ',';
    out += digits[i];
  }
  return out;
}

std::uint32_t Be32(const unsigned char* p) {
  return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) |
         p[3];
}
std::uint32_t Le32(const unsigned char* p) {
  return (std::uint32_t{p[3]} << 24) | (std::uint32_t{p[2]} << 16) | (std::uint32_t{p[1]} << 8) |
         p[0];
}

// A file read in chunks; counts bytes.
class FileInput {
 public:
  explicit FileInput(std::FILE* f) : f_(f) {}
  ~FileInput() {
    if (f_) std::fclose(f_);
  }
  std::size_t Read(void* dst, std::size_t n) {
    std::size_t got = std::fread(dst, 1, n, f_);
    bytes_ += static_cast<std::int64_t>(got);
    return got;
  }
  std::int64_t bytes() const { return bytes_; }
  // How many bytes a read may ask for: what is left of a regular file (its size now, so a
  // growing log keeps being read), at least `floor`, at most `ceiling`; `ceiling` for pipes.
  std::size_t NextRead(std::size_t floor, std::size_t ceiling) const {
    struct stat st;
    if (::fstat(::fileno(f_), &st) != 0 || !S_ISREG(st.st_mode)) return ceiling;
    const std::int64_t left = static_cast<std::int64_t>(st.st_size) - bytes_;
    if (left <= static_cast<std::int64_t>(floor)) return floor;
    return std::min(static_cast<std::size_t>(left), ceiling);
  }

 private:
  std::FILE* f_;
  std::int64_t bytes_ = 0;
};

// Turns a file into decoded bytes. Fill appends at least one byte and returns true, or returns
// false at the end of the stream or on error (error() non-empty); `stream` names the framing in
// the error texts ("corrupt <stream>: what").
class Decoder {
 public:
  Decoder(FileInput* in, const char* stream) : in_(in), stream_(stream) {}
  virtual ~Decoder() = default;
  virtual bool Fill(std::string* out) = 0;
  const std::string& error() const { return error_; }

 protected:
  bool Fail(const std::string& what) {
    error_ = "corrupt " + std::string(stream_) + ": " + what;
    return false;
  }
  FileInput* in_;
  std::string error_;
  std::string buf_;  // a compressed block or chunk, for the block framings

 private:
  const char* stream_;
};

class PlainDecoder : public Decoder {
 public:
  explicit PlainDecoder(FileInput* in) : Decoder(in, "plain stream") {}
  // A chunk is what is left of the file (at most kReadChunkBytes): resize() zero-fills what it
  // adds, and a full 1 MiB chunk for each of many small files (a folder of MapReduce .jhist
  // histories, ~100 KB each) was most of their ingest time, in memset and page faults.
  bool Fill(std::string* out) override {
    const std::size_t chunk = in_->NextRead(4096, kReadChunkBytes);
    std::size_t old = out->size();
    out->resize(old + chunk);
    std::size_t got = in_->Read(out->data() + old, chunk);
    out->resize(old + got);
    return got > 0;
  }
};

class GzipDecoder : public Decoder {
 public:
  explicit GzipDecoder(FileInput* in)
      : Decoder(in, "gzip stream"), in_buf_(kReadChunkBytes / 4, '\0') {
    std::memset(&z_, 0, sizeof(z_));
    inflateInit2(&z_, 16 + MAX_WBITS);
  }
  ~GzipDecoder() override { inflateEnd(&z_); }
  bool Fill(std::string* out) override {
    // An error returned with the last good bytes stays the error (not "unexpected end of file").
    if (!error_.empty()) return false;
    while (true) {
      if (z_.avail_in == 0) {
        std::size_t got = in_->Read(in_buf_.data(), in_buf_.size());
        if (got == 0) {
          if (!finished_member_) Fail("unexpected end of file");
          return false;
        }
        z_.next_in = reinterpret_cast<Bytef*>(in_buf_.data());
        z_.avail_in = static_cast<uInt>(got);
      }
      if (finished_member_) {
        // Another gzip member follows (concatenated gzip files decode as one stream).
        inflateReset(&z_);
        finished_member_ = false;
      }
      // Inflate into the decoder's own buffer (allocated once, never zero-filled) and append
      // what came out: resize() by a whole chunk zero-filled 1 MiB per fill, most of it for
      // nothing on a small gzip'd history.
      const std::size_t old = out->size();
      z_.next_out = reinterpret_cast<Bytef*>(out_buf_.get());
      z_.avail_out = static_cast<uInt>(kReadChunkBytes);
      int rc = inflate(&z_, Z_NO_FLUSH);
      out->append(out_buf_.get(), kReadChunkBytes - z_.avail_out);
      if (rc == Z_STREAM_END) {
        finished_member_ = true;
      } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
        Fail(z_.msg ? z_.msg : "inflate failed");
        return out->size() > old;
      }
      if (out->size() > old) return true;
    }
  }

 private:
  z_stream z_;
  std::string in_buf_;
  std::unique_ptr<char[]> out_buf_{new char[kReadChunkBytes]};
  bool finished_member_ = false;
};

class ZstdDecoder : public Decoder {
 public:
  explicit ZstdDecoder(FileInput* in)
      : Decoder(in, "zstd stream"), ds_(ZSTD_createDStream()), in_buf_(ZSTD_DStreamInSize(), '\0') {
    ZSTD_initDStream(ds_);
  }
  ~ZstdDecoder() override { ZSTD_freeDStream(ds_); }
  bool Fill(std::string* out) override {
    if (!error_.empty()) return false;
    while (true) {
      if (input_.pos == input_.size) {
        std::size_t got = in_->Read(in_buf_.data(), in_buf_.size());
        if (got == 0) {
          if (!frame_done_) {
            Fail("truncated zstd frame at byte " + WithThousands(in_->bytes()) +
                 " (the end of the file)");
          }
          return false;
        }
        input_ = {in_buf_.data(), got, 0};
      }
      std::size_t old = out->size();
      out->resize(old + kReadChunkBytes);
      ZSTD_outBuffer output = {out->data() + old, kReadChunkBytes, 0};
      std::size_t rc = ZSTD_decompressStream(ds_, &output, &input_);
      out->resize(old + output.pos);
      if (ZSTD_isError(rc)) {
        Fail(ZSTD_getErrorName(rc));
        return output.pos > 0;
      }
      frame_done_ = rc == 0;  // 0: a frame ended; more frames may follow (concatenated)
      if (output.pos > 0) return true;
    }
  }

 private:
  ZSTD_DStream* ds_;
  std::string in_buf_;
  ZSTD_inBuffer input_ = {nullptr, 0, 0};
  bool frame_done_ = true;
};

// lz4-java LZ4BlockOutputStream: blocks of [magic "LZ4Block"][token][compressed length LE]
// [decompressed length LE][XXHash32 LE] + bytes; an empty block ends a stream, and Spark reads
// concatenated streams.
class Lz4BlockDecoder : public Decoder {
 public:
  explicit Lz4BlockDecoder(FileInput* in) : Decoder(in, "lz4 stream") {}
  bool Fill(std::string* out) override {
    while (true) {
      unsigned char h[kLz4HeaderBytes];
      std::size_t got = in_->Read(h, sizeof(h));
      if (got == 0) return false;
      if (got < sizeof(h)) return Fail("truncated block header");
      if (std::memcmp(h, kLz4Magic.data(), kLz4Magic.size()) != 0) return Fail("bad block magic");
      int method = h[8] & 0xf0;
      std::uint32_t compressed = Le32(h + 9), raw = Le32(h + 13), check = Le32(h + 17);
      if (compressed == 0 && raw == 0) continue;  // end of one stream; another may follow
      if (raw > EventLineReader::kMaxBlockBytes || compressed > EventLineReader::kMaxBlockBytes) {
        // Checked before any allocation: a corrupt or hostile header must not reserve GiBs.
        return Fail("block header claims " + std::to_string(compressed) + " compressed and " +
                    std::to_string(raw) + " decompressed bytes, more than the " +
                    std::to_string(EventLineReader::kMaxBlockBytes) + "-byte block limit");
      }
      buf_.resize(compressed);
      if (in_->Read(buf_.data(), compressed) != compressed) return Fail("truncated block");
      std::size_t old = out->size();
      out->resize(old + raw);
      if (method == 0x10) {
        if (compressed != raw) return Fail("stored block with differing lengths");
        std::memcpy(out->data() + old, buf_.data(), raw);
      } else if (method == 0x20) {
        int n = LZ4_decompress_safe(buf_.data(), out->data() + old, static_cast<int>(compressed),
                                    static_cast<int>(raw));
        if (n < 0 || static_cast<std::uint32_t>(n) != raw) {
          out->resize(old);
          return Fail("block does not decompress");
        }
      } else {
        out->resize(old);
        return Fail("unknown block method");
      }
      if ((XXH32(out->data() + old, raw, kLz4Seed) & 0x0FFFFFFFu) != check) {
        out->resize(old);
        return Fail("block checksum mismatch");
      }
      if (raw > 0) return true;
    }
  }
};

// The LZ4 frame format (what the `lz4` command-line tool writes, lz4frame.h); concatenated frames
// decode as one stream, like lz4-java's concatenated block streams.
class Lz4FrameDecoder : public Decoder {
 public:
  explicit Lz4FrameDecoder(FileInput* in)
      : Decoder(in, "lz4 stream (lz4 frame format)"), in_buf_(kReadChunkBytes, '\0') {
    if (LZ4F_isError(LZ4F_createDecompressionContext(&ctx_, LZ4F_VERSION))) ctx_ = nullptr;
  }
  ~Lz4FrameDecoder() override {
    if (ctx_) LZ4F_freeDecompressionContext(ctx_);
  }
  bool Fill(std::string* out) override {
    if (!error_.empty()) return false;
    if (!ctx_) return Fail("cannot create a decompression context");
    while (true) {
      if (pos_ == size_) {
        size_ = in_->Read(in_buf_.data(), in_buf_.size());
        pos_ = 0;
        if (size_ == 0) {
          if (!frame_done_) {
            Fail("truncated lz4 frame at byte " + WithThousands(in_->bytes()) +
                 " (the end of the file)");
          }
          return false;
        }
      }
      std::size_t old = out->size();
      out->resize(old + kReadChunkBytes);
      std::size_t out_size = kReadChunkBytes, in_size = size_ - pos_;
      std::size_t rc = LZ4F_decompress(ctx_, out->data() + old, &out_size, in_buf_.data() + pos_,
                                       &in_size, nullptr);
      out->resize(old + out_size);
      pos_ += in_size;
      if (LZ4F_isError(rc)) {
        Fail(std::string(LZ4F_getErrorName(rc)) + " at byte " +
             WithThousands(in_->bytes() - static_cast<std::int64_t>(size_ - pos_)));
        return out_size > 0;
      }
      frame_done_ = rc == 0;  // 0: a frame ended; another may follow
      if (out_size > 0) return true;
    }
  }

 private:
  LZ4F_dctx* ctx_ = nullptr;
  std::string in_buf_;
  std::size_t pos_ = 0, size_ = 0;
  bool frame_done_ = true;
};

// snappy-java SnappyOutputStream: 16-byte header (magic, version, compatible version), then
// chunks of [length BE][raw snappy block]. A header may appear again (concatenated streams).
class SnappyStreamDecoder : public Decoder {
 public:
  explicit SnappyStreamDecoder(FileInput* in) : Decoder(in, "snappy stream") {}
  bool Fill(std::string* out) override {
    while (true) {
      unsigned char len_be[4];
      std::size_t got = in_->Read(len_be, 4);
      if (got == 0) return false;
      if (got < 4) return Fail("truncated chunk length");
      if (len_be[0] == 0x82 && len_be[1] == 'S' && len_be[2] == 'N' && len_be[3] == 'A') {
        unsigned char rest[12];
        if (in_->Read(rest, 12) != 12 || std::memcmp(rest, "PPY\0", 4) != 0) {
          return Fail("bad stream header");
        }
        continue;
      }
      std::uint32_t n = Be32(len_be);
      if (n > EventLineReader::kMaxBlockBytes) {
        return Fail("chunk header claims " + std::to_string(n) + " bytes, more than the " +
                    std::to_string(EventLineReader::kMaxBlockBytes) + "-byte chunk limit");
      }
      buf_.resize(n);
      if (in_->Read(buf_.data(), n) != n) return Fail("truncated chunk");
      std::size_t raw = 0;
      if (snappy_uncompressed_length(buf_.data(), n, &raw) != SNAPPY_OK) {
        return Fail("chunk does not decompress");
      }
      if (raw > EventLineReader::kMaxBlockBytes) {
        return Fail("chunk claims " + std::to_string(raw) + " decompressed bytes, more than the " +
                    std::to_string(EventLineReader::kMaxBlockBytes) + "-byte chunk limit");
      }
      std::size_t old = out->size();
      out->resize(old + raw);
      if (snappy_uncompress(buf_.data(), n, out->data() + old, &raw) != SNAPPY_OK) {
        out->resize(old);
        return Fail("chunk does not decompress");
      }
      out->resize(old + raw);
      if (raw > 0) return true;
    }
  }
};

// compress-lzf chunks: "ZV", type 0 (stored: length BE16, bytes) or 1 (compressed: compressed
// length BE16, raw length BE16, bytes).
class LzfDecoder : public Decoder {
 public:
  explicit LzfDecoder(FileInput* in) : Decoder(in, "lzf stream") {}
  bool Fill(std::string* out) override {
    while (true) {
      unsigned char h[5];
      std::size_t got = in_->Read(h, 5);
      if (got == 0) return false;
      if (got < 5 || h[0] != 'Z' || h[1] != 'V') return Fail("bad chunk header");
      std::size_t n = (std::size_t{h[3]} << 8) | h[4];
      if (h[2] == 0) {
        std::size_t old = out->size();
        out->resize(old + n);
        if (in_->Read(out->data() + old, n) != n) return Fail("truncated chunk");
      } else if (h[2] == 1) {
        unsigned char r[2];
        if (in_->Read(r, 2) != 2) return Fail("truncated chunk header");
        std::size_t raw = (std::size_t{r[0]} << 8) | r[1];
        buf_.resize(n);
        if (in_->Read(buf_.data(), n) != n) return Fail("truncated chunk");
        std::size_t old = out->size();
        out->resize(old + raw);
        if (!detail::LzfDecompress(std::string_view(buf_.data(), n), out->data() + old, raw)) {
          out->resize(old);
          return Fail("chunk does not decompress");
        }
      } else {
        return Fail("unknown chunk type");
      }
      if (n > 0) return true;
    }
  }
};

std::string Basename(const std::string& path) { return fs::path(path).filename().string(); }

// Numeric part index of "events_<n>_<app>[.codec]", or -1.
long PartIndex(const std::string& file_name) {
  if (!StartsWith(file_name, "events_")) return -1;
  std::size_t i = 7, start = 7;
  while (i < file_name.size() && file_name[i] >= '0' && file_name[i] <= '9') ++i;
  if (i == start || i >= file_name.size() || file_name[i] != '_') return -1;
  return std::stol(file_name.substr(start, i - start));
}

void AddRollingFolder(const fs::path& dir, std::vector<EventLogSource>* out) {
  EventLogSource src;
  src.name = dir.string();
  src.rolling = true;
  std::map<long, std::string> parts;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    std::string base = entry.path().filename().string();
    if (StartsWith(base, "appstatus_")) {
      src.in_progress = EndsWith(base, kInProgress);
    } else if (long idx = PartIndex(base); idx >= 0 && entry.is_regular_file()) {
      parts[idx] = entry.path().string();
    }
  }
  for (auto& [idx, path] : parts) src.parts.push_back(std::move(path));
  if (!src.parts.empty()) out->push_back(std::move(src));
}

void AddPath(const fs::path& path, std::vector<EventLogSource>* out,
             std::vector<SkippedLine>* missing) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    if (StartsWith(path.filename().string(), "eventlog_v2_")) {
      AddRollingFolder(path, out);
      return;
    }
    std::vector<fs::path> children;
    for (const auto& entry : fs::directory_iterator(path, ec)) children.push_back(entry.path());
    std::sort(children.begin(), children.end());
    for (const auto& child : children) {
      std::string base = child.filename().string();
      if (StartsWith(base, ".")) continue;  // hidden files, e.g. Spark's .crc checksums
      // Files next to logs that are never event logs (expectations, notes, checksums). A file
      // named explicitly on the command line is always read.
      bool not_log = false;
      for (std::string_view ext : {".json", ".csv", ".md", ".txt", ".crc", ".html", ".yaml", ".db",
                                   ".db-journal", ".db-wal", ".db-shm"}) {
        not_log |= EndsWith(base, ext);
      }
      if (not_log && !fs::is_directory(child, ec)) continue;
      AddPath(child, out, missing);
    }
    return;
  }
  if (fs::is_regular_file(path, ec)) {
    EventLogSource src;
    src.name = path.string();
    src.parts = {path.string()};
    src.in_progress = EndsWith(src.name, kInProgress);
    out->push_back(std::move(src));
    return;
  }
  missing->push_back({path.string(), 0, "no such file or folder"});
}

}  // namespace

constexpr models::EnumName<Codec> kCodecNames[] = {
    {Codec::kPlain, "plain"}, {Codec::kGzip, "gzip"},     {Codec::kZstd, "zstd"},
    {Codec::kLz4, "lz4"},     {Codec::kSnappy, "snappy"}, {Codec::kLzf, "lzf"}};

std::string_view ToString(Codec codec) { return models::NameOf(kCodecNames, codec); }

Codec CodecFromFileName(std::string_view name) {
  if (EndsWith(name, kInProgress)) name.remove_suffix(kInProgress.size());
  if (EndsWith(name, ".zstd") || EndsWith(name, ".zst")) return Codec::kZstd;
  if (EndsWith(name, ".lz4")) return Codec::kLz4;
  if (EndsWith(name, ".snappy")) return Codec::kSnappy;
  if (EndsWith(name, ".lzf")) return Codec::kLzf;
  if (EndsWith(name, ".gz")) return Codec::kGzip;
  return Codec::kPlain;
}

Codec CodecFromContent(std::string_view head) {
  if (StartsWith(head, kZstdMagic)) return Codec::kZstd;
  if (StartsWith(head, kLz4Magic) || StartsWith(head, kLz4FrameMagic)) return Codec::kLz4;
  if (StartsWith(head, kSnappyMagic)) return Codec::kSnappy;
  if (StartsWith(head, kGzipMagic)) return Codec::kGzip;
  if (head.size() >= 3 && StartsWith(head, kLzfMagic) && (head[2] == 0 || head[2] == 1)) {
    return Codec::kLzf;
  }
  return Codec::kPlain;
}

std::vector<EventLogSource> FindEventLogs(const std::vector<std::string>& paths,
                                          std::vector<SkippedLine>* missing) {
  std::vector<EventLogSource> out;
  for (const std::string& p : paths) AddPath(fs::path(p), &out, missing);
  return out;
}

// One part file being read: the file, its decoder and the line reader over the decoded bytes. A
// decoder failure is reported at the line it cut short.
class EventLineReader::Part : public LineSource {
 public:
  Part(std::vector<SkippedLine>* skipped, std::size_t max_line_bytes)
      : lines(this, max_line_bytes), skipped_(skipped) {}
  bool Read(std::string* out) override {
    if (decoder->Fill(out)) return true;
    if (!decoder->error().empty())
      skipped_->push_back({path, lines.line_number() + 1, decoder->error()});
    return false;
  }
  std::string path;
  Codec codec = Codec::kPlain;
  std::unique_ptr<FileInput> input;
  std::unique_ptr<Decoder> decoder;
  BoundedLineReader lines;

 private:
  std::vector<SkippedLine>* skipped_;
};

EventLineReader::EventLineReader(EventLogSource source, std::size_t max_line_bytes)
    : source_(std::move(source)), max_line_bytes_(max_line_bytes) {}
EventLineReader::~EventLineReader() = default;

const std::string& EventLineReader::current_file() const { return part_ ? part_->path : empty_; }
std::int64_t EventLineReader::current_line() const {
  return part_ ? part_->lines.line_number() : 0;
}
bool EventLineReader::current_line_unterminated() const {
  return part_ && !part_->lines.terminated();
}
std::size_t EventLineReader::bytes_after_line() const {
  return part_ ? part_->lines.bytes_after_line() : 0;
}
Codec EventLineReader::current_codec() const { return part_ ? part_->codec : Codec::kPlain; }
std::int64_t EventLineReader::file_bytes_read() const {
  return bytes_done_ + (part_ && part_->input ? part_->input->bytes() : 0);
}

bool EventLineReader::OpenNextPart() {
  if (part_ && part_->input) bytes_done_ += part_->input->bytes();
  part_.reset();
  while (next_part_ < source_.parts.size()) {
    const std::string& path = source_.parts[next_part_++];
    if (Status s = CheckInputPath(path); !s.ok()) {
      std::string message = s.message();
      if (message.rfind(path + ": ", 0) == 0) message.erase(0, path.size() + 2);
      skipped_.push_back({path, 0, message});
      continue;
    }
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) {
      skipped_.push_back({path, 0, std::string("cannot open: ") + std::strerror(errno)});
      continue;
    }
    char head[16] = {};
    std::size_t n = std::fread(head, 1, sizeof(head), f);
    std::rewind(f);
    auto part = std::make_unique<Part>(&skipped_, max_line_bytes_);
    part->path = path;
    part->input = std::make_unique<FileInput>(f);
    Codec by_name = CodecFromFileName(Basename(path));
    Codec by_content = CodecFromContent(std::string_view(head, n));
    Codec codec = by_name;
    if (n > 0 && by_name != by_content) {
      // Trust the bytes: a renamed or mislabelled file still reads, with a note.
      skipped_.push_back({path, 0,
                          "file name says " + std::string(ToString(by_name)) +
                              " but the content is " + std::string(ToString(by_content)) +
                              "; read as " + std::string(ToString(by_content))});
      codec = by_content;
    }
    part->codec = codec;
    FileInput* in = part->input.get();
    switch (codec) {
      case Codec::kPlain:
        part->decoder = std::make_unique<PlainDecoder>(in);
        break;
      case Codec::kGzip:
        part->decoder = std::make_unique<GzipDecoder>(in);
        break;
      case Codec::kZstd:
        part->decoder = std::make_unique<ZstdDecoder>(in);
        break;
      case Codec::kLz4:
        // Spark writes lz4-java's block framing; the lz4 tool writes the frame format.
        if (StartsWith(std::string_view(head, n), kLz4FrameMagic)) {
          part->decoder = std::make_unique<Lz4FrameDecoder>(in);
        } else {
          part->decoder = std::make_unique<Lz4BlockDecoder>(in);
        }
        break;
      case Codec::kSnappy:
        part->decoder = std::make_unique<SnappyStreamDecoder>(in);
        break;
      case Codec::kLzf:
        part->decoder = std::make_unique<LzfDecoder>(in);
        break;
    }
    part_ = std::move(part);
    return true;
  }
  return false;
}

bool EventLineReader::Next(std::string_view* line) {
  while (part_ || OpenNextPart()) {
    while (part_->lines.Next(line)) {
      if (!part_->lines.too_long()) return true;
      skipped_.push_back({part_->path, part_->lines.line_number(), TooLongReason(max_line_bytes_)});
    }
    if (!OpenNextPart()) return false;
  }
  return false;
}

}  // namespace perfplan::profiles::spark
