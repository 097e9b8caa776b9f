// What the access log says of a DynamoDB request beyond its operation and status: the tables it
// names and the capacity its answer reports. Reads the JSON again, so it is only for the opt-in
// access log, never on the request path otherwise.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace ddbd {

struct RequestSummary {
  // TableName, or the tables of RequestItems (BatchGetItem, BatchWriteItem) joined by ','.
  std::string table;
  // The capacity units the answer reports (summed over its tables), when the request asked.
  std::optional<double> consumed_capacity;
};

// Either body may be empty or not JSON: what cannot be read is left out.
RequestSummary Summarize(std::string_view request_body, std::string_view response_body);

}  // namespace ddbd
