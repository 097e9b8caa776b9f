#include "engine/exports/export_record.h"

#include "engine/persistence/fields.h"
#include "engine/persistence/journal_records.h"
#include "engine/persistence/log_format.h"

namespace ddbd {
namespace {

enum Field : uint32_t {
  kArn = 1,
  kStatus,
  kStartMs,
  kEndMs,
  kManifest,
  kTableArn,
  kTableId,
  kExportTimeMs,
  kClientToken,
  kBucket,
  kBucketOwner,
  kPrefix,
  kSseAlgorithm,
  kSseKmsKeyId,
  kFailureCode,
  kFailureMessage,
  kFormat,
  kBilledSizeBytes,
  kItemCount,
  kType,
  kFromMs,
  kToMs,
  kViewType,
  kIncremental,
};

void Optional(FieldWriter& fields, Field field, const std::optional<std::string>& text) {
  if (text) fields.Bytes(field, *text);
}

}  // namespace

std::string ExportFileName(std::string_view export_arn) {
  return std::string(export_arn.substr(export_arn.rfind('/') + 1)) + ".export";
}

std::string EncodeExportFile(const ExportDescription& d) {
  FieldWriter fields;
  fields.Bytes(kArn, d.export_arn);
  fields.Int(kStatus, static_cast<int64_t>(d.export_status));
  fields.Int(kStartMs, d.start_ms);
  fields.Int(kEndMs, d.end_ms);
  fields.Bytes(kManifest, d.export_manifest);
  fields.Bytes(kTableArn, d.table_arn);
  fields.Bytes(kTableId, d.table_id);
  fields.Int(kExportTimeMs, d.export_time_ms);
  fields.Bytes(kClientToken, d.client_token);
  fields.Bytes(kBucket, d.s3_bucket);
  Optional(fields, kBucketOwner, d.s3_bucket_owner);
  Optional(fields, kPrefix, d.s3_prefix);
  Optional(fields, kSseAlgorithm, d.s3_sse_algorithm);
  Optional(fields, kSseKmsKeyId, d.s3_sse_kms_key_id);
  fields.Bytes(kFailureCode, d.failure_code);
  fields.Bytes(kFailureMessage, d.failure_message);
  fields.Int(kFormat, static_cast<int64_t>(d.export_format));
  fields.Int(kBilledSizeBytes, d.billed_size_bytes);
  fields.Int(kItemCount, d.item_count);
  if (d.export_type) fields.Int(kType, static_cast<int64_t>(*d.export_type));
  if (d.incremental) {
    fields.Int(kIncremental, 1);
    if (d.incremental->export_from_ms) fields.Int(kFromMs, *d.incremental->export_from_ms);
    if (d.incremental->export_to_ms) fields.Int(kToMs, *d.incremental->export_to_ms);
    if (d.incremental->export_view_type) {
      fields.Int(kViewType, static_cast<int64_t>(*d.incremental->export_view_type));
    }
  }
  std::string out = LogHeader();
  AppendLogRecord(out, static_cast<uint8_t>(JournalKind::kExport), fields.bytes());
  return out;
}

Result<ExportDescription> DecodeExportFile(std::string_view file_name, std::string_view bytes) {
  auto malformed = [&](const std::string& what) {
    return Error::Internal("export file " + std::string(file_name) + ": " + what);
  };
  auto contents = ReadLog(file_name, bytes);
  if (!contents.ok()) return contents.error();
  if (contents.value().damaged || contents.value().empty) return malformed("cut short or damaged");
  const LogRecords& records = contents.value().records;
  if (records.size() != 1 || records.front().kind != static_cast<uint8_t>(JournalKind::kExport)) {
    return malformed("not an export");
  }
  ExportDescription d;
  IncrementalExportSpecification incremental;
  bool has_incremental = false;
  FieldReader reader(records.front().payload);
  while (reader.Next()) {
    const std::string text(reader.text());
    const int64_t number = reader.integer();
    switch (reader.number()) {
      case kArn:
        d.export_arn = text;
        break;
      case kStatus:
        d.export_status = static_cast<ExportStatus>(number);
        break;
      case kStartMs:
        d.start_ms = number;
        break;
      case kEndMs:
        d.end_ms = number;
        break;
      case kManifest:
        d.export_manifest = text;
        break;
      case kTableArn:
        d.table_arn = text;
        break;
      case kTableId:
        d.table_id = text;
        break;
      case kExportTimeMs:
        d.export_time_ms = number;
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
        d.s3_prefix = text;
        break;
      case kSseAlgorithm:
        d.s3_sse_algorithm = text;
        break;
      case kSseKmsKeyId:
        d.s3_sse_kms_key_id = text;
        break;
      case kFailureCode:
        d.failure_code = text;
        break;
      case kFailureMessage:
        d.failure_message = text;
        break;
      case kFormat:
        d.export_format = static_cast<ExportFormat>(number);
        break;
      case kBilledSizeBytes:
        d.billed_size_bytes = number;
        break;
      case kItemCount:
        d.item_count = number;
        break;
      case kType:
        d.export_type = static_cast<ExportType>(number);
        break;
      case kIncremental:
        has_incremental = true;
        break;
      case kFromMs:
        incremental.export_from_ms = number;
        break;
      case kToMs:
        incremental.export_to_ms = number;
        break;
      case kViewType:
        incremental.export_view_type = static_cast<ExportViewType>(number);
        break;
      default:
        break;
    }
  }
  if (!reader.ok() || d.export_arn.empty()) return malformed("malformed record");
  if (has_incremental) d.incremental = incremental;
  return d;
}

}  // namespace ddbd
