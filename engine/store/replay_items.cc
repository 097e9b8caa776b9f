// Store's replay of item records: a checkpoint's item images and the log's puts, handed to their
// tables where they lie in the mapped segment when they can (item_images.h, mapped_records.h),
// and the look-ups of the table an item record names.
#include <string>
#include <utility>
#include <vector>

#include "engine/persistence/item_images.h"
#include "engine/storage/mapped_records.h"
#include "engine/store/store.h"

namespace ddbd {

Status Store::ReplayItemImages(std::string_view payload, bool wide) {
  auto images = DecodeItemImages(payload);
  if (!images.ok()) return images.error();
  std::shared_ptr<TableItems> items;
  {
    std::shared_lock lock(catalog_.mutex);
    auto it = catalog_.replayed_tables.find(
        absl::string_view(images.value().table_id.data(), images.value().table_id.size()));
    if (it == catalog_.replayed_tables.end()) return MalformedRecord("items of an unknown table");
    items = it->second->items;
  }
  if (!items->indexes_deferred()) {
    return Error::Internal("replayed items of a table whose indexes are not deferred");
  }
  const std::string_view all = images.value().images;
  // Wide images (the former 12-byte header) are copied into records of the current layout.
  const bool in_place = !wide && ImagesInPlace(all.data(), all.size());
  loading_.clear();
  ItemImageReader reader(all, wide);
  while (reader.Next()) {
    loading_.push_back(in_place
                           ? reinterpret_cast<ItemRecord*>(const_cast<char*>(reader.image()))
                           : ItemRecord::Create(reader.key(), reader.blob(), reader.item_size()));
  }
  if (!reader.ok()) {
    if (!in_place) {
      for (ItemRecord* record : loading_) ItemRecord::Destroy(record);
    }
    return MalformedRecord("an item image");
  }
  if (in_place) HoldInSegment(loading_.size());
  items->LoadRecords(loading_);
  return Ok{};
}

Status Store::ReplayItemPut(TableItems& table, std::string_view image_bytes) {
  ItemImageReader reader(image_bytes);
  if (!reader.Next()) return MalformedRecord("an item's image");
  const char* image = reader.image();
  const std::string_view key = reader.key();
  const std::string_view blob = reader.blob();
  const uint32_t item_size = reader.item_size();
  if (reader.Next() || !reader.ok()) return MalformedRecord("an item's image");
  TableItems* items = &table;
  if (!items->indexes_deferred()) {
    return Error::Internal("a replayed item of a table whose indexes are not deferred");
  }
  ItemRecord* record;
  if (ImagesInPlace(image, sizeof(ItemRecord) + key.size() + blob.size())) {
    record = reinterpret_cast<ItemRecord*>(const_cast<char*>(image));
    HoldInSegment(1);  // before the load, which may let it go
  } else {
    record = ItemRecord::Create(key, blob, item_size);
  }
  if (items != pending_table_) {
    LoadPendingPuts();
    pending_table_ = items;
  }
  pending_puts_.push_back(record);
  if (pending_puts_.size() == kPendingPuts) LoadPendingPuts();
  return Ok{};
}

void Store::LoadPendingPuts() {
  if (pending_puts_.empty()) return;
  pending_table_->LoadRecords(pending_puts_);
  pending_puts_.clear();
}

void Store::DropPendingPuts() {
  for (ItemRecord* record : pending_puts_) ItemRecord::Destroy(record);
  pending_puts_.clear();
}

bool Store::ImagesInPlace(const char* images, size_t bytes) {
  if (segment_ == nullptr || reinterpret_cast<uintptr_t>(images) % alignof(ItemRecord) != 0) {
    return false;
  }
  const char* segment = segment_->bytes().data();
  if (images < segment || bytes > segment_bytes_ ||
      static_cast<size_t>(images - segment) > segment_bytes_ - bytes) {
    return false;
  }
  // The segment's mapping is adopted at its first images: from then on it lives as long as a
  // record in it does.
  if (segment_region_ < 0 && segment_adoptable_) {
    segment_adoptable_ = false;
    if (segment_->mapping()) {
      const std::string_view all = segment_->bytes();
      segment_region_ = mapped_records::Adopt(const_cast<char*>(all.data()), all.size());
      if (segment_region_ >= 0) {
        segment_->Disown();
        adopted_regions_.emplace_back(segment_region_, 0);
      }
    }
  }
  return segment_region_ >= 0;
}

void Store::HoldInSegment(size_t records) {
  mapped_records::Hold(segment_region_, records);
  adopted_regions_.back().second += records;
}

void Store::CopyOutOfSparseMappings() {
  // Fewer than half of its records left: the rest of the file is items replaced or deleted
  // (and, for a log, records of other kinds), which would stay mapped, and a deleted file's
  // blocks taken, as long as one of them lives.
  std::vector<int> sparse;
  for (const auto& [region, records] : adopted_regions_) {
    const int64_t left = mapped_records::Holds(region);
    if (left > 0 && 2 * static_cast<size_t>(left) < records) sparse.push_back(region);
  }
  adopted_regions_.clear();
  if (sparse.empty()) return;
  auto in_sparse = [&sparse](const ItemRecord* record) {
    const int region = mapped_records::RegionOf(record);
    return region >= 0 && std::find(sparse.begin(), sparse.end(), region) != sparse.end();
  };
  std::shared_lock catalog(catalog_.mutex);
  for (const auto& [name, entry] : catalog_.tables) entry->items->CopyOutRecords(in_sparse);
}

TableItems* Store::ItemTable(std::string_view table_id) {
  if (item_table_ != nullptr && table_id == item_table_id_) return item_table_;
  std::shared_lock lock(catalog_.mutex);
  auto it = catalog_.replayed_tables.find(absl::string_view(table_id.data(), table_id.size()));
  if (it == catalog_.replayed_tables.end()) return nullptr;
  item_table_ = it->second->items.get();
  item_table_id_ = table_id;
  return item_table_;
}

Result<TableItems*> Store::NumberedTable(uint64_t number) {
  // A log's puts mostly follow each other table by table: the last one's table is kept.
  if (numbered_table_ != nullptr && number == numbered_number_) return numbered_table_;
  auto bound = table_numbers_.find(number);
  if (bound == table_numbers_.end()) return MalformedRecord("a put of an unbound table number");
  TableItems* items = ItemTable(bound->second);
  if (items == nullptr) return MalformedRecord("an item of an unknown table");
  numbered_table_ = items;
  numbered_number_ = number;
  return items;
}

}  // namespace ddbd
