// The bytes a table orders its items by: an 8-byte stable hash of the partition key, the
// partition key, then the sort key, each in an order-preserving, self-delimiting encoding
// (strings and binary by unsigned bytes, numbers by value). memcmp on these bytes is DynamoDB's
// item order: a Query is a range under one (hash, partition key) prefix; a Scan walks hash order.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "engine/model/attribute_value.h"

namespace ddbd {

// `value` must be an S, N or B attribute.
void AppendKeyValue(std::string& out, const AttributeValue& value);
// The same from a type (S, N or B) and its scalar as stored (a number's canonical text).
void AppendKeyValue(std::string& out, AttributeType type, std::string_view scalar);

// `sort` may be null for tables without a sort key.
std::string EncodeTableKey(const AttributeValue& partition, const AttributeValue* sort);

// Key bytes built value by value, for keys of several attributes (a global index's
// multi-attribute key): BeginKeyBytes, AppendKeyValue for each partition value, EndPartition
// (which writes the hash of what follows it), then AppendKeyValue for each sort value. For one
// partition and one sort value the bytes are EncodeTableKey's.
inline std::string BeginKeyBytes() { return std::string(8, '\0'); }
void EndPartition(std::string& key);

// The length of the partition part (hash and partition key) at the start of table key bytes
// whose partition key has type `type`.
size_t PartitionPrefixLength(std::string_view key, AttributeType type);
// The same for key bytes whose partition has a value of each of `types`, in order (a global
// index's key may have up to four).
size_t PartitionPrefixLength(std::string_view key, std::span<const AttributeType> types);

// A hash of the partition key's bytes that never changes between runs or machines (stored data
// and Scan order depend on it).
uint64_t StablePartitionHash(std::string_view partition_bytes);

// A key's leading partition hash as its 8 bytes, big-endian: byte order is the hash's order.
std::array<char, 8> PartitionHashBytes(uint64_t hash);

}  // namespace ddbd
