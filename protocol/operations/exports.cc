// ExportTableToPointInTime, DescribeExport and ListExports: exports (engine/exports/export_jobs.h),
// in DynamoDB's shapes.
#include "protocol/generated/requests.h"
#include "protocol/operations/operations.h"

namespace ddbd::operations {
namespace {

void WriteExportDescription(wire::out::ExportDescription& out, const ExportDescription& d) {
  out.ExportArn(d.export_arn);
  out.ExportStatus(static_cast<wire::ExportStatus>(d.export_status));
  out.StartTime(d.start_ms);
  if (d.export_status != ExportStatus::kInProgress) out.EndTime(d.end_ms);
  if (!d.export_manifest.empty()) out.ExportManifest(d.export_manifest);
  out.TableArn(d.table_arn);
  out.TableId(d.table_id);
  if (!d.incremental) out.ExportTime(d.export_time_ms);
  out.ClientToken(d.client_token);
  out.S3Bucket(d.s3_bucket);
  if (d.s3_bucket_owner) out.S3BucketOwner(*d.s3_bucket_owner);
  if (d.s3_prefix) out.S3Prefix(*d.s3_prefix);
  if (d.s3_sse_algorithm) {
    out.S3SseAlgorithm(*d.s3_sse_algorithm == "KMS" ? wire::S3SseAlgorithm::kKms
                                                    : wire::S3SseAlgorithm::kAes256);
  }
  if (d.s3_sse_kms_key_id) out.S3SseKmsKeyId(*d.s3_sse_kms_key_id);
  if (d.export_status == ExportStatus::kFailed) {
    out.FailureCode(d.failure_code);
    out.FailureMessage(d.failure_message);
  }
  out.ExportFormat(d.export_format == ExportFormat::kIon ? wire::ExportFormat::kIon
                                                         : wire::ExportFormat::kDynamodbJson);
  if (d.export_status == ExportStatus::kCompleted) {
    out.BilledSizeBytes(d.billed_size_bytes);
    out.ItemCount(d.item_count);
  }
  if (d.export_type) out.ExportType(static_cast<wire::ExportType>(*d.export_type));
  if (d.incremental) {
    out.IncrementalExportSpecification([&](wire::out::IncrementalExportSpecification& spec) {
      if (d.incremental->export_from_ms) spec.ExportFromTime(*d.incremental->export_from_ms);
      if (d.incremental->export_to_ms) spec.ExportToTime(*d.incremental->export_to_ms);
      if (d.incremental->export_view_type) {
        spec.ExportViewType(static_cast<wire::ExportViewType>(*d.incremental->export_view_type));
      }
    });
  }
}

}  // namespace

Status ExportTableToPointInTime(Engine& engine, const wire::ExportTableToPointInTimeInput& in,
                                json::Writer& response) {
  ExportTableArgs args;
  args.table_arn = std::string(in.table_arn);
  args.export_time_ms = in.export_time;
  args.client_token = Text(in.client_token);
  args.s3_bucket = std::string(in.s3_bucket);
  args.s3_bucket_owner = Text(in.s3_bucket_owner);
  args.s3_prefix = Text(in.s3_prefix);
  args.s3_sse_algorithm = Text(in.s3_sse_algorithm);
  args.s3_sse_kms_key_id = Text(in.s3_sse_kms_key_id);
  if (in.export_format) {
    args.export_format =
        *in.export_format == "ION" ? ExportFormat::kIon : ExportFormat::kDynamoDbJson;
  }
  if (in.export_type) {
    args.export_type = *in.export_type == "INCREMENTAL_EXPORT" ? ExportType::kIncrementalExport
                                                               : ExportType::kFullExport;
  }
  if (in.incremental_export_specification != nullptr) {
    wire::IncrementalExportSpecification spec;
    wire::View(*in.incremental_export_specification, spec);
    IncrementalExportSpecification& incremental = args.incremental.emplace();
    incremental.export_from_ms = spec.export_from_time;
    incremental.export_to_ms = spec.export_to_time;
    if (spec.export_view_type) {
      incremental.export_view_type = *spec.export_view_type == "NEW_IMAGE"
                                         ? ExportViewType::kNewImage
                                         : ExportViewType::kNewAndOldImages;
    }
  }
  auto started = engine.ExportTableToPointInTime(args);
  if (!started.ok()) return started.error();
  wire::Write<wire::out::ExportTableToPointInTimeOutput>(response, [&](auto& out) {
    out.ExportDescription(
        [&](wire::out::ExportDescription& d) { WriteExportDescription(d, started.value()); });
  });
  return Ok{};
}

Status DescribeExport(Engine& engine, const wire::DescribeExportInput& in, json::Writer& response) {
  auto described = engine.DescribeExport(std::string(in.export_arn));
  if (!described.ok()) return described.error();
  wire::Write<wire::out::DescribeExportOutput>(response, [&](auto& out) {
    out.ExportDescription(
        [&](wire::out::ExportDescription& d) { WriteExportDescription(d, described.value()); });
  });
  return Ok{};
}

Status ListExports(Engine& engine, const wire::ListExportsInput& in, json::Writer& response) {
  ListExportsArgs args;
  args.table_arn = Text(in.table_arn);
  args.max_results = in.max_results.value_or(0);
  args.next_token = Text(in.next_token);
  auto listed = engine.ListExports(args);
  if (!listed.ok()) return listed.error();
  wire::Write<wire::out::ListExportsOutput>(response, [&](auto& out) {
    out.ExportSummaries([&](wire::out::ExportSummaries& list) {
      for (const ExportSummary& summary : listed.value().exports) {
        list.Add([&](wire::out::ExportSummary& s) {
          s.ExportArn(summary.export_arn);
          s.ExportStatus(static_cast<wire::ExportStatus>(summary.export_status));
          s.ExportType(static_cast<wire::ExportType>(summary.export_type));
        });
      }
    });
    if (listed.value().next_token) out.NextToken(*listed.value().next_token);
  });
  return Ok{};
}

}  // namespace ddbd::operations
