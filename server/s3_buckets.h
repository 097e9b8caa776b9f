// --s3-endpoint: the buckets of exports and imports on an S3-compatible server (MinIO,
// LocalStack's S3, s3rver, AWS itself), as the engine's ObjectStore (engine/api/object_store.h).
// Path-style requests (http(s)://host[:port]/<bucket>/<key>), each signed with Signature Version
// 4 for the service "s3" (server/sigv4.h, the code the verifier uses) from AWS_ACCESS_KEY_ID,
// AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN: PutObject (an object is sent whole when it is
// committed), GetObject, ListObjectsV2 page by page. S3's errors become an export's or import's
// FailureCode as DynamoDB names them (S3NoSuchBucket, S3AccessDenied, else "S3" and S3's code)
// with S3's message.
//
// Thread safety: any thread; each call opens its own connection.
#pragma once

#include <memory>
#include <string>

#include "engine/api/object_store.h"
#include "server/tools/http_client.h"
#include "server/tools/remote_endpoint.h"

namespace ddbd {

// `region`: what requests are signed for (credentials.region is not used).
std::shared_ptr<ObjectStore> NewS3Buckets(Endpoint endpoint, AwsCredentials credentials,
                                          std::string region);

}  // namespace ddbd
