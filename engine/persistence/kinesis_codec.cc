#include "engine/persistence/kinesis_codec.h"

#include "engine/persistence/fields.h"

namespace ddbd {
namespace {

// Field numbers are forever: add new ones, never reuse one.
enum Destination : uint32_t {
  kDestinationArn = 1,
  kDestinationEnabled,
  kDestinationTransition,
  kDestinationChanged,
  kDestinationPrecision,
  kDestinationEnabledAt,
  kDestinationFailure,
};

}  // namespace

std::string EncodeKinesisDestination(const KinesisDestination& destination) {
  FieldWriter fields;
  fields.Bytes(kDestinationArn, destination.stream_arn);
  fields.Int(kDestinationEnabled, destination.enabled ? 1 : 0);
  fields.Int(kDestinationTransition, static_cast<int64_t>(destination.transition));
  fields.Int(kDestinationChanged, destination.changed_ms);
  fields.Int(kDestinationPrecision, static_cast<int64_t>(destination.precision));
  fields.Int(kDestinationEnabledAt, destination.enabled_ms);
  if (!destination.failure.empty()) fields.Bytes(kDestinationFailure, destination.failure);
  return fields.Take();
}

std::optional<KinesisDestination> DecodeKinesisDestination(std::string_view bytes) {
  FieldReader fields(bytes);
  KinesisDestination destination;
  while (fields.Next()) {
    const int64_t value = fields.integer();
    switch (fields.number()) {
      case kDestinationArn:
        destination.stream_arn = std::string(fields.text());
        break;
      case kDestinationEnabled:
        destination.enabled = value != 0;
        break;
      case kDestinationTransition:
        if (value >= 0 && value <= static_cast<int64_t>(DestinationStatus::kUpdating)) {
          destination.transition = static_cast<DestinationStatus>(value);
        }
        break;
      case kDestinationChanged:
        destination.changed_ms = value;
        break;
      case kDestinationPrecision:
        if (value == static_cast<int64_t>(TimestampPrecision::kMillisecond)) {
          destination.precision = TimestampPrecision::kMillisecond;
        }
        break;
      case kDestinationEnabledAt:
        destination.enabled_ms = value;
        break;
      case kDestinationFailure:
        destination.failure = std::string(fields.text());
        break;
      default:
        break;  // a later ddbd's field
    }
  }
  if (!fields.ok()) return std::nullopt;
  return destination;
}

}  // namespace ddbd
