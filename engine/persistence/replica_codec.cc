#include "engine/persistence/replica_codec.h"

#include "engine/persistence/fields.h"

namespace ddbd {
namespace {

// Field numbers are forever: add new ones, never reuse one.
enum Replica : uint32_t {
  kReplicaRegion = 1,
  kReplicaStatus,
  kReplicaKmsKey,
  kReplicaReadOverride,
  kReplicaMaxReadOverride,
  kReplicaTableClass,
  kReplicaSource,
  kReplicaCreated,
  kReplicaIndex,  // a ReplicaIndexOverride (ReplicaIndexField)
  kReplicaStatusUntil,
  kReplicaStrong,
  kReplicaWitness,
  kReplicaAccount,
  kReplicaAccessKeyId,
};
enum ReplicaIndexField : uint32_t {
  kReplicaIndexName = 1,
  kReplicaIndexRead,
  kReplicaIndexMaxRead
};

}  // namespace

std::string EncodeReplica(const ReplicaDescription& replica) {
  FieldWriter fields;
  fields.Bytes(kReplicaRegion, replica.region_name);
  fields.Int(kReplicaStatus, static_cast<int64_t>(replica.status));
  if (replica.kms_master_key_id) fields.Bytes(kReplicaKmsKey, *replica.kms_master_key_id);
  if (replica.read_capacity_units_override) {
    fields.Int(kReplicaReadOverride, *replica.read_capacity_units_override);
  }
  if (replica.max_read_request_units_override) {
    fields.Int(kReplicaMaxReadOverride, *replica.max_read_request_units_override);
  }
  if (replica.table_class_override) fields.Bytes(kReplicaTableClass, *replica.table_class_override);
  fields.Bytes(kReplicaSource, replica.source_region);
  fields.Int(kReplicaCreated, replica.created_ms);
  if (replica.status_until_ms != 0) fields.Int(kReplicaStatusUntil, replica.status_until_ms);
  if (replica.strong) fields.Int(kReplicaStrong, 1);
  if (replica.witness) fields.Int(kReplicaWitness, 1);
  if (!replica.account_id.empty()) fields.Bytes(kReplicaAccount, replica.account_id);
  if (!replica.access_key_id.empty()) fields.Bytes(kReplicaAccessKeyId, replica.access_key_id);
  for (const ReplicaIndexOverride& index : replica.index_overrides) {
    FieldWriter nested;
    nested.Bytes(kReplicaIndexName, index.index_name);
    if (index.read_capacity_units) nested.Int(kReplicaIndexRead, *index.read_capacity_units);
    if (index.max_read_request_units) {
      nested.Int(kReplicaIndexMaxRead, *index.max_read_request_units);
    }
    fields.Bytes(kReplicaIndex, nested.bytes());
  }
  return fields.Take();
}

ReplicaDescription DecodeReplica(std::string_view bytes) {
  ReplicaDescription replica;
  FieldReader fields(bytes);
  while (fields.Next()) {
    switch (fields.number()) {
      case kReplicaRegion:
        replica.region_name = fields.text();
        break;
      case kReplicaStatus:
        replica.status = static_cast<ReplicaStatus>(fields.integer());
        break;
      case kReplicaKmsKey:
        replica.kms_master_key_id = std::string(fields.text());
        break;
      case kReplicaReadOverride:
        replica.read_capacity_units_override = fields.integer();
        break;
      case kReplicaMaxReadOverride:
        replica.max_read_request_units_override = fields.integer();
        break;
      case kReplicaTableClass:
        replica.table_class_override = std::string(fields.text());
        break;
      case kReplicaStrong:
        replica.strong = fields.integer() != 0;
        break;
      case kReplicaWitness:
        replica.witness = fields.integer() != 0;
        break;
      case kReplicaAccount:
        replica.account_id = fields.text();
        break;
      case kReplicaAccessKeyId:
        replica.access_key_id = fields.text();
        break;
      case kReplicaSource:
        replica.source_region = fields.text();
        break;
      case kReplicaCreated:
        replica.created_ms = fields.integer();
        break;
      case kReplicaStatusUntil:
        replica.status_until_ms = fields.integer();
        break;
      case kReplicaIndex: {
        ReplicaIndexOverride& index = replica.index_overrides.emplace_back();
        FieldReader nested(fields.text());
        while (nested.Next()) {
          if (nested.number() == kReplicaIndexName) index.index_name = nested.text();
          if (nested.number() == kReplicaIndexRead) index.read_capacity_units = nested.integer();
          if (nested.number() == kReplicaIndexMaxRead) {
            index.max_read_request_units = nested.integer();
          }
        }
        break;
      }
      default:
        break;
    }
  }
  return replica;
}

}  // namespace ddbd
