// The lines of an import's data file: decompressed as ImportTable's InputCompressionType says
// (GZIP: every gzip member, by ISA-L's igzip; ZSTD: every frame, by libzstd; NONE), split at
// newlines (a "\r" before one dropped, a last line without one kept), a block at a time.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "engine/api/imports.h"

namespace ddbd {

// Calls `line` with each line of `bytes` until it returns false. False with `failure` set when
// the bytes do not decompress (the file counts as one error; lines before it were read).
bool ForEachLine(std::string_view bytes, InputCompressionType compression,
                 const std::function<bool(std::string_view line)>& line, std::string& failure);

}  // namespace ddbd
