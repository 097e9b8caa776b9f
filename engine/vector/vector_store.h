// One vector index's vectors (issue 41): f32, contiguous per partition (the items sharing a HASH
// search-schema value; one partition when the index has none), each with its item's key, its
// squared norm (COSINE's) and its inline-filter values. Searches are exact: every vector of the
// partitions read is scored.
//
// Memory: a vector's dimensions x 4 bytes, plus about a hundred bytes an item (its key twice,
// its norm and the key's map node), so an index of 768-dimension vectors holds within 5% of its
// raw f32 bytes.
//
// Not thread-safe: the table's lock guards it (engine/storage/table_vectors.h).
#pragma once

#include <absl/container/node_hash_map.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/vector/distance.h"

namespace ddbd::vector {

class VectorStore {
 public:
  // `filters`: how many inline-filter attributes each vector carries values of.
  VectorStore(size_t dimensions, size_t filters) : dimensions_(dimensions), filters_(filters) {}

  // Puts the vector of the item with key `key` in `partition`, replacing the one it had (in any
  // partition). `filter_values` holds one value per filter (encoded key bytes; empty: absent).
  void Put(std::string_view key, std::string_view partition, std::span<const float> values,
           std::span<const std::string> filter_values);
  // Removes the vector of the item with key `key`, if it has one.
  void Remove(std::string_view key);

  size_t size() const { return by_key_.size(); }
  // The f32 bytes held (what DescribeTable's IndexSizeBytes reports).
  int64_t vector_bytes() const {
    return static_cast<int64_t>(by_key_.size() * dimensions_ * sizeof(float));
  }

  struct Found {
    std::string_view key;  // valid until the store changes
    double score = 0;
  };
  struct Search {
    std::span<const float> query;
    DistanceFunction function = DistanceFunction::kCosine;
    size_t top_k = 1;
    const std::string* partition = nullptr;  // null: every partition
    // Per filter: the value a vector's must equal (encoded key bytes), or none.
    std::span<const std::optional<std::string>> filters;
    size_t* scored = nullptr;  // if set, gets how many vectors were scored
  };
  // The best `top_k` matches, best first; ties by key (engine/vector/top_k.h).
  std::vector<Found> Find(const Search& search) const;

 private:
  struct Partition {
    std::vector<float> values;  // dimensions_ a vector
    std::vector<double> norms;
    std::vector<const std::string*> keys;    // by_key_'s keys (node-stable)
    std::vector<std::string> filter_values;  // filters_ a vector
  };
  struct Location {
    Partition* partition = nullptr;
    const std::string* partition_name = nullptr;
    uint32_t slot = 0;
  };

  void RemoveAt(const Location& location);

  size_t dimensions_;
  size_t filters_;
  absl::node_hash_map<std::string, Partition> partitions_;
  absl::node_hash_map<std::string, Location> by_key_;
};

}  // namespace ddbd::vector
