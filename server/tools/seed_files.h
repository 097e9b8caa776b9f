// --seed: finds the seed files under each path (a directory of <Table>.table.json and
// <Table>.items.jsonl[.gz], or one such file), reads them (gunzipped with ISA-L), and loads them
// through protocol/seed.h before the server accepts connections: every table first, then the
// items of the tables it created. A table that exists already (a restarted --db-path) is skipped,
// items and all, with a log line. If anything fails, the tables this run created are deleted
// again, so a failed start never leaves a half-loaded database behind.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "protocol/dispatcher.h"

namespace ddbd {

// Seconds since `start`, for the tools' progress lines.
inline double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

struct SeedReport {
  size_t tables_created = 0;
  size_t tables_skipped = 0;
  uint64_t items = 0;
};

// Loads `paths` in order. False with "FILE:LINE: reason" (or "PATH: reason") in `error`.
bool LoadSeeds(const RequestHandler& handler, const std::vector<std::string>& paths,
               SeedReport& report, std::string& error);

// The seed files under `paths` (directories, or files): table files, and items files with the
// table each is for. False with "PATH: reason" in `error`.
struct SeedFiles {
  std::vector<std::string> table_files;
  std::vector<std::pair<std::string, std::string>> items_files;  // (file, table)
};
bool FindSeedFiles(const std::vector<std::string>& paths, SeedFiles& found, std::string& error);

// Reads a whole file, gunzipping it when its name ends in .gz. False with the reason in `error`.
bool ReadSeedFile(const std::string& path, std::string& text, std::string& error);

}  // namespace ddbd
