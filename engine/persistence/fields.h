// Tagged fields: the encoding of the log's and snapshots' structured records. Each field is a
// varint tag (number << 2 | wire type), then a varint (integers) or a length and bytes (strings
// and nested records). A reader skips tags it does not know, so a later ddbd adds fields
// without a new format, and this one still reads what it wrote.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ddbd {

class FieldWriter {
 public:
  void Int(uint32_t number, int64_t value);  // zigzag, so small negatives stay small
  void Bytes(uint32_t number, std::string_view value);
  // How many bytes Bytes writes before a value of `size` bytes (its number and length).
  static size_t BytesHeaderSize(uint32_t number, size_t size);
  const std::string& bytes() const { return out_; }
  std::string Take() { return std::move(out_); }

 private:
  void Varint(uint64_t value);
  std::string out_;
};

// Reads fields in order. Next returns false at the end or on malformed bytes (then ok() is
// false): a record's checksum already held, so that is a bug or a foreign file.
class FieldReader {
 public:
  explicit FieldReader(std::string_view bytes) : bytes_(bytes) {}
  bool Next();
  uint32_t number() const { return number_; }
  int64_t integer() const { return integer_; }
  std::string_view text() const { return text_; }
  bool ok() const { return ok_; }

 private:
  // Most varints are one byte (tags, lengths under 128): read here, inlined into Next, which a
  // replay calls eight times a record.
  std::optional<uint64_t> Varint() {
    if (at_ < bytes_.size() && static_cast<uint8_t>(bytes_[at_]) < 0x80) {
      return static_cast<uint8_t>(bytes_[at_++]);
    }
    return LongVarint();
  }
  std::optional<uint64_t> LongVarint();
  std::string_view bytes_;
  size_t at_ = 0;
  uint32_t number_ = 0;
  int64_t integer_ = 0;
  std::string_view text_;
  bool ok_ = true;
};

}  // namespace ddbd
