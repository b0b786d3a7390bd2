#include "models/input_file.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace perfplan {
namespace {

std::string Name(const std::string& path, const std::string& shown) {
  return shown.empty() ? path : shown;
}

// What a non-regular, non-FIFO file is, for the message; empty when it may be read (a terminal).
std::string Refusal(const struct stat& st, int fd) {
  if (S_ISDIR(st.st_mode)) return "is a directory, not a file";
  if (S_ISSOCK(st.st_mode)) return "is a socket, not a file";
  if (S_ISBLK(st.st_mode)) return "is a block device, not a file";
  if (S_ISCHR(st.st_mode)) {
    if (fd >= 0 && isatty(fd)) return "";
    return "is a device, not a file";
  }
  return "";
}

// A FIFO is read when it has data or its writer has closed it; one nobody writes to is refused
// instead of blocking the reader forever.
Status CheckFifo(int fd, const std::string& name) {
  struct pollfd p {};
  p.fd = fd;
  p.events = POLLIN;
  int n = 0;
  do {
    n = poll(&p, 1, kFifoWriterWaitMilliseconds);
  } while (n < 0 && errno == EINTR);
  if (n > 0) return Status::Ok();
  return Status::InvalidArgument(name + ": is a pipe with no writer (nothing arrived within " +
                                 std::to_string(kFifoWriterWaitMilliseconds / 1000) + " s)");
}

Status ReadAll(int fd, const std::string& name, std::string* out) {
  char buffer[1 << 16];
  for (;;) {
    const ssize_t n = read(fd, buffer, sizeof buffer);
    if (n == 0) return Status::Ok();
    if (n < 0) {
      if (errno == EINTR) continue;
      return Status::Failed(name + ": read failed (" + std::strerror(errno) + ")");
    }
    out->append(buffer, static_cast<std::size_t>(n));
  }
}

// Checks an open descriptor against its stat; a FIFO is polled for a writer.
Status CheckOpen(int fd, const struct stat& st, const std::string& name) {
  if (S_ISREG(st.st_mode)) return Status::Ok();
  if (S_ISFIFO(st.st_mode)) return CheckFifo(fd, name);
  const std::string refusal = Refusal(st, fd);
  if (!refusal.empty()) return Status::InvalidArgument(name + ": " + refusal);
  return Status::Ok();
}

// Opens `path` without blocking (a FIFO without a writer would block open() itself), checks what
// it is, then makes the descriptor blocking for the reader. Returns -1 with *status set on failure.
int OpenChecked(const std::string& path, const std::string& name, Status* status) {
  const int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    *status = Status::NotFound(name + ": cannot open (" + std::strerror(errno) + ")");
    return -1;
  }
  struct stat st {};
  if (fstat(fd, &st) != 0) {
    *status = Status::NotFound(name + ": cannot open (" + std::strerror(errno) + ")");
  } else {
    *status = CheckOpen(fd, st, name);
  }
  if (!status->ok()) {
    close(fd);
    return -1;
  }
  const int flags = fcntl(fd, F_GETFL);
  if (flags >= 0) fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  return fd;
}

}  // namespace

Status CheckInputPath(const std::string& path, const std::string& shown) {
  Status status;
  const int fd = OpenChecked(path, Name(path, shown), &status);
  if (fd >= 0) close(fd);
  return status;
}

Status CheckInputDescriptor(int fd, const std::string& shown) {
  struct stat st {};
  if (fstat(fd, &st) != 0) {
    return Status::NotFound(shown + ": cannot read (" + std::strerror(errno) + ")");
  }
  // Standard input that is a pipe is read as it comes (the shell started its writer).
  if (S_ISFIFO(st.st_mode)) return Status::Ok();
  return CheckOpen(fd, st, shown);
}

Result<std::string> ReadInputFile(const std::string& path, const std::string& shown) {
  std::string text;
  if (path == "-") {
    const std::string name = shown.empty() ? "<stdin>" : shown;
    if (Status s = CheckInputDescriptor(0, name); !s.ok()) return s;
    if (Status s = ReadAll(0, name, &text); !s.ok()) return s;
    return text;
  }
  const std::string name = Name(path, shown);
  Status status;
  const int fd = OpenChecked(path, name, &status);
  if (fd < 0) return status;
  status = ReadAll(fd, name, &text);
  close(fd);
  if (!status.ok()) return status;
  return text;
}

}  // namespace perfplan
