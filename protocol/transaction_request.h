// What ExecuteTransaction and BatchExecuteStatement share: a bounded list member of the request,
// with coral's constraint texts.
#pragma once

#include <string>
#include <string_view>

#include "engine/error.h"
#include "protocol/json_reader.h"
#include "protocol/validation_messages.h"

namespace ddbd {

// A request's list member (TransactItems, Statements, TransactStatements): null with a
// constraint error at `path` when absent; its length checked against 1..`max`.
Result<const json::Value*> DecodeBoundedList(const json::Value& request, const char* member,
                                             const std::string& path, size_t max,
                                             ConstraintErrors& errors);

}  // namespace ddbd
