#include "config/options.h"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>

namespace ddbd {
namespace {

ParsedOptions Parse(std::vector<std::string> args, std::map<std::string, std::string> env = {}) {
  return ParseOptions(args, [&env](const char* name) -> const char* {
    auto it = env.find(name);
    return it == env.end() ? nullptr : it->second.c_str();
  });
}

TEST_CASE("Defaults serve on 127.0.0.1:8000 in memory") {
  ParsedOptions parsed = Parse({});
  REQUIRE(parsed.options);
  CHECK(parsed.options->host == "127.0.0.1");
  CHECK(parsed.options->port == 8000);
  CHECK(parsed.options->region == "us-east-1");
  CHECK(parsed.options->account_id == "000000000000");
  // Issue 34: no origin but this machine's by default, no other Host name, no table names in
  // an anonymous scrape under --auth-keys.
  CHECK(parsed.options->cors.empty());
  CHECK(parsed.options->allowed_hosts.empty());
  CHECK(parsed.options->metrics_token.empty());
  CHECK(parsed.options->db_path.empty());
}

TEST_CASE("Buckets live in a directory or on an S3 server, not both") {
  ParsedOptions parsed =
      Parse({"--s3-endpoint", "http://127.0.0.1:9000", "--s3-region", "eu-west-3"});
  REQUIRE(parsed.options);
  CHECK(parsed.options->s3_endpoint == "http://127.0.0.1:9000");
  CHECK(parsed.options->s3_region == "eu-west-3");
  CHECK(Parse({"--s3-endpoint", "localhost:9000"}).error ==
        "--s3-endpoint: expected http://host[:port] or https://host[:port], got 'localhost:9000'");
  CHECK(Parse({"--s3-dir", "/tmp", "--s3-endpoint", "http://x"}).error ==
        "--s3-dir and --s3-endpoint: give one, buckets live in one place");
}

TEST_CASE("Flags take values separately or after '=', flags beat the environment") {
  ParsedOptions parsed = Parse({"--port=0", "--host", "0.0.0.0", "--region", "eu-west-1"},
                               {{"DDBD_PORT", "9000"}, {"DDBD_ACCOUNT_ID", "123456789012"}});
  REQUIRE(parsed.options);
  CHECK(parsed.options->port == 0);
  CHECK(parsed.options->host == "0.0.0.0");
  CHECK(parsed.options->region == "eu-west-1");
  CHECK(parsed.options->account_id == "123456789012");
}

TEST_CASE("DynamoDB Local's flags are accepted") {
  ParsedOptions parsed = Parse({"-port", "8001", "-inMemory", "-sharedDb", "-cors", "*",
                                "-delayTransientStatuses", "-disableTelemetry"});
  REQUIRE(parsed.options);
  CHECK(parsed.options->port == 8001);
  CHECK(parsed.options->shared_db);
  CHECK(parsed.options->table_delay_ms == 500);
  CHECK(parsed.options->cors == "*");
  // DynamoDB Local's -cors defaults to '*'; ddbd's default stays loopback-only with its flags.
  CHECK(Parse({"-inMemory"}).options->cors.empty());
  CHECK(Parse({"--allowed-hosts", "ddb.test", "--metrics-token", "t0k"}).options->allowed_hosts ==
        "ddb.test");
  CHECK_FALSE(parsed.options->wal_point_in_time);
  CHECK(Parse({"--wal-recovery-mode", "point-in-time"}).options->wal_point_in_time);
  CHECK_FALSE(Parse({"--wal-recovery-mode=tolerate-corrupted-tail"}).options->wal_point_in_time);
  CHECK(Parse({"--wal-recovery-mode", "skip"}).error ==
        "--wal-recovery-mode: expected tolerate-corrupted-tail or point-in-time, got 'skip'");
  CHECK(Parse({"-dbPath", "/tmp/data"}).options->db_path == "/tmp/data");
  CHECK(Parse({"-help"}).options->show_help);
  CHECK(Parse({"-version"}).options->show_version);
}

TEST_CASE("Throughput is enforced only when asked, by flag or environment") {
  CHECK_FALSE(Parse({}).options->enforce_throughput);
  CHECK(Parse({"--enforce-throughput"}).options->enforce_throughput);
  CHECK(Parse({}, {{"DDBD_ENFORCE_THROUGHPUT", "1"}}).options->enforce_throughput);
  CHECK_FALSE(Parse({}, {{"DDBD_ENFORCE_THROUGHPUT", "0"}}).options->enforce_throughput);
  CHECK(Parse({}, {{"DDBD_ENFORCE_THROUGHPUT", "yes"}}).error ==
        "DDBD_ENFORCE_THROUGHPUT: expected 1, true, 0 or false, got 'yes'");
  CHECK(Parse({"--enforce-throughput=1"}).error == "--enforce-throughput takes no value");
}

TEST_CASE("Transactions can be held for a while") {
  CHECK(Parse({}).options->transaction_hold_ms == 0);
  CHECK(Parse({"--transaction-hold-ms", "250"}).options->transaction_hold_ms == 250);
  CHECK(Parse({}, {{"DDBD_TRANSACTION_HOLD_MS", "5"}}).options->transaction_hold_ms == 5);
  CHECK(Parse({"--transaction-hold-ms", "-1"}).error ==
        "--transaction-hold-ms: expected an integer from 0 to 5000, got '-1'");
  CHECK(Parse({"--transaction-hold-ms", "5001"}).error ==
        "--transaction-hold-ms: expected an integer from 0 to 5000, got '5001'");
}

TEST_CASE("DynamoDB Local's command lines run unchanged, with its meanings (issue 37)") {
  // Java's arguments, as in DynamoDB Local's documented command line, are taken and set aside.
  ParsedOptions java = Parse({"-Djava.library.path=./DynamoDBLocal_lib", "-Xmx512m", "-jar",
                              "DynamoDBLocal.jar", "-sharedDb", "-port", "8001"});
  REQUIRE(java.options);
  CHECK(java.options->ignored_java_args ==
        std::vector<std::string>{"-Djava.library.path=./DynamoDBLocal_lib", "-Xmx512m", "-jar",
                                 "DynamoDBLocal.jar"});
  CHECK(java.options->port == 8001);
  CHECK(java.options->dynamodb_local);
  // Without -inMemory the data persists: in -dbPath, else the working directory.
  CHECK(java.options->db_path == ".");
  CHECK(Parse({"-dbPath", "/tmp/data", "-sharedDb"}).options->db_path == "/tmp/data");
  CHECK(Parse({"-inMemory"}).options->db_path.empty());
  CHECK(Parse({"-inMemory"}).options->dynamodb_local_in_memory);
  CHECK(Parse({"-port", "9000"}, {{"DDBD_DB_PATH", "/srv/ddbd"}}).options->db_path == "/srv/ddbd");
  // ddbd's own flags keep ddbd's meaning: in memory unless --db-path.
  CHECK(Parse({"--port", "9000"}).options->db_path.empty());
  CHECK_FALSE(Parse({"--port", "9000"}).options->dynamodb_local);
  // DynamoDB Local's refusals, in its words.
  CHECK(Parse({"-inMemory", "-dbPath", "/tmp/data"}).error ==
        "dbPath and inMemory cannot be set at the same time.");
  CHECK(Parse({"-dbPath", "/tmp/data", "-inMemory"}).error ==
        "dbPath and inMemory cannot be set at the same time.");
  CHECK(Parse({"-optimizeDbBeforeStartup", "-sharedDb"}).error ==
        "optimizeDbBeforeStartup option must be used with dbPath to determine the location of "
        "database files to optimize.");
  CHECK(Parse({"-optimizeDbBeforeStartup", "-dbPath", "/tmp/data"}).options->db_path ==
        "/tmp/data");
  // A lone -jar is not Java's: an unknown flag as before.
  CHECK(Parse({"-jar"}).error == "unknown flag '-jar' (see --help)");
}

TEST_CASE("The server log is text unless --log-format json") {
  CHECK_FALSE(Parse({}).options->log_json);
  CHECK(Parse({"--log-format", "json"}).options->log_json);
  CHECK(Parse({}, {{"DDBD_LOG_FORMAT", "json"}}).options->log_json);
  CHECK_FALSE(Parse({"--log-format=text"}, {{"DDBD_LOG_FORMAT", "json"}}).options->log_json);
  CHECK(Parse({"--log-format", "xml"}).error == "--log-format: expected text or json, got 'xml'");
}

TEST_CASE("Namespaces: DynamoDB Local's rule, or --namespaces") {
  CHECK_FALSE(Parse({}).options->namespaces_by_credentials);
  CHECK_FALSE(Parse({"--port", "8000"}).options->namespaces_by_credentials);
  // A single-dash DynamoDB Local flag without -sharedDb: a database per key and region.
  CHECK(Parse({"-inMemory"}).options->namespaces_by_credentials);
  CHECK(Parse({"-port", "8000"}).options->namespaces_by_credentials);
  CHECK_FALSE(Parse({"-inMemory", "-sharedDb"}).options->namespaces_by_credentials);
  CHECK_FALSE(Parse({"-sharedDb", "-port", "8000"}).options->namespaces_by_credentials);
  // Said outright, it wins either way.
  CHECK(Parse({"--namespaces", "credentials"}).options->namespaces_by_credentials);
  CHECK_FALSE(Parse({"-inMemory", "--namespaces=shared"}).options->namespaces_by_credentials);
  CHECK_FALSE(
      Parse({"-inMemory"}, {{"DDBD_NAMESPACES", "shared"}}).options->namespaces_by_credentials);
  CHECK(Parse({"--namespaces", "keys"}).error ==
        "--namespaces: expected credentials, region or shared, got 'keys'");
  // One database per region, shared by every key (global tables).
  const auto by_region = Parse({"--namespaces", "region"});
  CHECK(by_region.options->namespaces_by_credentials);
  CHECK(by_region.options->namespaces_by_region);
  CHECK_FALSE(Parse({"--namespaces", "credentials"}).options->namespaces_by_region);
  CHECK(Parse({}).options->replication_delay_ms == 500);
  CHECK(Parse({"--replication-delay-ms", "0"}).options->replication_delay_ms == 0);
}

TEST_CASE("Persistence: a directory, and how durable an answer is") {
  CHECK(Parse({}).options->sync_full);
  CHECK_FALSE(Parse({"--db-path", "/data", "--sync", "off"}).options->sync_full);
  CHECK(Parse({}, {{"DDBD_SYNC", "full"}}).options->sync_full);
  CHECK(Parse({}, {{"DDBD_DB_PATH", "/data"}}).options->db_path == "/data");
  CHECK(Parse({"--sync", "sometimes"}).error == "--sync: expected full or off, got 'sometimes'");
  CHECK(Parse({"--ttl-interval-ms", "0", "--ttl-cooldown-ms", "0"}).options->ttl_interval_ms == 0);
  CHECK(Parse({"--stream-max-bytes", "0"}).error ==
        "--stream-max-bytes: expected an integer from 1 to 1099511627776, got '0'");
  CHECK(Parse({}).options->checkpoint_log_bytes == 64 << 20);
  CHECK(Parse({"--checkpoint-log-bytes", "0"}).options->checkpoint_log_bytes == 0);
  CHECK(Parse({}, {{"DDBD_CHECKPOINT_LOG_BYTES", "1000"}}).options->checkpoint_log_bytes == 1000);
  CHECK(Parse({"--checkpoint-log-bytes", "-1"}).error ==
        "--checkpoint-log-bytes: expected an integer from 0 to 1099511627776, got '-1'");
}

TEST_CASE("Bad flags name the flag and what it accepts") {
  CHECK(Parse({"--port", "http"}).error ==
        "--port: expected an integer from 0 to 65535, got 'http'");
  CHECK(Parse({"--port", "70000"}).error ==
        "--port: expected an integer from 0 to 65535, got '70000'");
  CHECK(Parse({"--port"}).error == "--port needs a value (see --help)");
  CHECK(Parse({"--frobnicate"}).error == "unknown flag '--frobnicate' (see --help)");
  CHECK(Parse({"-frobnicate"}).error == "unknown flag '-frobnicate' (see --help)");
  CHECK(Parse({"--account-id", "12"}).error == "--account-id: expected 12 digits, got '12'");
  CHECK(Parse({"--item-collection-limit-bytes", "0"}).error ==
        "--item-collection-limit-bytes: expected an integer from 1 to 10737418240, got '0'");
  CHECK(Parse({"--item-collection-limit-bytes=4096"}).options->item_collection_limit_bytes == 4096);
  CHECK(Parse({}, {{"DDBD_ITEM_COLLECTION_LIMIT_BYTES", "64"}})
            .options->item_collection_limit_bytes == 64);
  CHECK(Parse({"--log-level", "loud"}).error ==
        "--log-level: expected one of trace, debug, info, warn, error, critical, off, got 'loud'");
  CHECK(Parse({}, {{"DDBD_PORT", "x"}}).error ==
        "DDBD_PORT: expected an integer from 0 to 65535, got 'x'");
  CHECK(Parse({"--help=yes"}).error == "--help takes no value");
  CHECK(Parse({"--request-timeout-ms", "0"}).error ==
        "--request-timeout-ms: expected an integer from 1 to 3600000, got '0'");
}

}  // namespace
TEST_CASE("Signature keys come from a flag, the environment or a file") {
  ParsedOptions flag = Parse({"--auth-keys", "AKID:secret,OTHER:other:with:colons"});
  REQUIRE(flag.options);
  CHECK(flag.options->auth_keys ==
        std::map<std::string, std::string>{{"AKID", "secret"}, {"OTHER", "other:with:colons"}});
  ParsedOptions env = Parse({}, {{"DDBD_AUTH_KEYS", "ENVKEY:s"}});
  REQUIRE(env.options);
  CHECK(env.options->auth_keys.count("ENVKEY") == 1);
  CHECK(Parse({}).options->auth_keys.empty());
  // An error never repeats the value: it holds a secret.
  CHECK(Parse({"--auth-keys", "no-colon-secret"}).error ==
        "--auth-keys: expected KEYID:SECRET[,KEYID:SECRET...]");
  CHECK(Parse({}, {{"DDBD_AUTH_KEYS", "a/b:c"}}).error ==
        "DDBD_AUTH_KEYS: an access key id cannot hold '/', ',' or spaces");

  const std::string path = (std::filesystem::temp_directory_path() /
                            ("ddbd-options-test-" + std::to_string(::getpid()) + ".keys"))
                               .string();
  {
    std::ofstream file(path);
    file << "# keys\nFILEKEY:file-secret\r\n\nSECOND:two\n";
  }
  ParsedOptions file = Parse({"--auth-keys-file", path});
  REQUIRE(file.options);
  CHECK(file.options->auth_keys ==
        std::map<std::string, std::string>{{"FILEKEY", "file-secret"}, {"SECOND", "two"}});
  {
    std::ofstream broken(path);
    broken << "GOOD:one\nbroken\n";
  }
  CHECK(Parse({"--auth-keys-file", path}).error ==
        "--auth-keys-file: " + path + ":2: expected KEYID:SECRET");
  std::remove(path.c_str());
  CHECK(Parse({"--auth-keys-file", path}).error == "--auth-keys-file: cannot read '" + path + "'");
}

TEST_CASE("The connection limit is a count, 0 for none") {
  CHECK(Parse({}).options->max_connections == 0);
  CHECK(Parse({"--max-connections", "64"}).options->max_connections == 64);
  CHECK(Parse({}, {{"DDBD_MAX_CONNECTIONS", "8"}}).options->max_connections == 8);
  CHECK(Parse({"--max-connections", "-1"}).error ==
        "--max-connections: expected an integer from 0 (no limit) to 1000000, got '-1'");
}

TEST_CASE("The console is on unless turned off, and the access log names a file") {
  CHECK(Parse({}).options->console);
  CHECK(!Parse({"--console", "off"}).options->console);
  CHECK(!Parse({}, {{"DDBD_CONSOLE", "off"}}).options->console);
  CHECK(Parse({"--console", "no"}).error == "--console: expected on or off, got 'no'");
  CHECK(Parse({}).options->access_log.empty());
  CHECK(Parse({"--access-log", "-"}).options->access_log == "-");
  CHECK(Parse({}, {{"DDBD_ACCESS_LOG", "/var/log/ddbd.jsonl"}}).options->access_log ==
        "/var/log/ddbd.jsonl");
  CHECK(Parse({"--access-log", ""}).error ==
        "--access-log: expected a file, or - for standard output, got ''");
}

TEST_CASE("Seed paths repeat, split at colons, and flags replace DDBD_SEED") {
  CHECK(Parse({}).options->seed.empty());
  CHECK(Parse({"--seed", "a", "--seed", "b:c"}).options->seed ==
        std::vector<std::string>{"a", "b", "c"});
  CHECK(Parse({}, {{"DDBD_SEED", "/x:/y"}}).options->seed == std::vector<std::string>{"/x", "/y"});
  CHECK(Parse({"--seed=/z"}, {{"DDBD_SEED", "/x:/y"}}).options->seed ==
        std::vector<std::string>{"/z"});
  CHECK(Parse({"--seed", ":"}).error == "--seed: expected a file or directory, got ':'");
}

TEST_CASE("The admin API is off unless asked, alone it answers this machine, 'any' anyone") {
  CHECK(Parse({}).options->admin_api == AdminApiAccess::kOff);
  CHECK(Parse({"--admin-api"}).options->admin_api == AdminApiAccess::kLoopback);
  CHECK(Parse({"--admin-api", "any"}).options->admin_api == AdminApiAccess::kAny);
  CHECK(Parse({"--admin-api=any"}).options->admin_api == AdminApiAccess::kAny);
  // Alone before another flag, it takes its implicit value and leaves the flag be.
  ParsedOptions before = Parse({"--admin-api", "--port", "9"});
  REQUIRE(before.options);
  CHECK(before.options->admin_api == AdminApiAccess::kLoopback);
  CHECK(before.options->port == 9);
  CHECK(Parse({}, {{"DDBD_ADMIN_API", "any"}}).options->admin_api == AdminApiAccess::kAny);
  CHECK(Parse({"--admin-api", "everyone"}).error ==
        "--admin-api: expected loopback, any or off, got 'everyone'");
}

TEST_CASE("Switches read 1 or true from the environment, an empty variable is unset") {
  CHECK(Parse({}, {{"DDBD_STOP_WHEN_STDIN_CLOSES", "true"}}).options->stop_when_stdin_closes);
  CHECK(!Parse({}, {{"DDBD_ENFORCE_THROUGHPUT", "0"}}).options->enforce_throughput);
  CHECK(Parse({}, {{"DDBD_ENFORCE_THROUGHPUT", "yes"}}).error ==
        "DDBD_ENFORCE_THROUGHPUT: expected 1, true, 0 or false, got 'yes'");
  CHECK(Parse({}, {{"DDBD_PORT", ""}}).options->port == 8000);
  CHECK(Parse({}, {{"DDBD_DB_PATH", ""}}).options->db_path.empty());
  // DynamoDB Local's own switches have no variable, and no double-dash form.
  CHECK(Parse({"--inMemory"}).error == "unknown flag '--inMemory' (see --help)");
}

TEST_CASE("--help groups every option, and names each one's default and DynamoDB Local alias") {
  const std::string help = HelpText();
  for (const char* group : {"\nServing:\n", "\nStorage:\n", "\nDynamoDB Local compatibility:\n",
                            "\nSecurity:\n", "\nLimits:\n", "\nTime to Live and streams:\n",
                            "\nBackups:\n", "\nObservability:\n", "\nFor tests and CI:\n"}) {
    CHECK(help.find(group) != std::string::npos);
  }
  CHECK(help.find("  --port N               port to listen on; 0 picks a free one (default 8000; "
                  "DynamoDB Local: -port)") != std::string::npos);
  CHECK(help.find("  -inMemory ") != std::string::npos);
  CHECK(help.find("or:  ddbd dump --endpoint URL") != std::string::npos);
  CHECK(help.find("\nCommands (each has --help):\n  health ") != std::string::npos);
  // No line wider than 100 columns (help2man and terminals).
  size_t start = 0;
  while (start < help.size()) {
    size_t end = help.find('\n', start);
    if (end == std::string::npos) end = help.size();
    CHECK(end - start <= 100);
    start = end + 1;
  }
}

TEST_CASE("The README's options table is the one the declarations make") {
  // Regenerate it with DDBD_UPDATE_README=1 ctest -R 'options table'.
  const std::string path = std::string(DDBD_SOURCE_DIR) + "/README.md";
  std::ifstream file(path);
  REQUIRE(file);
  std::string readme((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  const std::string begin_marker = "<!-- options: made from config/option_table.cc -->\n";
  const std::string end_marker = "<!-- end of options -->";
  const size_t begin = readme.find(begin_marker);
  const size_t end = readme.find(end_marker);
  REQUIRE(begin != std::string::npos);
  REQUIRE(end != std::string::npos);
  const size_t from = begin + begin_marker.size();
  const std::string table = OptionsMarkdown();
  if (readme.compare(from, end - from, table) != 0 &&
      std::getenv("DDBD_UPDATE_README") != nullptr) {
    readme.replace(from, end - from, table);
    std::ofstream(path) << readme;
    return;
  }
  CHECK(readme.substr(from, end - from) == table);
}

}  // namespace ddbd
