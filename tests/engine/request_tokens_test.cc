#include "engine/storage/request_tokens.h"

#include <catch2/catch.hpp>

#include "engine/api/transactions.h"

namespace ddbd {
namespace {

TEST_CASE("A completed token replays for ten minutes after completion, by the clock given") {
  RequestTokens tokens;
  REQUIRE(tokens.Begin("t", 1, 0).value() == RequestTokens::Claim::kRun);
  tokens.Finish("t", true, 1000);
  CHECK(tokens.Begin("t", 1, 1000 + kIdempotencyWindowMs - 1).value() ==
        RequestTokens::Claim::kReplay);
  // The window counts from completion; after it the token runs again.
  REQUIRE(tokens.Begin("t", 1, 1000 + kIdempotencyWindowMs).value() == RequestTokens::Claim::kRun);
  tokens.Finish("t", true, 1000 + kIdempotencyWindowMs);
}

TEST_CASE("Other parameters, a call in flight, a failed call") {
  RequestTokens tokens;
  REQUIRE(tokens.Begin("t", 1, 0).value() == RequestTokens::Claim::kRun);
  const auto in_flight = tokens.Begin("t", 1, 10);
  REQUIRE_FALSE(in_flight.ok());
  CHECK(in_flight.error().code() == ErrorCode::kTransactionInProgress);
  tokens.Finish("t", true, 20);
  const auto mismatch = tokens.Begin("t", 2, 30);
  REQUIRE_FALSE(mismatch.ok());
  CHECK(mismatch.error().code() == ErrorCode::kIdempotentParameterMismatch);
  // A failed call is forgotten: its repeat runs afresh.
  REQUIRE(tokens.Begin("u", 1, 0).value() == RequestTokens::Claim::kRun);
  tokens.Finish("u", false, 5);
  CHECK(tokens.Begin("u", 1, 6).value() == RequestTokens::Claim::kRun);
}

// Issue 34: the tokens remembered are bounded (about 125 B each: ~1 GB at 15k tokened
// transactions a second before); past the bound the oldest completed token goes first.
TEST_CASE("At most the bound of completed tokens is remembered, the oldest goes first") {
  RequestTokens tokens(3);
  for (int i = 0; i < 5; ++i) {
    const std::string token = "t" + std::to_string(i);
    REQUIRE(tokens.Begin(token, 1, i).value() == RequestTokens::Claim::kRun);
    tokens.Finish(token, true, i);
  }
  CHECK(tokens.size() == 3);
  CHECK(tokens.forgotten_early() == 2);
  CHECK(tokens.Begin("t4", 1, 10).value() == RequestTokens::Claim::kReplay);
  CHECK(tokens.Begin("t2", 1, 10).value() == RequestTokens::Claim::kReplay);
  // t0 was forgotten: its repeat runs again, as a new call.
  CHECK(tokens.Begin("t0", 1, 10).value() == RequestTokens::Claim::kRun);
  // In-flight calls are not counted against the bound, and expiry still forgets the rest.
  CHECK(tokens.size() == 4);
  CHECK(tokens.Begin("new", 1, 10 + kIdempotencyWindowMs).value() == RequestTokens::Claim::kRun);
  CHECK(tokens.size() == 2);  // t0 and "new", both in flight
  CHECK(tokens.CompletedWithin(10 + kIdempotencyWindowMs).empty());
}

}  // namespace
}  // namespace ddbd
