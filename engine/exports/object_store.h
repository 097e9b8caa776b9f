// The engine's own bucket stores (the interface: engine/api/object_store.h).
#pragma once

#include <memory>
#include <string>

#include "engine/api/object_store.h"

namespace ddbd {

// --s3-dir: bucket `b` is the directory `root`/b (which must exist: S3NoSuchBucket otherwise),
// key "x/y.json" the file `root`/b/x/y.json. A key with an empty, "." or ".." segment is refused
// (S3InvalidKey): no key reaches outside its bucket's directory.
std::unique_ptr<ObjectStore> NewDirectoryObjectStore(std::string root);

// Without a bucket store: every call fails with S3NoSuchBucket, naming the option that gives one.
std::unique_ptr<ObjectStore> NewAbsentObjectStore();

}  // namespace ddbd
