// What the access log says of a DynamoDB request beyond its operation and status: the tables it
// names and the capacity its answer reports. Reads the JSON again, so it is only for the opt-in
// access log, never on the request path otherwise.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace ddbd {

// TableName, or the tables of RequestItems (BatchGetItem, BatchWriteItem) joined by ','; empty
// when the body names none or is not JSON. Read before the request is handled (the handler
// parses the body in place).
std::string RequestTables(std::string_view request_body);

// The capacity units an answer reports (summed over its tables), when the request asked; none
// when the body is not JSON or reports none.
std::optional<double> ConsumedCapacityUnits(std::string_view response_body);

}  // namespace ddbd
