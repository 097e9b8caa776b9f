// What TransactWriteItems and TransactGetItems share: the TransactItems list (1-100 elements),
// each element's one action, and the table names inside them, with coral's constraint paths
// ("transactItems.1.member.put.tableName").
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

// TransactItems: the list (null with a constraint error in `errors` when absent), its length
// checked against 1..100.
Result<const json::Value*> DecodeTransactItems(const json::Value& request,
                                               ConstraintErrors& errors);

// An action's TableName, checked as every table reference is; `path` is the action's
// constraint path ("transactItems.1.member.put").
Result<std::string> DecodeActionTableName(const json::Value& action, const std::string& path,
                                          ConstraintErrors& errors);

// The constraint path of element `index` (0-based) of TransactItems.
std::string TransactItemPath(size_t index);

}  // namespace ddbd
