// ImportTable's CSV: a record a line, fields split at the delimiter (',' unless
// InputFormatOptions.Csv.Delimiter says otherwise), a field in double quotes may hold the
// delimiter and "" for a quote. The header names the attributes: HeaderList, or each file's first
// line. Every value is a string (S), but the table's key attributes, which take the type their
// AttributeDefinitions give (N checked as a number, B as base64); an empty field is no attribute.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/api/imports.h"
#include "engine/api/tables.h"
#include "engine/model/attribute_value.h"

namespace ddbd {

class CsvItems {
 public:
  CsvItems(const CsvOptions& options, const CreateTableArgs& table);
  // A new file: its first line is the header unless HeaderList gave one.
  void StartFile();
  // The item of one line; nullopt for the header line (`header` set) or a line that is not an
  // item (a field too many, a key value of the wrong type: an error).
  std::optional<Item> Read(std::string_view line, bool& header);

 private:
  bool Split(std::string_view line, std::vector<std::string>& fields) const;

  char delimiter_ = ',';
  std::optional<std::vector<std::string>> given_header_;
  std::vector<std::string> header_;
  bool expect_header_ = true;
  std::vector<std::pair<std::string, ScalarAttributeType>> key_types_;
  std::vector<std::string> fields_;
};

}  // namespace ddbd
