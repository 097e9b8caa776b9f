// The composition root: options -> engine, dispatcher, router, HTTP server.
#include <sched.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "config/options.h"
#include "engine/engine.h"
#include "protocol/dispatcher.h"
#include "protocol/namespaces.h"
#include "server/heap_pages.h"
#include "server/http_server.h"
#include "server/json_log.h"
#include "server/kinesis_streams.h"
#include "server/local_origins.h"
#include "server/name_lookup.h"
#include "server/replication.h"
#include "server/router.h"
#include "server/s3_buckets.h"
#include "server/stream_trigger_function.h"
#include "server/tools/dump_load.h"
#include "server/tools/health_check.h"
#include "server/tools/seed_files.h"
#include "server/version.h"

namespace {

// Written to a temporary file and renamed, so a reader never sees a partial port number.
bool WritePortFile(const std::string& path, uint16_t port) {
  const std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary, std::ios::trunc);
    out << port << "\n";
    if (!out) return false;
  }
  std::error_code ec;
  std::filesystem::rename(temporary, path, ec);
  return !ec;
}

}  // namespace

// The cores this process may run on (taskset, cgroup cpusets), not all the machine's: more I/O
// threads than cores only adds context switches.
unsigned UsableCores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    return static_cast<unsigned>(std::max(1, CPU_COUNT(&set)));
  }
  return std::max(1u, std::thread::hardware_concurrency());
}

// `ddbd health [options]`: the server's own options say where it listens (--host, --port,
// DDBD_PORT, ...), so a container's health check repeats nothing. Exit status 0: healthy.
int Health(const std::vector<std::string>& args) {
  if (std::find(args.begin(), args.end(), "--help") != args.end()) {
    std::fputs(
        "Usage: ddbd health [options]\n"
        "Asks the ddbd the options describe (--host, --port, --tls-cert/--tls-port, or their\n"
        "DDBD_* variables: the server's own) for GET /_ddbd/health and exits 0 if it answers\n"
        "healthy, 1 if not (its reason on standard error), 2 for bad options. For container\n"
        "health checks.\n",
        stdout);
    return 0;
  }
  const ddbd::ParsedOptions parsed =
      ddbd::ParseOptions(args, [](const char* name) { return std::getenv(name); });
  if (!parsed.options) {
    std::fprintf(stderr, "ddbd health: %s\n", parsed.error.c_str());
    return 2;
  }
  const ddbd::Options& options = *parsed.options;
  ddbd::HealthCheckTarget target;
  target.host = options.host;
  target.port = options.port;
  // HTTPS only when the server serves nothing else.
  target.tls = !options.tls_cert.empty() && options.tls_port < 0;
  std::string problem;
  if (!ddbd::CheckHealth(target, problem)) {
    std::fprintf(stderr, "ddbd health: %s\n", problem.c_str());
    return 1;
  }
  return 0;
}

namespace {

// An address as a URL writes it: IPv6 in brackets (http://[::1]:8000).
std::string UrlHost(const std::string& host) {
  return host.find(':') != std::string::npos ? "[" + host + "]" : host;
}

// DynamoDB Local's configuration banner, on standard output as it prints it: tooling built around
// its command lines waits for these lines (Testcontainers' Rust module, for one).
void PrintDynamoDbLocalBanner(const ddbd::Options& options) {
  const auto flag = [](bool value) { return value ? "true" : "false"; };
  std::printf(
      "Initializing DynamoDB Local with the following configuration:\nPort:\t%u\nInMemory:\t%s\n"
      "Version:\t%s\nDbPath:\t%s\nSharedDb:\t%s\nshouldDelayTransientStatuses:\t%s\n"
      "CorsParams:\t%s\n\n",
      static_cast<unsigned>(options.port), flag(options.dynamodb_local_in_memory), DDBD_VERSION,
      options.db_path.empty() || options.db_path == "." ? "null" : options.db_path.c_str(),
      flag(options.shared_db), flag(options.table_delay_ms > 0),
      options.cors.empty() ? "null" : options.cors.c_str());
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  ddbd::UseBuiltInNameLookup();
  if (argc > 1) {
    const std::string_view command = argv[1];
    const std::vector<std::string> rest(argv + 2, argv + argc);
    if (command == "health") return Health(rest);
    if (command == "dump") return ddbd::RunDump(rest);
    if (command == "load") return ddbd::RunLoad(rest);
  }
  ddbd::UseLargeHeapPages();
  // A file-size limit (ulimit -f) reached by the log is an I/O error like a full disk: the write
  // fails and the server goes on, rather than the signal's default of ending the process.
  std::signal(SIGXFSZ, SIG_IGN);
  const std::vector<std::string> args(argv + 1, argv + argc);
  const ddbd::ParsedOptions parsed =
      ddbd::ParseOptions(args, [](const char* name) { return std::getenv(name); });
  if (!parsed.options) {
    std::fprintf(stderr, "ddbd: %s\n", parsed.error.c_str());
    return 2;
  }
  const ddbd::Options& options = *parsed.options;
  if (!options.s3_endpoint.empty() && !ddbd::Endpoint::Parse(options.s3_endpoint)) {
    std::fprintf(stderr, "ddbd: --s3-endpoint: expected http(s)://host[:port], got %s\n",
                 options.s3_endpoint.c_str());
    return 2;
  }
  if (!options.kinesis_endpoint.empty() && !ddbd::Endpoint::Parse(options.kinesis_endpoint)) {
    std::fprintf(stderr, "ddbd: --kinesis-endpoint: expected http(s)://host[:port], got %s\n",
                 options.kinesis_endpoint.c_str());
    return 2;
  }
  // Each engine gets triggers of its own (a function's connection serves one thread); built once
  // here to refuse a bad URL or filter pattern before anything starts.
  const auto stream_triggers = [&options](const std::string& region, const std::string& account,
                                          std::string& problem) {
    std::vector<ddbd::StreamTriggerSettings> triggers;
    for (const ddbd::StreamTriggerSpec& spec : options.stream_triggers) {
      auto function = ddbd::NewStreamTriggerFunction(spec, region, account, problem);
      if (!function) return std::vector<ddbd::StreamTriggerSettings>{};
      triggers.push_back(ddbd::StreamTriggerSettingsOf(spec, std::move(function)));
    }
    return triggers;
  };
  if (std::string problem; !options.stream_triggers.empty() &&
                           stream_triggers(options.region, options.account_id, problem).empty()) {
    std::fprintf(stderr, "ddbd: --stream-trigger: %s\n", problem.c_str());
    return 2;
  }
  if (options.show_help) {
    std::fputs(ddbd::HelpText().c_str(), stdout);
    return 0;
  }
  if (options.show_version) {
    std::printf("%s\n", ddbd::VersionText().c_str());
    return 0;
  }
  spdlog::set_level(spdlog::level::from_str(options.log_level));
  if (options.log_json) ddbd::UseJsonLog();
  if (!options.ignored_java_args.empty()) {
    std::string java;
    for (const std::string& arg : options.ignored_java_args) java += " " + arg;
    spdlog::info("ignoring Java's arguments of a DynamoDB Local command line:{}", java);
  }

  // The system's time, moved forward only by the admin API (POST /_ddbd/clock).
  ddbd::AdjustableClock clock;
  ddbd::EngineOptions engine_options;
  engine_options.region = options.region;
  engine_options.account_id = options.account_id;
  engine_options.table_delay_ms = options.table_delay_ms;
  // --gsi-lag-ms: global secondary indexes lag behind their writes; the admin API's pause holds
  // them in every namespace's engine.
  const auto gsi_paused = std::make_shared<std::atomic<bool>>(false);
  engine_options.gsi_lag_min_ms = options.gsi_lag_min_ms;
  engine_options.gsi_lag_max_ms = options.gsi_lag_max_ms;
  engine_options.stale_reads_min_ms = options.stale_reads_min_ms;
  engine_options.stale_reads_max_ms = options.stale_reads_max_ms;
  engine_options.gsi_paused = gsi_paused;
  engine_options.item_collection_limit_bytes = options.item_collection_limit_bytes;
  engine_options.enforce_throughput = options.enforce_throughput;
  engine_options.transaction_hold_ms = options.transaction_hold_ms;
  engine_options.ttl_cooldown_ms = options.ttl_cooldown_ms;
  engine_options.ttl_interval_ms = options.ttl_interval_ms;
  engine_options.stream_shard_rollover_ms = options.stream_shard_rollover_ms;
  engine_options.stream_max_bytes = options.stream_max_bytes;
  engine_options.pitr_history_bytes = options.pitr_history_bytes;
  engine_options.pitr_history_ms = options.pitr_history_ms;
  engine_options.pitr_lag_ms = options.pitr_lag_ms;
  engine_options.db_path = options.db_path;
  engine_options.s3_dir = options.s3_dir;
  if (!options.s3_endpoint.empty()) {
    // One store for every namespace's engine: it holds no state but the endpoint.
    engine_options.buckets = ddbd::NewS3Buckets(
        *ddbd::Endpoint::Parse(options.s3_endpoint), ddbd::AwsCredentials::FromEnvironment(),
        options.s3_region.empty() ? options.region : options.s3_region);
  }
  if (!options.kinesis_endpoint.empty()) {
    // One sender for every namespace's engine (each delivers its own tables' records); signed for
    // --region, as DynamoDB delivers within its own region.
    engine_options.kinesis =
        ddbd::NewKinesisStreams(*ddbd::Endpoint::Parse(options.kinesis_endpoint),
                                ddbd::AwsCredentials::FromEnvironment(), options.region);
  }
  {
    std::string problem;
    engine_options.stream_triggers = stream_triggers(options.region, options.account_id, problem);
  }
  engine_options.checkpoint_log_bytes = options.checkpoint_log_bytes;
  engine_options.sync = options.sync_full ? ddbd::SyncPolicy::kFull : ddbd::SyncPolicy::kOff;
  engine_options.group_commit_start = ddbd::HttpServer::AfterReadyWork;
  engine_options.wal_recovery_mode = options.wal_point_in_time
                                         ? ddbd::WalRecoveryMode::kPointInTime
                                         : ddbd::WalRecoveryMode::kTolerateCorruptedTail;
  engine_options.log = [](ddbd::Severity severity, const std::string& message) {
    switch (severity) {
      case ddbd::Severity::kInfo:
        return spdlog::info("{}", message);
      case ddbd::Severity::kWarning:
        return spdlog::warn("{}", message);
      case ddbd::Severity::kError:
        return spdlog::error("{}", message);
    }
  };
  // Global tables: the queues between the regions' databases (server/replication.h). Made before
  // the databases (each is given a link to it); its thread stops before they go (below).
  std::unique_ptr<ddbd::Namespaces> namespaces;
  ddbd::Replication replication(
      options.replication_delay_ms,
      [&namespaces](const std::string& key,
                    const std::string& region) -> ddbd::Result<ddbd::Engine*> {
        if (!namespaces) return ddbd::Error::Internal("no database per region");
        return namespaces->EngineOf(key, region);
      },
      options.namespaces_by_credentials
          ? ""
          : "Replicas need a database per region: start ddbd with --namespaces region (or "
            "credentials); it keeps one database for every region (--namespaces shared)",
      options.namespaces_by_credentials && !options.namespaces_by_region
          ? ""
          : "Replicas in other accounts need a database per access key id: start ddbd with "
            "--namespaces credentials, where a 12-digit access key id is its own account");
  engine_options.replication = replication.LinkFor("");
  // One database, or one for each access key id and region (DynamoDB Local's namespaces), or
  // for each region.
  ddbd::Engine::DirectoryLock directory_lock;
  std::unique_ptr<ddbd::Engine> engine;
  std::unique_ptr<ddbd::Dispatcher> dispatcher;
  // Declared after the databases, so it goes first: replication stops, then the namespaces'
  // databases go while the queues their links reach are still there.
  struct StopReplication {
    ddbd::Replication& replication;
    std::unique_ptr<ddbd::Namespaces>& namespaces;
    ~StopReplication() {
      replication.Stop();
      namespaces.reset();
    }
  } stop_replication{replication, namespaces};
  if (!options.namespaces_by_credentials) {
    auto opened = ddbd::Engine::Open(engine_options, clock);
    if (!opened.ok()) {
      std::fprintf(stderr, "ddbd: --db-path %s: %s\n", options.db_path.c_str(),
                   opened.error().message().c_str());
      return 1;
    }
    engine = std::move(opened.value());
    dispatcher = std::make_unique<ddbd::Dispatcher>(*engine);
  } else {
    namespaces = std::make_unique<ddbd::Namespaces>(
        options.region,
        [engine_options, &clock, &replication, &stream_triggers](const std::string& key,
                                                                 const std::string& region) {
          ddbd::EngineOptions own = engine_options;
          own.region = region;  // its ARNs carry the region its requests are signed for
          // A 12-digit access key id is its own account (as LocalStack reads one), so two keys
          // stand for two accounts: multi-account global tables, ARNs naming the account.
          if (ddbd::IsAccountId(key)) own.account_id = key;
          std::string problem;  // none: the same specs were built at the start
          own.stream_triggers = stream_triggers(own.region, own.account_id, problem);
          own.replication = replication.LinkFor(key);
          if (!own.db_path.empty()) {
            own.db_path += "/" + ddbd::Namespaces::DirectoryName(key, region);
          }
          return ddbd::Engine::Open(std::move(own), clock);
        },
        options.namespaces_by_region);
    if (const std::string& directory = options.db_path; !directory.empty()) {
      // The directory's own lock, then every namespace it holds, opened now: their TTL sweepers
      // run from the start, and a bad store stops the server here rather than at a request.
      auto refuse = [&directory](const std::string& why) {
        std::fprintf(stderr, "ddbd: --db-path %s: %s\n", directory.c_str(), why.c_str());
        return 1;
      };
      std::vector<std::string> names;
      auto lock = ddbd::Engine::LockDirectory(directory, names);
      if (!lock.ok()) return refuse(lock.error().message());
      directory_lock = std::move(lock.value());
      std::vector<std::pair<std::string, std::string>> opened;
      for (const std::string& name : names) {
        const auto key = ddbd::Namespaces::ParseDirectoryName(name);
        if (!key || !std::filesystem::is_directory(directory + "/" + name)) continue;
        if (auto added = namespaces->Add(key->first, key->second); !added.ok()) {
          return refuse(name + ": " + added.error().message());
        }
        opened.emplace_back(key->first, key->second);
      }
      // Global tables' changes a stop or a crash left on their way (server/replication.h).
      if (const size_t queued = replication.Reconcile(opened); queued > 0) {
        spdlog::info("global tables: {} changes queued again for other regions", queued);
      }
    }
  }
  const ddbd::RequestHandler& handler =
      namespaces ? static_cast<const ddbd::RequestHandler&>(*namespaces) : *dispatcher;
  if (!options.seed.empty()) {
    // Before the port is bound (and --port-file written): a client never sees half the seed.
    if (namespaces) {
      std::fprintf(
          stderr, "ddbd: --seed loads one shared database: add -sharedDb or --namespaces shared\n");
      return 1;
    }
    ddbd::SeedReport report;
    std::string error;
    if (!ddbd::LoadSeeds(handler, options.seed, report, error)) {
      std::fprintf(stderr, "ddbd: %s\n", error.c_str());
      return 1;
    }
  }
  ddbd::Metrics metrics;
  std::unique_ptr<ddbd::AccessLog> access_log;
  if (!options.access_log.empty()) {
    std::string error;
    access_log = ddbd::AccessLog::Open(options.access_log, error);
    if (!access_log) {
      std::fprintf(stderr, "ddbd: %s\n", error.c_str());
      return 1;
    }
  }
  ddbd::RouterOptions router_options;
  router_options.region = options.region;
  router_options.cors = options.cors;
  router_options.loopback_only = ddbd::IsLoopbackAddress(options.host);
  router_options.allowed_hosts = options.allowed_hosts;
  router_options.metrics_token = options.metrics_token;
  router_options.auth_keys = options.auth_keys;
  router_options.metrics = &metrics;
  router_options.access_log = access_log.get();
  router_options.console = options.console;
  if (namespaces) {
    router_options.replication_metrics = [&replication] { return replication.RenderMetrics(); };
  }
  router_options.dynamodb_local_root = options.dynamodb_local;
  std::unique_ptr<ddbd::AdminApi> admin_api;
  if (options.admin_api != ddbd::AdminApiAccess::kOff) {
    admin_api = std::make_unique<ddbd::AdminApi>(handler, clock);
    if (namespaces) admin_api->UseReplication(&replication);
    if (options.gsi_lag_max_ms > 0) admin_api->UseGsiPropagation(gsi_paused.get());
    router_options.admin_api = admin_api.get();
    router_options.admin_any_caller = options.admin_api == ddbd::AdminApiAccess::kAny;
    spdlog::info("admin API on under /_ddbd/ for {}",
                 router_options.admin_any_caller ? "any caller" : "callers on this machine");
  }
  ddbd::Router router(handler, std::move(router_options));
  if (!options.auth_keys.empty()) {
    spdlog::info("verifying Signature Version 4 signatures ({} key{})", options.auth_keys.size(),
                 options.auth_keys.size() == 1 ? "" : "s");
  }
  ddbd::ServerOptions server_options;
  server_options.host = options.host;
  server_options.port = options.port;
  server_options.request_timeout_ms = options.request_timeout_ms;
  server_options.max_connections = static_cast<size_t>(options.max_connections);
  server_options.answer_budget_bytes = static_cast<size_t>(options.answer_buffer_bytes);
  server_options.release_memory = ddbd::ReleaseFreeMemory;
  server_options.tls_cert = options.tls_cert;
  server_options.tls_key = options.tls_key;
  server_options.tls_port = options.tls_port;
  server_options.metrics = &metrics;
  server_options.threads = options.threads > 0 ? options.threads : UsableCores();
  ddbd::HttpServer server(server_options, router);

  std::string error;
  if (!server.Listen(error)) {
    std::fprintf(stderr, "ddbd: %s\n", error.c_str());
    return 1;
  }
  if (!options.port_file.empty() && !WritePortFile(options.port_file, server.port())) {
    std::fprintf(stderr, "ddbd: cannot write --port-file %s\n", options.port_file.c_str());
    return 1;
  }
  if (options.dynamodb_local) PrintDynamoDbLocalBanner(options);
  std::error_code unresolved;  // a path that cannot be resolved is shown as given
  const std::filesystem::path where =
      std::filesystem::weakly_canonical(options.db_path, unresolved);
  std::string data = options.db_path.empty() ? std::string("in memory")
                     : unresolved            ? "in " + options.db_path
                                             : "in " + where.string();
  if (namespaces) data += ", a database per access key id and region";
  const bool https_only = !options.tls_cert.empty() && options.tls_port < 0;
  spdlog::info("ddbd {} listening on {}://{}:{} (data {}, {} threads)", DDBD_VERSION,
               https_only ? "https" : "http", UrlHost(options.host), server.port(), data,
               server_options.threads);
  if (const auto tls_port = server.tls_port()) {
    spdlog::info("and on https://{}:{}", UrlHost(options.host), *tls_port);
  }
  if (options.stop_when_stdin_closes) {
    // Reads and drops whatever comes; at the end (the other side closed or died) stops the way
    // SIGTERM does: requests in flight finish.
    std::thread([] {
      char ignored[256];
      while (::read(STDIN_FILENO, ignored, sizeof ignored) > 0) {
      }
      spdlog::info("standard input closed: stopping");
      ::kill(::getpid(), SIGTERM);
    }).detach();
  }
  server.Run();
  spdlog::info("ddbd stopped");
  return 0;
}
