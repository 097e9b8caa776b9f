#include "engine/persistence/journal_records.h"

#include <cstring>

#include "engine/persistence/fields.h"

namespace ddbd {
namespace {

enum Field : uint32_t { kTableId = 1, kKey, kBlob, kSize, kVersionTime, kVersionRegion };
enum TokenField : uint32_t { kToken = 1, kFingerprint, kCompletedMs };

}  // namespace

std::string EncodeItemRecord(const ItemRecordFields& fields) {
  FieldWriter writer;
  writer.Bytes(kTableId, fields.table_id);
  if (!fields.key.empty()) writer.Bytes(kKey, fields.key);
  if (!fields.blob.empty()) {
    writer.Bytes(kBlob, fields.blob);
    writer.Int(kSize, fields.size);
  }
  if (!fields.version_region.empty()) {
    writer.Int(kVersionTime, fields.version_time_us);
    writer.Bytes(kVersionRegion, fields.version_region);
  }
  return writer.Take();
}

std::string EncodeTableNumber(const TableNumberFields& fields) {
  std::string payload(sizeof(fields.number), '\0');
  std::memcpy(payload.data(), &fields.number, sizeof(fields.number));  // little-endian hosts only
  payload.append(fields.table_id);
  return payload;
}

Result<TableNumberFields> DecodeTableNumber(std::string_view payload) {
  TableNumberFields fields;
  if (payload.size() <= sizeof(fields.number)) return Error::Internal("malformed table number");
  std::memcpy(&fields.number, payload.data(), sizeof(fields.number));
  fields.table_id = payload.substr(sizeof(fields.number));
  return fields;
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
      case kVersionTime:
        fields.version_time_us = reader.integer();
        break;
      case kVersionRegion:
        fields.version_region = reader.text();
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

std::string EncodeRequestToken(const RequestTokenFields& fields) {
  FieldWriter writer;
  writer.Bytes(kToken, fields.token);
  writer.Int(kFingerprint, static_cast<int64_t>(fields.fingerprint));
  writer.Int(kCompletedMs, fields.completed_ms);
  return writer.Take();
}

Result<RequestTokenFields> DecodeRequestToken(std::string_view payload) {
  RequestTokenFields fields;
  FieldReader reader(payload);
  while (reader.Next()) {
    switch (reader.number()) {
      case kToken:
        fields.token = reader.text();
        break;
      case kFingerprint:
        fields.fingerprint = static_cast<uint64_t>(reader.integer());
        break;
      case kCompletedMs:
        fields.completed_ms = reader.integer();
        break;
      default:
        break;
    }
  }
  if (!reader.ok() || fields.token.empty()) return Error::Internal("malformed request token");
  return fields;
}

}  // namespace ddbd
