#include "engine/exports/export_files.h"

#include <memory>
#include <random>
#include <vector>

#include "engine/catalog/identifiers.h"
#include "engine/exports/gzip_object.h"
#include "engine/exports/table_at_moment.h"

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

}  // namespace

std::string ExportFolder(const ExportDescription& description) {
  std::string folder;
  if (description.s3_prefix && !description.s3_prefix->empty()) {
    folder = *description.s3_prefix;
    if (!folder.ends_with('/')) folder += '/';
  }
  const size_t at = description.export_arn.rfind('/');
  return folder + "AWSDynamoDB/" + description.export_arn.substr(at + 1) + "/";
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
  const bool ion = description.export_format == ExportFormat::kIon;
  const std::string extension = ion ? ".ion.gz" : ".json.gz";

  std::vector<DataFile> files;
  std::unique_ptr<GzipObject> open;
  std::optional<ObjectFailure> failure;
  auto open_file = [&]() -> bool {
    files.push_back({folder + "data/" + DataFileName() + extension, 0, {}});
    ObjectFailure created;
    std::unique_ptr<ObjectWriter> writer = store.Create(bucket, files.back().key, created);
    if (!writer) {
      failure = created;
      return false;
    }
    open = std::make_unique<GzipObject>(std::move(writer));
    return true;
  };
  auto close_file = [&]() -> bool {
    if (auto failed = open->Finish()) {
      failure = failed;
      return false;
    }
    files.back().md5 = open->md5();
    open.reset();
    return true;
  };
  if (!open_file()) return failure;
  std::string line;
  std::string walk_failure;
  const bool walked = WalkTableAtMoment(
      items, history, description.export_time_ms,
      [&](std::string_view blob, uint32_t size) {
        if (stopping.load(std::memory_order_relaxed)) return false;
        if (files.back().item_count == kItemsPerDataFile && (!close_file() || !open_file())) {
          return false;
        }
        line.clear();
        lines.AppendItem(description.export_format, blob, line);
        if (auto failed = open->Add(line)) {
          failure = failed;
          return false;
        }
        ++files.back().item_count;
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
  if (!close_file()) return failure;

  std::string files_manifest;
  for (const DataFile& file : files) {
    files_manifest += "{\"itemCount\":" + std::to_string(file.item_count) +
                      ",\"md5Checksum\":" + Quoted(file.md5.base64) +
                      ",\"etag\":" + Quoted(file.md5.etag) +
                      ",\"dataFileS3Key\":" + Quoted(file.key) + "}\n";
  }
  if (auto failed = PutManifest(store, bucket, folder, "manifest-files", files_manifest)) {
    return failed;
  }
  written.manifest_key = folder + "manifest-summary.json";
  written.end_ms = end_ms();
  const std::string summary =
      "{\"version\":\"2020-06-30\",\"exportArn\":" + Quoted(description.export_arn) +
      ",\"startTime\":" + Quoted(IsoMillis(description.start_ms)) +
      ",\"endTime\":" + Quoted(IsoMillis(written.end_ms)) +
      ",\"tableArn\":" + Quoted(description.table_arn) +
      ",\"tableId\":" + Quoted(description.table_id) +
      ",\"exportTime\":" + Quoted(IsoMillis(description.export_time_ms)) +
      ",\"s3Bucket\":" + Quoted(bucket) + ",\"s3Prefix\":" + QuotedOrNull(description.s3_prefix) +
      ",\"s3SseAlgorithm\":" + QuotedOrNull(description.s3_sse_algorithm) +
      ",\"s3SseKmsKeyId\":" + QuotedOrNull(description.s3_sse_kms_key_id) +
      ",\"manifestFilesS3Key\":" + Quoted(folder + "manifest-files.json") +
      ",\"billedSizeBytes\":" + std::to_string(written.billed_size_bytes) +
      ",\"itemCount\":" + std::to_string(written.item_count) +
      ",\"outputFormat\":" + Quoted(ion ? "ION" : "DYNAMODB_JSON") + "}";
  return PutManifest(store, bucket, folder, "manifest-summary", summary);
}

}  // namespace ddbd
