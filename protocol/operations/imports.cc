// ImportTable, DescribeImport and ListImports: imports (engine/exports/import_jobs.h), in
// DynamoDB's shapes.
#include "protocol/generated/requests.h"
#include "protocol/operations/operations.h"
#include "protocol/table_decode.h"
#include "protocol/table_encode.h"

namespace ddbd::operations {
namespace {

InputFormat FormatOf(std::string_view text) {
  if (text == "ION") return InputFormat::kIon;
  if (text == "CSV") return InputFormat::kCsv;
  return InputFormat::kDynamoDbJson;
}

template <class Out>
void WriteSource(Out& out, const std::string& bucket, const std::optional<std::string>& owner,
                 const std::optional<std::string>& prefix) {
  out.S3BucketSource([&](wire::out::S3BucketSource& source) {
    if (owner) source.S3BucketOwner(*owner);
    source.S3Bucket(bucket);
    if (prefix) source.S3KeyPrefix(*prefix);
  });
}

// TableCreationParameters, from the table as the import created it.
void WriteCreation(wire::out::TableCreationParameters& out, const TableDescription& table) {
  out.TableName(table.table_name);
  out.AttributeDefinitions([&](wire::out::AttributeDefinitions& list) {
    for (const AttributeDefinition& definition : table.attribute_definitions) {
      list.Add([&](wire::out::AttributeDefinition& described) {
        described.AttributeName(definition.attribute_name);
        described.AttributeType(static_cast<wire::ScalarAttributeType>(definition.attribute_type));
      });
    }
  });
  out.KeySchema([&](wire::out::KeySchema& list) { EncodeKeySchema(list, table.key_schema); });
  out.BillingMode(BillingModeOf(table.billing_mode));
  if (table.billing_mode == BillingMode::kProvisioned) {
    out.ProvisionedThroughput([&](wire::out::ProvisionedThroughput& throughput) {
      throughput.ReadCapacityUnits(table.provisioned_throughput.read_capacity_units);
      throughput.WriteCapacityUnits(table.provisioned_throughput.write_capacity_units);
    });
  }
  if (!table.on_demand_throughput.empty()) {
    out.OnDemandThroughput([&](wire::out::OnDemandThroughput& ceilings) {
      EncodeOnDemandThroughput(ceilings, table.on_demand_throughput);
    });
  }
  if (table.sse_description) {
    out.SSESpecification([&](wire::out::SSESpecification& sse) {
      sse.Enabled(true);
      if (table.sse_description->sse_type) {
        sse.SSEType(static_cast<wire::SSEType>(*table.sse_description->sse_type));
      }
      if (table.sse_description->kms_master_key_id) {
        sse.KMSMasterKeyId(*table.sse_description->kms_master_key_id);
      }
    });
  }
  bool global = false;
  for (const IndexDescription& index : table.indexes) global = global || index.is_global;
  if (!global) return;
  out.GlobalSecondaryIndexes([&](wire::out::GlobalSecondaryIndexList& list) {
    for (const IndexDescription& index : table.indexes) {
      if (!index.is_global) continue;
      list.Add([&](wire::out::GlobalSecondaryIndex& described) {
        described.IndexName(index.definition.index_name);
        described.KeySchema([&](wire::out::KeySchema& keys) {
          EncodeKeySchema(keys, index.definition.key_schema);
        });
        described.Projection([&](wire::out::Projection& projection) {
          EncodeProjection(projection, index.definition.projection);
        });
        if (table.billing_mode == BillingMode::kProvisioned &&
            index.definition.provisioned_throughput) {
          described.ProvisionedThroughput([&](wire::out::ProvisionedThroughput& throughput) {
            throughput.ReadCapacityUnits(
                index.definition.provisioned_throughput->read_capacity_units);
            throughput.WriteCapacityUnits(
                index.definition.provisioned_throughput->write_capacity_units);
          });
        }
      });
    }
  });
}

void WriteImportDescription(wire::out::ImportTableDescription& out,
                            const ImportTableDescription& d) {
  out.ImportArn(d.import_arn);
  out.ImportStatus(static_cast<wire::ImportStatus>(d.import_status));
  out.TableArn(d.table_arn);
  out.TableId(d.table_id);
  out.ClientToken(d.client_token);
  WriteSource(out, d.s3_bucket, d.s3_bucket_owner, d.s3_key_prefix);
  out.ErrorCount(d.error_count);
  out.InputFormat(static_cast<wire::InputFormat>(d.input_format));
  if (d.csv) {
    out.InputFormatOptions([&](wire::out::InputFormatOptions& options) {
      options.Csv([&](wire::out::CsvOptions& csv) {
        if (d.csv->delimiter) csv.Delimiter(*d.csv->delimiter);
        if (d.csv->header_list) {
          csv.HeaderList([&](wire::out::CsvHeaderList& list) {
            for (const std::string& name : *d.csv->header_list) list.Add(name);
          });
        }
      });
    });
  }
  out.InputCompressionType(static_cast<wire::InputCompressionType>(d.input_compression_type));
  out.TableCreationParameters(
      [&](wire::out::TableCreationParameters& creation) { WriteCreation(creation, d.table); });
  out.StartTime(d.start_ms);
  if (d.import_status != ImportStatus::kInProgress) out.EndTime(d.end_ms);
  out.ProcessedSizeBytes(d.processed_size_bytes);
  out.ProcessedItemCount(d.processed_item_count);
  out.ImportedItemCount(d.imported_item_count);
  if (d.import_status == ImportStatus::kFailed) {
    out.FailureCode(d.failure_code);
    out.FailureMessage(d.failure_message);
  }
}

}  // namespace

Status ImportTable(Engine& engine, const wire::ImportTableInput& in, json::Writer& response) {
  ImportTableArgs args;
  args.client_token = Text(in.client_token);
  if (in.s3_bucket_source != nullptr) {
    wire::S3BucketSource source;
    wire::View(*in.s3_bucket_source, source);
    args.s3_bucket = std::string(source.s3_bucket);
    args.s3_bucket_owner = Text(source.s3_bucket_owner);
    args.s3_key_prefix = Text(source.s3_key_prefix);
  }
  args.input_format = FormatOf(in.input_format);
  if (in.input_format_options != nullptr) {
    wire::InputFormatOptions options;
    wire::View(*in.input_format_options, options);
    if (options.csv != nullptr) {
      wire::CsvOptions csv;
      wire::View(*options.csv, csv);
      CsvOptions& kept = args.csv.emplace();
      kept.delimiter = Text(csv.delimiter);
      if (csv.header_list != nullptr && csv.header_list->IsArray()) {
        auto& names = kept.header_list.emplace();
        for (const auto& name : csv.header_list->GetArray()) {
          if (name.IsString()) names.emplace_back(name.GetString(), name.GetStringLength());
        }
      }
    }
  }
  if (in.input_compression_type) {
    args.input_compression_type = *in.input_compression_type == "GZIP" ? InputCompressionType::kGzip
                                  : *in.input_compression_type == "ZSTD"
                                      ? InputCompressionType::kZstd
                                      : InputCompressionType::kNone;
  }
  if (in.table_creation_parameters != nullptr) {
    wire::TableCreationParameters creation;
    wire::View(*in.table_creation_parameters, creation);
    CreateTableArgs& table = args.table;
    table.table_name = std::string(creation.table_name);
    table.attribute_definitions = AttributeDefinitionsOf(creation.attribute_definitions);
    table.key_schema = KeySchemaOf(creation.key_schema);
    auto global = IndexesOf(creation.global_secondary_indexes, true);
    if (!global.ok()) return global.error();
    table.global_secondary_indexes = std::move(global).value();
    table.billing_mode = BillingModeOf(creation.billing_mode);
    table.provisioned_throughput = ProvisionedThroughputOf(creation.provisioned_throughput);
    table.on_demand_throughput = OnDemandThroughputOf(creation.on_demand_throughput);
    table.sse_specification = SseSpecificationOf(creation.sse_specification);
  }
  auto started = engine.ImportTable(args);
  if (!started.ok()) return started.error();
  wire::Write<wire::out::ImportTableOutput>(response, [&](auto& out) {
    out.ImportTableDescription(
        [&](wire::out::ImportTableDescription& d) { WriteImportDescription(d, started.value()); });
  });
  return Ok{};
}

Status DescribeImport(Engine& engine, const wire::DescribeImportInput& in, json::Writer& response) {
  auto described = engine.DescribeImport(std::string(in.import_arn));
  if (!described.ok()) return described.error();
  wire::Write<wire::out::DescribeImportOutput>(response, [&](auto& out) {
    out.ImportTableDescription([&](wire::out::ImportTableDescription& d) {
      WriteImportDescription(d, described.value());
    });
  });
  return Ok{};
}

Status ListImports(Engine& engine, const wire::ListImportsInput& in, json::Writer& response) {
  ListImportsArgs args;
  args.table_arn = Text(in.table_arn);
  args.page_size = in.page_size.value_or(0);
  args.next_token = Text(in.next_token);
  auto listed = engine.ListImports(args);
  if (!listed.ok()) return listed.error();
  wire::Write<wire::out::ListImportsOutput>(response, [&](auto& out) {
    out.ImportSummaryList([&](wire::out::ImportSummaryList& list) {
      for (const ImportSummary& summary : listed.value().imports) {
        list.Add([&](wire::out::ImportSummary& s) {
          s.ImportArn(summary.import_arn);
          s.ImportStatus(static_cast<wire::ImportStatus>(summary.import_status));
          s.TableArn(summary.table_arn);
          WriteSource(s, summary.s3_bucket, summary.s3_bucket_owner, summary.s3_key_prefix);
          s.InputFormat(static_cast<wire::InputFormat>(summary.input_format));
          s.StartTime(summary.start_ms);
          if (summary.import_status != ImportStatus::kInProgress) s.EndTime(summary.end_ms);
        });
      }
    });
    if (listed.value().next_token) out.NextToken(*listed.value().next_token);
  });
  return Ok{};
}

}  // namespace ddbd::operations
