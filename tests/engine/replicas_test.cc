// Global tables at the engine's contract (issue 43): several engines, one per region, joined by a
// link that queues each region's changes for the others and delivers them when the test says, in
// any interleaving of the queues (each queue in order, as the server's are). Whatever the order,
// writes in random regions end with identical replicas: last writer wins, the same everywhere.
#include <catch2/catch.hpp>
#include <deque>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/api/replication_link.h"
#include "engine/engine.h"
#include "engine/model/item_codec.h"
#include "engine/persistence/file_system.h"
#include "tests/values.h"

namespace ddbd {
namespace {

CreateTableArgs ReplicasOrders() {
  CreateTableArgs args;
  args.table_name = "Orders";
  args.attribute_definitions = {{"pk", ScalarAttributeType::kS}};
  args.key_schema = {{"pk", KeyType::kHash}};
  args.billing_mode = BillingMode::kPayPerRequest;
  return args;
}

// The regions and the queues between them.
class World final : public ReplicationLink {
 public:
  // `on_disk`: each region's engine keeps a store (on a file system in memory), so it can be
  // restarted.
  // `table_delay_ms`: each engine's --table-delay-ms.
  explicit World(const std::vector<std::string>& regions, bool on_disk = false,
                 int64_t table_delay_ms = 0)
      : delay_ms(table_delay_ms) {
    for (const std::string& region : regions) {
      if (on_disk) files[region] = std::make_unique<MemoryFileSystem>();
      Open(region);
    }
  }

  void Open(const std::string& region) {
    EngineOptions options;
    options.region = region;
    options.table_delay_ms = delay_ms;
    options.replication = std::shared_ptr<ReplicationLink>(this, [](ReplicationLink*) {});
    if (files.contains(region)) {
      options.db_path = "db";
      options.file_system = files.at(region).get();
      auto opened = Engine::Open(std::move(options), clock);
      REQUIRE(opened.ok());
      engines[region] = std::move(opened.value());
    } else {
      engines[region] = std::make_unique<Engine>(std::move(options), clock);
    }
  }

  // Every engine stops and starts again from its store; the queues (memory only, as the
  // server's) are lost. Then, as the server's Reconcile does at start: whatever one region has
  // newer than another is queued for it, and cut-short copies again.
  void Restart() {
    queues.clear();
    engines.clear();
    for (const auto& [region, store] : files) Open(region);
    for (auto& [region, engine] : engines) {
      for (const std::string& table_name : engine->ReplicatedTables()) {
        auto table = engine->DescribeTable(table_name);
        REQUIRE(table.ok());
        for (const ReplicaDescription& replica : table.value().replicas) {
          if (replica.region_name == region) continue;
          const std::vector<std::string> newer =
              KeysNewerThan(engine->ReplicaVersions(table_name),
                            engines.at(replica.region_name)->ReplicaVersions(table_name));
          engine->ResendReplicaItems(table_name, replica.region_name, newer);
        }
      }
      engine->ResumeReplicaCopies();
    }
  }

  std::string Unavailable() const override { return {}; }
  // One namespace: no other accounts (multi-account global tables are tested black-box).
  const std::string& AccessKeyId() const override { return no_key; }
  Result<TableDescription> DescribeInAccount(const std::string&, const std::string&,
                                             const std::string&) override {
    return Error::Validation("no other accounts");
  }
  Status AdmitReplica(const std::string&, const std::string&, const std::string&,
                      const std::vector<ReplicaDescription>&) override {
    return Error::Validation("no other accounts");
  }
  const std::string no_key;
  Status CreateReplica(const std::string& region, const TableDescription& table,
                       const std::vector<ReplicaDescription>& replicas) override {
    CreateTableArgs args = ReplicasOrders();
    args.stream_specification = table.stream_specification;
    args.replicas = replicas;
    auto made = engines.at(region)->CreateTable(args);
    if (!made.ok()) return made.error();
    return Ok{};
  }
  Status DeleteReplica(const std::string& region, const std::string& table_name) override {
    (void)engines.at(region)->SetReplicas(table_name, {});
    auto deleted = engines.at(region)->DeleteTable(table_name);
    if (!deleted.ok()) return deleted.error();
    return Ok{};
  }
  void Announce(const std::string& from, const std::string& table_name,
                const std::vector<ReplicaDescription>& replicas) override {
    for (const ReplicaDescription& replica : replicas) {
      if (replica.region_name != from && replica.status != ReplicaStatus::kDeleting) {
        (void)engines.at(replica.region_name)->SetReplicas(table_name, replicas);
      }
    }
  }
  Result<TableDescription> DescribeMember(const std::string& region,
                                          const std::string& table_name) override {
    auto table = engines.at(region)->DescribeTable(table_name);
    if (!table.ok()) return table.error();
    return static_cast<TableDescription>(table.value());
  }
  Status SetLegacyGlobalTable(const std::string& region, const std::string& table_name,
                              const std::vector<std::string>& group, int64_t created_ms) override {
    return engines.at(region)->SetLegacyGlobalTable(table_name, group, created_ms);
  }
  Status UpdateMember(const std::string& region, const UpdateTableArgs& args) override {
    auto updated = engines.at(region)->UpdateTable(args);
    if (!updated.ok()) return updated.error();
    return Ok{};
  }
  void SyncAutoScaling(const std::string&, const std::vector<std::string>& to,
                       const std::string& table_name, const TableAutoScaling& settings) override {
    for (const std::string& region : to) {
      (void)engines.at(region)->SetReplicaAutoScaling(table_name, settings);
    }
  }
  void SyncTimeToLive(const std::string&, const std::vector<std::string>& to,
                      const UpdateTimeToLiveArgs& args) override {
    for (const std::string& region : to) (void)engines.at(region)->UpdateTimeToLive(args);
  }
  void SyncTableUpdate(const std::string&, const std::vector<std::string>& to,
                       const UpdateTableArgs& args) override {
    for (const std::string& region : to) (void)engines.at(region)->UpdateTable(args);
  }
  void Replicate(const std::string& from, const std::vector<std::string>& to,
                 ReplicatedWrite write) override {
    for (const std::string& region : to) queues[{from, region}].push_back({write, false});
  }
  // MRSC: a region in `isolated` reaches no other member; a claimed item is another region's
  // until its write ends, which delivers the table's queued changes at once.
  Status BeginStrongWrite(const std::string& region, const StrongMembers&,
                          std::string_view key) override {
    if (isolated.contains(region)) return StrongRegionUnavailable();
    auto [claim, added] = claims.emplace(std::string(key), region);
    if (!added && claim->second != region) return ReplicatedWriteConflict();
    return Ok{};
  }
  void EndStrongWrite(const std::string& region, const StrongMembers& members,
                      std::string_view key) override {
    for (const std::string& member : members.replicas) {
      auto& queue = queues[{region, member}];
      while (!queue.empty()) {
        REQUIRE(engines.at(member)->ApplyReplicatedWrite(queue.front().first).ok());
        queue.pop_front();
      }
    }
    claims.erase(std::string(key));
  }
  Status CheckStrongRead(const std::string& region, const StrongMembers&) override {
    if (isolated.contains(region)) return StrongRegionUnavailable();
    return Ok{};
  }
  void CopyQueued(const std::string& from, const std::string& to,
                  const std::string& table_name) override {
    ReplicatedWrite marker;
    marker.table_name = table_name;
    queues[{from, to}].push_back({std::move(marker), true});
  }

  // Delivers the head of one non-empty queue, chosen by `random`; false when all are empty.
  bool DeliverOne(std::mt19937& random) {
    std::vector<std::pair<std::string, std::string>> busy;
    for (const auto& [pair, queue] : queues) {
      if (!queue.empty()) busy.push_back(pair);
    }
    if (busy.empty()) return false;
    const auto pair = busy[std::uniform_int_distribution<size_t>(0, busy.size() - 1)(random)];
    auto [write, copy_done] = std::move(queues[pair].front());
    queues[pair].pop_front();
    if (copy_done) {
      for (auto& [region, engine] : engines) {
        (void)engine->SetReplicaStatus(write.table_name, pair.second, ReplicaStatus::kActive);
      }
    } else {
      REQUIRE(engines.at(pair.second)->ApplyReplicatedWrite(write).ok());
    }
    return true;
  }
  void DeliverAll(std::mt19937& random) {
    while (DeliverOne(random)) {
    }
  }

  // Every item of the table in `region`, by key.
  std::map<std::string, Item> Items(const std::string& region) {
    ScanArgs scan;
    scan.table_name = "Orders";
    auto page = engines.at(region)->Scan(scan);
    REQUIRE(page.ok());
    std::map<std::string, Item> items;
    for (const std::string_view blob : page.value().item_blobs) {
      Item item = DecodeItem(blob);
      items[FindAttribute(item, "pk")->scalar] = item;
    }
    return items;
  }

  int64_t delay_ms = 0;
  std::set<std::string> isolated;
  std::map<std::string, std::string> claims;  // key bytes -> the region writing it
  ManualClock clock;
  std::map<std::string, std::unique_ptr<MemoryFileSystem>> files;  // by region, when on disk
  std::map<std::string, std::unique_ptr<Engine>> engines;
  std::map<std::pair<std::string, std::string>, std::deque<std::pair<ReplicatedWrite, bool>>>
      queues;
};

void AddReplica(World& world, const std::string& from, const std::string& region,
                std::mt19937& random) {
  UpdateTableArgs update;
  update.table_name = "Orders";
  ReplicaUpdate create;
  create.replica.region_name = region;
  update.replica_updates = {create};
  REQUIRE(world.engines.at(from)->UpdateTable(update).ok());
  world.DeliverAll(random);
}

// The table in us-east-1 with 30 items, then its replicas in us-west-2 (made from us-east-1) and
// eu-west-1 (made from us-west-2).
void ThreeRegions(World& world, std::mt19937& random) {
  REQUIRE(world.engines.at("us-east-1")->CreateTable(ReplicasOrders()).ok());
  for (int n = 0; n < 30; ++n) {  // items before the replicas exist
    PutItemArgs put;
    put.table_name = "Orders";
    put.item = {{"pk", S("k" + std::to_string(n))}, {"v", S("before")}};
    REQUIRE(world.engines.at("us-east-1")->PutItem(put).ok());
  }
  AddReplica(world, "us-east-1", "us-west-2", random);
  AddReplica(world, "us-west-2", "eu-west-1", random);
}

// `steps` puts and deletes of 40 keys in random regions. Time moves unevenly (often not at all:
// writes in one millisecond meet), and the queues are delivered a few at a time, in random
// interleavings.
void WriteAtRandom(World& world, const std::vector<std::string>& regions, int steps,
                   std::mt19937& random) {
  for (int step = 0; step < steps; ++step) {
    const std::string& region = regions[random() % regions.size()];
    const std::string key = "k" + std::to_string(random() % 40);
    if (random() % 5 == 0) {
      DeleteItemArgs del;
      del.table_name = "Orders";
      del.key = {{"pk", S(key)}};
      REQUIRE(world.engines.at(region)->DeleteItem(del).ok());
    } else {
      PutItemArgs put;
      put.table_name = "Orders";
      put.item = {{"pk", S(key)}, {"v", S(region + std::to_string(step))}};
      REQUIRE(world.engines.at(region)->PutItem(put).ok());
    }
    if (random() % 3 == 0) world.clock.AdvanceMs(static_cast<int64_t>(random() % 3));
    for (uint32_t deliver = random() % 4; deliver > 0; --deliver) world.DeliverOne(random);
  }
}

}  // namespace

TEST_CASE("Random writes in random regions, delivered in any order, end with identical replicas") {
  const std::vector<std::string> regions{"us-east-1", "us-west-2", "eu-west-1"};
  for (uint32_t seed = 1; seed <= 20; ++seed) {
    std::mt19937 random(seed);
    World world(regions);
    ThreeRegions(world, random);
    WriteAtRandom(world, regions, 600, random);
    world.DeliverAll(random);
    INFO("seed " << seed);
    const auto east = world.Items("us-east-1");
    CHECK(world.Items("us-west-2") == east);
    CHECK(world.Items("eu-west-1") == east);
    CHECK(!east.empty());
  }
}

TEST_CASE("A change older than the item's is not applied, the replica set is described by all") {
  std::mt19937 random(7);
  World world({"us-east-1", "us-west-2"});
  REQUIRE(world.engines.at("us-east-1")->CreateTable(ReplicasOrders()).ok());
  AddReplica(world, "us-east-1", "us-west-2", random);
  for (const auto& [region, engine] : world.engines) {
    auto table = engine->DescribeTable("Orders");
    REQUIRE(table.ok());
    REQUIRE(table.value().replicas.size() == 2);
    CHECK(table.value().replicas[0].region_name == "us-east-1");
    CHECK(table.value().replicas[1].region_name == "us-west-2");
    CHECK(table.value().replicas[1].status == ReplicaStatus::kActive);
    CHECK(table.value().stream_specification.has_value());
  }
  PutItemArgs put;
  put.table_name = "Orders";
  put.item = {{"pk", S("a")}, {"v", S("new")}};
  REQUIRE(world.engines.at("us-west-2")->PutItem(put).ok());
  ReplicatedWrite stale;
  stale.table_name = "Orders";
  stale.key = world.queues[{"us-west-2", "us-east-1"}].front().first.key;
  stale.item = EncodeItem({{"pk", S("a")}, {"v", S("old")}});
  stale.item_size = 10;
  stale.version = {1, "us-east-1"};
  auto applied = world.engines.at("us-west-2")->ApplyReplicatedWrite(stale);
  REQUIRE(applied.ok());
  CHECK_FALSE(applied.value());
  CHECK(FindAttribute(world.Items("us-west-2").at("a"), "v")->scalar == "new");
}

TEST_CASE("A restart loses the queues, not the changes: the regions are brought level") {
  // Every write's version is logged with it (and kept by checkpoints, deletions too), so after a
  // restart the regions can be compared item by item; without the versions, or without the
  // comparison, the changes pending at the restart would never arrive.
  const std::vector<std::string> regions{"us-east-1", "us-west-2", "eu-west-1"};
  for (uint32_t seed = 1; seed <= 10; ++seed) {
    INFO("seed " << seed);
    std::mt19937 random(seed);
    World world(regions, true);
    ThreeRegions(world, random);
    WriteAtRandom(world, regions, 300, random);
    // Some regions' logs are rewritten as checkpoints: the versions and deletions are there.
    for (const std::string& region : regions) {
      if (random() % 2 == 0) REQUIRE(world.engines.at(region)->Checkpoint(true).ok());
    }
    WriteAtRandom(world, regions, 100, random);
    bool pending = false;
    for (const auto& [pair, queue] : world.queues) pending = pending || !queue.empty();
    REQUIRE(pending);
    world.Restart();
    WriteAtRandom(world, regions, 100, random);
    world.DeliverAll(random);
    const auto east = world.Items("us-east-1");
    CHECK(world.Items("us-west-2") == east);
    CHECK(world.Items("eu-west-1") == east);
    CHECK(!east.empty());
  }
}

TEST_CASE("A copy to a new replica that a restart cut short is made again") {
  std::mt19937 random(3);
  World world({"us-east-1", "us-west-2"}, true);
  REQUIRE(world.engines.at("us-east-1")->CreateTable(ReplicasOrders()).ok());
  for (int n = 0; n < 20; ++n) {
    PutItemArgs put;
    put.table_name = "Orders";
    put.item = {{"pk", S("k" + std::to_string(n))}, {"v", S("before")}};
    REQUIRE(world.engines.at("us-east-1")->PutItem(put).ok());
  }
  UpdateTableArgs update;
  update.table_name = "Orders";
  ReplicaUpdate create;
  create.replica.region_name = "us-west-2";
  update.replica_updates = {create};
  REQUIRE(world.engines.at("us-east-1")->UpdateTable(update).ok());
  for (int n = 0; n < 5; ++n) world.DeliverOne(random);  // part of the copy
  world.Restart();
  auto creating = world.engines.at("us-west-2")->DescribeTable("Orders");
  REQUIRE(creating.ok());
  CHECK(creating.value().replicas.at(1).status == ReplicaStatus::kCreating);
  world.DeliverAll(random);
  CHECK(world.Items("us-west-2") == world.Items("us-east-1"));
  CHECK(world.Items("us-west-2").size() == 20);
  for (const auto& [region, engine] : world.engines) {
    auto table = engine->DescribeTable("Orders");
    REQUIRE(table.ok());
    CHECK(table.value().replicas.at(1).status == ReplicaStatus::kActive);
  }
}

TEST_CASE("A deletion kept by a checkpoint still beats an older write pending at a restart") {
  std::mt19937 random(5);
  World world({"us-east-1", "us-west-2"}, true);
  REQUIRE(world.engines.at("us-east-1")->CreateTable(ReplicasOrders()).ok());
  AddReplica(world, "us-east-1", "us-west-2", random);
  PutItemArgs put;
  put.table_name = "Orders";
  put.item = {{"pk", S("k")}, {"v", S("older")}};
  REQUIRE(world.engines.at("us-east-1")->PutItem(put).ok());  // on its way west, never arrives
  world.clock.AdvanceMs(5);
  DeleteItemArgs del;
  del.table_name = "Orders";
  del.key = {{"pk", S("k")}};
  put.item = {{"pk", S("k")}, {"v", S("west")}};
  REQUIRE(world.engines.at("us-west-2")->PutItem(put).ok());
  REQUIRE(world.engines.at("us-west-2")->DeleteItem(del).ok());  // the later write: a deletion
  REQUIRE(world.engines.at("us-west-2")->Checkpoint(true).ok());
  world.Restart();
  world.DeliverAll(random);
  CHECK(world.Items("us-west-2").empty());
  CHECK(world.Items("us-east-1").empty());
}

}  // namespace ddbd

namespace ddbd {
namespace {

// The replica statuses each region describes, in the set's order ("" for none: not a global
// table), then the table's own status.
std::string Statuses(World& world, const std::string& region) {
  auto table = world.engines.at(region)->DescribeTable("Orders");
  if (!table.ok()) return "gone";
  // Both enums run CREATING, UPDATING, DELETING, ACTIVE.
  constexpr const char* kNames[] = {"CREATING", "UPDATING", "DELETING", "ACTIVE"};
  std::string out;
  for (const ReplicaDescription& replica : table.value().replicas) {
    out += replica.region_name + ":" + kNames[static_cast<int>(replica.status)] + " ";
  }
  out += std::string("table:") + kNames[static_cast<int>(table.value().table_status)];
  return out;
}

UpdateTableArgs OneReplicaUpdate(ReplicaUpdate::Action action, const std::string& region) {
  UpdateTableArgs update;
  update.table_name = "Orders";
  ReplicaUpdate change;
  change.action = action;
  change.replica.region_name = region;
  if (action == ReplicaUpdate::Action::kUpdate) {
    change.replica.table_class_override = "STANDARD_INFREQUENT_ACCESS";
  }
  update.replica_updates = {change};
  return update;
}

}  // namespace

TEST_CASE("Under --table-delay-ms a replica is UPDATING and DELETING a while, its table UPDATING") {
  std::mt19937 random(11);
  World world({"us-east-1", "us-west-2", "eu-west-1"}, false, 1000);
  REQUIRE(world.engines.at("us-east-1")->CreateTable(ReplicasOrders()).ok());
  world.clock.AdvanceMs(1000);
  Engine& east = *world.engines.at("us-east-1");

  // Made: the new replica CREATING (its table too) until its copy has arrived.
  auto made = east.UpdateTable(OneReplicaUpdate(ReplicaUpdate::Action::kCreate, "us-west-2"));
  REQUIRE(made.ok());
  CHECK(made.value().table_status == TableStatus::kUpdating);
  CHECK(Statuses(world, "us-east-1") == "us-east-1:ACTIVE us-west-2:CREATING table:UPDATING");
  CHECK(Statuses(world, "us-west-2") == "us-east-1:ACTIVE us-west-2:CREATING table:CREATING");
  world.clock.AdvanceMs(1000);
  world.DeliverAll(random);
  CHECK(Statuses(world, "us-east-1") == "us-east-1:ACTIVE us-west-2:ACTIVE table:ACTIVE");
  REQUIRE(east.UpdateTable(OneReplicaUpdate(ReplicaUpdate::Action::kCreate, "eu-west-1")).ok());
  world.clock.AdvanceMs(1000);
  world.DeliverAll(random);
  const std::string all_active = "us-east-1:ACTIVE us-west-2:ACTIVE eu-west-1:ACTIVE table:ACTIVE";
  for (const char* region : {"us-east-1", "us-west-2", "eu-west-1"}) {
    CHECK(Statuses(world, region) == all_active);
  }

  // Changed: UPDATING everywhere for the delay; no other replica change meanwhile.
  auto changed = east.UpdateTable(OneReplicaUpdate(ReplicaUpdate::Action::kUpdate, "eu-west-1"));
  REQUIRE(changed.ok());
  CHECK(changed.value().replicas.at(2).status == ReplicaStatus::kUpdating);
  CHECK(changed.value().table_status == TableStatus::kUpdating);
  CHECK(Statuses(world, "us-west-2") ==
        "us-east-1:ACTIVE us-west-2:ACTIVE eu-west-1:UPDATING table:UPDATING");
  auto busy = world.engines.at("us-west-2")
                  ->UpdateTable(OneReplicaUpdate(ReplicaUpdate::Action::kDelete, "eu-west-1"));
  REQUIRE_FALSE(busy.ok());
  CHECK(busy.error().code() == ErrorCode::kResourceInUse);
  world.clock.AdvanceMs(999);
  CHECK(Statuses(world, "eu-west-1") ==
        "us-east-1:ACTIVE us-west-2:ACTIVE eu-west-1:UPDATING table:UPDATING");
  world.clock.AdvanceMs(1);
  CHECK(Statuses(world, "eu-west-1") == all_active);

  // Removed: DELETING in the others' sets (its own table DELETING), sent nothing more.
  auto removed = east.UpdateTable(OneReplicaUpdate(ReplicaUpdate::Action::kDelete, "eu-west-1"));
  REQUIRE(removed.ok());
  CHECK(removed.value().replicas.at(2).status == ReplicaStatus::kDeleting);
  CHECK(Statuses(world, "us-west-2") ==
        "us-east-1:ACTIVE us-west-2:ACTIVE eu-west-1:DELETING table:UPDATING");
  CHECK(Statuses(world, "eu-west-1") == "table:DELETING");
  PutItemArgs put;
  put.table_name = "Orders";
  put.item = {{"pk", S("after")}};
  REQUIRE(east.PutItem(put).ok());
  CHECK(world.queues[{"us-east-1", "eu-west-1"}].empty());
  CHECK(world.queues[{"us-east-1", "us-west-2"}].size() == 1);
  world.clock.AdvanceMs(1000);
  world.DeliverAll(random);
  CHECK(Statuses(world, "us-east-1") == "us-east-1:ACTIVE us-west-2:ACTIVE table:ACTIVE");
  CHECK(Statuses(world, "eu-west-1") == "gone");

  // A member's DeleteTable: DELETING in the other's set, then a table of one region again.
  REQUIRE(world.engines.at("us-west-2")->DeleteTable("Orders").ok());
  CHECK(Statuses(world, "us-east-1") == "us-east-1:ACTIVE us-west-2:DELETING table:UPDATING");
  REQUIRE(east.PutItem(put).ok());
  CHECK(world.queues[{"us-east-1", "us-west-2"}].empty());
  world.clock.AdvanceMs(1000);
  CHECK(Statuses(world, "us-east-1") == "table:ACTIVE");
  CHECK(Statuses(world, "us-west-2") == "gone");
}

}  // namespace ddbd

namespace ddbd {

TEST_CASE("A global table of version 2017.11.29 joins empty tables, replicates, and lets one go") {
  std::mt19937 random(13);
  World world({"us-east-1", "us-west-2", "eu-west-1"});
  for (const auto& [region, engine] : world.engines) {
    CreateTableArgs args = ReplicasOrders();
    args.stream_specification = StreamSpecification{true, StreamViewType::kNewAndOldImages};
    REQUIRE(engine->CreateTable(args).ok());
  }
  Engine& east = *world.engines.at("us-east-1");
  auto made = east.CreateGlobalTable({"Orders", {"us-east-1", "us-west-2"}});
  REQUIRE(made.ok());
  CHECK(made.value().replication_group == std::vector<std::string>{"us-east-1", "us-west-2"});
  auto west_view = world.engines.at("us-west-2")->DescribeGlobalTable("Orders");
  REQUIRE(west_view.ok());
  CHECK(west_view.value().creation_date_time_ms == made.value().creation_date_time_ms);
  CHECK(world.engines.at("eu-west-1")->DescribeGlobalTable("Orders").error().code() ==
        ErrorCode::kGlobalTableNotFound);
  PutItemArgs put;
  put.table_name = "Orders";
  put.item = {{"pk", S("a")}};
  world.clock.AdvanceMs(1554766902780 - world.clock.NowMs());
  REQUIRE(world.engines.at("us-west-2")->PutItem(put).ok());
  world.DeliverAll(random);
  CHECK(world.Items("us-east-1").size() == 1);
  CHECK(world.Items("eu-west-1").empty());
  // That version's attributes, on the item written and on its copy.
  for (const std::string region : {"us-west-2", "us-east-1"}) {
    const Item item = world.Items(region).at("a");
    CHECK(FindAttribute(item, "aws:rep:updateregion")->scalar == "us-west-2");
    CHECK(FindAttribute(item, "aws:rep:updatetime")->scalar == "1554766902.78");
    CHECK(FindAttribute(item, "aws:rep:deleting")->type == AttributeType::kBool);
  }
  // The caller's aws:rep:updateregion is replaced; another name of the prefix is the caller's.
  put.item = {{"pk", S("a")}, {"aws:rep:updateregion", S("mine")}, {"aws:rep:note", S("kept")}};
  world.clock.AdvanceMs(5);
  REQUIRE(east.PutItem(put).ok());
  world.DeliverAll(random);
  CHECK(FindAttribute(world.Items("us-west-2").at("a"), "aws:rep:updateregion")->scalar ==
        "us-east-1");
  CHECK(FindAttribute(world.Items("us-west-2").at("a"), "aws:rep:updatetime")->scalar ==
        "1554766902.785");
  const Item copied = world.Items("us-west-2").at("a");
  const AttributeValue* note = FindAttribute(copied, "aws:rep:note");
  REQUIRE(note != nullptr);
  CHECK(note->scalar == "kept");

  // Not empty any more: no region joins; one may leave, keeping its table and items.
  UpdateGlobalTableArgs add{"Orders", {{"eu-west-1", std::nullopt}}};
  CHECK(east.UpdateGlobalTable(add).error().code() == ErrorCode::kValidation);
  UpdateGlobalTableArgs leave{"Orders", {{std::nullopt, "us-west-2"}}};
  auto left = east.UpdateGlobalTable(leave);
  REQUIRE(left.ok());
  CHECK(left.value().replication_group == std::vector<std::string>{"us-east-1"});
  CHECK(world.engines.at("us-west-2")->DescribeGlobalTable("Orders").error().code() ==
        ErrorCode::kGlobalTableNotFound);
  CHECK(world.Items("us-west-2").size() == 1);
  put.item = {{"pk", S("b")}};
  REQUIRE(east.PutItem(put).ok());
  world.DeliverAll(random);
  CHECK(world.Items("us-west-2").size() == 1);
  auto alone = east.DescribeGlobalTable("Orders");
  REQUIRE(alone.ok());  // a global table of one region
  CHECK(alone.value().replication_group == std::vector<std::string>{"us-east-1"});
  CHECK(east.ListGlobalTables({}).global_tables.size() == 1);
}

TEST_CASE("Version 2017.11.29's settings: write settings in every member, read settings in one") {
  World world({"us-east-1", "us-west-2"});
  for (const auto& [region, engine] : world.engines) {
    CreateTableArgs args = ReplicasOrders();
    args.billing_mode = BillingMode::kProvisioned;
    args.provisioned_throughput = ProvisionedThroughput{5, 5};
    args.stream_specification = StreamSpecification{true, StreamViewType::kNewAndOldImages};
    REQUIRE(engine->CreateTable(args).ok());
  }
  Engine& east = *world.engines.at("us-east-1");
  Engine& west = *world.engines.at("us-west-2");
  REQUIRE(east.CreateGlobalTable({"Orders", {"us-east-1", "us-west-2"}}).ok());
  UpdateGlobalTableSettingsArgs update;
  update.global_table_name = "Orders";
  update.write_capacity_units = 7;
  update.replicas.push_back({"us-west-2", 9, std::nullopt, {}, std::nullopt});
  auto updated = east.UpdateGlobalTableSettings(update);
  REQUIRE(updated.ok());
  REQUIRE(updated.value().replica_settings.size() == 2);
  CHECK(east.DescribeTable("Orders").value().provisioned_throughput.write_capacity_units == 7);
  CHECK(east.DescribeTable("Orders").value().provisioned_throughput.read_capacity_units == 5);
  CHECK(west.DescribeTable("Orders").value().provisioned_throughput.write_capacity_units == 7);
  CHECK(west.DescribeTable("Orders").value().provisioned_throughput.read_capacity_units == 9);
  auto described = west.DescribeGlobalTableSettings("Orders");
  REQUIRE(described.ok());
  CHECK(described.value().replica_settings[1].region_name == "us-west-2");
  CHECK(described.value().replica_settings[1].provisioned_throughput.read_capacity_units == 9);

  // A name the global table lacks changes nothing.
  update.write_capacity_units = 3;
  update.replicas = {{"eu-west-1", 3, std::nullopt, {}, std::nullopt}};
  CHECK(east.UpdateGlobalTableSettings(update).error().code() == ErrorCode::kReplicaNotFound);
  update.replicas.clear();
  update.indexes.push_back({"missing", 3, std::nullopt});
  CHECK(east.UpdateGlobalTableSettings(update).error().code() == ErrorCode::kIndexNotFound);
  CHECK(west.DescribeTable("Orders").value().provisioned_throughput.write_capacity_units == 7);
  CHECK(east.DescribeGlobalTableSettings("Other").error().code() ==
        ErrorCode::kGlobalTableNotFound);
}

namespace {

UpdateTableArgs MakeStrong(const std::vector<std::string>& replicas, const std::string& witness) {
  UpdateTableArgs update;
  update.table_name = "Orders";
  update.multi_region_consistency = MultiRegionConsistency::kStrong;
  for (const std::string& region : replicas) {
    ReplicaUpdate create;
    create.replica.region_name = region;
    update.replica_updates.push_back(create);
  }
  if (!witness.empty())
    update.witness_updates.push_back({WitnessUpdate::Action::kCreate, 1, witness});
  return update;
}

PutItemArgs ReplicasPutOrder(const std::string& key, const std::string& value) {
  PutItemArgs put;
  put.table_name = "Orders";
  put.item = {{"pk", S(key)}, {"v", S(value)}};
  return put;
}

GetItemArgs GetOrder(const std::string& key, bool consistent) {
  GetItemArgs get;
  get.table_name = "Orders";
  get.key = {{"pk", S(key)}};
  get.consistent_read = consistent;
  return get;
}

TEST_CASE("A multi-account member is found by its access key id and region, others by region") {
  ReplicaDescription same;
  same.region_name = "us-east-1";
  CHECK(MemberAddress(same) == "us-east-1");
  CHECK(ParseMemberAddress("us-east-1", "AKIDOWN") ==
        std::make_pair(std::string("AKIDOWN"), std::string("us-east-1")));
  ReplicaDescription other = same;
  other.account_id = "222222222222";
  other.access_key_id = "222222222222";
  CHECK(MemberAddress(other) == "222222222222/us-east-1");
  CHECK(ParseMemberAddress(MemberAddress(other), "AKIDOWN") ==
        std::make_pair(std::string("222222222222"), std::string("us-east-1")));
  CHECK(IsAccountId("123456789012"));
  CHECK_FALSE(IsAccountId("12345678901"));
  CHECK_FALSE(IsAccountId("12345678901a"));
  CHECK_FALSE(MultiAccount({same}));
  CHECK(MultiAccount({same, other}));

  // The mode described: a multi-account table's ENABLED, a same-account one's
  // ENABLED_WITH_OVERRIDES, a table of one region's as given (none: absent).
  TableDescription table;
  CHECK_FALSE(SettingsReplicationModeOf(table));
  table.settings_replication_mode = SettingsReplicationMode::kDisabled;
  CHECK(SettingsReplicationModeOf(table) == SettingsReplicationMode::kDisabled);
  table.replicas = {same, same};
  CHECK(SettingsReplicationModeOf(table) == SettingsReplicationMode::kEnabledWithOverrides);
  table.replicas = {other, other};
  CHECK(SettingsReplicationModeOf(table) == SettingsReplicationMode::kEnabled);
  table.replicas = {same};
  table.legacy_global_table_created_ms = 1;  // version 2017.11.29 has no such mode
  CHECK(SettingsReplicationModeOf(table) == SettingsReplicationMode::kDisabled);
}

}  // namespace

TEST_CASE("A STRONG global table: its rules, writes seen everywhere at once, a region cut off") {
  std::mt19937 random(11);
  World world({"us-east-1", "us-east-2", "us-west-2", "eu-west-1"});
  Engine& east = *world.engines.at("us-east-1");
  REQUIRE(east.CreateTable(ReplicasOrders()).ok());
  // Three regions, in one region set, made at once, from an empty table.
  CHECK(east.UpdateTable(MakeStrong({"us-east-2"}, "")).error().code() == ErrorCode::kValidation);
  CHECK(east.UpdateTable(MakeStrong({"us-east-2", "eu-west-1"}, "")).error().code() ==
        ErrorCode::kValidation);
  CHECK(east.UpdateTable(MakeStrong({"us-east-2"}, "us-east-2")).error().code() ==
        ErrorCode::kValidation);
  REQUIRE(east.PutItem(ReplicasPutOrder("early", "x")).ok());
  CHECK(east.UpdateTable(MakeStrong({"us-east-2", "us-west-2"}, ""))
            .error()
            .message()
            .find("must be empty") != std::string::npos);
  DeleteItemArgs del;
  del.table_name = "Orders";
  del.key = {{"pk", S("early")}};
  REQUIRE(east.DeleteItem(del).ok());

  auto made = east.UpdateTable(MakeStrong({"us-east-2"}, "us-west-2"));
  REQUIRE(made.ok());
  world.DeliverAll(random);
  for (const std::string region : {"us-east-1", "us-east-2"}) {
    auto table = world.engines.at(region)->DescribeTable("Orders");
    REQUIRE(table.ok());
    REQUIRE(table.value().replicas.size() == 3);
    for (const ReplicaDescription& replica : table.value().replicas) {
      CHECK(replica.strong);
      CHECK(replica.witness == (replica.region_name == "us-west-2"));
    }
  }
  // The witness keeps no table.
  CHECK(!world.engines.at("us-west-2")->DescribeTable("Orders").ok());

  // A write is in the other replica when it is answered: no delivery in between.
  REQUIRE(east.PutItem(ReplicasPutOrder("a", "1")).ok());
  auto seen = world.engines.at("us-east-2")->GetItem(GetOrder("a", true));
  REQUIRE(seen.ok());
  REQUIRE(seen.value().item.has_value());
  CHECK(FindAttribute(DecodeItem(seen.value().item->blob), "v")->scalar == "1");

  // An item another region is writing: ReplicatedWriteConflictException.
  auto key = ItemKeyBytes(
      KeyShape::Of(ReplicasOrders().key_schema, ReplicasOrders().attribute_definitions),
      ReplicasPutOrder("b", "").item, KeyMismatchStyle::kTypeMismatch);
  REQUIRE(key.ok());
  world.claims[key.value()] = "us-east-2";
  CHECK(east.PutItem(ReplicasPutOrder("b", "2")).error().code() ==
        ErrorCode::kReplicatedWriteConflict);
  world.claims.clear();

  // A region cut off: writes and strongly consistent reads refused, eventually consistent ones
  // answered.
  world.isolated.insert("us-east-1");
  CHECK(east.PutItem(ReplicasPutOrder("c", "3")).error().code() == ErrorCode::kInternalServerError);
  CHECK(east.GetItem(GetOrder("a", true)).error().code() == ErrorCode::kInternalServerError);
  CHECK(east.GetItem(GetOrder("a", false)).ok());
  world.isolated.clear();

  // What MRSC does not support, and members fixed.
  TransactWriteItemsArgs transaction;
  TransactWriteAction action;
  action.table_name = "Orders";
  action.item = ReplicasPutOrder("d", "4").item;
  transaction.actions.push_back(action);
  CHECK(east.TransactWriteItems(transaction).error().code() == ErrorCode::kValidation);
  UpdateTimeToLiveArgs time_to_live{"Orders", {"expires", true}};
  CHECK(east.UpdateTimeToLive(time_to_live).error().code() == ErrorCode::kValidation);
  CHECK(east.UpdateTable(OneReplicaUpdate(ReplicaUpdate::Action::kCreate, "eu-west-1"))
            .error()
            .code() == ErrorCode::kValidation);
  // A replica alone cannot leave; with the witness, the table is of one region again.
  CHECK(east.UpdateTable(OneReplicaUpdate(ReplicaUpdate::Action::kDelete, "us-east-2"))
            .error()
            .code() == ErrorCode::kValidation);
  UpdateTableArgs leave = OneReplicaUpdate(ReplicaUpdate::Action::kDelete, "us-east-2");
  leave.witness_updates.push_back({WitnessUpdate::Action::kDelete, 1, "us-west-2"});
  REQUIRE(east.UpdateTable(leave).ok());
  auto alone = east.DescribeTable("Orders");
  REQUIRE(alone.ok());
  CHECK(alone.value().replicas.empty());
  CHECK(east.TransactWriteItems(transaction).ok());
}

}  // namespace ddbd
