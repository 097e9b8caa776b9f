#include "server/tools/table_dump.h"

#include <rapidjson/document.h>
#include <rapidjson/prettywriter.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "protocol/json_writer.h"
#include "server/tools/seed.h"

namespace ddbd {
namespace {

using rapidjson::Document;
using rapidjson::Value;

// Calls `operation` and parses its answer; an error answer becomes an Error with its type and
// message.
Result<Document> Call(const RequestHandler& endpoint, std::string_view operation,
                      const std::string& body) {
  RequestInfo info;
  info.has_authorization = true;
  const DispatchResult result =
      endpoint.Handle("DynamoDB_20120810." + std::string(operation), body, info);
  Document answer;
  // An endpoint's answer is read with the same nesting bound as the files (its items are
  // copied and written again recursively).
  if (JsonDepth(result.body) > kMaxSeedDepth) {
    return Error::Validation(std::string(operation) + ": the answer nests too deeply");
  }
  answer.Parse<rapidjson::kParseIterativeFlag>(result.body.data(), result.body.size());
  if (result.http_status != 200) {
    return Error::Validation(std::string(operation) + ": " + AnswerError(result));
  }
  if (answer.HasParseError() || !answer.IsObject()) {
    return Error::Validation(std::string(operation) + ": the answer is not a JSON object");
  }
  return answer;
}

}  // namespace

Result<std::vector<std::string>> ListAllTables(const RequestHandler& endpoint) {
  std::vector<std::string> names;
  std::string start;
  do {
    auto page =
        Call(endpoint, "ListTables",
             start.empty() ? "{}" : "{\"ExclusiveStartTableName\":" + json::Quoted(start) + "}");
    if (!page.ok()) return page.error();
    start.clear();
    if (auto found = page.value().FindMember("TableNames");
        found != page.value().MemberEnd() && found->value.IsArray()) {
      for (const Value& name : found->value.GetArray()) {
        if (name.IsString()) names.emplace_back(name.GetString(), name.GetStringLength());
      }
    }
    if (auto last = page.value().FindMember("LastEvaluatedTableName");
        last != page.value().MemberEnd() && last->value.IsString()) {
      start = last->value.GetString();
    }
  } while (!start.empty());
  return names;
}

Result<std::string> DumpTableDefinition(const RequestHandler& endpoint, const std::string& table,
                                        std::string& warning) {
  warning.clear();
  const std::string named = "{\"TableName\":" + json::Quoted(table) + "}";
  auto described = Call(endpoint, "DescribeTable", named);
  if (!described.ok()) return described.error();
  Document file;
  file.SetObject();
  auto& allocator = file.GetAllocator();
  auto table_value = described.value().FindMember("Table");
  if (table_value == described.value().MemberEnd() || !table_value->value.IsObject()) {
    return Error::Validation("DescribeTable: no Table in the answer");
  }
  file.AddMember("Table", Value(table_value->value, allocator), allocator);
  auto ttl = Call(endpoint, "DescribeTimeToLive", named);
  if (!ttl.ok()) return ttl.error();
  if (auto found = ttl.value().FindMember("TimeToLiveDescription");
      found != ttl.value().MemberEnd() && found->value.IsObject()) {
    auto status = found->value.FindMember("TimeToLiveStatus");
    auto name = found->value.FindMember("AttributeName");
    if (status != found->value.MemberEnd() && status->value.IsString() &&
        (std::string_view(status->value.GetString()) == "ENABLED" ||
         std::string_view(status->value.GetString()) == "ENABLING") &&
        name != found->value.MemberEnd()) {
      Value specification(rapidjson::kObjectType);
      specification.AddMember("Enabled", true, allocator);
      specification.AddMember("AttributeName", Value(name->value, allocator), allocator);
      file.AddMember("TimeToLiveSpecification", specification, allocator);
    }
  }
  // Tags, page by page, by the table's ARN.
  auto arn = table_value->value.FindMember("TableArn");
  Value tags(rapidjson::kArrayType);
  if (arn != table_value->value.MemberEnd() && arn->value.IsString()) {
    std::string next;
    do {
      std::string request = "{\"ResourceArn\":" + json::Quoted(arn->value.GetString());
      if (!next.empty()) request += ",\"NextToken\":" + json::Quoted(next);
      auto page = Call(endpoint, "ListTagsOfResource", request + "}");
      if (!page.ok() &&
          page.error().message().starts_with("ListTagsOfResource: UnknownOperationException")) {
        // "Tagging is not currently supported in DynamoDB Local.": the rest is still worth having.
        warning = "tags skipped: " + page.error().message();
        break;
      }
      if (!page.ok()) return page.error();
      next.clear();
      if (auto found = page.value().FindMember("Tags");
          found != page.value().MemberEnd() && found->value.IsArray()) {
        for (const Value& tag : found->value.GetArray())
          tags.PushBack(Value(tag, allocator), allocator);
      }
      if (auto token = page.value().FindMember("NextToken");
          token != page.value().MemberEnd() && token->value.IsString()) {
        next = token->value.GetString();
      }
    } while (!next.empty());
  }
  if (!tags.Empty()) file.AddMember("Tags", tags, allocator);
  json::Buffer buffer;
  rapidjson::PrettyWriter<json::Buffer> writer(buffer);  // json::Buffer: control bytes escaped
  writer.SetIndent(' ', 2);
  file.Accept(writer);
  return std::string(buffer.GetString(), buffer.GetSize()) + "\n";
}

Result<uint64_t> DumpSegment(const RequestHandler& endpoint, const std::string& table, int segment,
                             int segments, const std::function<void(std::string_view)>& write) {
  const std::string prefix = "{\"TableName\":" + json::Quoted(table) +
                             ",\"ConsistentRead\":true,\"Segment\":" + std::to_string(segment) +
                             ",\"TotalSegments\":" + std::to_string(segments);
  std::string start;
  uint64_t items = 0;
  for (;;) {
    auto page = Call(endpoint, "Scan",
                     prefix + (start.empty() ? "" : ",\"ExclusiveStartKey\":" + start) + "}");
    if (!page.ok()) return page.error();
    if (auto found = page.value().FindMember("Items");
        found != page.value().MemberEnd() && found->value.IsArray()) {
      for (const Value& item : found->value.GetArray()) {
        write(json::Text(item));
        ++items;
      }
    }
    auto last = page.value().FindMember("LastEvaluatedKey");
    if (last == page.value().MemberEnd() || !last->value.IsObject()) return items;
    start = json::Text(last->value);
  }
}

Result<std::vector<std::string>> KeyNames(const RequestHandler& endpoint,
                                          const std::string& table) {
  auto described = Call(endpoint, "DescribeTable", "{\"TableName\":" + json::Quoted(table) + "}");
  if (!described.ok()) return described.error();
  std::vector<std::string> names;
  auto found = described.value().FindMember("Table");
  if (found == described.value().MemberEnd() || !found->value.IsObject()) return names;
  auto schema = found->value.FindMember("KeySchema");
  if (schema == found->value.MemberEnd() || !schema->value.IsArray()) return names;
  for (const Value& key : schema->value.GetArray()) {
    if (!key.IsObject()) continue;
    auto name = key.FindMember("AttributeName");
    if (name != key.MemberEnd() && name->value.IsString()) names.push_back(name->value.GetString());
  }
  return names;
}

std::optional<std::string> ItemKeyText(std::string_view item_json,
                                       const std::vector<std::string>& key_names) {
  if (JsonDepth(item_json) > kMaxSeedDepth) return std::nullopt;
  Document item;
  item.Parse<rapidjson::kParseIterativeFlag>(item_json.data(), item_json.size());
  if (item.HasParseError() || !item.IsObject()) return std::nullopt;
  std::string key;
  for (const std::string& name : key_names) {
    auto found = item.FindMember(name.c_str());
    if (found == item.MemberEnd()) return std::nullopt;
    key += json::Text(found->value);
    key += '\n';
  }
  return key;
}

Status BatchWriter::Add(std::string item_json, const std::string& key) {
  if (!key.empty() && std::find(keys_.begin(), keys_.end(), key) != keys_.end()) {
    if (Status flushed = Flush(); !flushed.ok()) return flushed;
  }
  items_.push_back(std::move(item_json));
  keys_.push_back(key);
  if (items_.size() == 25) return Flush();
  return Ok{};
}

Status BatchWriter::Flush() {
  if (items_.empty()) return Ok{};
  std::string request = "{\"RequestItems\":{" + json::Quoted(table_name_) + ":[";
  for (size_t i = 0; i < items_.size(); ++i) {
    if (i > 0) request += ',';
    request += "{\"PutRequest\":{\"Item\":" + items_[i] + "}}";
  }
  request += "]}}";
  const uint64_t count = items_.size();
  items_.clear();
  keys_.clear();
  // UnprocessedItems go again, with backoff: 50 ms doubling, up to ten rounds.
  for (int round = 0;; ++round) {
    auto answer = Call(endpoint_, "BatchWriteItem", request);
    if (!answer.ok()) return answer.error();
    auto unprocessed = answer.value().FindMember("UnprocessedItems");
    if (unprocessed == answer.value().MemberEnd() || !unprocessed->value.IsObject() ||
        unprocessed->value.MemberCount() == 0) {
      written_ += count;
      return Ok{};
    }
    if (round == 10) return Error::Validation("BatchWriteItem: items stayed unprocessed");
    std::this_thread::sleep_for(std::chrono::milliseconds(50 << std::min(round, 8)));
    request = "{\"RequestItems\":" + json::Text(unprocessed->value) + "}";
  }
}

}  // namespace ddbd
