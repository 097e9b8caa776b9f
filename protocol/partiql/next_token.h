// ExecuteStatement's NextToken: where a SELECT's page ended (its LastEvaluatedKey), bound to the
// statement and parameters it came from, so another statement cannot resume with it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "engine/error.h"
#include "engine/model/attribute_value.h"

namespace ddbd::partiql {

// A stable 64-bit fingerprint (FNV-1a) of a statement's text and its parameters' JSON.
uint64_t StatementFingerprint(std::string_view statement, std::string_view parameters_json);

// Where to resume: after `key`, in `partition` of a `pk IN [...]` SELECT (0 otherwise).
struct ResumePoint {
  size_t partition = 0;
  Item key;
};

std::string EncodeNextToken(uint64_t fingerprint, const ResumePoint& resume);

// ValidationException "Invalid NextToken" for a token this server did not make, "NextToken does
// not match request" for another statement's.
Result<ResumePoint> DecodeNextToken(std::string_view token, uint64_t fingerprint);

}  // namespace ddbd::partiql
