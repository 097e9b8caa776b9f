// What the write-ahead log records: the kinds of record and their payloads (tagged fields), one
// per catalog change and one per item change that is not a no-op. Tables are named by their
// TableId (a UUID, unique per incarnation), so a record can never reach a later table of the
// same name; puts by a number bound to the TableId earlier in the log (kTableNumber).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "engine/error.h"

namespace ddbd {

enum class JournalKind : uint8_t {
  kTableCreated = 1,   // payload: the table's description (catalog_codec.h)
  kTableUpdated = 2,   // payload: its whole new description
  kTableDeleted = 3,   // payload: an item record with only the table id
  kItemPut = 4,        // payload: table id, key, item blob and size (kItemPutImage: see below)
  kItemDeleted = 5,    // payload: table id, key
  kGroup = 6,          // payload: several records, each a field numbered by its kind
  kRequestToken = 7,   // payload: a TransactWriteItems ClientRequestToken that completed
  kStream = 8,         // payload: a stream's state without records (stream_codec.h); checkpoints
  kStreamRecord = 9,   // payload: a stream record; grouped with its change, or in checkpoints
  kStreamClosed = 10,  // payload: a stream's closing: disabled, or its table deleted
  kBackup = 11,  // payload: a backup's details; only in backup files (engine/backups/backup_file.h)
  kExport = 12,  // payload: an export's description; only in export files (engine/exports/)
  kImport = 13,  // payload: an import's description; only in import files (engine/exports/)
  kStreamDelivered = 14,  // payload: a Kinesis feed's records delivered up to a sequence number
  kItemImagesWide = 15,   // payload: items with the records' former 12-byte header (read only)
  kItemImages = 16,       // payload: items as kept in memory; checkpoints only (item_images.h)
  // payload: a put's item as kept in memory (item_images.h), which recovery uses where it lies
  // in the mapped segment, after its table's id; what the log's puts were from format 7 on
  // until kItemPutNumbered (read only)
  kItemPutImage = 17,
  // payload: u64 number | table id: from here on in the log (until another record binds the
  // number again), kItemPutNumbered's `number` names that table. A process binds each table's
  // number before its first such put, and a checkpoint binds its tables' before their items, so
  // a put's number is bound by a record before it wherever replay starts.
  kTableNumber = 18,
  // payload: kItemPutImage's with the table's number (kTableNumber) for its 36-byte id
  // (item_images.h): the log's puts, but those of a replicated table (kItemPut holds their
  // write version); 32 bytes a put fewer in the log and in memory after a restart.
  kItemPutNumbered = 19,
};

struct ItemRecordFields {
  std::string_view table_id;
  std::string_view key;
  std::string_view blob;  // kItemPut only
  uint32_t size = 0;      // kItemPut only
  // A replicated table's change: its write version (global tables, last writer wins), the time
  // and the region; none (0, "") for any other.
  int64_t version_time_us = 0;
  std::string_view version_region;
};

std::string EncodeItemRecord(const ItemRecordFields& fields);
// Views into `payload`. InternalServerError for a malformed one.
Result<ItemRecordFields> DecodeItemRecord(std::string_view payload);

// kTableNumber: the number (a TableItems::id() of the process that wrote it) and the TableId.
struct TableNumberFields {
  uint64_t number = 0;
  std::string_view table_id;
};
std::string EncodeTableNumber(const TableNumberFields& fields);
// A view into `payload`. InternalServerError for a malformed one.
Result<TableNumberFields> DecodeTableNumber(std::string_view payload);

// kRequestToken: the token, the request's fingerprint and when it completed.
struct RequestTokenFields {
  std::string_view token;
  uint64_t fingerprint = 0;
  int64_t completed_ms = 0;
};
std::string EncodeRequestToken(const RequestTokenFields& fields);
Result<RequestTokenFields> DecodeRequestToken(std::string_view payload);

}  // namespace ddbd
