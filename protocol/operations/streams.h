// What the DynamoDB Streams operations share: their members' shape checks (the model's length
// and range constraints, reported as DynamoDB reports them).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "engine/error.h"
#include "protocol/json_reader.h"
#include "protocol/validation_messages.h"

namespace ddbd::operations {

// Limit: from 1 to `most` (the documented upper limit) when present; `most` when absent.
Result<int> DecodeStreamLimit(const json::Value& request, int most, ConstraintErrors& errors);
// A StreamArn member (37 to 1024 characters); `required` adds "must not be null" when absent.
Result<std::optional<std::string>> DecodeStreamArn(const json::Value& request,
                                                   std::string_view member, std::string_view path,
                                                   bool required, ConstraintErrors& errors);
// A ShardId member (28 to 65 characters).
Result<std::optional<std::string>> DecodeShardId(const json::Value& object, std::string_view member,
                                                 std::string_view path, bool required,
                                                 ConstraintErrors& errors);

}  // namespace ddbd::operations
