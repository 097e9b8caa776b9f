// DynamoDB's newer front end, which serves SearchVectors, reads a request's JSON with serde
// (recorded against AWS: ../shared/aws-semantics.md section 11): a fraction where an integer goes
// is a SerializationException that names the number and where the body's reader stood after it,
// "invalid type: floating point `3.5`, expected i32 at line 1 column 42". Read from the body as
// sent, before it is parsed in place.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace ddbd {

// The refusal of `body` for `operation` (its name, as the target gives it), or none: only the
// newer front end's operations and integer members are checked (SearchVectors' TopK).
std::optional<std::string> FractionWhereIntegerGoes(std::string_view operation,
                                                    const std::string& body);

}  // namespace ddbd
