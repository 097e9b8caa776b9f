// Checkpoints' item images (engine/persistence/item_images.h): the codec keeps every image aligned
// where the file holds it and refuses malformed ones; a replay points records at the mapped
// checkpoint (engine/storage/mapped_records.h), which goes with the last of them; a file system
// without mappings gets copies.
#include "engine/persistence/item_images.h"

#include <catch2/catch.hpp>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "engine/model/item_codec.h"
#include "engine/persistence/fields.h"
#include "engine/persistence/file_system.h"
#include "engine/persistence/journal_records.h"
#include "engine/persistence/log_format.h"
#include "engine/persistence/log_writer.h"
#include "engine/storage/item_records.h"
#include "engine/storage/mapped_records.h"
#include "tests/engine/engine_calls.h"
#include "tests/values.h"

namespace ddbd {
namespace {

struct Image {
  std::string key;
  std::string blob;
  uint32_t size;
};

std::vector<Image> Images(int count) {
  std::vector<Image> images;
  for (int i = 0; i < count; ++i) {
    images.push_back({std::string(static_cast<size_t>(8 + i % 5), static_cast<char>('a' + i % 26)),
                      std::string(static_cast<size_t>(i * 7 % 23), 'b'),
                      static_cast<uint32_t>(i * 3)});
  }
  return images;
}

TEST_CASE("Item images come back as written, each aligned where the file holds it") {
  const std::vector<Image> written = Images(40);
  for (size_t prefix = 0; prefix < 8; ++prefix) {
    for (const std::string table_id : {"", "t", "table-id-of-36-characters-0123456789"}) {
      ItemImagesWriter writer(table_id);
      for (const Image& image : written) writer.Add(image.key, image.blob, image.size);
      // The file holds `prefix` bytes before out, and out already has a record.
      std::string out;
      AppendLogRecord(out, 7, "x");
      const size_t before = out.size();
      writer.AppendTo(out, prefix);
      CHECK(writer.bytes() == 0);
      const std::string_view record = std::string_view(out).substr(before);
      REQUIRE(static_cast<uint8_t>(record[12]) == static_cast<uint8_t>(JournalKind::kItemImages));
      uint32_t length;
      std::memcpy(&length, record.data(), sizeof(length));
      const std::string_view payload = record.substr(kLogRecordHeaderBytes, length);
      auto images = DecodeItemImages(payload);
      REQUIRE(images.ok());
      CHECK(images.value().table_id == table_id);
      ItemImageReader reader(images.value().images);
      size_t i = 0;
      for (; reader.Next(); ++i) {
        REQUIRE(i < written.size());
        const size_t file_offset = prefix + static_cast<size_t>(reader.image() - out.data());
        CHECK(file_offset % alignof(ItemRecord) == 0);
        CHECK(reader.key() == written[i].key);
        CHECK(reader.blob() == written[i].blob);
        CHECK(reader.item_size() == written[i].size);
        // The image is the record as in memory.
        ItemRecord header(0, 0, 0);
        std::memcpy(&header, reader.image(), sizeof(header));
        CHECK(header.key_size() == written[i].key.size());
        CHECK(header.blob_size() == written[i].blob.size());
        CHECK(header.item_size() == written[i].size);
      }
      CHECK(reader.ok());
      CHECK(i == written.size());
    }
  }
  // Nothing added: no record.
  ItemImagesWriter empty("t");
  std::string out;
  empty.AppendTo(out, 0);
  CHECK(out.empty());
}

TEST_CASE("Malformed item images are refused, never read past their end") {
  ItemImagesWriter writer("table");
  for (const Image& image : Images(6)) writer.Add(image.key, image.blob, image.size);
  std::string out;
  writer.AppendTo(out, 0);
  const std::string payload = out.substr(kLogRecordHeaderBytes);
  // Every cut: refused, or fewer whole images (a cut between two), never a byte past the cut.
  for (size_t cut = 0; cut < payload.size(); ++cut) {
    // Its own allocation of exactly `cut` bytes (a string's would end in a zero), for ASan.
    const auto copy = std::make_unique<char[]>(cut);
    std::memcpy(copy.get(), payload.data(), cut);
    auto images = DecodeItemImages(std::string_view(copy.get(), cut));
    if (!images.ok()) continue;
    ItemImageReader reader(images.value().images);
    size_t count = 0;
    while (reader.Next()) ++count;
    CHECK(count < 6);
  }
  // Sizes that run past the end, and the whole-item marker, in the first image's header.
  auto images = DecodeItemImages(payload);
  REQUIRE(images.ok());
  const size_t first = static_cast<size_t>(images.value().images.data() - payload.data());
  for (const ItemRecord bad :
       {ItemRecord(8, uint32_t{1} << 20, 0), ItemRecord(8, 4096, 0),
        ItemRecord(ItemRecord::kMaxKeySize, 0, 0), ItemRecord(8, ItemRecord::kWholeItem, 0)}) {
    std::string damaged = payload;
    std::memcpy(damaged.data() + first, &bad, sizeof(bad));
    auto decoded = DecodeItemImages(damaged);
    REQUIRE(decoded.ok());
    ItemImageReader reader(decoded.value().images);
    CHECK_FALSE(reader.Next());
    CHECK_FALSE(reader.ok());
  }
  // A padding of 4 or more, and a table id longer than the payload.
  std::string padded = payload;
  padded[4 + 5] = 4;
  CHECK_FALSE(DecodeItemImages(padded).ok());
  std::string long_id = payload;
  const uint32_t too_long = static_cast<uint32_t>(payload.size());
  std::memcpy(long_id.data(), &too_long, 4);
  CHECK_FALSE(DecodeItemImages(long_id).ok());
}

TEST_CASE("Records' headers keep every size up to their limits") {
  for (const uint32_t key : {0u, 1u, 4095u, 4096u, 65535u, ItemRecord::kMaxKeySize}) {
    for (const uint32_t blob :
         {0u, 1u, 4095u, 4096u, 409600u, ItemRecord::kMaxBlobSize, ItemRecord::kWholeItem}) {
      for (const uint32_t item : {0u, 1u, 409600u, ItemRecord::kMaxItemSize}) {
        const ItemRecord header(key, blob, item);
        CHECK(header.key_size() == key);
        CHECK(header.blob_size() == blob);
        CHECK(header.item_size() == item);
        CHECK(header.whole_item() == (blob == ItemRecord::kWholeItem));
      }
    }
  }
  // Past them: refused, not wrapped.
  const std::string key(ItemRecord::kMaxKeySize + 1, 'k');
  CHECK_THROWS_AS(ItemRecord::Create(key, "", 0), std::length_error);
  CHECK_THROWS_AS(ItemRecord::Create("k", "", ItemRecord::kMaxItemSize + 1), std::length_error);
  ItemRecord* record = ItemRecord::Create("key", "blob", 400);
  CHECK(record->key() == "key");
  CHECK(record->blob() == "blob");
  CHECK(record->item_size() == 400);
  ItemRecord* entry = ItemRecord::CreateWholeItemEntry("entry-key", record);
  CHECK(entry->whole_item());
  CHECK(entry->key() == "entry-key");
  CHECK(entry->blob() == "blob");
  CHECK(entry->item_size() == 400);
  ItemRecord::Destroy(entry);
  ItemRecord::Destroy(record);
}

// A kItemImagesWide payload: images with the former 12-byte header.
std::string WideImages(const std::vector<Image>& images) {
  std::string out = std::string("\x01\0\0\0t", 5) + std::string(1, '\x02') + std::string(2, '\0');
  for (const Image& image : images) {
    for (const uint32_t size : {static_cast<uint32_t>(image.key.size()),
                                static_cast<uint32_t>(image.blob.size()), image.size}) {
      out.append(reinterpret_cast<const char*>(&size), 4);
    }
    out += image.key + image.blob;
    out.append((4 - out.size() % 4) % 4, '\0');
  }
  return out;
}

TEST_CASE("Wide item images, as checkpoints held them before, are read the same") {
  const std::vector<Image> written = Images(40);
  const std::string payload = WideImages(written);
  auto images = DecodeItemImages(payload);
  REQUIRE(images.ok());
  CHECK(images.value().table_id == "t");
  ItemImageReader reader(images.value().images, /*wide=*/true);
  size_t i = 0;
  for (; reader.Next(); ++i) {
    REQUIRE(i < written.size());
    CHECK(reader.key() == written[i].key);
    CHECK(reader.blob() == written[i].blob);
    CHECK(reader.item_size() == written[i].size);
  }
  CHECK(reader.ok());
  CHECK(i == written.size());
  // Sizes no record can hold are refused (a blob of 4 MiB fits no header now).
  for (const size_t field : {size_t{0}, size_t{1}, size_t{2}}) {
    std::string damaged = payload;
    const uint32_t huge = uint32_t{1} << 23;
    std::memcpy(damaged.data() + 8 + 4 * field, &huge, 4);
    auto decoded = DecodeItemImages(damaged);
    REQUIRE(decoded.ok());
    ItemImageReader bad(decoded.value().images, /*wide=*/true);
    CHECK_FALSE(bad.Next());
    CHECK_FALSE(bad.ok());
  }
}

EngineOptions ItemImagesOptions(FileSystem* files) {
  EngineOptions options;
  options.db_path = "db";
  options.file_system = files;
  return options;
}

std::unique_ptr<Engine> ItemImagesOpen(FileSystem* files, const Clock& clock) {
  auto engine = Engine::Open(ItemImagesOptions(files), clock);
  INFO((engine.ok() ? std::string() : engine.error().message()));
  REQUIRE(engine.ok());
  return std::move(engine.value());
}

CreateTableArgs Tagged() {
  CreateTableArgs args;
  args.table_name = "Tagged";
  args.attribute_definitions = {{"pk", ScalarAttributeType::kS}, {"tag", ScalarAttributeType::kN}};
  args.key_schema = {{"pk", KeyType::kHash}};
  args.billing_mode = BillingMode::kPayPerRequest;
  args.global_secondary_indexes = {
      {"by-tag", {{"tag", KeyType::kHash}}, {}, std::nullopt, std::nullopt}};
  return args;
}

void PutAll(Engine& engine, int count, int tag) {
  for (int i = 0; i < count; ++i) {
    REQUIRE(testing::Put(engine, "Tagged",
                         {{"pk", S("p" + std::to_string(i))},
                          {"tag", N(std::to_string(tag))},
                          {"pad", S(std::string(static_cast<size_t>(i % 50), 'x'))}})
                .ok());
  }
}

int64_t ItemImagesTag(Engine& engine, int i) {
  auto got = testing::Get(engine, "Tagged", {{"pk", S("p" + std::to_string(i))}});
  REQUIRE(got.ok());
  if (!got.value().item) return -1;
  return std::stoll(FindAttribute(DecodeItem(got.value().item->blob), "tag")->scalar);
}

// Writes `count` items and a checkpoint of them, then a restart.
void Checkpointed(MemoryFileSystem& files, const Clock& clock, int count) {
  auto engine = ItemImagesOpen(&files, clock);
  REQUIRE(engine->CreateTable(Tagged()).ok());
  PutAll(*engine, count, 1);
  REQUIRE(testing::WaitDurable(*engine).ok());
  REQUIRE(engine->Checkpoint(true).value());
}

// A table of `items` items tagged 1, restarted from one mapping (`mapped` others before it):
// half of them written again (their images go), half deleted; the last one lets the file go.
void ReplaceHalfDeleteHalf(Engine& engine, int items, int mapped) {
  CHECK(mapped_records::Mapped() == mapped + 1);
  auto table = engine.DescribeTable("Tagged");
  REQUIRE(table.ok());
  CHECK(table.value().item_count == items);
  CHECK(table.value().indexes[0].item_count == items);
  CHECK(ItemImagesTag(engine, 0) == 1);
  CHECK(ItemImagesTag(engine, items - 1) == 1);
  for (int i = 0; i < items; ++i) {
    const std::string pk = "p" + std::to_string(i);
    if (i % 2 == 0) {
      REQUIRE(testing::Put(engine, "Tagged", {{"pk", S(pk)}, {"tag", N("2")}}).ok());
    } else {
      REQUIRE(testing::Delete(engine, "Tagged", {{"pk", S(pk)}}).ok());
    }
    if (i == items - 2) CHECK(mapped_records::Mapped() == mapped + 1);
  }
  CHECK(mapped_records::Mapped() == mapped);
}

TEST_CASE("A replay points records at the checkpoint, which goes with the last of them") {
  MemoryFileSystem files;
  ManualClock clock;
  constexpr int kItems = 3000;  // several records of images
  Checkpointed(files, clock, kItems);
  const int mapped = mapped_records::Mapped();
  // Room for this test's two (a process adopts at most kMaxRegions).
  REQUIRE(mapped_records::Adopted() + 2 <= mapped_records::kMaxRegions);
  {
    auto engine = ItemImagesOpen(&files, clock);
    ReplaceHalfDeleteHalf(*engine, kItems, mapped);
    CHECK(ItemImagesTag(*engine, 0) == 2);
    CHECK(ItemImagesTag(*engine, 1) == -1);
    // A checkpoint written from records that were images, and one more restart.
    REQUIRE(testing::WaitDurable(*engine).ok());
    REQUIRE(engine->Checkpoint(true).value());
  }
  auto engine = ItemImagesOpen(&files, clock);
  CHECK(engine->DescribeTable("Tagged").value().item_count == kItems / 2);
  CHECK(ItemImagesTag(*engine, 2) == 2);
  CHECK(ItemImagesTag(*engine, 3) == -1);
  CHECK(mapped_records::Mapped() == mapped + 1);
  engine.reset();  // the engine's records go, and with them the mapping
  CHECK(mapped_records::Mapped() == mapped);
}

// The log's records of puts, by kind, and whether each item image lies aligned in its file.
struct LoggedPuts {
  size_t images = 0;
  size_t aligned = 0;
  size_t other_puts = 0;  // kItemPut
  size_t named = 0;       // of the images, kItemPutImage's (the table by id), not numbered
};

void CountLoggedPut(uint8_t kind, std::string_view payload, const std::string& file,
                    LoggedPuts& counted) {
  if (kind == static_cast<uint8_t>(JournalKind::kGroup)) {  // a put with its stream record
    FieldReader members(payload);
    while (members.Next()) {
      CountLoggedPut(static_cast<uint8_t>(members.number()), members.text(), file, counted);
    }
    CHECK(members.ok());
  }
  if (kind == static_cast<uint8_t>(JournalKind::kItemPut)) ++counted.other_puts;
  std::string_view image;
  if (kind == static_cast<uint8_t>(JournalKind::kItemPutNumbered)) {  // what ddbd writes now
    auto put = DecodeItemPutNumbered(payload);
    REQUIRE(put.ok());
    image = put.value().images;
  } else if (kind == static_cast<uint8_t>(JournalKind::kItemPutImage)) {
    ++counted.named;
    auto images = DecodeItemImages(payload);
    REQUIRE(images.ok());
    image = images.value().images;
  } else {
    return;
  }
  ++counted.images;
  ItemImageReader reader(image);
  REQUIRE(reader.Next());
  if (static_cast<size_t>(reader.image() - file.data()) % alignof(ItemRecord) == 0) {
    ++counted.aligned;
  }
  CHECK_FALSE(reader.Next());
  CHECK(reader.ok());
}

LoggedPuts CountLoggedPuts(MemoryFileSystem& files) {
  LoggedPuts counted;
  const std::vector<std::string> names = files.List("db").value();
  for (const std::string& name : names) {
    if (!LogSegmentNumber(name)) continue;
    const std::string bytes = files.ReadFile("db/" + name).value();
    const LogContents contents = ReadLog(name, bytes).value();
    for (const LogRecord& record : contents.records) {
      CountLoggedPut(record.kind, record.payload, bytes, counted);
    }
  }
  return counted;
}

// Writes `count` items, logged only (no checkpoint).
void Logged(MemoryFileSystem& files, const Clock& clock, int count) {
  auto engine = ItemImagesOpen(&files, clock);
  REQUIRE(engine->CreateTable(Tagged()).ok());
  PutAll(*engine, count, 1);
  REQUIRE(testing::WaitDurable(*engine).ok());
}

TEST_CASE("A replay points records at the log's puts, and the segment goes with the last of them") {
  MemoryFileSystem files;
  ManualClock clock;
  constexpr int kItems = 1000;
  Logged(files, clock, kItems);
  // Each put is its item's image, aligned in the segment (no checkpoint was written).
  const LoggedPuts logged = CountLoggedPuts(files);
  CHECK(logged.images == kItems);
  CHECK(logged.named == 0);  // each names its table by its number
  CHECK(logged.aligned == kItems);
  CHECK(logged.other_puts == 0);
  const int mapped = mapped_records::Mapped();
  REQUIRE(mapped_records::Adopted() + 2 <= mapped_records::kMaxRegions);
  {
    auto engine = ItemImagesOpen(&files, clock);
    ReplaceHalfDeleteHalf(*engine, kItems, mapped);
    REQUIRE(testing::WaitDurable(*engine).ok());
  }
  // Both segments replayed: the first's images replaced by the second's, deleted or written
  // again.
  auto engine = ItemImagesOpen(&files, clock);
  CHECK(engine->DescribeTable("Tagged").value().item_count == kItems / 2);
  CHECK(engine->DescribeTable("Tagged").value().indexes[0].item_count == kItems / 2);
  CHECK(ItemImagesTag(*engine, 2) == 2);
  CHECK(ItemImagesTag(*engine, 3) == -1);
  CHECK(mapped_records::Mapped() == mapped + 1);  // the second segment's; the first one went
  engine.reset();
  CHECK(mapped_records::Mapped() == mapped);
}

// The item tagged in `table`, or -1 if there is none.
int64_t TagIn(Engine& engine, std::string_view table, const std::string& pk) {
  auto got = testing::Get(engine, table, {{"pk", S(pk)}});
  REQUIRE(got.ok());
  if (!got.value().item) return -1;
  return std::stoll(FindAttribute(DecodeItem(got.value().item->blob), "tag")->scalar);
}

TEST_CASE("A log's puts load a batch at a time, each as written after the ones before") {
  MemoryFileSystem files;
  ManualClock clock;
  CreateTableArgs other = Tagged();
  other.table_name = "Other";
  // What the replay must end with, by table and key: what the writes below leave.
  std::map<std::pair<std::string, std::string>, int64_t> expected;
  {
    auto engine = ItemImagesOpen(&files, clock);
    REQUIRE(engine->CreateTable(Tagged()).ok());
    REQUIRE(engine->CreateTable(other).ok());
    int64_t tag = 0;
    auto put = [&](const std::string& table, const std::string& pk) {
      ++tag;
      REQUIRE(testing::Put(*engine, table, {{"pk", S(pk)}, {"tag", N(std::to_string(tag))}}).ok());
      expected[{table, pk}] = tag;
    };
    auto remove = [&](const std::string& table, const std::string& pk) {
      REQUIRE(testing::Delete(*engine, table, {{"pk", S(pk)}}).ok());
      expected[{table, pk}] = -1;
    };
    // A run of 300 puts of one table (more than a batch), keys written again in the run: the
    // same batch (5 then 6 puts on), and across a batch's end (10, then 200 puts on).
    for (int i = 0; i < 300; ++i) {
      put("Tagged", "run" + std::to_string(i));
      if (i % 50 == 5) put("Tagged", "run" + std::to_string(i - 5));
      if (i == 210) put("Tagged", "run10");
    }
    // The two tables taking turns, one key each written again and again.
    for (int i = 0; i < 40; ++i) {
      put("Tagged", "turns");
      put("Other", "turns");
      put(i % 2 == 0 ? "Tagged" : "Other", "turn" + std::to_string(i % 3));
    }
    // A delete between two puts of a key, and one after the last put of another.
    put("Tagged", "back");
    remove("Tagged", "back");
    put("Tagged", "back");
    put("Other", "gone");
    remove("Other", "gone");
    REQUIRE(testing::WaitDurable(*engine).ok());
  }
  CHECK(CountLoggedPuts(files).images == 300 + 6 + 1 + 80 + 40 + 3);
  auto engine = ItemImagesOpen(&files, clock);
  size_t items = 0;
  for (const auto& [where, tag] : expected) {
    INFO(where.first << " " << where.second);
    CHECK(TagIn(*engine, where.first, where.second) == tag);
    if (tag >= 0) ++items;
  }
  CHECK(engine->DescribeTable("Tagged").value().item_count +
            engine->DescribeTable("Other").value().item_count ==
        static_cast<int64_t>(items));
}

TEST_CASE("A replay that fails at a put lets the puts waiting for their batch and the log go") {
  MemoryFileSystem files;
  ManualClock clock;
  Logged(files, clock, 100);  // fewer than a batch: all still waiting when the replay fails
  // A put whose image is no image, in a group of its own after the others: the start fails
  // there, with the puts before it not yet loaded (any other kind would load them first).
  const std::vector<std::string> names = files.List("db").value();
  std::string segment;
  for (const std::string& name : names) {
    if (LogSegmentNumber(name)) segment = "db/" + name;
  }
  std::string& bytes = files.Contents(segment);
  bytes.resize(ReadLog(segment, bytes).value().valid_bytes);
  std::string broken;
  AppendLogRecord(broken, static_cast<uint8_t>(JournalKind::kItemPutImage), "no image");
  AppendLogGroup(bytes, broken);
  const int mapped = mapped_records::Mapped();
  const int adopted = mapped_records::Adopted();
  auto engine = Engine::Open(ItemImagesOptions(&files), clock);
  REQUIRE_FALSE(engine.ok());
  CHECK(mapped_records::Adopted() == adopted + 1);  // the puts were records where they lay
  CHECK(mapped_records::Mapped() == mapped);        // and went with the failed start
}

TEST_CASE("A put logged with its stream record (a group's member) is an aligned image too") {
  MemoryFileSystem files;
  ManualClock clock;
  constexpr int kItems = 300;  // items of 20 to 69 bytes: the members' lengths take one byte
  {
    auto engine = ItemImagesOpen(&files, clock);
    CreateTableArgs streamed = Tagged();
    streamed.stream_specification = StreamSpecification{true, StreamViewType::kNewAndOldImages};
    REQUIRE(engine->CreateTable(streamed).ok());
    PutAll(*engine, kItems, 1);
    // And some past 128 bytes, whose members' lengths take two.
    for (int i = 0; i < 100; ++i) {
      REQUIRE(testing::Put(*engine, "Tagged",
                           {{"pk", S("p" + std::to_string(i))},
                            {"tag", N("2")},
                            {"pad", S(std::string(static_cast<size_t>(100 + i), 'y'))}})
                  .ok());
    }
    REQUIRE(testing::WaitDurable(*engine).ok());
  }
  const LoggedPuts logged = CountLoggedPuts(files);
  CHECK(logged.images == kItems + 100);
  CHECK(logged.named == 0);
  CHECK(logged.aligned == logged.images);
  const int mapped = mapped_records::Mapped();
  REQUIRE(mapped_records::Adopted() + 2 <= mapped_records::kMaxRegions);
  auto engine = ItemImagesOpen(&files, clock);
  CHECK(mapped_records::Mapped() == mapped + 1);
  CHECK(engine->DescribeTable("Tagged").value().item_count == kItems);
  CHECK(ItemImagesTag(*engine, 0) == 2);
  CHECK(ItemImagesTag(*engine, kItems - 1) == 1);
  const TableDescription table = engine->DescribeTable("Tagged").value();
  auto records =
      testing::StreamRecords(*engine, table.table_arn + "/stream/" + table.latest_stream_label);
  REQUIRE(records.ok());
  CHECK(records.value().size() == kItems + 100);
}

TEST_CASE("A mapping whose records later ones mostly replaced is copied out at the start") {
  MemoryFileSystem files;
  ManualClock clock;
  constexpr int kItems = 1000;
  Logged(files, clock, kItems);
  const int mapped = mapped_records::Mapped();
  REQUIRE(mapped_records::Adopted() + 6 <= mapped_records::kMaxRegions);
  // The second start writes `replaced` of the first segment's items again (a segment of its
  // own); the third replays both.
  auto restart_replacing = [&](int replaced, int tag) {
    {
      auto engine = ItemImagesOpen(&files, clock);
      for (int i = 0; i < replaced; ++i) {
        REQUIRE(testing::Put(*engine, "Tagged",
                             {{"pk", S("p" + std::to_string(i))}, {"tag", N(std::to_string(tag))}})
                    .ok());
      }
      REQUIRE(testing::WaitDurable(*engine).ok());
    }
    auto engine = ItemImagesOpen(&files, clock);
    CHECK(engine->DescribeTable("Tagged").value().item_count == kItems);
    CHECK(engine->DescribeTable("Tagged").value().indexes[0].item_count == kItems);
    CHECK(ItemImagesTag(*engine, 0) == tag);
    CHECK(ItemImagesTag(*engine, kItems - 1) == 1);
    return mapped_records::Mapped() - mapped;
  };
  // Half of them: both mappings stay (the first still holds half its records).
  CHECK(restart_replacing(kItems / 2, 2) == 2);
  // Nine in ten: the first segment's hundred left are copied and its mapping goes; the second's
  // were all replaced (gone with its last record), the third's hold all of theirs.
  CHECK(restart_replacing(kItems * 9 / 10, 3) == 1);
}

TEST_CASE("Without a mapping a replay copies the images") {
  MemoryFileSystem files;
  ManualClock clock;
  Checkpointed(files, clock, 500);
  files.MapCopies(true);
  const int adopted = mapped_records::Adopted();
  auto engine = ItemImagesOpen(&files, clock);
  CHECK(mapped_records::Adopted() == adopted);
  CHECK(engine->DescribeTable("Tagged").value().item_count == 500);
  CHECK(engine->DescribeTable("Tagged").value().indexes[0].item_count == 500);
  for (int i = 0; i < 500; i += 49) CHECK(ItemImagesTag(*engine, i) == 1);
  PutAll(*engine, 500, 3);  // every copy replaced and freed (ASan: by delete)
  CHECK(ItemImagesTag(*engine, 499) == 3);
}

}  // namespace
}  // namespace ddbd
