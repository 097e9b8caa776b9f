// The Kinesis streaming destination operations: a table's destinations kept in its description
// (through the catalog's one path, its log record, and restarts), their statuses, and DynamoDB's
// rules for moving between them. The records are delivered by engine/kinesis/kinesis_delivery.h,
// from each enabled destination's feed (engine/kinesis/kinesis_feed.h).
#pragma once

#include <cstdint>

#include "engine/api/kinesis.h"
#include "engine/catalog/table_metadata.h"
#include "engine/clock.h"
#include "engine/error.h"

namespace ddbd {

// What the operations are given: the tables, the time, and --table-delay-ms, for which a change
// shows ENABLING, DISABLING or UPDATING before it settles.
struct KinesisSettings {
  TableMetadata& catalog;
  const Clock& clock;
  int64_t delay_ms = 0;
};

// A destination that delivery found no stream for (ENABLE_FAILED, with `failure` as its status
// description): what becomes of it, in the table's description.
void FailDestination(KinesisDestination& destination, std::string failure, int64_t now_ms);

// A destination's status at `now_ms`.
DestinationStatus StatusAt(const KinesisDestination& destination, int64_t now_ms, int64_t delay_ms);

Result<KinesisDestinationOutcome> EnableKinesisDestination(const KinesisSettings& settings,
                                                           const KinesisDestinationArgs& args);
Result<KinesisDestinationOutcome> DisableKinesisDestination(const KinesisSettings& settings,
                                                            const KinesisDestinationArgs& args);
Result<KinesisDestinationOutcome> UpdateKinesisDestination(const KinesisSettings& settings,
                                                           const KinesisDestinationArgs& args);
// `delivering`: whether records reach Kinesis (--kinesis-endpoint); an ACTIVE destination says
// so in its status description when they do not.
Result<KinesisDestinations> DescribeKinesisDestinations(const TableMetadata& catalog,
                                                        int64_t now_ms, int64_t delay_ms,
                                                        bool delivering,
                                                        const std::string& table_name);

}  // namespace ddbd
