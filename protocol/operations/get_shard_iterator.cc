#include "protocol/generated/requests.h"
#include "protocol/operations/operations.h"

namespace ddbd::operations {

// GetShardIterator: TRIM_HORIZON and LATEST take no SequenceNumber, AT_ and AFTER_SEQUENCE_NUMBER
// need one.
Status GetShardIterator(Engine& engine, const wire::StreamsGetShardIteratorInput& in,
                        json::Writer& response) {
  GetShardIteratorArgs args;
  args.stream_arn = std::string(in.stream_arn);
  args.shard_id = std::string(in.shard_id);
  using Type = ShardIteratorType;
  const std::string_view type = in.shard_iterator_type;
  args.type = type == "TRIM_HORIZON"         ? Type::kTrimHorizon
              : type == "LATEST"             ? Type::kLatest
              : type == "AT_SEQUENCE_NUMBER" ? Type::kAtSequenceNumber
                                             : Type::kAfterSequenceNumber;
  const bool takes_sequence = type == "AT_SEQUENCE_NUMBER" || type == "AFTER_SEQUENCE_NUMBER";
  const std::optional<std::string_view>& sequence = in.sequence_number;
  // Unconfirmed wordings for the two mismatches below.
  if (takes_sequence && !sequence) {
    return Error::Validation("Must specify a sequence number for iterator type " +
                             std::string(type));
  }
  if (!takes_sequence && sequence) {
    return Error::Validation("Sequence number must not be specified for iterator type " +
                             std::string(type));
  }
  if (takes_sequence) {
    args.sequence = ParseSequenceNumber(*sequence);
    if (!args.sequence) {
      return Error::Validation("Invalid SequenceNumber: " + std::string(*sequence));
    }
  }
  auto iterator = engine.GetShardIterator(args);
  if (!iterator.ok()) return iterator.error();
  wire::Write<wire::out::StreamsGetShardIteratorOutput>(
      response, [&](auto& out) { out.ShardIterator(iterator.value()); });
  return Ok{};
}

}  // namespace ddbd::operations
