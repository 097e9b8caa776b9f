// SearchVectors (issue 41): the vector, the condition (equalities ANDed), the projection; the
// engine scores; the answer lists items with their scores, best first.
#include "engine/model/number.h"
#include "protocol/attribute_value_json.h"
#include "protocol/capacity_json.h"
#include "protocol/expression/condition_parser.h"
#include "protocol/item_request.h"
#include "protocol/key_condition.h"
#include "protocol/operations/operations.h"
#include "protocol/projection.h"
#include "protocol/table_decode.h"

namespace ddbd::operations {
namespace {

// Recorded against AWS (../shared/aws-semantics.md section 11).
constexpr const char* kInvalidSearchVector =
    "Search vector contains invalid values. All values in the search vector must be a 32-bit "
    "floating-point number attribute";
constexpr const char* kInvalidComparator =
    "Invalid SearchConditionExpression: Invalid comparator used in SearchConditionExpression";

// `attribute = :value` (either way round), ANDed: anything else is DynamoDB's refusal.
Result<std::vector<std::pair<std::string, AttributeValue>>> EqualitiesOf(
    const Condition& condition) {
  std::vector<std::pair<std::string, AttributeValue>> equalities;
  for (const Condition* part : AndedConditions(condition)) {
    if (part->kind != Condition::Kind::kCompare || part->comparator != Condition::Comparator::kEq) {
      return Error::Validation(kInvalidComparator);
    }
    const Operand* path = &part->operands[0];
    const Operand* value = &part->operands[1];
    if (path->kind != Operand::Kind::kPath) std::swap(path, value);
    if (path->kind != Operand::Kind::kPath || value->kind != Operand::Kind::kValue ||
        path->path.size() != 1 || path->path[0].is_index()) {
      return Error::Validation(kInvalidComparator);
    }
    equalities.emplace_back(path->path[0].name, value->value);
  }
  return equalities;
}

}  // namespace

Status SearchVectors(Engine& engine, const wire::SearchVectorsInput& in, const Status& constraints,
                     json::Writer& response) {
  AttributeDecoder decoder(in.kValueRules);
  SearchVectorsArgs args;
  std::vector<AttributeValue> elements;
  if (in.search_vector != nullptr) {
    for (const json::Value& element : in.search_vector->GetArray()) {
      elements.push_back(decoder.DecodeValue(element));
    }
  }
  if (Status problem = FirstProblem(decoder, constraints); !problem.ok()) return problem;
  for (const AttributeValue& element : elements) {
    std::optional<float> f =
        element.type == AttributeType::kN ? NumberAsF32(element.scalar) : std::nullopt;
    if (!f) return Error::Validation(kInvalidSearchVector);
    args.search_vector.push_back(*f);
  }
  args.top_k = in.top_k;
  args.return_consumed_capacity = ReturnConsumedCapacityOf(in.return_consumed_capacity);
  auto names = ExpressionNames::Decode(in.expression_attribute_names);
  if (!names.ok()) return names.error();
  auto values = ExpressionValues::Decode(in.expression_attribute_values, in.kValueRules);
  if (!values.ok()) return values.error();
  if (in.search_condition_expression) {
    auto condition = ParseCondition(*in.search_condition_expression, "SearchConditionExpression",
                                    names.value(), values.value());
    if (!condition.ok()) return condition.error();
    auto equalities = EqualitiesOf(condition.value());
    if (!equalities.ok()) return equalities.error();
    args.conditions = std::move(equalities).value();
  }
  auto projection = DecodeProjection(ProjectionMembersOf(in), &names.value());
  if (!projection.ok()) return projection.error();
  if (Status used = names.value().CheckAllUsed(); !used.ok()) return used;
  if (Status used = values.value().CheckAllUsed(); !used.ok()) return used;
  if (projection.value()) args.projection = &*projection.value();
  args.table_name = TableNameOf(engine, in.table_name);
  args.index_name = std::string(in.index_name);

  auto outcome = engine.SearchVectors(args);
  if (!outcome.ok()) return outcome.error();
  wire::Write<wire::out::SearchVectorsOutput>(response, [&](auto& out) {
    out.SearchResults([&](wire::out::SearchResults& list) {
      for (const SearchResult& result : outcome.value().results) {
        list.Add([&](wire::out::SearchResult& described) {
          described.Item([&](json::Writer& item) { EncodeReadItem(item, result.item); });
          described.Score(result.score);
        });
      }
    });
    // AWS reports bytes only: no capacity units, no table name (aws-semantics.md section 11).
    if (outcome.value().search_request_bytes) {
      out.ConsumedCapacity([&](wire::out::ConsumedCapacity& consumed) {
        consumed.VectorSearchRequestBytes(*outcome.value().search_request_bytes);
      });
    }
  });
  return Ok{};
}

}  // namespace ddbd::operations
