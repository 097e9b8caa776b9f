#include "protocol/generated/requests.h"
#include "protocol/operations/operations.h"

namespace ddbd::operations {

// ListStreams: the account's streams (those of deleted tables or disabled included, for 24 hours),
// optionally of one table, paged by ARN.
Status ListStreams(Engine& engine, const wire::StreamsListStreamsInput& in,
                   json::Writer& response) {
  ListStreamsArgs args;
  if (in.table_name) args.table_name = std::string(*in.table_name);
  args.limit = static_cast<int>(in.limit.value_or(100));
  if (in.exclusive_start_stream_arn) {
    args.exclusive_start_stream_arn = std::string(*in.exclusive_start_stream_arn);
  }
  auto listed = engine.ListStreams(args);
  if (!listed.ok()) return listed.error();
  const ListStreamsResult& result = listed.value();
  wire::Write<wire::out::StreamsListStreamsOutput>(response, [&](auto& out) {
    out.Streams([&](wire::out::StreamsStreamList& list) {
      for (const StreamSummary& stream : result.streams) {
        list.Add([&](wire::out::StreamsStream& one) {
          one.StreamArn(stream.stream_arn);
          one.TableName(stream.table_name);
          one.StreamLabel(stream.stream_label);
        });
      }
    });
    if (result.last_evaluated_stream_arn) {
      out.LastEvaluatedStreamArn(*result.last_evaluated_stream_arn);
    }
  });
  return Ok{};
}

}  // namespace ddbd::operations
