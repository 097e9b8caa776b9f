// Fuzzes an import's line readers (protocol/item_lines.h, protocol/ion_text.h): the first byte
// picks DynamoDB JSON or Ion, the rest is the line. A line that reads as an item is written back
// in both export formats, and each must read back as the same item: the writers and readers are
// each other's oracle. Any crash, sanitizer report, hang or mismatch is a bug.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "engine/model/item_codec.h"
#include "protocol/item_lines.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  static const auto lines = ddbd::NewItemLines();
  const std::string line(reinterpret_cast<const char*>(data + 1), size - 1);
  const ddbd::InputFormat format =
      data[0] % 2 == 0 ? ddbd::InputFormat::kDynamoDbJson : ddbd::InputFormat::kIon;
  ddbd::LineItem read = lines->ItemOfLine(format, line);
  if (read.kind != ddbd::LineItem::Kind::kItem) return 0;
  const std::string blob = ddbd::EncodeItem(read.item);
  std::string json;
  lines->AppendItem(ddbd::ExportFormat::kDynamoDbJson, blob, json);
  for (const ddbd::ExportFormat out :
       {ddbd::ExportFormat::kDynamoDbJson, ddbd::ExportFormat::kIon}) {
    std::string written;
    lines->AppendItem(out, blob, written);
    written.pop_back();  // the newline
    const ddbd::LineItem back =
        lines->ItemOfLine(out == ddbd::ExportFormat::kIon ? ddbd::InputFormat::kIon
                                                          : ddbd::InputFormat::kDynamoDbJson,
                          written);
    if (back.kind != ddbd::LineItem::Kind::kItem) std::abort();
    std::string again;
    lines->AppendItem(ddbd::ExportFormat::kDynamoDbJson, ddbd::EncodeItem(back.item), again);
    if (again != json) std::abort();
  }
  return 0;
}
