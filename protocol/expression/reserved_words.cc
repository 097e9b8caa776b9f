#include "protocol/expression/reserved_words.h"

#include <algorithm>
#include <array>
#include <cstdint>

#include "protocol/ascii.h"
#include "protocol/expression/reserved_word_list.h"

namespace ddbd {
namespace {

using reserved_words::kReservedWords;

constexpr size_t kLongestWord =
    std::max_element(kReservedWords.begin(), kReservedWords.end(),
                     [](auto a, auto b) { return a.size() < b.size(); }) -> size();

// A word's run: its first letter (every word starts with A-Z) and its length.
constexpr size_t RunOf(char upper_first, size_t size) {
  return static_cast<size_t>(upper_first - 'A') * (kLongestWord + 1) + size;
}
constexpr size_t kRuns = RunOf('Z', kLongestWord) + 1;

// The words by run, and where each run begins (kRunStarts[run] to kRunStarts[run + 1]): a
// look-up compares a name with the few words of its first letter and length.
constexpr auto kWordsByRun = [] {
  auto words = kReservedWords;
  std::sort(words.begin(), words.end(), [](std::string_view a, std::string_view b) {
    return RunOf(a[0], a.size()) < RunOf(b[0], b.size());
  });
  return words;
}();
constexpr std::array<uint16_t, kRuns + 1> kRunStarts = [] {
  std::array<uint16_t, kRuns + 1> starts{};
  size_t word = 0;
  for (size_t run = 0; run <= kRuns; ++run) {
    starts[run] = static_cast<uint16_t>(word);
    while (word < kWordsByRun.size() &&
           RunOf(kWordsByRun[word][0], kWordsByRun[word].size()) == run) {
      ++word;
    }
  }
  return starts;
}();
static_assert(kRunStarts[kRuns] == kReservedWords.size(), "every word starts with A-Z");

}  // namespace

bool IsReservedWord(std::string_view word) {
  // Every name of every expression is looked up here: a heap copy, a libc call per character
  // and a binary search over all 573 words were most of an expression's name.
  if (word.empty() || word.size() > kLongestWord) return false;
  const char first = AsciiUpper(word[0]);
  if (first < 'A' || first > 'Z') return false;
  const size_t run = RunOf(first, word.size());
  for (size_t i = kRunStarts[run]; i < kRunStarts[run + 1]; ++i) {
    if (EqualsIgnoringCase(kWordsByRun[i], word)) return true;
  }
  return false;
}

}  // namespace ddbd
