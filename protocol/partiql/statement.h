// A parsed PartiQL statement, with every `?` already replaced by its parameter: what
// ExecuteStatement, BatchExecuteStatement and ExecuteTransaction run (protocol/partiql/plan.h
// turns it into engine calls once the table's keys are known).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/api/items.h"
#include "engine/expression/condition.h"
#include "engine/expression/update.h"
#include "engine/model/attribute_value.h"
#include "engine/model/document_path.h"

namespace ddbd::partiql {

struct Statement {
  enum class Kind {
    kSelect,  // SELECT projection FROM "T"["I"] [WHERE c] [ORDER BY k [ASC|DESC]]
    kInsert,  // INSERT INTO "T" VALUE {...}
    kUpdate,  // UPDATE "T" SET/REMOVE ... WHERE c [RETURNING ...]
    kDelete,  // DELETE FROM "T" WHERE c [RETURNING ALL OLD *]
    kExists,  // EXISTS(SELECT * FROM "T" WHERE c): a condition check in a transaction
  };
  Kind kind = Kind::kSelect;
  std::string table_name;
  std::string index_name;  // SELECT from "T"."I"; empty: the table

  std::vector<DocumentPath> projection;  // SELECT; empty: every attribute (*)
  std::optional<Condition> where;
  std::string order_by;  // SELECT: the key attribute named in ORDER BY; empty: none
  bool descending = false;

  Item item;                          // INSERT
  std::vector<UpdateAction> actions;  // UPDATE, in the statement's order
  ReturnValues returning = ReturnValues::kNone;

  bool reads() const { return kind == Kind::kSelect; }
};

}  // namespace ddbd::partiql
