// kItemImages, a checkpoint's items of one table as the engine keeps them in memory, and
// kItemPutNumbered (formerly kItemPutImage), one put's item in the log the same way: a replay
// points the table's records at the mapped file (engine/storage/mapped_records.h) instead of
// decoding, allocating and copying each item.
//
// Payload: u32 length of the table id | the table id | u8 n | n zero bytes | images, where n
// (0-3) puts the first image at a file offset that is a multiple of 4, ItemRecord's alignment.
// An image is an ItemRecord as in memory: its 8-byte header (item_records.h: the key size and
// the blob's low 12 bits in one u32, the item size and the blob's high 10 bits in the next) |
// key | blob | zeros up to a multiple of 4. Little-endian, as ddbd's records are in memory (it
// runs on x86-64 and ARM64 only).
//
// kItemPutNumbered, the log's puts now: kItemPutImage's payload with the table's number in the
// log (journal_records.h, kTableNumber) where the table id was; 32 bytes a put fewer.
//
// kItemImagesWide, what checkpoints held before the header was packed: the same payload with a
// 12-byte header (u32 key size | u32 blob size | u32 item size). Still read, by copying each
// item into a record of its own.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/error.h"

namespace ddbd {

// Images of one table's items, gathered and appended as records of at most about
// kItemImagesBytes each (an item larger than that goes alone).
inline constexpr size_t kItemImagesBytes = size_t{64} << 10;

class ItemImagesWriter {
 public:
  explicit ItemImagesWriter(std::string_view table_id) : table_id_(table_id) {}
  void Add(std::string_view key, std::string_view blob, uint32_t item_size);
  size_t bytes() const { return images_.size(); }
  // The images added since the last call as one record at the end of `out`, whose first byte
  // the file holds at `out_offset`; nothing when none were added.
  void AppendTo(std::string& out, uint64_t out_offset);

 private:
  std::string table_id_;
  std::string images_;
};

// kItemPutImage's payload: one item's image as a kItemImages payload holds it (read with
// DecodeItemImages and ItemImageReader), placed so that the image is aligned where the payload
// starts `payload_at` bytes after an offset that is a multiple of 4: a record's start, in log
// format 7 (its own payload: kLogRecordHeaderBytes after it; a group's member: further on).
std::string EncodeItemPutImage(std::string_view table_id, std::string_view key,
                               std::string_view blob, uint32_t item_size, size_t payload_at);

struct ItemImages {
  std::string_view table_id;
  std::string_view images;
};

// Views into `payload`. InternalServerError for a malformed one.
Result<ItemImages> DecodeItemImages(std::string_view payload);

// kItemPutNumbered's payload: u64 table number (journal_records.h, kTableNumber) | u8 n | n zero
// bytes | the image, placed as EncodeItemPutImage places it.
std::string EncodeItemPutNumbered(uint64_t table_number, std::string_view key,
                                  std::string_view blob, uint32_t item_size, size_t payload_at);
// The bytes before a numbered put's image, at most: for a group's room.
inline constexpr size_t kItemPutNumberedPrefixBytes = 8 + 1 + 3;

struct NumberedItemImage {
  uint64_t table_number = 0;
  std::string_view images;  // one image
};
// Views into `payload`. InternalServerError for a malformed one.
Result<NumberedItemImage> DecodeItemPutNumbered(std::string_view payload);

// Each image of ItemImages::images in turn.
class ItemImageReader {
 public:
  // `wide`: images of a kItemImagesWide record.
  explicit ItemImageReader(std::string_view images, bool wide = false)
      : rest_(images), wide_(wide) {}
  // False at the end, or at a malformed image (then ok() is false).
  bool Next();
  bool ok() const { return ok_; }
  // The image's first byte: an ItemRecord where the images are 4-byte aligned (not wide ones).
  const char* image() const { return image_; }
  std::string_view key() const { return key_; }
  std::string_view blob() const { return blob_; }
  uint32_t item_size() const { return item_size_; }

 private:
  std::string_view rest_;
  bool wide_;
  bool ok_ = true;
  const char* image_ = nullptr;
  std::string_view key_;
  std::string_view blob_;
  uint32_t item_size_ = 0;
};

}  // namespace ddbd
