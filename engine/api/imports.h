// Imports' arguments and answers (ImportTable, DescribeImport, ListImports): a new table made
// from files in a bucket (engine/exports/import_jobs.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/api/tables.h"

namespace ddbd {

enum class ImportStatus { kInProgress, kCompleted, kCancelling, kCancelled, kFailed };
enum class InputFormat { kDynamoDbJson, kIon, kCsv };
enum class InputCompressionType { kGzip, kZstd, kNone };

struct CsvOptions {
  std::optional<std::string> delimiter;                 // one character; absent: ","
  std::optional<std::vector<std::string>> header_list;  // absent: each file's first line
};

struct ImportTableArgs {
  std::optional<std::string> client_token;
  std::string s3_bucket;
  std::optional<std::string> s3_bucket_owner;
  std::optional<std::string> s3_key_prefix;
  InputFormat input_format = InputFormat::kDynamoDbJson;
  std::optional<CsvOptions> csv;
  std::optional<InputCompressionType> input_compression_type;  // absent: NONE
  CreateTableArgs table;                                       // TableCreationParameters
};

struct ImportTableDescription {
  std::string import_arn;  // the table's ARN, "/import/", 14 digits of ms and 8 hex digits
  ImportStatus import_status = ImportStatus::kInProgress;
  std::string table_arn;
  std::string table_id;
  std::string client_token;
  std::string s3_bucket;
  std::optional<std::string> s3_bucket_owner;
  std::optional<std::string> s3_key_prefix;
  int64_t error_count = 0;
  InputFormat input_format = InputFormat::kDynamoDbJson;
  std::optional<CsvOptions> csv;
  InputCompressionType input_compression_type = InputCompressionType::kNone;
  // The table as ImportTable created it: TableCreationParameters are described from it.
  TableDescription table;
  int64_t start_ms = 0;
  int64_t end_ms = 0;  // once finished
  int64_t processed_size_bytes = 0;
  int64_t processed_item_count = 0;
  int64_t imported_item_count = 0;
  std::string failure_code;
  std::string failure_message;
};

struct ListImportsArgs {
  std::optional<std::string> table_arn;
  int64_t page_size = 0;  // 1..25; 0: DynamoDB's default
  std::optional<std::string> next_token;
};

struct ImportSummary {
  std::string import_arn;
  ImportStatus import_status = ImportStatus::kInProgress;
  std::string table_arn;
  std::string s3_bucket;
  std::optional<std::string> s3_bucket_owner;
  std::optional<std::string> s3_key_prefix;
  InputFormat input_format = InputFormat::kDynamoDbJson;
  int64_t start_ms = 0;
  int64_t end_ms = 0;
};

struct ListImportsResult {
  std::vector<ImportSummary> imports;  // newest first
  std::optional<std::string> next_token;
};

}  // namespace ddbd
