// How an export writes an item as a line of its data files, and an import reads one back:
// DynamoDB JSON or Amazon Ion text (CSV, which needs no JSON, is the engine's own).
// The formats are the protocol layer's to write (it owns JSON, protocol/item_lines.h); the engine
// is handed them (Engine::UseItemLines), as LevelDB is handed a comparator: part of its contract.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "engine/api/exports.h"
#include "engine/api/imports.h"
#include "engine/model/attribute_value.h"

namespace ddbd {

class ItemLines {
 public:
  virtual ~ItemLines() = default;
  // Appends the line of the stored item `blob`, newline included: {"Item":{...}} in DYNAMODB_JSON,
  // $ion_1_0 {Item:{...}} in ION.
  virtual void AppendItem(ExportFormat format, std::string_view blob, std::string& out) const = 0;
  // The item of one line of an import's data file ({"Item":{...}} in DYNAMODB_JSON, an Ion
  // struct with an Item field in ION), or nullopt for a line that is not one (counted an error).
  virtual std::optional<Item> ReadItem(InputFormat format, std::string_view line) const = 0;
};

}  // namespace ddbd
