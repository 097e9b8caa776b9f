// The one reader of request bodies: walks a body against its operation's input shape
// (protocol/generated/requests.cc) once, as DynamoDB's front end reads and checks it. Each
// operation's Decode (protocol/generated/requests.h) calls it and types what it found.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "engine/error.h"
#include "protocol/json_reader.h"
#include "protocol/wire/shape.h"

namespace ddbd::wire {

// Reads `body` against `input`, a structure: `values[i]` gets its i-th member's value, or null
// when absent or JSON null. DynamoDB's order of refusals:
// - a member of the wrong JSON type, at any depth, the first in the order sent, is a
//   SerializationException with coral's text (unknown members are ignored);
// - else every failed constraint (required, length, value range, pattern, enum, map keys) at
//   every depth goes into one ValidationException, in DynamoDB's order: a structure's members by
//   their report rank, a list's and a map's entries as sent.
// Attribute values are left to the attribute decoder (Kind::kAttributeValue); the rules an
// operation adds (expressions, keys, tables) come after, in its handler. Given `constraints`, the
// ValidationException goes there and Read answers only a SerializationException.
Status Read(const Shape& input, const json::Value& body, const json::Value** values,
            Status* constraints = nullptr);

// The members of `object`, a structure of a request Read has checked, by `shape`'s member order,
// as Read gives them (what View in protocol/generated/requests.h types).
void Collect(const Shape& shape, const json::Value& object, const json::Value** values);

// What Read found, typed: each null for an absent member.
std::optional<std::string_view> String(const json::Value* value);
std::optional<int64_t> Number(const json::Value* value);  // integers and longs
std::optional<double> Double(const json::Value* value);
std::optional<bool> Boolean(const json::Value* value);
std::optional<int64_t> TimestampMs(const json::Value* value);  // epoch seconds as sent, in ms

}  // namespace ddbd::wire
