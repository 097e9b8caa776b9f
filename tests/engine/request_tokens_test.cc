#include "engine/transactions/request_tokens.h"

#include <catch2/catch.hpp>

#include "engine/transactions/transactions.h"

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

}  // namespace
}  // namespace ddbd
