#include "engine/exports/export_files.h"

#include <algorithm>
#include <memory>
#include <random>
#include <vector>

#include "engine/catalog/identifiers.h"
#include "engine/exports/gzip_object.h"
#include "engine/exports/table_at_moment.h"
#include "engine/model/item_codec.h"

namespace ddbd {
namespace {

// A JSON string literal of `text` (the manifests' only strings: ARNs, keys, bucket and prefix).
std::string Quoted(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          static constexpr char kHex[] = "0123456789abcdef";
          out += "\\u00";
          out += kHex[(c >> 4) & 15];
          out += kHex[c & 15];
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

std::string QuotedOrNull(const std::optional<std::string>& text) {
  return text ? Quoted(*text) : "null";
}

std::string IsoMillis(int64_t epoch_ms) { return StreamLabel(epoch_ms) + "Z"; }

// A data file's name as DynamoDB's look: 26 characters of lowercase base32.
std::string DataFileName() {
  static constexpr char kAlphabet[] = "abcdefghijklmnopqrstuvwxyz234567";
  thread_local std::mt19937_64 random{std::random_device{}()};
  std::string name;
  for (int i = 0; i < 26; ++i) name += kAlphabet[random() % 32];
  return name;
}

struct DataFile {
  std::string key;
  int64_t item_count = 0;
  Md5Text md5;
};

std::optional<ObjectFailure> PutObject(ObjectStore& store, const std::string& bucket,
                                       const std::string& key, std::string_view bytes) {
  ObjectFailure failure;
  std::unique_ptr<ObjectWriter> writer = store.Create(bucket, key, failure);
  if (!writer) return failure;
  if (auto failed = writer->Append(bytes)) return failed;
  return writer->Commit();
}

// A manifest and its .md5 beside it.
std::optional<ObjectFailure> PutManifest(ObjectStore& store, const std::string& bucket,
                                         const std::string& folder, const std::string& name,
                                         const std::string& bytes) {
  if (auto failed = PutObject(store, bucket, folder + name + ".json", bytes)) return failed;
  return PutObject(store, bucket, folder + name + ".md5", Md5Of(bytes).base64);
}

// The data files of one export, in `folder`: a new file every kItemsPerDataFile lines.
class DataFiles {
 public:
  DataFiles(ObjectStore& store, const std::string& bucket, std::string folder,
            std::string extension)
      : store_(store),
        bucket_(bucket),
        folder_(std::move(folder)),
        extension_(std::move(extension)) {}

  std::optional<ObjectFailure> Add(std::string_view line) {
    if (open_ && files_.back().item_count == kItemsPerDataFile) {
      if (auto failed = Close()) return failed;
    }
    if (!open_) {
      if (auto failed = Open()) return failed;
    }
    ++files_.back().item_count;
    return open_->Add(line);
  }
  // Ends the last file (an export with no lines still has one, empty, as DynamoDB's have).
  std::optional<ObjectFailure> Finish() {
    if (!open_ && files_.empty()) {
      if (auto failed = Open()) return failed;
    }
    return open_ ? Close() : std::nullopt;
  }
  // A line per data file: itemCount, md5Checksum, etag, dataFileS3Key.
  std::string Manifest() const {
    std::string manifest;
    for (const DataFile& file : files_) {
      manifest += "{\"itemCount\":" + std::to_string(file.item_count) +
                  ",\"md5Checksum\":" + Quoted(file.md5.base64) +
                  ",\"etag\":" + Quoted(file.md5.etag) + ",\"dataFileS3Key\":" + Quoted(file.key) +
                  "}\n";
    }
    return manifest;
  }

 private:
  std::optional<ObjectFailure> Open() {
    files_.push_back({folder_ + DataFileName() + extension_, 0, {}});
    ObjectFailure created;
    std::unique_ptr<ObjectWriter> writer = store_.Create(bucket_, files_.back().key, created);
    if (!writer) return created;
    open_ = std::make_unique<GzipObject>(std::move(writer));
    return std::nullopt;
  }
  std::optional<ObjectFailure> Close() {
    auto failed = open_->Finish();
    files_.back().md5 = open_->md5();
    open_.reset();
    return failed;
  }

  ObjectStore& store_;
  const std::string& bucket_;
  const std::string folder_;
  const std::string extension_;
  std::vector<DataFile> files_;
  std::unique_ptr<GzipObject> open_;
};

// The summary's fields both kinds share, up to and including tableId.
std::string SummaryHead(const char* version, const ExportDescription& description, int64_t end_ms) {
  return std::string("{\"version\":\"") + version +
         "\",\"exportArn\":" + Quoted(description.export_arn) +
         ",\"startTime\":" + Quoted(IsoMillis(description.start_ms)) +
         ",\"endTime\":" + Quoted(IsoMillis(end_ms)) +
         ",\"tableArn\":" + Quoted(description.table_arn) +
         ",\"tableId\":" + Quoted(description.table_id);
}

// The fields from s3Bucket to outputFormat.
std::string SummaryBody(const ExportDescription& description, const std::string& folder,
                        const ExportWritten& written) {
  return ",\"s3Bucket\":" + Quoted(description.s3_bucket) +
         ",\"s3Prefix\":" + QuotedOrNull(description.s3_prefix) +
         ",\"s3SseAlgorithm\":" + QuotedOrNull(description.s3_sse_algorithm) +
         ",\"s3SseKmsKeyId\":" + QuotedOrNull(description.s3_sse_kms_key_id) +
         ",\"manifestFilesS3Key\":" + Quoted(folder + "manifest-files.json") +
         ",\"billedSizeBytes\":" + std::to_string(written.billed_size_bytes) +
         ",\"itemCount\":" + std::to_string(written.item_count) + ",\"outputFormat\":" +
         Quoted(description.export_format == ExportFormat::kIon ? "ION" : "DYNAMODB_JSON");
}

std::string Extension(const ExportDescription& description) {
  return description.export_format == ExportFormat::kIon ? ".ion.gz" : ".json.gz";
}

// The export's prefix as its keys start: "" or "<prefix>/".
std::string PrefixFolder(const ExportDescription& description) {
  if (!description.s3_prefix || description.s3_prefix->empty()) return "";
  return description.s3_prefix->ends_with('/') ? *description.s3_prefix
                                               : *description.s3_prefix + "/";
}

}  // namespace

std::string ExportFolder(const ExportDescription& description) {
  const size_t at = description.export_arn.rfind('/');
  return PrefixFolder(description) + "AWSDynamoDB/" + description.export_arn.substr(at + 1) + "/";
}

std::optional<ObjectFailure> WriteFullExport(ObjectStore& store, const ItemLines& lines,
                                             const ExportDescription& description,
                                             const TableItems& items,
                                             const PointInTimeHistory& history,
                                             const std::function<int64_t()>& end_ms,
                                             const std::atomic<bool>& stopping,
                                             ExportWritten& written) {
  const std::string& bucket = description.s3_bucket;
  const std::string folder = ExportFolder(description);
  if (auto failed = PutObject(store, bucket, folder + "_started", "")) return failed;
  DataFiles files(store, bucket, folder + "data/", Extension(description));
  std::optional<ObjectFailure> failure;
  std::string line;
  std::string walk_failure;
  const bool walked = WalkTableAtMoment(
      items, history, description.export_time_ms,
      [&](std::string_view blob, uint32_t size) {
        if (stopping.load(std::memory_order_relaxed)) return false;
        line.clear();
        lines.AppendItem(description.export_format, blob, line);
        failure = files.Add(line);
        if (failure) return false;
        ++written.item_count;
        written.billed_size_bytes += size;
        return true;
      },
      walk_failure);
  if (failure) return failure;
  if (!walked) {
    return ObjectFailure{stopping.load() ? "ExportStopped" : "PointInTimeHistoryUnavailable",
                         stopping.load() ? "ddbd stopped while the export ran" : walk_failure};
  }
  if (auto failed = files.Finish()) return failed;
  if (auto failed = PutManifest(store, bucket, folder, "manifest-files", files.Manifest())) {
    return failed;
  }
  written.manifest_key = folder + "manifest-summary.json";
  written.end_ms = end_ms();
  const std::string summary = SummaryHead("2020-06-30", description, written.end_ms) +
                              ",\"exportTime\":" + Quoted(IsoMillis(description.export_time_ms)) +
                              SummaryBody(description, folder, written) + "}";
  return PutManifest(store, bucket, folder, "manifest-summary", summary);
}

std::optional<ObjectFailure> WriteIncrementalExport(
    ObjectStore& store, const ItemLines& lines, const ExportDescription& description,
    const std::vector<std::string>& key_names, const TableItems& items,
    const PointInTimeHistory& history, const std::function<int64_t()>& end_ms,
    const std::atomic<bool>& stopping, ExportWritten& written) {
  const std::string& bucket = description.s3_bucket;
  const std::string folder = ExportFolder(description);
  if (auto failed = PutObject(store, bucket, folder + "_started", "")) return failed;
  const IncrementalExportSpecification& window = *description.incremental;
  std::string failure_text;
  std::vector<WindowChange> changes;
  if (!ChangesInWindow(items, history, *window.export_from_ms, *window.export_to_ms, changes,
                       failure_text)) {
    return ObjectFailure{"PointInTimeHistoryUnavailable", failure_text};
  }
  const bool old_images = window.export_view_type.value_or(ExportViewType::kNewAndOldImages) ==
                          ExportViewType::kNewAndOldImages;
  std::vector<std::string_view> names(key_names.begin(), key_names.end());
  // Incremental exports share one data folder under the prefix, as DynamoDB's do.
  DataFiles files(store, bucket, PrefixFolder(description) + "AWSDynamoDB/data/",
                  Extension(description));
  std::string line;
  int64_t processed_bytes = 0;
  for (const WindowChange& change : changes) {
    if (stopping.load(std::memory_order_relaxed)) {
      return ObjectFailure{"ExportStopped", "ddbd stopped while the export ran"};
    }
    const StoredItem& any = change.new_image ? *change.new_image : *change.old_image;
    const std::string keys = ProjectAttributes(any.blob, names);
    ItemChange item;
    item.write_micros = change.write_ms * 1000;
    item.keys = keys;
    if (change.new_image) {
      item.new_image = change.new_image->blob;
      processed_bytes += change.new_image->size_bytes;
    }
    if (change.old_image) {
      if (old_images) item.old_image = change.old_image->blob;
      processed_bytes += change.old_image->size_bytes;
    }
    line.clear();
    lines.AppendChange(description.export_format, item, line);
    if (auto failed = files.Add(line)) return failed;
    ++written.item_count;
  }
  // DynamoDB bills an incremental export the change data it processed, 10 MB at least.
  written.billed_size_bytes = std::max<int64_t>(processed_bytes, kIncrementalMinimumBytes);
  if (auto failed = files.Finish()) return failed;
  if (auto failed = PutManifest(store, bucket, folder, "manifest-files", files.Manifest())) {
    return failed;
  }
  written.manifest_key = folder + "manifest-summary.json";
  written.end_ms = end_ms();
  const std::string summary = SummaryHead("2023-08-01", description, written.end_ms) +
                              ",\"exportFromTime\":" + Quoted(IsoMillis(*window.export_from_ms)) +
                              ",\"exportToTime\":" + Quoted(IsoMillis(*window.export_to_ms)) +
                              SummaryBody(description, folder, written) + ",\"outputView\":" +
                              Quoted(old_images ? "NEW_AND_OLD_IMAGES" : "NEW_IMAGE") +
                              ",\"exportType\":\"INCREMENTAL_EXPORT\"}";
  return PutManifest(store, bucket, folder, "manifest-summary", summary);
}

}  // namespace ddbd
