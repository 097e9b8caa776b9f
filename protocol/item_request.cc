#include "protocol/item_request.h"

#include <string>

namespace ddbd {

Result<ReturnValues> DecodeReturnOptions(const json::Value& request, ConstraintErrors& errors) {
  ReturnValues mode = ReturnValues::kNone;
  auto return_values = json::AsString(json::Member(request, "ReturnValues"));
  if (!return_values.ok()) return return_values.error();
  if (return_values.value()) {
    const std::string_view text = *return_values.value();
    if (text == "NONE")
      mode = ReturnValues::kNone;
    else if (text == "ALL_OLD")
      mode = ReturnValues::kAllOld;
    else if (text == "UPDATED_OLD")
      mode = ReturnValues::kUpdatedOld;
    else if (text == "ALL_NEW")
      mode = ReturnValues::kAllNew;
    else if (text == "UPDATED_NEW")
      mode = ReturnValues::kUpdatedNew;
    else
      errors.Enum(text, "returnValues",
                  {"ALL_NEW", "ALL_OLD", "NONE", "UPDATED_NEW", "UPDATED_OLD"});
  }
  if (Status capacity = DecodeReturnConsumedCapacity(request, errors); !capacity.ok()) {
    return capacity.error();
  }
  auto metrics = json::AsString(json::Member(request, "ReturnItemCollectionMetrics"));
  if (!metrics.ok()) return metrics.error();
  if (metrics.value() && *metrics.value() != "SIZE" && *metrics.value() != "NONE") {
    errors.Enum(*metrics.value(), "returnItemCollectionMetrics", {"NONE", "SIZE"});
  }
  return mode;
}

Status DecodeReturnConsumedCapacity(const json::Value& request, ConstraintErrors& errors) {
  auto capacity = json::AsString(json::Member(request, "ReturnConsumedCapacity"));
  if (!capacity.ok()) return capacity.error();
  if (capacity.value() && *capacity.value() != "INDEXES" && *capacity.value() != "TOTAL" &&
      *capacity.value() != "NONE") {
    errors.Enum(*capacity.value(), "returnConsumedCapacity", {"INDEXES", "NONE", "TOTAL"});
  }
  return Ok{};
}

Status FirstProblem(const AttributeDecoder& decoder, const ConstraintErrors& errors) {
  if (Status serialization = decoder.serialization_status(); !serialization.ok()) {
    return serialization;
  }
  if (Status shape = errors.ToStatus(); !shape.ok()) return shape;
  return decoder.validation_status();
}

Status RefuseUnimplemented(const json::Value& request,
                           std::initializer_list<std::string_view> members) {
  for (std::string_view member : members) {
    if (json::Member(request, member) != nullptr) {
      return Error::Validation(std::string(member) +
                               " is not supported by this version of ddbd yet");
    }
  }
  return Ok{};
}

}  // namespace ddbd
