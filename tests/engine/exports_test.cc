// Exports' and imports' parts: the walk of a table as of a moment while writers run
// (engine/exports/ table_at_moment.h), compared with the table as it was; a history that no longer
// reaches the moment; an export a restart cut short, failed when its record is loaded; an import's
// lines, its CSV and its record.
#include <zstd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "engine/catalog/catalog.h"
#include "engine/exports/csv_items.h"
#include "engine/exports/export_jobs.h"
#include "engine/exports/export_record.h"
#include "engine/exports/import_lines.h"
#include "engine/exports/import_record.h"
#include "engine/exports/job_ids.h"
#include "engine/exports/table_at_moment.h"
#include "engine/persistence/file_system.h"
#include "engine/storage/point_in_time_history.h"
#include "tests/engine/engine_calls.h"

namespace ddbd {
namespace {

std::string KeyOf(int i) {
  // Two bytes of "partition" first: partitioned tables find a key's partition by them.
  return std::string(1, static_cast<char>('a' + i % 7)) + "-" + std::to_string(i);
}

void RunWalkWhileWriting(bool partitioned, size_t slice, uint32_t seed) {
  ManualClock clock;
  TableItems items;
  if (partitioned) items.UsePartitions([](std::string_view) { return size_t{2}; });
  auto history = std::make_shared<PointInTimeHistory>(clock, clock.NowMs(), int64_t{1} << 40,
                                                      int64_t{1} << 40);
  items.Observe(history, {});
  std::mt19937 random(seed);
  std::map<std::string, std::string> at_moment;
  for (int i = 0; i < 400; ++i) {
    if (random() % 4 == 0) continue;
    const std::string key = KeyOf(i);
    const std::string blob = "old " + key;
    REQUIRE(testing::PutInto(items, key, {blob, 1}).ok());
    at_moment[key] = blob;
  }
  const int64_t moment = clock.NowMs();
  clock.AdvanceMs(5);
  std::atomic<bool> done = false;
  std::thread writer([&] {
    std::mt19937 own(seed + 1);
    for (int n = 0; !done.load(); ++n) {
      const std::string key = KeyOf(static_cast<int>(own() % 500));
      if (own() % 3 == 0) {
        testing::EraseFrom(items, key);
      } else {
        (void)testing::PutInto(items, key, {"new " + key + " " + std::to_string(n), 1});
      }
      if (n % 16 == 0) std::this_thread::yield();
    }
  });
  std::map<std::string, std::string> walked;
  std::string failure;
  const bool ok = WalkTableAtMoment(
      items, *history, moment,
      [&](std::string_view blob, uint32_t) {
        const std::string key(blob.substr(blob.find(' ') + 1));
        CHECK(walked.emplace(key, std::string(blob)).second);  // each item once
        return true;
      },
      failure, slice);
  done = true;
  writer.join();
  REQUIRE(ok);
  CHECK(walked == at_moment);
}

TEST_CASE("An export's walk is the table as of its moment while writers run") {
  for (uint32_t seed = 1; seed <= 6; ++seed) {
    RunWalkWhileWriting(false, 1 + seed % 4, seed);
    RunWalkWhileWriting(true, 1 + seed % 4, seed);
  }
}

TEST_CASE("An export's walk fails when the history no longer reaches its moment") {
  ManualClock clock;
  TableItems items;
  auto history = std::make_shared<PointInTimeHistory>(clock, clock.NowMs(), 200, int64_t{1} << 40);
  items.Observe(history, {});
  REQUIRE(testing::PutInto(items, "a", {"old a", 1}).ok());
  const int64_t moment = clock.NowMs();
  clock.AdvanceMs(1);
  for (int i = 0; i < 10; ++i) {  // past 200 bytes: the oldest changes go
    REQUIRE(testing::PutInto(items, "a", {"new a " + std::to_string(i), 1}).ok());
  }
  std::string failure;
  CHECK_FALSE(WalkTableAtMoment(
      items, *history, moment, [](std::string_view, uint32_t) { return true; }, failure));
  CHECK(failure == "the point-in-time history no longer reaches back to the export time");
}

TEST_CASE("An incremental export's changes: one per item, as at the window's start and end") {
  ManualClock clock;
  TableItems items;
  auto history = std::make_shared<PointInTimeHistory>(clock, clock.NowMs(), int64_t{1} << 40,
                                                      int64_t{1} << 40);
  items.Observe(history, {});
  auto put = [&](const std::string& key, const std::string& blob) {
    REQUIRE(testing::PutInto(items, key, {blob, 1}).ok());
    clock.AdvanceMs(10);
  };
  put("kept", "kept v1");        // before the window, never changed again
  put("updated", "updated v1");  // changed twice in the window
  put("deleted", "deleted v1");  // deleted in the window
  put("late", "late v1");        // changed only after the window
  const int64_t from = clock.NowMs();
  put("updated", "updated v2");
  put("made", "made v1");          // made in the window
  put("fleeting", "fleeting v1");  // made and deleted in the window: none
  testing::EraseFrom(items, "fleeting");
  clock.AdvanceMs(10);
  testing::EraseFrom(items, "deleted");
  clock.AdvanceMs(10);
  put("updated", "updated v3");
  const int64_t last_update = clock.NowMs() - 10;
  const int64_t to = clock.NowMs();
  put("updated", "updated v4");  // after the window: the export shows v3
  put("made", "made v2");
  put("late", "late v2");
  testing::EraseFrom(items, "made");

  std::vector<WindowChange> changes;
  std::string failure;
  REQUIRE(ChangesInWindow(items, *history, from, to, changes, failure));
  auto blob = [](const std::optional<StoredItem>& item) {
    return item ? item->blob : std::string("(none)");
  };
  std::vector<std::string> seen;
  for (const WindowChange& change : changes) {
    seen.push_back(change.key + ": " + blob(change.old_image) + " -> " + blob(change.new_image));
  }
  CHECK(seen == std::vector<std::string>{"deleted: deleted v1 -> (none)", "made: (none) -> made v1",
                                         "updated: updated v1 -> updated v3"});
  CHECK(changes.back().write_ms == last_update);

  // From a moment the history does not reach back to: refused.
  CHECK_FALSE(ChangesInWindow(items, *history, from - 1'000'000, to, changes, failure));
  CHECK(failure.find("no longer reaches back") != std::string::npos);
}

TEST_CASE("An export a restart cut short is FAILED once its record is loaded") {
  MemoryFileSystem files;
  EngineOptions options;
  options.db_path = "/db";
  ManualClock clock;
  Catalog catalog(options, clock);
  ExportDescription running;
  running.export_arn =
      "arn:aws:dynamodb:us-east-1:000000000000:table/T/export/01700000000000-0badcafe";
  running.export_status = ExportStatus::kInProgress;
  running.table_arn = "arn:aws:dynamodb:us-east-1:000000000000:table/T";
  running.s3_bucket = "b";
  running.s3_prefix = "p";
  running.client_token = "token";
  const std::string encoded = EncodeExportFile(running);
  auto decoded = DecodeExportFile("x.export", encoded);
  REQUIRE(decoded.ok());
  CHECK(decoded.value().s3_prefix == std::optional<std::string>("p"));
  CHECK(decoded.value().client_token == "token");
  REQUIRE(files.CreateDirectory("/db").ok());
  REQUIRE(files.CreateDirectory("/db/exports").ok());
  auto file = files.OpenAppendable("/db/exports/" + ExportFileName(running.export_arn));
  REQUIRE(file.ok());
  REQUIRE(file.value()->Append(encoded).ok());
  REQUIRE(file.value()->Sync().ok());
  // A damaged record is refused, never half-read.
  CHECK_FALSE(DecodeExportFile("x.export", encoded.substr(0, encoded.size() - 1)).ok());

  std::unique_ptr<ObjectStore> buckets = NewAbsentObjectStore();
  Exports exports(catalog, *buckets);
  REQUIRE(exports.Load(files).ok());
  auto described = exports.Describe(running.export_arn);
  REQUIRE(described.ok());
  CHECK(described.value().export_status == ExportStatus::kFailed);
  CHECK(described.value().failure_code == "ExportInterrupted");
  // And it stays so: the failure was written back.
  Exports again(catalog, *buckets);
  REQUIRE(again.Load(files).ok());
  CHECK(again.Describe(running.export_arn).value().failure_code == "ExportInterrupted");
}

}  // namespace
}  // namespace ddbd

namespace ddbd {
namespace {

std::vector<std::string> Lines(std::string_view bytes, InputCompressionType compression,
                               bool* ok = nullptr) {
  std::vector<std::string> lines;
  std::string failure;
  const bool read = ForEachLine(
      bytes, compression,
      [&](std::string_view line) {
        lines.emplace_back(line);
        return true;
      },
      failure);
  if (ok != nullptr) *ok = read;
  return lines;
}

TEST_CASE("An import's lines: newlines, CRLF, a last line without one, blank lines") {
  CHECK(Lines("a\r\nb\n\nc", InputCompressionType::kNone) ==
        std::vector<std::string>{"a", "b", "c"});
  bool ok = true;
  CHECK(Lines("\x1f\x8b not gzip", InputCompressionType::kGzip, &ok).empty());
  CHECK_FALSE(ok);
}

TEST_CASE("An import's ZSTD lines: frames one after another, a line across them, big ones") {
  auto frame = [](const std::string& text, int level) {
    std::string out(ZSTD_compressBound(text.size()), '\0');
    out.resize(ZSTD_compress(out.data(), out.size(), text.data(), text.size(), level));
    return out;
  };
  CHECK(Lines(frame("a\nb", 1) + frame("c\nd\n", 19), InputCompressionType::kZstd) ==
        std::vector<std::string>{"a", "bc", "d"});
  // More than the 1 MB block decompressed at a time, from a few bytes.
  const std::string long_line(3 << 20, 'x');
  const std::vector<std::string> lines =
      Lines(frame(long_line + "\nend", 3), InputCompressionType::kZstd);
  REQUIRE(lines.size() == 2);
  CHECK((lines[0] == long_line && lines[1] == "end"));
  bool ok = true;
  const std::string whole = frame("cut\nshort\n", 1);
  Lines(whole.substr(0, whole.size() - 4), InputCompressionType::kZstd, &ok);
  CHECK_FALSE(ok);
  ok = true;
  CHECK(Lines("not zstd at all", InputCompressionType::kZstd, &ok).empty());
  CHECK_FALSE(ok);
}

TEST_CASE("CSV: quotes, the delimiter, a header line or list, keys typed by their definitions") {
  CreateTableArgs table;
  table.attribute_definitions = {{"pk", ScalarAttributeType::kN}, {"sk", ScalarAttributeType::kB}};
  table.key_schema = {{"pk", KeyType::kHash}, {"sk", KeyType::kRange}};
  CsvItems items(CsvOptions{";", std::nullopt}, table);
  bool header = false;
  CHECK_FALSE(items.Read("pk;sk;note", header).has_value());
  CHECK(header);
  auto item = items.Read("007;eHk=;\"a;\"\"b\"\"\"", header);
  REQUIRE(item.has_value());
  CHECK_FALSE(header);
  CHECK(item->size() == 3);
  CHECK((*item)[0].second == AttributeValue::Number("7"));
  CHECK((*item)[1].second == AttributeValue::Binary("xy"));
  CHECK((*item)[2].second == AttributeValue::String("a;\"b\""));
  CHECK_FALSE(items.Read("x;eHk=;n", header).has_value());        // N key not a number
  CHECK_FALSE(items.Read("1;e;n", header).has_value());           // B key not base64
  CHECK_FALSE(items.Read("1;eHk=;n;extra", header).has_value());  // a field too many
  CHECK_FALSE(items.Read("1;\"open", header).has_value());        // a quote never closed
  auto sparse = items.Read("1;;", header);
  REQUIRE(sparse.has_value());
  CHECK(sparse->size() == 1);  // empty fields are no attributes
  // A HeaderList: no header line in any file.
  CsvItems listed(CsvOptions{std::nullopt, std::vector<std::string>{"pk", "v"}}, table);
  auto first = listed.Read("1,x", header);
  REQUIRE(first.has_value());
  CHECK_FALSE(header);
  listed.StartFile();
  CHECK(listed.Read("2,y", header).has_value());
}

TEST_CASE("An import's record reads back whole, its table's description with it") {
  ImportTableDescription d;
  d.import_arn = "arn:aws:dynamodb:us-east-1:000000000000:table/T/import/01700000000000-0badcafe";
  d.import_status = ImportStatus::kCompleted;
  d.s3_bucket = "b";
  d.s3_key_prefix = "p/";
  d.input_format = InputFormat::kCsv;
  d.csv = CsvOptions{";", std::vector<std::string>{"pk", "v"}};
  d.input_compression_type = InputCompressionType::kGzip;
  d.table.table_name = "T";
  d.table.key_schema = {{"pk", KeyType::kHash}};
  d.error_count = 3;
  d.imported_item_count = 7;
  auto back = DecodeImportFile("x.import", EncodeImportFile(d));
  REQUIRE(back.ok());
  CHECK(back.value().csv->header_list ==
        std::optional<std::vector<std::string>>(std::vector<std::string>{"pk", "v"}));
  CHECK(back.value().csv->delimiter == std::optional<std::string>(";"));
  CHECK(back.value().table.table_name == "T");
  CHECK(back.value().error_count == 3);
  CHECK(back.value().imported_item_count == 7);
  CHECK(back.value().input_compression_type == InputCompressionType::kGzip);
  CHECK(ImportFileName(d.import_arn) == "01700000000000-0badcafe.import");
}

}  // namespace
}  // namespace ddbd

namespace ddbd {
namespace {

TEST_CASE("Job ids made within one millisecond still sort in the order they were made") {
  const std::string first = NewJobId(1'000'000);
  const std::string second = NewJobId(1'000'000);
  const std::string third = NewJobId(999'999);  // a clock that stepped back
  CHECK(first < second);
  CHECK(second < third);
  CHECK(second.size() == 23);  // 14 digits of ms, '-', 8 hex digits
}

}  // namespace
}  // namespace ddbd
