// Opening inputs safely: the one check every reader makes before it opens a path or reads stdin.
//
// A directory, a device (/dev/zero, a terminal), a socket or a FIFO nobody writes to is not a
// log, profile or table: reading it either throws inside the standard library (a directory under
// std::ifstream), never ends (/dev/zero) or blocks forever (a FIFO without a writer). These
// functions turn each case into a Status that names the path and what it is. The only I/O in
// models/: stat/fstat and, for a FIFO, one bounded poll; nothing is read.
//
// Thread-safe (no shared state). Messages: "<shown>: is a directory, not a file", …
#pragma once

#include <string>

#include "models/status.h"

namespace perfplan {

// How long a FIFO (named pipe, or a pipe passed as /dev/fd/N) may stay silent before it is
// refused as "no writer". Process substitution and shell pipes write at once; a FIFO that
// nobody opened for writing never does.
inline constexpr int kFifoWriterWaitMilliseconds = 2000;

// Ok when `path` names a regular file, or a FIFO/pipe that has data or a writer that closes it
// within kFifoWriterWaitMilliseconds. NotFound when it does not exist or cannot be opened (the
// message carries strerror); InvalidArgument for a directory, device, socket or silent FIFO.
// `shown` is the name used in the message (defaults to `path`).
Status CheckInputPath(const std::string& path, const std::string& shown = "");

// The same check for an already open descriptor (0 = standard input, shown as "<stdin>"): a
// terminal is allowed (the user types), a directory (`< DIR`) or other device is refused.
Status CheckInputDescriptor(int fd, const std::string& shown = "<stdin>");

// Reads the whole file after CheckInputPath; "-" reads standard input (after
// CheckInputDescriptor(0)). A read error (EIO, EISDIR) is Failed with strerror; never throws.
Result<std::string> ReadInputFile(const std::string& path, const std::string& shown = "");

}  // namespace perfplan
