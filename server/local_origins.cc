#include "server/local_origins.h"

#include <algorithm>

#include "protocol/ascii.h"

namespace ddbd {
namespace {

bool EndsWithIgnoringCase(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() &&
         EqualsIgnoringCase(text.substr(text.size() - suffix.size()), suffix);
}

bool AllDigits(std::string_view text) {
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// 127.a.b.c, each part 0-255 in decimal (read in place: every request's Host goes through here).
bool IsLoopbackIpv4(std::string_view address) {
  if (!address.starts_with("127.")) return false;
  int dots = 1;  // the one after 127
  int value = 0;
  size_t digits = 0;
  for (size_t i = 4; i < address.size(); ++i) {
    const char c = address[i];
    if (c == '.') {
      if (digits == 0 || ++dots > 3) return false;
      value = 0;
      digits = 0;
    } else if (c >= '0' && c <= '9' && digits < 3) {
      value = value * 10 + (c - '0');
      if (value > 255) return false;
      ++digits;
    } else {
      return false;
    }
  }
  return dots == 3 && digits > 0;
}

bool IsLoopbackIpv6(std::string_view address) {
  return address == "::1" || EqualsIgnoringCase(address, "0:0:0:0:0:0:0:1");
}

// The name or address of a Host value, without its port and brackets; empty when malformed.
std::string_view HostName(std::string_view host) {
  if (host.starts_with('[')) {
    const size_t close = host.find(']');
    if (close == std::string_view::npos) return {};
    const std::string_view rest = host.substr(close + 1);
    if (!rest.empty() && !(rest.starts_with(':') && AllDigits(rest.substr(1)))) return {};
    return host.substr(1, close - 1);
  }
  const size_t colon = host.find(':');
  if (colon != std::string_view::npos && !AllDigits(host.substr(colon + 1))) return {};
  return host.substr(0, colon);
}

}  // namespace

bool IsLoopbackAddress(std::string_view address) {
  return IsLoopbackIpv4(address) || IsLoopbackIpv6(address);
}

bool IsLoopbackHost(std::string_view host) {
  const bool bracketed = host.starts_with('[');
  std::string_view name = HostName(host);
  if (name.ends_with('.')) name.remove_suffix(1);  // a fully qualified "localhost."
  if (name.empty()) return false;
  if (bracketed) return IsLoopbackIpv6(name);
  return EqualsIgnoringCase(name, "localhost") || EndsWithIgnoringCase(name, ".localhost") ||
         IsLoopbackIpv4(name);
}

bool IsLoopbackOrigin(std::string_view origin) {
  for (std::string_view scheme : {"http://", "https://"}) {
    if (origin.size() > scheme.size() &&
        EqualsIgnoringCase(origin.substr(0, scheme.size()), scheme)) {
      return IsLoopbackHost(origin.substr(scheme.size()));
    }
  }
  return false;
}

bool IsSameOrigin(std::string_view origin, std::string_view host) {
  if (host.empty()) return false;
  for (std::string_view scheme : {"http://", "https://"}) {
    if (origin.size() == scheme.size() + host.size() && origin.starts_with(scheme) &&
        EqualsIgnoringCase(origin.substr(scheme.size()), host)) {
      return true;
    }
  }
  return false;
}

}  // namespace ddbd
