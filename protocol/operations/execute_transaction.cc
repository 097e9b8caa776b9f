// ExecuteTransaction: up to 100 PartiQL statements run as one transaction, on the same machinery
// as TransactGetItems (all SELECTs of one item by key) or TransactWriteItems (INSERT, UPDATE,
// DELETE and EXISTS conditions), with its ClientRequestToken idempotency.
#include <functional>

#include "engine/api/transactions.h"
#include "protocol/attribute_value_json.h"
#include "protocol/capacity_json.h"
#include "protocol/error_response.h"
#include "protocol/generated/requests.h"
#include "protocol/item_request.h"
#include "protocol/operations/operations.h"
#include "protocol/partiql/messages.h"
#include "protocol/partiql/request.h"
#include "protocol/partiql/run.h"

namespace ddbd::operations {
namespace {

struct TransactionRequest {
  std::vector<partiql::StatementRequest> statements;
  std::optional<std::string> client_request_token;
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::kNone;
};

Status DecodeTransaction(const wire::ExecuteTransactionInput& in, const Status& constraints,
                         TransactionRequest& out) {
  AttributeDecoder decoder(in.kValueRules);
  const json::Value* list = in.transact_statements;
  if (list != nullptr && list->Size() <= kMaxTransactionActions) {
    for (const json::Value& element : list->GetArray()) {
      wire::ParameterizedStatement statement;
      wire::View(element, statement);
      out.statements.push_back(partiql::StatementRequestOf(statement, decoder));
    }
  }
  if (in.client_request_token) out.client_request_token = std::string(*in.client_request_token);
  out.return_consumed_capacity = ReturnConsumedCapacityOf(in.return_consumed_capacity);
  return FirstProblem(decoder, constraints);
}

// A statement's validation error, named by its place ("Validation failed in
// TransactStatements[0]: ..."); other errors (a missing table) stand as they are.
Error InStatement(size_t index, const Error& error) {
  if (error.code() != ErrorCode::kValidation) return error;
  return Error::Validation(partiql::InTransactStatement(index, error.message()));
}

DispatchResult AnswerWith(const std::function<void(json::Writer&)>& write) {
  json::Buffer buffer;
  json::Writer writer(buffer);
  write(writer);
  return {200, std::string(buffer.GetString(), buffer.GetSize())};
}

DispatchResult RunReads(Engine& engine, const std::vector<partiql::Statement>& statements,
                        ReturnConsumedCapacity mode) {
  std::vector<partiql::KeyedRead> reads;
  TransactGetItemsArgs args;
  args.return_consumed_capacity = mode;
  args.partiql = true;
  for (size_t i = 0; i < statements.size(); ++i) {
    if (!statements[i].index_name.empty()) {
      return ErrorResponse(
          InStatement(i, Error::Validation(std::string(partiql::kTransactionIndexRead))));
    }
    auto read = partiql::PlanKeyedRead(engine, statements[i], partiql::kTransactionSelectKey);
    if (!read.ok()) return ErrorResponse(InStatement(i, read.error()));
    reads.push_back(std::move(read).value());
  }
  // The engine projects each item as its SELECT asked (the projections outlive the call).
  for (partiql::KeyedRead& read : reads) {
    if (!read.projection.empty()) read.get.projection = &read.projection;
    args.gets.push_back(read.get);
  }
  auto outcome = engine.TransactGetItems(args);
  if (!outcome.ok()) return ErrorResponse(outcome.error());
  for (size_t i = 0; i < reads.size(); ++i) {
    std::optional<Item>& projected = outcome.value().items[i].projected;
    if (projected) partiql::NameByLastSegment(reads[i].projection, *projected);
  }
  return AnswerWith([&](json::Writer& writer) {
    wire::Write<wire::out::ExecuteTransactionOutput>(writer, [&](auto& out) {
      out.Responses([&](wire::out::ItemResponseList& list) {
        for (size_t i = 0; i < reads.size(); ++i) {
          const ReadItem& item = outcome.value().items[i];
          list.Add([&](wire::out::ItemResponse& one) {
            if (item.found()) one.Item([&](json::Writer& w) { EncodeReadItem(w, item); });
          });
        }
      });
      EncodeConsumedCapacityMember(out, outcome.value().consumed_capacity, mode);
    });
  });
}

}  // namespace

void ExecuteTransaction(Engine& engine, const wire::ExecuteTransactionInput& in,
                        const Status& constraints, uint64_t fingerprint, const DispatchDone& done) {
  TransactionRequest decoded;
  if (Status status = DecodeTransaction(in, constraints, decoded); !status.ok())
    return done(ErrorResponse(status.error()));
  std::vector<partiql::Statement> statements;
  bool reads = false;
  bool writes = false;
  for (size_t i = 0; i < decoded.statements.size(); ++i) {
    auto parsed = partiql::ParseRequest(decoded.statements[i]);
    if (!parsed.ok()) return done(ErrorResponse(InStatement(i, parsed.error())));
    (parsed.value().reads() ? reads : writes) = true;
    statements.push_back(std::move(parsed).value());
  }
  if (reads && writes) {
    return done(ErrorResponse(Error::Validation(std::string(partiql::kTransactionMixed))));
  }
  const ReturnConsumedCapacity mode = decoded.return_consumed_capacity;
  if (reads) return done(RunReads(engine, statements, mode));

  TransactWriteItemsArgs args;
  args.return_consumed_capacity = mode;
  args.partiql = true;
  if (decoded.client_request_token) {
    args.client_request_token = decoded.client_request_token;
    args.request_fingerprint = fingerprint;
  }
  std::vector<bool> inserts;
  for (size_t i = 0; i < statements.size(); ++i) {
    inserts.push_back(statements[i].kind == partiql::Statement::Kind::kInsert);
    auto action = partiql::PlanTransactionWrite(
        engine, std::move(statements[i]), decoded.statements[i].return_item_on_condition_failure);
    if (!action.ok()) return done(ErrorResponse(InStatement(i, action.error())));
    args.actions.push_back(std::move(action).value());
  }
  engine.TransactWriteItemsAsync(
      std::move(args), [&engine, done, mode, inserts](Result<TransactWriteItemsOutcome> outcome) {
        if (!outcome.ok()) {
          return done(ErrorResponse(partiql::WithDuplicateItemReasons(outcome.error(), inserts)));
        }
        operations::Answer(
            engine, done, AnswerWith([&](json::Writer& writer) {
              wire::Write<wire::out::ExecuteTransactionOutput>(writer, [&](auto& out) {
                // A transaction of writes answers an empty Responses (behaviours-to-match D7).
                out.Responses([](wire::out::ItemResponseList&) {});
                EncodeConsumedCapacityMember(out, outcome.value().consumed_capacity, mode);
              });
            }),
            outcome.value().ticket);
      });
}

}  // namespace ddbd::operations
