#include "engine/storage/item_history.h"

#include <random>

namespace ddbd {

ItemHistory::ItemHistory(ItemHistoryOptions options) : options_(options) {}

ItemHistory::~ItemHistory() {
  for (Entry& entry : entries_) {
    if (entry.before != nullptr) ItemRecord::Destroy(entry.before);
  }
}

int64_t ItemHistory::ReadMoment() const {
  int64_t delay_ms = options_.min_ms;
  if (options_.max_ms > options_.min_ms) {
    // Reads run in parallel under the read lock: each thread draws from its own generator.
    thread_local std::mt19937_64 random(std::random_device{}());
    delay_ms = std::uniform_int_distribution<int64_t>(options_.min_ms, options_.max_ms)(random);
  }
  return options_.clock->NowMs() - delay_ms;
}

const ItemHistory::Entry* ItemHistory::Find(uint64_t number) const {
  if (number == kNoEntry || number < first_number_) return nullptr;
  return &entries_[number - first_number_];
}

size_t ItemHistory::BytesOf(const Entry& entry) const {
  return sizeof(Entry) + entry.key.size() +
         (entry.before != nullptr
              ? sizeof(ItemRecord) + entry.before->key_size() + entry.before->blob_size()
              : 0);
}

void ItemHistory::DropOldest(Garbage& garbage) {
  Entry& oldest = entries_.front();
  // The key's newest change is this one only when it has no later one: then the key goes too.
  if (auto it = newest_.find(oldest.key); it != newest_.end() && it->second == first_number_) {
    newest_.erase(it);
  }
  bytes_ -= BytesOf(oldest);
  if (oldest.before != nullptr) garbage.push_back(oldest.before);
  entries_.pop_front();
  ++first_number_;
}

void ItemHistory::Record(std::string_view key, ItemRecord* before, Garbage& garbage) {
  const int64_t now_ms = options_.clock->NowMs();
  // No read reaches further back than the longest delay.
  while (!entries_.empty() && entries_.front().ms < now_ms - options_.max_ms) DropOldest(garbage);
  const uint64_t number = first_number_ + entries_.size();
  auto [it, inserted] = newest_.try_emplace(key, number);
  Entry& entry = entries_.emplace_back();
  entry.ms = now_ms;
  entry.key = std::string(key);
  entry.before = before;
  if (!inserted) {
    entry.previous = it->second;
    it->second = number;
  }
  bytes_ += BytesOf(entry);
  while (bytes_ > static_cast<size_t>(options_.max_bytes) && entries_.size() > 1) {
    DropOldest(garbage);
  }
}

ItemHistory::State ItemHistory::StateAt(std::string_view key, int64_t moment_ms) const {
  State state;
  auto it = newest_.find(key);
  if (it == newest_.end()) return state;
  // Back from the newest change to the first one made after the moment: what it replaced is what
  // the item held then. A chain cut by the byte cap ends at the oldest change kept.
  for (const Entry* entry = Find(it->second); entry != nullptr && entry->ms > moment_ms;
       entry = Find(entry->previous)) {
    state.changed = true;
    state.item = entry->before;
  }
  return state;
}

}  // namespace ddbd
