#include "config/options.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <fstream>
#include <string_view>

namespace ddbd {
namespace {

constexpr std::array<std::string_view, 7> kLogLevels = {"trace", "debug",    "info", "warn",
                                                        "error", "critical", "off"};
// DynamoDB Local's -delayTransientStatuses: a delay long enough for clients to see the status.
constexpr int64_t kDynamoDbLocalTransientDelayMs = 500;

template <typename T>
bool ParseInteger(std::string_view text, T min, T max, T& out) {
  T value{};
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < min || value > max) {
    return false;
  }
  out = value;
  return true;
}

// Adds one KEYID:SECRET pair; an error message (naming neither: secrets stay out of logs) or "".
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
      return "--auth-keys: " + problem +
             (problem == "expected KEYID:SECRET" ? "[,KEYID:SECRET...]" : "");
    }
    start = end + 1;
  }
  return "";
}

// One KEYID:SECRET a line; blank lines and lines starting with '#' are skipped.
std::string ApplyAuthKeysFile(Options& options, const std::string& path) {
  std::ifstream file(path);
  if (!file) return "--auth-keys-file: cannot read '" + path + "'";
  std::string line;
  for (int number = 1; std::getline(file, line); ++number) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    if (std::string problem = AddAuthKey(options, line); !problem.empty()) {
      return "--auth-keys-file: " + path + ":" + std::to_string(number) + ": " + problem;
    }
  }
  return "";
}

// Applies one setting by its canonical name. Returns an error message, or "" on success.
std::string Apply(Options& options, std::string_view name, std::string_view value) {
  if (name == "host") {
    if (value.empty()) return "--host: expected a host name or address, got ''";
    // The one name taken besides addresses: the loopback address it always means.
    options.host = value == "localhost" ? std::string_view("127.0.0.1") : value;
  } else if (name == "port") {
    if (!ParseInteger<uint16_t>(value, 0, 65535, options.port)) {
      return "--port: expected an integer from 0 to 65535, got '" + std::string(value) + "'";
    }
  } else if (name == "port-file") {
    options.port_file = value;
  } else if (name == "threads") {
    if (!ParseInteger<unsigned>(value, 0, 256, options.threads)) {
      return "--threads: expected an integer from 0 (one per core) to 256, got '" +
             std::string(value) + "'";
    }
  } else if (name == "log-level") {
    if (std::find(kLogLevels.begin(), kLogLevels.end(), value) == kLogLevels.end()) {
      return "--log-level: expected one of trace, debug, info, warn, error, critical, off, got '" +
             std::string(value) + "'";
    }
    options.log_level = value;
  } else if (name == "log-format") {
    if (value != "text" && value != "json") {
      return "--log-format: expected text or json, got '" + std::string(value) + "'";
    }
    options.log_json = value == "json";
  } else if (name == "region") {
    const bool valid = !value.empty() && std::all_of(value.begin(), value.end(), [](char c) {
      return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
    });
    if (!valid)
      return "--region: expected a region name such as us-east-1, got '" + std::string(value) + "'";
    options.region = value;
  } else if (name == "account-id") {
    const bool valid = value.size() == 12 && std::all_of(value.begin(), value.end(), [](char c) {
                         return c >= '0' && c <= '9';
                       });
    if (!valid) return "--account-id: expected 12 digits, got '" + std::string(value) + "'";
    options.account_id = value;
  } else if (name == "cors") {
    options.cors = value;
  } else if (name == "allowed-hosts") {
    options.allowed_hosts = value;
  } else if (name == "metrics-token") {
    options.metrics_token = value;
  } else if (name == "auth-keys") {
    return ApplyAuthKeys(options, value);
  } else if (name == "auth-keys-file") {
    return ApplyAuthKeysFile(options, std::string(value));
  } else if (name == "table-delay-ms") {
    if (!ParseInteger<int64_t>(value, 0, 3'600'000, options.table_delay_ms)) {
      return "--table-delay-ms: expected an integer from 0 to 3600000, got '" + std::string(value) +
             "'";
    }
  } else if (name == "tls-cert") {
    if (value.empty()) return "--tls-cert: expected a PEM certificate file, got ''";
    options.tls_cert = value;
  } else if (name == "tls-key") {
    if (value.empty()) return "--tls-key: expected a PEM private key file, got ''";
    options.tls_key = value;
  } else if (name == "tls-port") {
    if (!ParseInteger<int32_t>(value, 0, 65535, options.tls_port)) {
      return "--tls-port: expected an integer from 0 to 65535, got '" + std::string(value) + "'";
    }
  } else if (name == "console") {
    if (value != "on" && value != "off") {
      return "--console: expected on or off, got '" + std::string(value) + "'";
    }
    options.console = value == "on";
  } else if (name == "seed") {
    size_t start = 0;
    while (start <= value.size()) {
      size_t end = value.find(':', start);
      if (end == std::string_view::npos) end = value.size();
      if (end > start) options.seed.emplace_back(value.substr(start, end - start));
      start = end + 1;
    }
    if (options.seed.empty()) {
      return "--seed: expected a file or directory, got '" + std::string(value) + "'";
    }
  } else if (name == "access-log") {
    if (value.empty()) return "--access-log: expected a file, or - for standard output, got ''";
    options.access_log = value;
  } else if (name == "answer-buffer-bytes") {
    if (!ParseInteger<int64_t>(value, 0, int64_t{1} << 40, options.answer_buffer_bytes)) {
      return "--answer-buffer-bytes: expected an integer from 0 (no limit) to 1099511627776, got "
             "'" +
             std::string(value) + "'";
    }
  } else if (name == "max-connections") {
    if (!ParseInteger<int64_t>(value, 0, 1'000'000, options.max_connections)) {
      return "--max-connections: expected an integer from 0 (no limit) to 1000000, got '" +
             std::string(value) + "'";
    }
  } else if (name == "request-timeout-ms") {
    if (!ParseInteger<int64_t>(value, 1, 3'600'000, options.request_timeout_ms)) {
      return "--request-timeout-ms: expected an integer from 1 to 3600000, got '" +
             std::string(value) + "'";
    }
  } else if (name == "item-collection-limit-bytes") {
    if (!ParseInteger<int64_t>(value, 1, int64_t{10} << 30, options.item_collection_limit_bytes)) {
      return "--item-collection-limit-bytes: expected an integer from 1 to 10737418240, got '" +
             std::string(value) + "'";
    }
  } else if (name == "transaction-hold-ms") {
    // At most half the server's 10 s shutdown grace: a held transaction is answered before the
    // server it answers through goes away.
    if (!ParseInteger<int64_t>(value, 0, 5'000, options.transaction_hold_ms)) {
      return "--transaction-hold-ms: expected an integer from 0 to 5000, got '" +
             std::string(value) + "'";
    }
  } else if (name == "ttl-cooldown-ms") {
    if (!ParseInteger<int64_t>(value, 0, 86'400'000, options.ttl_cooldown_ms)) {
      return "--ttl-cooldown-ms: expected an integer from 0 to 86400000, got '" +
             std::string(value) + "'";
    }
  } else if (name == "ttl-interval-ms") {
    if (!ParseInteger<int64_t>(value, 0, 86'400'000, options.ttl_interval_ms)) {
      return "--ttl-interval-ms: expected an integer from 0 to 86400000, got '" +
             std::string(value) + "'";
    }
  } else if (name == "stream-shard-rollover-ms") {
    if (!ParseInteger<int64_t>(value, 1, 86'400'000, options.stream_shard_rollover_ms)) {
      return "--stream-shard-rollover-ms: expected an integer from 1 to 86400000, got '" +
             std::string(value) + "'";
    }
  } else if (name == "stream-max-bytes") {
    if (!ParseInteger<int64_t>(value, 1, int64_t{1} << 40, options.stream_max_bytes)) {
      return "--stream-max-bytes: expected an integer from 1 to 1099511627776, got '" +
             std::string(value) + "'";
    }
  } else if (name == "pitr-history-bytes") {
    if (!ParseInteger<int64_t>(value, 1, int64_t{1} << 40, options.pitr_history_bytes)) {
      return "--pitr-history-bytes: expected an integer from 1 to 1099511627776, got '" +
             std::string(value) + "'";
    }
  } else if (name == "pitr-history-ms") {
    if (!ParseInteger<int64_t>(value, 0, int64_t{35} * 86'400'000, options.pitr_history_ms)) {
      return "--pitr-history-ms: expected an integer from 0 to 3024000000, got '" +
             std::string(value) + "'";
    }
  } else if (name == "pitr-lag-ms") {
    if (!ParseInteger<int64_t>(value, 0, 86'400'000, options.pitr_lag_ms)) {
      return "--pitr-lag-ms: expected an integer from 0 to 86400000, got '" + std::string(value) +
             "'";
    }
  } else if (name == "sync") {
    if (value != "full" && value != "off") {
      return "--sync: expected full or off, got '" + std::string(value) + "'";
    }
    options.sync_full = value == "full";
  } else if (name == "wal-recovery-mode") {
    if (value != "tolerate-corrupted-tail" && value != "point-in-time") {
      return "--wal-recovery-mode: expected tolerate-corrupted-tail or point-in-time, got '" +
             std::string(value) + "'";
    }
    options.wal_point_in_time = value == "point-in-time";
  } else if (name == "namespaces") {
    if (value != "credentials" && value != "shared") {
      return "--namespaces: expected credentials or shared, got '" + std::string(value) + "'";
    }
    options.namespaces_by_credentials = value == "credentials";
  } else if (name == "checkpoint-log-bytes") {
    if (!ParseInteger<int64_t>(value, 0, int64_t{1} << 40, options.checkpoint_log_bytes)) {
      return "--checkpoint-log-bytes: expected an integer from 0 to 1099511627776, got '" +
             std::string(value) + "'";
    }
  } else if (name == "db-path") {
    if (value.empty()) return "--db-path: expected a directory, got ''";
    options.db_path = value;
  } else {
    return "unknown setting '" + std::string(name) + "'";
  }
  return "";
}

constexpr std::array<std::string_view, 36> kValuedFlags = {"host",
                                                           "log-format",
                                                           "port",
                                                           "port-file",
                                                           "threads",
                                                           "log-level",
                                                           "region",
                                                           "account-id",
                                                           "cors",
                                                           "allowed-hosts",
                                                           "metrics-token",
                                                           "wal-recovery-mode",
                                                           "answer-buffer-bytes",
                                                           "table-delay-ms",
                                                           "request-timeout-ms",
                                                           "item-collection-limit-bytes",
                                                           "transaction-hold-ms",
                                                           "ttl-cooldown-ms",
                                                           "ttl-interval-ms",
                                                           "stream-shard-rollover-ms",
                                                           "stream-max-bytes",
                                                           "pitr-history-bytes",
                                                           "pitr-history-ms",
                                                           "pitr-lag-ms",
                                                           "sync",
                                                           "checkpoint-log-bytes",
                                                           "namespaces",
                                                           "auth-keys",
                                                           "auth-keys-file",
                                                           "max-connections",
                                                           "tls-cert",
                                                           "tls-key",
                                                           "tls-port",
                                                           "console",
                                                           "access-log",
                                                           "seed"};

bool TakesValue(std::string_view name) {
  return name == "db-path" ||
         std::find(kValuedFlags.begin(), kValuedFlags.end(), name) != kValuedFlags.end();
}

// Maps DynamoDB Local's flags to ours. Returns false if `flag` is not one of them.
bool TranslateDynamoDbLocalFlag(std::string_view flag, std::string& name, bool& has_value) {
  struct Mapping {
    std::string_view local;
    std::string_view ours;
    bool has_value;
  };
  static constexpr std::array<Mapping, 10> kMappings = {{
      {"-port", "port", true},
      {"-dbPath", "db-path", true},
      {"-cors", "cors", true},
      {"-inMemory", "in-memory", false},
      {"-sharedDb", "shared-db", false},
      {"-delayTransientStatuses", "delay-transient-statuses", false},
      {"-disableTelemetry", "ignored", false},
      {"-optimizeDbBeforeStartup", "ignored", false},
      {"-help", "help", false},
      {"-version", "version", false},
  }};
  for (const Mapping& mapping : kMappings) {
    if (mapping.local == flag) {
      name = mapping.ours;
      has_value = mapping.has_value;
      return true;
    }
  }
  return false;
}

std::string ApplySwitch(Options& options, std::string_view name) {
  if (name == "help") {
    options.show_help = true;
  } else if (name == "version") {
    options.show_version = true;
  } else if (name == "in-memory") {
    options.db_path.clear();
    options.dynamodb_local_in_memory = true;
  } else if (name == "shared-db") {
    options.shared_db = true;
  } else if (name == "delay-transient-statuses") {
    options.table_delay_ms = kDynamoDbLocalTransientDelayMs;
  } else if (name == "enforce-throughput") {
    options.enforce_throughput = true;
  } else if (name == "stop-when-stdin-closes") {
    options.stop_when_stdin_closes = true;
  } else if (name != "ignored") {
    return "unknown flag '--" + std::string(name) + "' (see --help)";
  }
  return "";
}

std::string ApplyEnvironment(Options& options,
                             const std::function<const char*(const char*)>& getenv) {
  for (std::string_view name : kValuedFlags) {
    std::string variable = "DDBD_" + std::string(name);
    std::transform(variable.begin(), variable.end(), variable.begin(),
                   [](char c) { return c == '-' ? '_' : static_cast<char>(std::toupper(c)); });
    if (const char* value = getenv(variable.c_str()); value != nullptr) {
      if (std::string error = Apply(options, name, value); !error.empty()) {
        return variable + ": " + error.substr(error.find(':') + 2);
      }
    }
  }
  if (const char* value = getenv("DDBD_DB_PATH"); value != nullptr && *value != '\0') {
    options.db_path = value;
  }
  if (const char* value = getenv("DDBD_ENFORCE_THROUGHPUT"); value != nullptr) {
    const std::string_view text = value;
    if (text == "1" || text == "true") {
      options.enforce_throughput = true;
    } else if (text != "0" && text != "false" && !text.empty()) {
      return "DDBD_ENFORCE_THROUGHPUT: expected 1, true, 0 or false, got '" + std::string(text) +
             "'";
    }
  }
  return "";
}

}  // namespace

ParsedOptions ParseOptions(const std::vector<std::string>& args,
                           const std::function<const char*(const char*)>& getenv) {
  Options options;
  if (std::string error = ApplyEnvironment(options, getenv); !error.empty()) return {{}, error};
  bool local_flag = false;     // a single-dash DynamoDB Local flag
  bool local_db_path = false;  // -dbPath
  bool optimize_db = false;    // -optimizeDbBeforeStartup
  // --seed given: the flags' paths replace DDBD_SEED's.
  if (std::any_of(args.begin(), args.end(), [](const std::string& arg) {
        return arg == "--seed" || arg.starts_with("--seed=");
      })) {
    options.seed.clear();
  }
  const bool namespaces_set = getenv("DDBD_NAMESPACES") != nullptr ||
                              std::any_of(args.begin(), args.end(), [](const std::string& arg) {
                                return arg == "--namespaces" || arg.starts_with("--namespaces=");
                              });
  for (size_t i = 0; i < args.size(); ++i) {
    std::string_view arg = args[i];
    std::string name;
    bool has_value = false;
    std::string value;
    bool inline_value = false;
    // `java -Djava.library.path=... -jar DynamoDBLocal.jar ...` with `java` replaced by ddbd.
    if (arg == "-jar" && i + 1 < args.size()) {
      options.ignored_java_args.insert(options.ignored_java_args.end(), {args[i], args[i + 1]});
      ++i;
      continue;
    }
    if ((arg.starts_with("-D") || arg.starts_with("-X")) && arg.size() > 2) {
      options.ignored_java_args.emplace_back(arg);
      continue;
    }
    if (arg.starts_with("--")) {
      name = arg.substr(2);
      if (size_t eq = name.find('='); eq != std::string::npos) {
        value = name.substr(eq + 1);
        name.resize(eq);
        inline_value = true;
      }
      has_value = TakesValue(name);
    } else if (!TranslateDynamoDbLocalFlag(arg, name, has_value)) {
      return {{}, "unknown flag '" + std::string(arg) + "' (see --help)"};
    } else {
      local_flag = true;
      if (name == "db-path") local_db_path = true;
      if (arg == "-optimizeDbBeforeStartup") optimize_db = true;
    }
    if (!has_value) {
      if (inline_value) return {{}, "--" + name + " takes no value"};
      if (std::string error = ApplySwitch(options, name); !error.empty()) return {{}, error};
      continue;
    }
    if (!inline_value) {
      if (i + 1 >= args.size()) return {{}, "--" + name + " needs a value (see --help)"};
      value = args[++i];
    }
    if (std::string error = Apply(options, name, value); !error.empty()) return {{}, error};
  }
  // DynamoDB Local's rules, for those who start ddbd as they started it; its own messages.
  if (!namespaces_set) options.namespaces_by_credentials = local_flag && !options.shared_db;
  options.dynamodb_local = local_flag;
  if (local_flag) {
    if (options.dynamodb_local_in_memory && local_db_path) {
      return {{}, "dbPath and inMemory cannot be set at the same time."};
    }
    if (optimize_db && !local_db_path) {
      return {{},
              "optimizeDbBeforeStartup option must be used with dbPath to determine the "
              "location of database files to optimize."};
    }
    // Without -inMemory, DynamoDB Local keeps its files in -dbPath, else the working directory.
    if (!options.dynamodb_local_in_memory && options.db_path.empty()) options.db_path = ".";
  }
  if (options.tls_cert.empty() != options.tls_key.empty()) {
    return {{}, "--tls-cert and --tls-key: give both, or neither"};
  }
  if (options.tls_port >= 0 && options.tls_cert.empty()) {
    return {{}, "--tls-port: needs --tls-cert and --tls-key"};
  }
  return {options, ""};
}

std::string HelpText() {
  return R"(Usage: ddbd [options]
  or:  ddbd health [options]        is the server healthy? (ddbd health --help)
  or:  ddbd dump --endpoint URL ...  tables and items of any endpoint to files (ddbd dump --help)
  or:  ddbd load --endpoint URL PATH...  files of ddbd dump or --seed into any endpoint
A DynamoDB-compatible server. Point any AWS SDK or the AWS CLI at http://HOST:PORT.
`ddbd health` asks the server the same options describe (--host, --port, DDBD_PORT, ...) for
its health check and exits 0 if it answers healthy, 1 if not (for container health checks).

Options (each also read from the environment as DDBD_<NAME>, e.g. DDBD_PORT=9000):
  --host HOST            address to listen on (default 127.0.0.1; 0.0.0.0 for all, :: for all of
                         IPv4 and IPv6; localhost means 127.0.0.1)
  --port N               port to listen on (default 8000; 0 picks a free port)
  --port-file PATH       write the bound port to PATH once listening
  --threads N            I/O threads (default 0: one per usable core)
  --log-level LEVEL      trace, debug, info, warn, error, critical or off (default info)
  --log-format FORMAT    text (default) or json: one JSON object a line, with time, level and
                         message (the access log is JSON lines either way; with DynamoDB
                         Local's flags its banner stays as it prints it)
  --region NAME          region used in ARNs and the health check (default us-east-1)
  --account-id ID        12-digit account id used in ARNs (default 000000000000)
  --cors ORIGINS         origins a browser page may call ddbd from, comma-separated, or *
                         (default: loopback origins, http(s)://localhost|127.x.x.x|[::1] on any
                         port, and ddbd's own console only)
  --allowed-hosts NAMES  when listening on loopback, Host names accepted besides loopback ones,
                         comma-separated, or * (default: none; others get HTTP 403)
  --metrics-token TOKEN  with --auth-keys, /metrics names tables only to a scrape that sends
                         'Authorization: Bearer TOKEN' (default: to none)
  --auth-keys KEYID:SECRET[,KEYID:SECRET...]
                         verify every request's Signature Version 4 signature against these
                         keys: an unknown key is UnrecognizedClientException, a wrong secret or
                         signature, or a date over 5 minutes past or 15 minutes ahead,
                         InvalidSignatureException (default: any well-formed signature passes)
  --auth-keys-file FILE  the same keys from FILE, one KEYID:SECRET a line ('#' comments)
  --table-delay-ms N     keep tables CREATING/UPDATING/DELETING for N ms (default 0)
  --request-timeout-ms N time allowed to send a request (headers and body: a client that
                         trickles them is dropped), to read an answer, and idle time before a
                         kept-alive connection is closed (default 60000)
  --max-connections N    the most connections open at once; more wait in the listen backlog
                         until one closes (default 0: no limit)
  --answer-buffer-bytes N
                         the most bytes of answers waiting for clients that have not taken
                         them, all connections together; past it the slowest readers are
                         dropped (default 268435456, 256 MiB; 0: no limit)
  --tls-cert FILE        serve HTTPS (TLS 1.2 or newer) with this PEM certificate chain...
  --tls-key FILE         ...and this PEM private key; on --port, or on --tls-port if given
  --tls-port N           serve HTTPS on N beside plain HTTP on --port (0 picks a free port)
  --console on|off       serve the web console at /console (default on)
  --access-log FILE      write one JSON line per DynamoDB request to FILE (- for standard
                         output): time, request_id, operation, table, status, error,
                         latency_ms and, when the request asked for it, consumed_capacity
  --seed PATH            before listening, create the tables and load the items PATH describes
                         (repeatable; several paths may be separated by ':'; DDBD_SEED): a
                         directory of <Table>.table.json (CreateTable's request or
                         describe-table's output, with optional TimeToLiveSpecification and
                         Tags) and <Table>.items.jsonl[.gz] (DynamoDB JSON or S3 export lines),
                         or one such file. A table that exists already is skipped; a bad file
                         stops the start with FILE:LINE: reason and exit status 1
  --item-collection-limit-bytes N
                         largest item collection of a table with local secondary indexes
                         (default 10737418240, DynamoDB's 10 GB; lower it to test the error)
  --stop-when-stdin-closes
                         stop, as on SIGTERM, once standard input reaches its end: a test harness
                         that starts ddbd with a pipe there (the npm and Python packages' test
                         APIs do) takes it down with it, also when the harness is killed
  --enforce-throughput   throttle requests over a table's or index's provisioned capacity (with
                         DynamoDB's 300 s of burst) or OnDemandThroughput ceilings, as DynamoDB
                         does (default off: nothing is throttled; DDBD_ENFORCE_THROUGHPUT=1)
  --transaction-hold-ms N
                         hold a transaction's items N ms before it commits and answers, so
                         applications meet transactions in flight: TransactionConflict
                         (default 0, at most 5000)
  --ttl-cooldown-ms N    refuse an UpdateTimeToLive within N ms of the last change of that
                         table's TTL (default 3600000, DynamoDB's hour; 0 turns it off, for
                         suites that toggle TTL)
  --ttl-interval-ms N    look for expired items every N ms and delete them (default 1000;
                         0: never; DynamoDB takes minutes to days)
  --stream-shard-rollover-ms N
                         close each stream's open shard and open its child every N ms
                         (default 14400000, four hours)
  --stream-max-bytes N   most stream record bytes a table keeps; the oldest are trimmed first
                         (default 268435456, 256 MB; records are also trimmed after 24 hours)
  --pitr-history-bytes N most bytes of point-in-time history one table keeps (the items its
                         changes replaced); past it the oldest go and the earliest restorable
                         time moves up (default 268435456, 256 MB)
  --pitr-history-ms N    keep point-in-time history at most N ms, less than a table's
                         RecoveryPeriodInDays (default 0: the period)
  --pitr-lag-ms N        how far behind now the latest restorable time is (default 300000,
                         DynamoDB's five minutes; 0 lets tests restore to just now)
  --db-path DIR          keep the data in DIR: every change is written to a log there and a
                         write is answered once it is on disk; a restart (even after kill -9)
                         finds everything that was acknowledged (default: memory only)
  --sync full|off        with --db-path: full (default) syncs each group of writes before
                         answering them; off answers once written, faster, and a crash of the
                         machine may lose the last writes (never corrupt the rest)
  --wal-recovery-mode tolerate-corrupted-tail|point-in-time
                         with --db-path, what a start does with a damaged log: the default drops
                         only a write a crash cut short at the end of the newest segment, and
                         refuses to start on any other damage, naming the file, the offset and
                         what would be lost; point-in-time replays up to the damage, moves the
                         rest to DIR/lost/ and says what it moved
  --namespaces credentials|shared
                         credentials: a separate database for each access key id and region
                         requests are signed with (DynamoDB Local without -sharedDb; with
                         --db-path, each in DIR/<key>_<region>; ARNs carry the request's region);
                         shared: one for all (default, unless a single-dash DynamoDB Local flag
                         is given without -sharedDb)
  --checkpoint-log-bytes N
                         with --db-path: once the log has grown N bytes since the last
                         checkpoint (and more than the data it holds), write a checkpoint in
                         the background and delete the log it replaces (default 67108864,
                         64 MB; 0: only at start)
  --help                 print this help and exit
  --version              print the version and exit

GET /metrics answers Prometheus metrics (requests, errors and latency per operation; items,
bytes and consumed capacity per table and index; TTL deletions, stream records, connections;
with --db-path the log, its syncs and checkpoints). /, /metrics and /console need no signature.

Requests are refused as DynamoDB refuses them: bodies over 16 MB get HTTP 413; a request line
or headers over 16 KB get HTTP 400.

DynamoDB Local's flags are accepted: -port N, -inMemory, -sharedDb, -dbPath DIR, -cors LIST,
-delayTransientStatuses (same as --table-delay-ms 500), -disableTelemetry,
-optimizeDbBeforeStartup, -help, -version, with its meanings: without -inMemory data persists
in -dbPath, else the working directory; without -sharedDb, a database per access key id and
region (see --namespaces). Java's arguments of its command line (-jar DynamoDBLocal.jar, -D...,
-X...) are set aside. Started so, ddbd prints DynamoDB Local's configuration banner and answers
GET / as DynamoDB Local does (HTTP 400); GET /_ddbd/health answers in both modes.
)";
}

}  // namespace ddbd
