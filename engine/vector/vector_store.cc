#include "engine/vector/vector_store.h"

#include <algorithm>

#include "engine/vector/top_k.h"

namespace ddbd::vector {
namespace {

// The iterator offset of element `index`.
template <class T>
auto At(std::vector<T>& elements, size_t index) {
  return elements.begin() + static_cast<std::ptrdiff_t>(index);
}

absl::string_view View(std::string_view text) {
  return absl::string_view(text.data(), text.size());
}

}  // namespace

void VectorStore::Put(std::string_view key, std::string_view partition,
                      std::span<const float> values, std::span<const std::string> filter_values) {
  auto found = by_key_.find(View(key));
  if (found != by_key_.end() && *found->second.partition_name == partition) {
    // The same partition: the vector keeps its slot.
    Location& at = found->second;
    std::copy(values.begin(), values.end(), At(at.partition->values, at.slot * dimensions_));
    at.partition->norms[at.slot] = SquaredNorm(values);
    std::copy(filter_values.begin(), filter_values.end(),
              At(at.partition->filter_values, at.slot * filters_));
    return;
  }
  if (found != by_key_.end()) {
    RemoveAt(found->second);
    by_key_.erase(found);
  }
  auto [named, added] = partitions_.try_emplace(std::string(partition));
  Partition& into = named->second;
  auto [entry, inserted] = by_key_.try_emplace(std::string(key));
  entry->second = Location{&into, &named->first, static_cast<uint32_t>(into.keys.size())};
  into.values.insert(into.values.end(), values.begin(), values.end());
  into.norms.push_back(SquaredNorm(values));
  into.keys.push_back(&entry->first);
  into.filter_values.insert(into.filter_values.end(), filter_values.begin(), filter_values.end());
}

void VectorStore::Remove(std::string_view key) {
  auto found = by_key_.find(View(key));
  if (found == by_key_.end()) return;
  RemoveAt(found->second);
  by_key_.erase(found);
}

void VectorStore::RemoveAt(const Location& location) {
  Partition& partition = *location.partition;
  const uint32_t last = static_cast<uint32_t>(partition.keys.size() - 1);
  if (location.slot != last) {
    // The last vector takes the freed slot: a partition stays contiguous.
    std::copy_n(At(partition.values, last * dimensions_), dimensions_,
                At(partition.values, location.slot * dimensions_));
    partition.norms[location.slot] = partition.norms[last];
    partition.keys[location.slot] = partition.keys[last];
    std::move(At(partition.filter_values, last * filters_),
              At(partition.filter_values, (last + 1) * filters_),
              At(partition.filter_values, location.slot * filters_));
    by_key_.find(*partition.keys[location.slot])->second.slot = location.slot;
  }
  partition.values.resize(last * dimensions_);
  partition.norms.pop_back();
  partition.keys.pop_back();
  partition.filter_values.resize(last * filters_);
  if (partition.keys.empty()) partitions_.erase(*location.partition_name);
}

std::vector<VectorStore::Found> VectorStore::Find(const Search& search) const {
  TopK top(search.top_k, LargerIsBetter(search.function));
  const double query_norm = SquaredNorm(search.query);
  uint32_t ordinal = 0;
  size_t scored = 0;
  auto read = [&](const Partition& partition) {
    const size_t count = partition.keys.size();
    for (size_t slot = 0; slot < count; ++slot, ++ordinal) {
      if (filters_ > 0 && !search.filters.empty()) {
        const std::string* values = &partition.filter_values[slot * filters_];
        bool matches = true;
        for (size_t f = 0; f < filters_ && matches; ++f) {
          matches = !search.filters[f] || *search.filters[f] == values[f];
        }
        if (!matches) continue;
      }
      const double score =
          Score(search.function, search.query, query_norm,
                std::span<const float>(&partition.values[slot * dimensions_], dimensions_),
                partition.norms[slot]);
      ++scored;
      if (top.Admits(score)) top.Offer(Match{score, ordinal, *partition.keys[slot]});
    }
  };
  if (search.partition != nullptr) {
    auto found = partitions_.find(View(*search.partition));
    if (found != partitions_.end()) read(found->second);
  } else {
    for (const auto& [name, partition] : partitions_) read(partition);
  }
  if (search.scored != nullptr) *search.scored = scored;
  std::vector<Found> matches;
  for (const Match& match : top.Take()) matches.push_back(Found{match.key, match.score});
  return matches;
}

}  // namespace ddbd::vector
