// LZF block decompression (the format of liblzf and the Java compress-lzf library Spark uses).
// Pure function over bytes; thread-safe.
#pragma once

#include <cstddef>
#include <string_view>

namespace perfplan::profiles::detail {

// Decompresses one LZF block into out[0, raw_bytes). True when the block decodes to exactly
// raw_bytes bytes without reading or writing out of bounds; false on any corrupt input.
bool LzfDecompress(std::string_view in, char* out, std::size_t raw_bytes);

}  // namespace perfplan::profiles::detail
