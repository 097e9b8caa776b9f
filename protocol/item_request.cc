#include "protocol/item_request.h"

#include <string>

#include "protocol/expression/condition_parser.h"
#include "protocol/expression/update_parser.h"
#include "protocol/generated/enums.h"
#include "protocol/legacy_parameters.h"

namespace ddbd {

Status DecodeReturnOptions(const json::Value& request, ConstraintErrors& errors, WriteArgs& args) {
  ReturnValues& mode = args.return_values;
  auto return_values = json::AsString(json::Member(request, "ReturnValues"));
  if (!return_values.ok()) return return_values.error();
  if (return_values.value()) {
    const std::string_view text = *return_values.value();
    if (text == "NONE")
      mode = ReturnValues::kNone;
    else if (text == "ALL_OLD")
      mode = ReturnValues::kAllOld;
    else if (text == "UPDATED_OLD")
      mode = ReturnValues::kUpdatedOld;
    else if (text == "ALL_NEW")
      mode = ReturnValues::kAllNew;
    else if (text == "UPDATED_NEW")
      mode = ReturnValues::kUpdatedNew;
    else
      errors.Enum(text, "returnValues", wire::kReturnValue);
  }
  if (Status capacity = DecodeWriteCapacityMembers(request, errors, args.return_consumed_capacity,
                                                   args.return_item_collection_metrics);
      !capacity.ok()) {
    return capacity;
  }
  auto on_failure = json::AsString(json::Member(request, "ReturnValuesOnConditionCheckFailure"));
  if (!on_failure.ok()) return on_failure.error();
  if (on_failure.value()) {
    args.return_item_on_condition_failure = *on_failure.value() == "ALL_OLD";
    if (*on_failure.value() != "ALL_OLD" && *on_failure.value() != "NONE") {
      errors.Enum(*on_failure.value(), "returnValuesOnConditionCheckFailure",
                  wire::kReturnValuesOnConditionCheckFailure);
    }
  }
  return Ok{};
}

ReturnValues ReturnValuesOf(std::optional<std::string_view> text) {
  if (text == "ALL_OLD") return ReturnValues::kAllOld;
  if (text == "UPDATED_OLD") return ReturnValues::kUpdatedOld;
  if (text == "ALL_NEW") return ReturnValues::kAllNew;
  if (text == "UPDATED_NEW") return ReturnValues::kUpdatedNew;
  return ReturnValues::kNone;
}

Status FirstProblem(const AttributeDecoder& decoder, const Status& constraints) {
  if (Status serialization = decoder.serialization_status(); !serialization.ok()) {
    return serialization;
  }
  if (!constraints.ok()) return constraints;
  return decoder.validation_status();
}

Status FirstProblem(const AttributeDecoder& decoder, const ConstraintErrors& errors) {
  if (Status serialization = decoder.serialization_status(); !serialization.ok()) {
    return serialization;
  }
  if (Status shape = errors.ToStatus(); !shape.ok()) return shape;
  return decoder.validation_status();
}

Result<WriteExpressions> DecodeWriteExpressions(const json::Value& request, bool with_update) {
  auto condition_text = json::AsString(json::Member(request, "ConditionExpression"));
  if (!condition_text.ok()) return condition_text.error();
  std::optional<std::string_view> update_text;
  if (with_update) {
    auto text = json::AsString(json::Member(request, "UpdateExpression"));
    if (!text.ok()) return text.error();
    update_text = text.value();
    if (Status style =
            CheckOneParameterStyle(request, {"AttributeUpdates", "Expected", "ConditionalOperator"},
                                   {"UpdateExpression", "ConditionExpression"});
        !style.ok()) {
      return style.error();
    }
  } else if (Status style = CheckOneParameterStyle(request, {"Expected", "ConditionalOperator"},
                                                   {"ConditionExpression"});
             !style.ok()) {
    return style.error();
  }
  auto names = ExpressionNames::Decode(json::Member(request, "ExpressionAttributeNames"));
  if (!names.ok()) return names.error();
  auto values = ExpressionValues::Decode(json::Member(request, "ExpressionAttributeValues"));
  if (!values.ok()) return values.error();
  WriteExpressions expressions;
  auto expected = DecodeExpected(request);
  if (!expected.ok()) return expected.error();
  expressions.condition = std::move(expected).value();
  if (with_update) {
    auto attribute_updates = DecodeAttributeUpdates(request);
    if (!attribute_updates.ok()) return attribute_updates.error();
    expressions.update = std::move(attribute_updates).value();
  }
  if (!condition_text.value() && !update_text) {
    if (values.value().given()) {
      return Error::Validation(
          std::string("ExpressionAttributeValues can only be specified when using expressions: ") +
          (with_update ? "UpdateExpression and ConditionExpression are null"
                       : "ConditionExpression is null"));
    }
    if (names.value().given()) {
      return Error::Validation(
          "ExpressionAttributeNames can only be specified when using expressions");
    }
    return expressions;
  }
  if (update_text) {
    auto update = ParseUpdate(*update_text, names.value(), values.value());
    if (!update.ok()) return update.error();
    expressions.update = std::move(update).value();
  }
  if (condition_text.value()) {
    auto condition = ParseCondition(*condition_text.value(), "ConditionExpression", names.value(),
                                    values.value());
    if (!condition.ok()) return condition.error();
    expressions.condition = std::move(condition).value();
  }
  if (Status used = names.value().CheckAllUsed(); !used.ok()) return used.error();
  if (Status used = values.value().CheckAllUsed(); !used.ok()) return used.error();
  return expressions;
}

Status DecodeSingleWriteOptions(const json::Value& request, std::optional<Condition>& condition,
                                WriteArgs& args) {
  if (args.return_values != ReturnValues::kNone && args.return_values != ReturnValues::kAllOld) {
    return Error::Validation("ReturnValues can only be ALL_OLD or NONE");
  }
  auto decoded = DecodeWriteExpressions(request, /*with_update=*/false);
  if (!decoded.ok()) return decoded.error();
  condition = std::move(decoded).value().condition;
  args.condition = condition ? &*condition : nullptr;
  return Ok{};
}

void EncodeWriteOutcome(json::Writer& writer, const WriteOutcome& outcome,
                        ReturnConsumedCapacity mode) {
  writer.StartObject();
  if (outcome.attributes) {
    writer.Key("Attributes");
    EncodeItem(writer, *outcome.attributes);
  } else if (outcome.old_item) {
    writer.Key("Attributes");
    EncodeItemBlob(writer, outcome.old_item->blob);
  }
  EncodeConsumedCapacityMember(writer, outcome.consumed_capacity, mode);
  if (outcome.item_collection_metrics) {
    writer.Key("ItemCollectionMetrics");
    EncodeItemCollectionMetrics(writer, *outcome.item_collection_metrics);
  }
  writer.EndObject();
}

}  // namespace ddbd
