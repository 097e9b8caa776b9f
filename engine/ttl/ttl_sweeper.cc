#include "engine/ttl/ttl_sweeper.h"

#include <mutex>
#include <utility>
#include <vector>

#include "engine/storage/write_scope.h"

namespace ddbd {
namespace {

// DynamoDB's checks, content first, then the cooldown (pinned by test_time_to_live_boto3.py).
Status CheckUpdate(const TableDescription& table, const TimeToLiveSpecification& requested,
                   int64_t now_ms, int64_t cooldown_ms) {
  const std::string& current = table.time_to_live_attribute;
  if (!current.empty() && current != requested.attribute_name) {
    // Enabling or disabling another attribute than the one in use (as quoted from DynamoDB).
    return Error::Validation(
        "TimeToLive is active on a different AttributeName: current AttributeName is " + current);
  }
  if (requested.enabled && !current.empty()) {
    return Error::Validation("TimeToLive is already enabled");
  }
  if (!requested.enabled && current.empty()) {
    return Error::Validation("TimeToLive is already disabled");
  }
  if (table.time_to_live_updated_ms > 0 && now_ms - table.time_to_live_updated_ms < cooldown_ms) {
    return Error::Validation(
        "Time to live has been modified multiple times within a fixed interval");
  }
  return Ok{};
}

}  // namespace

TimeToLive::TimeToLive(Catalog& catalog, const HeldItems& held) : catalog_(catalog), held_(held) {}

Result<TimeToLiveOutcome> TimeToLive::Update(const UpdateTimeToLiveArgs& args) {
  std::lock_guard serial(update_mutex_);
  TimeToLiveOutcome outcome;
  const int64_t now_ms = catalog_.clock.NowMs();
  std::shared_ptr<TableItems> items;
  std::shared_ptr<ExpiryIndex> old_index;
  {
    std::shared_lock lock(catalog_.mutex);
    const TableEntry* entry = catalog_.FindLocked(args.table_name, now_ms);
    if (entry == nullptr) return Error::TableResourceNotFound(args.table_name);
    if (Status valid = CheckUpdate(entry->description, args.specification, now_ms,
                                   catalog_.options.ttl_cooldown_ms);
        !valid.ok()) {
      return valid.error();
    }
    items = entry->items;
    old_index = entry->expiry;
  }
  // Index the items already stored (they expire too) under the table's lock alone: only this
  // table waits for a large one. Calls are serial, so the checks above still hold after.
  std::shared_ptr<ExpiryIndex> index;
  if (args.specification.enabled) {
    index = ExpiryIndex::Attach(*items, args.specification.attribute_name);
  }
  CatalogChange change;
  change.kind = CatalogChange::Kind::kUpdateTimeToLive;
  change.table_name = args.table_name;
  change.description.time_to_live_attribute =
      args.specification.enabled ? args.specification.attribute_name : std::string();
  change.now_ms = now_ms;
  change.expiry = index;
  {
    std::unique_lock lock(catalog_.mutex);
    // The table indexed, not another of the same name made meanwhile.
    const TableEntry* entry = catalog_.FindLocked(args.table_name, now_ms);
    if (entry == nullptr || entry->items != items) {
      if (index) items->StopObserving(index.get());
      return Error::TableResourceNotFound(args.table_name);
    }
    outcome.ticket.number = catalog_.CommitLocked(std::move(change));
  }
  if (old_index) items->StopObserving(old_index.get());
  static_cast<TimeToLiveSpecification&>(outcome) = args.specification;
  return outcome;
}

Result<TimeToLiveDescription> TimeToLive::Describe(std::string_view table_name) const {
  std::shared_lock lock(catalog_.mutex);
  const TableEntry* entry = catalog_.FindLocked(table_name, catalog_.clock.NowMs());
  if (entry == nullptr) return Error::TableResourceNotFound(table_name);
  const std::string& attribute = entry->description.time_to_live_attribute;
  return TimeToLiveDescription{!attribute.empty(), attribute};
}

size_t TimeToLive::SweepExpired(size_t max_items) {
  // A table is held for this many deletes at most, so reads and writes of it wait little.
  constexpr size_t kBatch = 32;
  const int64_t now_ms = catalog_.clock.NowMs();
  std::vector<std::pair<std::shared_ptr<TableItems>, std::shared_ptr<ExpiryIndex>>> tables;
  {
    std::shared_lock lock(catalog_.mutex);
    for (const auto& [name, entry] : catalog_.tables) {
      if (entry->expiry && !Catalog::IsGone(*entry, now_ms)) {
        tables.emplace_back(entry->items, entry->expiry);
      }
    }
  }
  size_t deleted = 0;
  const CommitContext context{ChangeOrigin::kTimeToLive, 0};
  for (const auto& table : tables) {
    TableItems* const items = table.first.get();
    const ExpiryIndex* const index = table.second.get();
    while (deleted < max_items) {
      const std::vector<std::string> due =
          index->Due(now_ms, std::min(kBatch, max_items - deleted));
      if (due.empty()) break;
      size_t batch_deleted = 0;
      WriteScope scope(*items);
      for (const std::string& key : due) {
        // An item a transaction holds waits for the next sweep.
        if (held_.HeldByOther(items->id(), key)) continue;
        auto committed = items->Commit(
            scope, key,
            [&](const TableItems::Current* current) -> Result<TableItems::Write> {
              // Only what is still due: the index follows every commit, so this re-check is
              // the item's own word at the moment of deletion.
              if (current != nullptr) {
                const auto expires = index->ExpiryOf(current->blob);
                if (!expires || !IsDue(*expires, now_ms)) {
                  return Error::Internal("no longer due");
                }
              }
              return TableItems::Write{TableItems::Write::Kind::kDelete};
            },
            context);
        if (committed.ok() && committed.value().change.kind == ChangeKind::kRemove) {
          ++batch_deleted;
        }
      }
      deleted += batch_deleted;
      if (batch_deleted == 0) break;  // all held: try again next time
    }
  }
  return deleted;
}

}  // namespace ddbd
