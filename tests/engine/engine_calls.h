// Short forms of the engine's calls for tests: one line per write or read, defaults elsewhere.
#pragma once

#include <future>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/engine.h"
#include "engine/storage/table_items.h"

namespace ddbd::testing {

// An on-demand table keyed by a string `pk` alone.
inline CreateTableArgs OnDemandHashTable(std::string name) {
  CreateTableArgs args;
  args.table_name = std::move(name);
  args.attribute_definitions = {{"pk", ScalarAttributeType::kS}};
  args.key_schema = {{"pk", KeyType::kHash}};
  args.billing_mode = BillingMode::kPayPerRequest;
  return args;
}

// Waits until everything logged so far is durable (with a store; at once without): the status of
// the last record.
inline Status WaitDurable(Engine& engine) {
  std::promise<Status> done;
  engine.WhenDurable(engine.Logged(), [&done](const Status& status) { done.set_value(status); });
  return done.get_future().get();
}

// Every record of the stream `arn`: each shard's from TRIM_HORIZON, in shard order.
inline Result<std::vector<StreamRecord>> StreamRecords(const Engine& engine,
                                                       const std::string& arn) {
  auto described = engine.DescribeStream({arn, 100, std::nullopt, std::nullopt});
  if (!described.ok()) return described.error();
  std::vector<StreamRecord> all;
  for (const ShardDescription& shard : described.value().description.shards) {
    auto iterator = engine.GetShardIterator(
        {arn, shard.shard_id, ShardIteratorType::kTrimHorizon, std::nullopt});
    if (!iterator.ok()) return iterator.error();
    std::optional<std::string> next = iterator.value();
    while (next) {
      auto read = engine.GetRecords({*next, 1000});
      if (!read.ok()) return read.error();
      if (read.value().records.empty()) break;
      for (auto& record : read.value().records) all.push_back(std::move(record));
      next = read.value().next_shard_iterator;
    }
  }
  return all;
}

inline Result<WriteOutcome> Put(Engine& engine, std::string_view table, Item item) {
  PutItemArgs args;
  args.table_name = table;
  args.item = std::move(item);
  return engine.PutItem(args);
}

inline Result<WriteOutcome> Delete(Engine& engine, std::string_view table, Item key) {
  DeleteItemArgs args;
  args.table_name = table;
  args.key = std::move(key);
  return engine.DeleteItem(args);
}

inline Result<WriteOutcome> Update(Engine& engine, std::string_view table, Item key,
                                   std::vector<UpdateAction> actions) {
  UpdateItemArgs args;
  args.table_name = table;
  args.key = std::move(key);
  args.actions = std::move(actions);
  return engine.UpdateItem(args);
}

inline Result<GetItemOutcome> Get(Engine& engine, std::string_view table, Item key) {
  GetItemArgs args;
  args.table_name = table;
  args.key = std::move(key);
  return engine.GetItem(args);
}

// An unconditional put or delete through the commit path; returns the item it replaced or
// removed.
inline Result<std::optional<StoredItem>> PutInto(TableItems& items, std::string_view key,
                                                 const StoredItem& item) {
  WriteScope scope(items);
  auto committed = items.Commit(scope, key, [&](const TableItems::Current*) {
    return Result<TableItems::Write>(TableItems::Write{TableItems::Write::Kind::kPut, &item,
                                                       nullptr, items.index_generation(), true});
  });
  if (!committed.ok()) return committed.error();
  return std::move(committed.value().old_item);
}

inline std::optional<StoredItem> EraseFrom(TableItems& items, std::string_view key) {
  WriteScope scope(items);
  auto committed = items.Commit(scope, key, [&](const TableItems::Current*) {
    return Result<TableItems::Write>(
        TableItems::Write{TableItems::Write::Kind::kDelete, nullptr, nullptr, 0, true});
  });
  return std::move(committed.value().old_item);
}

}  // namespace ddbd::testing
