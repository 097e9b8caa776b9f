// Kinesis streaming destinations: the rules and texts as DynamoDB answers them where recorded
// (the two "Table is not in a valid state ..." texts, quoted in public issue threads), else
// ddbd's own words (docs/behaviour.md lists them).
#include "engine/kinesis/streaming_destinations.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>
#include <utility>

namespace ddbd {
namespace {

constexpr char kNotValid[] =
    "Table is not in a valid state to enable Kinesis Streaming Destination: ";

KinesisDestination* FindDestination(TableDescription& table, const std::string& stream_arn) {
  for (KinesisDestination& destination : table.kinesis_destinations) {
    if (destination.stream_arn == stream_arn) return &destination;
  }
  return nullptr;
}

// "arn:aws:kinesis:<region>:<account>:stream/<name>", a stream of the table's account and Region
// ("You can only stream data from DynamoDB to Kinesis Data Streams in the same AWS account and AWS
// Region as your table", the Developer Guide).
Status CheckStreamArn(const TableMetadata& catalog, const std::string& arn) {
  const std::string prefix = "arn:aws:kinesis:";
  const size_t region_end = arn.find(':', prefix.size());
  const size_t account_end =
      region_end == std::string::npos ? std::string::npos : arn.find(':', region_end + 1);
  const std::string_view resource = account_end == std::string::npos
                                        ? std::string_view()
                                        : std::string_view(arn).substr(account_end + 1);
  const std::string_view name = resource.starts_with("stream/") ? resource.substr(7) : "";
  const bool named =
      !name.empty() && name.size() <= 128 && std::all_of(name.begin(), name.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-';
      });
  if (!arn.starts_with(prefix) || !named) {
    return Error::Validation("Invalid StreamArn: " + arn +
                             " (expected arn:aws:kinesis:<region>:<account>:stream/<name>)");
  }
  const std::string region = arn.substr(prefix.size(), region_end - prefix.size());
  const std::string account = arn.substr(region_end + 1, account_end - region_end - 1);
  if (region != catalog.region() || account != catalog.account_id()) {
    return Error::Validation("The Kinesis data stream must be in the table's account and Region (" +
                             catalog.account_id() + ", " + catalog.region() + "): " + arn);
  }
  return Ok{};
}

// Moves `destination` to its settled state `enabled` through `transition`, now.
void Change(KinesisDestination& destination, bool enabled, DestinationStatus transition,
            int64_t now_ms) {
  destination.enabled = enabled;
  destination.transition = transition;
  destination.changed_ms = now_ms;
}

}  // namespace

DestinationStatus StatusAt(const KinesisDestination& destination, int64_t now_ms,
                           int64_t delay_ms) {
  if (!destination.failure.empty()) return DestinationStatus::kEnableFailed;
  if (now_ms < destination.changed_ms + delay_ms) return destination.transition;
  return destination.enabled ? DestinationStatus::kActive : DestinationStatus::kDisabled;
}

Result<KinesisDestinationOutcome> EnableKinesisDestination(const KinesisSettings& settings,
                                                           const KinesisDestinationArgs& args) {
  if (Status arn = CheckStreamArn(settings.catalog, args.stream_arn); !arn.ok()) {
    return arn.error();
  }
  const int64_t now_ms = settings.clock.NowMs();
  auto changed = settings.catalog.ChangeMetadata(args.table_name, [&](TableDescription& table) {
    // A table streams to one Kinesis data stream at a time (the Developer Guide): any destination
    // enabled, or on its way in or out, refuses another enable.
    for (const KinesisDestination& destination : table.kinesis_destinations) {
      const DestinationStatus status = StatusAt(destination, now_ms, settings.delay_ms);
      if (status != DestinationStatus::kDisabled && status != DestinationStatus::kEnableFailed) {
        return Status(Error::Validation(std::string(kNotValid) +
                                        "EnableKinesisStreamingDestination must be DISABLED or "
                                        "ENABLE_FAILED to perform ENABLE operation."));
      }
    }
    // Each enabling starts a feed of its own, named by this time: unique within the table.
    int64_t enabled_ms = now_ms;
    for (const KinesisDestination& other : table.kinesis_destinations) {
      enabled_ms = std::max(enabled_ms, other.enabled_ms + 1);
    }
    KinesisDestination* destination = FindDestination(table, args.stream_arn);
    if (destination == nullptr) {
      destination = &table.kinesis_destinations.emplace_back();
      destination->stream_arn = args.stream_arn;
    }
    destination->precision = args.precision.value_or(TimestampPrecision::kMicrosecond);
    destination->enabled_ms = enabled_ms;
    destination->failure.clear();
    Change(*destination, true, DestinationStatus::kEnabling, now_ms);
    return Status(Ok{});
  });
  if (!changed.ok()) return changed.error();
  return KinesisDestinationOutcome{args.table_name, args.stream_arn, DestinationStatus::kEnabling,
                                   args.precision, changed.value()};
}

Result<KinesisDestinationOutcome> DisableKinesisDestination(const KinesisSettings& settings,
                                                            const KinesisDestinationArgs& args) {
  if (Status arn = CheckStreamArn(settings.catalog, args.stream_arn); !arn.ok()) {
    return arn.error();
  }
  const int64_t now_ms = settings.clock.NowMs();
  auto changed = settings.catalog.ChangeMetadata(args.table_name, [&](TableDescription& table) {
    KinesisDestination* destination = FindDestination(table, args.stream_arn);
    if (destination == nullptr ||
        StatusAt(*destination, now_ms, settings.delay_ms) != DestinationStatus::kActive) {
      // DynamoDB's text, "enable" and all.
      return Status(Error::Validation(std::string(kNotValid) +
                                      "KinesisStreamingDestination must be ACTIVE to perform "
                                      "DISABLE operation."));
    }
    Change(*destination, false, DestinationStatus::kDisabling, now_ms);
    return Status(Ok{});
  });
  if (!changed.ok()) return changed.error();
  return KinesisDestinationOutcome{args.table_name, args.stream_arn, DestinationStatus::kDisabling,
                                   std::nullopt, changed.value()};
}

Result<KinesisDestinationOutcome> UpdateKinesisDestination(const KinesisSettings& settings,
                                                           const KinesisDestinationArgs& args) {
  if (Status arn = CheckStreamArn(settings.catalog, args.stream_arn); !arn.ok()) {
    return arn.error();
  }
  if (!args.precision) {
    return Error::Validation(
        "UpdateKinesisStreamingConfiguration must name an ApproximateCreationDateTimePrecision");
  }
  const int64_t now_ms = settings.clock.NowMs();
  auto changed = settings.catalog.ChangeMetadata(args.table_name, [&](TableDescription& table) {
    KinesisDestination* destination = FindDestination(table, args.stream_arn);
    if (destination == nullptr ||
        StatusAt(*destination, now_ms, settings.delay_ms) != DestinationStatus::kActive) {
      return Status(Error::Validation(
          "Table is not in a valid state to update Kinesis Streaming Destination: "
          "KinesisStreamingDestination must be ACTIVE to perform UPDATE operation."));
    }
    if (destination->precision == *args.precision) {
      return Status(Error::Validation(
          "The Kinesis streaming destination already has ApproximateCreationDateTimePrecision " +
          std::string(*args.precision == TimestampPrecision::kMillisecond ? "MILLISECOND"
                                                                          : "MICROSECOND")));
    }
    destination->precision = *args.precision;
    Change(*destination, true, DestinationStatus::kUpdating, now_ms);
    return Status(Ok{});
  });
  if (!changed.ok()) return changed.error();
  return KinesisDestinationOutcome{args.table_name, args.stream_arn, DestinationStatus::kUpdating,
                                   args.precision, changed.value()};
}

void FailDestination(KinesisDestination& destination, std::string failure, int64_t now_ms) {
  destination.enabled = false;
  destination.transition = DestinationStatus::kEnableFailed;
  destination.changed_ms = now_ms;
  destination.failure = std::move(failure);
}

Result<KinesisDestinations> DescribeKinesisDestinations(const TableMetadata& catalog,
                                                        int64_t now_ms, int64_t delay_ms,
                                                        bool delivering,
                                                        const std::string& table_name) {
  std::optional<TableDescription> table = catalog.Describe(table_name);
  if (!table) {
    return Error::TableResourceNotFound(table_name);
  }
  KinesisDestinations described{table_name, {}};
  for (const KinesisDestination& destination : table->kinesis_destinations) {
    KinesisDestinationDescription& entry = described.destinations.emplace_back();
    entry.stream_arn = destination.stream_arn;
    entry.status = StatusAt(destination, now_ms, delay_ms);
    entry.precision = destination.precision;
    if (entry.status == DestinationStatus::kEnableFailed) {
      entry.status_description = destination.failure;
    } else if (entry.status == DestinationStatus::kActive && !delivering) {
      // Said where an application looks: nothing reaches the stream.
      entry.status_description =
          "ddbd keeps this setting but does not deliver records to Kinesis: start it with "
          "--kinesis-endpoint URL to deliver them";
    }
  }
  return described;
}

}  // namespace ddbd
