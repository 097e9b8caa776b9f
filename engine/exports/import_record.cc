#include "engine/exports/import_record.h"

#include "engine/persistence/catalog_codec.h"
#include "engine/persistence/fields.h"
#include "engine/persistence/journal_records.h"
#include "engine/persistence/log_format.h"

namespace ddbd {
namespace {

enum Field : uint32_t {
  kArn = 1,
  kStatus,
  kTableArn,
  kTableId,
  kClientToken,
  kBucket,
  kBucketOwner,
  kPrefix,
  kErrorCount,
  kFormat,
  kCsv,
  kDelimiter,
  kHeader,
  kCompression,
  kTable,
  kStartMs,
  kEndMs,
  kProcessedBytes,
  kProcessedItems,
  kImportedItems,
  kFailureCode,
  kFailureMessage,
  kHeaderList,
};

}  // namespace

std::string ImportFileName(std::string_view import_arn) {
  return std::string(import_arn.substr(import_arn.rfind('/') + 1)) + ".import";
}

std::string EncodeImportFile(const ImportTableDescription& d) {
  FieldWriter fields;
  fields.Bytes(kArn, d.import_arn);
  fields.Int(kStatus, static_cast<int64_t>(d.import_status));
  fields.Bytes(kTableArn, d.table_arn);
  fields.Bytes(kTableId, d.table_id);
  fields.Bytes(kClientToken, d.client_token);
  fields.Bytes(kBucket, d.s3_bucket);
  if (d.s3_bucket_owner) fields.Bytes(kBucketOwner, *d.s3_bucket_owner);
  if (d.s3_key_prefix) fields.Bytes(kPrefix, *d.s3_key_prefix);
  fields.Int(kErrorCount, d.error_count);
  fields.Int(kFormat, static_cast<int64_t>(d.input_format));
  if (d.csv) {
    fields.Int(kCsv, 1);
    if (d.csv->delimiter) fields.Bytes(kDelimiter, *d.csv->delimiter);
    if (d.csv->header_list) {
      fields.Int(kHeaderList, 1);
      for (const std::string& name : *d.csv->header_list) fields.Bytes(kHeader, name);
    }
  }
  fields.Int(kCompression, static_cast<int64_t>(d.input_compression_type));
  fields.Bytes(kTable, EncodeTableDescription(d.table));
  fields.Int(kStartMs, d.start_ms);
  fields.Int(kEndMs, d.end_ms);
  fields.Int(kProcessedBytes, d.processed_size_bytes);
  fields.Int(kProcessedItems, d.processed_item_count);
  fields.Int(kImportedItems, d.imported_item_count);
  fields.Bytes(kFailureCode, d.failure_code);
  fields.Bytes(kFailureMessage, d.failure_message);
  std::string out = LogHeader();
  AppendLogRecord(out, static_cast<uint8_t>(JournalKind::kImport), fields.bytes());
  return out;
}

Result<ImportTableDescription> DecodeImportFile(std::string_view file_name,
                                                std::string_view bytes) {
  auto malformed = [&](const std::string& what) {
    return Error::Internal("import file " + std::string(file_name) + ": " + what);
  };
  auto contents = ReadLog(file_name, bytes);
  if (!contents.ok()) return contents.error();
  if (contents.value().damaged || contents.value().empty) return malformed("cut short or damaged");
  const LogRecords& records = contents.value().records;
  if (records.size() != 1 || records.front().kind != static_cast<uint8_t>(JournalKind::kImport)) {
    return malformed("not an import");
  }
  ImportTableDescription d;
  FieldReader reader(records.front().payload);
  while (reader.Next()) {
    const std::string text(reader.text());
    const int64_t number = reader.integer();
    switch (reader.number()) {
      case kArn:
        d.import_arn = text;
        break;
      case kStatus:
        d.import_status = static_cast<ImportStatus>(number);
        break;
      case kTableArn:
        d.table_arn = text;
        break;
      case kTableId:
        d.table_id = text;
        break;
      case kClientToken:
        d.client_token = text;
        break;
      case kBucket:
        d.s3_bucket = text;
        break;
      case kBucketOwner:
        d.s3_bucket_owner = text;
        break;
      case kPrefix:
        d.s3_key_prefix = text;
        break;
      case kErrorCount:
        d.error_count = number;
        break;
      case kFormat:
        d.input_format = static_cast<InputFormat>(number);
        break;
      case kCsv:
        d.csv.emplace();
        break;
      case kDelimiter:
        if (d.csv) d.csv->delimiter = text;
        break;
      case kHeaderList:
        if (d.csv) d.csv->header_list.emplace();
        break;
      case kHeader:
        if (d.csv && d.csv->header_list) d.csv->header_list->push_back(text);
        break;
      case kCompression:
        d.input_compression_type = static_cast<InputCompressionType>(number);
        break;
      case kTable: {
        auto table = DecodeTableDescription(text);
        if (!table.ok()) return malformed(table.error().message());
        d.table = std::move(table).value();
        break;
      }
      case kStartMs:
        d.start_ms = number;
        break;
      case kEndMs:
        d.end_ms = number;
        break;
      case kProcessedBytes:
        d.processed_size_bytes = number;
        break;
      case kProcessedItems:
        d.processed_item_count = number;
        break;
      case kImportedItems:
        d.imported_item_count = number;
        break;
      case kFailureCode:
        d.failure_code = text;
        break;
      case kFailureMessage:
        d.failure_message = text;
        break;
      default:
        break;
    }
  }
  if (!reader.ok() || d.import_arn.empty()) return malformed("malformed record");
  return d;
}

}  // namespace ddbd
