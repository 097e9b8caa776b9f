#include "protocol/item_request.h"

#include <string>

#include "protocol/expression/condition_parser.h"
#include "protocol/expression/update_parser.h"
#include "protocol/generated/enums.h"
#include "protocol/legacy_parameters.h"

namespace ddbd {

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

namespace {

constexpr std::string_view kEnvelope = "1 validation error detected: ";

// The request checks DynamoDB's newer validation layer (PutItem, UpdateItem, DeleteItem) answers
// in its envelope, as recorded against AWS (../shared/behaviours-to-match.md B1): the misuse of
// ExpressionAttributeNames and -Values, an empty ConditionExpression or one using an undefined
// value, ReturnValues, malformed Expected entries. Expressions' syntax errors, and
// UpdateExpression's own, come without it.
Error InEnvelope(const WriteExpressionMembers& members, const Error& error) {
  if (!members.value_rules.envelope || error.message().starts_with(kEnvelope)) return error;
  return Error::Validation(std::string(kEnvelope) + error.message());
}

bool AnsweredInEnvelope(const Error& condition_error) {
  const std::string& message = condition_error.message();
  return message == "Invalid ConditionExpression: The expression can not be empty;" ||
         message.starts_with(
             "Invalid ConditionExpression: An expression attribute value used in expression is "
             "not defined;");
}

}  // namespace

Result<WriteExpressions> DecodeWriteExpressions(const WriteExpressionMembers& members) {
  const bool with_update = members.with_update;
  const std::optional<std::string_view>& condition_text = members.condition_expression;
  const std::optional<std::string_view>& update_text = members.update_expression;
  const bool legacy_condition = members.expected != nullptr || members.conditional_operator;
  if (Status style = with_update
                         ? CheckOneParameterStyle(
                               {{"AttributeUpdates", members.attribute_updates != nullptr},
                                {"Expected", members.expected != nullptr},
                                {"ConditionalOperator", members.conditional_operator.has_value()}},
                               {{"UpdateExpression", update_text.has_value()},
                                {"ConditionExpression", condition_text.has_value()}})
                         : CheckOneParameterStyle(
                               {{"Expected", members.expected != nullptr},
                                {"ConditionalOperator", members.conditional_operator.has_value()}},
                               {{"ConditionExpression", condition_text.has_value()}});
      !style.ok()) {
    return style.error();
  }
  auto names = ExpressionNames::Decode(members.expression_attribute_names);
  if (!names.ok()) {
    return names.error().message() == "ExpressionAttributeNames must not be empty"
               ? InEnvelope(members, names.error())
               : names.error();
  }
  auto values = ExpressionValues::Decode(members.expression_attribute_values, members.value_rules);
  if (!values.ok()) {
    return values.error().message() == "ExpressionAttributeValues must not be empty"
               ? InEnvelope(members, values.error())
               : values.error();
  }
  WriteExpressions expressions;
  if (legacy_condition) {
    auto expected = DecodeLegacyConditions(members.expected, members.conditional_operator,
                                           LegacyConditions::kExpected, members.value_rules);
    if (!expected.ok()) {
      return expected.error().message().starts_with("One or more parameter values were invalid: ")
                 ? InEnvelope(members, expected.error())
                 : expected.error();
    }
    expressions.condition = std::move(expected).value();
  }
  if (members.attribute_updates != nullptr) {
    auto attribute_updates = DecodeAttributeUpdates(members.attribute_updates, members.value_rules);
    if (!attribute_updates.ok()) return attribute_updates.error();
    expressions.update = std::move(attribute_updates).value();
  }
  if (!condition_text && !update_text) {
    if (values.value().given()) {
      // The newer layer's text names no null expression.
      if (members.value_rules.envelope) {
        return InEnvelope(members, Error::Validation("ExpressionAttributeValues can only be "
                                                     "specified when using expressions"));
      }
      return Error::Validation(
          std::string("ExpressionAttributeValues can only be specified when using expressions: ") +
          (with_update ? "UpdateExpression and ConditionExpression are null"
                       : "ConditionExpression is null"));
    }
    if (names.value().given()) {
      return InEnvelope(members, Error::Validation("ExpressionAttributeNames can only be "
                                                   "specified when using expressions"));
    }
    return expressions;
  }
  if (update_text) {
    auto update = ParseUpdate(*update_text, names.value(), values.value());
    if (!update.ok()) return update.error();
    expressions.update = std::move(update).value();
  }
  if (condition_text) {
    auto condition =
        ParseCondition(*condition_text, "ConditionExpression", names.value(), values.value());
    if (!condition.ok()) {
      return AnsweredInEnvelope(condition.error()) ? InEnvelope(members, condition.error())
                                                   : condition.error();
    }
    expressions.condition = std::move(condition).value();
  }
  if (Status used = names.value().CheckAllUsed(); !used.ok()) return used.error();
  if (Status used = values.value().CheckAllUsed(); !used.ok()) return used.error();
  return expressions;
}

Status DecodeSingleWriteOptions(const WriteExpressionMembers& members,
                                std::optional<Condition>& condition, WriteArgs& args) {
  if (args.return_values != ReturnValues::kNone && args.return_values != ReturnValues::kAllOld) {
    return InEnvelope(members, Error::Validation("ReturnValues can only be ALL_OLD or NONE"));
  }
  auto decoded = DecodeWriteExpressions(members);
  if (!decoded.ok()) return decoded.error();
  condition = std::move(decoded).value().condition;
  args.condition = condition ? &*condition : nullptr;
  return Ok{};
}

}  // namespace ddbd
