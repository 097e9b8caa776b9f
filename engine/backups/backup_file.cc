#include "engine/backups/backup_file.h"

#include "engine/persistence/catalog_codec.h"
#include "engine/persistence/fields.h"
#include "engine/persistence/journal_records.h"
#include "engine/persistence/log_format.h"

namespace ddbd {
namespace {

enum Field : uint32_t { kArn = 1, kName, kSizeBytes, kCreationMs, kSystem, kExpiryMs };

Error Malformed(std::string_view file_name, std::string_view what) {
  return Error::Internal("backup file " + std::string(file_name) + ": " + std::string(what));
}

}  // namespace

std::string BackupFileName(std::string_view backup_arn) {
  const size_t at = backup_arn.rfind("/backup/");
  return std::string(at == std::string_view::npos ? backup_arn : backup_arn.substr(at + 8)) +
         ".backup";
}

std::string EncodeBackupFile(const Backup& backup) {
  const BackupDetails& details = backup.description.details;
  FieldWriter fields;
  fields.Bytes(kArn, details.backup_arn);
  fields.Bytes(kName, details.backup_name);
  fields.Int(kSizeBytes, details.backup_size_bytes);
  fields.Int(kCreationMs, details.backup_creation_ms);
  if (details.system) {
    fields.Int(kSystem, 1);
    fields.Int(kExpiryMs, details.backup_expiry_ms);
  }
  std::string out = LogHeader();
  AppendLogRecord(out, static_cast<uint8_t>(JournalKind::kBackup), fields.bytes());
  const TableDescription& source = backup.description.source;
  AppendLogRecord(out, static_cast<uint8_t>(JournalKind::kTableCreated),
                  EncodeTableDescription(source));
  for (const StoredItem& item : backup.items) {
    AppendLogRecord(out, static_cast<uint8_t>(JournalKind::kItemPut),
                    EncodeItemRecord({source.table_id, "", item.blob, item.size_bytes, 0, {}}));
  }
  return out;
}

Result<Backup> DecodeBackupFile(std::string_view file_name, std::string_view bytes) {
  auto contents = ReadLog(file_name, bytes);
  if (!contents.ok()) return contents.error();
  // Written whole and synced before it was renamed into place: any damage, a torn tail too, is
  // corruption here.
  if (contents.value().damaged || contents.value().empty) {
    return Malformed(file_name, contents.value().empty
                                    ? "cut short"
                                    : contents.value().damage + " at offset " +
                                          std::to_string(contents.value().valid_bytes));
  }
  const LogRecords& records = contents.value().records;
  if (records.size() < 2) return Malformed(file_name, "not a backup");
  LogRecords::Iterator record = records.begin();
  const LogRecord details_record = *record++;
  const LogRecord source_record = *record++;
  if (details_record.kind != static_cast<uint8_t>(JournalKind::kBackup) ||
      source_record.kind != static_cast<uint8_t>(JournalKind::kTableCreated)) {
    return Malformed(file_name, "not a backup");
  }
  Backup backup;
  BackupDetails& details = backup.description.details;
  FieldReader reader(details_record.payload);
  while (reader.Next()) {
    switch (reader.number()) {
      case kArn:
        details.backup_arn = reader.text();
        break;
      case kName:
        details.backup_name = reader.text();
        break;
      case kSizeBytes:
        details.backup_size_bytes = reader.integer();
        break;
      case kCreationMs:
        details.backup_creation_ms = reader.integer();
        break;
      case kSystem:
        details.system = reader.integer() != 0;
        break;
      case kExpiryMs:
        details.backup_expiry_ms = reader.integer();
        break;
      default:
        break;
    }
  }
  if (!reader.ok() || details.backup_arn.empty()) return Malformed(file_name, "bad details");
  auto source = DecodeTableDescription(source_record.payload);
  if (!source.ok()) return Malformed(file_name, source.error().message());
  backup.description.source = std::move(source).value();
  backup.items.reserve(records.size() - 2);
  for (; record != records.end(); ++record) {
    const LogRecord item_record = *record;
    if (item_record.kind != static_cast<uint8_t>(JournalKind::kItemPut)) {
      return Malformed(file_name, "unexpected record");
    }
    auto item = DecodeItemRecord(item_record.payload);
    if (!item.ok()) return Malformed(file_name, item.error().message());
    backup.items.push_back({std::string(item.value().blob), item.value().size});
  }
  return backup;
}

}  // namespace ddbd
