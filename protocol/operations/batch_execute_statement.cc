// BatchExecuteStatement: up to 25 statements, all reads (each a SELECT of one item by its key)
// or all writes, each standing alone: a statement's failure is its own Error in Responses, not
// the request's.
#include <map>

#include "engine/api/transactions.h"
#include "protocol/attribute_value_json.h"
#include "protocol/capacity_json.h"
#include "protocol/generated/requests.h"
#include "protocol/item_request.h"
#include "protocol/operations/operations.h"
#include "protocol/partiql/messages.h"
#include "protocol/partiql/request.h"
#include "protocol/partiql/run.h"

namespace ddbd::operations {
namespace {

constexpr size_t kMaxBatchStatements = 25;

// One statement's answer: its table, and the item read or the error.
struct BatchResponse {
  std::string table_name;
  ReadItem item;  // as the engine read it: stored, or projected as the SELECT asked
  std::optional<Error> error;
};

// BatchStatementError's Code for an error.
wire::BatchStatementErrorCodeEnum ErrorCodeOf(const Error& error) {
  using Code = wire::BatchStatementErrorCodeEnum;
  switch (error.code()) {
    case ErrorCode::kConditionalCheckFailed:
      return Code::kConditionalCheckFailed;
    case ErrorCode::kItemCollectionSizeLimitExceeded:
      return Code::kItemCollectionSizeLimitExceeded;
    case ErrorCode::kProvisionedThroughputExceeded:
      return Code::kProvisionedThroughputExceeded;
    case ErrorCode::kThrottling:
      return Code::kThrottlingError;
    case ErrorCode::kTransactionConflict:
      return Code::kTransactionConflict;
    case ErrorCode::kResourceNotFound:
      return Code::kResourceNotFound;
    case ErrorCode::kDuplicateItem:
      return Code::kDuplicateItem;
    case ErrorCode::kAccessDenied:
      return Code::kAccessDenied;
    case ErrorCode::kInternalServerError:
      return Code::kInternalServerError;
    default:
      return Code::kValidationError;
  }
}

void AddCapacity(std::vector<ConsumedCapacity>& per_table,
                 const std::optional<ConsumedCapacity>& consumed) {
  if (!consumed) return;
  for (ConsumedCapacity& table : per_table) {
    if (table.table_name == consumed->table_name) return table.Add(*consumed);
  }
  per_table.push_back(*consumed);
}

void RunRead(Engine& engine, const partiql::Statement& statement, const bool consistent_read,
             ReturnConsumedCapacity mode, BatchResponse& response,
             std::vector<ConsumedCapacity>& consumed) {
  // A batch reads items by their table key, never through an index: after the table's and the
  // index's own refusals (no such table, a multi-attribute key).
  Result<partiql::KeyedRead> read =
      partiql::PlanKeyedRead(engine, statement, partiql::kBatchSelect);
  if (read.ok() && !statement.index_name.empty()) {
    read = Error::Validation(std::string(partiql::kBatchSelect));
  }
  if (!read.ok()) {
    response.error = read.error();
    return;
  }
  GetItemArgs args;
  args.table_name = read.value().get.table_name;
  args.key = read.value().get.key;
  args.consistent_read = consistent_read;
  args.return_consumed_capacity = mode;
  args.partiql = true;
  if (!read.value().projection.empty()) args.projection = &read.value().projection;
  auto got = engine.GetItem(args);
  if (!got.ok()) {
    response.error = got.error();
    return;
  }
  response.item = std::move(static_cast<ReadItem&>(got.value()));
  if (response.item.projected) {
    partiql::NameByLastSegment(read.value().projection, *response.item.projected);
  }
  AddCapacity(consumed, got.value().consumed_capacity);
}

void EncodeResponse(wire::out::BatchStatementResponse& out, const BatchResponse& response) {
  if (response.error) {
    out.Error([&](wire::out::BatchStatementError& error) {
      error.Code(ErrorCodeOf(*response.error));
      error.Message(response.error->message());
      if (response.error->item() != nullptr) {
        error.Item([&](json::Writer& item) { EncodeItem(item, *response.error->item()); });
      }
    });
  }
  if (!response.table_name.empty()) out.TableName(response.table_name);
  if (response.item.found()) {
    out.Item([&](json::Writer& item) { EncodeReadItem(item, response.item); });
  }
}

}  // namespace

Status BatchExecuteStatement(Engine& engine, const wire::BatchExecuteStatementInput& in,
                             const Status& constraints, json::Writer& response, Ticket& ticket) {
  // Each statement's parameters have a decoder of their own: a wrongly typed one fails the
  // request, a value DynamoDB refuses (a number it cannot convert, too deep a nesting) only its
  // statement (recorded against AWS: behaviours-to-match D2).
  std::vector<AttributeDecoder> decoders;
  std::vector<partiql::StatementRequest> requests;
  const json::Value* list = in.statements;
  if (list != nullptr && list->Size() <= kMaxBatchStatements) {
    decoders.reserve(list->Size());
    for (const json::Value& element : list->GetArray()) {
      wire::BatchStatementRequest statement;
      wire::View(element, statement);
      requests.push_back(
          partiql::StatementRequestOf(statement, decoders.emplace_back(in.kValueRules)));
    }
  }
  const ReturnConsumedCapacity capacity = ReturnConsumedCapacityOf(in.return_consumed_capacity);
  for (const AttributeDecoder& decoder : decoders) {
    if (Status serialization = decoder.serialization_status(); !serialization.ok()) {
      return serialization;
    }
  }
  if (!constraints.ok()) return constraints;

  // Every statement is parsed first: reads and writes may not be mixed.
  std::vector<BatchResponse> responses(requests.size());
  std::vector<std::optional<partiql::Statement>> statements(requests.size());
  bool reads = false;
  bool writes = false;
  for (size_t i = 0; i < requests.size(); ++i) {
    if (Status values = decoders[i].validation_status(); !values.ok()) {
      responses[i].error = values.error();
      continue;
    }
    auto parsed = partiql::ParseRequest(requests[i]);
    if (!parsed.ok()) {
      responses[i].error = parsed.error();
      continue;
    }
    (parsed.value().reads() ? reads : writes) = true;
    responses[i].table_name = parsed.value().table_name;
    statements[i] = std::move(parsed).value();
  }
  if (reads && writes) return Error::Validation(std::string(partiql::kBatchMixed));
  std::vector<ConsumedCapacity> consumed;
  for (size_t i = 0; i < requests.size(); ++i) {
    if (!statements[i]) continue;
    if (statements[i]->reads()) {
      RunRead(engine, *statements[i], requests[i].consistent_read, capacity, responses[i],
              consumed);
      continue;
    }
    partiql::RunOptions options;
    options.return_consumed_capacity = capacity;
    // ReturnValuesOnConditionCheckFailure has no effect in a batch (aws-semantics.md).
    requests[i].return_item_on_condition_failure = false;
    auto outcome = partiql::RunStatement(engine, std::move(*statements[i]), requests[i], options);
    if (!outcome.ok()) {
      responses[i].error = outcome.error();
      continue;
    }
    AddCapacity(consumed, outcome.value().consumed_capacity);
    ticket.Add(outcome.value().ticket);
  }
  wire::Write<wire::out::BatchExecuteStatementOutput>(response, [&](auto& out) {
    out.Responses([&](wire::out::PartiQLBatchResponse& answers) {
      for (const BatchResponse& one : responses) {
        answers.Add(
            [&](wire::out::BatchStatementResponse& object) { EncodeResponse(object, one); });
      }
    });
    EncodeConsumedCapacityMember(out, consumed, capacity);
  });
  return Ok{};
}

}  // namespace ddbd::operations
