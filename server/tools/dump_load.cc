#include "server/tools/dump_load.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <mutex>
#include <optional>
#include <string_view>
#include <thread>

#include "server/tools/remote_endpoint.h"
#include "server/tools/seed.h"
#include "server/tools/seed_files.h"
#include "server/tools/table_dump.h"

namespace ddbd {
namespace {

struct Arguments {
  Endpoint endpoint;
  std::string out;
  std::vector<std::string> tables;
  std::vector<std::string> paths;
  int segments = 4;
};

// Splits "a,b" into its names.
std::vector<std::string> TableNames(std::string_view list) {
  std::vector<std::string> names;
  size_t start = 0;
  while (start <= list.size()) {
    size_t end = list.find(',', start);
    if (end == std::string_view::npos) end = list.size();
    if (end > start) names.emplace_back(list.substr(start, end - start));
    start = end + 1;
  }
  return names;
}

constexpr const char* kDumpHelp =
    R"(Usage: ddbd dump --endpoint URL --out DIR [--tables A,B] [--segments N]
Writes every table of the endpoint (ddbd, DynamoDB Local or DynamoDB; any URL ddbd can reach)
to DIR as <Table>.table.json (its definition, TTL and tags) and
<Table>.items.jsonl (one item a line, DynamoDB JSON), through the API: DescribeTable,
DescribeTimeToLive, ListTagsOfResource, and parallel Scans (N segments, default 4). Requests are
signed from AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_REGION (default local/local).
  --endpoint URL   http://HOST[:PORT] or https://HOST[:PORT] (checked against the system's CAs)
  --out DIR        where the files go
  --tables A,B     only these tables
  --segments N     parallel Scan segments per table, 1 to 64 (default 4)
)";

constexpr const char* kLoadHelp =
    R"(Usage: ddbd load --endpoint URL PATH...
Creates each table a PATH describes (a directory of <Table>.table.json and
<Table>.items.jsonl[.gz] files, as ddbd dump or --seed take them, or one such file) at the
endpoint and writes its items with BatchWriteItem, retrying unprocessed items with backoff. A
table that exists already gets the items. Signed as ddbd dump signs.
  --endpoint URL   http://HOST[:PORT] or https://HOST[:PORT]
)";

std::optional<Arguments> ParseArguments(const char* command, const std::vector<std::string>& args,
                                        bool paths_allowed) {
  Arguments parsed;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    auto value = [&](const char* name) -> std::optional<std::string> {
      if (i + 1 >= args.size()) {
        std::fprintf(stderr, "ddbd %s: %s needs a value\n", command, name);
        return std::nullopt;
      }
      return args[++i];
    };
    if (arg == "--endpoint" || arg == "--out" || arg == "--tables" || arg == "--segments") {
      const auto given = value(arg.c_str());
      if (!given) return std::nullopt;
      if (arg == "--endpoint") {
        const auto endpoint = Endpoint::Parse(*given);
        if (!endpoint) {
          std::fprintf(
              stderr, "ddbd %s: --endpoint: expected http://HOST[:PORT] or https://..., got '%s'\n",
              command, given->c_str());
          return std::nullopt;
        }
        parsed.endpoint = *endpoint;
      }
      if (arg == "--out") parsed.out = *given;
      if (arg == "--tables") parsed.tables = TableNames(*given);
      if (arg == "--segments") {
        parsed.segments = std::atoi(given->c_str());
        if (parsed.segments < 1 || parsed.segments > 64) {
          std::fprintf(stderr, "ddbd %s: --segments: expected 1 to 64\n", command);
          return std::nullopt;
        }
      }
    } else if (arg == "--help" || arg == "-h") {
      std::fputs(paths_allowed ? kLoadHelp : kDumpHelp, stdout);
      std::exit(0);
    } else if (paths_allowed && !arg.starts_with("--")) {
      parsed.paths.push_back(arg);
    } else {
      std::fprintf(stderr, "ddbd %s: unknown argument '%s'\n", command, arg.c_str());
      return std::nullopt;
    }
  }
  if (parsed.endpoint.host.empty()) {
    std::fprintf(stderr, "ddbd %s: --endpoint URL is needed (e.g. http://localhost:8000)\n",
                 command);
    return std::nullopt;
  }
  return parsed;
}

// Writes `text` to `path` whole (a temporary file renamed into place).
bool WriteFile(const std::string& path, std::string_view text) {
  const std::string temporary = path + ".tmp";
  std::FILE* file = std::fopen(temporary.c_str(), "wb");
  if (file == nullptr) return false;
  const bool written = std::fwrite(text.data(), 1, text.size(), file) == text.size();
  if (std::fclose(file) != 0 || !written) return false;
  std::error_code ec;
  std::filesystem::rename(temporary, path, ec);
  return !ec;
}

// One table's items, read by `segments` threads (a parallel Scan), into `path`.
Result<uint64_t> DumpItems(const RemoteEndpoint& endpoint, const std::string& table,
                           const std::string& path, int segments) {
  const std::string temporary = path + ".tmp";
  std::FILE* file = std::fopen(temporary.c_str(), "wb");
  if (file == nullptr) return Error::Validation(path + ": cannot write it");
  std::mutex file_mutex;
  bool write_failed = false;
  std::vector<std::optional<Error>> failures(static_cast<size_t>(segments));
  std::atomic<uint64_t> total = 0;
  std::vector<std::thread> threads;
  for (int segment = 0; segment < segments; ++segment) {
    threads.emplace_back([&, segment] {
      std::string buffered;
      auto flush = [&] {
        std::lock_guard lock(file_mutex);
        if (std::fwrite(buffered.data(), 1, buffered.size(), file) != buffered.size()) {
          write_failed = true;
        }
        buffered.clear();
      };
      auto scanned = DumpSegment(endpoint, table, segment, segments, [&](std::string_view item) {
        buffered.append(item);
        buffered += '\n';
        if (buffered.size() > (1 << 20)) flush();
      });
      flush();
      if (!scanned.ok()) {
        failures[static_cast<size_t>(segment)] = scanned.error();
      } else {
        total += scanned.value();
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  const bool closed = std::fclose(file) == 0;
  for (const auto& failure : failures) {
    if (failure) return *failure;
  }
  if (write_failed || !closed) return Error::Validation(path + ": cannot write it");
  std::error_code ec;
  std::filesystem::rename(temporary, path, ec);
  if (ec) return Error::Validation(path + ": " + ec.message());
  return total.load();
}

}  // namespace

int RunDump(const std::vector<std::string>& args) {
  const auto parsed = ParseArguments("dump", args, /*paths_allowed=*/false);
  if (!parsed) return 2;
  if (parsed->out.empty()) {
    std::fprintf(stderr, "ddbd dump: --out DIR is needed\n");
    return 2;
  }
  const RemoteEndpoint remote(parsed->endpoint, AwsCredentials::FromEnvironment());
  std::error_code ec;
  std::filesystem::create_directories(parsed->out, ec);
  if (ec) {
    std::fprintf(stderr, "ddbd dump: %s: %s\n", parsed->out.c_str(), ec.message().c_str());
    return 1;
  }
  std::vector<std::string> tables = parsed->tables;
  if (tables.empty()) {
    auto all = ListAllTables(remote);
    if (!all.ok()) {
      std::fprintf(stderr, "ddbd dump: %s\n", all.error().message().c_str());
      return 1;
    }
    tables = std::move(all.value());
  }
  const auto started = std::chrono::steady_clock::now();
  uint64_t items = 0;
  for (const std::string& table : tables) {
    const auto table_started = std::chrono::steady_clock::now();
    std::string warning;
    auto definition = DumpTableDefinition(remote, table, warning);
    if (!definition.ok()) {
      std::fprintf(stderr, "ddbd dump: %s: %s\n", table.c_str(),
                   definition.error().message().c_str());
      return 1;
    }
    if (!warning.empty()) {
      std::fprintf(stderr, "ddbd dump: %s: warning: %s\n", table.c_str(), warning.c_str());
    }
    const std::string base = parsed->out + "/" + table;
    if (!WriteFile(base + ".table.json", definition.value())) {
      std::fprintf(stderr, "ddbd dump: %s.table.json: cannot write it\n", base.c_str());
      return 1;
    }
    auto dumped = DumpItems(remote, table, base + ".items.jsonl", parsed->segments);
    if (!dumped.ok()) {
      std::fprintf(stderr, "ddbd dump: %s: %s\n", table.c_str(), dumped.error().message().c_str());
      return 1;
    }
    items += dumped.value();
    std::fprintf(stderr, "ddbd dump: %s: %llu items in %.3f s\n", table.c_str(),
                 static_cast<unsigned long long>(dumped.value()), SecondsSince(table_started));
  }
  std::fprintf(stderr, "ddbd dump: %zu tables, %llu items to %s in %.3f s\n", tables.size(),
               static_cast<unsigned long long>(items), parsed->out.c_str(), SecondsSince(started));
  return 0;
}

int RunLoad(const std::vector<std::string>& args) {
  const auto parsed = ParseArguments("load", args, /*paths_allowed=*/true);
  if (!parsed) return 2;
  if (parsed->paths.empty()) {
    std::fprintf(stderr, "ddbd load: give the directory (or files) to load\n");
    return 2;
  }
  const RemoteEndpoint remote(parsed->endpoint, AwsCredentials::FromEnvironment());
  SeedFiles files;
  std::string error;
  if (!FindSeedFiles(parsed->paths, files, error)) {
    std::fprintf(stderr, "ddbd load: %s\n", error.c_str());
    return 1;
  }
  const auto started = std::chrono::steady_clock::now();
  SeedLoader creator(remote);
  for (const std::string& file : files.table_files) {
    std::string text;
    if (!ReadSeedFile(file, text, error)) {
      std::fprintf(stderr, "ddbd load: %s\n", error.c_str());
      return 1;
    }
    auto table = ReadSeedTable(file, text);
    if (!table.ok()) {
      std::fprintf(stderr, "ddbd load: %s\n", table.error().message().c_str());
      return 1;
    }
    auto created = creator.CreateTable(file, table.value());
    if (!created.ok()) {
      std::fprintf(stderr, "ddbd load: %s\n", created.error().message().c_str());
      return 1;
    }
    if (!created.value()) {
      std::fprintf(stderr, "ddbd load: table %s exists already: its items are loaded into it\n",
                   table.value().table_name.c_str());
    }
  }
  uint64_t total = 0;
  for (const auto& [items_file, items_table] : files.items_files) {
    // Named copies: clang 14 cannot capture structured bindings in the writers' lambdas.
    const std::string& file = items_file;
    const std::string& table = items_table;
    const auto file_started = std::chrono::steady_clock::now();
    auto key_names = KeyNames(remote, table);
    if (!key_names.ok()) {
      std::fprintf(stderr, "ddbd load: %s: %s\n", file.c_str(),
                   key_names.error().message().c_str());
      return 1;
    }
    std::string text;
    if (!ReadSeedFile(file, text, error)) {
      std::fprintf(stderr, "ddbd load: %s\n", error.c_str());
      return 1;
    }
    // Items go to the writers by key, so every item of one key goes through the same writer, in
    // the file's order: the last line of a key wins, as with --seed.
    const size_t writers = static_cast<size_t>(parsed->segments);
    std::vector<std::vector<std::pair<std::string, std::string>>> shares(writers);
    size_t line_number = 0;
    size_t start = 0;
    while (start < text.size()) {
      size_t end = text.find('\n', start);
      if (end == std::string::npos) end = text.size();
      const std::string_view line(text.data() + start, end - start);
      start = end + 1;
      ++line_number;
      auto item = SeedItemJson(line);
      if (!item.ok()) {
        std::fprintf(stderr, "ddbd load: %s:%zu: %s\n", file.c_str(), line_number,
                     item.error().message().c_str());
        return 1;
      }
      if (!item.value()) continue;
      std::string key = ItemKeyText(*item.value(), key_names.value()).value_or("");
      const size_t writer = std::hash<std::string>()(key) % writers;
      shares[writer].emplace_back(std::move(*item.value()), std::move(key));
    }
    std::vector<std::optional<Error>> failures(writers);
    std::atomic<uint64_t> written = 0;
    std::vector<std::thread> threads;
    for (size_t w = 0; w < writers; ++w) {
      threads.emplace_back([&, w] {
        BatchWriter writer(remote, table);
        for (auto& [item, key] : shares[w]) {
          if (Status added = writer.Add(std::move(item), key); !added.ok()) {
            failures[w] = added.error();
            return;
          }
        }
        if (Status flushed = writer.Flush(); !flushed.ok()) failures[w] = flushed.error();
        written += writer.written();
      });
    }
    for (std::thread& thread : threads) thread.join();
    for (const auto& failure : failures) {
      if (failure) {
        std::fprintf(stderr, "ddbd load: %s: %s\n", file.c_str(), failure->message().c_str());
        return 1;
      }
    }
    total += written;
    std::fprintf(stderr, "ddbd load: %s: %llu items into %s in %.3f s\n", file.c_str(),
                 static_cast<unsigned long long>(written.load()), table.c_str(),
                 SecondsSince(file_started));
  }
  std::fprintf(stderr, "ddbd load: %zu tables, %llu items in %.3f s\n", files.table_files.size(),
               static_cast<unsigned long long>(total), SecondsSince(started));
  return 0;
}

}  // namespace ddbd
