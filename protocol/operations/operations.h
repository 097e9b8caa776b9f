// One function per DynamoDB operation, each in its own file: decode the request, call the
// engine, encode the response. Handlers are plain functions, testable without sockets.
#pragma once

#include <cstdint>
#include <string_view>

#include "engine/engine.h"
#include "engine/error.h"
#include "protocol/dispatcher.h"
#include "protocol/json_reader.h"
#include "protocol/json_writer.h"

namespace ddbd::operations {

// `request` is the parsed JSON object; on success the response body is written to `response`.
using Handler = Status (*)(Engine& engine, const json::Value& request, json::Writer& response);
// An operation that may answer later: `done` gets the whole answer, from any thread. The request
// is read before the call returns. `fingerprint` is a hash of the body's bytes as sent: it stands
// for the parameters a ClientRequestToken is bound to (an SDK's retry sends the same bytes).
using AsyncHandler = void (*)(Engine& engine, const json::Value& request, uint64_t fingerprint,
                              const DispatchDone& done);
// An operation whose answer depends on the request's HTTP side (RequestInfo), not the data.
using InfoHandler = Status (*)(const Engine& engine, const RequestInfo& info,
                               const json::Value& request, json::Writer& response);

Status BatchGetItem(Engine& engine, const json::Value& request, json::Writer& response);
Status BatchWriteItem(Engine& engine, const json::Value& request, json::Writer& response);
Status CreateTable(Engine& engine, const json::Value& request, json::Writer& response);
Status DeleteItem(Engine& engine, const json::Value& request, json::Writer& response);
Status DeleteTable(Engine& engine, const json::Value& request, json::Writer& response);
Status DescribeEndpoints(const Engine& engine, const RequestInfo& info, const json::Value& request,
                         json::Writer& response);
Status CreateBackup(Engine& engine, const json::Value& request, json::Writer& response);
Status DescribeBackup(Engine& engine, const json::Value& request, json::Writer& response);
Status DeleteBackup(Engine& engine, const json::Value& request, json::Writer& response);
Status ListBackups(Engine& engine, const json::Value& request, json::Writer& response);
Status RestoreTableFromBackup(Engine& engine, const json::Value& request, json::Writer& response);
Status RestoreTableToPointInTime(Engine& engine, const json::Value& request,
                                 json::Writer& response);
Status DescribeContinuousBackups(Engine& engine, const json::Value& request,
                                 json::Writer& response);
Status UpdateContinuousBackups(Engine& engine, const json::Value& request, json::Writer& response);
Status DeleteResourcePolicy(Engine& engine, const json::Value& request, json::Writer& response);
Status GetResourcePolicy(Engine& engine, const json::Value& request, json::Writer& response);
Status PutResourcePolicy(Engine& engine, const json::Value& request, json::Writer& response);
Status ExecuteStatement(Engine& engine, const json::Value& request, json::Writer& response);
Status BatchExecuteStatement(Engine& engine, const json::Value& request, json::Writer& response);
void ExecuteTransactionAsync(Engine& engine, const json::Value& request, uint64_t fingerprint,
                             const DispatchDone& done);
Status DescribeLimits(Engine& engine, const json::Value& request, json::Writer& response);
Status DescribeTimeToLive(Engine& engine, const json::Value& request, json::Writer& response);
Status DescribeTable(Engine& engine, const json::Value& request, json::Writer& response);
Status GetItem(Engine& engine, const json::Value& request, json::Writer& response);
Status ListTables(Engine& engine, const json::Value& request, json::Writer& response);
Status PutItem(Engine& engine, const json::Value& request, json::Writer& response);
Status Query(Engine& engine, const json::Value& request, json::Writer& response);
Status Scan(Engine& engine, const json::Value& request, json::Writer& response);
Status ListTagsOfResource(Engine& engine, const json::Value& request, json::Writer& response);
Status TagResource(Engine& engine, const json::Value& request, json::Writer& response);
Status UntagResource(Engine& engine, const json::Value& request, json::Writer& response);
Status TransactGetItems(Engine& engine, const json::Value& request, json::Writer& response);
void TransactWriteItemsAsync(Engine& engine, const json::Value& request, uint64_t fingerprint,
                             const DispatchDone& done);
Status UpdateItem(Engine& engine, const json::Value& request, json::Writer& response);
Status UpdateTable(Engine& engine, const json::Value& request, json::Writer& response);
Status UpdateTimeToLive(Engine& engine, const json::Value& request, json::Writer& response);

// DynamoDB Streams (the DynamoDBStreams_20120810 target).
Status ListStreams(Engine& engine, const json::Value& request, json::Writer& response);
Status DescribeStream(Engine& engine, const json::Value& request, json::Writer& response);
Status GetShardIterator(Engine& engine, const json::Value& request, json::Writer& response);
Status GetRecords(Engine& engine, const json::Value& request, json::Writer& response);

}  // namespace ddbd::operations
