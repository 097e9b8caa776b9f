// UpdateTimeToLive's and DescribeTimeToLive's arguments and answers (engine/engine.h).
#pragma once

#include <string>

#include "engine/api/durability.h"

namespace ddbd {

struct TimeToLiveSpecification {
  std::string attribute_name;
  bool enabled = false;
};

struct UpdateTimeToLiveArgs {
  std::string table_name;
  TimeToLiveSpecification specification;
  // Set by a ReplicationLink only: another member of the global table made this change (DynamoDB
  // makes it in every member); made here, it is not passed on again.
  bool from_replica = false;
};

// DescribeTimeToLive: ENABLED with the attribute, or DISABLED. DynamoDB's ENABLING and DISABLING
// were never observed (a change shows at once), so neither is reported.
struct TimeToLiveDescription {
  bool enabled = false;
  std::string attribute_name;  // when enabled
};

struct TimeToLiveOutcome : TimeToLiveSpecification {
  Ticket ticket;
};

}  // namespace ddbd
