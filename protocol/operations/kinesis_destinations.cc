// EnableKinesisStreamingDestination, DisableKinesisStreamingDestination,
// UpdateKinesisStreamingDestination and DescribeKinesisStreamingDestination: the engine's
// settings (engine/kinesis/streaming_destinations.h) on the wire.
#include "protocol/generated/requests.h"
#include "protocol/operations/operations.h"
#include "protocol/table_decode.h"

namespace ddbd::operations {
namespace {

// The engine's statuses are the wire's, in the model's order.
wire::DestinationStatus DestinationWireStatus(DestinationStatus status) {
  static_assert(static_cast<int>(DestinationStatus::kUpdating) ==
                static_cast<int>(wire::DestinationStatus::kUpdating));
  return static_cast<wire::DestinationStatus>(status);
}

wire::ApproximateCreationDateTimePrecision WirePrecision(TimestampPrecision precision) {
  return precision == TimestampPrecision::kMillisecond
             ? wire::ApproximateCreationDateTimePrecision::kMillisecond
             : wire::ApproximateCreationDateTimePrecision::kMicrosecond;
}

// A configuration's precision (the generated reader has checked it is one of the two).
template <class Configuration>
std::optional<TimestampPrecision> PrecisionOf(const json::Value* object) {
  if (object == nullptr) return std::nullopt;
  Configuration configuration;
  wire::View(*object, configuration);
  if (!configuration.approximate_creation_date_time_precision) return std::nullopt;
  return *configuration.approximate_creation_date_time_precision == "MILLISECOND"
             ? TimestampPrecision::kMillisecond
             : TimestampPrecision::kMicrosecond;
}

KinesisDestinationArgs ArgsOf(const Engine& engine, std::string_view table_name,
                              std::string_view stream_arn,
                              std::optional<TimestampPrecision> precision) {
  return {TableNameOf(engine, table_name), std::string(stream_arn), precision};
}

// Enable's and Disable's answer; Enable echoes the configuration it was given.
void WriteOutcome(const KinesisDestinationOutcome& outcome, json::Writer& response) {
  wire::Write<wire::out::KinesisStreamingDestinationOutput>(response, [&](auto& out) {
    out.TableName(outcome.table_name);
    out.StreamArn(outcome.stream_arn);
    out.DestinationStatus(DestinationWireStatus(outcome.status));
    if (outcome.precision) {
      out.EnableKinesisStreamingConfiguration(
          [&](wire::out::EnableKinesisStreamingConfiguration& configuration) {
            configuration.ApproximateCreationDateTimePrecision(WirePrecision(*outcome.precision));
          });
    }
  });
}

}  // namespace

Status EnableKinesisStreamingDestination(Engine& engine,
                                         const wire::KinesisStreamingDestinationInput& in,
                                         json::Writer& response, Ticket& ticket) {
  auto enabled = engine.EnableKinesisStreamingDestination(
      ArgsOf(engine, in.table_name, in.stream_arn,
             PrecisionOf<wire::EnableKinesisStreamingConfiguration>(
                 in.enable_kinesis_streaming_configuration)));
  if (!enabled.ok()) return enabled.error();
  ticket = enabled.value().ticket;
  WriteOutcome(enabled.value(), response);
  return Ok{};
}

Status DisableKinesisStreamingDestination(Engine& engine,
                                          const wire::KinesisStreamingDestinationInput& in,
                                          json::Writer& response, Ticket& ticket) {
  // A configuration given to a disable is not DynamoDB's to read: it answers without one.
  auto disabled = engine.DisableKinesisStreamingDestination(
      ArgsOf(engine, in.table_name, in.stream_arn, std::nullopt));
  if (!disabled.ok()) return disabled.error();
  ticket = disabled.value().ticket;
  WriteOutcome(disabled.value(), response);
  return Ok{};
}

Status UpdateKinesisStreamingDestination(Engine& engine,
                                         const wire::UpdateKinesisStreamingDestinationInput& in,
                                         json::Writer& response, Ticket& ticket) {
  auto updated = engine.UpdateKinesisStreamingDestination(
      ArgsOf(engine, in.table_name, in.stream_arn,
             PrecisionOf<wire::UpdateKinesisStreamingConfiguration>(
                 in.update_kinesis_streaming_configuration)));
  if (!updated.ok()) return updated.error();
  ticket = updated.value().ticket;
  const KinesisDestinationOutcome& outcome = updated.value();
  wire::Write<wire::out::UpdateKinesisStreamingDestinationOutput>(response, [&](auto& out) {
    out.TableName(outcome.table_name);
    out.StreamArn(outcome.stream_arn);
    out.DestinationStatus(DestinationWireStatus(outcome.status));
    out.UpdateKinesisStreamingConfiguration(
        [&](wire::out::UpdateKinesisStreamingConfiguration& configuration) {
          configuration.ApproximateCreationDateTimePrecision(WirePrecision(*outcome.precision));
        });
  });
  return Ok{};
}

Status DescribeKinesisStreamingDestination(Engine& engine,
                                           const wire::DescribeKinesisStreamingDestinationInput& in,
                                           json::Writer& response) {
  auto described = engine.DescribeKinesisStreamingDestination(TableNameOf(engine, in.table_name));
  if (!described.ok()) return described.error();
  wire::Write<wire::out::DescribeKinesisStreamingDestinationOutput>(response, [&](auto& out) {
    out.TableName(described.value().table_name);
    out.KinesisDataStreamDestinations([&](wire::out::KinesisDataStreamDestinations& list) {
      for (const KinesisDestinationDescription& destination : described.value().destinations) {
        list.Add([&](wire::out::KinesisDataStreamDestination& entry) {
          entry.StreamArn(destination.stream_arn);
          entry.DestinationStatus(DestinationWireStatus(destination.status));
          if (!destination.status_description.empty()) {
            entry.DestinationStatusDescription(destination.status_description);
          }
          entry.ApproximateCreationDateTimePrecision(WirePrecision(destination.precision));
        });
      }
    });
  });
  return Ok{};
}

}  // namespace ddbd::operations
