#include "protocol/partiql/request.h"

#include "protocol/json_writer.h"
#include "protocol/partiql/next_token.h"

namespace ddbd::partiql {
// Computed only when a NextToken is read or written: most statements need none.
uint64_t Fingerprint(const StatementRequest& request) {
  if (request.parameters_json == nullptr) return StatementFingerprint(request.statement, "");
  json::Buffer buffer;
  json::Writer writer(buffer);
  request.parameters_json->Accept(writer);
  return StatementFingerprint(request.statement,
                              std::string_view(buffer.GetString(), buffer.GetSize()));
}

}  // namespace ddbd::partiql
