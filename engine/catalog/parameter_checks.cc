#include "engine/catalog/parameter_checks.h"

#include <cstdint>
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
