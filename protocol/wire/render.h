// How coral's validation messages render what a request sent: values in Java's toString form
// (structures as Name(member=value, ...), lists as [a, b], maps as {k=v}), maps as compact JSON,
// and a shape's constraints as the set a list member, map key or value is checked against. Every
// rendering is bounded in depth and size, however deep or large the request.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "protocol/json_reader.h"
#include "protocol/wire/shape.h"

namespace ddbd::wire {

// The text of a pattern, as a message quotes it.
std::string_view PatternText(Pattern pattern);

// `value` as compact JSON, its nesting cut at 64 levels ("..." stands for a deeper value): a
// request may nest far deeper than a thread's stack allows to render by recursion.
std::string CompactJson(const json::Value& value);

// A value as coral's messages quote it: Java's toString of what it deserialized.
std::string JavaText(const Shape& shape, const json::Value& value, size_t depth = 0);
// Java's toString of a map of `value_shape` values: {key=value, ...}.
std::string JavaMapText(const Shape& value_shape, const json::Value& map);

// A list or map quoted whole, as coral quotes them, up to a bound (a message never grows without
// limit with the request).
std::string QuotedCollection(const std::string& text);

// Every constraint of `shape` as coral lists a member's, key's or value's set: "[Member must have
// length less than or equal to 255, Member must have length greater than or equal to 3, Member
// must satisfy regular expression pattern: [a-zA-Z0-9_.-]+]".
std::string ConstraintSet(const Shape& shape);

}  // namespace ddbd::wire
