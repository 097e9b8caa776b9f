#include "server/tools/seed.h"

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <limits>
#include <mutex>
#include <thread>

#include "protocol/json_writer.h"

namespace ddbd {
namespace {

using rapidjson::Document;
using rapidjson::Value;

constexpr std::string_view kPrefix = "DynamoDB_20120810.";
// A constant: an answer that comes later reads the target until then.
constexpr std::string_view kPutItem = "DynamoDB_20120810.PutItem";
// Requests in flight while putting items: enough for a store's group commit to sync many at once.
constexpr size_t kInFlight = 256;

Error InvalidSeed(std::string message) { return Error::Validation(std::move(message)); }

size_t LineOf(std::string_view text, size_t offset) {
  offset = std::min(offset, text.size());
  return 1 + static_cast<size_t>(std::count(text.begin(), text.begin() + offset, '\n'));
}

// Parses `text` iteratively (a file may nest as deep as it likes without recursion here; the
// dispatcher's bounded parser judges the requests made of it).
bool Parse(std::string_view text, Document& document, std::string& problem, size_t& offset) {
  if (JsonDepth(text) > kMaxSeedDepth) {
    problem = "nested deeper than " + std::to_string(kMaxSeedDepth) + " levels";
    offset = 0;
    return false;
  }
  document.Parse<rapidjson::kParseIterativeFlag>(text.data(), text.size());
  if (!document.HasParseError()) return true;
  problem = std::string("not JSON: ") + rapidjson::GetParseError_En(document.GetParseError());
  offset = document.GetErrorOffset();
  return false;
}

const Value* Member(const Value& object, const char* name) {
  const auto found = object.FindMember(name);
  return found == object.MemberEnd() ? nullptr : &found->value;
}

void Copy(Value& to, const Value& from, const char* name, Document::AllocatorType& allocator) {
  if (const Value* value = Member(from, name)) {
    to.AddMember(Value(name, allocator), Value(*value, allocator), allocator);
  }
}

// ProvisionedThroughput as CreateTable takes it (describe-table's has more members).
Value Throughput(const Value& described, Document::AllocatorType& allocator) {
  Value throughput(rapidjson::kObjectType);
  for (const char* name : {"ReadCapacityUnits", "WriteCapacityUnits"}) {
    const Value* units = Member(described, name);
    throughput.AddMember(Value(name, allocator),
                         units != nullptr && units->IsInt64() && units->GetInt64() > 0
                             ? Value(units->GetInt64())
                             : Value(1),
                         allocator);
  }
  return throughput;
}

// describe-table's Table as the CreateTable request that makes it again.
Value CreateTableFromDescription(const Value& table, Document::AllocatorType& allocator) {
  Value create(rapidjson::kObjectType);
  Copy(create, table, "TableName", allocator);
  Copy(create, table, "AttributeDefinitions", allocator);
  Copy(create, table, "KeySchema", allocator);
  bool on_demand = false;
  if (const Value* summary = Member(table, "BillingModeSummary"); summary && summary->IsObject()) {
    const Value* mode = Member(*summary, "BillingMode");
    on_demand = mode != nullptr && mode->IsString() &&
                std::string_view(mode->GetString()) == "PAY_PER_REQUEST";
  }
  create.AddMember("BillingMode",
                   Value(rapidjson::StringRef(on_demand ? "PAY_PER_REQUEST" : "PROVISIONED")),
                   allocator);
  const Value* provisioned = Member(table, "ProvisionedThroughput");
  if (!on_demand && provisioned != nullptr && provisioned->IsObject()) {
    create.AddMember("ProvisionedThroughput", Throughput(*provisioned, allocator), allocator);
  }
  for (const char* kind : {"GlobalSecondaryIndexes", "LocalSecondaryIndexes"}) {
    const Value* indexes = Member(table, kind);
    if (indexes == nullptr || !indexes->IsArray()) continue;
    Value list(rapidjson::kArrayType);
    for (const Value& index : indexes->GetArray()) {
      if (!index.IsObject()) continue;
      Value made(rapidjson::kObjectType);
      Copy(made, index, "IndexName", allocator);
      Copy(made, index, "KeySchema", allocator);
      Copy(made, index, "Projection", allocator);
      if (std::string_view(kind) == "GlobalSecondaryIndexes") {
        const Value* throughput = Member(index, "ProvisionedThroughput");
        if (!on_demand && throughput != nullptr && throughput->IsObject()) {
          made.AddMember("ProvisionedThroughput", Throughput(*throughput, allocator), allocator);
        }
        Copy(made, index, "OnDemandThroughput", allocator);
      }
      list.PushBack(made, allocator);
    }
    create.AddMember(Value(kind, allocator), list, allocator);
  }
  if (const Value* vectors = Member(table, "VectorIndexes"); vectors && vectors->IsArray()) {
    Value list(rapidjson::kArrayType);
    for (const Value& index : vectors->GetArray()) {
      if (!index.IsObject()) continue;
      Value made(rapidjson::kObjectType);
      for (const char* name : {"IndexName", "VectorAttribute", "Dimensions", "DistanceFunction",
                               "SearchSchema", "Projection"}) {
        Copy(made, index, name, allocator);
      }
      list.PushBack(made, allocator);
    }
    create.AddMember("VectorIndexes", list, allocator);
  }
  if (const Value* stream = Member(table, "StreamSpecification"); stream && stream->IsObject()) {
    const Value* enabled = Member(*stream, "StreamEnabled");
    if (enabled != nullptr && enabled->IsBool() && enabled->GetBool()) {
      create.AddMember("StreamSpecification", Value(*stream, allocator), allocator);
    }
  }
  if (const Value* summary = Member(table, "TableClassSummary"); summary && summary->IsObject()) {
    Copy(create, *summary, "TableClass", allocator);
  }
  Copy(create, table, "DeletionProtectionEnabled", allocator);
  Copy(create, table, "OnDemandThroughput", allocator);
  return create;
}

}  // namespace

std::string AnswerError(const DispatchResult& result) {
  Document document;  // iteratively: a remote endpoint's answer may nest as it likes
  document.Parse<rapidjson::kParseIterativeFlag>(result.body.data(), result.body.size());
  if (document.HasParseError() || !document.IsObject()) return result.body;
  std::string type;
  std::string message;
  if (const Value* value = Member(document, "__type"); value && value->IsString()) {
    type = value->GetString();
    type = type.substr(type.rfind('#') + 1);
  }
  for (const char* name : {"message", "Message"}) {
    if (const Value* value = Member(document, name); value && value->IsString()) {
      message = value->GetString();
    }
  }
  return message.empty() ? type : type + ": " + message;
}

namespace {

// Why PutItem refused an item: a body that is not JSON gets the parser's reason (DynamoDB's
// SerializationException says little), anything else the answer's own error.
std::string Explain(const std::string& body, const DispatchResult& result) {
  if (result.body.find("SerializationException") != std::string::npos) {
    Document document;
    document.Parse<rapidjson::kParseIterativeFlag>(body.data(), body.size());
    if (document.HasParseError()) {
      return std::string("not JSON: ") + rapidjson::GetParseError_En(document.GetParseError());
    }
  }
  return AnswerError(result);
}

bool IsType(const DispatchResult& result, std::string_view type) {
  return result.body.find(std::string("#") + std::string(type) + "\"") != std::string::npos;
}

}  // namespace

size_t JsonDepth(std::string_view json) {
  size_t depth = 0;
  size_t deepest = 0;
  bool in_string = false;
  for (size_t i = 0; i < json.size(); ++i) {
    const char c = json[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      deepest = std::max(deepest, ++depth);
    } else if ((c == '}' || c == ']') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

Result<SeedTable> ReadSeedTable(std::string_view file, std::string_view text) {
  const std::string where(file);
  Document document;
  std::string problem;
  size_t offset = 0;
  if (!Parse(text, document, problem, offset)) {
    return InvalidSeed(where + ":" + std::to_string(LineOf(text, offset)) + ": " + problem);
  }
  if (!document.IsObject()) return InvalidSeed(where + ":1: expected a JSON object");
  auto& allocator = document.GetAllocator();
  // describe-table's output ({"Table": {...}}), or its Table alone (it has a status), or
  // CreateTable's request as it is.
  const Value* table = Member(document, "Table");
  if (table == nullptr && (Member(document, "TableStatus") || Member(document, "TableArn"))) {
    table = &document;
  }
  Value create(rapidjson::kObjectType);
  if (table != nullptr) {
    if (!table->IsObject()) return InvalidSeed(where + ":1: Table: expected a JSON object");
    create = CreateTableFromDescription(*table, allocator);
  } else {
    for (auto& member : document.GetObject()) {
      const std::string_view name(member.name.GetString(), member.name.GetStringLength());
      if (name == "TimeToLiveSpecification" || name == "TimeToLiveDescription") continue;
      create.AddMember(Value(member.name, allocator), Value(member.value, allocator), allocator);
    }
  }
  if (const Value* tags = Member(document, "Tags"); tags != nullptr && !create.HasMember("Tags")) {
    create.AddMember("Tags", Value(*tags, allocator), allocator);
  }
  const Value* name = Member(create, "TableName");
  if (name == nullptr || !name->IsString()) {
    return InvalidSeed(where + ":1: TableName: expected the table's name, a string");
  }
  SeedTable seed;
  seed.table_name.assign(name->GetString(), name->GetStringLength());
  seed.create_table = json::Text(create);
  // TimeToLiveSpecification ({"Enabled": true, "AttributeName": ...}) or describe-time-to-live's
  // TimeToLiveDescription ({"TimeToLiveStatus": "ENABLED", "AttributeName": ...}).
  std::optional<std::string> attribute;
  if (const Value* ttl = Member(document, "TimeToLiveSpecification"); ttl && ttl->IsObject()) {
    const Value* enabled = Member(*ttl, "Enabled");
    const Value* named = Member(*ttl, "AttributeName");
    if (enabled != nullptr && enabled->IsBool() && enabled->GetBool()) {
      if (named == nullptr || !named->IsString()) {
        return InvalidSeed(where + ":1: TimeToLiveSpecification: AttributeName: expected a string");
      }
      attribute = named->GetString();
    }
  } else if (const Value* described = Member(document, "TimeToLiveDescription");
             described && described->IsObject()) {
    const Value* status = Member(*described, "TimeToLiveStatus");
    const Value* named = Member(*described, "AttributeName");
    if (status != nullptr && status->IsString() && named != nullptr && named->IsString() &&
        (std::string_view(status->GetString()) == "ENABLED" ||
         std::string_view(status->GetString()) == "ENABLING")) {
      attribute = named->GetString();
    }
  }
  if (attribute) {
    Document update;
    update.SetObject();
    auto& a = update.GetAllocator();
    Value specification(rapidjson::kObjectType);
    specification.AddMember("Enabled", true, a);
    specification.AddMember("AttributeName", Value(attribute->c_str(), a), a);
    update.AddMember("TableName", Value(seed.table_name.c_str(), a), a);
    update.AddMember("TimeToLiveSpecification", specification, a);
    seed.update_time_to_live = json::Text(update);
  }
  return seed;
}

Result<std::optional<std::string>> SeedItemJson(std::string_view line) {
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) {
    line.remove_suffix(1);
  }
  const size_t first = line.find_first_not_of(" \t");
  if (first == std::string_view::npos) return std::optional<std::string>();
  // A line that cannot be an export line goes to PutItem as it is: the dispatcher parses it
  // (PutItems explains a line it refuses as unreadable).
  std::string_view rest = line.substr(first);
  if (!rest.starts_with("{")) return InvalidSeed("expected an item, a JSON object");
  rest.remove_prefix(1);
  while (!rest.empty() && (rest.front() == ' ' || rest.front() == '\t')) rest.remove_prefix(1);
  if (!rest.starts_with("\"Item\"")) return std::optional<std::string>(std::string(line));
  Document document;
  std::string problem;
  size_t offset = 0;
  if (!Parse(line, document, problem, offset)) return InvalidSeed(problem);
  if (!document.IsObject()) return InvalidSeed("expected an item, a JSON object");
  // An S3 export line: {"Item": {<name>: <value>, ...}}. A DynamoDB JSON item whose one attribute
  // is called Item has a value of one type instead ({"Item": {"S": "x"}}).
  if (document.MemberCount() == 1) {
    const Value* item = Member(document, "Item");
    if (item != nullptr && item->IsObject()) {
      // One member named as a type, holding a scalar or list, or an M's map: a value.
      bool one_type = false;
      if (item->MemberCount() == 1) {
        const std::string_view type = item->MemberBegin()->name.GetString();
        static constexpr std::string_view kTypes[] = {"S",  "N",  "B",  "BOOL", "NULL",
                                                      "SS", "NS", "BS", "L"};
        one_type = type == "M" ||
                   (std::find(std::begin(kTypes), std::end(kTypes), type) != std::end(kTypes) &&
                    !item->MemberBegin()->value.IsObject());
      }
      if (!one_type) return std::optional<std::string>(json::Text(*item));
    }
  }
  return std::optional<std::string>(std::string(line));
}

DispatchResult SeedLoader::Call(std::string_view operation, const std::string& body) const {
  RequestInfo info;
  info.has_authorization = true;
  return handler_.Handle(std::string(kPrefix) + std::string(operation), body, info);
}

Result<bool> SeedLoader::CreateTable(std::string_view file, const SeedTable& table) {
  const std::string where(file);
  DispatchResult created = Call("CreateTable", table.create_table);
  if (created.http_status != 200) {
    if (IsType(created, "ResourceInUseException")) return false;
    return InvalidSeed(where + ": " + AnswerError(created));
  }
  // Under --table-delay-ms the table is CREATING for a while: items wait until it is ACTIVE.
  const std::string describe = "{\"TableName\":" + json::Quoted(table.table_name) + "}";
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(5);
  for (;;) {
    const DispatchResult described = Call("DescribeTable", describe);
    if (described.body.find("\"TableStatus\":\"ACTIVE\"") != std::string::npos) break;
    if (std::chrono::steady_clock::now() > deadline) {
      return InvalidSeed(where + ": the table did not become ACTIVE");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (table.update_time_to_live) {
    const DispatchResult updated = Call("UpdateTimeToLive", *table.update_time_to_live);
    if (updated.http_status != 200) {
      return InvalidSeed(where + ": TimeToLiveSpecification: " + AnswerError(updated));
    }
  }
  return true;
}

Result<uint64_t> SeedLoader::PutItems(std::string_view file, const std::string& table_name,
                                      std::string_view text,
                                      const std::function<void(uint64_t)>& progress) {
  const std::string prefix = "{\"TableName\":" + json::Quoted(table_name) + ",\"Item\":";
  // Answers come back on any thread; the first failing line (in line order) is the one reported.
  struct Shared {
    std::mutex mutex;
    std::condition_variable changed;
    size_t in_flight = 0;
    size_t failed_line = std::numeric_limits<size_t>::max();
    std::string failure;
  };
  auto shared = std::make_shared<Shared>();
  const std::string where(file);
  auto fail = [shared](size_t line, std::string message) {
    std::lock_guard lock(shared->mutex);
    if (line < shared->failed_line) {
      shared->failed_line = line;
      shared->failure = std::move(message);
    }
  };
  uint64_t put = 0;
  size_t line_number = 0;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++line_number;
    {
      std::unique_lock lock(shared->mutex);
      if (shared->failed_line != std::numeric_limits<size_t>::max()) break;
      shared->changed.wait(lock, [&] { return shared->in_flight < kInFlight; });
    }
    auto item = SeedItemJson(line);
    if (!item.ok()) {
      fail(line_number, item.error().message());
      break;
    }
    if (!item.value()) continue;
    auto body = std::make_shared<std::string>(prefix + *item.value() + "}");
    {
      std::lock_guard lock(shared->mutex);
      ++shared->in_flight;
    }
    RequestInfo info;
    info.has_authorization = true;
    const size_t number = line_number;
    handler_.HandleAsync(kPutItem, *body, info,
                         [shared, body, number, fail](DispatchResult result) {
                           if (result.http_status != 200) fail(number, Explain(*body, result));
                           std::lock_guard lock(shared->mutex);
                           --shared->in_flight;
                           shared->changed.notify_all();
                         });
    if (++put % 100'000 == 0 && progress) progress(put);
  }
  std::unique_lock lock(shared->mutex);
  shared->changed.wait(lock, [&] { return shared->in_flight == 0; });
  if (shared->failed_line != std::numeric_limits<size_t>::max()) {
    return InvalidSeed(where + ":" + std::to_string(shared->failed_line) + ": " + shared->failure);
  }
  return put;
}

void SeedLoader::DeleteTables(const std::vector<std::string>& table_names) {
  for (const std::string& name : table_names) {
    (void)Call("DeleteTable", "{\"TableName\":" + json::Quoted(name) + "}");
  }
}

}  // namespace ddbd
