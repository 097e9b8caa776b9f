#include "server/metrics.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <fstream>

#include "protocol/insights_report.h"

namespace ddbd {
namespace {

// Every operation the dispatcher serves (protocol/generated/operations.inc): DynamoDB's, then
// DynamoDB Streams', each service's sorted by name (binary search).
struct OperationName {
  std::string_view prefix;
  std::string_view name;
};
constexpr OperationName kServed[] = {
#define DDBD_OPERATION(service, target_prefix, name) {#target_prefix, #name},
#include "protocol/generated/operations.inc"
#undef DDBD_OPERATION
};
constexpr std::string_view kUnknown = "unknown";

// Where the operations of the service that starts at `begin` end in kServed.
constexpr size_t ServiceEnd(size_t begin) {
  size_t end = begin;
  while (end < std::size(kServed) && kServed[end].prefix == kServed[begin].prefix) ++end;
  return end;
}
constexpr size_t kStreamsBegin = ServiceEnd(0);  // DynamoDB's, then DynamoDB Streams'
static_assert(ServiceEnd(kStreamsBegin) == std::size(kServed), "two services");

// The slot of `target`'s operation (its place in kServed), or `unknown`.
size_t SlotOf(std::string_view target, size_t unknown) {
  const size_t dot = target.find('.');
  if (dot == std::string_view::npos) return unknown;
  const std::string_view prefix = target.substr(0, dot);
  const std::string_view name = target.substr(dot + 1);
  const OperationName* first = nullptr;
  const OperationName* last = nullptr;
  if (prefix == kServed[0].prefix) {
    first = std::begin(kServed);
    last = first + kStreamsBegin;
  } else if (prefix == kServed[kStreamsBegin].prefix) {
    first = std::begin(kServed) + kStreamsBegin;
    last = std::end(kServed);
  } else {
    return unknown;
  }
  const auto* found = std::lower_bound(
      first, last, name, [](const OperationName& op, std::string_view n) { return op.name < n; });
  return found != last && found->name == name ? static_cast<size_t>(found - std::begin(kServed))
                                              : unknown;
}

std::string_view NameOfSlot(size_t slot) {
  return slot < std::size(kServed) ? kServed[slot].name : kUnknown;
}

// The shortest text that reads back as `value` (fixed: without an exponent, for bucket bounds).
std::string Number(double value, bool fixed = false) {
  char text[400];
  const auto written =
      fixed ? std::to_chars(text, text + sizeof text, value, std::chars_format::fixed)
            : std::to_chars(text, text + sizeof text, value);
  return std::string(text, written.ptr);
}

class Writer {
 public:
  explicit Writer(std::string& out) : out_(out) {}
  // "# HELP" and "# TYPE" lines, once per name.
  void Family(std::string_view name, std::string_view type, std::string_view help) {
    out_.append("# HELP ").append(name).append(" ").append(help).append("\n");
    out_.append("# TYPE ").append(name).append(" ").append(type).append("\n");
  }
  // One sample; `labels` already formatted ("" or `a="b",c="d"`).
  void Sample(std::string_view name, std::string_view labels, double value) {
    out_.append(name);
    if (!labels.empty()) out_.append("{").append(labels).append("}");
    out_.append(" ").append(Number(value)).append("\n");
  }
  void Histogram(std::string_view name, const std::string& labels,
                 const LatencyHistogram::Snapshot& histogram) {
    const std::string prefix = labels.empty() ? "" : labels + ",";
    const std::string bucket = std::string(name) + "_bucket";
    uint64_t cumulative = 0;
    for (size_t i = 0; i < LatencyHistogram::kBoundsSeconds.size(); ++i) {
      cumulative += histogram.counts[i];
      Sample(bucket, prefix + "le=\"" + Number(LatencyHistogram::kBoundsSeconds[i], true) + "\"",
             static_cast<double>(cumulative));
    }
    Sample(bucket, prefix + "le=\"+Inf\"", static_cast<double>(histogram.count));
    Sample(std::string(name) + "_sum", labels, histogram.sum_seconds);
    Sample(std::string(name) + "_count", labels, static_cast<double>(histogram.count));
  }

 private:
  std::string& out_;
};

std::string Label(std::string_view name, std::string_view value) {
  return std::string(name) + "=\"" + Metrics::Escaped(value) + "\"";
}

// `namespace="..."` first when the server keeps a database per access key id and region.
std::string TableLabels(const std::string& space, std::string_view table) {
  std::string labels = space.empty() ? "" : Label("namespace", space) + ",";
  return labels + Label("table", table);
}

void RenderProcess(Writer& out) {
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) == 0) {
    const double cpu = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                       static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
    out.Family("process_cpu_seconds_total", "counter", "User and system CPU time spent.");
    out.Sample("process_cpu_seconds_total", "", cpu);
  }
  std::ifstream statm("/proc/self/statm");
  uint64_t pages = 0;
  uint64_t resident = 0;
  if (statm >> pages >> resident) {
    out.Family("process_resident_memory_bytes", "gauge", "Resident memory size.");
    out.Sample("process_resident_memory_bytes", "",
               static_cast<double>(resident * static_cast<uint64_t>(sysconf(_SC_PAGESIZE))));
  }
}

void RenderTables(Writer& out, const RequestHandler::NamedStatistics& databases) {
  // One family at a time, as the format asks: every database's tables under it.
  auto each_table = [&](auto&& write) {
    for (const auto& [space, statistics] : databases) {
      for (const TableStatistics& table : statistics.tables) write(space, table);
    }
  };
  out.Family("ddbd_table_items", "gauge", "Items a table holds.");
  each_table([&](const std::string& space, const TableStatistics& table) {
    out.Sample("ddbd_table_items", TableLabels(space, table.name),
               static_cast<double>(table.item_count));
  });
  out.Family("ddbd_table_size_bytes", "gauge", "The DynamoDB size of a table's items.");
  each_table([&](const std::string& space, const TableStatistics& table) {
    out.Sample("ddbd_table_size_bytes", TableLabels(space, table.name),
               static_cast<double>(table.size_bytes));
  });
  out.Family("ddbd_index_items", "gauge", "Items a secondary index holds.");
  each_table([&](const std::string& space, const TableStatistics& table) {
    for (const IndexStatistics& index : table.indexes) {
      out.Sample("ddbd_index_items",
                 TableLabels(space, table.name) + "," + Label("index", index.name),
                 static_cast<double>(index.item_count));
    }
  });
  out.Family("ddbd_index_size_bytes", "gauge", "The DynamoDB size of a secondary index's items.");
  each_table([&](const std::string& space, const TableStatistics& table) {
    for (const IndexStatistics& index : table.indexes) {
      out.Sample("ddbd_index_size_bytes",
                 TableLabels(space, table.name) + "," + Label("index", index.name),
                 static_cast<double>(index.size_bytes));
    }
  });
  out.Family("ddbd_gsi_pending_changes", "gauge",
             "Entry changes on their way to a global secondary index (--gsi-lag-ms).");
  each_table([&](const std::string& space, const TableStatistics& table) {
    for (const IndexStatistics& index : table.indexes) {
      if (!index.global) continue;
      out.Sample("ddbd_gsi_pending_changes",
                 TableLabels(space, table.name) + "," + Label("index", index.name),
                 static_cast<double>(index.pending_changes));
    }
  });
  out.Family("ddbd_vector_index_vectors", "gauge", "Vectors a vector index holds.");
  each_table([&](const std::string& space, const TableStatistics& table) {
    for (const IndexStatistics& index : table.vector_indexes) {
      out.Sample("ddbd_vector_index_vectors",
                 TableLabels(space, table.name) + "," + Label("index", index.name),
                 static_cast<double>(index.item_count));
    }
  });
  out.Family("ddbd_vector_index_bytes", "gauge", "The f32 bytes of a vector index's vectors.");
  each_table([&](const std::string& space, const TableStatistics& table) {
    for (const IndexStatistics& index : table.vector_indexes) {
      out.Sample("ddbd_vector_index_bytes",
                 TableLabels(space, table.name) + "," + Label("index", index.name),
                 static_cast<double>(index.size_bytes));
    }
  });
  for (const bool write : {false, true}) {
    const std::string name = write ? "ddbd_consumed_write_capacity_units_total"
                                   : "ddbd_consumed_read_capacity_units_total";
    out.Family(name, "counter",
               write ? "Write capacity units consumed, by table and index (index=\"\": the table)."
                     : "Read capacity units consumed, by table and index (index=\"\": the table).");
    each_table([&](const std::string& space, const TableStatistics& table) {
      for (const CapacityStatistics& part : table.consumed) {
        out.Sample(name, TableLabels(space, table.name) + "," + Label("index", part.index),
                   write ? part.write_units : part.read_units);
      }
    });
  }
  out.Family("ddbd_item_changes_total", "counter",
             "Changes the commit path made to a table's items, by kind.");
  each_table([&](const std::string& space, const TableStatistics& table) {
    const std::string labels = TableLabels(space, table.name);
    out.Sample("ddbd_item_changes_total", labels + ",kind=\"insert\"",
               static_cast<double>(table.inserts));
    out.Sample("ddbd_item_changes_total", labels + ",kind=\"modify\"",
               static_cast<double>(table.modifies));
    out.Sample("ddbd_item_changes_total", labels + ",kind=\"remove\"",
               static_cast<double>(table.removes));
  });
  out.Family("ddbd_ttl_deleted_items_total", "counter", "Items Time to Live deleted.");
  each_table([&](const std::string& space, const TableStatistics& table) {
    out.Sample("ddbd_ttl_deleted_items_total", TableLabels(space, table.name),
               static_cast<double>(table.time_to_live_deletes));
  });
  out.Family("ddbd_stream_records_total", "counter",
             "Records added to a table's stream since it was enabled.");
  each_table([&](const std::string& space, const TableStatistics& table) {
    if (!table.stream_enabled) return;
    out.Sample("ddbd_stream_records_total", TableLabels(space, table.name),
               static_cast<double>(table.stream_records));
  });
  out.Family("ddbd_stream_bytes", "gauge", "Bytes of records a table's stream keeps.");
  each_table([&](const std::string& space, const TableStatistics& table) {
    if (!table.stream_enabled) return;
    out.Sample("ddbd_stream_bytes", TableLabels(space, table.name),
               static_cast<double>(table.stream_bytes));
  });
}

// Kinesis streaming destinations' delivery (--kinesis-endpoint), per table and stream.
void RenderKinesis(Writer& out, const RequestHandler::NamedStatistics& databases) {
  bool any = false;
  for (const auto& database : databases) any = any || !database.second.kinesis.empty();
  if (!any) return;
  auto each_feed = [&](auto&& write) {
    for (const auto& [space, statistics] : databases) {
      for (const KinesisDeliveryFigures& feed : statistics.kinesis) {
        write(TableLabels(space, feed.table_name) + "," + Label("stream", feed.stream_arn), feed);
      }
    }
  };
  out.Family("ddbd_kinesis_records_delivered_total", "counter",
             "Records a Kinesis data stream took from a table's destination.");
  each_feed([&](const std::string& labels, const KinesisDeliveryFigures& feed) {
    out.Sample("ddbd_kinesis_records_delivered_total", labels, static_cast<double>(feed.delivered));
  });
  out.Family("ddbd_kinesis_records_pending", "gauge",
             "Records kept for a Kinesis destination that its stream has not taken yet.");
  each_feed([&](const std::string& labels, const KinesisDeliveryFigures& feed) {
    out.Sample("ddbd_kinesis_records_pending", labels, static_cast<double>(feed.pending));
  });
  out.Family("ddbd_kinesis_put_failures_total", "counter",
             "PutRecords calls to a Kinesis destination that failed (each is tried again).");
  each_feed([&](const std::string& labels, const KinesisDeliveryFigures& feed) {
    out.Sample("ddbd_kinesis_put_failures_total", labels, static_cast<double>(feed.failures));
  });
  out.Family("ddbd_kinesis_lag_seconds", "gauge",
             "How long the oldest record pending for a Kinesis destination has waited.");
  each_feed([&](const std::string& labels, const KinesisDeliveryFigures& feed) {
    out.Sample("ddbd_kinesis_lag_seconds", labels, static_cast<double>(feed.lag_ms) / 1000.0);
  });
}

// Stream triggers (--stream-trigger), per table and trigger (TABLE=URL).
void RenderStreamTriggers(Writer& out, const RequestHandler::NamedStatistics& databases) {
  bool any = false;
  for (const auto& database : databases) any = any || !database.second.stream_triggers.empty();
  if (!any) return;
  using Figures = StreamTriggerFigures;
  struct Family {
    const char* name;
    const char* type;
    const char* help;
    double (*value)(const Figures&);
  };
  static constexpr Family kFamilies[] = {
      {"ddbd_stream_trigger_records_delivered_total", "counter",
       "Stream records a trigger's function handled.",
       [](const Figures& f) { return static_cast<double>(f.delivered); }},
      {"ddbd_stream_trigger_records_filtered_total", "counter",
       "Stream records a trigger's filter criteria passed over.",
       [](const Figures& f) { return static_cast<double>(f.filtered); }},
      {"ddbd_stream_trigger_records_discarded_total", "counter",
       "Stream records a trigger gave up (retries exhausted or too old), sent to its on-failure "
       "file.",
       [](const Figures& f) { return static_cast<double>(f.discarded); }},
      {"ddbd_stream_trigger_invocations_total", "counter", "Batches a trigger sent its function.",
       [](const Figures& f) { return static_cast<double>(f.invocations); }},
      {"ddbd_stream_trigger_function_errors_total", "counter",
       "Invocations whose function failed, whole or for some records.",
       [](const Figures& f) { return static_cast<double>(f.function_errors); }},
      {"ddbd_stream_trigger_unreachable_total", "counter",
       "Invocations that reached no function (tried again later).",
       [](const Figures& f) { return static_cast<double>(f.unreachable); }},
      {"ddbd_stream_trigger_records_pending", "gauge",
       "Records of a trigger's stream its function has not handled yet.",
       [](const Figures& f) { return static_cast<double>(f.pending); }},
      {"ddbd_stream_trigger_lag_seconds", "gauge",
       "How long the oldest record pending for a trigger has waited (Lambda's IteratorAge).",
       [](const Figures& f) { return static_cast<double>(f.lag_ms) / 1000.0; }},
  };
  for (const Family& family : kFamilies) {
    out.Family(family.name, family.type, family.help);
    for (const auto& [space, statistics] : databases) {
      for (const Figures& trigger : statistics.stream_triggers) {
        out.Sample(family.name,
                   TableLabels(space, trigger.table_name) + "," + Label("trigger", trigger.name) +
                       "," + Label("stream", trigger.stream_arn),
                   family.value(trigger));
      }
    }
  }
}

// Contributor Insights: each enabled rule's heaviest keys over its window, ranked from 1. A key of
// several attributes (a global index's) has its values joined by ",".
void RenderContributorInsights(Writer& out, const RequestHandler::NamedStatistics& databases) {
  bool any = false;
  for (const auto& database : databases) {
    any = any || !database.second.contributor_insights.empty();
  }
  if (!any) return;
  out.Family("ddbd_contributor_insights_value", "gauge",
             "A key among the heaviest of a Contributor Insights rule over the last " +
                 std::to_string(kInsightWindowMinutes) +
                 " minutes: its ConsumedThroughputUnits (3 x write units + read units) or "
                 "ThrottleCount.");
  for (const auto& [space, statistics] : databases) {
    for (const ContributorInsightsReport& report : statistics.contributor_insights) {
      std::string resource = TableLabels(space, report.table_name);
      if (!report.index_name.empty()) resource += "," + Label("index", report.index_name);
      for (const InsightRuleReport& rule : report.rules) {
        const std::string rule_labels =
            resource + "," + Label("rule", rule.rule_name) + "," +
            Label("metric", rule.throttled_keys ? "ThrottleCount" : "ConsumedThroughputUnits");
        size_t rank = 0;
        for (const InsightContributor& contributor : rule.contributors) {
          std::string partition;
          std::string sort;
          for (size_t i = 0; i < contributor.keys.size(); ++i) {
            std::string& part = i < rule.partition_labels ? partition : sort;
            if (!part.empty()) part += ",";
            part += InsightKeyText(contributor.keys[i]);
          }
          std::string labels = rule_labels + "," + Label("rank", std::to_string(++rank)) + "," +
                               Label("partition_key", partition);
          if (contributor.keys.size() > rule.partition_labels) {
            labels += "," + Label("sort_key", sort);
          }
          out.Sample("ddbd_contributor_insights_value", labels, contributor.value);
        }
      }
    }
  }
}

void RenderStores(Writer& out, const RequestHandler::NamedStatistics& databases) {
  bool any = false;
  for (const auto& database : databases) any = any || database.second.store.has_value();
  if (!any) return;
  auto each_store = [&](auto&& write) {
    for (const auto& [space, statistics] : databases) {
      if (statistics.store)
        write(space.empty() ? "" : Label("namespace", space), *statistics.store);
    }
  };
  out.Family("ddbd_log_bytes", "gauge",
             "Write-ahead log bytes since the last checkpoint (what a restart replays).");
  each_store([&](const std::string& labels, const StoreStatistics& store) {
    out.Sample("ddbd_log_bytes", labels, static_cast<double>(store.log_bytes));
  });
  out.Family("ddbd_store_failing", "gauge",
             "1 while the write-ahead log cannot be written (writes are refused), else 0.");
  each_store([&](const std::string& labels, const StoreStatistics& store) {
    out.Sample("ddbd_store_failing", labels, store.failing ? 1 : 0);
  });
  out.Family("ddbd_store_write_failures_total", "counter",
             "Failed attempts to write or sync the write-ahead log.");
  each_store([&](const std::string& labels, const StoreStatistics& store) {
    out.Sample("ddbd_store_write_failures_total", labels,
               static_cast<double>(store.write_failures));
  });
  out.Family("ddbd_log_written_bytes_total", "counter", "Write-ahead log bytes written.");
  each_store([&](const std::string& labels, const StoreStatistics& store) {
    out.Sample("ddbd_log_written_bytes_total", labels,
               static_cast<double>(store.log_written_bytes));
  });
  out.Family("ddbd_log_records_total", "counter", "Write-ahead log records written.");
  each_store([&](const std::string& labels, const StoreStatistics& store) {
    out.Sample("ddbd_log_records_total", labels, static_cast<double>(store.log_records));
  });
  out.Family("ddbd_log_sync_duration_seconds", "histogram",
             "How long each fdatasync of the write-ahead log took.");
  each_store([&](const std::string& labels, const StoreStatistics& store) {
    out.Histogram("ddbd_log_sync_duration_seconds", labels, store.sync);
  });
  out.Family("ddbd_checkpoint_duration_seconds", "histogram",
             "How long each checkpoint (snapshot) took to write.");
  each_store([&](const std::string& labels, const StoreStatistics& store) {
    out.Histogram("ddbd_checkpoint_duration_seconds", labels, store.checkpoints);
  });
}

}  // namespace

// A label value as the text format writes it: backslash, quote and newline escaped.
std::string Metrics::Escaped(std::string_view value) {
  std::string out;
  out.reserve(value.size());
  for (char c : value) {
    if (c == '\\' || c == '"') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

std::string_view Metrics::OperationOf(std::string_view target) {
  static_assert(std::size(kServed) == kOperations, "kOperations counts the served operations");
  return NameOfSlot(SlotOf(target, kOperations));
}

std::string_view Metrics::ErrorTypeOf(std::string_view body) {
  constexpr std::string_view kType = "\"__type\":\"";
  const size_t start = body.find(kType);
  if (start == std::string_view::npos) return kUnknown;
  std::string_view type = body.substr(start + kType.size());
  type = type.substr(0, type.find('"'));
  if (const size_t hash = type.rfind('#'); hash != std::string_view::npos) {
    type.remove_prefix(hash + 1);
  }
  return type.empty() ? kUnknown : type;
}

std::string_view Metrics::ErrorOf(int http_status, std::string_view body) {
  if (http_status == 200) return {};
  // The router's bare 404 (DynamoDB's own answer to anything but a JSON POST to /) has no JSON.
  if (http_status == 404 && !body.starts_with("{")) return "UnknownOperationException";
  return ErrorTypeOf(body);
}

void Metrics::RecordRequest(std::string_view target, int http_status, std::string_view body,
                            int64_t nanoseconds) {
  // A connection usually repeats its operation: one comparison instead of a search.
  thread_local std::string last_target;
  thread_local size_t last_slot = kOperations;
  size_t slot = last_slot;
  if (target != last_target) {
    slot = SlotOf(target, kOperations);
    if (target.size() <= 64) {
      last_target = target;
      last_slot = slot;
    }
  }
  Operation& operation = operations_[slot];
  operation.requests.fetch_add(1, std::memory_order_relaxed);
  operation.latency.Observe(nanoseconds);
  if (http_status == 200) return;
  const std::string_view type = ErrorOf(http_status, body);
  std::lock_guard lock(errors_mutex_);
  ++errors_[{NameOfSlot(slot), std::string(type)}];
}

void Metrics::ConnectionOpened() {
  open_connections_.fetch_add(1, std::memory_order_relaxed);
  connections_.fetch_add(1, std::memory_order_relaxed);
}

void Metrics::ConnectionClosed() { open_connections_.fetch_sub(1, std::memory_order_relaxed); }

std::string Metrics::Render(const RequestHandler::NamedStatistics& databases) const {
  std::string text;
  text.reserve(16 * 1024);
  Writer out(text);
  out.Family("ddbd_build_info", "gauge", "The running ddbd's version.");
  out.Sample("ddbd_build_info", Label("version", DDBD_VERSION), 1);
  out.Family("ddbd_requests_total", "counter", "DynamoDB requests answered, by operation.");
  for (size_t slot = 0; slot < operations_.size(); ++slot) {
    const uint64_t count = operations_[slot].requests.load(std::memory_order_relaxed);
    if (count == 0) continue;
    out.Sample("ddbd_requests_total", Label("operation", NameOfSlot(slot)),
               static_cast<double>(count));
  }
  out.Family("ddbd_request_errors_total", "counter",
             "DynamoDB requests answered with an error, by operation and error type.");
  {
    std::lock_guard lock(errors_mutex_);
    for (const auto& [key, count] : errors_) {
      out.Sample("ddbd_request_errors_total",
                 Label("operation", key.first) + "," + Label("error", key.second),
                 static_cast<double>(count));
    }
  }
  out.Family("ddbd_request_duration_seconds", "histogram",
             "Time from a request's arrival to its answer, by operation.");
  for (size_t slot = 0; slot < operations_.size(); ++slot) {
    if (operations_[slot].requests.load(std::memory_order_relaxed) == 0) continue;
    out.Histogram("ddbd_request_duration_seconds", Label("operation", NameOfSlot(slot)),
                  operations_[slot].latency.Read());
  }
  out.Family("ddbd_connections_open", "gauge", "Client connections open now.");
  out.Sample("ddbd_connections_open", "",
             static_cast<double>(open_connections_.load(std::memory_order_relaxed)));
  out.Family("ddbd_connections_total", "counter", "Client connections accepted.");
  out.Sample("ddbd_connections_total", "",
             static_cast<double>(connections_.load(std::memory_order_relaxed)));
  out.Family("ddbd_connections_dropped_total", "counter",
             "Connections dropped because their clients did not take their answers while the "
             "answer budget (--answer-buffer-bytes) was spent.");
  out.Sample("ddbd_connections_dropped_total", "",
             static_cast<double>(dropped_connections_.load(std::memory_order_relaxed)));
  RenderTables(out, databases);
  RenderKinesis(out, databases);
  RenderStreamTriggers(out, databases);
  RenderContributorInsights(out, databases);
  RenderStores(out, databases);
  RenderProcess(out);
  return text;
}

}  // namespace ddbd
