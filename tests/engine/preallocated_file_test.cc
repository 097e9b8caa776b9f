// PosixFileSystem::OpenPreallocated's files (the log's segments under --sync full), grown ahead
// of their appends with zeros: they read back as the appends, then zeros, through cuts, growth
// and appends of every size, and a disk too small for the zeros ahead never loses an append.
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <csignal>
#include <random>
#include <string>

#include "engine/persistence/file_system.h"

namespace ddbd {
namespace {

// The file reads `expected`, then only zeros.
void CheckPreallocatedBytes(PosixFileSystem& disk, const std::string& path,
                            const std::string& expected) {
  const std::string bytes = disk.ReadFile(path).value();
  REQUIRE(bytes.size() >= expected.size());
  CHECK(bytes.compare(0, expected.size(), expected) == 0);
  CHECK(bytes.find_first_not_of('\0', expected.size()) == std::string::npos);
}

TEST_CASE("Preallocated files read back as their appends through cuts, growth and reopening") {
  PosixFileSystem disk;
  {
    const std::string path = "/tmp/ddbd-prealloc-pages-" + std::to_string(::getpid());
    std::mt19937 random(17);
    std::string model;
    {
      auto file = disk.OpenPreallocated(path);
      REQUIRE(file.ok());
      for (int step = 0; step < 400; ++step) {
        if (step % 40 == 39) {
          // A cut back to a length already written (what a failed group's retry makes).
          const size_t size = model.size() - random() % std::min<size_t>(model.size(), 9000);
          REQUIRE(file.value()->Truncate(size).ok());
          model.resize(size);
          continue;
        }
        // Small and large appends, now and then one past the next megabyte's zeros.
        const size_t size = step % 97 == 0 ? (size_t{1} << 20) + random() % 5000
                                           : 1 + random() % (step % 3 == 0 ? 9000 : 300);
        const std::string bytes(size, static_cast<char>('a' + step % 26));
        REQUIRE(file.value()->Append(bytes).ok());
        model += bytes;
        if (step % 10 == 0) REQUIRE(file.value()->Sync().ok());
        if (step % 50 == 0) CheckPreallocatedBytes(disk, path, model);
      }
      REQUIRE(file.value()->Sync().ok());
      CheckPreallocatedBytes(disk, path, model);
    }
    // Reopened, appends go on after what is there (its zeros included: the segment's file).
    {
      auto file = disk.OpenPreallocated(path);
      REQUIRE(file.ok());
      const std::string before = disk.ReadFile(path).value();
      REQUIRE(file.value()->Append("tail").ok());
      REQUIRE(file.value()->Sync().ok());
      CheckPreallocatedBytes(disk, path, before + "tail");
    }
    REQUIRE(disk.Remove(path).ok());
  }
}

TEST_CASE("A disk too small for the zeros ahead never loses an append") {
  // RLIMIT_FSIZE stands for a full disk: writes past it fail (EFBIG) rather than kill the
  // process (SIGXFSZ ignored). The first megabyte and a half fits: the zeros ahead (two
  // megabytes) never do, so each append goes after zeros that stopped short.
  struct rlimit before {};
  REQUIRE(::getrlimit(RLIMIT_FSIZE, &before) == 0);
  auto previous_handler = std::signal(SIGXFSZ, SIG_IGN);
  PosixFileSystem disk;
  {
    const std::string path = "/tmp/ddbd-prealloc-full-" + std::to_string(::getpid());
    struct rlimit limit = before;
    limit.rlim_cur = (size_t{3} << 20) / 2;
    REQUIRE(::setrlimit(RLIMIT_FSIZE, &limit) == 0);
    std::string model;
    {
      auto file = disk.OpenPreallocated(path);
      REQUIRE(file.ok());
      for (int step = 0; step < 30; ++step) {
        const std::string bytes(1000 + 37 * static_cast<size_t>(step),
                                static_cast<char>('A' + step));
        REQUIRE(file.value()->Append(bytes).ok());
        model += bytes;
        REQUIRE(file.value()->Sync().ok());
      }
      // Past the limit: refused, and what was appended before stays.
      CHECK_FALSE(file.value()->Append(std::string(size_t{2} << 20, 'z')).ok());
    }
    REQUIRE(::setrlimit(RLIMIT_FSIZE, &before) == 0);
    const std::string bytes = disk.ReadFile(path).value();
    REQUIRE(bytes.size() >= model.size());
    CHECK(bytes.compare(0, model.size(), model) == 0);
    REQUIRE(disk.Remove(path).ok());
  }
  std::signal(SIGXFSZ, previous_handler);
}

}  // namespace
}  // namespace ddbd
