// Where each stream trigger is in its stream, kept with --db-path in the file
// <db-path>/stream-triggers so a restart resumes there (engine/triggers/stream_triggers.h). One
// line per trigger: its name, its stream's ARN and the last sequence number it handled, separated
// by tabs (names and ARNs hold no tabs or line ends). Rewritten whole after each batch (a new
// file synced, then renamed over the old): a crash leaves the old or the new file, never half.
//
// Thread safety: none; the trigger thread alone uses it.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "engine/error.h"
#include "engine/persistence/file_system.h"

namespace ddbd {

struct TriggerPosition {
  std::string stream_arn;
  uint64_t sequence = 0;  // the last record handled (0: none)
};

class TriggerPositions {
 public:
  // `files` null: positions are kept in memory only (no --db-path).
  TriggerPositions(FileSystem* files, std::string directory);
  // Reads the file, if there is one; a line it cannot read is left out (that trigger starts
  // anew, as its starting position says).
  void Load();
  const TriggerPosition* Find(const std::string& name) const;
  // Keeps `position` for `name`, on disk before it returns when there is a directory.
  Status Save(const std::string& name, const TriggerPosition& position);

 private:
  FileSystem* files_;
  const std::string directory_;
  std::map<std::string, TriggerPosition> positions_;
};

}  // namespace ddbd
