// Who may talk to a local ddbd from a browser, and by which name. A web page the developer opens
// must not reach their local database: CORS allows only loopback origins (and the page ddbd itself
// served) unless --cors widens it, and a server bound to loopback answers only requests that name
// it by a loopback name, so a page that rebinds its own DNS name to 127.0.0.1 is refused.
//
// Thread safety: pure functions.
#pragma once

#include <string_view>

namespace ddbd {

// `host` as a Host header carries it (an optional ":port" after a name, an IPv4 address or a
// bracketed IPv6 one): localhost or a name under .localhost (RFC 6761), 127.0.0.0/8, or [::1].
bool IsLoopbackHost(std::string_view host);
// An Origin ("scheme://host[:port]") whose scheme is http or https and whose host is loopback.
bool IsLoopbackOrigin(std::string_view origin);
// `origin` is the page's own: "http://" or "https://" followed by exactly `host` (the Host the
// request was sent to), as the console ddbd serves is.
bool IsSameOrigin(std::string_view origin, std::string_view host);
// Whether `address` (the --host ddbd binds, an IP address) is a loopback address.
bool IsLoopbackAddress(std::string_view address);

}  // namespace ddbd
