// Exports' arguments and answers (ExportTableToPointInTime, DescribeExport, ListExports): a table
// as it was at a moment, written as files into a bucket (engine/exports/).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ddbd {

enum class ExportStatus { kInProgress, kCompleted, kFailed };
enum class ExportFormat { kDynamoDbJson, kIon };
enum class ExportType { kFullExport, kIncrementalExport };
enum class ExportViewType { kNewImage, kNewAndOldImages };

struct IncrementalExportSpecification {
  std::optional<int64_t> export_from_ms;
  std::optional<int64_t> export_to_ms;
  std::optional<ExportViewType> export_view_type;
};

struct ExportTableArgs {
  std::string table_arn;
  std::optional<int64_t> export_time_ms;  // absent: now
  std::optional<std::string> client_token;
  std::string s3_bucket;
  std::optional<std::string> s3_bucket_owner;
  std::optional<std::string> s3_prefix;
  std::optional<std::string> s3_sse_algorithm;  // AES256 or KMS: accepted, recorded
  std::optional<std::string> s3_sse_kms_key_id;
  std::optional<ExportFormat> export_format;  // absent: DYNAMODB_JSON
  std::optional<ExportType> export_type;      // absent: FULL_EXPORT, not described
  std::optional<IncrementalExportSpecification> incremental;
};

struct ExportDescription {
  std::string export_arn;  // the table's ARN, "/export/", 14 digits of ms and 8 hex digits
  ExportStatus export_status = ExportStatus::kInProgress;
  int64_t start_ms = 0;
  int64_t end_ms = 0;           // once finished
  std::string export_manifest;  // the summary manifest's key, once COMPLETED
  std::string table_arn;
  std::string table_id;
  int64_t export_time_ms = 0;
  std::string client_token;  // the caller's, or one made up
  std::string s3_bucket;
  std::optional<std::string> s3_bucket_owner;
  std::optional<std::string> s3_prefix;
  std::optional<std::string> s3_sse_algorithm;
  std::optional<std::string> s3_sse_kms_key_id;
  std::string failure_code;  // FAILED only
  std::string failure_message;
  ExportFormat export_format = ExportFormat::kDynamoDbJson;
  int64_t billed_size_bytes = 0;  // once COMPLETED
  int64_t item_count = 0;
  std::optional<ExportType> export_type;  // as asked (DynamoDB describes it only then)
  std::optional<IncrementalExportSpecification> incremental;
};

struct ListExportsArgs {
  std::optional<std::string> table_arn;
  int64_t max_results = 0;  // 1..25; 0: DynamoDB's default
  std::optional<std::string> next_token;
};

struct ExportSummary {
  std::string export_arn;
  ExportStatus export_status = ExportStatus::kInProgress;
  ExportType export_type = ExportType::kFullExport;
};

struct ListExportsResult {
  std::vector<ExportSummary> exports;  // newest first
  std::optional<std::string> next_token;
};

}  // namespace ddbd
