#include "engine/persistence/item_images.h"

#include <cstring>

#include "engine/persistence/journal_records.h"
#include "engine/persistence/log_format.h"
#include "engine/storage/item_records.h"

namespace ddbd {
namespace {

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "images are records as in memory");
static_assert(sizeof(ItemRecord) == 8 && alignof(ItemRecord) == 4, "the image's header");

constexpr size_t kAlign = alignof(ItemRecord);
constexpr size_t kWideHeader = 12;  // kItemImagesWide's u32 key, blob and item sizes

size_t PaddingTo(uint64_t offset) { return (kAlign - offset % kAlign) % kAlign; }

void AppendU32(std::string& out, uint32_t value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof(value));
}

uint32_t ReadU32(const char* at) {
  uint32_t value;
  std::memcpy(&value, at, sizeof(value));
  return value;
}

// An image: the record's header, its key, its blob, and zeros up to a multiple of the alignment.
void AppendImage(std::string& out, std::string_view key, std::string_view blob,
                 uint32_t item_size) {
  // The items written are records in memory, within the header's sizes.
  const ItemRecord header(static_cast<uint32_t>(key.size()), static_cast<uint32_t>(blob.size()),
                          item_size);
  out.append(reinterpret_cast<const char*>(&header), sizeof(header));
  out.append(key);
  out.append(blob);
  out.append(PaddingTo(sizeof(header) + key.size() + blob.size()), '\0');
}

// What comes before the images in a payload that starts at file offset `payload_offset`: the
// table id, and zeros that put the first image at an aligned offset.
void AppendImagesPrefix(std::string& payload, std::string_view table_id, uint64_t payload_offset) {
  const size_t padding = PaddingTo(payload_offset + 4 + table_id.size() + 1);
  AppendU32(payload, static_cast<uint32_t>(table_id.size()));
  payload.append(table_id);
  payload.push_back(static_cast<char>(padding));
  payload.append(padding, '\0');
}

}  // namespace

void ItemImagesWriter::Add(std::string_view key, std::string_view blob, uint32_t item_size) {
  AppendImage(images_, key, blob, item_size);  // images_ starts aligned
}

void ItemImagesWriter::AppendTo(std::string& out, uint64_t out_offset) {
  if (images_.empty()) return;
  std::string payload;
  payload.reserve(4 + table_id_.size() + 1 + kAlign + images_.size());
  AppendImagesPrefix(payload, table_id_, out_offset + out.size() + kLogRecordHeaderBytes);
  payload.append(images_);
  AppendLogRecord(out, static_cast<uint8_t>(JournalKind::kItemImages), payload);
  images_.clear();
}

std::string EncodeItemPutImage(std::string_view table_id, std::string_view key,
                               std::string_view blob, uint32_t item_size, size_t payload_at) {
  std::string payload;
  payload.reserve(4 + table_id.size() + 1 + 2 * kAlign + sizeof(ItemRecord) + key.size() +
                  blob.size());
  AppendImagesPrefix(payload, table_id, payload_at);
  AppendImage(payload, key, blob, item_size);
  return payload;
}

std::string EncodeItemPutNumbered(uint64_t table_number, std::string_view key,
                                  std::string_view blob, uint32_t item_size, size_t payload_at) {
  std::string payload;
  payload.reserve(kItemPutNumberedPrefixBytes + sizeof(ItemRecord) + key.size() + blob.size() +
                  kAlign);
  const size_t padding = PaddingTo(payload_at + sizeof(table_number) + 1);
  payload.append(reinterpret_cast<const char*>(&table_number), sizeof(table_number));
  payload.push_back(static_cast<char>(padding));
  payload.append(padding, '\0');
  AppendImage(payload, key, blob, item_size);
  return payload;
}

Result<NumberedItemImage> DecodeItemPutNumbered(std::string_view payload) {
  NumberedItemImage put;
  constexpr size_t kNumber = sizeof(put.table_number);
  if (payload.size() < kNumber + 1) return Error::Internal("malformed log record: a numbered put");
  std::memcpy(&put.table_number, payload.data(), kNumber);
  const auto padding = static_cast<uint8_t>(payload[kNumber]);
  const size_t start = kNumber + 1 + padding;
  if (padding >= kAlign || start > payload.size()) {
    return Error::Internal("malformed log record: a numbered put");
  }
  put.images = payload.substr(start);
  return put;
}

Result<ItemImages> DecodeItemImages(std::string_view payload) {
  auto malformed = [] { return Error::Internal("malformed log record: item images"); };
  if (payload.size() < 4 + 1) return malformed();  // the id's length, the pad's
  const uint32_t id_size = ReadU32(payload.data());
  if (id_size > payload.size() - 4 - 1) return malformed();
  ItemImages images;
  images.table_id = payload.substr(4, id_size);
  const auto padding = static_cast<uint8_t>(payload[4 + id_size]);
  const size_t start = 4 + size_t{id_size} + 1 + padding;
  if (padding >= kAlign || start > payload.size()) return malformed();
  images.images = payload.substr(start);
  return images;
}

bool ItemImageReader::Next() {
  if (rest_.empty() || !ok_) return false;
  ok_ = false;
  const size_t header_size = wide_ ? kWideHeader : sizeof(ItemRecord);
  if (rest_.size() < header_size) return false;
  uint32_t key_size;
  uint32_t blob_size;
  uint32_t item_size;
  if (wide_) {
    key_size = ReadU32(rest_.data());
    blob_size = ReadU32(rest_.data() + 4);
    item_size = ReadU32(rest_.data() + 8);
    // What a record's header holds: a wide image past it is no item ddbd wrote.
    if (key_size > ItemRecord::kMaxKeySize || blob_size > ItemRecord::kMaxBlobSize ||
        item_size > ItemRecord::kMaxItemSize) {
      return false;
    }
  } else {
    ItemRecord header(0, 0, 0);
    std::memcpy(&header, rest_.data(), sizeof(header));
    key_size = header.key_size();
    blob_size = header.blob_size();
    item_size = header.item_size();
  }
  // A whole-item entry's marker is no image's size, and no size may run past the images.
  const size_t room = rest_.size() - header_size;
  if (blob_size == ItemRecord::kWholeItem || key_size > room || blob_size > room - key_size) {
    return false;
  }
  const size_t bytes = header_size + key_size + blob_size;
  const size_t padded = bytes + PaddingTo(bytes);
  if (padded > rest_.size()) return false;
  image_ = rest_.data();
  // The images lie in a mapped file, one after another: the lines a few images on are asked
  // for now (the hardware's own prefetch stops at each 4 KiB page).
  __builtin_prefetch(rest_.data() + 2048);
  item_size_ = item_size;
  key_ = rest_.substr(header_size, key_size);
  blob_ = rest_.substr(header_size + key_size, blob_size);
  rest_.remove_prefix(padded);
  ok_ = true;
  return true;
}

}  // namespace ddbd
