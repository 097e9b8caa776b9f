#include "engine/exports/import_jobs.h"

#include <algorithm>

#include "engine/exports/csv_items.h"
#include "engine/exports/import_lines.h"
#include "engine/exports/import_record.h"
#include "engine/exports/job_ids.h"
#include "engine/model/item_codec.h"
#include "engine/model/item_key.h"
#include "engine/storage/write_scope.h"

namespace ddbd {
namespace {

constexpr int64_t kDefaultPageSize = 10;  // as DynamoDB pages ListImports
constexpr size_t kBatchItems = 1000;      // items committed under one write scope

std::string ImportsDirectory(const EngineOptions& options) { return options.db_path + "/imports"; }

// ListImports' NextToken: 16 hex digits per byte pair... the ARN of the last import listed, in hex
// (the model's ImportNextToken is ([0-9a-f]{16})+: padded with zeros to a multiple of 16).
std::string TokenOf(std::string_view arn) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (const char c : arn) {
    out += kHex[(static_cast<unsigned char>(c) >> 4) & 15];
    out += kHex[c & 15];
  }
  while (out.size() % 16 != 0) out += "00";
  return out;
}

std::optional<std::string> ArnOf(std::string_view token) {
  auto digit = [](char c) { return c >= 'a' ? c - 'a' + 10 : c - '0'; };
  std::string out;
  for (size_t i = 0; i + 1 < token.size(); i += 2) {
    const char c = static_cast<char>(digit(token[i]) * 16 + digit(token[i + 1]));
    if (c == '\0') break;
    out += c;
  }
  return out;
}

// What DynamoDB says of an import with lines it could not take (the valid ones are imported).
constexpr std::string_view kItemValidationMessage =
    "Some of the items failed validation checks and were not imported. Please check CloudWatch "
    "error logs for more details.";

}  // namespace

Imports::Imports(Catalog& catalog, ObjectStore& store, CreateTableCall create_table)
    : catalog_(catalog), store_(store), create_table_(std::move(create_table)) {}

Imports::~Imports() { Stop(); }

void Imports::Stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  stop_.store(true);
  changed_.notify_all();
  if (thread_.joinable()) thread_.join();
}

Status Imports::Load(FileSystem& files) {
  std::lock_guard lock(mutex_);
  files_ = &files;
  const std::string directory = ImportsDirectory(catalog_.options);
  if (Status made = files.CreateDirectory(directory); !made.ok()) return made;
  auto names = files.List(directory);
  if (!names.ok()) return names.error();
  for (const std::string& name : names.value()) {
    const std::string path = directory + "/" + name;
    if (name.ends_with(".tmp")) {
      (void)files.Remove(path);
      continue;
    }
    if (!name.ends_with(".import")) continue;
    auto bytes = files.ReadFile(path);
    if (!bytes.ok()) return bytes.error();
    auto description = DecodeImportFile(name, bytes.value());
    if (!description.ok()) return description.error();
    ImportTableDescription& kept = description.value();
    if (kept.import_status == ImportStatus::kInProgress) {
      // Cut short by a restart, which dropped its table (engine/store/store.cc).
      kept.import_status = ImportStatus::kFailed;
      kept.end_ms = catalog_.clock.NowMs();
      kept.failure_code = "ImportInterrupted";
      kept.failure_message = "ddbd stopped while the import ran; its table was deleted";
      KeepLocked(kept);
      continue;
    }
    imports_[kept.import_arn] = std::move(kept);
  }
  return Ok{};
}

void Imports::KeepLocked(const ImportTableDescription& description) {
  imports_[description.import_arn] = description;
  if (files_ == nullptr) return;
  const std::string directory = ImportsDirectory(catalog_.options);
  const std::string name = ImportFileName(description.import_arn);
  const std::string temporary = directory + "/" + name + ".tmp";
  auto file = files_->OpenAppendable(temporary);
  if (!file.ok()) return;
  if (!file.value()->Truncate(0).ok() ||
      !file.value()->Append(EncodeImportFile(description)).ok() || !file.value()->Sync().ok()) {
    return;
  }
  file.value().reset();
  if (files_->Rename(temporary, directory + "/" + name).ok()) {
    (void)files_->SyncDirectory(directory);
  }
}

Result<ImportTableDescription> Imports::Start(const ImportTableArgs& args) {
  const int64_t now_ms = catalog_.clock.NowMs();
  // A ClientToken binds the table's name (DynamoDB ignores another S3KeyPrefix under it); while
  // its import runs it answers that import, and after, unless the table is there, as well.
  if (args.client_token) {
    std::optional<ImportTableDescription> same;
    {
      std::lock_guard lock(mutex_);
      for (const auto& [arn, kept] : imports_) {
        if (kept.client_token != *args.client_token || now_ms - kept.start_ms > kClientTokenMs) {
          continue;
        }
        if (kept.table.table_name != args.table.table_name) {
          return Error{ErrorCode::kImportConflict,
                       "Import conflict: Duplicate request detected with conflicting parameters"};
        }
        same = kept;
        break;
      }
    }
    if (same) {
      if (same->import_status != ImportStatus::kInProgress &&
          catalog_.Describe(args.table.table_name)) {
        return Error{ErrorCode::kResourceInUse, "Table already exists: " + args.table.table_name};
      }
      return *same;
    }
  }
  CreateTableArgs table = args.table;
  table.importing = true;
  auto created = create_table_(table);
  if (!created.ok()) return created.error();
  ImportTableDescription description;
  description.import_arn = created.value().table_arn + "/import/" + NewJobId(now_ms);
  description.import_status = ImportStatus::kInProgress;
  description.table_arn = created.value().table_arn;
  description.table_id = created.value().table_id;
  description.client_token = args.client_token.value_or(NewClientToken());
  description.s3_bucket = args.s3_bucket;
  description.s3_bucket_owner = args.s3_bucket_owner;
  description.s3_key_prefix = args.s3_key_prefix;
  description.input_format = args.input_format;
  description.csv = args.csv;
  description.input_compression_type =
      args.input_compression_type.value_or(InputCompressionType::kNone);
  description.table = created.value();
  description.start_ms = now_ms;
  std::lock_guard lock(mutex_);
  KeepLocked(description);
  waiting_[description.import_arn] = args;
  if (!thread_.joinable()) thread_ = std::thread([this] { Run(); });
  queue_.push_back(description.import_arn);
  changed_.notify_all();
  return description;
}

Result<ImportTableDescription> Imports::Describe(const std::string& import_arn) const {
  if (import_arn.find("/import/") == std::string::npos) {
    return Error::Validation("Invalid Import ARN");
  }
  std::lock_guard lock(mutex_);
  auto it = imports_.find(import_arn);
  if (it == imports_.end()) {
    return Error{ErrorCode::kImportNotFound, "Import not found: " + import_arn};
  }
  return it->second;
}

Result<ListImportsResult> Imports::List(const ListImportsArgs& args) const {
  const int64_t limit = args.page_size > 0 ? args.page_size : kDefaultPageSize;
  std::lock_guard lock(mutex_);
  std::optional<std::string> after;
  if (args.next_token) {
    after = ArnOf(*args.next_token);
    if (!after || !imports_.contains(*after)) {
      return Error::Validation("Invalid Request: Provided nextToken is invalid: " +
                               *args.next_token);
    }
  }
  std::vector<const ImportTableDescription*> listed;
  for (const auto& [arn, kept] : imports_) {
    if (args.table_arn && kept.table_arn != *args.table_arn) continue;
    listed.push_back(&kept);
  }
  std::sort(listed.begin(), listed.end(), [](const auto* a, const auto* b) {
    const std::string_view x = std::string_view(a->import_arn).substr(a->import_arn.rfind('/'));
    const std::string_view y = std::string_view(b->import_arn).substr(b->import_arn.rfind('/'));
    return x != y ? x > y : a->import_arn > b->import_arn;
  });
  auto it = listed.begin();
  if (after) {
    it = std::find_if(listed.begin(), listed.end(),
                      [&](const auto* d) { return d->import_arn == *after; });
    if (it != listed.end()) ++it;
  }
  ListImportsResult result;
  for (; it != listed.end(); ++it) {
    if (static_cast<int64_t>(result.imports.size()) == limit) {
      result.next_token = TokenOf(result.imports.back().import_arn);
      break;
    }
    const ImportTableDescription& d = **it;
    result.imports.push_back({d.import_arn, d.import_status, d.table_arn, d.s3_bucket,
                              d.s3_bucket_owner, d.s3_key_prefix, d.input_format, d.start_ms,
                              d.end_ms});
  }
  return result;
}

void Imports::WaitIdle() const {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return queue_.empty() && !running_; });
}

void Imports::Run() {
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

void Imports::Execute(const std::string& import_arn) {
  ImportTableDescription description;
  ImportTableArgs args;
  {
    std::lock_guard lock(mutex_);
    description = imports_.at(import_arn);
    args = waiting_.at(import_arn);
    waiting_.erase(import_arn);
  }
  const std::string& table_name = description.table.table_name;
  std::shared_ptr<TableItems> items;
  std::shared_ptr<const TableIndexes> indexes;
  KeyShape key_shape;
  {
    std::shared_lock lock(catalog_.mutex);
    auto it = catalog_.tables.find(table_name);
    if (it != catalog_.tables.end() && it->second->description.table_id == description.table_id) {
      items = it->second->items;
      indexes = it->second->indexes;
      key_shape = it->second->key_shape;
    }
  }
  std::optional<ObjectFailure> failure;
  if (!items) failure = ObjectFailure{"TableNotFound", "The table was deleted while importing"};

  // The data files: every object whose key starts with the prefix, as S3 lists them (a raw
  // prefix: "data" also names data2/x and data.bak); empty ones hold no lines.
  std::vector<std::string> keys;
  if (!failure) {
    ObjectFailure listed_failure;
    auto listed = store_.List(args.s3_bucket, args.s3_key_prefix.value_or(""), listed_failure);
    if (!listed) {
      failure = listed_failure;
    } else {
      for (const ObjectInfo& object : *listed) {
        if (object.size > 0) keys.push_back(object.key);
      }
    }
  }

  CsvItems csv(args.csv.value_or(CsvOptions{}), args.table);
  std::vector<std::pair<std::string, StoredItem>> batch;
  auto commit_batch = [&]() -> Status {
    WriteScope scope(*items);
    for (const auto& pair : batch) {
      // Named, not a structured binding: clang 14 (the fuzz build) cannot capture those.
      const std::string& key = pair.first;
      const StoredItem& stored = pair.second;
      IndexEntries entries;
      if (!indexes->list().empty()) entries = indexes->EntriesFor(key, stored);
      auto committed =
          items->Commit(scope, key,
                        [&](const TableItems::Current*) -> Result<TableItems::Write> {
                          return TableItems::Write{TableItems::Write::Kind::kPut, &stored, &entries,
                                                   items->index_generation()};
                        },
                        {ChangeOrigin::kLoad, 0});
      if (!committed.ok()) return committed.error();
    }
    batch.clear();
    return Ok{};
  };
  for (const std::string& key : keys) {
    if (failure || stop_.load()) break;
    ObjectFailure read_failure;
    auto bytes = store_.Read(args.s3_bucket, key, read_failure);
    if (!bytes) {
      failure = read_failure;
      break;
    }
    csv.StartFile();
    std::string line_failure;
    const bool read = ForEachLine(
        *bytes, description.input_compression_type,
        [&](std::string_view line) {
          description.processed_size_bytes += static_cast<int64_t>(line.size()) + 1;
          std::optional<Item> item;
          if (args.input_format == InputFormat::kCsv) {
            bool header = false;
            item = csv.Read(line, header);
            if (header) return true;
          } else {
            LineItem of_line = lines_ ? lines_->ItemOfLine(args.input_format, line) : LineItem{};
            if (of_line.kind == LineItem::Kind::kUnreadable) {
              // DynamoDB skips the rest of a file once a line does not read.
              ++description.processed_item_count;
              ++description.error_count;
              return false;
            }
            if (of_line.kind == LineItem::Kind::kItem) item = std::move(of_line.item);
          }
          ++description.processed_item_count;
          if (!item) {
            ++description.error_count;
            return true;
          }
          auto item_key = ItemKeyBytes(key_shape, *item, KeyMismatchStyle::kTypeMismatch);
          const size_t size = ItemSize(*item);
          if (!item_key.ok() || size > kMaxItemSizeBytes) {
            ++description.error_count;
            return true;
          }
          batch.emplace_back(std::move(item_key).value(),
                             StoredItem{EncodeItem(*item), static_cast<uint32_t>(size)});
          ++description.imported_item_count;
          if (batch.size() == kBatchItems) {
            if (Status committed = commit_batch(); !committed.ok()) {
              failure = ObjectFailure{"InternalError", committed.error().message()};
              return false;
            }
          }
          return !stop_.load();
        },
        line_failure);
    if (!read) {  // a file that does not decompress: one line read, one error
      ++description.processed_item_count;
      ++description.error_count;
    }
  }
  if (!failure && !batch.empty()) {
    if (Status committed = commit_batch(); !committed.ok()) {
      failure = ObjectFailure{"InternalError", committed.error().message()};
    }
  }
  if (stop_.load()) return;  // IN_PROGRESS on disk: failed, its table dropped, at the next start
  // Done: the table goes ACTIVE (after --table-delay-ms), or, failed, goes.
  {
    const int64_t now_ms = catalog_.clock.NowMs();
    std::unique_lock lock(catalog_.mutex);
    auto it = catalog_.tables.find(table_name);
    if (it != catalog_.tables.end() && it->second->description.table_id == description.table_id) {
      if (failure) {
        catalog_.CommitLocked(
            {CatalogChange::Kind::kDeleteTable, table_name, nullptr, {}, 0, now_ms, {}});
      } else {
        CatalogChange finished;
        finished.kind = CatalogChange::Kind::kUpdateTable;
        finished.table_name = table_name;
        finished.description = it->second->description;
        finished.description.import_in_progress = false;
        finished.transition_done_ms = now_ms + catalog_.options.table_delay_ms;
        finished.now_ms = now_ms;
        catalog_.CommitLocked(std::move(finished));
      }
    }
  }
  std::lock_guard lock(mutex_);
  if (failure) {
    description.import_status = ImportStatus::kFailed;
    description.failure_code = failure->code;
    description.failure_message = failure->message;
    description.imported_item_count = 0;
  } else if (description.error_count > 0) {
    // DynamoDB's outcome: the table stays, with the items that were valid; the import FAILED.
    description.import_status = ImportStatus::kFailed;
    description.failure_code = "ItemValidationError";
    description.failure_message = std::string(kItemValidationMessage);
  } else {
    description.import_status = ImportStatus::kCompleted;
  }
  description.end_ms = catalog_.clock.NowMs();
  KeepLocked(description);
}

}  // namespace ddbd
