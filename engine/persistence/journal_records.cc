#include "engine/persistence/journal_records.h"

#include "engine/persistence/fields.h"

namespace ddbd {
namespace {

enum Field : uint32_t { kTableId = 1, kKey, kBlob, kSize };

}  // namespace

std::string EncodeItemRecord(const ItemRecordFields& fields) {
  FieldWriter writer;
  writer.Bytes(kTableId, fields.table_id);
  if (!fields.key.empty()) writer.Bytes(kKey, fields.key);
  if (!fields.blob.empty()) {
    writer.Bytes(kBlob, fields.blob);
    writer.Int(kSize, fields.size);
  }
  return writer.Take();
}

Result<ItemRecordFields> DecodeItemRecord(std::string_view payload) {
  ItemRecordFields fields;
  FieldReader reader(payload);
  while (reader.Next()) {
    switch (reader.number()) {
      case kTableId:
        fields.table_id = reader.text();
        break;
      case kKey:
        fields.key = reader.text();
        break;
      case kBlob:
        fields.blob = reader.text();
        break;
      case kSize:
        fields.size = static_cast<uint32_t>(reader.integer());
        break;
      default:
        break;
    }
  }
  if (!reader.ok() || fields.table_id.empty()) {
    return Error::Internal("malformed item record");
  }
  return fields;
}

}  // namespace ddbd
