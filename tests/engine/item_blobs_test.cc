#include "engine/api/item_blobs.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace ddbd {
namespace {

TEST_CASE("A page's items come back from one buffer as they were added, in order") {
  ItemBlobs blobs;
  CHECK(blobs.empty());
  CHECK(blobs.begin() == blobs.end());
  std::vector<std::string> added;
  for (size_t i = 0; i < 200; ++i) {
    // Small ones, one bigger than the first reservation, and one of DynamoDB's largest.
    const size_t size = i == 7 ? 5000 : i == 150 ? 400 * 1024 : 1 + i % 37;
    added.push_back(std::string(size, static_cast<char>('a' + i % 26)));
    blobs.push_back(added.back());
  }
  REQUIRE(blobs.size() == added.size());
  size_t i = 0;
  for (const std::string_view blob : blobs) CHECK(blob == added[i++]);
  CHECK(i == added.size());
  CHECK(blobs[150].size() == 400 * 1024);
}

}  // namespace
}  // namespace ddbd
