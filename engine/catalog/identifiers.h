// Identifiers DynamoDB mints for tables: TableId (a UUID) and stream labels (a timestamp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ddbd {

// A random version-4 UUID in lowercase hex, e.g. "0b5ab5c4-...". Thread-safe.
std::string NewTableId();

// DynamoDB's stream label: the UTC time as "YYYY-MM-DDTHH:MM:SS.mmm".
std::string StreamLabel(int64_t epoch_ms);
// Its time back; nullopt for text that is not one.
std::optional<int64_t> ParseStreamLabel(std::string_view label);

}  // namespace ddbd
