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
std::string_view ErrorCodeName(const Error& error) {
  switch (error.code()) {
    case ErrorCode::kConditionalCheckFailed:
      return "ConditionalCheckFailed";
    case ErrorCode::kItemCollectionSizeLimitExceeded:
      return "ItemCollectionSizeLimitExceeded";
    case ErrorCode::kProvisionedThroughputExceeded:
      return "ProvisionedThroughputExceeded";
    case ErrorCode::kThrottling:
      return "ThrottlingError";
    case ErrorCode::kTransactionConflict:
      return "TransactionConflict";
    case ErrorCode::kResourceNotFound:
      return "ResourceNotFound";
    case ErrorCode::kDuplicateItem:
      return "DuplicateItem";
    case ErrorCode::kInternalServerError:
      return "InternalServerError";
    default:
      return "ValidationError";
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
  // A batch reads items by their table key: never through an index.
  Result<partiql::KeyedRead> read = Error::Validation(std::string(partiql::kBatchSelect));
  if (statement.index_name.empty()) {
    read = partiql::PlanKeyedRead(engine, statement, partiql::kBatchSelect);
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
  if (!read.value().projection.empty()) args.projection = &read.value().projection;
  auto got = engine.GetItem(args);
  if (!got.ok()) {
    response.error = got.error();
    return;
  }
  response.item = std::move(static_cast<ReadItem&>(got.value()));
  AddCapacity(consumed, got.value().consumed_capacity);
}

void EncodeResponse(json::Writer& writer, const BatchResponse& response) {
  writer.StartObject();
  if (response.error) {
    writer.Key("Error");
    writer.StartObject();
    writer.Key("Code");
    json::String(writer, ErrorCodeName(*response.error));
    writer.Key("Message");
    json::String(writer, response.error->message());
    if (response.error->item() != nullptr) {
      writer.Key("Item");
      EncodeItem(writer, *response.error->item());
    }
    writer.EndObject();
  }
  if (!response.table_name.empty()) {
    writer.Key("TableName");
    json::String(writer, response.table_name);
  }
  if (response.item.found()) {
    writer.Key("Item");
    EncodeReadItem(writer, response.item);
  }
  writer.EndObject();
}

}  // namespace

Status BatchExecuteStatement(Engine& engine, const json::Value& request, json::Writer& response,
                             Ticket& ticket) {
  wire::BatchExecuteStatementInput in;
  Status constraints = Ok{};
  if (Status read = wire::Decode(request, in, &constraints); !read.ok()) return read;
  AttributeDecoder decoder;
  std::vector<partiql::StatementRequest> requests;
  const json::Value* list = in.statements;
  if (list != nullptr && list->Size() <= kMaxBatchStatements) {
    for (const json::Value& element : list->GetArray()) {
      wire::BatchStatementRequest statement;
      wire::View(element, statement);
      requests.push_back(partiql::StatementRequestOf(statement, decoder));
    }
  }
  const ReturnConsumedCapacity capacity = ReturnConsumedCapacityOf(in.return_consumed_capacity);
  if (Status problem = FirstProblem(decoder, constraints); !problem.ok()) return problem;

  // Every statement is parsed first: reads and writes may not be mixed.
  std::vector<BatchResponse> responses(requests.size());
  std::vector<std::optional<partiql::Statement>> statements(requests.size());
  bool reads = false;
  bool writes = false;
  for (size_t i = 0; i < requests.size(); ++i) {
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
  response.StartObject();
  response.Key("Responses");
  response.StartArray();
  for (const BatchResponse& one : responses) EncodeResponse(response, one);
  response.EndArray();
  EncodeConsumedCapacityMember(response, consumed, capacity);
  response.EndObject();
  return Ok{};
}

}  // namespace ddbd::operations
