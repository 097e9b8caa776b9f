#include "config/option_table.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <fstream>

namespace ddbd::option_table {
namespace {

// DynamoDB Local's -delayTransientStatuses: a delay long enough for clients to see the status.
constexpr int64_t kDynamoDbLocalTransientDelayMs = 500;

std::string Got(std::string_view expected, std::string_view value) {
  return std::string(expected) + ", got '" + std::string(value) + "'";
}

template <typename T>
std::string Integer(std::string_view text, T min, T max, T& out, std::string_view min_note = "") {
  T value{};
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < min || value > max) {
    return Got("expected an integer from " + std::to_string(min) + std::string(min_note) + " to " +
                   std::to_string(max),
               text);
  }
  out = value;
  return "";
}

// One of `choices` (the first is what "expected ..." names first).
std::string Choice(std::string_view text, std::initializer_list<std::string_view> choices,
                   std::string_view expected) {
  return std::find(choices.begin(), choices.end(), text) == choices.end() ? Got(expected, text)
                                                                          : "";
}

// Adds one KEYID:SECRET pair; what is wrong (naming neither: secrets stay out of logs) or "".
std::string AddAuthKey(Options& options, std::string_view pair) {
  const size_t colon = pair.find(':');
  if (colon == std::string_view::npos || colon == 0 || colon + 1 == pair.size()) {
    return "expected KEYID:SECRET";
  }
  const std::string_view key_id = pair.substr(0, colon);
  if (key_id.find_first_of("/, ") != std::string_view::npos) {
    return "an access key id cannot hold '/', ',' or spaces";
  }
  options.auth_keys[std::string(key_id)] = std::string(pair.substr(colon + 1));
  return "";
}

std::string ApplyAuthKeys(Options& options, std::string_view list) {
  size_t start = 0;
  while (start <= list.size()) {
    size_t end = list.find(',', start);
    if (end == std::string_view::npos) end = list.size();
    if (std::string problem = AddAuthKey(options, list.substr(start, end - start));
        !problem.empty()) {
      return problem + (problem == "expected KEYID:SECRET" ? "[,KEYID:SECRET...]" : "");
    }
    start = end + 1;
  }
  return "";
}

// One KEYID:SECRET a line; blank lines and lines starting with '#' are skipped.
std::string ApplyAuthKeysFile(Options& options, std::string_view file_name) {
  const std::string path(file_name);
  std::ifstream file(path);
  if (!file) return "cannot read '" + path + "'";
  std::string line;
  for (int number = 1; std::getline(file, line); ++number) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    if (std::string problem = AddAuthKey(options, line); !problem.empty()) {
      return path + ":" + std::to_string(number) + ": " + problem;
    }
  }
  return "";
}

std::string ApplySeed(Options& options, std::string_view value) {
  const size_t before = options.seed.size();
  size_t start = 0;
  while (start <= value.size()) {
    size_t end = value.find(':', start);
    if (end == std::string_view::npos) end = value.size();
    if (end > start) options.seed.emplace_back(value.substr(start, end - start));
    start = end + 1;
  }
  return options.seed.size() == before ? Got("expected a file or directory", value) : "";
}

// N or A-B milliseconds, each at most an hour: a delay, or the range one is drawn from.
std::string DelayRange(std::string_view text, int64_t& min_ms, int64_t& max_ms) {
  const size_t dash = text.find('-');
  const std::string_view low = text.substr(0, dash);
  const std::string_view high = dash == std::string_view::npos ? text : text.substr(dash + 1);
  if (std::string error = Integer<int64_t>(low, 0, 3'600'000, min_ms); !error.empty()) {
    return error;
  }
  if (std::string error = Integer<int64_t>(high, 0, 3'600'000, max_ms); !error.empty()) {
    return error;
  }
  if (max_ms < min_ms) return Got("expected A-B with A <= B", text);
  return "";
}

std::string NotEmpty(std::string_view value, std::string& out, std::string_view what) {
  if (value.empty()) return Got(what, value);
  out = value;
  return "";
}

constexpr std::array<GroupText, 10> kGroups = {{
    {Group::kServing, "Serving"},
    {Group::kStorage, "Storage"},
    {Group::kDynamoDbLocal, "DynamoDB Local compatibility"},
    {Group::kSecurity, "Security"},
    {Group::kLimits, "Limits"},
    {Group::kTimeToLiveAndStreams, "Time to Live and streams"},
    {Group::kBackups, "Backups"},
    {Group::kObservability, "Observability"},
    {Group::kTesting, "For tests and CI"},
    {Group::kGeneral, "General"},
}};

// clang-format off
const std::array kOptions = {
  // Serving
  Option{"host", "", "HOST", "127.0.0.1", Group::kServing,
    "address to listen on: 0.0.0.0 for every IPv4 address, :: for IPv4 and IPv6; localhost "
    "means 127.0.0.1",
    [](Options& o, std::string_view v) -> std::string {
      if (v.empty()) return Got("expected a host name or address", v);
      o.host = v == "localhost" ? std::string_view("127.0.0.1") : v;
      return "";
    }},
  Option{"port", "-port", "N", "8000", Group::kServing, "port to listen on; 0 picks a free one",
    [](Options& o, std::string_view v) { return Integer<uint16_t>(v, 0, 65535, o.port); }},
  Option{"port-file", "", "PATH", "", Group::kServing,
    "write the bound port to PATH once listening",
    [](Options& o, std::string_view v) { o.port_file = v; return std::string(); }},
  Option{"threads", "", "N", "0, one per usable core", Group::kServing, "I/O threads",
    [](Options& o, std::string_view v) {
      return Integer<unsigned>(v, 0, 256, o.threads, " (one per core)");
    }},
  Option{"region", "", "NAME", "us-east-1", Group::kServing,
    "region in ARNs and the health check",
    [](Options& o, std::string_view v) -> std::string {
      const bool valid = !v.empty() && std::all_of(v.begin(), v.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
      });
      if (!valid) return Got("expected a region name such as us-east-1", v);
      o.region = v;
      return "";
    }},
  Option{"account-id", "", "ID", "000000000000", Group::kServing, "12-digit account id in ARNs",
    [](Options& o, std::string_view v) -> std::string {
      const bool valid = v.size() == 12 && std::all_of(v.begin(), v.end(), [](char c) {
        return c >= '0' && c <= '9';
      });
      if (!valid) return Got("expected 12 digits", v);
      o.account_id = v;
      return "";
    }},
  Option{"tls-cert", "", "FILE", "", Group::kServing,
    "serve HTTPS (TLS 1.2 or newer) with this PEM certificate chain, on --port or on --tls-port",
    [](Options& o, std::string_view v) {
      return NotEmpty(v, o.tls_cert, "expected a PEM certificate file");
    }},
  Option{"tls-key", "", "FILE", "", Group::kServing, "the certificate's PEM private key",
    [](Options& o, std::string_view v) {
      return NotEmpty(v, o.tls_key, "expected a PEM private key file");
    }},
  Option{"tls-port", "", "N", "", Group::kServing,
    "serve HTTPS on N beside plain HTTP on --port (0 picks a free port)",
    [](Options& o, std::string_view v) { return Integer<int32_t>(v, 0, 65535, o.tls_port); }},
  Option{"console", "", "on|off", "on", Group::kServing, "the web console at /console",
    [](Options& o, std::string_view v) {
      o.console = v == "on";
      return Choice(v, {"on", "off"}, "expected on or off");
    }},

  // Storage
  Option{"db-path", "-dbPath", "DIR", "memory only", Group::kStorage,
    "keep the data in DIR: every change is logged there and answered once on disk; a restart, "
    "even after kill -9, finds everything acknowledged. One ddbd per directory",
    [](Options& o, std::string_view v) {
      return NotEmpty(v, o.db_path, "expected a directory");
    }},
  Option{"sync", "", "full|off", "full", Group::kStorage,
    "with --db-path: full syncs each group of writes before answering them; off answers once "
    "written (a machine crash may lose the last writes, never corrupt the rest)",
    [](Options& o, std::string_view v) {
      o.sync_full = v == "full";
      return Choice(v, {"full", "off"}, "expected full or off");
    }},
  Option{"wal-recovery-mode", "", "tolerate-corrupted-tail|point-in-time",
    "tolerate-corrupted-tail", Group::kStorage,
    "what a start does with a damaged log: the default drops only a write a crash cut short at "
    "the end of the newest segment and refuses any other damage, naming the file, the offset and "
    "what would be lost; point-in-time replays up to the damage and moves the rest to DIR/lost/",
    [](Options& o, std::string_view v) {
      o.wal_point_in_time = v == "point-in-time";
      return Choice(v, {"tolerate-corrupted-tail", "point-in-time"},
                    "expected tolerate-corrupted-tail or point-in-time");
    }},
  Option{"checkpoint-log-bytes", "", "N", "67108864, 64 MiB", Group::kStorage,
    "with --db-path: once the log has grown N bytes (and past the data it holds), write a "
    "checkpoint in the background and delete the log it replaces; 0: only at start",
    [](Options& o, std::string_view v) {
      return Integer<int64_t>(v, 0, int64_t{1} << 40, o.checkpoint_log_bytes);
    }},
  Option{"namespaces", "", "credentials|region|shared", "shared", Group::kStorage,
    "credentials: a database for each access key id and region requests are signed with "
    "(DynamoDB Local without -sharedDb; with --db-path each in DIR/<key>_<region>; a 12-digit "
    "key is its own account in ARNs, for multi-account global tables); region: one for each "
    "region, shared by every key (global tables replicate between regions in both); shared: one "
    "for all. Unset, credentials when a DynamoDB Local flag is given without -sharedDb",
    [](Options& o, std::string_view v) {
      o.namespaces_by_credentials = v == "credentials" || v == "region";
      o.namespaces_by_region = v == "region";
      return Choice(v, {"credentials", "region", "shared"},
                    "expected credentials, region or shared");
    }},

  // DynamoDB Local's own switches (its -port, -dbPath, -cors, -help and -version are aliases of
  // ddbd's flags).
  Option{"", "-inMemory", "", "", Group::kDynamoDbLocal,
    "keep the data in memory; without it DynamoDB Local's flags keep it in -dbPath, else the "
    "working directory (in ddbd's format)",
    [](Options& o, std::string_view) {
      o.db_path.clear();
      o.dynamodb_local_in_memory = true;
      return std::string();
    }, false},
  Option{"", "-sharedDb", "", "", Group::kDynamoDbLocal,
    "one database for every access key id and region (--namespaces shared)",
    [](Options& o, std::string_view) { o.shared_db = true; return std::string(); }, false},
  Option{"", "-delayTransientStatuses", "", "", Group::kDynamoDbLocal,
    "tables stay CREATING, UPDATING or DELETING a moment (--table-delay-ms 500)",
    [](Options& o, std::string_view) {
      o.table_delay_ms = kDynamoDbLocalTransientDelayMs;
      return std::string();
    }, false},
  Option{"", "-disableTelemetry", "", "", Group::kDynamoDbLocal,
    "accepted; ddbd sends no telemetry",
    [](Options&, std::string_view) { return std::string(); }, false},
  Option{"", "-optimizeDbBeforeStartup", "", "", Group::kDynamoDbLocal,
    "accepted with -dbPath (refused without it, as DynamoDB Local refuses it)",
    [](Options&, std::string_view) { return std::string(); }, false},

  // Security
  Option{"cors", "-cors", "ORIGINS", "loopback origins and the console", Group::kSecurity,
    "origins a browser page may call ddbd from, comma-separated, or *; pages on loopback origins "
    "(localhost, 127.x.x.x, [::1], any port) and ddbd's own console always may",
    [](Options& o, std::string_view v) { o.cors = v; return std::string(); }},
  Option{"allowed-hosts", "", "NAMES", "none", Group::kSecurity,
    "when listening on loopback, Host names accepted besides loopback ones, comma-separated, or "
    "*; others get HTTP 403",
    [](Options& o, std::string_view v) { o.allowed_hosts = v; return std::string(); }},
  Option{"auth-keys", "", "KEYID:SECRET[,...]", "any well-formed signature passes",
    Group::kSecurity,
    "verify every request's Signature Version 4 signature against these keys, as DynamoDB does "
    "(UnrecognizedClientException, InvalidSignatureException)",
    ApplyAuthKeys},
  Option{"auth-keys-file", "", "FILE", "", Group::kSecurity,
    "the same keys from FILE, one KEYID:SECRET a line ('#' comments)", ApplyAuthKeysFile},
  Option{"metrics-token", "", "TOKEN", "none", Group::kSecurity,
    "with --auth-keys, /metrics names tables only to a scrape sending 'Authorization: Bearer "
    "TOKEN'",
    [](Options& o, std::string_view v) { o.metrics_token = v; return std::string(); }},

  // Limits
  Option{"request-timeout-ms", "", "N", "60000", Group::kLimits,
    "time to send a whole request (a client trickling it is dropped), to take an answer, and "
    "idle time before a kept-alive connection closes (checked every quarter of it, every 10 ms "
    "to 1 s: a connection past it closes within that much more)",
    [](Options& o, std::string_view v) {
      return Integer<int64_t>(v, 1, 3'600'000, o.request_timeout_ms);
    }},
  Option{"max-connections", "", "N", "0, no limit", Group::kLimits,
    "the most connections open at once; more wait in the listen backlog",
    [](Options& o, std::string_view v) {
      return Integer<int64_t>(v, 0, 1'000'000, o.max_connections, " (no limit)");
    }},
  Option{"answer-buffer-bytes", "", "N", "268435456, 256 MiB", Group::kLimits,
    "the most bytes of answers waiting for clients that have not taken them, all connections "
    "together; past it the slowest readers are dropped (0: no limit)",
    [](Options& o, std::string_view v) {
      return Integer<int64_t>(v, 0, int64_t{1} << 40, o.answer_buffer_bytes, " (no limit)");
    }},
  Option{"item-collection-limit-bytes", "", "N", "10737418240, DynamoDB's 10 GB", Group::kLimits,
    "largest item collection of a table with local secondary indexes; lower it to test "
    "ItemCollectionSizeLimitExceededException",
    [](Options& o, std::string_view v) {
      return Integer<int64_t>(v, 1, int64_t{10} << 30, o.item_collection_limit_bytes);
    }},
  Option{"enforce-throughput", "", "", "off", Group::kLimits,
    "throttle requests over a table's or index's provisioned capacity (with 300 s of burst) or "
    "OnDemandThroughput ceilings, as DynamoDB does",
    [](Options& o, std::string_view) { o.enforce_throughput = true; return std::string(); }},

  // Time to Live and streams
  Option{"ttl-interval-ms", "", "N", "1000", Group::kTimeToLiveAndStreams,
    "look for expired items every N ms and delete them (DynamoDB takes minutes to days); 0: never",
    [](Options& o, std::string_view v) {
      return Integer<int64_t>(v, 0, 86'400'000, o.ttl_interval_ms);
    }},
  Option{"ttl-cooldown-ms", "", "N", "3600000, DynamoDB's hour", Group::kTimeToLiveAndStreams,
    "refuse an UpdateTimeToLive within N ms of the table's last TTL change; 0 turns it off, for "
    "suites that toggle TTL",
    [](Options& o, std::string_view v) {
      return Integer<int64_t>(v, 0, 86'400'000, o.ttl_cooldown_ms);
    }},
  Option{"stream-shard-rollover-ms", "", "N", "14400000, four hours", Group::kTimeToLiveAndStreams,
    "close each stream's open shard and open its child every N ms",
    [](Options& o, std::string_view v) {
      return Integer<int64_t>(v, 1, 86'400'000, o.stream_shard_rollover_ms);
    }},
  Option{"stream-max-bytes", "", "N", "268435456, 256 MiB", Group::kTimeToLiveAndStreams,
    "the most stream record bytes one table keeps; the oldest are trimmed first (records also go "
    "after 24 hours)",
    [](Options& o, std::string_view v) {
      return Integer<int64_t>(v, 1, int64_t{1} << 40, o.stream_max_bytes);
    }},
  Option{"kinesis-endpoint", "", "URL", "none", Group::kTimeToLiveAndStreams,
    "deliver the changes of tables with a Kinesis streaming destination to this Kinesis-compatible "
    "server (kinesalite, LocalStack, AWS: http(s)://host[:port]) with PutRecords, signed with "
    "AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN for --region; without it "
    "destinations are kept and nothing is sent",
    [](Options& o, std::string_view v) {
      if (!v.starts_with("http://") && !v.starts_with("https://")) {
        return Got("expected http://host[:port] or https://host[:port]", v);
      }
      return NotEmpty(v, o.kinesis_endpoint, "expected a URL");
    }},

  Option{"stream-trigger", "", "TABLE=URL[,NAME=VALUE...]", "none", Group::kTimeToLiveAndStreams,
    "act as Lambda's event source mapping for TABLE's stream: POST batches of its records, in "
    "Lambda's DynamoDB event format, to URL (the Lambda Runtime Interface Emulator's invoke URL, "
    "sam local start-lambda's, any HTTP handler), in order, at least once; the mapping's settings "
    "as the AWS CLI names them: batch-size, maximum-batching-window-in-seconds, "
    "starting-position, maximum-retry-attempts, maximum-record-age-in-seconds, "
    "bisect-batch-on-function-error, function-response-types=ReportBatchItemFailures, filter "
    "(a pattern, up to 5), on-failure=FILE, function-name; repeatable",
    [](Options& o, std::string_view v) {
      std::string problem;
      auto spec = ParseStreamTrigger(v, problem);
      if (!spec) return problem;
      o.stream_triggers.push_back(std::move(*spec));
      return std::string();
    }},

  // Backups
  Option{"pitr-history-bytes", "", "N", "268435456, 256 MiB", Group::kBackups,
    "the most bytes of point-in-time history (the items its changes replaced) one table keeps; "
    "past it the oldest go and the earliest restorable time moves up",
    [](Options& o, std::string_view v) {
      return Integer<int64_t>(v, 1, int64_t{1} << 40, o.pitr_history_bytes);
    }},
  Option{"pitr-history-ms", "", "N", "0, the table's RecoveryPeriodInDays", Group::kBackups,
    "keep point-in-time history at most N ms",
    [](Options& o, std::string_view v) {
      return Integer<int64_t>(v, 0, int64_t{35} * 86'400'000, o.pitr_history_ms);
    }},
  Option{"pitr-lag-ms", "", "N", "300000, DynamoDB's five minutes", Group::kBackups,
    "how far behind now the latest restorable time is; 0 lets a test restore to just now",
    [](Options& o, std::string_view v) {
      return Integer<int64_t>(v, 0, 86'400'000, o.pitr_lag_ms);
    }},

  Option{"s3-dir", "", "DIR", "none: exports and imports fail S3NoSuchBucket", Group::kBackups,
    "keep S3 buckets in DIR for ExportTableToPointInTime and ImportTable: bucket b is the "
    "directory DIR/b (create it first), key x/y the file DIR/b/x/y",
    [](Options& o, std::string_view v) {
      return NotEmpty(v, o.s3_dir, "expected a directory");
    }},
  Option{"s3-endpoint", "", "URL", "none", Group::kBackups,
    "keep the buckets of exports and imports on an S3-compatible server instead (MinIO, "
    "LocalStack, AWS: http(s)://host[:port], path-style), signed with AWS_ACCESS_KEY_ID, "
    "AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN",
    [](Options& o, std::string_view v) {
      if (!v.starts_with("http://") && !v.starts_with("https://")) {
        return Got("expected http://host[:port] or https://host[:port]", v);
      }
      return NotEmpty(v, o.s3_endpoint, "expected a URL");
    }},
  Option{"s3-region", "", "REGION", "--region's", Group::kBackups,
    "the region --s3-endpoint's requests are signed for",
    [](Options& o, std::string_view v) {
      return NotEmpty(v, o.s3_region, "expected a region");
    }},

  // Observability
  Option{"log-level", "", "LEVEL", "info", Group::kObservability,
    "trace, debug, info, warn, error, critical or off",
    [](Options& o, std::string_view v) {
      o.log_level = v;
      return Choice(v, {"trace", "debug", "info", "warn", "error", "critical", "off"},
                    "expected one of trace, debug, info, warn, error, critical, off");
    }},
  Option{"log-format", "", "text|json", "text", Group::kObservability,
    "json: the server log as one JSON object a line (time, level, message); DynamoDB Local's "
    "banner stays as it prints it",
    [](Options& o, std::string_view v) {
      o.log_json = v == "json";
      return Choice(v, {"text", "json"}, "expected text or json");
    }},
  Option{"access-log", "", "FILE", "none", Group::kObservability,
    "one JSON line per DynamoDB request to FILE (- for standard output): time, request_id, "
    "operation, table, status, error, latency_ms, consumed_capacity",
    [](Options& o, std::string_view v) {
      return NotEmpty(v, o.access_log, "expected a file, or - for standard output");
    }},

  // For tests and CI
  Option{"seed", "", "PATH", "none", Group::kTesting,
    "before listening, create the tables and load the items PATH describes (a directory of "
    "<Table>.table.json and <Table>.items.jsonl[.gz], or one such file); repeatable, or "
    "several separated by ':'. A bad file stops the start with FILE:LINE: reason",
    ApplySeed},
  Option{"replication-delay-ms", "", "N", "500", Group::kTesting,
    "global tables: a change reaches the other regions' replicas N ms after it commits (0: at "
    "once; a table with multi-region strong consistency: before its write is answered, whatever "
    "N); the admin API can pause and resume replication (for a STRONG table, a cut between "
    "regions)",
    [](Options& o, std::string_view v) {
      return Integer<int64_t>(v, 0, 3'600'000, o.replication_delay_ms);
    }},
  Option{"gsi-lag-ms", "", "N|A-B", "0", Group::kTesting,
    "global secondary indexes take each write's changes N ms after it (A-B: a delay drawn from "
    "[A, B] per change, never overtaking an earlier one), so a Query or Scan of one may miss a "
    "write as on DynamoDB; local indexes stay synchronous; the admin API can pause and resume "
    "the propagation (0: inside the write)",
    [](Options& o, std::string_view v) {
      return DelayRange(v, o.gsi_lag_min_ms, o.gsi_lag_max_ms);
    }},
  Option{"stale-reads-ms", "", "N|A-B", "0", Group::kTesting,
    "eventually consistent reads (GetItem, BatchGetItem, Query, Scan; of tables and local "
    "indexes) see the table as it was N ms before (A-B: a delay drawn from [A, B] per read), so "
    "a read that omits ConsistentRead may miss a recent write as on DynamoDB; consistent reads, "
    "transactions and conditions see the latest (0: every read sees the latest)",
    [](Options& o, std::string_view v) {
      return DelayRange(v, o.stale_reads_min_ms, o.stale_reads_max_ms);
    }},
  Option{"table-delay-ms", "", "N", "0", Group::kTesting,
    "keep tables (and global tables' replicas) CREATING, UPDATING or DELETING for N ms, to "
    "exercise waiters",
    [](Options& o, std::string_view v) {
      return Integer<int64_t>(v, 0, 3'600'000, o.table_delay_ms);
    }},
  Option{"transaction-hold-ms", "", "N", "0", Group::kTesting,
    "hold a transaction's items N ms before it commits, so applications meet transactions in "
    "flight (TransactionConflict)",
    // At most half the server's 10 s shutdown grace: a held transaction is answered before the
    // server it answers through goes away.
    [](Options& o, std::string_view v) {
      return Integer<int64_t>(v, 0, 5'000, o.transaction_hold_ms);
    }},
  Option{"admin-api", "", "[loopback|any]", "off", Group::kTesting,
    "serve the admin API under /_ddbd/ (POST /_ddbd/ttl/sweep, GET and POST /_ddbd/clock, "
    "replication's and GSI propagation's pause and resume) to callers on this machine, or any "
    "with 'any'; signed requests only under --auth-keys",
    [](Options& o, std::string_view v) {
      o.admin_api = v == "off" ? AdminApiAccess::kOff
                    : v == "any" ? AdminApiAccess::kAny
                                 : AdminApiAccess::kLoopback;
      return Choice(v, {"loopback", "any", "off"}, "expected loopback, any or off");
    }, true, "loopback"},
  Option{"stop-when-stdin-closes", "", "", "off", Group::kTesting,
    "stop, as on SIGTERM, once standard input reaches its end: a harness that starts ddbd with "
    "a pipe there takes it down with it, even when the harness is killed",
    [](Options& o, std::string_view) { o.stop_when_stdin_closes = true; return std::string(); }},

  // General
  Option{"help", "-help", "", "", Group::kGeneral, "print this help and exit",
    [](Options& o, std::string_view) { o.show_help = true; return std::string(); }, false},
  Option{"version", "-version", "", "", Group::kGeneral, "print the version and exit",
    [](Options& o, std::string_view) { o.show_version = true; return std::string(); }, false},
};
// clang-format on

}  // namespace

std::span<const GroupText> Groups() { return kGroups; }
std::span<const Option> All() { return kOptions; }

}  // namespace ddbd::option_table
