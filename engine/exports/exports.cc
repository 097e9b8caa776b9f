#include "engine/exports/exports.h"

#include <algorithm>

#include "engine/api/continuous_backups.h"
#include "engine/exports/export_files.h"
#include "engine/exports/export_record.h"
#include "engine/exports/job_ids.h"
#include "engine/persistence/journal_records.h"

namespace ddbd {
namespace {

// How long a ClientToken binds its parameters, as DynamoDB documents.
constexpr int64_t kClientTokenMs = int64_t{8} * 3'600'000;
// ListExports' page when MaxResults is absent (its maximum).
constexpr int64_t kDefaultMaxResults = 25;

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
    return kept.incremental->export_from_ms == args.incremental->export_from_ms &&
           kept.incremental->export_to_ms == args.incremental->export_to_ms &&
           kept.incremental->export_view_type == args.incremental->export_view_type;
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

Result<ExportDescription> Exports::Start(const ExportTableArgs& args) {
  const int64_t now_ms = catalog_.clock.NowMs();
  const std::string arn_prefix = catalog_.TableArn("");
  if (!args.table_arn.starts_with("arn:")) {
    return Error::Validation("Invalid TableArn: Invalid ResourceArn provided as input " +
                             args.table_arn);
  }
  const std::string table_name =
      args.table_arn.starts_with(arn_prefix) ? args.table_arn.substr(arn_prefix.size()) : "";
  if (args.export_type == ExportType::kIncrementalExport || args.incremental) {
    return Error::Validation(
        "ddbd does not yet serve INCREMENTAL_EXPORT exports (IncrementalExportSpecification): "
        "only FULL_EXPORT");
  }
  ExportDescription description;
  {
    std::shared_lock lock(catalog_.mutex);
    const TableEntry* entry = table_name.empty() || table_name.find('/') != std::string::npos
                                  ? nullptr
                                  : catalog_.FindLocked(table_name, now_ms);
    if (entry == nullptr) {
      return Error{ErrorCode::kTableNotFound, "Table not found: " + args.table_arn};
    }
    const TableDescription source = Catalog::Snapshot(*entry, now_ms);
    if (source.point_in_time_recovery_since_ms == 0 || !entry->history) {
      return Error{ErrorCode::kPointInTimeRecoveryUnavailable,
                   "Point in time recovery is not enabled for table '" + table_name + "'"};
    }
    int64_t export_time_ms = now_ms;
    if (args.export_time_ms) {
      const ContinuousBackupsDescription window = DescribeRestorableWindow(
          source, entry->history->earliest_ms(), catalog_.HistoryAgeMs(source),
          catalog_.options.pitr_lag_ms, now_ms);
      export_time_ms = *args.export_time_ms;
      // DynamoDB's window, as for a restore: ExportTime a moment ago (within --pitr-lag-ms) is
      // refused too.
      if (export_time_ms < window.earliest_restorable_ms ||
          export_time_ms > window.latest_restorable_ms) {
        return Error{ErrorCode::kInvalidExportTime,
                     "ExportTime '" + IsoSeconds(export_time_ms) +
                         "' must be within EarliestRestorableDateTime '" +
                         IsoSeconds(window.earliest_restorable_ms) +
                         "' and LatestRestorableDateTime '" +
                         IsoSeconds(window.latest_restorable_ms) + "'"};
      }
    }
    description.table_arn = source.table_arn;
    description.table_id = source.table_id;
    description.export_time_ms = export_time_ms;
  }
  std::lock_guard lock(mutex_);
  if (args.client_token) {
    for (const auto& [arn, kept] : exports_) {
      if (kept.client_token != *args.client_token || now_ms - kept.start_ms > kClientTokenMs) {
        continue;
      }
      if (!SameRequest(kept, args, description.table_arn)) {
        return Error{ErrorCode::kExportConflict,
                     "Duplicate request detected: ClientToken " + *args.client_token +
                         " was used for an export with other parameters"};
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
  description.incremental = args.incremental;
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
    return Error{ErrorCode::kExportNotFound, "Export not found: " + export_arn};
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
      return Error::Validation("The provided NextToken is not valid for ListExports");
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
  {
    std::shared_lock lock(catalog_.mutex);
    const std::string prefix = catalog_.TableArn("");
    const TableEntry* entry =
        catalog_.FindLocked(description.table_arn.substr(prefix.size()), catalog_.clock.NowMs());
    if (entry != nullptr && entry->description.table_id == description.table_id) {
      items = entry->items;
      history = entry->history;
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
