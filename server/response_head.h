// The status line and headers of an answer, written directly into one string: Beast's serializer
// walks a chain of small buffers per header field, which cost ~1.1k instructions per field per
// answer (callgrind). Kept apart from http_server.cc (sessions and the listener), which it serves.
//
// Thread safety: may be called from any thread (the Date text is kept per thread).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "server/http_types.h"

namespace ddbd {

// HTTP/1.0 or 1.1 (`version` 10 or 11) `answer`'s status and its `reason` phrase, the answer's
// headers (HttpResponse says which and in what order), then Date, Server (DynamoDB's "Server"),
// Content-Length (of `body_size` bytes) and the Connection header `keep_alive` calls for.
std::string ResponseHead(const HttpResponse& answer, std::string_view reason, unsigned version,
                         size_t body_size, bool keep_alive);

// The whole answer AWS sends (an nginx page, then the connection closes) to a plain HTTP
// request on its HTTPS port (../shared/behaviours-to-match.md A2).
std::string PlainHttpOnHttpsPortAnswer();

}  // namespace ddbd
