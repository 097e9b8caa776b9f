// How an export writes an item as a line of its data files: DynamoDB JSON or Amazon Ion text.
// The formats are the protocol layer's to write (it owns JSON, protocol/item_lines.h); the engine
// is handed them (Engine::UseItemLines), as LevelDB is handed a comparator: part of its contract.
#pragma once

#include <string>
#include <string_view>

#include "engine/api/exports.h"

namespace ddbd {

class ItemLines {
 public:
  virtual ~ItemLines() = default;
  // Appends the line of the stored item `blob`, newline included: {"Item":{...}} in DYNAMODB_JSON,
  // $ion_1_0 {Item:{...}} in ION.
  virtual void AppendItem(ExportFormat format, std::string_view blob, std::string& out) const = 0;
};

}  // namespace ddbd
