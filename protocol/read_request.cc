#include "protocol/read_request.h"

#include "protocol/attribute_value_json.h"
#include "protocol/capacity_json.h"
#include "protocol/expression/condition_parser.h"
#include "protocol/expression/expression_values.h"
#include "protocol/generated/requests.h"
#include "protocol/item_request.h"
#include "protocol/key_condition.h"
#include "protocol/legacy_parameters.h"
#include "protocol/projection.h"
#include "protocol/table_decode.h"

namespace ddbd {
namespace {

// What Query and Scan share, of the request the generated layer has read and checked.
struct ReadMembers {
  ReadKind kind = ReadKind::kQuery;
  std::string_view table_name;
  std::optional<std::string_view> index_name;
  std::optional<std::string_view> select;
  std::optional<int64_t> limit;
  std::optional<bool> consistent_read;
  std::optional<std::string_view> return_consumed_capacity;
  const json::Value* exclusive_start_key = nullptr;
  ProjectionMembers projection;
  std::optional<std::string_view> filter_expression;
  const json::Value* expression_attribute_values = nullptr;
  const json::Value* legacy_filter = nullptr;  // QueryFilter or ScanFilter
  std::optional<std::string_view> conditional_operator;
  // Query
  std::optional<std::string_view> key_condition_expression;
  const json::Value* key_conditions = nullptr;
  std::optional<bool> scan_index_forward;
  // Scan
  std::optional<int64_t> segment;
  std::optional<int64_t> total_segments;
  wire::ValueRules value_rules;  // the operation's
};

template <typename Input>
ReadMembers SharedMembersOf(const Input& in, ReadKind kind) {
  ReadMembers m;
  m.kind = kind;
  m.table_name = in.table_name;
  m.index_name = in.index_name;
  m.select = in.select;
  m.limit = in.limit;
  m.consistent_read = in.consistent_read;
  m.return_consumed_capacity = in.return_consumed_capacity;
  m.exclusive_start_key = in.exclusive_start_key;
  m.projection = ProjectionMembersOf(in);
  m.filter_expression = in.filter_expression;
  m.expression_attribute_values = in.expression_attribute_values;
  m.conditional_operator = in.conditional_operator;
  m.value_rules = Input::kValueRules;
  return m;
}

ReadMembers MembersOf(const wire::QueryInput& in) {
  ReadMembers m = SharedMembersOf(in, ReadKind::kQuery);
  m.legacy_filter = in.query_filter;
  m.key_condition_expression = in.key_condition_expression;
  m.key_conditions = in.key_conditions;
  m.scan_index_forward = in.scan_index_forward;
  return m;
}

ReadMembers MembersOf(const wire::ScanInput& in) {
  ReadMembers m = SharedMembersOf(in, ReadKind::kScan);
  m.legacy_filter = in.scan_filter;
  m.segment = in.segment;
  m.total_segments = in.total_segments;
  return m;
}

Status CheckSegments(const ReadMembers& m) {
  if (m.segment && !m.total_segments) {
    return Error::Validation(
        "The TotalSegments parameter is required but was not present in the request when Segment "
        "parameter is present");
  }
  if (m.total_segments && !m.segment) {
    return Error::Validation(
        "The Segment parameter is required but was not present in the request when parameter "
        "TotalSegments is present");
  }
  return Ok{};
}

Status CheckSelect(const ReadMembers& m, const ReadRequest& out) {
  const std::optional<std::string_view>& select = m.select;
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
    const char* member =
        m.projection.projection_expression ? "ProjectionExpression" : "AttributesToGet";
    return Error::Validation(std::string("Cannot specify the ") + member +
                             " when choosing to get " +
                             (*select == "COUNT" ? "only the Count" : std::string(*select)));
  }
  return Ok{};
}

// KeyConditionExpression, FilterExpression and ProjectionExpression with the names and values
// they share; or their legacy forms.
Status DecodeExpressions(const ReadMembers& m, ReadRequest& out) {
  const ReadKind kind = m.kind;
  const char* legacy_filter = kind == ReadKind::kQuery ? "QueryFilter" : "ScanFilter";
  const std::optional<std::string_view>& key_text = m.key_condition_expression;
  const std::optional<std::string_view>& filter_text = m.filter_expression;
  const bool attributes_to_get = m.projection.attributes_to_get != nullptr;
  const bool projection_expression = m.projection.projection_expression.has_value();
  const bool filter = m.legacy_filter != nullptr;
  const bool conditional_operator = m.conditional_operator.has_value();
  // KeyConditions mixes with FilterExpression or ProjectionExpression as DynamoDB allows; only
  // with KeyConditionExpression does it count (measured; see test_legacy_boto3).
  const Status style =
      kind == ReadKind::kScan
          ? CheckOneParameterStyle({{"AttributesToGet", attributes_to_get},
                                    {"ScanFilter", filter},
                                    {"ConditionalOperator", conditional_operator}},
                                   {{"ProjectionExpression", projection_expression},
                                    {"FilterExpression", filter_text.has_value()}})
      : key_text ? CheckOneParameterStyle({{"AttributesToGet", attributes_to_get},
                                           {"QueryFilter", filter},
                                           {"ConditionalOperator", conditional_operator},
                                           {"KeyConditions", m.key_conditions != nullptr}},
                                          {{"ProjectionExpression", projection_expression},
                                           {"FilterExpression", filter_text.has_value()},
                                           {"KeyConditionExpression", true}})
                 : CheckOneParameterStyle({{"AttributesToGet", attributes_to_get},
                                           {"QueryFilter", filter},
                                           {"ConditionalOperator", conditional_operator}},
                                          {{"ProjectionExpression", projection_expression},
                                           {"FilterExpression", filter_text.has_value()}});
  if (!style.ok()) return style.error();
  auto names = ExpressionNames::Decode(m.projection.expression_attribute_names);
  if (!names.ok()) return names.error();
  auto values = ExpressionValues::Decode(m.expression_attribute_values, m.value_rules);
  if (!values.ok()) return values.error();
  const bool any_expression =
      (kind == ReadKind::kQuery && key_text) || filter_text || projection_expression;
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
  if (!filter_text) {
    auto legacy = DecodeLegacyConditions(m.legacy_filter, m.conditional_operator,
                                         LegacyConditions::kFilter, m.value_rules);
    if (!legacy.ok()) return legacy.error();
    out.filter = std::move(legacy).value();
    out.options.filter_member = legacy_filter;
  }
  if (kind == ReadKind::kQuery) {
    if (key_text) {
      auto condition =
          ParseCondition(*key_text, "KeyConditionExpression", names.value(), values.value());
      if (!condition.ok()) return condition.error();
      auto terms = KeyTermsFromCondition(std::move(condition).value());
      if (!terms.ok()) return terms.error();
      out.key_terms = std::move(terms).value();
    } else if (m.key_conditions != nullptr) {
      auto terms = DecodeKeyConditions(*m.key_conditions, m.value_rules);
      if (!terms.ok()) return terms.error();
      out.key_terms = std::move(terms).value();
    } else {
      return Error::Validation(
          "Either the KeyConditions or KeyConditionExpression parameter must be specified in the "
          "request.");
    }
  }
  if (filter_text) {
    auto parsed = ParseCondition(*filter_text, "FilterExpression", names.value(), values.value());
    if (!parsed.ok()) return parsed.error();
    out.filter = std::move(parsed).value();
  }
  auto projection = DecodeProjection(m.projection, &names.value());
  if (!projection.ok()) return projection.error();
  out.projection = std::move(projection).value();
  if (Status used = names.value().CheckAllUsed(); !used.ok()) return used;
  return values.value().CheckAllUsed();
}

}  // namespace

namespace {

Status DecodeRead(const ReadMembers& m, const Status& constraints, const Engine& engine,
                  ReadRequest& out) {
  const ReadKind kind = m.kind;
  AttributeDecoder decoder(m.value_rules);
  Item start_key = decoder.DecodeItem(m.exclusive_start_key);
  if (Status serialization = decoder.serialization_status(); !serialization.ok()) {
    return serialization;
  }
  // Query's ConditionalOperator outside its enum is answered alone, ahead of every other
  // constraint failure, with this text (its "[ALL, OR]" as sent: behaviours-to-match B6, recorded
  // against AWS with QueryFilter, KeyConditions and a bad Select beside it).
  if (kind == ReadKind::kQuery && m.conditional_operator && *m.conditional_operator != "AND" &&
      *m.conditional_operator != "OR") {
    return Error::Validation(
        "Failed to satisfy constraint: Member must satisfy enum value set: [ALL, OR]");
  }
  if (!constraints.ok()) return constraints;
  if (Status bad_start = decoder.validation_status(); !bad_start.ok()) {
    const std::string& message = bad_start.error().message();
    // The newer validation layer (Query) gives every value's own text unwrapped (B2).
    const bool numeric = message.find("numeric value") != std::string::npos ||
                         message.find("significant digits") != std::string::npos ||
                         message.find("magnitude") != std::string::npos;
    return numeric || m.value_rules.current_layer
               ? bad_start
               : Error::Validation("The provided starting key is invalid: " + message);
  }
  out.table_name = TableNameOf(engine, m.table_name);
  if (m.index_name) {
    out.index_name = std::string(*m.index_name);
    out.options.index_name = out.index_name.value();
  }
  if (m.limit) out.options.limit = *m.limit;
  out.options.consistent_read = m.consistent_read.value_or(false);
  out.options.return_consumed_capacity = ReturnConsumedCapacityOf(m.return_consumed_capacity);
  out.scan_index_forward = m.scan_index_forward.value_or(true);
  out.segment = m.segment.value_or(0);
  out.total_segments = m.total_segments.value_or(1);
  if (m.exclusive_start_key != nullptr) out.options.exclusive_start_key = std::move(start_key);
  if (kind == ReadKind::kScan) {
    if (Status segments = CheckSegments(m); !segments.ok()) return segments;
    if (out.segment >= out.total_segments) {
      return Error::Validation(
          "The Segment parameter is zero-based and must be less than parameter TotalSegments: "
          "Segment: " +
          std::to_string(out.segment) +
          " is not less than TotalSegments: " + std::to_string(out.total_segments));
    }
  }
  if (Status expressions = DecodeExpressions(m, out); !expressions.ok()) return expressions;
  if (Status selected = CheckSelect(m, out); !selected.ok()) return selected;
  out.options.count_only = m.select == "COUNT";
  out.options.select_all_attributes = m.select == "ALL_ATTRIBUTES";
  out.options.filter = out.filter ? &*out.filter : nullptr;
  out.options.projection = out.projection ? &*out.projection : nullptr;
  return Ok{};
}

}  // namespace

Status DecodeReadRequest(const wire::QueryInput& in, const Status& constraints,
                         const Engine& engine, ReadRequest& out) {
  return DecodeRead(MembersOf(in), constraints, engine, out);
}

Status DecodeReadRequest(const wire::ScanInput& in, const Status& constraints, const Engine& engine,
                         ReadRequest& out) {
  return DecodeRead(MembersOf(in), constraints, engine, out);
}

namespace {

template <class Output>
void EncodePage(json::Writer& writer, const ReadPage& page, const ReadOptions& options) {
  wire::Write<Output>(writer, [&](Output& out) {
    if (!options.count_only) {
      out.Items([&](json::Writer& items) {
        items.StartArray();
        for (const std::string_view blob : page.item_blobs) EncodeItemBlob(items, blob);
        for (const Item& item : page.items) EncodeItem(items, item);  // one of the two is empty
        items.EndArray();
      });
    }
    out.Count(page.count);
    out.ScannedCount(page.scanned_count);
    if (page.last_evaluated_key) {
      out.LastEvaluatedKey([&](json::Writer& key) { EncodeItem(key, *page.last_evaluated_key); });
    }
    EncodeConsumedCapacityMember(out, page.consumed_capacity, options.return_consumed_capacity);
  });
}

}  // namespace

void EncodeReadPage(json::Writer& writer, const ReadPage& page, const ReadOptions& options,
                    ReadKind kind) {
  if (kind == ReadKind::kQuery) {
    EncodePage<wire::out::QueryOutput>(writer, page, options);
  } else {
    EncodePage<wire::out::ScanOutput>(writer, page, options);
  }
}

}  // namespace ddbd
