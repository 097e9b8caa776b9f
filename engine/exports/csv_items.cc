#include "engine/exports/csv_items.h"

#include <openssl/evp.h>

#include "engine/model/number.h"

namespace ddbd {
namespace {

std::optional<std::string> Base64Decoded(std::string_view text) {
  if (text.size() % 4 != 0) return std::nullopt;
  std::string out(text.size() / 4 * 3, '\0');
  const int length = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                     reinterpret_cast<const unsigned char*>(text.data()),
                                     static_cast<int>(text.size()));
  if (length < 0) return std::nullopt;
  size_t size = static_cast<size_t>(length);
  for (size_t i = text.size(); i > 0 && text[i - 1] == '='; --i) --size;
  out.resize(size);
  return out;
}

}  // namespace

CsvItems::CsvItems(const CsvOptions& options, const CreateTableArgs& table)
    : delimiter_(options.delimiter && !options.delimiter->empty() ? (*options.delimiter)[0] : ','),
      given_header_(options.header_list) {
  for (const KeySchemaElement& key : table.key_schema) {
    for (const AttributeDefinition& definition : table.attribute_definitions) {
      if (definition.attribute_name == key.attribute_name) {
        key_types_.emplace_back(definition.attribute_name, definition.attribute_type);
      }
    }
  }
  StartFile();
}

void CsvItems::StartFile() {
  expect_header_ = !given_header_;
  if (given_header_) header_ = *given_header_;
}

bool CsvItems::Split(std::string_view line, std::vector<std::string>& fields) const {
  fields.clear();
  std::string field;
  bool quoted = false;
  bool was_quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"' && field.empty() && !was_quoted) {
      quoted = was_quoted = true;
    } else if (c == delimiter_) {
      fields.push_back(std::move(field));
      field.clear();
      was_quoted = false;
    } else {
      field += c;
    }
  }
  if (quoted) return false;  // a quote never closed
  fields.push_back(std::move(field));
  return true;
}

std::optional<Item> CsvItems::Read(std::string_view line, bool& header) {
  header = false;
  if (!Split(line, fields_)) return std::nullopt;
  if (expect_header_) {
    expect_header_ = false;
    header = true;
    header_ = fields_;
    return std::nullopt;
  }
  if (fields_.size() > header_.size()) return std::nullopt;
  Item item;
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (fields_[i].empty()) continue;
    ScalarAttributeType type = ScalarAttributeType::kS;
    for (const auto& [name, key_type] : key_types_) {
      if (name == header_[i]) type = key_type;
    }
    switch (type) {
      case ScalarAttributeType::kS:
        item.emplace_back(header_[i], AttributeValue::String(std::move(fields_[i])));
        break;
      case ScalarAttributeType::kN: {
        auto number = Number::Parse(fields_[i], Number::Layer::kCurrent);
        if (!number.ok()) return std::nullopt;
        item.emplace_back(header_[i], AttributeValue::Number(number.value().ToString()));
        break;
      }
      case ScalarAttributeType::kB: {
        auto bytes = Base64Decoded(fields_[i]);
        if (!bytes) return std::nullopt;
        item.emplace_back(header_[i], AttributeValue::Binary(std::move(*bytes)));
        break;
      }
    }
  }
  return item;
}

}  // namespace ddbd
