// The k best matches of an exact search, kept while every candidate is scored. Ties are ordered
// by the candidates' item keys (their bytes, engine/model/key_codec.h: the order a Scan returns
// the items in), then ordinals, so a search answers the same items in the same order every time;
// DynamoDB, searching approximately, promises no tie order.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace ddbd::vector {

struct Match {
  double score = 0;
  uint32_t ordinal = 0;
  std::string_view key;  // the item's key bytes; must outlive the search
};

class TopK {
 public:
  TopK(size_t k, bool larger_is_better) : k_(k), larger_is_better_(larger_is_better) {
    kept_.reserve(k);
  }

  // Whether `a` is the better match of the two.
  bool Better(const Match& a, const Match& b) const {
    if (a.score != b.score) return larger_is_better_ ? a.score > b.score : a.score < b.score;
    if (a.key != b.key) return a.key < b.key;
    return a.ordinal < b.ordinal;
  }

  // The score a candidate must beat to be kept once k are (any score before that).
  bool Admits(double score) const {
    if (kept_.size() < k_) return true;
    const double worst = kept_.front().score;
    return larger_is_better_ ? score >= worst : score <= worst;
  }

  void Offer(Match match) {
    if (k_ == 0) return;
    // A heap whose front is the worst match kept.
    auto worse_first = [this](const Match& a, const Match& b) { return Better(a, b); };
    if (kept_.size() < k_) {
      kept_.push_back(match);
      std::push_heap(kept_.begin(), kept_.end(), worse_first);
      return;
    }
    if (!Better(match, kept_.front())) return;
    std::pop_heap(kept_.begin(), kept_.end(), worse_first);
    kept_.back() = match;
    std::push_heap(kept_.begin(), kept_.end(), worse_first);
  }

  // The matches kept, best first.
  std::vector<Match> Take() {
    std::sort(kept_.begin(), kept_.end(),
              [this](const Match& a, const Match& b) { return Better(a, b); });
    return std::move(kept_);
  }

 private:
  size_t k_;
  bool larger_is_better_;
  std::vector<Match> kept_;
};

}  // namespace ddbd::vector
