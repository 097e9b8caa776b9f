// ddbd's settings, from command-line flags and DDBD_* environment variables (flags win).
// DynamoDB Local's single-dash flags are accepted too, so ddbd can replace it in existing scripts.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "config/stream_trigger_spec.h"

namespace ddbd {

// Who may call the admin API under /_ddbd/ (server/admin_api.h).
enum class AdminApiAccess { kOff, kLoopback, kAny };

struct Options {
  std::string host = "127.0.0.1";
  uint16_t port = 8000;            // 0 picks a free port
  std::string port_file;           // if set, the bound port is written here once listening
  unsigned threads = 0;            // I/O threads; 0 means one per core
  std::string log_level = "info";  // trace, debug, info, warn, error, critical, off
  std::string region = "us-east-1";
  std::string account_id = "000000000000";
  // Origins a browser page may call from, comma-separated, or "*": loopback origins and ddbd's
  // own console always may.
  std::string cors;
  // When bound to a loopback address, other Host names a request may use (comma-separated, or
  // "*" for any); loopback names always may.
  std::string allowed_hosts;
  // With auth_keys, the bearer token that lets a /metrics scrape see table names.
  std::string metrics_token;
  int64_t table_delay_ms = 0;          // how long CREATING/UPDATING/DELETING last
  int64_t request_timeout_ms = 60000;  // to receive a request, and to wait for the next one
  int64_t max_connections = 0;         // open at once; more wait in the backlog. 0: no limit
  // Answers waiting for clients that do not take them, all connections together; past it the
  // slowest readers are dropped. 0: no limit.
  int64_t answer_buffer_bytes = int64_t{256} << 20;
  // HTTPS: PEM certificate chain and key; with tls_port (>= 0) HTTPS is served there beside HTTP
  // on `port`, else `port` itself serves HTTPS.
  std::string tls_cert;
  std::string tls_key;
  int32_t tls_port = -1;
  // The built-in web console at /console (--console on|off).
  bool console = true;
  // One JSON line per DynamoDB request to this file ("-": standard output); empty: none.
  std::string access_log;
  // Seed files and directories, loaded before the server listens (--seed, repeatable; DDBD_SEED
  // with paths separated by ':').
  std::vector<std::string> seed;
  // An item collection's limit (a partition's items and LSI entries); DynamoDB's is 10 GB.
  int64_t item_collection_limit_bytes = int64_t{10} << 30;
  // Throttle over provisioned capacity (300 s of burst) and on-demand ceilings, as DynamoDB does.
  bool enforce_throughput = false;
  // Stop (as on SIGTERM) when standard input reaches its end: a test harness that started ddbd
  // with a pipe there takes it down with it, even when the harness is killed.
  bool stop_when_stdin_closes = false;
  bool log_json = false;  // --log-format json: the server log as JSON lines
  // How long a transaction holds its items before it commits (and answers): 0, none.
  int64_t transaction_hold_ms = 0;
  // Time to Live: the cooldown between UpdateTimeToLive calls (DynamoDB's hour; 0: none), and
  // how often the sweeper deletes expired items (0: never).
  int64_t ttl_cooldown_ms = 3'600'000;
  int64_t ttl_interval_ms = 1000;
  // Streams: how often a stream's open shard is closed and a child opened (DynamoDB's shards
  // roll over every few hours), and the most a table's stream keeps before trimming its oldest.
  int64_t stream_shard_rollover_ms = 4 * 3'600'000;
  int64_t stream_max_bytes = int64_t{256} << 20;
  int64_t pitr_history_bytes = int64_t{256} << 20;  // per table with point-in-time recovery
  int64_t pitr_history_ms = 0;                      // 0: the table's RecoveryPeriodInDays
  int64_t pitr_lag_ms = 300'000;                    // latest restorable moment behind now
  std::string s3_dir;       // exports' and imports' buckets: DIR/<bucket>; empty: none
  std::string s3_endpoint;  // or on this S3-compatible server; empty: none
  // Where Kinesis streaming destinations' records go (server/kinesis_streams.h); empty: nowhere.
  std::string kinesis_endpoint;
  // Stream triggers (--stream-trigger, repeatable): Lambda's event source mapping, locally.
  std::vector<StreamTriggerSpec> stream_triggers;
  std::string s3_region;  // its signing region; empty: --region's
  std::string db_path;    // data directory: every change is logged there; empty: memory only
  bool sync_full = true;  // --sync full (fdatasync before acknowledging) or off
  // --wal-recovery-mode point-in-time (true) or tolerate-corrupted-tail (false, the default).
  bool wal_point_in_time = false;
  // A checkpoint once the log has grown this much (and past the data's size); 0: only at start.
  int64_t checkpoint_log_bytes = int64_t{64} << 20;
  bool shared_db = false;  // DynamoDB Local's -sharedDb
  // Started with DynamoDB Local's (single-dash) flags: data persists unless -inMemory (in -dbPath,
  // else the working directory), GET / answers as DynamoDB Local does, and its configuration
  // banner is printed at start-up, for the tooling that waits for it.
  bool dynamodb_local = false;
  bool dynamodb_local_in_memory = false;  // -inMemory given (the banner says so)
  // Java's own arguments in a DynamoDB Local command line (-jar DynamoDBLocal.jar, -D..., -X...):
  // accepted and ignored, with one log line.
  std::vector<std::string> ignored_java_args;
  // One database for each access key id and region requests are signed with (DynamoDB Local's
  // rule without -sharedDb), or one for all (false, ddbd's default). Set by --namespaces
  // credentials|shared; without it, true when a single-dash DynamoDB Local flag was given and
  // -sharedDb was not.
  bool namespaces_by_credentials = false;
  // --namespaces region: one database per region, shared by every access key id (global tables
  // replicate between them).
  bool namespaces_by_region = false;
  // Global tables: how long a change takes to reach the other replicas (0: as soon as it commits).
  int64_t replication_delay_ms = 500;
  // --gsi-lag-ms N or A-B: global secondary indexes' delay after a write (0-0: none).
  int64_t gsi_lag_min_ms = 0;
  int64_t gsi_lag_max_ms = 0;
  // --stale-reads-ms N or A-B: how far back eventually consistent reads see (0-0: the latest).
  int64_t stale_reads_min_ms = 0;
  int64_t stale_reads_max_ms = 0;
  // Signature Version 4 verification: access key id -> secret (--auth-keys, --auth-keys-file).
  // Empty: any well-formed signature is accepted.
  std::map<std::string, std::string> auth_keys;
  AdminApiAccess admin_api = AdminApiAccess::kOff;
  bool show_help = false;
  bool show_version = false;
};

struct ParsedOptions {
  std::optional<Options> options;  // set on success
  std::string error;               // one line naming the flag and what it accepts
};

// `getenv` looks environment variables up (injected for tests); may return null.
ParsedOptions ParseOptions(const std::vector<std::string>& args,
                           const std::function<const char*(const char*)>& getenv);

// --help, grouped; help2man makes the man page of it.
std::string HelpText();
// The README's options table (Markdown), from the same declarations.
std::string OptionsMarkdown();

}  // namespace ddbd
