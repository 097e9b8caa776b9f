// Kinesis streaming destinations' settings (engine/kinesis/streaming_destinations.h) through the
// engine, on a manual clock: statuses in transit and settled, and the rules between them.
#include <catch2/catch.hpp>

#include "engine/clock.h"
#include "engine/engine.h"
#include "engine/kinesis/streaming_destinations.h"
#include "tests/engine/engine_calls.h"

namespace ddbd {
namespace {

constexpr char kKinesisDestinationsStream[] =
    "arn:aws:kinesis:us-east-1:000000000000:stream/orders";

TEST_CASE(
    "A destination shows ENABLING, UPDATING and DISABLING for the table delay, then settles") {
  KinesisDestination destination{kKinesisDestinationsStream,
                                 true,
                                 DestinationStatus::kEnabling,
                                 1000,
                                 TimestampPrecision::kMicrosecond,
                                 1000,
                                 ""};
  CHECK(StatusAt(destination, 1000, 50) == DestinationStatus::kEnabling);
  CHECK(StatusAt(destination, 1049, 50) == DestinationStatus::kEnabling);
  CHECK(StatusAt(destination, 1050, 50) == DestinationStatus::kActive);
  CHECK(StatusAt(destination, 1000, 0) == DestinationStatus::kActive);
  destination.enabled = false;
  destination.transition = DestinationStatus::kDisabling;
  CHECK(StatusAt(destination, 1010, 50) == DestinationStatus::kDisabling);
  CHECK(StatusAt(destination, 1060, 50) == DestinationStatus::kDisabled);
}

TEST_CASE("Enable, update and disable move a destination by DynamoDB's rules") {
  ManualClock clock;
  EngineOptions options;
  options.table_delay_ms = 100;
  Engine engine(options, clock);
  REQUIRE(engine.CreateTable(testing::OnDemandHashTable("Orders")).ok());
  clock.AdvanceMs(100);
  KinesisDestinationArgs args{"Orders", kKinesisDestinationsStream, std::nullopt};

  auto enabled = engine.EnableKinesisStreamingDestination(args);
  REQUIRE(enabled.ok());
  CHECK(enabled.value().status == DestinationStatus::kEnabling);
  auto described = engine.DescribeKinesisStreamingDestination("Orders");
  REQUIRE(described.ok());
  REQUIRE(described.value().destinations.size() == 1);
  CHECK(described.value().destinations[0].status == DestinationStatus::kEnabling);
  CHECK(described.value().destinations[0].precision == TimestampPrecision::kMicrosecond);
  // In transit: neither another enable nor a disable.
  CHECK_FALSE(engine.EnableKinesisStreamingDestination(args).ok());
  CHECK_FALSE(engine.DisableKinesisStreamingDestination(args).ok());
  clock.AdvanceMs(100);
  CHECK(engine.DescribeKinesisStreamingDestination("Orders").value().destinations[0].status ==
        DestinationStatus::kActive);

  args.precision = TimestampPrecision::kMillisecond;
  REQUIRE(engine.UpdateKinesisStreamingDestination(args).ok());
  CHECK_FALSE(engine.UpdateKinesisStreamingDestination(args).ok());  // UPDATING
  clock.AdvanceMs(100);
  CHECK(engine.DescribeKinesisStreamingDestination("Orders").value().destinations[0].precision ==
        TimestampPrecision::kMillisecond);

  auto disabled = engine.DisableKinesisStreamingDestination(args);
  REQUIRE(disabled.ok());
  CHECK(disabled.value().status == DestinationStatus::kDisabling);
  clock.AdvanceMs(100);
  CHECK(engine.DescribeKinesisStreamingDestination("Orders").value().destinations[0].status ==
        DestinationStatus::kDisabled);
  auto again = engine.DisableKinesisStreamingDestination(args);
  REQUIRE_FALSE(again.ok());
  CHECK(again.error().message() ==
        "Table is not in a valid state to enable Kinesis Streaming Destination: "
        "KinesisStreamingDestination must be ACTIVE to perform DISABLE operation.");
  CHECK(engine.EnableKinesisStreamingDestination(args).ok());
}

}  // namespace
}  // namespace ddbd
