// The commit path as observers see it: one numbered change record per change, with its kind,
// origin, images, sizes, index entries and item collection, from every kind of write.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "engine/model/item_codec.h"
#include "tests/engine/engine_calls.h"
#include "tests/values.h"

namespace ddbd {
namespace {

// What an observer keeps of a record (the views die with the call).
struct Seen {
  uint64_t table_id, table_sequence, log_sequence;
  ChangeOrigin origin;
  ChangeKind kind;
  Item old_item, new_item;
  uint32_t old_size, new_size;
  std::vector<IndexEntryChange> indexes;
  int64_t item_collection_bytes;
};

struct Recorder : CommitObserver {
  std::vector<Seen> seen;
  void OnCommit(const ChangeRecord& change) override {
    seen.push_back({change.table_id, change.table_sequence, change.log_sequence, change.origin,
                    change.kind, change.old_item.empty() ? Item() : DecodeItem(change.old_item),
                    change.new_item.empty() ? Item() : DecodeItem(change.new_item), change.old_size,
                    change.new_size,
                    std::vector<IndexEntryChange>(change.indexes.begin(), change.indexes.end()),
                    change.item_collection_bytes});
  }
};

CreateTableArgs Table(const std::string& name, bool local_index) {
  CreateTableArgs args;
  args.table_name = name;
  args.attribute_definitions = {{"pk", ScalarAttributeType::kS}, {"sk", ScalarAttributeType::kS}};
  args.key_schema = {{"pk", KeyType::kHash}, {"sk", KeyType::kRange}};
  args.billing_mode = BillingMode::kPayPerRequest;
  IndexDefinition by_status{"by-status",
                            {{"pk", KeyType::kHash}, {"status", KeyType::kRange}},
                            {},
                            std::nullopt,
                            std::nullopt};
  by_status.projection.projection_type = ProjectionType::kKeysOnly;
  if (local_index) {
    args.attribute_definitions.push_back({"status", ScalarAttributeType::kS});
    args.local_secondary_indexes = {by_status};
  }
  return args;
}

struct Fixture {
  ManualClock clock;
  Engine engine{{}, clock};
  Recorder recorder;
  Fixture() {
    engine.Subscribe(&recorder);
    REQUIRE(engine.CreateTable(Table("Orders", true)).ok());
    REQUIRE(engine.CreateTable(Table("Plain", false)).ok());
  }
};

TEST_CASE("Every write publishes one numbered change record") {
  Fixture f;
  const Item first = {{"pk", S("a")}, {"sk", S("1")}, {"status", S("open")}};
  REQUIRE(testing::Put(f.engine, "Orders", first).ok());
  REQUIRE(f.recorder.seen.size() == 1);
  const Seen insert = f.recorder.seen[0];
  CHECK(insert.kind == ChangeKind::kInsert);
  CHECK(insert.origin == ChangeOrigin::kUser);
  CHECK(insert.table_sequence == 1);
  CHECK(insert.log_sequence == 1);
  CHECK(insert.old_item.empty());
  CHECK(insert.new_item == first);
  CHECK(insert.new_size == ItemSize(first));
  REQUIRE(insert.indexes.size() == 1);
  CHECK((!insert.indexes[0].had_entry && insert.indexes[0].has_entry));
  // The collection holds the item and its LSI entry.
  CHECK(insert.item_collection_bytes == insert.new_size + insert.indexes[0].new_size);

  SECTION("an update is a modify with both images and the index key change") {
    UpdateAction set;
    set.kind = UpdateAction::Kind::kSet;
    set.path = {{"status", -1}};
    set.value.operand.kind = Operand::Kind::kValue;
    set.value.operand.value = S("done");
    REQUIRE(testing::Update(f.engine, "Orders", {{"pk", S("a")}, {"sk", S("1")}}, {set}).ok());
    REQUIRE(f.recorder.seen.size() == 2);
    const Seen& modify = f.recorder.seen[1];
    CHECK(modify.kind == ChangeKind::kModify);
    CHECK(modify.table_sequence == 2);
    CHECK(modify.log_sequence == 2);
    CHECK(modify.old_item == first);
    CHECK(FindAttribute(modify.new_item, "status")->scalar == "done");
    REQUIRE(modify.indexes.size() == 1);
    CHECK(modify.indexes[0].key_changed);
  }
  SECTION("an identical put and a delete of nothing change nothing and take no number") {
    REQUIRE(testing::Put(f.engine, "Orders", first).ok());
    REQUIRE(testing::Delete(f.engine, "Orders", {{"pk", S("b")}, {"sk", S("1")}}).ok());
    REQUIRE(f.recorder.seen.size() == 3);
    for (size_t i : {size_t{1}, size_t{2}}) {
      CHECK(f.recorder.seen[i].kind == ChangeKind::kNone);
      CHECK(f.recorder.seen[i].table_sequence == 0);
      CHECK(f.recorder.seen[i].log_sequence == 0);
      CHECK(f.recorder.seen[i].indexes.empty());
    }
    CHECK(f.recorder.seen[1].old_size == f.recorder.seen[1].new_size);
  }
  SECTION("a delete removes the item and its entry; the collection empties") {
    REQUIRE(testing::Delete(f.engine, "Orders", {{"pk", S("a")}, {"sk", S("1")}}).ok());
    const Seen& remove = f.recorder.seen.back();
    CHECK(remove.kind == ChangeKind::kRemove);
    CHECK(remove.old_item == first);
    CHECK(remove.new_item.empty());
    CHECK((remove.indexes.size() == 1 && !remove.indexes[0].has_entry));
    CHECK(remove.item_collection_bytes == 0);
  }
  SECTION("sequences are per table; log sequences are engine-wide") {
    REQUIRE(testing::Put(f.engine, "Plain", {{"pk", S("a")}, {"sk", S("1")}}).ok());
    const Seen& other = f.recorder.seen.back();
    CHECK(other.table_id != insert.table_id);
    CHECK(other.table_sequence == 1);
    CHECK(other.log_sequence == 2);
    CHECK(other.item_collection_bytes == -1);  // no local index
  }
  SECTION("batch writes go through the same path") {
    BatchWriteItemArgs args;
    args.requests = {{"Orders", WriteRequest::Kind::kPut, {{"pk", S("b")}, {"sk", S("1")}}},
                     {"Orders", WriteRequest::Kind::kDelete, {{"pk", S("a")}, {"sk", S("1")}}}};
    REQUIRE(f.engine.BatchWriteItem(args).ok());
    REQUIRE(f.recorder.seen.size() == 3);
    CHECK(f.recorder.seen[1].kind == ChangeKind::kInsert);
    CHECK(f.recorder.seen[2].kind == ChangeKind::kRemove);
    CHECK(f.recorder.seen[2].table_sequence == 3);
  }
  SECTION("a failed condition publishes nothing") {
    Condition never;
    never.kind = Condition::Kind::kAttributeNotExists;
    never.operands.push_back(Operand{Operand::Kind::kPath, {{"pk", -1}}, {}});
    PutItemArgs args;
    args.table_name = "Orders";
    args.item = first;
    args.condition = &never;
    CHECK(f.engine.PutItem(args).error().code() == ErrorCode::kConditionalCheckFailed);
    CHECK(f.recorder.seen.size() == 1);
  }
}

TEST_CASE("An index backfill commits each item's new entries with origin backfill") {
  ManualClock clock;
  Engine engine{{}, clock};
  Recorder recorder;
  engine.Subscribe(&recorder);
  CreateTableArgs table;
  table.table_name = "Orders";
  table.attribute_definitions = {{"pk", ScalarAttributeType::kS}};
  table.key_schema = {{"pk", KeyType::kHash}};
  table.billing_mode = BillingMode::kPayPerRequest;
  REQUIRE(engine.CreateTable(table).ok());
  REQUIRE(testing::Put(engine, "Orders", {{"pk", S("a")}, {"status", S("open")}}).ok());
  REQUIRE(testing::Put(engine, "Orders", {{"pk", S("b")}}).ok());  // no entry: sparse
  UpdateTableArgs update;
  update.table_name = "Orders";
  update.attribute_definitions = {{"status", ScalarAttributeType::kS}};
  GlobalSecondaryIndexUpdate create;
  create.action = GlobalSecondaryIndexUpdate::Action::kCreate;
  create.index.index_name = "by-status";
  create.index.key_schema = {{"status", KeyType::kHash}};
  create.index.projection.projection_type = ProjectionType::kAll;
  update.global_secondary_index_updates = {create};
  REQUIRE(engine.UpdateTable(update).ok());
  REQUIRE(recorder.seen.size() == 3);
  const Seen& backfill = recorder.seen[2];
  CHECK(backfill.origin == ChangeOrigin::kBackfill);
  CHECK(backfill.kind == ChangeKind::kNone);
  CHECK(backfill.old_item == backfill.new_item);
  REQUIRE(backfill.indexes.size() == 1);
  CHECK((!backfill.indexes[0].had_entry && backfill.indexes[0].has_entry));
}

}  // namespace
}  // namespace ddbd
