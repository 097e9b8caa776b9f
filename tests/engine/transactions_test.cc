// Transactions on the engine: all-or-nothing, and isolation under concurrent transfers and
// snapshot readers on several threads (the sum of all balances never changes).
#include <atomic>
#include <catch2/catch.hpp>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "engine/engine.h"
#include "engine/model/item_codec.h"
#include "tests/engine/engine_calls.h"
#include "tests/values.h"

namespace ddbd {
namespace {

struct Bank {
  ManualClock clock;
  Engine engine{{}, clock};
  static constexpr int kAccounts = 8;
  Bank() {
    for (const char* name : {"Checking", "Savings"}) {
      CreateTableArgs args;
      args.table_name = name;
      args.attribute_definitions = {{"pk", ScalarAttributeType::kS}};
      args.key_schema = {{"pk", KeyType::kHash}};
      args.billing_mode = BillingMode::kPayPerRequest;
      REQUIRE(engine.CreateTable(args).ok());
      for (int i = 0; i < kAccounts; ++i) {
        REQUIRE(testing::Put(
                    engine, name,
                    {{"pk", S("a" + std::to_string(i))}, {"bal", AttributeValue::Number("100")}})
                    .ok());
      }
    }
  }
  static const char* TableOf(int account) { return account % 2 == 0 ? "Checking" : "Savings"; }

  // Moves `amount` from one account to another if the source has it.
  Result<TransactWriteItemsOutcome> Transfer(int from, int to, int amount) {
    TransactWriteItemsArgs args;
    for (const auto& [account, sign] : {std::pair{from, -1}, std::pair{to, 1}}) {
      TransactWriteAction action;
      action.kind = TransactWriteAction::Kind::kUpdate;
      action.table_name = TableOf(account);
      action.item = {{"pk", S("a" + std::to_string(account / 2))}};
      UpdateAction add;
      add.kind = UpdateAction::Kind::kAdd;
      add.path = {{"bal", -1}};
      add.operand = AttributeValue::Number(std::to_string(sign * amount));
      action.actions = {add};
      if (sign < 0) {
        Condition enough;
        enough.comparator = Condition::Comparator::kGe;
        enough.operands = {
            Operand{Operand::Kind::kPath, {{"bal", -1}}, {}},
            Operand{Operand::Kind::kValue, {}, AttributeValue::Number(std::to_string(amount))}};
        action.condition = enough;
      }
      args.actions.push_back(std::move(action));
    }
    return engine.TransactWriteItems(args);
  }

  int64_t Total() {
    TransactGetItemsArgs args;
    for (int account = 0; account < 2 * kAccounts; ++account) {
      args.gets.push_back({TableOf(account), {{"pk", S("a" + std::to_string(account / 2))}}});
    }
    auto read = engine.TransactGetItems(args);
    REQUIRE(read.ok());
    int64_t total = 0;
    for (const ReadItem& read_item : read.value().items) {
      REQUIRE(read_item.item);
      total += std::stoll(FindAttribute(DecodeItem(read_item.item->blob), "bal")->scalar);
    }
    return total;
  }
};

TEST_CASE("A transfer applies both sides or neither") {
  Bank bank;
  REQUIRE(bank.Transfer(0, 1, 60).ok());
  CHECK(bank.Total() == 1600);
  auto refused = bank.Transfer(0, 3, 60);  // a0 in Checking has 40 left
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().code() == ErrorCode::kTransactionCanceled);
  REQUIRE(refused.error().cancellation_reasons() != nullptr);
  CHECK(refused.error().cancellation_reasons()->at(0).code == "ConditionalCheckFailed");
  CHECK(refused.error().cancellation_reasons()->at(1).code == "None");
  CHECK(bank.Total() == 1600);
  auto item = testing::Get(bank.engine, "Savings", {{"pk", S("a1")}});  // account 3
  CHECK(FindAttribute(DecodeItem(item.value().item->blob), "bal")->scalar == "100");
}

TEST_CASE("Concurrent transfers and snapshot readers never see money made or lost") {
  Bank bank;
  std::atomic<bool> done = false;
  std::atomic<int> committed = 0;
  std::vector<std::thread> threads;
  for (int t = 0; t < 3; ++t) {
    threads.emplace_back([&bank, &committed, t] {
      std::mt19937 random(static_cast<unsigned>(t));
      for (int i = 0; i < 2000; ++i) {
        const int from = static_cast<int>(random() % (2 * Bank::kAccounts));
        int to = static_cast<int>(random() % (2 * Bank::kAccounts));
        if (to == from) to = (to + 1) % (2 * Bank::kAccounts);
        if (bank.Transfer(from, to, static_cast<int>(random() % 50) + 1).ok()) ++committed;
      }
    });
  }
  int64_t reads = 0;
  std::thread reader([&] {
    while (!done) {
      CHECK(bank.Total() == 1600);
      ++reads;
    }
  });
  for (std::thread& thread : threads) thread.join();
  done = true;
  reader.join();
  CHECK(bank.Total() == 1600);
  CHECK(committed > 0);
  CHECK(reads > 0);
}

}  // namespace
}  // namespace ddbd
