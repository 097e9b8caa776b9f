// What the engine is opened with (Engine::Open): its region and account, DynamoDB's quotas and
// delays as this server keeps them, and where and how it stores. server/main.cc fills it from the
// configuration; every feature of the engine is given the part it uses.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/api/object_store.h"
#include "engine/api/stream_triggers.h"
#include "engine/api/sync_policy.h"
#include "engine/log_sink.h"

namespace ddbd {

class FileSystem;       // engine/persistence/file_system.h
class KinesisStreams;   // engine/api/kinesis_delivery.h
class ReplicationLink;  // engine/api/replication_link.h

// The provisioned-capacity quotas DescribeLimits reports.
struct ThroughputLimits {
  int64_t account_max_read_capacity_units = 80000;
  int64_t account_max_write_capacity_units = 80000;
  int64_t table_max_read_capacity_units = 40000;
  int64_t table_max_write_capacity_units = 40000;
};

struct EngineOptions {
  std::string region = "us-east-1";
  std::string account_id = "000000000000";
  // How long a table stays CREATING, UPDATING or DELETING. 0: transitions are immediate.
  int64_t table_delay_ms = 0;
  // The most an item collection (a partition's items and LSI entries) may hold: 10 GB.
  int64_t item_collection_limit_bytes = int64_t{10} << 30;
  // DescribeLimits: DynamoDB's default account quotas (per Region) and per-table quotas.
  ThroughputLimits limits{};
  // Throttle requests over a table's or global index's provisioned capacity (with 300 s of burst)
  // or on-demand ceilings (engine/capacity/throughput.h). Off: nothing is ever throttled.
  bool enforce_throughput = false;
  // How long a transaction holds its items between its decision and its commit (its answer comes
  // then, from another thread), so applications can meet transactions in flight. 0: none.
  int64_t transaction_hold_ms = 0;
  // After a successful UpdateTimeToLive, another within this long is refused, as DynamoDB does
  // for an hour. 0: never refused.
  int64_t ttl_cooldown_ms = 3'600'000;
  // How often the TTL sweeper looks for expired items. 0: no sweeper thread (tests call
  // SweepExpiredItems themselves).
  int64_t ttl_interval_ms = 0;
  // Global secondary indexes take each write's changes this long after it (--gsi-lag-ms; a
  // delay drawn from [min, max] per change; 0 and 0: inside the write, the default), unless
  // `gsi_paused` holds them all (the admin API's pause; shared by every namespace's engine).
  int64_t gsi_lag_min_ms = 0;
  int64_t gsi_lag_max_ms = 0;
  std::shared_ptr<const std::atomic<bool>> gsi_paused = nullptr;
  // Eventually consistent reads of tables and local secondary indexes see the table as it was a
  // delay ago (--stale-reads-ms; drawn from [min, max] per read; 0 and 0: the latest, the default).
  int64_t stale_reads_min_ms = 0;
  int64_t stale_reads_max_ms = 0;
  // Streams: how long a shard stays open before a child replaces it, and the most record bytes
  // one table's stream keeps (the oldest are trimmed first; all go after 24 hours).
  int64_t stream_shard_rollover_ms = 4 * 3'600'000;
  int64_t stream_max_bytes = int64_t{256} << 20;
  // Point-in-time recovery: the most bytes of history one table keeps (the oldest go first, and
  // the earliest restorable moment moves up), a cap on its age below the table's
  // RecoveryPeriodInDays (0: none), and how far behind now the latest restorable moment is
  // (DynamoDB's five minutes).
  int64_t pitr_history_bytes = int64_t{256} << 20;
  int64_t pitr_history_ms = 0;
  int64_t pitr_lag_ms = 5 * 60'000;
  // Where ExportTableToPointInTime writes and ImportTable reads: bucket `b` is the directory
  // <s3_dir>/b (engine/exports/object_store.h). Empty: no buckets (exports fail S3NoSuchBucket).
  std::string s3_dir = "";
  // Or buckets on an S3-compatible server (--s3-endpoint: server/s3_buckets.h), given by the
  // server; one store may serve every engine. Set, it is used and s3_dir is not.
  std::shared_ptr<ObjectStore> buckets = nullptr;
  // Kinesis streaming destinations: where their records go (--kinesis-endpoint:
  // server/kinesis_streams.h), given by the server. Null: kept, not delivered.
  std::shared_ptr<KinesisStreams> kinesis = nullptr;
  // Stream triggers (--stream-trigger: engine/triggers/stream_triggers.h), their functions given
  // by the server. Empty: none.
  std::vector<StreamTriggerSettings> stream_triggers = {};
  // Global tables: how this engine reaches the other regions' (engine/api/replication_link.h),
  // given by the server. Null: replicas are refused.
  std::shared_ptr<ReplicationLink> replication = nullptr;
  // Persistence (Engine::Open): with a directory, every change is logged there and replayed at
  // the next start. Empty: memory only. `file_system` null: the real one.
  std::string db_path = "";
  SyncPolicy sync = SyncPolicy::kFull;
  // When the log's thread starts a group commit (sync_policy.h); empty: at the first record.
  GroupCommitStart group_commit_start = {};
  WalRecoveryMode wal_recovery_mode = WalRecoveryMode::kTolerateCorruptedTail;
  FileSystem* file_system = nullptr;
  // Hears what the operator should know: recovery's report, the log's failures and their end.
  LogSink log = {};
  // A checkpoint is written in the background once the log has grown by this many bytes since
  // the last one and by more than the items it holds, bounding the log and recovery time.
  // 0: only at start.
  int64_t checkpoint_log_bytes = int64_t{64} << 20;
};

}  // namespace ddbd
