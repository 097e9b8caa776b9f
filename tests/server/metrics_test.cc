#include "server/metrics.h"

#include <catch2/catch.hpp>
#include <string>

#include "engine/engine.h"
#include "server/access_log.h"
#include "server/router.h"

namespace ddbd {
namespace {

TEST_CASE("Metrics name known operations and put every other target under unknown") {
  CHECK(Metrics::OperationOf("DynamoDB_20120810.GetItem") == "GetItem");
  CHECK(Metrics::OperationOf("DynamoDB_20120810.UpdateTimeToLive") == "UpdateTimeToLive");
  CHECK(Metrics::OperationOf("DynamoDB_20120810.BatchExecuteStatement") == "BatchExecuteStatement");
  CHECK(Metrics::OperationOf("DynamoDBStreams_20120810.GetRecords") == "GetRecords");
  CHECK(Metrics::OperationOf("DynamoDB_20120810.GetRecords") == "unknown");
  CHECK(Metrics::OperationOf("DynamoDB_20120810.Made\"Up") == "unknown");
  CHECK(Metrics::OperationOf("") == "unknown");
  CHECK(Metrics::OperationOf("DynamoDB_20111205.GetItem") == "unknown");
}

TEST_CASE("Metrics read an error's type without its namespace") {
  CHECK(Metrics::ErrorTypeOf(
            R"({"__type":"com.amazonaws.dynamodb.v20120810#ValidationException","message":"x"})") ==
        "ValidationException");
  CHECK(Metrics::ErrorTypeOf(R"({"__type":"com.amazon.coral.service#SerializationException"})") ==
        "SerializationException");
  CHECK(Metrics::ErrorTypeOf("<UnknownOperationException/>") == "unknown");
}

TEST_CASE("Metrics count requests, errors and latency buckets") {
  Metrics metrics;
  metrics.RecordRequest("DynamoDB_20120810.PutItem", 200, "{}", 200'000);        // 0.2 ms
  metrics.RecordRequest("DynamoDB_20120810.PutItem", 200, "{}", 3'000'000'000);  // 3 s
  metrics.RecordRequest("DynamoDB_20120810.PutItem", 400,
                        R"({"__type":"com.amazonaws.dynamodb.v20120810#ValidationException"})", 1);
  metrics.RecordRequest("Nope", 404, "<UnknownOperationException/>\n", 1);
  metrics.ConnectionOpened();
  metrics.ConnectionOpened();
  metrics.ConnectionClosed();
  const std::string text = metrics.Render({});
  CHECK_THAT(text, Catch::Contains("ddbd_requests_total{operation=\"PutItem\"} 3\n"));
  CHECK_THAT(text, Catch::Contains("ddbd_requests_total{operation=\"unknown\"} 1\n"));
  CHECK_THAT(text, Catch::Contains("ddbd_request_errors_total{operation=\"PutItem\",error="
                                   "\"ValidationException\"} 1\n"));
  CHECK_THAT(text, Catch::Contains("ddbd_request_errors_total{operation=\"unknown\",error="
                                   "\"UnknownOperationException\"} 1\n"));
  // Cumulative buckets: 1 ns and 0.2 ms by 0.00025; all three by +Inf; the 3 s one past 1.
  CHECK_THAT(text,
             Catch::Contains(
                 "ddbd_request_duration_seconds_bucket{operation=\"PutItem\",le=\"0.0001\"} 1\n"));
  CHECK_THAT(text,
             Catch::Contains(
                 "ddbd_request_duration_seconds_bucket{operation=\"PutItem\",le=\"0.00025\"} 2\n"));
  CHECK_THAT(text, Catch::Contains(
                       "ddbd_request_duration_seconds_bucket{operation=\"PutItem\",le=\"1\"} 2\n"));
  CHECK_THAT(text,
             Catch::Contains(
                 "ddbd_request_duration_seconds_bucket{operation=\"PutItem\",le=\"+Inf\"} 3\n"));
  CHECK_THAT(text,
             Catch::Contains("ddbd_request_duration_seconds_count{operation=\"PutItem\"} 3\n"));
  CHECK_THAT(text, Catch::Contains("ddbd_connections_open 1\n"));
  CHECK_THAT(text, Catch::Contains("ddbd_connections_total 2\n"));
  CHECK_THAT(text, !Catch::Contains("operation=\"GetItem\""));  // nothing for idle operations
}

TEST_CASE("Metrics render every database's tables, labelled by namespace when there are several") {
  ManualClock clock;
  Engine engine({}, clock);
  CreateTableArgs table;
  table.table_name = "Orders";
  table.attribute_definitions = {{"pk", ScalarAttributeType::kS}};
  table.key_schema = {{"pk", KeyType::kHash}};
  table.billing_mode = BillingMode::kPayPerRequest;
  REQUIRE(engine.CreateTable(table).ok());
  PutItemArgs put;
  put.table_name = "Orders";
  put.item = Item{{"pk", AttributeValue::String("a")}};
  REQUIRE(engine.PutItem(put).ok());
  RequestHandler::NamedStatistics databases;
  databases.emplace_back("AKID/eu-west-1", engine.Statistics());
  databases.emplace_back("a\"b\\c", engine.Statistics());
  const std::string text = Metrics().Render(databases);
  CHECK_THAT(
      text, Catch::Contains("ddbd_table_items{namespace=\"AKID/eu-west-1\",table=\"Orders\"} 1\n"));
  CHECK_THAT(text,
             Catch::Contains("ddbd_table_items{namespace=\"a\\\"b\\\\c\",table=\"Orders\"} 1\n"));
  CHECK_THAT(text, Catch::Contains("ddbd_consumed_write_capacity_units_total{namespace=\"AKID/"
                                   "eu-west-1\",table=\"Orders\",index=\"\"} 1\n"));
  CHECK_THAT(text, Catch::Contains("ddbd_item_changes_total{namespace=\"AKID/eu-west-1\",table="
                                   "\"Orders\",kind=\"insert\"} 1\n"));
  CHECK_THAT(text, !Catch::Contains("ddbd_log_bytes"));  // memory only: no store figures
}

TEST_CASE("The router serves GET /metrics and counts what it dispatched") {
  ManualClock clock;
  Engine engine({}, clock);
  Dispatcher dispatcher(engine);
  Metrics metrics;
  RouterOptions options;
  options.metrics = &metrics;
  Router router(dispatcher, options);
  HttpRequest post;
  post.method = "POST";
  post.path = "/";
  post.content_type = "application/x-amz-json-1.0";
  post.amz_target = "DynamoDB_20120810.ListTables";
  post.body = "{}";
  CHECK(router.Route(post).status == 400);  // no Authorization: MissingAuthenticationToken
  HttpRequest scrape;
  scrape.method = "GET";
  scrape.path = "/metrics";
  const HttpResponse answer = router.Route(scrape);
  CHECK(answer.status == 200);
  CHECK_THAT(answer.body, Catch::Contains("ddbd_request_errors_total{operation=\"ListTables\","
                                          "error=\"MissingAuthenticationTokenException\"} 1\n"));
}

TEST_CASE("Access log lines are JSON with escaped strings") {
  AccessRecord record;
  record.time_ms = 1'764'110'401'123;
  record.request_id = "ID";
  record.operation = "PutItem";
  record.table = "a\"b\\c\n";
  record.status = 400;
  record.error = "ValidationException";
  record.latency_ms = 0.0415;
  CHECK(
      AccessLog::Line(record) ==
      R"({"time":"2025-11-25T22:40:01.123Z","request_id":"ID","operation":"PutItem",)"
      R"("table":"a\"b\\c\u000a","status":400,"error":"ValidationException","latency_ms":0.042})");
  record.consumed_capacity = 0.5;
  CHECK_THAT(AccessLog::Line(record),
             Catch::EndsWith(R"("latency_ms":0.042,"consumed_capacity":0.5})"));
  // A name the client sent need not be UTF-8: bytes past ASCII are escaped, so the line stays
  // valid JSON (the same escaping as --log-format json, server/json_line.h).
  record.table = "T\xff\xc3";
  CHECK_THAT(AccessLog::Line(record), Catch::Contains(R"("table":"T\u00ff\u00c3")"));
}

}  // namespace
}  // namespace ddbd
