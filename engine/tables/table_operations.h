// The table calls over the catalog: CreateTable, DescribeTable, ListTables, UpdateTable and
// DeleteTable, as engine/engine.h states them.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>

#include "engine/api/tables.h"
#include "engine/catalog/catalog.h"
#include "engine/error.h"

namespace ddbd {

Result<TableOutcome> CreateTable(Catalog& catalog, const CreateTableArgs& args);
Result<TableDescription> DescribeTable(const Catalog& catalog, std::string_view table_name);
ListTablesResult ListTables(const Catalog& catalog, const ListTablesArgs& args);
Result<TableOutcome> UpdateTable(Catalog& catalog, const UpdateTableArgs& args);
// The deleted table's answer, and its items as they were (a table with point-in-time recovery
// leaves a SYSTEM backup of them).
struct DeletedTable {
  TableOutcome outcome;
  std::shared_ptr<const TableItems> items;
  int64_t deleted_ms = 0;  // the moment of the deletion (the backup's creation time)
};
Result<DeletedTable> DeleteTable(Catalog& catalog, std::string_view table_name);

}  // namespace ddbd
