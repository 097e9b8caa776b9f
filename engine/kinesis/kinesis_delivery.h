// Delivery of Kinesis streaming destinations' records: each table's feed (TableEntry::kinesis_feed,
// a stream of both images the catalog keeps while a destination is enabled) sent on with
// PutRecords through EngineOptions::kinesis (--kinesis-endpoint), in order, one batch in flight
// per feed. A feed's position (the last sequence number its stream took) is kept in the feed's
// state, so checkpoints and the log keep it with --db-path, and delivery resumes there after a
// restart or a crash: records are delivered at least once (a crash may send a batch again, as
// DynamoDB's own delivery may duplicate), none acknowledged is lost while its feed keeps it
// (24 hours, and --stream-max-bytes). A feed closed (the destination disabled) is delivered to its
// end; one whose table or destination is gone is not.
//
// Failures: a stream that is not there turns the destination ENABLE_FAILED with Kinesis's words
// (its feed closes); anything else (unreachable, throttled, refused) is tried again after a
// backoff of 100 ms doubling to 5 s, each failure counted (/metrics).
//
// Thread safety: DeliverOnce from one thread at a time (the engine's delivery task); Figures
// from any.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "engine/api/kinesis_delivery.h"
#include "engine/catalog/catalog.h"
#include "engine/clock.h"

namespace ddbd {

class KinesisDelivery {
 public:
  KinesisDelivery(Catalog& catalog, KinesisStreams& streams, const Clock& clock);
  // One batch for each feed with records waiting and no backoff running. True when a feed has
  // more waiting than it sent (run again at once).
  bool DeliverOnce();
  // Per feed still kept, in ARN order.
  std::vector<KinesisDeliveryFigures> Figures() const;

 private:
  // What one feed's delivery has come to since the start.
  struct Progress {
    uint64_t delivered = 0;
    uint64_t failures = 0;
    int64_t retry_at_ms = 0;  // a failure's backoff: nothing is sent before
    int64_t backoff_ms = 0;
  };
  // A feed and where its records go, found under the catalog's lock.
  struct Target {
    std::shared_ptr<TableStream> feed;
    KinesisBatch batch;  // without records
  };
  std::vector<Target> Targets() const;
  // Sends one batch of `target`; true when more records wait behind it.
  bool Deliver(Target& target);
  // The destination of `feed_label` in `table_name` is ENABLE_FAILED for `why`.
  void Fail(const std::string& table_name, const std::string& feed_label, const std::string& why);

  Catalog& catalog_;
  KinesisStreams& streams_;
  const Clock& clock_;
  mutable std::mutex mutex_;                  // guards progress_
  std::map<std::string, Progress> progress_;  // by feed ARN
};

}  // namespace ddbd
