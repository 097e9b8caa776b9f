// One function per operation, each in its own file: its own rules over the request the generated
// layer read, one engine call, the answer. Handlers are plain functions, testable without sockets.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "engine/engine.h"
#include "engine/error.h"
#include "protocol/dispatcher.h"
#include "protocol/generated/requests.h"
#include "protocol/generated/responses.h"
#include "protocol/json_reader.h"
#include "protocol/json_writer.h"

namespace ddbd::operations {

// Each handler gets its request read and checked by the generated layer: the struct of its input
// (protocol/generated/requests.h), and, when the input holds attribute values, the constraints'
// answer apart (`constraints`: the handler reports it after the values' own
// SerializationExceptions, as DynamoDB does). The dispatcher reads the body into the struct
// (protocol/dispatcher.cc); the handler's signature says how it answers:
// - at once: Status X(Engine&, const wire::XInput&, [const Status& constraints,] json::Writer&);
// - a change to data: the same with `Ticket& ticket` last, which gets what its answer waits for,
//   its engine outcome's (Engine::WhenDurable); nothing logged leaves it 0 and the answer goes at
//   once;
// - later, from any thread (a held transaction): void X(Engine&, const wire::XInput&,
//   const Status& constraints, uint64_t fingerprint, const DispatchDone& done), answering through
//   Answer below. `fingerprint` is a hash of the body's bytes as sent: it stands for the
//   parameters a ClientRequestToken is bound to (an SDK's retry sends the same bytes);
// - from the request's HTTP side (RequestInfo), not the data: Status X(const Engine&,
//   const RequestInfo&, const wire::XInput&, json::Writer&).

// Hands `result` to `done` once `ticket`'s log record is durable (at once for ticket 0), or
// InternalServerError if it failed: how every write is answered (protocol/dispatcher.cc).
void Answer(Engine& engine, const DispatchDone& done, DispatchResult result, Ticket ticket);

// An optional member's text, owned (for the engine's arguments).
inline std::optional<std::string> Text(const std::optional<std::string_view>& text) {
  return text ? std::optional<std::string>(*text) : std::nullopt;
}

Status BatchExecuteStatement(Engine&, const wire::BatchExecuteStatementInput&, const Status&,
                             json::Writer&, Ticket&);
Status BatchGetItem(Engine&, const wire::BatchGetItemInput&, const Status&, json::Writer&);
Status BatchWriteItem(Engine&, const wire::BatchWriteItemInput&, const Status&, json::Writer&,
                      Ticket&);
Status CreateBackup(Engine&, const wire::CreateBackupInput&, json::Writer&);
Status CreateTable(Engine&, const wire::CreateTableInput&, json::Writer&, Ticket&);
Status DeleteBackup(Engine&, const wire::DeleteBackupInput&, json::Writer&);
Status DeleteItem(Engine&, const wire::DeleteItemInput&, const Status&, json::Writer&, Ticket&);
Status DeleteResourcePolicy(Engine&, const wire::DeleteResourcePolicyInput&, json::Writer&,
                            Ticket&);
Status DeleteTable(Engine&, const wire::DeleteTableInput&, json::Writer&, Ticket&);
Status DescribeBackup(Engine&, const wire::DescribeBackupInput&, json::Writer&);
Status DescribeContinuousBackups(Engine&, const wire::DescribeContinuousBackupsInput&,
                                 json::Writer&);
Status DescribeEndpoints(const Engine&, const RequestInfo&, const wire::DescribeEndpointsRequest&,
                         json::Writer&);
Status DescribeLimits(Engine&, const wire::DescribeLimitsInput&, json::Writer&);
Status DescribeTable(Engine&, const wire::DescribeTableInput&, json::Writer&);
Status DescribeTimeToLive(Engine&, const wire::DescribeTimeToLiveInput&, json::Writer&);
Status EnableKinesisStreamingDestination(Engine&, const wire::KinesisStreamingDestinationInput&,
                                         json::Writer&, Ticket&);
Status DisableKinesisStreamingDestination(Engine&, const wire::KinesisStreamingDestinationInput&,
                                          json::Writer&, Ticket&);
Status UpdateKinesisStreamingDestination(Engine&,
                                         const wire::UpdateKinesisStreamingDestinationInput&,
                                         json::Writer&, Ticket&);
Status DescribeKinesisStreamingDestination(Engine&,
                                           const wire::DescribeKinesisStreamingDestinationInput&,
                                           json::Writer&);
Status UpdateContributorInsights(Engine&, const wire::UpdateContributorInsightsInput&,
                                 json::Writer&, Ticket&);
Status DescribeContributorInsights(Engine&, const wire::DescribeContributorInsightsInput&,
                                   json::Writer&);
Status ListContributorInsights(Engine&, const wire::ListContributorInsightsInput&, json::Writer&);
Status DescribeGlobalTable(Engine&, const wire::DescribeGlobalTableInput&, json::Writer&);
Status ListGlobalTables(Engine&, const wire::ListGlobalTablesInput&, json::Writer&);
Status DescribeGlobalTableSettings(Engine&, const wire::DescribeGlobalTableSettingsInput&,
                                   json::Writer&);
Status DescribeTableReplicaAutoScaling(Engine&, const wire::DescribeTableReplicaAutoScalingInput&,
                                       json::Writer&);
Status ExportTableToPointInTime(Engine&, const wire::ExportTableToPointInTimeInput&, json::Writer&);
Status DescribeExport(Engine&, const wire::DescribeExportInput&, json::Writer&);
Status ListExports(Engine&, const wire::ListExportsInput&, json::Writer&);
Status ImportTable(Engine&, const wire::ImportTableInput&, json::Writer&);
Status DescribeImport(Engine&, const wire::DescribeImportInput&, json::Writer&);
Status ListImports(Engine&, const wire::ListImportsInput&, json::Writer&);
Status ExecuteStatement(Engine&, const wire::ExecuteStatementInput&, const Status&, json::Writer&,
                        Ticket&);
void ExecuteTransaction(Engine&, const wire::ExecuteTransactionInput&, const Status&, uint64_t,
                        const DispatchDone&);
Status GetItem(Engine&, const wire::GetItemInput&, const Status&, json::Writer&);
Status GetResourcePolicy(Engine&, const wire::GetResourcePolicyInput&, json::Writer&);
Status ListBackups(Engine&, const wire::ListBackupsInput&, json::Writer&);
Status ListTables(Engine&, const wire::ListTablesInput&, json::Writer&);
Status ListTagsOfResource(Engine&, const wire::ListTagsOfResourceInput&, json::Writer&);
Status PutItem(Engine&, const wire::PutItemInput&, const Status&, json::Writer&, Ticket&);
Status PutResourcePolicy(Engine&, const wire::PutResourcePolicyInput&, json::Writer&, Ticket&);
Status Query(Engine&, const wire::QueryInput&, const Status&, json::Writer&);
Status RestoreTableFromBackup(Engine&, const wire::RestoreTableFromBackupInput&, json::Writer&,
                              Ticket&);
Status RestoreTableToPointInTime(Engine&, const wire::RestoreTableToPointInTimeInput&,
                                 json::Writer&, Ticket&);
Status Scan(Engine&, const wire::ScanInput&, const Status&, json::Writer&);
Status SearchVectors(Engine&, const wire::SearchVectorsInput&, const Status&, json::Writer&);
Status TagResource(Engine&, const wire::TagResourceInput&, json::Writer&, Ticket&);
Status TransactGetItems(Engine&, const wire::TransactGetItemsInput&, const Status&, json::Writer&);
void TransactWriteItems(Engine&, const wire::TransactWriteItemsInput&, const Status&, uint64_t,
                        const DispatchDone&);
Status UntagResource(Engine&, const wire::UntagResourceInput&, json::Writer&, Ticket&);
Status UpdateContinuousBackups(Engine&, const wire::UpdateContinuousBackupsInput&, json::Writer&,
                               Ticket&);
Status UpdateItem(Engine&, const wire::UpdateItemInput&, const Status&, json::Writer&, Ticket&);
Status UpdateTable(Engine&, const wire::UpdateTableInput&, json::Writer&, Ticket&);
Status UpdateTimeToLive(Engine&, const wire::UpdateTimeToLiveInput&, json::Writer&, Ticket&);
Status CreateGlobalTable(Engine&, const wire::CreateGlobalTableInput&, json::Writer&, Ticket&);
Status UpdateGlobalTable(Engine&, const wire::UpdateGlobalTableInput&, json::Writer&, Ticket&);
Status UpdateGlobalTableSettings(Engine&, const wire::UpdateGlobalTableSettingsInput&,
                                 json::Writer&, Ticket&);
Status UpdateTableReplicaAutoScaling(Engine&, const wire::UpdateTableReplicaAutoScalingInput&,
                                     json::Writer&, Ticket&);

// DynamoDB Streams (the DynamoDBStreams_20120810 target).
Status ListStreams(Engine&, const wire::StreamsListStreamsInput&, json::Writer&);
Status DescribeStream(Engine&, const wire::StreamsDescribeStreamInput&, json::Writer&);
Status GetShardIterator(Engine&, const wire::StreamsGetShardIteratorInput&, json::Writer&);
Status GetRecords(Engine&, const wire::StreamsGetRecordsInput&, json::Writer&);

}  // namespace ddbd::operations
