// Global tables at the engine's contract (issue 43): several engines, one per region, joined by a
// link that queues each region's changes for the others and delivers them when the test says, in
// any interleaving of the queues (each queue in order, as the server's are). Whatever the order,
// writes in random regions end with identical replicas: last writer wins, the same everywhere.
#include <catch2/catch.hpp>
#include <deque>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "engine/api/replication_link.h"
#include "engine/engine.h"
#include "engine/model/item_codec.h"

namespace ddbd {
namespace {

AttributeValue S(std::string text) { return AttributeValue::String(std::move(text)); }

CreateTableArgs Orders() {
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
  explicit World(const std::vector<std::string>& regions) {
    for (const std::string& region : regions) {
      EngineOptions options;
      options.region = region;
      options.replication = std::shared_ptr<ReplicationLink>(this, [](ReplicationLink*) {});
      engines[region] = std::make_unique<Engine>(std::move(options), clock);
    }
  }

  std::string Unavailable() const override { return {}; }
  Status CreateReplica(const std::string& region, const TableDescription& table,
                       const std::vector<ReplicaDescription>& replicas) override {
    CreateTableArgs args = Orders();
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
      if (replica.region_name != from) {
        (void)engines.at(replica.region_name)->SetReplicas(table_name, replicas);
      }
    }
  }
  void Replicate(const std::string& from, const std::vector<std::string>& to,
                 ReplicatedWrite write) override {
    for (const std::string& region : to) queues[{from, region}].push_back({write, false});
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
    for (const std::string& blob : page.value().item_blobs) {
      Item item = DecodeItem(blob);
      items[FindAttribute(item, "pk")->scalar] = item;
    }
    return items;
  }

  ManualClock clock;
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

}  // namespace

TEST_CASE("Random writes in random regions, delivered in any order, end with identical replicas") {
  const std::vector<std::string> regions{"us-east-1", "us-west-2", "eu-west-1"};
  for (uint32_t seed = 1; seed <= 20; ++seed) {
    std::mt19937 random(seed);
    World world(regions);
    REQUIRE(world.engines.at("us-east-1")->CreateTable(Orders()).ok());
    for (int n = 0; n < 30; ++n) {  // items before the replicas exist
      PutItemArgs put;
      put.table_name = "Orders";
      put.item = {{"pk", S("k" + std::to_string(n))}, {"v", S("before")}};
      REQUIRE(world.engines.at("us-east-1")->PutItem(put).ok());
    }
    AddReplica(world, "us-east-1", "us-west-2", random);
    AddReplica(world, "us-west-2", "eu-west-1", random);
    for (int step = 0; step < 600; ++step) {
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
      // Time moves unevenly (often not at all: writes in one millisecond meet), and the queues
      // are delivered a few at a time, in random interleavings.
      if (random() % 3 == 0) world.clock.AdvanceMs(static_cast<int64_t>(random() % 3));
      for (uint32_t deliver = random() % 4; deliver > 0; --deliver) world.DeliverOne(random);
    }
    world.DeliverAll(random);
    INFO("seed " << seed);
    const auto east = world.Items("us-east-1");
    CHECK(world.Items("us-west-2") == east);
    CHECK(world.Items("eu-west-1") == east);
    CHECK(!east.empty());
  }
}

TEST_CASE("A change older than the item's is not applied; the replica set is described by all") {
  std::mt19937 random(7);
  World world({"us-east-1", "us-west-2"});
  REQUIRE(world.engines.at("us-east-1")->CreateTable(Orders()).ok());
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

}  // namespace ddbd
