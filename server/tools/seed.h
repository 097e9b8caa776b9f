// Seed data (--seed): tables and items described by files, applied through the request handler as
// the API requests they stand for (CreateTable, UpdateTimeToLive, PutItem), before the server
// accepts connections. This part reads the files' JSON; server/seed_files.* finds and reads the
// files. The same formats are what `ddbd dump` writes and `ddbd load` reads:
//   <Table>.table.json        CreateTable's request shape (what `aws dynamodb create-table
//                             --cli-input-json` takes), or describe-table's output ({"Table":
//                             {...}}), either with optional TimeToLiveSpecification and Tags
//   <Table>.items.jsonl[.gz]  one item a line: DynamoDB JSON ({"pk": {"S": "a"}}), or DynamoDB's
//                             S3 export line ({"Item": {...}})
//
// Thread safety: one loader per thread.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/error.h"
#include "protocol/dispatcher.h"

namespace ddbd {

// A table file read: the CreateTable request to send, and what follows it.
struct SeedTable {
  std::string table_name;
  std::string create_table;                        // CreateTable's JSON body (Tags included)
  std::optional<std::string> update_time_to_live;  // UpdateTimeToLive's JSON body, if enabled
};

// Reads a table file. ValidationException "FILE:LINE: reason" if it is not one of the shapes.
Result<SeedTable> ReadSeedTable(std::string_view file, std::string_view text);

// One item line as DynamoDB JSON text (an S3 export line's Item), or nullopt for a blank line.
// ValidationException "reason" if the line is not a JSON object of that kind.
Result<std::optional<std::string>> SeedItemJson(std::string_view line);

// An error answer as "<type without its namespace>: <message>" (the body itself if it is not
// JSON), for messages that quote what an endpoint or the dispatcher refused.
std::string AnswerError(const DispatchResult& result);

// How deeply `json` nests objects and arrays (strings skipped), counted without recursion: the
// seed and dump code copies and writes parsed values recursively, so it refuses text nested
// deeper than kMaxSeedDepth first. DynamoDB's 32 levels of nesting are 64 or so in JSON.
inline constexpr size_t kMaxSeedDepth = 200;
size_t JsonDepth(std::string_view json);

class SeedLoader {
 public:
  // `handler` gets the requests (as a client with a well-formed signature would send them).
  explicit SeedLoader(const RequestHandler& handler) : handler_(handler) {}

  // Creates the table and turns its Time to Live on. Returns false, doing nothing, if a table of
  // that name exists already. The error says "FILE: reason".
  Result<bool> CreateTable(std::string_view file, const SeedTable& table);
  // Puts every item of an items file into `table_name`, many requests in flight (a store's group
  // commit then syncs many at once). `progress(items)` is called every 100,000 items. Returns
  // how many were put; the error says "FILE:LINE: reason" for the first line that failed.
  Result<uint64_t> PutItems(std::string_view file, const std::string& table_name,
                            std::string_view text,
                            const std::function<void(uint64_t)>& progress = {});
  // Deletes tables (undoing a seed that failed part way).
  void DeleteTables(const std::vector<std::string>& table_names);

 private:
  DispatchResult Call(std::string_view operation, const std::string& body) const;

  const RequestHandler& handler_;
};

}  // namespace ddbd
