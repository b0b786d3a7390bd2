#include "profiles/scratch_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

namespace perfplan::profiles {
namespace {

class TempScratchFile : public models::ScratchFile {
 public:
  explicit TempScratchFile(int fd) : fd_(fd) {}
  ~TempScratchFile() override { ::close(fd_); }
  TempScratchFile(const TempScratchFile&) = delete;
  TempScratchFile& operator=(const TempScratchFile&) = delete;

  Status Append(const void* data, std::size_t bytes) override {
    const auto* p = static_cast<const char*>(data);
    while (bytes > 0) {
      const ssize_t n = ::pwrite(fd_, p, bytes, static_cast<off_t>(size_));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return Error("write");
      p += n, bytes -= static_cast<std::size_t>(n), size_ += static_cast<std::uint64_t>(n);
    }
    return Status::Ok();
  }
  Status Read(std::uint64_t offset, void* data, std::size_t bytes) override {
    auto* p = static_cast<char*>(data);
    while (bytes > 0) {
      const ssize_t n = ::pread(fd_, p, bytes, static_cast<off_t>(offset));
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return Error("read");
      if (n == 0) return Status::Failed("scratch file: read past its end");
      p += n, bytes -= static_cast<std::size_t>(n), offset += static_cast<std::uint64_t>(n);
    }
    return Status::Ok();
  }

 private:
  static Status Error(const char* what) {
    return Status::Failed(std::string("scratch file: cannot ") + what + ": " +
                          std::strerror(errno));
  }
  int fd_;
  std::uint64_t size_ = 0;
};

}  // namespace

Result<std::unique_ptr<models::ScratchFile>> OpenScratchFile() {
  std::error_code ec;
  std::filesystem::path dir = std::filesystem::temp_directory_path(ec);
  if (ec) dir = "/tmp";
  std::string name = (dir / "perfplan-scratch-XXXXXX").string();
  std::vector<char> buffer(name.begin(), name.end());
  buffer.push_back('\0');
  const int fd = ::mkstemp(buffer.data());
  if (fd < 0) {
    return Status::Failed(dir.string() + ": cannot create a scratch file: " +
                          std::strerror(errno) + " (set TMPDIR to a writable folder)");
  }
  ::unlink(buffer.data());
  return std::unique_ptr<models::ScratchFile>(std::make_unique<TempScratchFile>(fd));
}

}  // namespace perfplan::profiles
