// The operation table (table.cc): what the dispatcher finds a target's handler in.
#pragma once

#include <cstdint>
#include <string_view>

#include "engine/engine.h"
#include "engine/error.h"
#include "protocol/dispatcher.h"
#include "protocol/json_reader.h"
#include "protocol/json_writer.h"

namespace ddbd::operations {

// The untyped forms of the handlers (operations.h): each reads the body into its handler's input
// first, and answers a request that does not read as that input's SerializationException or
// ValidationException.
using Handler = Status (*)(Engine& engine, const json::Value& body, json::Writer& response);
using WriteHandler = Status (*)(Engine& engine, const json::Value& body, json::Writer& response,
                                Ticket& ticket);
using AsyncHandler = void (*)(Engine& engine, const json::Value& body, uint64_t fingerprint,
                              const DispatchDone& done);
using InfoHandler = Status (*)(const Engine& engine, const RequestInfo& info,
                               const json::Value& body, json::Writer& response);

// An operation that reads answers at once (`handler`); one that changes data answers with its
// outcome's ticket (`write`), or, if it may wait, through a callback with it (`async`). Its type
// says which: a write cannot be registered without the ticket its answer waits for.
struct Operation {
  Handler handler = nullptr;
  WriteHandler write = nullptr;
  AsyncHandler async = nullptr;
  InfoHandler with_info = nullptr;
  // Changes data: refused while the store's log cannot be written.
  bool writes() const { return write != nullptr || async != nullptr; }
};

// The operation `target` ("DynamoDB_20120810.PutItem", "DynamoDBStreams_20120810.GetRecords")
// names, or null.
const Operation* Find(std::string_view target);

}  // namespace ddbd::operations
