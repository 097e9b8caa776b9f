// How an export writes an item as a line of its data files, and an import reads one back:
// DynamoDB JSON or Amazon Ion text (CSV, which needs no JSON, is the engine's own).
// The formats are the protocol layer's to write (it owns JSON, protocol/item_lines.h); the engine
// is handed them (Engine::UseItemLines), as LevelDB is handed a comparator: part of its contract.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "engine/api/exports.h"
#include "engine/api/imports.h"
#include "engine/model/attribute_value.h"

namespace ddbd {

// One line of an incremental export: an item's keys, its image at the window's end (none: it was
// deleted) and, in NEW_AND_OLD_IMAGES, at the window's start (none: it was made in the window);
// each a stored item's blob.
struct ItemChange {
  int64_t write_micros = 0;
  std::string_view keys;
  std::optional<std::string_view> new_image;
  std::optional<std::string_view> old_image;
};

struct LineItem {
  enum class Kind { kItem, kNotAnItem, kUnreadable };
  Kind kind = Kind::kUnreadable;
  Item item;  // kItem only
};

class ItemLines {
 public:
  virtual ~ItemLines() = default;
  // Appends the line of the stored item `blob`, newline included: {"Item":{...}} in DYNAMODB_JSON,
  // $ion_1_0 {Item:{...}} in ION.
  virtual void AppendItem(ExportFormat format, std::string_view blob, std::string& out) const = 0;
  // Appends an incremental export's line, newline included:
  // {"Metadata":{"WriteTimestampMicros":{"N":"..."}},"Keys":{...},"NewImage":{...},"OldImage":{...}}
  // in DYNAMODB_JSON, the same fields as an Ion struct after $ion_1_0 in ION.
  virtual void AppendChange(ExportFormat format, const ItemChange& change,
                            std::string& out) const = 0;
  // What one line of an import's data file holds ({"Item":{...}} in DYNAMODB_JSON): an item; a
  // line that reads but is no valid item (no Item, other members, a bad value: one error, the file
  // goes on); or one that does not read at all (not JSON: one error, and the rest of the file is
  // skipped, as DynamoDB skips it).
  virtual LineItem ItemOfLine(InputFormat format, std::string_view line) const = 0;
};

}  // namespace ddbd
