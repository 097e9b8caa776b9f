#include "protocol/operations/operations.h"
#include "protocol/operations/streams.h"
#include "protocol/validation_messages.h"

namespace ddbd::operations {

// ListStreams: the account's streams (those of deleted tables or disabled included, for 24 hours),
// optionally of one table, paged by ARN.
Status ListStreams(Engine& engine, const json::Value& request, json::Writer& response) {
  ConstraintErrors errors;
  ListStreamsArgs args;
  auto table_name = json::AsString(json::Member(request, "TableName"));
  if (!table_name.ok()) return table_name.error();
  if (table_name.value()) {
    const std::string_view name = *table_name.value();
    if (!IsValidTableNameCharacters(name)) errors.Pattern(name, "tableName", kTableNamePattern);
    if (name.size() < 3) errors.MinLength(name, "tableName", 3);
    if (name.size() > 255) errors.MaxLength(name, "tableName", 255);
    args.table_name = std::string(name);
  }
  auto limit = DecodeStreamLimit(request, 100, errors);
  if (!limit.ok()) return limit.error();
  args.limit = limit.value();
  auto start =
      DecodeStreamArn(request, "ExclusiveStartStreamArn", "exclusiveStartStreamArn", false, errors);
  if (!start.ok()) return start.error();
  args.exclusive_start_stream_arn = start.value();
  if (Status shape = errors.ToStatus(); !shape.ok()) return shape;
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
