// The whole stored items of a read's page (engine/model/item_codec.h blobs), held in one buffer:
// a page of ten small items made ten heap strings, their growing vector's moves and ten frees,
// ~150 instructions an item of a Query whose answer only copies them out again.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ddbd {

class ItemBlobs {
 public:
  class Iterator {
   public:
    Iterator(const ItemBlobs* blobs, size_t index) : blobs_(blobs), index_(index) {}
    std::string_view operator*() const { return (*blobs_)[index_]; }
    Iterator& operator++() {
      ++index_;
      return *this;
    }
    bool operator==(const Iterator& other) const { return index_ == other.index_; }

   private:
    const ItemBlobs* blobs_;
    size_t index_;
  };

  void push_back(std::string_view blob) {
    // A first item sizes the buffer for a few like it, so most pages grow it once or never.
    if (ends_.empty()) {
      bytes_.reserve(std::max<size_t>(4096, blob.size() * 4));
      ends_.reserve(16);
    }
    bytes_.append(blob);
    ends_.push_back(bytes_.size());
  }
  size_t size() const { return ends_.size(); }
  bool empty() const { return ends_.empty(); }
  std::string_view operator[](size_t i) const {
    const size_t begin = i == 0 ? 0 : ends_[i - 1];
    return std::string_view(bytes_).substr(begin, ends_[i] - begin);
  }
  Iterator begin() const { return Iterator(this, 0); }
  Iterator end() const { return Iterator(this, ends_.size()); }

 private:
  std::string bytes_;
  std::vector<size_t> ends_;  // where each item ends in bytes_
};

}  // namespace ddbd
