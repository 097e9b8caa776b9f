#include "protocol/generated/requests.h"
#include "protocol/item_request.h"
#include "protocol/operations/operations.h"
#include "protocol/projection.h"
#include "protocol/table_decode.h"

namespace ddbd::operations {

Status GetItem(Engine& engine, const wire::GetItemInput& in, const Status& constraints,
               json::Writer& response) {
  AttributeDecoder decoder(in.kValueRules);
  GetItemArgs args;
  args.key = decoder.DecodeItem(in.key);
  if (Status problem = FirstProblem(decoder, constraints); !problem.ok()) return problem;
  // Every read is strongly consistent here; ConsistentRead decides what the read costs.
  args.consistent_read = in.consistent_read.value_or(false);
  args.return_consumed_capacity = ReturnConsumedCapacityOf(in.return_consumed_capacity);
  auto projection = DecodeProjection(ProjectionMembersOf(in));
  if (!projection.ok()) return projection.error();
  const std::string table_name = TableNameOf(engine, in.table_name);
  args.table_name = table_name;
  if (projection.value()) args.projection = &*projection.value();
  auto outcome = engine.GetItem(args);
  if (!outcome.ok()) return outcome.error();
  wire::Write<wire::out::GetItemOutput>(response, [&](auto& out) {
    if (outcome.value().found()) {
      out.Item([&](json::Writer& item) { EncodeReadItem(item, outcome.value()); });
    }
    EncodeConsumedCapacityMember(out, outcome.value().consumed_capacity,
                                 args.return_consumed_capacity);
  });
  return Ok{};
}

}  // namespace ddbd::operations
