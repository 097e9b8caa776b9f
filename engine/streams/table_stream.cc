#include "engine/streams/table_stream.h"

#include <algorithm>
#include <cstdio>
#include <functional>

#include "engine/model/item_codec.h"

namespace ddbd {
namespace {

// GetRecords answers at most about this much.
constexpr size_t kMaxReadBytes = size_t{1} << 20;

// The first of a shard's records numbered above `after` (records are in sequence order).
std::deque<StreamRecord>::const_iterator FirstAfter(const std::deque<StreamRecord>& records,
                                                    uint64_t after) {
  return std::upper_bound(
      records.begin(), records.end(), after,
      [](uint64_t sequence, const StreamRecord& record) { return sequence < record.sequence; });
}

bool HasOldImage(StreamViewType type) {
  return type == StreamViewType::kOldImage || type == StreamViewType::kNewAndOldImages;
}

bool HasNewImage(StreamViewType type) {
  return type == StreamViewType::kNewImage || type == StreamViewType::kNewAndOldImages;
}

uint64_t Mix(uint64_t value) {  // splitmix64's finalizer: spreads a hash over all bits
  value ^= value >> 30;
  value *= 0xbf58476d1ce4e5b9ULL;
  value ^= value >> 27;
  value *= 0x94d049bb133111ebULL;
  return value ^ (value >> 31);
}

Error ShardNotFound() {
  // The wording clients are known to meet.
  return Error::ResourceNotFound("Requested resource not found: Shard does not exist");
}

Error Trimmed() {
  // As a client's log against DynamoDB shows it.
  return {ErrorCode::kTrimmedDataAccess, "The data you are trying to access has been trimmed"};
}

}  // namespace

std::string SequenceNumberText(uint64_t sequence) {
  char text[32];
  std::snprintf(text, sizeof text, "1%020llu", static_cast<unsigned long long>(sequence));
  return text;
}

std::optional<uint64_t> ParseSequenceNumber(std::string_view text) {
  if (text.size() != 21 || text[0] != '1') return std::nullopt;
  uint64_t value = 0;
  for (char c : text.substr(1)) {
    if (c < '0' || c > '9') return std::nullopt;
    const auto digit = static_cast<uint64_t>(c - '0');
    if (value > (UINT64_MAX - digit) / 10) return std::nullopt;
    value = value * 10 + digit;
  }
  return value;
}

std::string EventId(std::string_view stream_arn, uint64_t sequence) {
  const uint64_t base = std::hash<std::string_view>()(stream_arn);
  char text[40];
  std::snprintf(text, sizeof text, "%016llx%016llx",
                static_cast<unsigned long long>(Mix(base ^ sequence)),
                static_cast<unsigned long long>(Mix(base + sequence * 0x9e3779b97f4a7c15ULL)));
  return text;
}

TableStream::TableStream(Settings settings, const Clock& clock)
    : settings_(std::move(settings)),
      clock_(clock),
      id_hash_(Mix(std::hash<std::string>()(settings_.summary.stream_arn))) {
  std::lock_guard lock(mutex_);
  creation_ms_ = settings_.creation_ms != 0 ? settings_.creation_ms : clock_.NowMs();
  OpenShardLocked(creation_ms_, "");
}

TableStream::TableStream(Settings settings, const Clock& clock, const StreamState& state)
    : settings_([&] {
        settings.summary = state.summary;
        settings.view_type = state.view_type;
        settings.key_schema = state.key_schema;
        settings.creation_ms = state.creation_ms;
        return std::move(settings);
      }()),
      clock_(clock),
      id_hash_(Mix(std::hash<std::string>()(settings_.summary.stream_arn))) {
  Reset(state);
}

void TableStream::Reset(const StreamState& state) {
  std::lock_guard lock(mutex_);
  shards_.clear();
  bytes_ = 0;
  open_ = state.open;
  creation_ms_ = state.creation_ms;
  last_sequence_ = state.last_sequence;
  last_shard_ms_ = state.last_shard_ms;
  delivered_ = state.delivered;
  for (const StreamShardState& kept : state.shards) {
    Shard& shard = shards_.emplace_back();
    shard.description = kept.description;
    shard.opened_ms = kept.opened_ms;
    shard.closed_ms = kept.closed_ms;
    shard.first_retained = kept.first_retained;
  }
}

void TableStream::SetSink(StreamRecordSink* sink) {
  std::lock_guard lock(mutex_);
  sink_ = sink;
}

StreamState TableStream::Dump(bool records) const {
  std::lock_guard lock(mutex_);
  StreamState state;
  state.summary = settings_.summary;
  state.view_type = settings_.view_type;
  state.key_schema = settings_.key_schema;
  state.open = open_;
  state.creation_ms = creation_ms_;
  state.last_sequence = last_sequence_;
  state.last_shard_ms = last_shard_ms_;
  state.delivered = delivered_;
  for (const Shard& shard : shards_) {
    state.shards.push_back(
        {shard.description, shard.opened_ms, shard.closed_ms, shard.first_retained});
    if (records) {
      state.records.insert(state.records.end(), shard.records.begin(), shard.records.end());
    }
  }
  return state;
}

void TableStream::Restore(StreamRecord record) {
  std::lock_guard lock(mutex_);
  if (record.sequence > last_sequence_) {
    // Newer than anything kept: the shards that opened before it was added open now.
    MaintainLocked(record.created_ms);
    last_sequence_ = std::max(last_sequence_, record.sequence);
  }
  // Its shard: the last one opened before its number was given out.
  auto shard = std::find_if(shards_.rbegin(), shards_.rend(), [&](const Shard& candidate) {
    return candidate.description.starting_sequence < record.sequence;
  });
  if (shard == shards_.rend() || record.sequence < shard->first_retained) return;  // trimmed
  if (!shard->records.empty() && shard->records.back().sequence >= record.sequence) return;
  bytes_ += record.Footprint();
  shard->records.push_back(std::move(record));
  if (bytes_ > static_cast<size_t>(settings_.max_bytes)) {
    MaintainLocked(shard->records.back().created_ms);
  }
}

void TableStream::OpenShardLocked(int64_t now_ms, std::string parent) const {
  // Shard ids sort in opening order: their time part never repeats.
  last_shard_ms_ = std::max(now_ms, last_shard_ms_ + 1);
  char id[64];
  std::snprintf(id, sizeof id, "shardId-%020lld-%08llx", static_cast<long long>(last_shard_ms_),
                static_cast<unsigned long long>(
                    Mix(id_hash_ + static_cast<uint64_t>(last_shard_ms_)) & 0xffffffffULL));
  Shard shard;
  shard.description.shard_id = id;
  shard.description.parent_shard_id = std::move(parent);
  shard.description.starting_sequence = ++last_sequence_;  // reserved: no record has it
  shard.first_retained = shard.description.starting_sequence;
  shard.opened_ms = now_ms;
  shards_.push_back(std::move(shard));
}

void TableStream::MaintainLocked(int64_t now_ms) const {
  if (open_ && !shards_.empty()) {
    // A quiet stream rolls over when next touched, as many times as it missed.
    while (now_ms - shards_.back().opened_ms >= settings_.rollover_ms) {
      Shard& open = shards_.back();
      const int64_t closed_at = open.opened_ms + settings_.rollover_ms;
      open.description.ending_sequence = last_sequence_;
      open.closed_ms = closed_at;
      OpenShardLocked(closed_at, open.description.shard_id);
    }
  }
  auto trim_front = [this](Shard& shard) {
    bytes_ -= shard.records.front().Footprint();
    shard.first_retained = shard.records.front().sequence + 1;
    shard.records.pop_front();
  };
  for (Shard& shard : shards_) {
    while (!shard.records.empty() &&
           now_ms - shard.records.front().created_ms >= kStreamRetentionMs) {
      trim_front(shard);
    }
  }
  for (Shard& shard : shards_) {
    while (bytes_ > static_cast<size_t>(settings_.max_bytes) && !shard.records.empty()) {
      trim_front(shard);
    }
  }
  // Closed shards go once everything in them is past retention.
  while (shards_.size() > 1 && shards_.front().description.ending_sequence &&
         now_ms - shards_.front().closed_ms >= kStreamRetentionMs &&
         shards_.front().records.empty()) {
    shards_.pop_front();
  }
  if (!open_ && shards_.size() == 1 && shards_.front().records.empty() &&
      now_ms - shards_.front().closed_ms >= kStreamRetentionMs) {
    shards_.pop_front();
  }
}

void TableStream::OnCommit(const ChangeRecord& change) {
  if (change.kind == ChangeKind::kNone) return;
  const int64_t now_ms = clock_.NowMs();
  StreamRecord record;
  record.created_ms = now_ms;
  record.kind = change.kind;
  record.by_time_to_live = change.origin == ChangeOrigin::kTimeToLive;
  record.old_size = change.old_size;
  record.new_size = change.new_size;
  std::string_view names[2];
  size_t count = 0;
  for (const KeySchemaElement& key : settings_.key_schema) names[count++] = key.attribute_name;
  record.keys = ProjectAttributes(change.new_item.empty() ? change.old_item : change.new_item,
                                  std::span<const std::string_view>(names, count));
  if (HasOldImage(settings_.view_type)) record.old_image = std::string(change.old_item);
  if (HasNewImage(settings_.view_type)) record.new_image = std::string(change.new_item);
  std::lock_guard lock(mutex_);
  if (!open_) return;
  MaintainLocked(now_ms);
  record.sequence = ++last_sequence_;
  if (sink_ != nullptr) sink_->Recorded(change, settings_.summary.stream_arn, record);
  bytes_ += record.Footprint();
  shards_.back().records.push_back(std::move(record));
  records_added_.fetch_add(1, std::memory_order_relaxed);
  if (bytes_ > static_cast<size_t>(settings_.max_bytes)) MaintainLocked(now_ms);
}

void TableStream::CloseAt(int64_t now_ms) {
  std::lock_guard lock(mutex_);
  if (!open_) return;
  MaintainLocked(now_ms);
  open_ = false;
  if (!shards_.empty()) {
    shards_.back().description.ending_sequence = last_sequence_;
    shards_.back().closed_ms = now_ms;
  }
}

bool TableStream::Expired() const {
  std::lock_guard lock(mutex_);
  MaintainLocked(clock_.NowMs());
  return !open_ && shards_.empty();
}

uint64_t TableStream::delivered() const {
  std::lock_guard lock(mutex_);
  return delivered_;
}

void TableStream::SetDelivered(uint64_t sequence) {
  std::lock_guard lock(mutex_);
  delivered_ = std::max(delivered_, sequence);
}

std::vector<StreamRecord> TableStream::ReadAfter(uint64_t after, size_t limit,
                                                 size_t max_bytes) const {
  std::lock_guard lock(mutex_);
  MaintainLocked(clock_.NowMs());
  std::vector<StreamRecord> records;
  size_t read_bytes = 0;
  for (const Shard& shard : shards_) {
    auto it = FirstAfter(shard.records, after);
    for (; it != shard.records.end(); ++it) {
      if (records.size() >= limit) return records;
      if (!records.empty() && read_bytes + it->Footprint() > max_bytes) return records;
      read_bytes += it->Footprint();
      records.push_back(*it);
    }
  }
  return records;
}

std::vector<StreamRecord> TableStream::ReadShardAfter(uint64_t after, size_t limit,
                                                      size_t max_bytes,
                                                      std::string& shard_id) const {
  std::lock_guard lock(mutex_);
  MaintainLocked(clock_.NowMs());
  std::vector<StreamRecord> records;
  size_t read_bytes = 0;
  for (const Shard& shard : shards_) {
    auto it = FirstAfter(shard.records, after);
    if (it == shard.records.end()) continue;
    shard_id = shard.description.shard_id;
    for (; it != shard.records.end() && records.size() < limit; ++it) {
      if (!records.empty() && read_bytes + it->Footprint() > max_bytes) break;
      read_bytes += it->Footprint();
      records.push_back(*it);
    }
    break;
  }
  return records;
}

uint64_t TableStream::LastSequence() const {
  std::lock_guard lock(mutex_);
  return last_sequence_;
}

bool TableStream::Closed() const {
  std::lock_guard lock(mutex_);
  return !open_;
}

size_t TableStream::CountAfter(uint64_t after) const {
  std::lock_guard lock(mutex_);
  size_t count = 0;
  for (const Shard& shard : shards_) {
    auto it = FirstAfter(shard.records, after);
    count += static_cast<size_t>(shard.records.end() - it);
  }
  return count;
}

size_t TableStream::bytes() const {
  std::lock_guard lock(mutex_);
  return bytes_;
}

StreamDescription TableStream::Describe() const {
  std::lock_guard lock(mutex_);
  MaintainLocked(clock_.NowMs());
  StreamDescription description;
  description.summary = settings_.summary;
  description.enabled = open_;
  description.view_type = settings_.view_type;
  description.creation_ms = creation_ms_;
  description.key_schema = settings_.key_schema;
  for (const Shard& shard : shards_) description.shards.push_back(shard.description);
  return description;
}

const TableStream::Shard* TableStream::FindLocked(std::string_view shard_id) const {
  for (const Shard& shard : shards_) {
    if (shard.description.shard_id == shard_id) return &shard;
  }
  return nullptr;
}

Result<ShardPosition> TableStream::Position(std::string_view shard_id, IteratorType type,
                                            std::optional<uint64_t> sequence) const {
  std::lock_guard lock(mutex_);
  MaintainLocked(clock_.NowMs());
  const Shard* shard = FindLocked(shard_id);
  if (shard == nullptr) return ShardNotFound();
  ShardPosition position{std::string(shard_id), 0};
  const uint64_t end = shard->description.ending_sequence.value_or(last_sequence_);
  switch (type) {
    case IteratorType::kTrimHorizon:
      position.sequence = shard->first_retained;
      return position;
    case IteratorType::kLatest:
      position.sequence = end + 1;
      return position;
    case IteratorType::kAtSequenceNumber:
    case IteratorType::kAfterSequenceNumber:
      break;
  }
  const uint64_t wanted = *sequence;
  if (wanted < shard->description.starting_sequence || wanted > end) {
    // Unconfirmed wording.
    return Error::Validation("Invalid SequenceNumber for shard " + std::string(shard_id) + ": " +
                             SequenceNumberText(wanted));
  }
  position.sequence = type == IteratorType::kAtSequenceNumber ? wanted : wanted + 1;
  if (TrimmedBefore(*shard, position.sequence)) return Trimmed();
  return position;
}

bool TableStream::TrimmedBefore(const Shard& shard, uint64_t sequence) {
  // Records of the shard below first_retained were trimmed; the last of them is wanted by any
  // position below it.
  return sequence < shard.first_retained &&
         shard.first_retained > shard.description.starting_sequence;
}

Result<ShardRecords> TableStream::Read(const ShardPosition& position, size_t limit) const {
  std::lock_guard lock(mutex_);
  MaintainLocked(clock_.NowMs());
  const Shard* shard = FindLocked(position.shard_id);
  if (shard == nullptr) return Trimmed();  // the whole shard aged out
  // Records this iterator had yet to read were trimmed (by age or by --stream-max-bytes).
  if (TrimmedBefore(*shard, position.sequence)) return Trimmed();
  ShardRecords result;
  size_t read_bytes = 0;
  auto it = std::lower_bound(
      shard->records.begin(), shard->records.end(), position.sequence,
      [](const StreamRecord& record, uint64_t sequence) { return record.sequence < sequence; });
  uint64_t next = position.sequence;
  for (; it != shard->records.end() && result.records.size() < limit; ++it) {
    if (!result.records.empty() && read_bytes + it->Footprint() > kMaxReadBytes) break;
    read_bytes += it->Footprint();
    result.records.push_back(*it);
    next = it->sequence + 1;
  }
  if (shard->description.ending_sequence && it == shard->records.end()) {
    return result;  // a closed shard read to its end: no next iterator
  }
  result.next_sequence = next;
  return result;
}

}  // namespace ddbd
