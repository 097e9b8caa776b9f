// A table's Kinesis streaming destinations (EnableKinesisStreamingDestination,
// DisableKinesisStreamingDestination, UpdateKinesisStreamingDestination,
// DescribeKinesisStreamingDestination): settings kept in the table's description (where the
// records go: engine/api/kinesis_delivery.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/api/durability.h"

namespace ddbd {

enum class DestinationStatus : uint8_t {
  kEnabling,
  kActive,
  kDisabling,
  kDisabled,
  kEnableFailed,
  kUpdating
};
// ApproximateCreationDateTimePrecision: of the records' timestamps (MICROSECOND unless set).
enum class TimestampPrecision : uint8_t { kMicrosecond, kMillisecond };

// One destination as the table keeps it: its settled state, and the status it shows while the
// change that led there takes --table-delay-ms (ENABLING, DISABLING or UPDATING).
struct KinesisDestination {
  std::string stream_arn;
  bool enabled = false;  // settled: ACTIVE, else DISABLED
  DestinationStatus transition = DestinationStatus::kEnabling;
  int64_t changed_ms = 0;
  TimestampPrecision precision = TimestampPrecision::kMicrosecond;
  // When it was last enabled, unique among the table's destinations: names the feed of changes
  // delivered to it (engine/kinesis/kinesis_feed.h).
  int64_t enabled_ms = 0;
  // Why delivery found no stream to deliver to: the destination is ENABLE_FAILED (empty: not).
  std::string failure;
};

struct KinesisDestinationArgs {
  std::string table_name;
  std::string stream_arn;
  std::optional<TimestampPrecision> precision;  // Enable and Update's configuration, if given
};

// Enable's, Disable's and Update's answer: the status the change starts in, the configuration
// given (echoed), and the ticket of its log record.
struct KinesisDestinationOutcome {
  std::string table_name;
  std::string stream_arn;
  DestinationStatus status = DestinationStatus::kEnabling;
  std::optional<TimestampPrecision> precision;
  Ticket ticket;
};

struct KinesisDestinationDescription {
  std::string stream_arn;
  DestinationStatus status = DestinationStatus::kActive;
  std::string status_description;  // empty: none
  TimestampPrecision precision = TimestampPrecision::kMicrosecond;
};

struct KinesisDestinations {
  std::string table_name;
  std::vector<KinesisDestinationDescription> destinations;
};

}  // namespace ddbd
