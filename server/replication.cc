#include "server/replication.h"

#include <algorithm>
#include <chrono>

#include "engine/clock.h"
#include "server/metrics.h"

namespace ddbd {

class Replication::Link final : public ReplicationLink {
 public:
  Link(Replication& replication, std::string access_key_id)
      : replication_(replication), access_key_id_(std::move(access_key_id)) {}

  const std::string& AccessKeyId() const override { return access_key_id_; }
  std::string Unavailable() const override { return replication_.unavailable_; }

  Status CreateReplica(const std::string& member, const TableDescription& table,
                       const std::vector<ReplicaDescription>& replicas) override {
    auto engine = EngineAt(member);
    if (!engine.ok()) return engine.error();
    if (engine.value()->DescribeTable(table.table_name).ok()) {
      return Error::Validation(ReplicaExistsMessage(table.table_name));
    }
    auto made = engine.value()->CreateTable(ReplicaTableArgs(table, replicas));
    if (!made.ok()) {
      if (made.error().code() == ErrorCode::kResourceInUse) {
        return Error::Validation(ReplicaExistsMessage(table.table_name));
      }
      return made.error();
    }
    // Time to Live and auto scaling are kept alike in every member (CreateTable takes neither).
    if (!table.time_to_live_attribute.empty()) {
      UpdateTimeToLiveArgs time_to_live{
          table.table_name, {table.time_to_live_attribute, true}, true};
      (void)engine.value()->UpdateTimeToLive(time_to_live);
    }
    if (!table.auto_scaling.empty()) {
      (void)engine.value()->SetReplicaAutoScaling(table.table_name, table.auto_scaling);
    }
    return Ok{};
  }

  void SyncTimeToLive(const std::string&, const std::vector<std::string>& to,
                      const UpdateTimeToLiveArgs& args) override {
    for (const std::string& member : to) {
      auto engine = EngineAt(member);
      if (engine.ok()) (void)engine.value()->UpdateTimeToLive(args);
    }
  }

  void SyncTableUpdate(const std::string&, const std::vector<std::string>& to,
                       const UpdateTableArgs& args) override {
    for (const std::string& member : to) {
      auto engine = EngineAt(member);
      if (engine.ok()) (void)engine.value()->UpdateTable(args);
    }
  }

  void SyncAutoScaling(const std::string&, const std::vector<std::string>& to,
                       const std::string& table_name, const TableAutoScaling& settings) override {
    for (const std::string& member : to) {
      auto engine = EngineAt(member);
      if (engine.ok()) (void)engine.value()->SetReplicaAutoScaling(table_name, settings);
    }
  }

  Result<TableDescription> DescribeMember(const std::string& region,
                                          const std::string& table_name) override {
    return Describe(access_key_id_, region, table_name);
  }

  Status SetLegacyGlobalTable(const std::string& region, const std::string& table_name,
                              const std::vector<std::string>& group, int64_t created_ms) override {
    auto engine = replication_.engine_for_(access_key_id_, region);
    if (!engine.ok()) return engine.error();
    return engine.value()->SetLegacyGlobalTable(table_name, group, created_ms);
  }

  Status UpdateMember(const std::string& region, const UpdateTableArgs& args) override {
    auto engine = replication_.engine_for_(access_key_id_, region);
    if (!engine.ok()) return engine.error();
    auto updated = engine.value()->UpdateTable(args);
    if (!updated.ok()) return updated.error();
    return Ok{};
  }

  Status DeleteReplica(const std::string& member, const std::string& table_name) override {
    auto engine = EngineAt(member);
    if (!engine.ok()) return engine.error();
    auto table = engine.value()->DescribeTable(table_name);
    if (!table.ok()) return Ok{};  // gone already
    // A replica's own deletion protection refuses its removal (AWS-recorded, DDB-TABLE-297).
    if (table.value().deletion_protection_enabled) {
      return Error::Validation(
          "Resource cannot be deleted as it is currently protected against deletion. Disable "
          "deletion protection first.");
    }
    // Out of the set first, so its deletion announces nothing: the caller does.
    if (Status left = engine.value()->SetReplicas(table_name, {}); !left.ok()) return left;
    auto deleted = engine.value()->DeleteTable(table_name);
    if (!deleted.ok() && deleted.error().code() != ErrorCode::kResourceNotFound) {
      return deleted.error();
    }
    return Ok{};
  }

  void Announce(const std::string& from_region, const std::string& table_name,
                const std::vector<ReplicaDescription>& replicas) override {
    for (const ReplicaDescription& replica : replicas) {
      // A witness has no table to tell.
      if (replica.region_name == from_region || replica.status == ReplicaStatus::kDeleting ||
          replica.witness) {
        continue;
      }
      auto engine = EngineAt(MemberAddress(replica));
      if (engine.ok()) (void)engine.value()->SetReplicas(table_name, replicas);
    }
  }

  void Replicate(const std::string& from_region, const std::vector<std::string>& to,
                 ReplicatedWrite write) override {
    for (size_t i = 0; i < to.size(); ++i) {
      replication_.Enqueue(access_key_id_, from_region, to[i],
                           i + 1 == to.size() ? std::move(write) : write, false);
    }
  }

  Status BeginStrongWrite(const std::string& region, const StrongMembers& members,
                          std::string_view key) override {
    return replication_.BeginStrongWrite(access_key_id_, region, members, key);
  }
  void EndStrongWrite(const std::string& region, const StrongMembers& members,
                      std::string_view key) override {
    replication_.EndStrongWrite(access_key_id_, region, members, key);
  }
  Status CheckStrongRead(const std::string& region, const StrongMembers& members) override {
    return replication_.CheckStrongRead(access_key_id_, region, members);
  }

  void CopyQueued(const std::string& from_region, const std::string& to,
                  const std::string& table_name) override {
    ReplicatedWrite marker;
    marker.table_name = table_name;
    replication_.Enqueue(access_key_id_, from_region, to, std::move(marker), true);
  }

  Result<TableDescription> DescribeInAccount(const std::string& account_id,
                                             const std::string& region,
                                             const std::string& table_name) override {
    if (!replication_.accounts_unavailable_.empty()) {
      return Error::Validation(replication_.accounts_unavailable_);
    }
    if (access_key_id_.empty()) {  // an unsigned caller's namespace: no account to be reached
      return Error::Validation(
          "Replicas in other accounts need signed requests: the access key "
          "id names the account");
    }
    return Describe(account_id, region, table_name);  // the account's key is its id
  }

  Status AdmitReplica(const std::string& account_id, const std::string& region,
                      const std::string& table_name,
                      const std::vector<ReplicaDescription>& replicas) override {
    auto engine = replication_.engine_for_(account_id, region);
    if (!engine.ok()) return engine.error();
    return engine.value()->AdmitReplica(table_name, replicas);
  }

 private:
  // The table as DescribeTable answers in the namespace of `access_key_id` in `region`.
  Result<TableDescription> Describe(const std::string& access_key_id, const std::string& region,
                                    const std::string& table_name) const {
    auto engine = replication_.engine_for_(access_key_id, region);
    if (!engine.ok()) return engine.error();
    auto table = engine.value()->DescribeTable(table_name);
    if (!table.ok()) return table.error();
    return static_cast<TableDescription>(std::move(table.value()));
  }
  // The engine of a member named by its address (MemberAddress), made if needed.
  Result<Engine*> EngineAt(std::string_view member) const {
    const auto [access_key_id, region] = ParseMemberAddress(member, access_key_id_);
    return replication_.engine_for_(access_key_id, region);
  }

  Replication& replication_;
  const std::string access_key_id_;
};

Replication::Replication(int64_t delay_ms, EngineFor engine_for, std::string unavailable,
                         std::string accounts_unavailable)
    : delay_ms_(delay_ms),
      engine_for_(std::move(engine_for)),
      unavailable_(std::move(unavailable)),
      accounts_unavailable_(std::move(accounts_unavailable)),
      worker_([this] { Run(); }) {}

Replication::~Replication() { Stop(); }

void Replication::Stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  if (worker_.joinable()) worker_.join();
}

size_t Replication::Reconcile(const std::vector<std::pair<std::string, std::string>>& databases) {
  size_t queued = 0;
  for (const auto& [access_key_id, region] : databases) {
    auto engine = engine_for_(access_key_id, region);
    if (!engine.ok()) continue;
    for (const std::string& table_name : engine.value()->ReplicatedTables()) {
      auto table = engine.value()->DescribeTable(table_name);
      if (!table.ok()) continue;
      ReplicaVersionList here;  // taken once, for every member
      bool taken = false;
      for (const ReplicaDescription& replica : table.value().replicas) {
        if (replica.region_name == region || replica.witness) continue;
        // A copy from here cut short is queued again whole (below).
        if (replica.status == ReplicaStatus::kCreating && replica.source_region == region) continue;
        const auto [member_key, member_region] =
            ParseMemberAddress(MemberAddress(replica), access_key_id);
        auto member = engine_for_(member_key, member_region);
        if (!member.ok()) continue;
        if (!taken) {
          here = engine.value()->ReplicaVersions(table_name);
          taken = true;
        }
        const std::vector<std::string> newer =
            KeysNewerThan(here, member.value()->ReplicaVersions(table_name));
        queued += newer.size();
        if (!newer.empty()) {
          engine.value()->ResendReplicaItems(table_name, MemberAddress(replica), newer);
        }
      }
    }
    engine.value()->ResumeReplicaCopies();
  }
  return queued;
}

std::shared_ptr<ReplicationLink> Replication::LinkFor(const std::string& access_key_id) {
  return std::make_shared<Link>(*this, access_key_id);
}

void Replication::Enqueue(const std::string& access_key_id, const std::string& from,
                          const std::string& to, ReplicatedWrite write, bool copy_done) {
  const int64_t now = SteadyMs();
  auto [to_key, to_region] = ParseMemberAddress(to, access_key_id);
  bool first = false;
  {
    std::lock_guard lock(mutex_);
    std::deque<Entry>& entries =
        queues_[{access_key_id, from, std::move(to_key), std::move(to_region)}].entries;
    first = entries.empty();
    entries.push_back(Entry{now + delay_ms_, now, std::move(write), copy_done});
  }
  // Called inside commits: wake the thread only when this queue had nothing. Behind an earlier
  // entry (the delay is the same for all), it is never the next one due.
  if (first) changed_.notify_all();
}

bool Replication::PausedLocked(const std::string& source, const std::string& target) const {
  if (paused_.empty()) return false;  // the usual case, without building four pairs of names
  return paused_.contains({source, target}) || paused_.contains({source, ""}) ||
         paused_.contains({"", target}) || paused_.contains({"", ""});
}

void Replication::Pause(const std::string& source, const std::string& target) {
  std::lock_guard lock(mutex_);
  paused_.emplace(source, target);
}

void Replication::Resume(const std::string& source, const std::string& target) {
  {
    std::lock_guard lock(mutex_);
    // Resuming "every region" lifts every pause; else the pause named, and those it covers.
    std::erase_if(paused_, [&](const std::pair<std::string, std::string>& pause) {
      return (source.empty() || pause.first == source) &&
             (target.empty() || pause.second == target);
    });
  }
  changed_.notify_all();
}

void Replication::Run() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    // The earliest change due among the queues not paused.
    std::map<QueueKey, Queue>::iterator next = queues_.end();
    for (auto it = queues_.begin(); it != queues_.end(); ++it) {
      if (it->second.entries.empty() ||
          PausedLocked(std::get<1>(it->first), std::get<3>(it->first))) {
        continue;
      }
      if (next == queues_.end() ||
          it->second.entries.front().due_ms < next->second.entries.front().due_ms) {
        next = it;
      }
    }
    if (next == queues_.end()) {
      changed_.wait(lock);
      continue;
    }
    const int64_t wait_ms = next->second.entries.front().due_ms - SteadyMs();
    if (wait_ms > 0) {
      changed_.wait_for(lock, std::chrono::milliseconds(wait_ms));
      continue;
    }
    // Taken and applied under apply_mutex_ (first, as EndStrongWrite takes them), so a STRONG
    // write never answers while a change of its own is half-applied here. A queue is never
    // erased, so `next` stays valid; an entry due no later than the one found is due still.
    const int64_t due_ms = next->second.entries.front().due_ms;
    lock.unlock();
    std::lock_guard applying(apply_mutex_);
    lock.lock();
    Queue& queue = next->second;
    if (stopping_ || queue.entries.empty() || queue.entries.front().due_ms > due_ms ||
        PausedLocked(std::get<1>(next->first), std::get<3>(next->first))) {
      continue;  // changed meanwhile (a STRONG write took it, a pause): look again
    }
    Entry entry = std::move(queue.entries.front());
    queue.entries.pop_front();
    lock.unlock();
    Apply(next->first, entry);
    lock.lock();
    ++queue.applied;
  }
}

bool Replication::ReachableLocked(const std::string& region, const std::string& member) const {
  return !PausedLocked(region, member) && !PausedLocked(member, region);
}

bool Replication::QuorumLocked(const std::string& region, const StrongMembers& members) const {
  // Two of the three regions: this one and one it reaches (a replica or the witness).
  return std::any_of(members.replicas.begin(), members.replicas.end(),
                     [&](const std::string& member) { return ReachableLocked(region, member); }) ||
         (!members.witness.empty() && ReachableLocked(region, members.witness));
}

bool Replication::HeldBackLocked(const std::string& access_key_id, const std::string& region,
                                 const StrongMembers& members, const std::string* key) const {
  for (const std::string& member : members.replicas) {
    if (!PausedLocked(member, region)) continue;
    auto queue = queues_.find({access_key_id, member, access_key_id, region});
    if (queue == queues_.end()) continue;
    for (const Entry& entry : queue->second.entries) {
      if (!entry.copy_done && entry.write.table_name == members.table_name &&
          (key == nullptr || entry.write.key == *key)) {
        return true;
      }
    }
  }
  return false;
}

Status Replication::BeginStrongWrite(const std::string& access_key_id, const std::string& region,
                                     const StrongMembers& members, std::string_view key) {
  std::lock_guard lock(mutex_);
  if (!QuorumLocked(region, members)) return StrongRegionUnavailable();
  const std::string key_text(key);
  auto& claim = strong_claims_[{access_key_id, members.table_name, key_text}];
  if ((claim.second > 0 && claim.first != region) ||
      HeldBackLocked(access_key_id, region, members, &key_text)) {
    if (claim.second == 0) strong_claims_.erase({access_key_id, members.table_name, key_text});
    return ReplicatedWriteConflict();
  }
  claim.first = region;
  ++claim.second;
  return Ok{};
}

void Replication::EndStrongWrite(const std::string& access_key_id, const std::string& region,
                                 const StrongMembers& members, std::string_view key) {
  {
    // The table's changes queued from here, taken out of every queue not paused, in order, and
    // applied now: the write's own among them (the queues' thread applies nothing meanwhile).
    std::lock_guard applying(apply_mutex_);
    for (const std::string& member : members.replicas) {
      std::deque<Entry> taken;
      {
        std::lock_guard lock(mutex_);
        if (PausedLocked(region, member)) continue;
        auto queue = queues_.find({access_key_id, region, access_key_id, member});
        if (queue == queues_.end()) continue;
        std::deque<Entry>& entries = queue->second.entries;
        for (auto it = entries.begin(); it != entries.end();) {
          if (!it->copy_done && it->write.table_name == members.table_name) {
            taken.push_back(std::move(*it));
            it = entries.erase(it);
          } else {
            ++it;
          }
        }
      }
      const QueueKey queue_key{access_key_id, region, access_key_id, member};
      for (const Entry& entry : taken) Apply(queue_key, entry);
      std::lock_guard lock(mutex_);
      queues_[queue_key].applied += taken.size();
    }
  }
  std::lock_guard lock(mutex_);
  auto claim = strong_claims_.find({access_key_id, members.table_name, std::string(key)});
  if (claim != strong_claims_.end() && --claim->second.second <= 0) strong_claims_.erase(claim);
}

Status Replication::CheckStrongRead(const std::string& access_key_id, const std::string& region,
                                    const StrongMembers& members) const {
  std::lock_guard lock(mutex_);
  if (!QuorumLocked(region, members) || HeldBackLocked(access_key_id, region, members, nullptr)) {
    return StrongRegionUnavailable();
  }
  return Ok{};
}

void Replication::Apply(const QueueKey& key, const Entry& entry) {
  const auto& [from_key, from, to_key, to] = key;
  auto engine = engine_for_(to_key, to);
  if (!engine.ok()) return;
  if (!entry.copy_done) {
    (void)engine.value()->ApplyReplicatedWrite(entry.write);  // older, or no longer a replica
    return;
  }
  // The copy is complete: the replica is ACTIVE in every member's description.
  auto table = engine.value()->DescribeTable(entry.write.table_name);
  if (!table.ok()) return;
  for (const ReplicaDescription& replica : table.value().replicas) {
    if (replica.witness) continue;
    const auto [member_key, member_region] = ParseMemberAddress(MemberAddress(replica), to_key);
    auto member = engine_for_(member_key, member_region);
    if (member.ok()) {
      (void)member.value()->SetReplicaStatus(entry.write.table_name, to, ReplicaStatus::kActive);
    }
  }
}

std::vector<Replication::QueueFigures> Replication::Figures() const {
  const int64_t now = SteadyMs();
  std::lock_guard lock(mutex_);
  // Figures per region pair: the access key ids' queues added up.
  std::map<std::pair<std::string, std::string>, QueueFigures> pairs;
  for (const auto& [key, queue] : queues_) {
    const auto& [source_key, source, target_key, target] = key;
    QueueFigures& figures = pairs[{source, target}];
    figures.source = source;
    figures.target = target;
    figures.pending += queue.entries.size();
    figures.applied += queue.applied;
    figures.paused = PausedLocked(source, target);
    if (!queue.entries.empty()) {
      figures.lag_ms = std::max(figures.lag_ms, now - queue.entries.front().queued_ms);
    }
  }
  std::vector<QueueFigures> out;
  for (auto& [pair, figures] : pairs) out.push_back(std::move(figures));
  return out;
}

std::string Replication::RenderMetrics() const {
  const std::vector<QueueFigures> figures = Figures();
  std::string out =
      "# HELP ddbd_replication_pending Changes of global tables waiting to reach another "
      "region.\n# TYPE ddbd_replication_pending gauge\n";
  auto labels = [](const QueueFigures& queue) {
    return "{source=\"" + Metrics::Escaped(queue.source) + "\",target=\"" +
           Metrics::Escaped(queue.target) + "\"} ";
  };
  for (const QueueFigures& queue : figures) {
    out += "ddbd_replication_pending" + labels(queue) + std::to_string(queue.pending) + "\n";
  }
  out +=
      "# HELP ddbd_replication_lag_seconds How long the oldest pending change has waited.\n"
      "# TYPE ddbd_replication_lag_seconds gauge\n";
  for (const QueueFigures& queue : figures) {
    out += "ddbd_replication_lag_seconds" + labels(queue) +
           std::to_string(static_cast<double>(queue.lag_ms) / 1000.0) + "\n";
  }
  out +=
      "# HELP ddbd_replication_applied_total Changes of global tables applied in another "
      "region.\n# TYPE ddbd_replication_applied_total counter\n";
  for (const QueueFigures& queue : figures) {
    out += "ddbd_replication_applied_total" + labels(queue) + std::to_string(queue.applied) + "\n";
  }
  return out;
}

}  // namespace ddbd
