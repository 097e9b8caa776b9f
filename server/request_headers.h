// The request headers the router reads, taken from Beast's parsed request (only the HTTP server
// includes this: it brings Beast's headers with it).
#pragma once

#include <boost/beast/http.hpp>
#include <string_view>

#include "server/http_types.h"

namespace ddbd {

// Beast's string_view as the standard one.
inline std::string_view View(boost::beast::string_view text) { return {text.data(), text.size()}; }

// Fills `plain`'s header views (Host, Content-Type, Authorization, Origin, the CORS preflight's
// Access-Control-Request-Headers and -Method, Accept-Encoding, X-Amz-Target, X-Amz-Date) from
// `request`, which they point into, and returns Content-Encoding. A header sent twice counts by
// its first line (as a lookup by name finds it), but Content-Encoding by its last, and
// X-Amz-Target and X-Amz-Date by their first non-empty one.
std::string_view ReadHeaders(
    const boost::beast::http::request<boost::beast::http::string_body>& request,
    HttpRequest& plain);

}  // namespace ddbd
