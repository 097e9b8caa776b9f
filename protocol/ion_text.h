// Amazon Ion text, as DynamoDB's ION exports write it, read back as DynamoDB JSON so an import's
// ION line goes through the same value rules as a DYNAMODB_JSON one (protocol/item_lines.cc).
//
// The Ion read: an optional $ion_1_0 version marker, then one value; structs ({name: value, ...},
// names as identifiers, "strings" or 'symbols'), lists, strings ("..." with Ion's escapes, and
// '''long''' strings, joined), decimals and integers (6d2, 103., -1.5, 1_000) and floats (1.5e3),
// blobs ({{base64}}), true/false, null (and typed nulls), annotations, and comments. DynamoDB's
// mapping: string S, number N, blob B, bool BOOL, null NULL, list L, struct M, and a list
// annotated $dynamodb_SS, $dynamodb_NS or $dynamodb_BS a set. What DynamoDB never writes (clobs,
// timestamps, symbols as values, s-expressions, hex and binary integers) does not read.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace ddbd {

// How deep values may nest in one line: twice DynamoDB's 32 levels of an item's documents.
inline constexpr int kIonDepthLimit = 64;

// The DynamoDB JSON of the Ion value `text` holds ({"Item":{...}} for an export's line), or
// nullopt when it does not read as Ion or has no DynamoDB meaning.
std::optional<std::string> IonToDynamoDbJson(std::string_view text);

}  // namespace ddbd
