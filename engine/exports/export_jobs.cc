#include "engine/exports/export_jobs.h"

#include <algorithm>
#include <limits>
#include <vector>

#include "engine/api/continuous_backups.h"
#include "engine/exports/export_files.h"
#include "engine/exports/export_record.h"
#include "engine/exports/job_ids.h"
#include "engine/persistence/journal_records.h"

namespace ddbd {
namespace {

// ListExports' page when MaxResults is absent, as DynamoDB pages it.
constexpr int64_t kDefaultMaxResults = 10;
// An incremental export's window, as DynamoDB bounds it.
constexpr int64_t kIncrementalShortestMs = 15 * 60'000;
constexpr int64_t kIncrementalLongestMs = 24 * 3'600'000;

std::string ExportsDirectory(const EngineOptions& options) { return options.db_path + "/exports"; }

std::string HexOf(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (const char c : text) {
    out += kHex[(static_cast<unsigned char>(c) >> 4) & 15];
    out += kHex[c & 15];
  }
  return out;
}

std::optional<std::string> FromHex(std::string_view hex) {
  if (hex.size() % 2 != 0) return std::nullopt;
  auto digit = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
  };
  std::string out;
  for (size_t i = 0; i < hex.size(); i += 2) {
    const int high = digit(hex[i]);
    const int low = digit(hex[i + 1]);
    if (high < 0 || low < 0) return std::nullopt;
    out += static_cast<char>(high * 16 + low);
  }
  return out;
}

// Whether two requests with one ClientToken ask for the same export.
bool SameRequest(const ExportDescription& kept, const ExportTableArgs& args,
                 const std::string& table_arn) {
  auto same_incremental = [&] {
    if (kept.incremental.has_value() != args.incremental.has_value()) return false;
    if (!kept.incremental) return true;
    // The kept window has its end and view filled in: a replay that leaves them out matches.
    const IncrementalExportSpecification& asked = *args.incremental;
    return kept.incremental->export_from_ms == asked.export_from_ms &&
           (!asked.export_to_ms || kept.incremental->export_to_ms == asked.export_to_ms) &&
           kept.incremental->export_view_type ==
               asked.export_view_type.value_or(ExportViewType::kNewAndOldImages);
  };
  return kept.table_arn == table_arn && kept.s3_bucket == args.s3_bucket &&
         kept.s3_bucket_owner == args.s3_bucket_owner && kept.s3_prefix == args.s3_prefix &&
         kept.s3_sse_algorithm == args.s3_sse_algorithm &&
         kept.s3_sse_kms_key_id == args.s3_sse_kms_key_id &&
         kept.export_format == args.export_format.value_or(ExportFormat::kDynamoDbJson) &&
         kept.export_type == args.export_type &&
         (!args.export_time_ms || kept.export_time_ms == *args.export_time_ms) &&
         same_incremental();
}

}  // namespace

Exports::Exports(Catalog& catalog, ObjectStore& store) : catalog_(catalog), store_(store) {}

Exports::~Exports() { Stop(); }

void Exports::Stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  stop_.store(true);
  changed_.notify_all();
  if (thread_.joinable()) thread_.join();
}

Status Exports::Load(FileSystem& files) {
  std::lock_guard lock(mutex_);
  files_ = &files;
  const std::string directory = ExportsDirectory(catalog_.options);
  if (Status made = files.CreateDirectory(directory); !made.ok()) return made;
  auto names = files.List(directory);
  if (!names.ok()) return names.error();
  for (const std::string& name : names.value()) {
    const std::string path = directory + "/" + name;
    if (name.ends_with(".tmp")) {
      (void)files.Remove(path);
      continue;
    }
    if (!name.ends_with(".export")) continue;
    auto bytes = files.ReadFile(path);
    if (!bytes.ok()) return bytes.error();
    auto description = DecodeExportFile(name, bytes.value());
    if (!description.ok()) return description.error();
    ExportDescription& kept = description.value();
    if (kept.export_status == ExportStatus::kInProgress) {
      // Cut short by a restart: its summary manifest was never written.
      kept.export_status = ExportStatus::kFailed;
      kept.end_ms = catalog_.clock.NowMs();
      kept.failure_code = "ExportInterrupted";
      kept.failure_message = "ddbd stopped while the export ran; its manifest was not written";
      exports_[kept.export_arn] = kept;
      KeepLocked(kept);
      continue;
    }
    exports_[kept.export_arn] = std::move(kept);
  }
  return Ok{};
}

void Exports::KeepLocked(const ExportDescription& description) {
  exports_[description.export_arn] = description;
  if (files_ == nullptr) return;
  const std::string directory = ExportsDirectory(catalog_.options);
  const std::string name = ExportFileName(description.export_arn);
  const std::string temporary = directory + "/" + name + ".tmp";
  // Best effort beyond this point: the export itself is in memory and runs; a disk that
  // refuses the record loses its description at the next restart only.
  auto file = files_->OpenAppendable(temporary);
  if (!file.ok()) return;
  if (!file.value()->Truncate(0).ok() ||
      !file.value()->Append(EncodeExportFile(description)).ok() || !file.value()->Sync().ok()) {
    return;
  }
  file.value().reset();
  if (files_->Rename(temporary, directory + "/" + name).ok()) {
    (void)files_->SyncDirectory(directory);
  }
}

namespace {

// The table name a TableArn names, as DynamoDB reads it: the account must be ours; the region is
// not looked at (the name is looked up here, as DynamoDB looks it up in the endpoint's region).
Result<std::string> TableNameOf(const std::string& arn, const Catalog& catalog) {
  // arn:<partition>:dynamodb:<region>:<account>:table/<name>
  std::vector<std::string_view> parts;
  std::string_view rest = arn;
  for (int i = 0; i < 5; ++i) {
    const size_t colon = rest.find(':');
    if (colon == std::string_view::npos) break;
    parts.push_back(rest.substr(0, colon));
    rest.remove_prefix(colon + 1);
  }
  if (parts.size() != 5 || parts[0] != "arn" || rest.empty()) {
    return Error::Validation(
        "One or more parameter values were invalid: tableArn is not a valid ARN");
  }
  if (parts[2] != "dynamodb" || !rest.starts_with("table/") ||
      rest.find('/', 6) != std::string_view::npos || rest.size() == 6) {
    return Error::Validation("Invalid Request: Table ARN is invalid.");
  }
  if (parts[4] != catalog.account_id()) return Error{ErrorCode::kAccessDenied, "Access is denied"};
  return std::string(rest.substr(6));
}

// ExportType and IncrementalExportSpecification, and the encryption settings, as DynamoDB checks
// them before it looks at the table.
Status CheckRequestShape(const ExportTableArgs& args) {
  const bool incremental = args.export_type == ExportType::kIncrementalExport;
  if (args.incremental && !args.export_type) {
    return Error::Validation(
        "Invalid Request: Export Type expected to be Incremental Export when incremental export "
        "specification is provided");
  }
  if (args.incremental && !incremental) {
    return Error::Validation(
        "Invalid Request: When Export Type is Full Export , Incremental Export Specification "
        "should not be provided");
  }
  if (incremental && !args.incremental) {
    return Error::Validation(
        "Invalid Request: Incremental Export Specification expected when export type is set as "
        "Incremental Export");
  }
  if (incremental && !args.incremental->export_from_ms) {
    return Error::Validation(
        "Invalid Request: ExportFromTime must be provided in IncrementalExportSpecification");
  }
  if (args.s3_sse_kms_key_id && args.s3_sse_algorithm != "KMS") {
    return Error::Validation(
        "Invalid Request: KMS Key Id is not supported for this encryption type");
  }
  return Ok{};
}

// An incremental export's window: from no earlier than the history reaches (DynamoDB's "table
// creation time": when point-in-time recovery began), to no later than now, 15 minutes to 24 hours
// long, checked in DynamoDB's order. `earliest_ms` is INT64_MAX without point-in-time recovery.
Result<IncrementalExportSpecification> CheckWindow(const IncrementalExportSpecification& asked,
                                                   int64_t earliest_ms, int64_t now_ms) {
  IncrementalExportSpecification window = asked;
  const int64_t from_ms = *asked.export_from_ms;
  const int64_t to_ms = asked.export_to_ms.value_or(now_ms);
  if (from_ms < earliest_ms) {
    return Error{ErrorCode::kInvalidExportTime,
                 "Incremental export period from time cannot be less than the table creation "
                 "time : " +
                     IsoSeconds(from_ms)};
  }
  if (to_ms > now_ms) {
    return Error{ErrorCode::kInvalidExportTime,
                 "Incremental export period to time cannot be greater than the current time : " +
                     IsoSeconds(to_ms)};
  }
  if (to_ms - from_ms < kIncrementalShortestMs) {
    return Error{ErrorCode::kInvalidExportTime,
                 "Difference between export period from time and export period to time is less "
                 "than 15 minutes"};
  }
  if (to_ms - from_ms > kIncrementalLongestMs) {
    return Error{ErrorCode::kInvalidExportTime,
                 "Difference between export period from time and export period to time is more "
                 "than 24 hours"};
  }
  window.export_to_ms = to_ms;
  window.export_view_type = asked.export_view_type.value_or(ExportViewType::kNewAndOldImages);
  return window;
}

}  // namespace

Result<ExportDescription> Exports::Start(const ExportTableArgs& args) {
  const int64_t now_ms = catalog_.clock.NowMs();
  auto table_name = TableNameOf(args.table_arn, catalog_);
  if (!table_name.ok()) return table_name.error();
  if (auto shape = CheckRequestShape(args); !shape.ok()) return shape.error();
  const bool incremental = args.export_type == ExportType::kIncrementalExport;
  ExportDescription description;
  {
    std::shared_lock lock(catalog_.mutex);
    const TableEntry* entry = catalog_.FindLocked(table_name.value(), now_ms);
    if (entry == nullptr) {
      return Error::TableNotFound(args.table_arn);
    }
    const TableDescription source = Catalog::Snapshot(*entry, now_ms);
    const bool recovering = source.point_in_time_recovery_since_ms != 0 && entry->history;
    const ContinuousBackupsDescription window =
        recovering ? DescribeRestorableWindow(source, entry->history->earliest_ms(),
                                              catalog_.HistoryAgeMs(source),
                                              catalog_.options.pitr_lag_ms, now_ms)
                   : ContinuousBackupsDescription{};
    if (incremental) {
      auto checked = CheckWindow(
          *args.incremental,
          recovering ? window.earliest_restorable_ms : std::numeric_limits<int64_t>::max(), now_ms);
      if (!checked.ok()) return checked.error();
      description.incremental = checked.value();
    } else if (!recovering) {
      return Error{ErrorCode::kPointInTimeRecoveryUnavailable,
                   "Point in time recovery is not enabled for table '" + table_name.value() + "'"};
    } else if (args.export_time_ms) {
      // DynamoDB's words: a moment outside the window is invalid; one within --pitr-lag-ms of
      // now is not restorable yet.
      const int64_t export_time_ms = *args.export_time_ms;
      if (export_time_ms > now_ms || export_time_ms < window.earliest_restorable_ms) {
        return Error{ErrorCode::kInvalidExportTime, "Export Time is invalid"};
      }
      if (export_time_ms > window.latest_restorable_ms) {
        return Error{ErrorCode::kInvalidExportTime,
                     "Point in Time Recovery is not available for specified export time"};
      }
    }
    description.table_arn = source.table_arn;
    description.table_id = source.table_id;
    description.export_time_ms = incremental ? 0 : args.export_time_ms.value_or(now_ms);
  }
  std::lock_guard lock(mutex_);
  if (args.client_token) {
    for (const auto& [arn, kept] : exports_) {
      if (kept.client_token != *args.client_token || now_ms - kept.start_ms > kClientTokenMs) {
        continue;
      }
      if (!SameRequest(kept, args, description.table_arn)) {
        return Error{ErrorCode::kExportConflict,
                     "Export conflict: Duplicate request detected with conflicting parameters"};
      }
      return kept;
    }
  }
  description.export_arn = description.table_arn + "/export/" + NewJobId(now_ms);
  description.export_status = ExportStatus::kInProgress;
  description.start_ms = now_ms;
  description.client_token = args.client_token.value_or(NewClientToken());
  description.s3_bucket = args.s3_bucket;
  description.s3_bucket_owner = args.s3_bucket_owner;
  description.s3_prefix = args.s3_prefix;
  description.s3_sse_algorithm = args.s3_sse_algorithm;
  description.s3_sse_kms_key_id = args.s3_sse_kms_key_id;
  description.export_format = args.export_format.value_or(ExportFormat::kDynamoDbJson);
  description.export_type = args.export_type;
  KeepLocked(description);
  // The thread starts with the first export: an engine that never exports has none.
  if (!thread_.joinable()) thread_ = std::thread([this] { Run(); });
  queue_.push_back(description.export_arn);
  changed_.notify_all();
  return description;
}

Result<ExportDescription> Exports::Describe(const std::string& export_arn) const {
  if (export_arn.find("/export/") == std::string::npos) {
    return Error::Validation("Invalid Export ARN");
  }
  std::lock_guard lock(mutex_);
  auto it = exports_.find(export_arn);
  if (it == exports_.end()) {
    // DynamoDB's words, "Export not found" twice.
    return Error{ErrorCode::kExportNotFound, "Export not found: Export not found: " + export_arn};
  }
  return it->second;
}

Result<ListExportsResult> Exports::List(const ListExportsArgs& args) const {
  const int64_t limit = args.max_results > 0 ? args.max_results : kDefaultMaxResults;
  std::optional<std::string> after;
  if (args.next_token) {
    after = FromHex(*args.next_token);
    std::lock_guard lock(mutex_);
    if (!after || !exports_.contains(*after)) {
      return Error::Validation("Invalid Request: Provided nextToken is invalid: " +
                               *args.next_token);
    }
  }
  // Exports of a table that is deleted are not listed by its ARN, as DynamoDB lists them.
  std::string table_id;
  if (args.table_arn) {
    const std::string prefix = catalog_.TableArn("");
    const std::string name =
        args.table_arn->starts_with(prefix) ? args.table_arn->substr(prefix.size()) : "";
    std::optional<TableDescription> table = name.empty() ? std::nullopt : catalog_.Describe(name);
    if (!table) return ListExportsResult{};
    table_id = table->table_id;
  }
  // Newest first: export ids start with their start time.
  std::lock_guard lock(mutex_);
  std::vector<const ExportDescription*> listed;
  for (const auto& [arn, kept] : exports_) {
    if (args.table_arn && (kept.table_arn != *args.table_arn || kept.table_id != table_id)) {
      continue;
    }
    listed.push_back(&kept);
  }
  auto id_of = [](const ExportDescription* d) {
    return d->export_arn.substr(d->export_arn.rfind('/') + 1);
  };
  std::sort(listed.begin(), listed.end(), [&](const auto* a, const auto* b) {
    return id_of(a) != id_of(b) ? id_of(a) > id_of(b) : a->export_arn > b->export_arn;
  });
  ListExportsResult result;
  auto it = listed.begin();
  if (after) {
    it = std::find_if(listed.begin(), listed.end(),
                      [&](const ExportDescription* d) { return d->export_arn == *after; });
    if (it != listed.end()) ++it;
  }
  for (; it != listed.end(); ++it) {
    if (static_cast<int64_t>(result.exports.size()) == limit) {
      result.next_token = HexOf(result.exports.back().export_arn);
      break;
    }
    result.exports.push_back({(*it)->export_arn, (*it)->export_status,
                              (*it)->export_type.value_or(ExportType::kFullExport)});
  }
  return result;
}

void Exports::WaitIdle() const {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return queue_.empty() && !running_; });
}

void Exports::Run() {
  std::unique_lock lock(mutex_);
  while (true) {
    changed_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
    if (stopping_) return;
    const std::string arn = queue_.front();
    queue_.pop_front();
    running_ = true;
    lock.unlock();
    Execute(arn);
    lock.lock();
    running_ = false;
    changed_.notify_all();
  }
}

void Exports::Execute(const std::string& export_arn) {
  ExportDescription description;
  {
    std::lock_guard lock(mutex_);
    description = exports_.at(export_arn);
  }
  std::shared_ptr<TableItems> items;
  std::shared_ptr<PointInTimeHistory> history;
  std::vector<std::string> key_names;
  {
    std::shared_lock lock(catalog_.mutex);
    const std::string prefix = catalog_.TableArn("");
    const TableEntry* entry =
        catalog_.FindLocked(description.table_arn.substr(prefix.size()), catalog_.clock.NowMs());
    if (entry != nullptr && entry->description.table_id == description.table_id) {
      items = entry->items;
      history = entry->history;
      for (const KeySchemaElement& key : entry->description.key_schema) {
        key_names.push_back(key.attribute_name);
      }
    }
  }
  std::optional<ObjectFailure> failure;
  ExportWritten written;
  if (!items || !history) {
    failure = ObjectFailure{"TableNotFound",
                            "The table was deleted, or its point-in-time recovery disabled, "
                            "before the export ran"};
  } else if (!lines_) {
    failure = ObjectFailure{"InternalError", "no item format is installed"};
  } else if (description.incremental) {
    failure = WriteIncrementalExport(
        store_, *lines_, description, key_names, *items, *history,
        [this] { return catalog_.clock.NowMs(); }, stop_, written);
  } else {
    failure = WriteFullExport(
        store_, *lines_, description, *items, *history, [this] { return catalog_.clock.NowMs(); },
        stop_, written);
  }
  if (stop_.load()) return;  // stays IN_PROGRESS on disk: failed at the next start
  std::lock_guard lock(mutex_);
  ExportDescription& kept = exports_.at(export_arn);
  if (failure) {
    kept.export_status = ExportStatus::kFailed;
    kept.failure_code = failure->code;
    kept.failure_message = failure->message;
    kept.end_ms = catalog_.clock.NowMs();
  } else {
    kept.export_status = ExportStatus::kCompleted;
    kept.end_ms = written.end_ms;
    kept.export_manifest = written.manifest_key;
    kept.item_count = written.item_count;
    kept.billed_size_bytes = written.billed_size_bytes;
  }
  KeepLocked(ExportDescription(kept));
}

}  // namespace ddbd
