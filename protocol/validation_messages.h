// DynamoDB's request-shape validation ("1 validation error detected: Value 'x' at 'path' failed
// to satisfy constraint: ..."): its templates, collected here so they stay verbatim. DynamoDB
// checks every member and reports all failures in one message, joined by "; ".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/error.h"

namespace ddbd {

// The most of a value a constraint failure quotes back: 65,536 bytes, one past the longest name
// DynamoDB allows (an attribute name's 65,535), so every value that breaks a length limit by
// little is quoted whole, as DynamoDB quotes it; a longer one is cut there and ends in "...".
inline constexpr size_t kMaxQuotedValueBytes = 65'536;
std::string Quoted(std::string_view value);

// Collects constraint failures for one request, in the order given (the generated layer's,
// protocol/wire/reader.cc, which renders each value as DynamoDB does).
class ConstraintErrors {
 public:
  // "Value <rendered_value> at '<path>' failed to satisfy constraint: <constraint>"; an empty
  // rendering gives "Value at '<path>'".
  void Add(std::string_view rendered_value, std::string_view path, std::string_view constraint);
  // A failure DynamoDB words whole, naming no member ("Attribute name is too large, ...").
  void AddWhole(std::string_view failure) { failures_.emplace_back(failure); }

  bool empty() const { return failures_.empty(); }
  // Ok, or a ValidationException listing every failure.
  Status ToStatus() const;

 private:
  std::vector<std::string> failures_;
};

// "The parameter 'X' is required but was not present in the request".
Error RequiredParameterMissing(std::string_view parameter);

// Java's toString of a list of strings, as coral renders a list value in messages: "[a, b]".
std::string JavaList(const std::vector<std::string>& items);

// Table names: [a-zA-Z0-9_.-]+, 3 to 255 characters.
inline constexpr std::string_view kTableNamePattern = "[a-zA-Z0-9_.-]+";
bool IsValidTableNameCharacters(std::string_view name);

}  // namespace ddbd
