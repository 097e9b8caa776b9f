#include "protocol/read_request.h"

#include "protocol/attribute_value_json.h"
#include "protocol/capacity_json.h"
#include "protocol/expression/condition_parser.h"
#include "protocol/expression/expression_values.h"
#include "protocol/generated/enums.h"
#include "protocol/item_request.h"
#include "protocol/key_condition.h"
#include "protocol/legacy_parameters.h"
#include "protocol/projection.h"
#include "protocol/table_decode.h"

namespace ddbd {
namespace {

constexpr int64_t kMaxSegments = 1'000'000;

// Limit, Select, segments: the request-shape constraints of a read.
Result<std::optional<std::string>> DecodeReadConstraints(const json::Value& request, ReadKind kind,
                                                         ConstraintErrors& errors,
                                                         ReadRequest& out) {
  auto limit = json::AsInteger(json::Member(request, "Limit"));
  if (!limit.ok()) return limit.error();
  if (limit.value()) {
    if (*limit.value() < 1) {
      if (kind == ReadKind::kQuery) {
        errors.Add("", "Limit", "Member must have value greater than or equal to 1");
      } else {
        errors.MinValue(*limit.value(), "limit", 1);
      }
    }
    out.options.limit = *limit.value();
  }
  auto select = json::AsString(json::Member(request, "Select"));
  if (!select.ok()) return select.error();
  std::optional<std::string> select_text;
  if (select.value()) {
    select_text = std::string(*select.value());
    if (*select_text != "SPECIFIC_ATTRIBUTES" && *select_text != "COUNT" &&
        *select_text != "ALL_ATTRIBUTES" && *select_text != "ALL_PROJECTED_ATTRIBUTES") {
      errors.Enum(*select_text, "select", wire::kSelect);
    }
  }
  auto index = json::AsString(json::Member(request, "IndexName"));
  if (!index.ok()) return index.error();
  if (index.value()) {
    const std::string_view name = *index.value();
    if (!IsValidTableNameCharacters(name)) errors.Pattern(name, "indexName", kTableNamePattern);
    if (name.size() < 3) errors.MinLength(name, "indexName", 3);
    if (name.size() > 255) errors.MaxLength(name, "indexName", 255);
    out.index_name = std::string(name);
    out.options.index_name = out.index_name.value();
  }
  auto consistent = json::AsBoolean(json::Member(request, "ConsistentRead"));
  if (!consistent.ok()) return consistent.error();
  out.options.consistent_read = consistent.value().value_or(false);
  auto capacity = DecodeReturnConsumedCapacity(request, errors);
  if (!capacity.ok()) return capacity.error();
  out.options.return_consumed_capacity = capacity.value();
  if (kind == ReadKind::kQuery) {
    auto forward = json::AsBoolean(json::Member(request, "ScanIndexForward"));
    if (!forward.ok()) return forward.error();
    out.scan_index_forward = forward.value().value_or(true);
  } else {
    auto segment = json::AsInteger(json::Member(request, "Segment"));
    if (!segment.ok()) return segment.error();
    auto total = json::AsInteger(json::Member(request, "TotalSegments"));
    if (!total.ok()) return total.error();
    if (segment.value()) {
      if (*segment.value() < 0) errors.MinValue(*segment.value(), "segment", 0);
      if (*segment.value() > kMaxSegments - 1)
        errors.MaxValue(*segment.value(), "segment", kMaxSegments - 1);
    }
    if (total.value()) {
      if (*total.value() < 1) errors.MinValue(*total.value(), "totalSegments", 1);
      if (*total.value() > kMaxSegments)
        errors.MaxValue(*total.value(), "totalSegments", kMaxSegments);
    }
    out.segment = segment.value().value_or(0);
    out.total_segments = total.value().value_or(1);
  }
  return select_text;
}

Status CheckSegments(const json::Value& request) {
  const bool has_segment = json::Member(request, "Segment") != nullptr;
  const bool has_total = json::Member(request, "TotalSegments") != nullptr;
  if (has_segment && !has_total) {
    return Error::Validation(
        "The TotalSegments parameter is required but was not present in the request when Segment "
        "parameter is present");
  }
  if (has_total && !has_segment) {
    return Error::Validation(
        "The Segment parameter is required but was not present in the request when parameter "
        "TotalSegments is present");
  }
  return Ok{};
}

Status CheckSelect(const std::optional<std::string>& select, const ReadRequest& out,
                   const json::Value& request) {
  const bool projected = out.projection.has_value();
  if (select == "ALL_PROJECTED_ATTRIBUTES" && !out.index_name) {
    return Error::Validation(
        "ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName");
  }
  if (select == "SPECIFIC_ATTRIBUTES" && !projected) {
    return Error::Validation(
        "Must specify the AttributesToGet or ProjectionExpression when choosing to get "
        "SPECIFIC_ATTRIBUTES");
  }
  if (select && *select != "SPECIFIC_ATTRIBUTES" && projected) {
    const char* member = json::Member(request, "ProjectionExpression") != nullptr
                             ? "ProjectionExpression"
                             : "AttributesToGet";
    return Error::Validation(std::string("Cannot specify the ") + member +
                             " when choosing to get " +
                             (*select == "COUNT" ? "only the Count" : *select));
  }
  return Ok{};
}

// KeyConditionExpression, FilterExpression and ProjectionExpression with the names and values
// they share; or their legacy forms.
Status DecodeExpressions(const json::Value& request, ReadKind kind, ReadRequest& out) {
  const char* legacy_filter = kind == ReadKind::kQuery ? "QueryFilter" : "ScanFilter";
  auto key_text = json::AsString(json::Member(request, "KeyConditionExpression"));
  if (!key_text.ok()) return key_text.error();
  auto filter_text = json::AsString(json::Member(request, "FilterExpression"));
  if (!filter_text.ok()) return filter_text.error();
  const json::Value* key_conditions = json::Member(request, "KeyConditions");
  // KeyConditions mixes with FilterExpression or ProjectionExpression as DynamoDB allows; only
  // with KeyConditionExpression does it count (measured; see test_legacy_boto3).
  const Status style =
      kind == ReadKind::kScan
          ? CheckOneParameterStyle(request,
                                   {"AttributesToGet", "ScanFilter", "ConditionalOperator"},
                                   {"ProjectionExpression", "FilterExpression"})
      : key_text.value()
          ? CheckOneParameterStyle(
                request, {"AttributesToGet", "QueryFilter", "ConditionalOperator", "KeyConditions"},
                {"ProjectionExpression", "FilterExpression", "KeyConditionExpression"})
          : CheckOneParameterStyle(request,
                                   {"AttributesToGet", "QueryFilter", "ConditionalOperator"},
                                   {"ProjectionExpression", "FilterExpression"});
  if (!style.ok()) return style.error();
  auto names = ExpressionNames::Decode(json::Member(request, "ExpressionAttributeNames"));
  if (!names.ok()) return names.error();
  auto values = ExpressionValues::Decode(json::Member(request, "ExpressionAttributeValues"));
  if (!values.ok()) return values.error();
  const bool any_expression = (kind == ReadKind::kQuery && key_text.value()) ||
                              filter_text.value() ||
                              json::Member(request, "ProjectionExpression") != nullptr;
  if (!any_expression && values.value().given()) {
    return Error::Validation(
        "ExpressionAttributeValues can only be specified when using expressions");
  }
  if (!any_expression && names.value().given()) {
    return Error::Validation(
        "ExpressionAttributeNames can only be specified when using expressions");
  }
  // A legacy filter (and its ConditionalOperator) is checked before the key conditions, as
  // DynamoDB does; a FilterExpression after them.
  if (!filter_text.value()) {
    auto legacy = DecodeLegacyConditions(request, legacy_filter);
    if (!legacy.ok()) return legacy.error();
    out.filter = std::move(legacy).value();
    out.options.filter_member = legacy_filter;
  }
  if (kind == ReadKind::kQuery) {
    if (key_text.value()) {
      auto condition = ParseCondition(*key_text.value(), "KeyConditionExpression", names.value(),
                                      values.value());
      if (!condition.ok()) return condition.error();
      auto terms = KeyTermsFromCondition(condition.value());
      if (!terms.ok()) return terms.error();
      out.key_terms = std::move(terms).value();
    } else if (key_conditions != nullptr) {
      auto object = json::AsStructure(key_conditions, "Condition");
      if (!object.ok()) return object.error();
      auto terms = DecodeKeyConditions(*object.value());
      if (!terms.ok()) return terms.error();
      out.key_terms = std::move(terms).value();
    } else {
      return Error::Validation(
          "Either the KeyConditions or KeyConditionExpression parameter must be specified in the "
          "request.");
    }
  }
  if (filter_text.value()) {
    auto filter =
        ParseCondition(*filter_text.value(), "FilterExpression", names.value(), values.value());
    if (!filter.ok()) return filter.error();
    out.filter = std::move(filter).value();
  }
  auto projection = DecodeProjection(request, &names.value());
  if (!projection.ok()) return projection.error();
  out.projection = std::move(projection).value();
  if (Status used = names.value().CheckAllUsed(); !used.ok()) return used;
  return values.value().CheckAllUsed();
}

}  // namespace

Status DecodeReadRequest(const json::Value& request, const Engine& engine, ReadKind kind,
                         ReadRequest& out) {
  ConstraintErrors errors;
  AttributeDecoder decoder;
  auto table_name = DecodeTableReference(request, engine, errors);
  if (!table_name.ok()) return table_name.error();
  out.table_name = std::move(table_name).value();
  auto select = DecodeReadConstraints(request, kind, errors, out);
  if (!select.ok()) return select.error();
  const json::Value* start = json::Member(request, "ExclusiveStartKey");
  Item start_key = decoder.DecodeItem(start);
  if (Status serialization = decoder.serialization_status(); !serialization.ok()) {
    return serialization;
  }
  if (Status constraints = errors.ToStatus(); !constraints.ok()) return constraints;
  if (Status bad_start = decoder.validation_status(); !bad_start.ok()) {
    const std::string& message = bad_start.error().message();
    const bool numeric = message.find("numeric value") != std::string::npos ||
                         message.find("significant digits") != std::string::npos ||
                         message.find("magnitude") != std::string::npos;
    return numeric ? bad_start
                   : Error::Validation("The provided starting key is invalid: " + message);
  }
  if (start != nullptr) out.options.exclusive_start_key = std::move(start_key);
  if (kind == ReadKind::kScan) {
    if (Status segments = CheckSegments(request); !segments.ok()) return segments;
    if (out.segment >= out.total_segments) {
      return Error::Validation(
          "The Segment parameter is zero-based and must be less than parameter TotalSegments: "
          "Segment: " +
          std::to_string(out.segment) +
          " is not less than TotalSegments: " + std::to_string(out.total_segments));
    }
  }
  if (Status expressions = DecodeExpressions(request, kind, out); !expressions.ok()) {
    return expressions;
  }
  if (Status selected = CheckSelect(select.value(), out, request); !selected.ok()) return selected;
  out.options.count_only = select.value() == "COUNT";
  out.options.select_all_attributes = select.value() == "ALL_ATTRIBUTES";
  out.options.filter = out.filter ? &*out.filter : nullptr;
  out.options.projection = out.projection ? &*out.projection : nullptr;
  return Ok{};
}

void EncodeReadPage(json::Writer& writer, const ReadPage& page, const ReadOptions& options) {
  const bool count_only = options.count_only;
  writer.StartObject();
  if (!count_only) {
    writer.Key("Items");
    writer.StartArray();
    for (const std::string& blob : page.item_blobs) EncodeItemBlob(writer, blob);
    for (const Item& item : page.items) EncodeItem(writer, item);  // one of the two is empty
    writer.EndArray();
  }
  writer.Key("Count");
  writer.Int64(page.count);
  writer.Key("ScannedCount");
  writer.Int64(page.scanned_count);
  if (page.last_evaluated_key) {
    writer.Key("LastEvaluatedKey");
    EncodeItem(writer, *page.last_evaluated_key);
  }
  EncodeConsumedCapacityMember(writer, page.consumed_capacity, options.return_consumed_capacity);
  writer.EndObject();
}

}  // namespace ddbd
