#include "engine/persistence/auto_scaling_codec.h"

#include <bit>

#include "engine/persistence/fields.h"

namespace ddbd {
namespace {

// Field numbers are forever: add new ones, never reuse one.
enum Table : uint32_t { kWrite = 1, kIndexWrite, kRegion };
enum Index : uint32_t { kIndexName = 1, kIndexSettings };
enum Region : uint32_t { kRegionName = 1, kRegionRead, kRegionIndexRead };
enum Settings : uint32_t { kMinimum = 1, kMaximum, kDisabled, kRoleArn, kPolicy };
enum Policy : uint32_t {
  kPolicyName = 1,
  kDisableScaleIn,
  kScaleInCooldown,
  kScaleOutCooldown,
  kTargetValue  // the double's bits
};

std::string EncodeSettings(const AutoScalingSettings& settings) {
  FieldWriter fields;
  fields.Int(kMinimum, settings.minimum_units);
  fields.Int(kMaximum, settings.maximum_units);
  if (settings.disabled) fields.Int(kDisabled, 1);
  if (settings.role_arn) fields.Bytes(kRoleArn, *settings.role_arn);
  for (const AutoScalingPolicy& policy : settings.policies) {
    FieldWriter nested;
    nested.Bytes(kPolicyName, policy.policy_name);
    if (policy.disable_scale_in) nested.Int(kDisableScaleIn, *policy.disable_scale_in ? 1 : 0);
    if (policy.scale_in_cooldown) nested.Int(kScaleInCooldown, *policy.scale_in_cooldown);
    if (policy.scale_out_cooldown) nested.Int(kScaleOutCooldown, *policy.scale_out_cooldown);
    nested.Int(kTargetValue, std::bit_cast<int64_t>(policy.target_value));
    fields.Bytes(kPolicy, nested.bytes());
  }
  return fields.Take();
}

AutoScalingSettings DecodeSettings(std::string_view bytes) {
  AutoScalingSettings settings;
  FieldReader fields(bytes);
  while (fields.Next()) {
    switch (fields.number()) {
      case kMinimum:
        settings.minimum_units = fields.integer();
        break;
      case kMaximum:
        settings.maximum_units = fields.integer();
        break;
      case kDisabled:
        settings.disabled = fields.integer() != 0;
        break;
      case kRoleArn:
        settings.role_arn = std::string(fields.text());
        break;
      case kPolicy: {
        AutoScalingPolicy& policy = settings.policies.emplace_back();
        FieldReader nested(fields.text());
        while (nested.Next()) {
          switch (nested.number()) {
            case kPolicyName:
              policy.policy_name = nested.text();
              break;
            case kDisableScaleIn:
              policy.disable_scale_in = nested.integer() != 0;
              break;
            case kScaleInCooldown:
              policy.scale_in_cooldown = nested.integer();
              break;
            case kScaleOutCooldown:
              policy.scale_out_cooldown = nested.integer();
              break;
            case kTargetValue:
              policy.target_value = std::bit_cast<double>(nested.integer());
              break;
            default:
              break;
          }
        }
        break;
      }
      default:
        break;
    }
  }
  return settings;
}

std::string EncodeIndex(const IndexAutoScaling& index) {
  FieldWriter fields;
  fields.Bytes(kIndexName, index.index_name);
  fields.Bytes(kIndexSettings, EncodeSettings(index.settings));
  return fields.Take();
}

IndexAutoScaling DecodeIndex(std::string_view bytes) {
  IndexAutoScaling index;
  FieldReader fields(bytes);
  while (fields.Next()) {
    if (fields.number() == kIndexName) index.index_name = fields.text();
    if (fields.number() == kIndexSettings) index.settings = DecodeSettings(fields.text());
  }
  return index;
}

}  // namespace

std::string EncodeTableAutoScaling(const TableAutoScaling& settings) {
  FieldWriter fields;
  if (settings.write) fields.Bytes(kWrite, EncodeSettings(*settings.write));
  for (const IndexAutoScaling& index : settings.index_writes) {
    fields.Bytes(kIndexWrite, EncodeIndex(index));
  }
  for (const RegionAutoScaling& region : settings.regions) {
    FieldWriter nested;
    nested.Bytes(kRegionName, region.region_name);
    if (region.read) nested.Bytes(kRegionRead, EncodeSettings(*region.read));
    for (const IndexAutoScaling& index : region.index_reads) {
      nested.Bytes(kRegionIndexRead, EncodeIndex(index));
    }
    fields.Bytes(kRegion, nested.bytes());
  }
  return fields.Take();
}

TableAutoScaling DecodeTableAutoScaling(std::string_view bytes) {
  TableAutoScaling settings;
  FieldReader fields(bytes);
  while (fields.Next()) {
    switch (fields.number()) {
      case kWrite:
        settings.write = DecodeSettings(fields.text());
        break;
      case kIndexWrite:
        settings.index_writes.push_back(DecodeIndex(fields.text()));
        break;
      case kRegion: {
        RegionAutoScaling& region = settings.regions.emplace_back();
        FieldReader nested(fields.text());
        while (nested.Next()) {
          if (nested.number() == kRegionName) region.region_name = nested.text();
          if (nested.number() == kRegionRead) region.read = DecodeSettings(nested.text());
          if (nested.number() == kRegionIndexRead) {
            region.index_reads.push_back(DecodeIndex(nested.text()));
          }
        }
        break;
      }
      default:
        break;
    }
  }
  return settings;
}

}  // namespace ddbd
