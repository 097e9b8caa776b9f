#include "protocol/authorization.h"

#include <array>

#include "protocol/ascii.h"

namespace ddbd {
namespace {}  // namespace

std::optional<Authorization> ParseAuthorization(std::string_view header) {
  header = TrimSpaces(header);
  if (!header.starts_with("AWS4-")) return std::nullopt;
  Authorization parsed;
  const size_t space = header.find(' ');
  if (space == std::string_view::npos) return std::nullopt;
  parsed.algorithm = header.substr(0, space);
  // The rest: Name=value pairs separated by commas, spaces or both (AWS takes spaces alone:
  // behaviours-to-match A3; no value holds either).
  std::string_view rest = header.substr(space + 1);
  std::string_view credential;
  bool has_credential = false;
  while (!rest.empty()) {
    const size_t comma = rest.find_first_of(", \t");
    const std::string_view pair = TrimSpaces(rest.substr(0, comma));
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    const size_t equals = pair.find('=');
    if (equals == std::string_view::npos) continue;
    const std::string_view name = pair.substr(0, equals);
    const std::string_view value = pair.substr(equals + 1);
    if (name == "Credential") {
      credential = value;
      has_credential = true;
    } else if (name == "SignedHeaders") {
      parsed.signed_headers = value;
    } else if (name == "Signature") {
      parsed.signature = value;
    }
  }
  if (!has_credential) return std::nullopt;
  // The access key id is what comes before the last four parts (it has no '/' in practice, but
  // the scope's shape is what is fixed).
  std::array<std::string_view, 4> scope;
  for (size_t i = scope.size(); i-- > 0;) {
    const size_t slash = credential.rfind('/');
    if (slash == std::string_view::npos) return std::nullopt;
    scope[i] = credential.substr(slash + 1);
    credential = credential.substr(0, slash);
  }
  parsed.access_key_id = credential;
  parsed.date = scope[0];
  parsed.region = scope[1];
  parsed.service = scope[2];
  if (scope[3] != "aws4_request" || parsed.access_key_id.empty() || parsed.date.empty() ||
      parsed.region.empty() || parsed.service.empty()) {
    return std::nullopt;
  }
  return parsed;
}

}  // namespace ddbd
