#include "protocol/generated/enums.h"
#include "protocol/operations/operations.h"
#include "protocol/operations/streams.h"

namespace ddbd::operations {

// GetShardIterator: TRIM_HORIZON and LATEST take no SequenceNumber, AT_ and AFTER_SEQUENCE_NUMBER
// need one.
Status GetShardIterator(Engine& engine, const json::Value& request, json::Writer& response) {
  ConstraintErrors errors;
  GetShardIteratorArgs args;
  auto arn = DecodeStreamArn(request, "StreamArn", "streamArn", true, errors);
  if (!arn.ok()) return arn.error();
  args.stream_arn = arn.value().value_or("");
  auto shard = DecodeShardId(request, "ShardId", "shardId", true, errors);
  if (!shard.ok()) return shard.error();
  args.shard_id = shard.value().value_or("");
  auto type = json::AsString(json::Member(request, "ShardIteratorType"));
  if (!type.ok()) return type.error();
  using Type = ShardIteratorType;
  bool takes_sequence = false;
  if (!type.value()) {
    errors.MustNotBeNull("shardIteratorType");
  } else if (*type.value() == "TRIM_HORIZON") {
    args.type = Type::kTrimHorizon;
  } else if (*type.value() == "LATEST") {
    args.type = Type::kLatest;
  } else if (*type.value() == "AT_SEQUENCE_NUMBER") {
    args.type = Type::kAtSequenceNumber;
    takes_sequence = true;
  } else if (*type.value() == "AFTER_SEQUENCE_NUMBER") {
    args.type = Type::kAfterSequenceNumber;
    takes_sequence = true;
  } else {
    errors.Enum(*type.value(), "shardIteratorType", wire::kShardIteratorType);
  }
  auto sequence = json::AsString(json::Member(request, "SequenceNumber"));
  if (!sequence.ok()) return sequence.error();
  if (sequence.value()) {
    const std::string_view text = *sequence.value();
    if (text.size() < 21) errors.MinLength(text, "sequenceNumber", 21);
    if (text.size() > 40) errors.MaxLength(text, "sequenceNumber", 40);
  }
  if (Status shape = errors.ToStatus(); !shape.ok()) return shape;
  // Unconfirmed wordings for the two mismatches below.
  if (takes_sequence && !sequence.value()) {
    return Error::Validation("Must specify a sequence number for iterator type " +
                             std::string(*type.value()));
  }
  if (!takes_sequence && sequence.value()) {
    return Error::Validation("Sequence number must not be specified for iterator type " +
                             std::string(*type.value()));
  }
  if (takes_sequence) {
    args.sequence = ParseSequenceNumber(*sequence.value());
    if (!args.sequence) {
      return Error::Validation("Invalid SequenceNumber: " + std::string(*sequence.value()));
    }
  }
  auto iterator = engine.GetShardIterator(args);
  if (!iterator.ok()) return iterator.error();
  response.StartObject();
  response.Key("ShardIterator");
  json::String(response, iterator.value());
  response.EndObject();
  return Ok{};
}

}  // namespace ddbd::operations
