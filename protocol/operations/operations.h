// One function per DynamoDB operation, each in its own file: decode the request, call the
// engine, encode the response. Handlers are plain functions, testable without sockets.
#pragma once

#include <cstdint>
#include <string_view>

#include "engine/engine.h"
#include "engine/error.h"
#include "protocol/dispatcher.h"
#include "protocol/generated/responses.h"
#include "protocol/json_reader.h"
#include "protocol/json_writer.h"

namespace ddbd::operations {

// `request` is the parsed JSON object; on success the response body is written to `response`.
using Handler = Status (*)(Engine& engine, const json::Value& request, json::Writer& response);
// An operation that changes data: `ticket` gets what its answer waits for, its engine outcome's
// (Engine::WhenDurable); nothing logged leaves it 0 and the answer goes at once.
using WriteHandler = Status (*)(Engine& engine, const json::Value& request, json::Writer& response,
                                Ticket& ticket);
// An operation that changes data and may answer later (a held transaction): it answers through
// Answer below, from any thread. The request is read before the call returns. `fingerprint` is a
// hash of the body's bytes as sent: it stands for the parameters a ClientRequestToken is bound
// to (an SDK's retry sends the same bytes).
using AsyncHandler = void (*)(Engine& engine, const json::Value& request, uint64_t fingerprint,
                              const DispatchDone& done);
// Hands `result` to `done` once `ticket`'s log record is durable (at once for ticket 0), or
// InternalServerError if it failed: how every write is answered (protocol/dispatcher.cc).
void Answer(Engine& engine, const DispatchDone& done, DispatchResult result, Ticket ticket);
// An operation whose answer depends on the request's HTTP side (RequestInfo), not the data.
using InfoHandler = Status (*)(const Engine& engine, const RequestInfo& info,
                               const json::Value& request, json::Writer& response);

Status BatchGetItem(Engine& engine, const json::Value& request, json::Writer& response);
Status BatchWriteItem(Engine& engine, const json::Value& request, json::Writer& response,
                      Ticket& ticket);
Status CreateTable(Engine& engine, const json::Value& request, json::Writer& response,
                   Ticket& ticket);
Status DeleteItem(Engine& engine, const json::Value& request, json::Writer& response,
                  Ticket& ticket);
Status DeleteTable(Engine& engine, const json::Value& request, json::Writer& response,
                   Ticket& ticket);
Status DescribeEndpoints(const Engine& engine, const RequestInfo& info, const json::Value& request,
                         json::Writer& response);
Status CreateBackup(Engine& engine, const json::Value& request, json::Writer& response);
Status DescribeBackup(Engine& engine, const json::Value& request, json::Writer& response);
Status DeleteBackup(Engine& engine, const json::Value& request, json::Writer& response);
Status ListBackups(Engine& engine, const json::Value& request, json::Writer& response);
Status RestoreTableFromBackup(Engine& engine, const json::Value& request, json::Writer& response,
                              Ticket& ticket);
Status RestoreTableToPointInTime(Engine& engine, const json::Value& request, json::Writer& response,
                                 Ticket& ticket);
Status DescribeContinuousBackups(Engine& engine, const json::Value& request,
                                 json::Writer& response);
Status UpdateContinuousBackups(Engine& engine, const json::Value& request, json::Writer& response,
                               Ticket& ticket);
Status DeleteResourcePolicy(Engine& engine, const json::Value& request, json::Writer& response,
                            Ticket& ticket);
Status GetResourcePolicy(Engine& engine, const json::Value& request, json::Writer& response);
Status PutResourcePolicy(Engine& engine, const json::Value& request, json::Writer& response,
                         Ticket& ticket);
Status ExecuteStatement(Engine& engine, const json::Value& request, json::Writer& response,
                        Ticket& ticket);
Status BatchExecuteStatement(Engine& engine, const json::Value& request, json::Writer& response,
                             Ticket& ticket);
void ExecuteTransaction(Engine& engine, const json::Value& request, uint64_t fingerprint,
                        const DispatchDone& done);
Status DescribeLimits(Engine& engine, const json::Value& request, json::Writer& response);
Status DescribeTimeToLive(Engine& engine, const json::Value& request, json::Writer& response);
Status DescribeTable(Engine& engine, const json::Value& request, json::Writer& response);
Status GetItem(Engine& engine, const json::Value& request, json::Writer& response);
Status ListTables(Engine& engine, const json::Value& request, json::Writer& response);
Status PutItem(Engine& engine, const json::Value& request, json::Writer& response, Ticket& ticket);
Status Query(Engine& engine, const json::Value& request, json::Writer& response);
Status Scan(Engine& engine, const json::Value& request, json::Writer& response);
Status ListTagsOfResource(Engine& engine, const json::Value& request, json::Writer& response);
Status TagResource(Engine& engine, const json::Value& request, json::Writer& response,
                   Ticket& ticket);
Status UntagResource(Engine& engine, const json::Value& request, json::Writer& response,
                     Ticket& ticket);
Status TransactGetItems(Engine& engine, const json::Value& request, json::Writer& response);
void TransactWriteItems(Engine& engine, const json::Value& request, uint64_t fingerprint,
                        const DispatchDone& done);
Status UpdateItem(Engine& engine, const json::Value& request, json::Writer& response,
                  Ticket& ticket);
Status UpdateTable(Engine& engine, const json::Value& request, json::Writer& response,
                   Ticket& ticket);
Status UpdateTimeToLive(Engine& engine, const json::Value& request, json::Writer& response,
                        Ticket& ticket);

// DynamoDB Streams (the DynamoDBStreams_20120810 target).
Status ListStreams(Engine& engine, const json::Value& request, json::Writer& response);
Status DescribeStream(Engine& engine, const json::Value& request, json::Writer& response);
Status GetShardIterator(Engine& engine, const json::Value& request, json::Writer& response);
Status GetRecords(Engine& engine, const json::Value& request, json::Writer& response);

}  // namespace ddbd::operations
