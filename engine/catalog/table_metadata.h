// What a feature that keeps its state in a table's description (tags, resource policies,
// point-in-time recovery settings, Kinesis streaming destinations) is given of the catalog: the
// ARNs it names tables by, a live table's description, and a change of that metadata through the
// catalog's one path (so it is logged and survives restarts). Features take this, never the engine:
// the engine holds them, not the other way round (issue 38).
//
// Thread safety: every member may be called from any thread.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/api/durability.h"
#include "engine/api/tables.h"
#include "engine/error.h"

namespace ddbd {

class TableMetadata {
 public:
  virtual ~TableMetadata() = default;
  // The region and account this engine's ARNs name.
  virtual const std::string& region() const = 0;
  virtual const std::string& account_id() const = 0;
  // "arn:aws:dynamodb:<region>:<account>:table/<name>" for this engine; "" gives the prefix.
  virtual std::string TableArn(std::string_view table_name) const = 0;
  // The names of the live tables, in ListTables' order.
  virtual std::vector<std::string> TableNames() const = 0;
  // The live table's description (without its item counts), or nullopt when it is not here.
  virtual std::optional<TableDescription> Describe(std::string_view table_name) const = 0;
  // Under the catalog's exclusive lock, `change` edits a copy of the table's tags, resource
  // policies, Kinesis streaming destinations and point-in-time recovery settings; unless it fails,
  // the copy goes through the catalog's one path: the ticket of its log record.
  // ResourceNotFoundException "Requested resource not found: Table: <name> not found" for a table
  // that is not here.
  virtual Result<Ticket> ChangeMetadata(const std::string& table_name,
                                        const std::function<Status(TableDescription&)>& change) = 0;
};

}  // namespace ddbd
