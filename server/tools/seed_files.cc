#include "server/tools/seed_files.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "server/content_encoding.h"
#include "server/tools/seed.h"

namespace ddbd {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kTableSuffix = ".table.json";
constexpr std::string_view kItemsSuffixes[] = {".items.jsonl", ".items.jsonl.gz"};

// The table an items file is for ("Orders.items.jsonl.gz" -> "Orders"), or "".
std::string ItemsTable(const std::string& file_name) {
  for (std::string_view suffix : kItemsSuffixes) {
    if (file_name.size() > suffix.size() && file_name.ends_with(suffix)) {
      return file_name.substr(0, file_name.size() - suffix.size());
    }
  }
  return "";
}

bool Find(const std::string& path, SeedFiles& found, std::string& error) {
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (ec || !fs::exists(status)) {
    error = path + ": no such file or directory";
    return false;
  }
  std::vector<std::string> files;
  if (fs::is_directory(status)) {
    for (const auto& entry : fs::directory_iterator(path, ec)) {
      if (entry.is_regular_file()) files.push_back(entry.path().string());
    }
    std::sort(files.begin(), files.end());
    if (ec) {
      error = path + ": " + ec.message();
      return false;
    }
  } else {
    files.push_back(path);
    // A table file given alone brings its items file, if one lies beside it.
    if (path.ends_with(kTableSuffix)) {
      const std::string stem = path.substr(0, path.size() - kTableSuffix.size());
      for (std::string_view suffix : kItemsSuffixes) {
        if (fs::exists(stem + std::string(suffix))) files.push_back(stem + std::string(suffix));
      }
    }
  }
  size_t used = 0;
  for (const std::string& file : files) {
    const std::string name = fs::path(file).filename().string();
    if (name.size() > kTableSuffix.size() && name.ends_with(kTableSuffix)) {
      found.table_files.push_back(file);
      ++used;
    } else if (const std::string table = ItemsTable(name); !table.empty()) {
      found.items_files.emplace_back(file, table);
      ++used;
    } else if (!fs::is_directory(status)) {
      error = file + ": not a seed file (<Table>.table.json or <Table>.items.jsonl[.gz])";
      return false;
    }
  }
  if (used == 0) {
    error = path + ": holds no <Table>.table.json or <Table>.items.jsonl[.gz] files";
    return false;
  }
  return true;
}

}  // namespace

bool FindSeedFiles(const std::vector<std::string>& paths, SeedFiles& found, std::string& error) {
  for (const std::string& path : paths) {
    if (!Find(path, found, error)) return false;
  }
  return true;
}

bool ReadSeedFile(const std::string& path, std::string& text, std::string& error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = path + ": cannot read it";
    return false;
  }
  std::ostringstream contents;
  contents << in.rdbuf();
  text = std::move(contents).str();
  if (!path.ends_with(".gz")) return true;
  std::string plain;
  if (DecodeBody("gzip", text, size_t{1} << 40, plain) != BodyDecoding::kDecoded) {
    error = path + ": not a gzip file";
    return false;
  }
  text = std::move(plain);
  return true;
}

bool LoadSeeds(const RequestHandler& handler, const std::vector<std::string>& paths,
               SeedReport& report, std::string& error) {
  const auto started = std::chrono::steady_clock::now();
  SeedFiles found;
  if (!FindSeedFiles(paths, found, error)) return false;
  SeedLoader loader(handler);
  std::vector<std::string> created;
  std::set<std::string> skipped;
  auto undo = [&](std::string why) {
    loader.DeleteTables(created);
    error = std::move(why);
    return false;
  };
  // Every table file is read before any table is made: a malformed one stops the start with
  // nothing done.
  std::vector<std::pair<std::string, SeedTable>> tables;
  for (const std::string& file : found.table_files) {
    std::string text;
    if (!ReadSeedFile(file, text, error)) return false;
    auto table = ReadSeedTable(file, text);
    if (!table.ok()) {
      error = table.error().message();
      return false;
    }
    tables.emplace_back(file, std::move(table.value()));
  }
  for (const auto& [file, table] : tables) {
    auto made = loader.CreateTable(file, table);
    if (!made.ok()) return undo(made.error().message());
    if (made.value()) {
      created.push_back(table.table_name);
    } else {
      skipped.insert(table.table_name);
      spdlog::info("seed: table {} exists already; {} and its items are skipped", table.table_name,
                   file);
    }
  }
  for (const auto& [items_file, items_table] : found.items_files) {
    // Named copies: clang 14 cannot capture structured bindings in the progress lambda.
    const std::string& file = items_file;
    const std::string& table = items_table;
    if (skipped.count(table) != 0) continue;
    if (std::find(created.begin(), created.end(), table) == created.end()) {
      return undo(file + ": no table " + table + " to load into: give its " + table +
                  std::string(kTableSuffix) + " too");
    }
    std::string text;
    if (!ReadSeedFile(file, text, error)) return undo(error);
    const auto file_started = std::chrono::steady_clock::now();
    auto put = loader.PutItems(file, table, text, [&](uint64_t items) {
      spdlog::info("seed: {}: {} items ({:.0f}/s)", file, items,
                   static_cast<double>(items) / SecondsSince(file_started));
    });
    if (!put.ok()) return undo(put.error().message());
    report.items += put.value();
    spdlog::info("seed: {}: {} items into {} in {:.3f} s", file, put.value(), table,
                 SecondsSince(file_started));
  }
  report.tables_created = created.size();
  report.tables_skipped = skipped.size();
  spdlog::info("seed: {} table{} created, {} skipped, {} items, in {:.3f} s", created.size(),
               created.size() == 1 ? "" : "s", skipped.size(), report.items, SecondsSince(started));
  return true;
}

}  // namespace ddbd
