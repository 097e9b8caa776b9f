// The composition root: options -> engine, dispatcher, router, HTTP server.
#include <sched.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "config/options.h"
#include "engine/engine.h"
#include "protocol/dispatcher.h"
#include "server/heap_pages.h"
#include "server/http_server.h"
#include "server/router.h"

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

int main(int argc, char** argv) {
  ddbd::UseLargeHeapPages();
  const std::vector<std::string> args(argv + 1, argv + argc);
  const ddbd::ParsedOptions parsed =
      ddbd::ParseOptions(args, [](const char* name) { return std::getenv(name); });
  if (!parsed.options) {
    std::fprintf(stderr, "ddbd: %s\n", parsed.error.c_str());
    return 2;
  }
  const ddbd::Options& options = *parsed.options;
  if (options.show_help) {
    std::fputs(ddbd::HelpText().c_str(), stdout);
    return 0;
  }
  if (options.show_version) {
    std::printf("ddbd %s\n", DDBD_VERSION);
    return 0;
  }
  spdlog::set_level(spdlog::level::from_str(options.log_level));

  ddbd::SystemClock clock;
  ddbd::EngineOptions engine_options;
  engine_options.region = options.region;
  engine_options.account_id = options.account_id;
  engine_options.table_delay_ms = options.table_delay_ms;
  engine_options.item_collection_limit_bytes = options.item_collection_limit_bytes;
  engine_options.enforce_throughput = options.enforce_throughput;
  engine_options.transaction_hold_ms = options.transaction_hold_ms;
  engine_options.ttl_cooldown_ms = options.ttl_cooldown_ms;
  engine_options.ttl_interval_ms = options.ttl_interval_ms;
  engine_options.stream_shard_rollover_ms = options.stream_shard_rollover_ms;
  engine_options.stream_max_bytes = options.stream_max_bytes;
  engine_options.db_path = options.db_path;
  engine_options.checkpoint_log_bytes = options.checkpoint_log_bytes;
  engine_options.sync = options.sync_full ? ddbd::SyncPolicy::kFull : ddbd::SyncPolicy::kOff;
  auto opened = ddbd::Engine::Open(engine_options, clock);
  if (!opened.ok()) {
    std::fprintf(stderr, "ddbd: --db-path %s: %s\n", options.db_path.c_str(),
                 opened.error().message().c_str());
    return 1;
  }
  ddbd::Engine& engine = *opened.value();
  ddbd::Dispatcher dispatcher(engine);
  ddbd::Router router(dispatcher, {options.region, options.cors});
  ddbd::ServerOptions server_options;
  server_options.host = options.host;
  server_options.port = options.port;
  server_options.request_timeout_ms = options.request_timeout_ms;
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
  const std::string data =
      options.db_path.empty() ? std::string("in memory") : "in " + options.db_path;
  spdlog::info("ddbd {} listening on http://{}:{} (data {}, {} threads)", DDBD_VERSION,
               options.host, server.port(), data, server_options.threads);
  server.Run();
  spdlog::info("ddbd stopped");
  return 0;
}
