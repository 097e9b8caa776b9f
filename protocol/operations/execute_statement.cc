// ExecuteStatement: one PartiQL statement (protocol/partiql/), a SELECT answered one page at a
// time with NextToken, or a write answered with what its RETURNING asked for.
#include "protocol/attribute_value_json.h"
#include "protocol/capacity_json.h"
#include "protocol/generated/requests.h"
#include "protocol/item_request.h"
#include "protocol/operations/operations.h"
#include "protocol/partiql/next_token.h"
#include "protocol/partiql/request.h"
#include "protocol/partiql/run.h"

namespace ddbd::operations {
namespace {

struct ExecuteStatementRequest {
  partiql::StatementRequest statement;
  partiql::RunOptions options;
  std::optional<std::string> next_token;
};

Status DecodeStatement(const wire::ExecuteStatementInput& in, const Status& constraints,
                       ExecuteStatementRequest& out) {
  AttributeDecoder decoder(in.kValueRules);
  out.statement = partiql::StatementRequestOf(in, decoder);
  if (in.limit) out.options.limit = *in.limit;
  if (in.next_token) out.next_token = std::string(*in.next_token);
  out.options.return_consumed_capacity = ReturnConsumedCapacityOf(in.return_consumed_capacity);
  return FirstProblem(decoder, constraints);
}

}  // namespace

Status ExecuteStatement(Engine& engine, const wire::ExecuteStatementInput& in,
                        const Status& constraints, json::Writer& response, Ticket& ticket) {
  ExecuteStatementRequest decoded;
  if (Status status = DecodeStatement(in, constraints, decoded); !status.ok()) return status;
  auto statement = partiql::ParseRequest(decoded.statement);
  if (!statement.ok()) return statement.error();
  if (decoded.next_token) {
    auto start =
        partiql::DecodeNextToken(*decoded.next_token, partiql::Fingerprint(decoded.statement));
    if (!start.ok()) return start.error();
    decoded.options.start_partition = start.value().partition;
    decoded.options.exclusive_start_key = std::move(start.value().key);
  }
  auto outcome = partiql::RunStatement(engine, std::move(statement).value(), decoded.statement,
                                       decoded.options);
  if (!outcome.ok()) return outcome.error();
  const partiql::StatementOutcome& result = outcome.value();
  ticket = result.ticket;
  wire::Write<wire::out::ExecuteStatementOutput>(response, [&](auto& out) {
    out.Items([&](json::Writer& items) {
      items.StartArray();
      for (const std::string_view blob : result.item_blobs) EncodeItemBlob(items, blob);
      for (const Item& item : result.items) EncodeItem(items, item);
      items.EndArray();
    });
    if (result.last_evaluated_key) {
      out.NextToken(partiql::EncodeNextToken(partiql::Fingerprint(decoded.statement),
                                             {result.partition, *result.last_evaluated_key}));
      out.LastEvaluatedKey([&](json::Writer& key) { EncodeItem(key, *result.last_evaluated_key); });
    }
    EncodeConsumedCapacityMember(out, result.consumed_capacity,
                                 decoded.options.return_consumed_capacity);
  });
  return Ok{};
}

}  // namespace ddbd::operations
