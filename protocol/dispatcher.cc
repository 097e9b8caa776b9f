#include "protocol/dispatcher.h"

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>

#include <future>
#include <limits>

#include "engine/engine.h"
#include "protocol/error_response.h"
#include "protocol/insights_report.h"
#include "protocol/item_lines.h"
#include "protocol/json_parse.h"
#include "protocol/json_writer.h"
#include "protocol/operations/operations.h"
#include "protocol/operations/table.h"
#include "protocol/table_decode.h"
#include "protocol/whole_numbers.h"

namespace ddbd {
namespace {

Error UnknownOperation() { return {ErrorCode::kUnknownOperation, ""}; }

}  // namespace

namespace {

// DynamoDB's checks in its order (body syntax, target, authentication, body shape) for
// `operation` (null when the target names none): true, or false with the refusal in `refused`.
bool Accept(const operations::Operation* operation, std::string& body, const RequestInfo& info,
            rapidjson::Document& document, DispatchResult& refused) {
  if (!body.empty() && !json::ParseInPlace(body, document)) {  // protocol/json_parse.h
    refused = ErrorResponse(Error::Serialization(""));
    return false;
  }
  if (operation == nullptr) {
    refused = ErrorResponse(UnknownOperation());
    return false;
  }
  if (!info.has_authorization) {
    refused = ErrorResponse(
        {ErrorCode::kMissingAuthenticationToken, "Request is missing Authentication Token"});
    return false;
  }
  if (!info.authentication.ok()) {
    refused = ErrorResponse(info.authentication.error());
    return false;
  }
  if (body.empty() || !document.IsObject()) {
    refused = ErrorResponse(Error::Serialization(""));
    return false;
  }
  return true;
}

// `write(writer)` writes the answer or returns the error.
template <typename Write>
DispatchResult Answer(const Write& write) {
  // Room for most answers up front: growing from RapidJSON's 256 bytes by half each time cost
  // several reallocations and copies per Query page.
  json::Buffer buffer(nullptr, 16 * 1024);
  json::Writer writer(buffer);
  Status status = write(writer);
  if (!status.ok()) return ErrorResponse(status.error());
  return {200, std::string(buffer.GetString(), buffer.GetSize())};
}

DispatchResult RunNow(const operations::Handler handler, Engine& engine,
                      const rapidjson::Document& document) {
  return Answer([&](json::Writer& writer) { return handler(engine, document, writer); });
}

}  // namespace

// An answer that changed anything goes out once its change is durable: its ticket says which
// record that is, and the log's thread answers it then; the calling thread goes on meanwhile.
void operations::Answer(Engine& engine, const DispatchDone& done, DispatchResult result,
                        Ticket ticket) {
  if (!ticket.pending()) return done(std::move(result));  // nothing logged
  engine.WhenDurable(ticket, [done, result = std::move(result)](const Status& status) mutable {
    done(status.ok() ? std::move(result) : Dispatcher::InternalServerError());
  });
}

DispatchResult Dispatcher::Handle(std::string_view target, std::string_view body,
                                  const RequestInfo& info) const {
  // Waited for (tests, the fuzzer): whatever answers later, or once durable.
  std::promise<DispatchResult> answered;
  HandleAsync(target, std::string(body), info,
              [&answered](DispatchResult result) { answered.set_value(std::move(result)); });
  return answered.get_future().get();
}

void Dispatcher::HandleAsync(std::string_view target, std::string body, const RequestInfo& info,
                             const DispatchDone& done) const {
  const operations::Operation* operation = operations::Find(target);
  // Taken before the body is parsed in place: the bytes as sent.
  const uint64_t fingerprint =
      operation != nullptr && operation->async != nullptr ? std::hash<std::string>{}(body) : 0;
  // Read before the body is parsed in place; answered where the body's shape is (after Accept).
  const std::optional<std::string> fraction =
      operation != nullptr ? FractionWhereIntegerGoes(target.substr(target.find('.') + 1), body)
                           : std::nullopt;
  rapidjson::Document document;
  DispatchResult refused;
  if (!Accept(operation, body, info, document, refused)) return done(std::move(refused));
  if (fraction) return done(ErrorResponse(Error::Serialization(*fraction)));
  if (operation->with_info != nullptr) {  // reads nothing the log holds: answered at once
    return done(Answer([&](json::Writer& writer) {
      return operation->with_info(engine_, info, document, writer);
    }));
  }
  if (operation->handler != nullptr) return done(RunNow(operation->handler, engine_, document));
  // A log that cannot be written (a full disk) refuses writes until it can again: what was
  // changed before waits to be logged, nothing more is changed meanwhile.
  if (engine_.persistent() && engine_.log_failing()) return done(InternalServerError());
  if (operation->write != nullptr) {
    Ticket ticket;
    DispatchResult result = Answer(
        [&](json::Writer& writer) { return operation->write(engine_, document, writer, ticket); });
    return operations::Answer(engine_, done, std::move(result), ticket);
  }
  operation->async(engine_, document, fingerprint, done);
}

std::string Dispatcher::Unhealthy() const { return engine_.StoreHealth(); }

size_t Dispatcher::SweepExpiredItems() const {
  // Everything due: the sweep itself holds a table for a few dozen deletes at a time.
  return engine_.SweepExpiredItems(std::numeric_limits<size_t>::max());
}

DispatchResult Dispatcher::ContributorInsightsReport(std::string_view table_name, size_t top,
                                                     const RequestInfo&) const {
  const std::string name = TableNameOf(engine_, table_name);  // a name or one of our ARNs
  auto reports = engine_.ContributorInsightsReports(name, top);
  if (!reports.ok()) return ErrorResponse(reports.error());
  return {200, InsightsReportJson(name, reports.value())};
}

RequestHandler::NamedStatistics Dispatcher::Statistics() const {
  NamedStatistics named;
  named.emplace_back(std::string(), engine_.Statistics());
  return named;
}

DispatchResult Dispatcher::InternalServerError() {
  return ErrorResponse(Error::Internal("Internal server error"));
}

Dispatcher::Dispatcher(Engine& engine) : engine_(engine) { engine.UseItemLines(NewItemLines()); }

}  // namespace ddbd
