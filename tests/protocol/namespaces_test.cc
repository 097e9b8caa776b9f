// Namespaces: each (access key id, region) has its own tables, made on first use, ARNs in the
// request's region; directory names round-trip and never leave the data directory.
#include "protocol/namespaces.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <future>
#include <string>
#include <vector>

#include "engine/clock.h"
#include "engine/persistence/file_system.h"

namespace ddbd {
namespace {

const char* kCreate = R"({"TableName":"Tab","BillingMode":"PAY_PER_REQUEST",)"
                      R"("AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],)"
                      R"("KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]})";

// A request with this Authorization header, which must outlive it.
RequestInfo Signed(const std::string& header_storage) {
  RequestInfo info;
  info.has_authorization = true;
  info.authorization = header_storage;
  return info;
}

std::string Header(std::string_view key, std::string_view region) {
  return "AWS4-HMAC-SHA256 Credential=" + std::string(key) + "/20261124/" + std::string(region) +
         "/dynamodb/aws4_request, SignedHeaders=host, Signature=00";
}

TEST_CASE("Each access key id and region has its own tables") {
  ManualClock clock;
  std::vector<std::string> opened;
  Namespaces namespaces("us-east-1", [&](const std::string& key, const std::string& region) {
    opened.push_back(key + "/" + region);
    EngineOptions options;
    options.region = region;
    return Result<std::unique_ptr<Engine>>(std::make_unique<Engine>(options, clock));
  });
  const std::string alice_header = Header("alice", "eu-west-1");
  const RequestInfo alice = Signed(alice_header);
  auto created = namespaces.Handle("DynamoDB_20120810.CreateTable", kCreate, alice);
  INFO(created.body);
  REQUIRE(created.http_status == 200);
  CHECK(created.body.find("arn:aws:dynamodb:eu-west-1:") != std::string::npos);
  CHECK(namespaces.Handle("DynamoDB_20120810.ListTables", "{}", alice).body ==
        R"({"TableNames":["Tab"]})");
  // Another key, or the same key in another region: nothing there.
  CHECK(namespaces.Handle("DynamoDB_20120810.ListTables", "{}", Signed(Header("bob", "eu-west-1")))
            .body == R"({"TableNames":[]})");
  CHECK(
      namespaces.Handle("DynamoDB_20120810.ListTables", "{}", Signed(Header("alice", "us-west-2")))
          .body == R"({"TableNames":[]})");
  CHECK(opened == std::vector<std::string>{"alice/eu-west-1", "bob/eu-west-1", "alice/us-west-2"});
  CHECK(namespaces.size() == 3);
  // Without a credential scope: the namespace of no key in the default region.
  RequestInfo unsigned_request;
  auto refused = namespaces.Handle("DynamoDB_20120810.ListTables", "{}", unsigned_request);
  CHECK(refused.http_status == 400);
  CHECK(refused.body.find("MissingAuthenticationToken") != std::string::npos);
  CHECK(opened.back() == "/us-east-1");
}

TEST_CASE("Namespaces that cannot be opened, and the most a server keeps") {
  ManualClock clock;
  Namespaces namespaces("us-east-1", [&](const std::string& key, const std::string&) {
    if (key == "broken") return Result<std::unique_ptr<Engine>>(Error::Internal("locked"));
    return Result<std::unique_ptr<Engine>>(std::make_unique<Engine>(EngineOptions{}, clock));
  });
  auto failed =
      namespaces.Handle("DynamoDB_20120810.ListTables", "{}", Signed(Header("broken", "r")));
  CHECK(failed.http_status == 500);
  CHECK(namespaces.size() == 0);
  for (size_t i = 0; i < Namespaces::kMaxNamespaces; ++i) {
    REQUIRE(namespaces.Add("k" + std::to_string(i), "r").ok());
  }
  auto refused =
      namespaces.Handle("DynamoDB_20120810.ListTables", "{}", Signed(Header("one-more", "r")));
  CHECK(refused.http_status == 500);
  CHECK(refused.body.find("at most 256 namespaces") != std::string::npos);
  // Known ones still answer.
  CHECK(namespaces.Handle("DynamoDB_20120810.ListTables", "{}", Signed(Header("k7", "r")))
            .http_status == 200);
}

// Issue 34: with --db-path every namespace logs to its own journal, but they share the I/O
// threads; a write is answered only after its own namespace's log is synced, even when the
// thread's previous write (to another namespace) had the same ticket number.
TEST_CASE("A write to one namespace waits for that namespace's sync") {
  ManualClock clock;
  MemoryFileSystem files;
  Namespaces namespaces("us-east-1", [&](const std::string& key, const std::string& region) {
    EngineOptions options;
    options.region = region;
    options.db_path = "db/" + Namespaces::DirectoryName(key, region);
    options.file_system = &files;
    return Engine::Open(options, clock);
  });
  const std::string alice_header = Header("alice", "r");
  const std::string bob_header = Header("bob", "r");
  const RequestInfo alice = Signed(alice_header);
  const RequestInfo bob = Signed(bob_header);
  for (const RequestInfo* who : {&alice, &bob}) {
    REQUIRE(namespaces.Handle("DynamoDB_20120810.CreateTable", kCreate, *who).http_status == 200);
  }
  for (int round = 0; round < 3; ++round) {
    // A new item each time: a put that changes nothing logs nothing and is answered at once.
    const std::string put =
        R"({"TableName":"Tab","Item":{"pk":{"S":"item)" + std::to_string(round) + R"("}}})";
    for (const RequestInfo* who : {&alice, &bob}) {
      INFO("round " << round << (who == &alice ? " alice" : " bob"));
      files.HoldSyncs(true);
      std::promise<DispatchResult> answered;
      namespaces.HandleAsync(
          "DynamoDB_20120810.PutItem", put, *who,
          [&answered](DispatchResult result) { answered.set_value(std::move(result)); });
      std::future<DispatchResult> answer = answered.get_future();
      // No answer while the log cannot be synced (the handler returned without one).
      CHECK(answer.wait_for(std::chrono::milliseconds(20)) == std::future_status::timeout);
      files.HoldSyncs(false);
      CHECK(answer.get().http_status == 200);
    }
  }
}

TEST_CASE("A namespace's directory name") {
  CHECK(Namespaces::DirectoryName("AKIDEXAMPLE", "us-east-1") == "AKIDEXAMPLE_us-east-1");
  CHECK(Namespaces::DirectoryName("../x_y", "r/1") == "%2E%2E%2Fx%5Fy_r%2F1");
  for (auto [key, region] : std::vector<std::pair<std::string, std::string>>{
           {"AKIDEXAMPLE", "us-east-1"}, {"../x_y", "r/1"}, {"", "eu-west-1"}, {"k%", "\xff"}}) {
    auto parsed = Namespaces::ParseDirectoryName(Namespaces::DirectoryName(key, region));
    REQUIRE(parsed.has_value());
    CHECK(parsed->first == key);
    CHECK(parsed->second == region);
  }
  for (const char* other : {"LOCK", "0000000001.log", "a_b_c", "a_", "a%2_b", "a%zz_b", "a.b_c"}) {
    INFO(other);
    CHECK_FALSE(Namespaces::ParseDirectoryName(other).has_value());
  }
}

}  // namespace
}  // namespace ddbd
