#include "protocol/generated/requests.h"
#include "protocol/operations/operations.h"

namespace ddbd::operations {

// ListStreams: the account's streams (those of deleted tables or disabled included, for 24 hours),
// optionally of one table, paged by ARN.
Status ListStreams(Engine& engine, const json::Value& request, json::Writer& response) {
  wire::StreamsListStreamsInput in;
  if (Status read = wire::Decode(request, in); !read.ok()) return read;
  ListStreamsArgs args;
  if (in.table_name) args.table_name = std::string(*in.table_name);
  args.limit = static_cast<int>(in.limit.value_or(100));
  if (in.exclusive_start_stream_arn) {
    args.exclusive_start_stream_arn = std::string(*in.exclusive_start_stream_arn);
  }
  auto listed = engine.ListStreams(args);
  if (!listed.ok()) return listed.error();
  const ListStreamsResult& result = listed.value();
  response.StartObject();
  response.Key("Streams");
  response.StartArray();
  for (const StreamSummary& stream : result.streams) {
    response.StartObject();
    response.Key("StreamArn");
    json::String(response, stream.stream_arn);
    response.Key("TableName");
    json::String(response, stream.table_name);
    response.Key("StreamLabel");
    json::String(response, stream.stream_label);
    response.EndObject();
  }
  response.EndArray();
  if (result.last_evaluated_stream_arn) {
    response.Key("LastEvaluatedStreamArn");
    json::String(response, *result.last_evaluated_stream_arn);
  }
  response.EndObject();
  return Ok{};
}

}  // namespace ddbd::operations
