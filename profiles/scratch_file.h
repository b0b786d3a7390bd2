// Scratch storage for sorts that spill (models/external_sort.h) in a temporary file: created in
// $TMPDIR (else /tmp, std::filesystem::temp_directory_path), unlinked at once so nothing is left
// behind even when the process is killed, closed when the object goes. The bytes written are on
// disk (or in the page cache), not in the process's memory.
// Thread-safety: one thread.
#pragma once

#include <memory>

#include "models/external_sort.h"
#include "models/status.h"

namespace perfplan::profiles {

// A new empty scratch file; Failed naming the folder and the error when none can be created.
// Append and Read fail naming the error (e.g. "No space left on device").
Result<std::unique_ptr<models::ScratchFile>> OpenScratchFile();

}  // namespace perfplan::profiles
