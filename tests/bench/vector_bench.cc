// Vector search's figures beside their floors (issue 41), on one core: an exact COSINE top-10
// search over N vectors of 768 dimensions against a loop that only reads as many floats (the
// memory-bandwidth floor, timed in the same run), a search with a HASH condition that selects 1%
// of the vectors, and the index's memory against the raw f32 bytes. Figures only: nothing here
// passes or fails on a time.
//   vector_bench [--quick] [--items N]
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "engine/vector/distance.h"
#include "engine/vector/vector_store.h"

namespace {

using Clock = std::chrono::steady_clock;
constexpr size_t kDimensions = 768;
constexpr size_t kTopK = 10;
constexpr size_t kPartitions = 100;  // a HASH condition then selects 1%

long ResidentKb() {
  FILE* status = std::fopen("/proc/self/status", "r");
  if (status == nullptr) return 0;
  char line[256];
  long kb = 0;
  while (std::fgets(line, sizeof line, status) != nullptr) {
    if (std::strncmp(line, "VmRSS:", 6) == 0) kb = std::strtol(line + 6, nullptr, 10);
  }
  std::fclose(status);
  return kb;
}

// The median and the range of `runs` timings of `work`, in ms.
template <class Work>
void Time(const char* what, int runs, Work work) {
  std::vector<double> ms;
  for (int i = 0; i < runs; ++i) {
    const auto start = Clock::now();
    work();
    ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
  }
  std::sort(ms.begin(), ms.end());
  std::printf("%-44s median %8.3f ms  (min %.3f, max %.3f, %d runs)\n", what, ms[ms.size() / 2],
              ms.front(), ms.back(), runs);
}

}  // namespace

int main(int argc, char** argv) {
  size_t items = 100'000;
  int runs = 21;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0) {
      items = 5'000;
      runs = 5;
    } else if (std::strcmp(argv[i], "--items") == 0 && i + 1 < argc) {
      items = std::stoul(argv[++i]);
    }
  }
  std::mt19937 random(41);
  std::uniform_real_distribution<float> element(-1, 1);
  std::vector<float> vector(kDimensions);
  auto next = [&] {
    for (float& x : vector) x = element(random);
    return std::span<const float>(vector);
  };

  std::printf("vector_bench: %zu vectors of %zu dimensions, top %zu, kernel %s\n", items,
              kDimensions, kTopK, ddbd::vector::KernelName());
  const long before_kb = ResidentKb();
  ddbd::vector::VectorStore all(kDimensions, 0);
  ddbd::vector::VectorStore hashed(kDimensions, 0);
  std::string key(24, 'k');
  for (size_t i = 0; i < items; ++i) {
    std::snprintf(key.data(), key.size(), "item-%012zu", i);
    all.Put(key, "", next(), {});
  }
  const long index_kb = ResidentKb() - before_kb;
  for (size_t i = 0; i < items; ++i) {
    std::snprintf(key.data(), key.size(), "item-%012zu", i);
    hashed.Put(key, "p" + std::to_string(i % kPartitions), next(), {});
  }
  const double raw_mb = static_cast<double>(items * kDimensions * sizeof(float)) / 1e6;
  std::printf("%-44s %8.1f MB resident for %.1f MB of f32 (%.3fx)\n", "index memory",
              static_cast<double>(index_kb) * 1024 / 1e6, raw_mb,
              static_cast<double>(index_kb) * 1024 / 1e6 / raw_mb);

  // The floor: every float of as many vectors read once, nothing else: their bits XORed into
  // eight independent words, so the loop waits on memory alone.
  std::vector<float> floats(items * kDimensions);
  for (float& x : floats) x = element(random);
  uint64_t sink = 0;
  Time("floor: read the same floats", runs, [&] {
    uint64_t lanes[8] = {};
    const size_t words = floats.size() / 2;
    const char* bytes = reinterpret_cast<const char*>(floats.data());
    for (size_t i = 0; i + 8 <= words; i += 8) {
      for (size_t j = 0; j < 8; ++j) {
        uint64_t word;
        std::memcpy(&word, bytes + (i + j) * sizeof word, sizeof word);
        lanes[j] ^= word;
      }
    }
    for (uint64_t lane : lanes) sink ^= lane;
  });
  floats.clear();
  floats.shrink_to_fit();

  const std::vector<float> query(next().begin(), next().end());
  ddbd::vector::VectorStore::Search search;
  search.query = query;
  search.function = ddbd::vector::DistanceFunction::kCosine;
  search.top_k = kTopK;
  size_t found = 0;
  Time("SearchVectors COSINE, no condition", runs, [&] { found += all.Find(search).size(); });
  const std::string partition = "p7";
  search.partition = &partition;
  Time("SearchVectors COSINE, HASH condition (1%)", runs * 10,
       [&] { found += hashed.Find(search).size(); });
  std::printf("(%u %zu)\n", static_cast<unsigned>(sink & 1),
              found % 2);  // keeps the work observable
  return 0;
}
