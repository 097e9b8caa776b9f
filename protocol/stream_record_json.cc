#include "protocol/stream_record_json.h"

#include "engine/model/attribute_value.h"
#include "engine/model/item_codec.h"
#include "protocol/attribute_value_json.h"

namespace ddbd {

const char* EventNameText(ChangeKind kind) {
  switch (kind) {
    case ChangeKind::kInsert:
      return "INSERT";
    case ChangeKind::kModify:
      return "MODIFY";
    default:
      return "REMOVE";
  }
}

void WriteRecordImages(json::Writer& out, const StreamRecord& record) {
  json::Key(out, "\"Keys\"");
  EncodeItemBlob(out, record.keys);
  if (!record.new_image.empty()) {
    json::Key(out, "\"NewImage\"");
    EncodeItemBlob(out, record.new_image);
  }
  if (!record.old_image.empty()) {
    json::Key(out, "\"OldImage\"");
    EncodeItemBlob(out, record.old_image);
  }
}

uint64_t StreamRecordSizeBytes(const StreamRecord& record) {
  uint64_t size = ItemSize(DecodeItem(record.keys));
  if (!record.new_image.empty()) size += record.new_size;
  if (!record.old_image.empty()) size += record.old_size;
  return size;
}

void WriteServiceIdentity(json::Writer& out) {
  out.StartObject();
  json::Key(out, "\"type\"");
  out.String("Service");
  json::Key(out, "\"principalId\"");
  out.String("dynamodb.amazonaws.com");
  out.EndObject();
}

}  // namespace ddbd
