// Global tables, version 2017.11.29 (engine/api/legacy_global_tables.h) over the catalog: the
// other regions' tables are read and joined through the catalog's options' ReplicationLink,
// never while the catalog's lock is held.
#pragma once

#include <string>
#include <vector>

#include "engine/api/legacy_global_tables.h"
#include "engine/catalog/catalog.h"
#include "engine/error.h"

namespace ddbd {

Result<GlobalTableDescription> CreateGlobalTable(Catalog& catalog,
                                                 const CreateGlobalTableArgs& args);
Result<GlobalTableDescription> UpdateGlobalTable(Catalog& catalog,
                                                 const UpdateGlobalTableArgs& args);
Result<GlobalTableDescription> DescribeGlobalTable(const Catalog& catalog,
                                                   const std::string& global_table_name);
ListGlobalTablesResult ListGlobalTables(const Catalog& catalog, const ListGlobalTablesArgs& args);

// What the calls above and the settings calls (global_table_settings_2017.cc) share.
namespace global_tables_2017 {
// TableNotFoundException for a region without the table (AWS-recorded).
Error TableNotFound(const std::string& table_name, const std::string& region);
Error GlobalTableNotFound(const std::string& name);
// The regions of a member's group, in order.
std::vector<std::string> GroupOf(const TableDescription& table);
// The link to the other regions, or why there is none (one database for every region).
Result<ReplicationLink*> Link(const Catalog& catalog);
}  // namespace global_tables_2017

// Every member's settings, as each region describes its table.
Result<GlobalTableSettingsDescription> DescribeGlobalTableSettings(
    const Catalog& catalog, const std::string& global_table_name);
// Checks the names against the global table, then changes this region's table through
// `update_table` (so UpdateTable's own checks and texts answer first), then the others' through
// the link, then the auto scaling settings (kept alike in every member); answers as Describe.
Result<GlobalTableSettingsDescription> UpdateGlobalTableSettings(
    Catalog& catalog, const UpdateTableCall& update_table,
    const UpdateGlobalTableSettingsArgs& args);

// The table's membership here as the region that changed it sets it (an empty group: it leaves,
// a table of this region alone again).
Status SetLegacyGlobalTable(Catalog& catalog, const std::string& table_name,
                            const std::vector<std::string>& group, int64_t created_ms);

}  // namespace ddbd
