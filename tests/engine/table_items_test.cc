#include "engine/table_items.h"

#include <catch2/catch.hpp>
#include <string>
#include <thread>
#include <vector>

namespace ddbd {
namespace {

TEST_CASE("TableItems puts, replaces, gets and erases with size accounting") {
  TableItems items;
  CHECK_FALSE(items.Put("k1", {"blob-one", 10}).value().has_value());
  CHECK_FALSE(items.Put("k0", {"zero", 3}).value().has_value());
  CHECK(items.item_count() == 2);
  CHECK(items.size_bytes() == 13);
  auto replaced = items.Put("k1", {"blob-two", 7}).value();
  REQUIRE(replaced.has_value());
  CHECK(replaced->blob == "blob-one");
  CHECK(replaced->size_bytes == 10);
  CHECK(items.Get("k1")->blob == "blob-two");
  CHECK(items.size_bytes() == 10);
  CHECK(items.Erase("k0")->blob == "zero");
  CHECK_FALSE(items.Erase("k0").has_value());
  CHECK_FALSE(items.Get("k0").has_value());
  CHECK(items.item_count() == 1);
  CHECK(items.size_bytes() == 7);
  // Keys are bytes: embedded NULs and empty blobs are fine.
  const std::string nul_key("a\0b", 3);
  REQUIRE(items.Put(nul_key, {"", 0}).ok());
  CHECK(items.Get(nul_key)->blob.empty());
  CHECK_FALSE(items.Get("a").has_value());
}

TEST_CASE("TableItems stays consistent under concurrent writers and readers") {
  TableItems items;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&items, t] {
      for (int i = 0; i < 2000; ++i) {
        const std::string key = "key" + std::to_string(i % 500);
        if (t % 2 == 0) {
          (void)items.Put(key, {std::string(static_cast<size_t>(i % 50), 'x'), 1});
        } else {
          items.Get(key);
          if (i % 7 == 0) items.Erase(key);
        }
      }
    });
  }
  for (auto& thread : threads) thread.join();
  CHECK(items.item_count() <= 500);
  CHECK(items.size_bytes() == items.item_count());  // every stored item has size 1
}

}  // namespace
}  // namespace ddbd
