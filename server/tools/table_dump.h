// `ddbd dump` and `ddbd load` through the API of any DynamoDB endpoint (a RequestHandler: a remote
// one, server/remote_endpoint.h, or a local dispatcher in tests), in the seed formats
// (protocol/seed.h): a table file and an items file per table.
//
// Thread safety: the functions may run on many threads at once (a parallel Scan's segments);
// a BatchWriter belongs to one thread.
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

// Every table's name (ListTables, page by page).
Result<std::vector<std::string>> ListAllTables(const RequestHandler& endpoint);

// The table file: {"Table": <DescribeTable's Table>, "TimeToLiveSpecification": {...} (when
// enabled), "Tags": [...]} (one JSON object, indented). An endpoint without tagging (DynamoDB
// Local answers ListTagsOfResource with UnknownOperationException) gives a file without tags
// and its reason in `warning`; otherwise `warning` is left empty.
Result<std::string> DumpTableDefinition(const RequestHandler& endpoint, const std::string& table,
                                        std::string& warning);

// Scans segment `segment` of `segments` page by page (consistent reads), handing each item to
// `write` as one line of DynamoDB JSON (no newline). Returns how many.
Result<uint64_t> DumpSegment(const RequestHandler& endpoint, const std::string& table, int segment,
                             int segments, const std::function<void(std::string_view)>& write);

// The names of a table's key attributes (DescribeTable).
Result<std::vector<std::string>> KeyNames(const RequestHandler& endpoint, const std::string& table);

// An item's key as text (its key attributes' JSON), to tell two items of one key apart; nullopt
// when the item lacks one (the endpoint will refuse it, and say why).
std::optional<std::string> ItemKeyText(std::string_view item_json,
                                       const std::vector<std::string>& key_names);

// Puts items with BatchWriteItem, 25 a request, never one key twice in a request (a repeated
// key sends the batch first, so the later item wins), retrying UnprocessedItems with
// exponential backoff.
class BatchWriter {
 public:
  BatchWriter(const RequestHandler& endpoint, std::string table_name)
      : endpoint_(endpoint), table_name_(std::move(table_name)) {}
  // `key` from ItemKeyText (empty: unknown).
  Status Add(std::string item_json, const std::string& key);
  Status Flush();
  uint64_t written() const { return written_; }

 private:
  const RequestHandler& endpoint_;
  const std::string table_name_;
  std::vector<std::string> items_;
  std::vector<std::string> keys_;
  uint64_t written_ = 0;
};

}  // namespace ddbd
