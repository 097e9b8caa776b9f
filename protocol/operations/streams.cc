#include "protocol/operations/streams.h"

#include <algorithm>

namespace ddbd::operations {
namespace {

Result<std::optional<std::string>> DecodeBoundedString(const json::Value& object,
                                                       std::string_view member,
                                                       std::string_view path, bool required,
                                                       size_t min, size_t max,
                                                       ConstraintErrors& errors) {
  auto text = json::AsString(json::Member(object, member));
  if (!text.ok()) return text.error();
  if (!text.value()) {
    if (required) errors.MustNotBeNull(path);
    return std::optional<std::string>();
  }
  const std::string_view value = *text.value();
  if (value.size() < min) errors.MinLength(value, path, min);
  if (value.size() > max) errors.MaxLength(value, path, max);
  return std::optional<std::string>(std::string(value));
}

}  // namespace

Result<int> DecodeStreamLimit(const json::Value& request, int most, ConstraintErrors& errors) {
  auto limit = json::AsInteger(json::Member(request, "Limit"));
  if (!limit.ok()) return limit.error();
  if (!limit.value()) return most;
  if (*limit.value() < 1) errors.MinValue(*limit.value(), "limit", 1);
  // The model sets no upper bound, but DynamoDB refuses one over the documented limit (measured
  // for ListStreams' 101; the message is unconfirmed).
  if (*limit.value() > most) errors.MaxValue(*limit.value(), "limit", most);
  return static_cast<int>(std::clamp<int64_t>(*limit.value(), 1, most));
}

Result<std::optional<std::string>> DecodeStreamArn(const json::Value& request,
                                                   std::string_view member, std::string_view path,
                                                   bool required, ConstraintErrors& errors) {
  return DecodeBoundedString(request, member, path, required, 37, 1024, errors);
}

Result<std::optional<std::string>> DecodeShardId(const json::Value& object, std::string_view member,
                                                 std::string_view path, bool required,
                                                 ConstraintErrors& errors) {
  return DecodeBoundedString(object, member, path, required, 28, 65, errors);
}

}  // namespace ddbd::operations
