#include "engine/catalog/parameter_checks.h"

#include <cstdint>
#include <string>
#include <utility>

namespace ddbd {

Error InvalidParameter(const std::string& detail) {
  return Error::Validation("One or more parameter values were invalid: " + detail);
}

std::string ListedNames(const std::vector<std::string>& names) {
  std::string text = "[";
  for (size_t i = 0; i < names.size(); ++i) text += (i > 0 ? ", " : "") + names[i];
  return text + "]";
}

Status CheckCapacityBounds(const ProvisionedThroughput& throughput) {
  constexpr int64_t kMaxCapacityUnits = 1'000'000'000'000;
  for (const auto& [units, member] :
       {std::pair{throughput.read_capacity_units, "ReadCapacityUnits"},
        std::pair{throughput.write_capacity_units, "WriteCapacityUnits"}}) {
    if (units > kMaxCapacityUnits) {
      return Error::Validation("Given value " + std::to_string(units) + " for " + member +
                               " is out of bounds");
    }
  }
  return Ok{};
}

Status CheckOnDemandThroughput(const OnDemandThroughput& requested, BillingMode billing_mode,
                               bool updating, const std::string& owner) {
  // A request naming only the write ceiling is refused by that name; otherwise by the read one.
  const char* first = !requested.max_read_request_units && requested.max_write_request_units
                          ? "MaxWriteRequestUnits"
                          : "MaxReadRequestUnits";
  if (billing_mode == BillingMode::kProvisioned) {
    // CreateTable and UpdateTable word it slightly differently (measured).
    return InvalidParameter(std::string(first) +
                            (updating ? " for OnDemandThroughput cannot be specified when the "
                                        "table BillingMode is PROVISIONED"
                                      : " for OnDemandThroughput cannot be specified when table "
                                        "BillingMode is PROVISIONED."));
  }
  const std::pair<const char*, const std::optional<int64_t>*> members[] = {
      {"MaxReadRequestUnits", &requested.max_read_request_units},
      {"MaxWriteRequestUnits", &requested.max_write_request_units}};
  for (const auto& [name, units] : members) {
    if (!*units || **units >= 1 || (updating && **units == -1)) continue;
    return InvalidParameter("Requested " + std::string(name) + " for OnDemandThroughput for " +
                            owner + " is outside of valid range");
  }
  return Ok{};
}

void MergeOnDemandThroughput(const OnDemandThroughput& requested, OnDemandThroughput& current) {
  auto merge = [](const std::optional<int64_t>& units, std::optional<int64_t>& into) {
    if (!units) return;
    if (*units == -1) {
      into.reset();
    } else {
      into = units;
    }
  };
  merge(requested.max_read_request_units, current.max_read_request_units);
  merge(requested.max_write_request_units, current.max_write_request_units);
}

Status CheckKeyTypes(const std::vector<KeySchemaElement>& key_schema) {
  if (key_schema[0].key_type != KeyType::kHash) {
    return Error::Validation(
        "Invalid KeySchema: The first KeySchemaElement is not a HASH key type");
  }
  if (key_schema.size() == 2 && key_schema[1].key_type != KeyType::kRange) {
    return Error::Validation(
        "Invalid KeySchema: The second KeySchemaElement is not a RANGE key type");
  }
  return Ok{};
}

}  // namespace ddbd
