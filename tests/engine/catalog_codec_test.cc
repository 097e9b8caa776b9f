// A table's description, and a stream's state and records, through the log's codecs: every field
// comes back, unknown fields are skipped, malformed bytes refused.
#include "engine/persistence/catalog_codec.h"

#include <catch2/catch.hpp>
#include <string>

#include "engine/persistence/fields.h"
#include "engine/persistence/stream_codec.h"
#include "engine/persistence/vector_index_codec.h"

namespace ddbd {
namespace {

TableDescription EveryField() {
  TableDescription table;
  table.table_name = "Orders";
  table.table_id = "0b5ab5c4-1111-4000-8000-000000000001";
  table.table_arn = "arn:aws:dynamodb:us-east-1:000000000000:table/Orders";
  table.table_status = TableStatus::kUpdating;
  table.creation_date_time_ms = 1'700'000'000'123;
  table.attribute_definitions = {{"pk", ScalarAttributeType::kS},
                                 {"n", ScalarAttributeType::kN},
                                 {"b", ScalarAttributeType::kB}};
  table.key_schema = {{"pk", KeyType::kHash}, {"n", KeyType::kRange}};
  table.billing_mode = BillingMode::kPayPerRequest;
  table.billing_mode_described = true;
  table.last_update_to_pay_per_request_ms = 1'700'000'000'456;
  table.provisioned_throughput = {5, 7};
  table.last_increase_date_time_ms = 11;
  table.last_decrease_date_time_ms = 12;
  table.number_of_decreases_today = 3;
  table.on_demand_throughput.max_read_request_units = 100;
  table.stream_specification = StreamSpecification{true, StreamViewType::kOldImage};
  table.latest_stream_label = "2023-11-14T22:13:20.000";
  table.sse_description = SseSpecification{true, SseType::kKms, "alias/mine"};
  table.table_class = TableClass::kStandardInfrequentAccess;
  table.table_class_last_update_ms = 13;
  table.deletion_protection_enabled = true;
  table.time_to_live_attribute = "expires";
  table.time_to_live_updated_ms = 14;
  table.tags = {{"team", "orders"}, {"env", ""}};
  table.point_in_time_recovery_since_ms = 1'700'000'000'500;
  table.recovery_period_in_days = 7;
  table.warm_throughput = WarmThroughput{15000, 4500};
  table.resource_policies = {{table.table_arn, "{\"Version\":\"2012-10-17\"}", "1700000000123"},
                             {table.table_arn + "/stream/x", "{}", "1700000000124"}};
  table.kinesis_destinations = {
      {"arn:aws:kinesis:us-east-1:000000000000:stream/a", false, DestinationStatus::kDisabling,
       1'700'000'000'600, TimestampPrecision::kMillisecond, 0, ""},
      {"arn:aws:kinesis:us-east-1:000000000000:stream/b", true, DestinationStatus::kUpdating,
       1'700'000'000'700, TimestampPrecision::kMicrosecond, 0, ""}};
  // Kinesis delivery's: the enabling's time (its feed's label) and a failure's words.
  table.kinesis_destinations[0].enabled_ms = 1'700'000'000'100;
  table.kinesis_destinations[0].failure = "ResourceNotFoundException: Stream a not found";
  table.kinesis_destinations[1].enabled_ms = 1'700'000'000'200;
  IndexDescription local;
  local.definition.index_name = "by-b";
  local.definition.key_schema = {{"pk", KeyType::kHash}, {"b", KeyType::kRange}};
  local.definition.projection = {ProjectionType::kInclude, {"x", "y"}};
  local.slot = 0;
  IndexDescription global;
  global.definition.index_name = "by-n";
  global.definition.key_schema = {{"n", KeyType::kHash}};
  global.definition.projection.projection_type = ProjectionType::kKeysOnly;
  global.definition.provisioned_throughput = ProvisionedThroughput{0, 0};
  global.definition.on_demand_throughput = OnDemandThroughput{std::nullopt, 50};
  global.warm_throughput = WarmThroughput{13000, 4100};
  global.is_global = true;
  global.slot = 3;
  global.index_status = TableStatus::kCreating;
  global.backfilling = true;
  global.item_count = 9;
  global.index_size_bytes = 900;
  table.indexes = {local, global};
  ReplicaDescription east;
  east.region_name = "us-east-1";
  ReplicaDescription west;
  west.region_name = "us-west-2";
  west.status = ReplicaStatus::kCreating;
  west.kms_master_key_id = "alias/west";
  west.read_capacity_units_override = 7;
  west.max_read_request_units_override = 70;
  west.table_class_override = "STANDARD_INFREQUENT_ACCESS";
  west.index_overrides = {{"by-status", 3, std::nullopt}, {"other", std::nullopt, 30}};
  west.source_region = "us-east-1";
  west.created_ms = 1'700'000'000'500;
  west.status_until_ms = 1'700'000'001'500;
  west.account_id = "222222222222";  // a multi-account global table's member
  west.access_key_id = "222222222222";
  table.replicas = {east, west};
  table.settings_replication_mode = SettingsReplicationMode::kDisabled;
  AutoScalingSettings scaled{5, 50, false, "arn:aws:iam::1:role/scaling", {}};
  scaled.policies = {{"writes", true, 60, std::nullopt, 70.5}};
  table.auto_scaling.write = scaled;
  table.auto_scaling.index_writes = {{"by-status", {1, 2, true, std::nullopt, {}}}};
  table.auto_scaling.regions = {{"us-west-2", scaled, {{"by-status", scaled}}},
                                {"us-east-1", std::nullopt, {}}};
  table.item_count = 42;
  table.table_size_bytes = -1;  // negatives survive (zigzag)
  return table;
}

TEST_CASE("A table's description survives the log's codec field for field") {
  const TableDescription table = EveryField();
  const std::string bytes = EncodeTableDescription(table);
  auto decoded = DecodeTableDescription(bytes);
  REQUIRE(decoded.ok());
  CHECK(EncodeTableDescription(decoded.value()) == bytes);
  const TableDescription& back = decoded.value();
  CHECK(back.table_name == "Orders");
  CHECK(back.stream_specification->stream_view_type == StreamViewType::kOldImage);
  CHECK(back.sse_description->kms_master_key_id == "alias/mine");
  CHECK(back.indexes[1].definition.on_demand_throughput->max_write_request_units == 50);
  CHECK_FALSE(back.indexes[1].definition.on_demand_throughput->max_read_request_units);
  REQUIRE(back.indexes[1].warm_throughput);
  CHECK(back.indexes[1].warm_throughput->read_units_per_second == 13000);
  CHECK(back.indexes[1].warm_throughput->write_units_per_second == 4100);
  CHECK_FALSE(back.indexes[0].warm_throughput);
  CHECK_FALSE(back.indexes[0].definition.provisioned_throughput);
  CHECK(back.indexes[1].slot == 3);
  CHECK(back.table_size_bytes == -1);
  REQUIRE(back.resource_policies.size() == 2);
  CHECK(back.resource_policies[1].revision_id == "1700000000124");
  REQUIRE(back.kinesis_destinations.size() == 2);
  for (size_t i = 0; i < 2; ++i) {
    const KinesisDestination& want = table.kinesis_destinations[i];
    const KinesisDestination& got = back.kinesis_destinations[i];
    CHECK(got.stream_arn == want.stream_arn);
    CHECK(got.enabled == want.enabled);
    CHECK(got.transition == want.transition);
    CHECK(got.changed_ms == want.changed_ms);
    CHECK(got.precision == want.precision);
    CHECK(got.enabled_ms == want.enabled_ms);
    CHECK(got.failure == want.failure);
  }
  CHECK(back.replicas == table.replicas);
  CHECK(back.replicas[1].account_id == "222222222222");
  CHECK(back.settings_replication_mode == SettingsReplicationMode::kDisabled);
  CHECK(back.auto_scaling == table.auto_scaling);
  CHECK(back.auto_scaling.write->policies.at(0).target_value == 70.5);
  // Absent optionals stay absent.
  TableDescription plain;
  plain.table_name = "Plain";
  auto plain_back = DecodeTableDescription(EncodeTableDescription(plain));
  REQUIRE(plain_back.ok());
  CHECK_FALSE(plain_back.value().stream_specification);
  CHECK_FALSE(plain_back.value().sse_description);
  CHECK_FALSE(plain_back.value().table_class);
  CHECK_FALSE(plain_back.value().settings_replication_mode);
}

TEST_CASE("A vector index survives its codec inside the table's description") {
  TableDescription table = EveryField();
  VectorIndexDescription& index = table.vector_indexes.emplace_back();
  index.definition = {"by-embedding",
                      "embedding",
                      768,
                      VectorDistanceFunction::kDotProduct,
                      {{"tenant", SearchSchemaElement::Type::kHash},
                       {"color", SearchSchemaElement::Type::kInlineFilter}},
                      {ProjectionType::kInclude, {"title"}}};
  index.index_status = TableStatus::kCreating;
  index.backfilling = true;
  index.created_ms = 1'700'000'000'900;
  auto back = DecodeTableDescription(EncodeTableDescription(table));
  REQUIRE(back.ok());
  REQUIRE(back.value().vector_indexes.size() == 1);
  const VectorIndexDescription& got = back.value().vector_indexes[0];
  CHECK(got.definition == index.definition);
  CHECK(got.index_status == TableStatus::kCreating);
  CHECK(got.backfilling);
  CHECK(got.created_ms == index.created_ms);
  CHECK_FALSE(DecodeVectorIndex("\xff\xff"));
}

TEST_CASE("Fields a later ddbd adds are skipped, malformed bytes are refused") {
  FieldWriter later;
  later.Bytes(1, "Orders");
  later.Int(999, 7);            // unknown integer field
  later.Bytes(1000, "future");  // unknown bytes field
  auto read = DecodeTableDescription(later.bytes());
  REQUIRE(read.ok());
  CHECK(read.value().table_name == "Orders");
  const std::string bytes = EncodeTableDescription(EveryField());
  for (size_t cut : {size_t{1}, bytes.size() / 2, bytes.size() - 1}) {
    const auto cut_short = DecodeTableDescription(bytes.substr(0, cut));
    CHECK_FALSE(cut_short.ok());
  }
  CHECK(DecodeTableDescription("\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff").error().message() ==
        "malformed table description record");
  FieldWriter numbers;
  for (int64_t value : {int64_t{0}, int64_t{-1}, int64_t{1}, INT64_MIN, INT64_MAX}) {
    numbers.Int(1, value);
  }
  FieldReader reader(numbers.bytes());
  for (int64_t value : {int64_t{0}, int64_t{-1}, int64_t{1}, INT64_MIN, INT64_MAX}) {
    REQUIRE(reader.Next());
    CHECK(reader.integer() == value);
  }
  CHECK_FALSE(reader.Next());
  CHECK(reader.ok());
}

TEST_CASE("A stream's state, records and closing round-trip, malformed ones are refused") {
  StreamState state;
  state.summary = {"arn:aws:dynamodb:us-east-1:000000000000:table/T/stream/2024-01-01T00:00:00.000",
                   "T", "2024-01-01T00:00:00.000"};
  state.view_type = StreamViewType::kOldImage;
  state.key_schema = {{"pk", KeyType::kHash}, {"sk", KeyType::kRange}};
  state.open = false;
  state.creation_ms = 1'704'067'200'000;
  state.last_sequence = 42;
  state.last_shard_ms = 1'704'081'600'000;
  state.delivered = 17;  // a Kinesis feed's position
  state.shards = {{{"shardId-a", "", 1, 20}, 1'704'067'200'000, 1'704'081'600'000, 5},
                  {{"shardId-b", "shardId-a", 21, std::nullopt}, 1'704'081'600'000, 0, 21}};
  auto read = DecodeStreamState(EncodeStreamState(state));
  REQUIRE(read.ok());
  const StreamState& back = read.value();
  CHECK(back.summary.stream_arn == state.summary.stream_arn);
  CHECK(back.summary.table_name == "T");
  CHECK(back.summary.stream_label == state.summary.stream_label);
  CHECK(back.view_type == StreamViewType::kOldImage);
  REQUIRE(back.key_schema.size() == 2);
  CHECK(back.key_schema[1].attribute_name == "sk");
  CHECK(back.key_schema[1].key_type == KeyType::kRange);
  CHECK_FALSE(back.open);
  CHECK(back.creation_ms == state.creation_ms);
  CHECK(back.last_sequence == 42);
  CHECK(back.last_shard_ms == state.last_shard_ms);
  CHECK(back.delivered == 17);
  REQUIRE(back.shards.size() == 2);
  CHECK(back.shards[0].description.ending_sequence == 20u);
  CHECK_FALSE(back.shards[1].description.ending_sequence);
  CHECK(back.shards[1].description.parent_shard_id == "shardId-a");
  CHECK(back.shards[0].first_retained == 5);
  CHECK(back.shards[0].closed_ms == state.shards[0].closed_ms);

  StreamRecord record;
  record.sequence = 7;
  record.created_ms = 1'704'067'201'000;
  record.kind = ChangeKind::kRemove;
  record.by_time_to_live = true;
  record.old_size = 30;
  record.keys = std::string("\x01\x00k", 3);
  record.old_image = "old";
  const std::string encoded = EncodeStreamRecord("arn", record);
  auto decoded = DecodeStreamRecord(encoded);  // views into `encoded`
  REQUIRE(decoded.ok());
  CHECK(decoded.value().stream_arn == "arn");
  const StreamRecord& copy = decoded.value().record;
  CHECK((copy.sequence == 7 && copy.created_ms == record.created_ms));
  CHECK((copy.kind == ChangeKind::kRemove && copy.by_time_to_live));
  CHECK((copy.old_size == 30 && copy.new_size == 0));
  CHECK((copy.keys == record.keys && copy.old_image == "old" && copy.new_image.empty()));
  const std::string closing = EncodeStreamClosed("arn", 99);
  auto closed = DecodeStreamClosed(closing);
  REQUIRE(closed.ok());
  CHECK((closed.value().stream_arn == "arn" && closed.value().closed_ms == 99));
  const std::string delivery = EncodeStreamDelivered("feed", 12);
  auto delivered = DecodeStreamDelivered(delivery);  // views into `delivery`
  REQUIRE(delivered.ok());
  CHECK((delivered.value().stream_arn == "feed" && delivered.value().sequence == 12));
  CHECK_FALSE(DecodeStreamDelivered("").ok());

  record.kind = ChangeKind::kNone;  // never a record's kind
  CHECK_FALSE(DecodeStreamRecord(EncodeStreamRecord("arn", record)).ok());
  CHECK_FALSE(DecodeStreamRecord(EncodeStreamClosed("arn", 1)).ok());  // no sequence or kind
  CHECK_FALSE(DecodeStreamState("\xff\xff").ok());
  CHECK_FALSE(DecodeStreamClosed("").ok());
}

}  // namespace
}  // namespace ddbd
