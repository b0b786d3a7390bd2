#include "planner/service/service.h"

#include <httplib.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <mutex>
#include <optional>
#include <ostream>
#include <string_view>
#include <thread>

#include "planner/runtime/json_output.h"
#include "planner/service/request_decoder.h"
#include "planner/spark/spark_api.h"
#include "profiles/spark/history_api.h"
#include "planner/scoring/spark_scoring.h"
#include "planner/tuning/tune.h"
#include "planner/tuning/tune_json.h"
#include "profiles/spark/spark_store.h"

namespace perfplan::planner {
namespace {

HttpReply Error(const ApiError& e) { return {e.http_status, ToJson(e)}; }

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Decodes %XX (and '+' as a space in a query) in one path segment or query key or value. Clients
// (Python requests, curl --data-urlencode) escape ':' in dates as %3A. nullopt for a malformed
// escape, or for a decoded '/', '?', '&', '=' or '#', which would change the structure the
// routing sees (no real id, date or parameter value holds them).
std::optional<std::string> PercentDecode(std::string_view text, bool plus_is_space) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '+' && plus_is_space) {
      c = ' ';
    } else if (c == '%') {
      if (i + 2 >= text.size()) return std::nullopt;  // "%" or "%X" at the end
      const int hi = HexValue(text[i + 1]);
      const int lo = HexValue(text[i + 2]);
      if (hi < 0 || lo < 0) return std::nullopt;
      c = static_cast<char>(hi * 16 + lo);
      if (c == '/' || c == '?' || c == '&' || c == '=' || c == '#') return std::nullopt;
      i += 2;
    }
    out.push_back(c);
  }
  return out;
}

// The target with every path segment and query key/value percent-decoded; nullopt when one
// cannot be (PercentDecode).
std::optional<std::string> DecodeTarget(const std::string& target) {
  const std::size_t question = target.find('?');
  std::string out;
  std::string_view path = std::string_view(target).substr(0, question);
  for (std::size_t start = 0;;) {
    const std::size_t slash = path.find('/', start);
    auto segment = PercentDecode(path.substr(start, slash - start), false);
    if (!segment) return std::nullopt;
    out += *segment;
    if (slash == std::string_view::npos) break;
    out += '/';
    start = slash + 1;
  }
  if (question == std::string::npos) return out;
  out += '?';
  std::string_view query = std::string_view(target).substr(question + 1);
  for (std::size_t start = 0;;) {
    const std::size_t amp = query.find('&', start);
    const std::string_view pair = query.substr(start, amp - start);
    const std::size_t eq = pair.find('=');
    auto key = PercentDecode(pair.substr(0, eq), true);
    if (!key) return std::nullopt;
    out += *key;
    if (eq != std::string_view::npos) {
      auto value = PercentDecode(pair.substr(eq + 1), true);
      if (!value) return std::nullopt;
      out += '=' + *value;
    }
    if (amp == std::string_view::npos) break;
    out += '&';
    start = amp + 1;
  }
  return out;
}

HttpReply FromStatus(const Status& s) { return Error(ApiErrorFromStatus(s)); }

// Resolves the profile of a call: from the catalog by name, or parsed from the inline object.
const profiles::ProfileDocument* ResolveProfile(const Catalog& catalog,
                                                const std::string& application,
                                                const std::optional<std::string>& inline_profile,
                                                profiles::ProfileDocument* storage,
                                                std::optional<ApiError>* error) {
  if (inline_profile) {
    profiles::Loaded<profiles::ProfileDocument> doc =
        profiles::ParseProfile(*inline_profile, "request.profile");
    if (!doc.ok()) {
      const profiles::Problem& p = doc.problems.front();
      *error = ApiError{400, "invalid_field", profiles::FormatProblem(p),
                        p.field.empty() ? "profile" : "profile." + p.field};
      return nullptr;
    }
    *storage = std::move(doc.value);
    return storage;
  }
  const profiles::ProfileDocument* doc = catalog.FindProfile(application);
  if (!doc) {
    std::string message = "application: no profile named \"" + application + "\"";
    std::vector<std::string> names = catalog.Applications();
    const std::string suggestion =
        profiles::SuggestClosest(application, {names.begin(), names.end()});
    if (!suggestion.empty()) message += "; did you mean \"" + suggestion + "\"?";
    *error = ApiError{404, "not_found", message, "application"};
  }
  return doc;
}

HttpReply Predict(const Catalog& catalog, const std::string& body) {
  PredictCall call;
  if (auto e = DecodePredictCall(body, &call)) return Error(*e);
  profiles::ProfileDocument storage;
  std::optional<ApiError> error;
  const profiles::ProfileDocument* doc =
      ResolveProfile(catalog, call.application, call.inline_profile, &storage, &error);
  if (!doc) return Error(*error);
  if (!call.request.site.empty() && !catalog.topology()) {
    return Error(
        {400, "invalid_field", "site: the service was started without a topology", "site"});
  }
  Result<PredictAnswer> answer = AnswerPredict(*doc, catalog.topology(), call.request);
  if (!answer.ok()) return FromStatus(answer.status());
  return {200, ToJson(answer.value())};
}

HttpReply Select(const Catalog& catalog, const std::string& body) {
  SelectCall call;
  if (auto e = DecodeSelectCall(body, &call)) return Error(*e);
  if (!catalog.topology()) {
    return Error({404, "not_found", "the service was started without a topology", ""});
  }
  profiles::ProfileDocument storage;
  std::optional<ApiError> error;
  const profiles::ProfileDocument* doc =
      ResolveProfile(catalog, call.application, call.inline_profile, &storage, &error);
  if (!doc) return Error(*error);
  Result<SelectAnswer> answer = AnswerSelect(*doc, *catalog.topology(), call.request);
  if (!answer.ok()) return FromStatus(answer.status());
  return {200, ToJson(answer.value())};
}

HttpReply Plan(const Catalog& catalog, const std::string& body) {
  PlanCall call;
  if (auto e = DecodePlanCall(body, &call)) return Error(*e);
  if (!catalog.topology()) {
    return Error({404, "not_found", "the service was started without a topology", ""});
  }
  profiles::ProfileDocument storage;
  std::optional<ApiError> error;
  const profiles::ProfileDocument* doc =
      ResolveProfile(catalog, call.application, call.inline_profile, &storage, &error);
  if (!doc) return Error(*error);
  profiles::Loaded<profiles::PriceFile> prices;
  if (call.inline_prices) {
    prices = profiles::ParsePriceFile(*call.inline_prices, "request.prices");
    if (!prices.ok()) {
      const profiles::Problem& p = prices.problems.front();
      return Error({400, "invalid_field", profiles::FormatProblem(p),
                    p.field.empty() ? "prices" : "prices." + p.field});
    }
  }
  Result<PlanAnswer> answer = AnswerPlan(*doc, *catalog.topology(),
                                         call.inline_prices ? &prices.value : nullptr, call.request);
  if (!answer.ok()) return FromStatus(answer.status());
  return {200, ToJson(answer.value())};
}

// 503 when the store given at start has gone away since.
std::optional<ApiError> MissingStore(const ServiceOptions& options) {
  std::error_code ec;
  if (std::filesystem::is_regular_file(options.store_path, ec)) return std::nullopt;
  return ApiError{503, "unavailable", "the store " + options.store_path + " does not exist", ""};
}

// GET /api/v1/PATH[?query]: the History Server's answer from the Spark store.
HttpReply SparkHistory(const ServiceOptions& options, const std::string& rest) {
  if (options.store_path.empty()) {
    return Error(
        {404, "not_found", "/api/v1/ is served when the service is started with --store", ""});
  }
  if (auto e = MissingStore(options)) return Error(*e);
  Result<std::unique_ptr<profiles::Store>> store =
      profiles::Store::OpenReadOnly(options.store_path, {profiles::spark::StoreMigrations()});
  if (!store.ok()) return Error({503, "unavailable", store.status().message(), ""});
  Result<std::string> answer = profiles::spark::HistoryApi(*store.value(), rest);
  if (!answer.ok()) return FromStatus(answer.status());
  return {200, answer.value()};
}

// GET /v1/apps/{id}/score: the application's heuristic score against the store's history, the
// document `perfplan score APP --json` prints.
HttpReply AppScore(const ServiceOptions& options, const std::string& app_id) {
  if (options.store_path.empty()) {
    return Error({404, "not_found",
                  "/v1/apps/{id}/score is served when the service is started with --store", ""});
  }
  if (auto e = MissingStore(options)) return Error(*e);
  Result<std::vector<ScoreAnswer>> answer = AnswerScores(options.store_path, app_id);
  if (!answer.ok()) {
    ApiError e = ApiErrorFromStatus(answer.status());
    if (answer.status().code() == StatusCode::kNotFound) e.field = "id";
    return Error(e);
  }
  return {200, ToJson(answer.value().front())};
}

// The saved model of `workload` under models_dir, or an error. Workload names are plain file
// names: no path separators, so a request cannot reach outside the folder.
std::optional<ApiError> ModelFile(const ServiceOptions& options, const std::string& workload,
                                  std::string* file) {
  if (options.models_dir.empty()) {
    return ApiError{404, "not_found",
                    "the tuning endpoints are served when the service is started with --models",
                    ""};
  }
  if (workload.empty() ||
      workload.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOP"
                                 "QRSTUVWXYZ0123456789_.-") != std::string::npos ||
      workload[0] == '.') {
    return ApiError{400, "invalid_field",
                    "workload: expected letters, digits, '_', '-' or '.', got \"" + workload + "\"",
                    "workload"};
  }
  *file = options.models_dir + "/" + workload + ".model.json";
  std::error_code ec;
  if (!std::filesystem::is_regular_file(*file, ec)) {
    return ApiError{404, "not_found",
                    "workload: no model \"" + workload + "\" (expected " + *file + ")", "workload"};
  }
  return std::nullopt;
}

HttpReply TuningSensitivity(const ServiceOptions& options, const std::string& workload,
                            const std::string& query) {
  TuneModelSource source;
  if (auto e = ModelFile(options, workload, &source.model_file)) return Error(*e);
  tuning::SensitivityOptions settings;
  if (query.find("maximize=true") != std::string::npos) settings.goal = tuning::Goal::kMaximize;
  Result<tuning::Sensitivity> answer = AnswerTuneSensitivity(source, {}, settings);
  if (!answer.ok()) return FromStatus(answer.status());
  return {200, ToJson(answer.value())};
}

HttpReply TuningRecommend(const ServiceOptions& options, const std::string& body) {
  RecommendCall call;
  if (auto e = DecodeRecommendCall(body, &call)) return Error(*e);
  TuneModelSource source;
  if (auto e = ModelFile(options, call.workload, &source.model_file)) return Error(*e);
  tuning::RecommendOptions settings;
  settings.goal = call.maximize ? tuning::Goal::kMaximize : tuning::Goal::kMinimize;
  settings.samples = call.samples;
  settings.seed = call.seed;
  settings.constraints = call.constraints;
  settings.fixed = call.fixed;
  Result<tuning::Recommendation> answer = AnswerTuneRecommend(source, settings);
  if (!answer.ok()) return FromStatus(answer.status());
  return {200, ToJson(answer.value())};
}

std::string HealthJson(const Catalog& catalog) {
  std::string apps;
  for (const std::string& a : catalog.Applications()) {
    apps += (apps.empty() ? "\"" : ", \"") + a + "\"";
  }
  return std::string("{\"status\": \"ok\", \"applications\": [") + apps +
         "], \"topology\": " + (catalog.topology() ? "true" : "false") + "}\n";
}

}  // namespace

Status ServiceOptions::Validate() const {
  if (host.empty()) return Status::InvalidField("host", "must not be empty");
  if (port < 0 || port > 65535) {
    return Status::InvalidField("port", "must be 0..65535, got " + std::to_string(port));
  }
  if (max_body_bytes == 0) return Status::InvalidField("max_body_bytes", "must be > 0, got 0");
  if (read_timeout_seconds <= 0 || write_timeout_seconds <= 0) {
    return Status::InvalidArgument("read_timeout_seconds and write_timeout_seconds: must be > 0");
  }
  if (keep_alive_timeout_seconds < 1 || keep_alive_timeout_seconds > 3600) {
    return Status::InvalidArgument("keep_alive_timeout_seconds: must be 1..3600, got " +
                                   std::to_string(keep_alive_timeout_seconds));
  }
  if (threads < 1) {
    return Status::InvalidField("threads", "must be >= 1, got " + std::to_string(threads));
  }
  std::error_code ec;
  if (!store_path.empty() && !std::filesystem::is_regular_file(store_path, ec)) {
    return Status::InvalidField("store", "no such file " + store_path);
  }
  if (!models_dir.empty() && !std::filesystem::is_directory(models_dir, ec)) {
    return Status::InvalidField("models", "no such folder " + models_dir);
  }
  return Status::Ok();
}

bool ConstantTimeEquals(const std::string& a, const std::string& b) {
  unsigned char diff = a.size() == b.size() ? 0 : 1;
  const std::size_t n = std::max(a.size(), b.size());
  for (std::size_t i = 0; i < n; ++i) {
    const unsigned char x = i < a.size() ? static_cast<unsigned char>(a[i]) : 0;
    const unsigned char y = i < b.size() ? static_cast<unsigned char>(b[i]) : 0;
    diff |= x ^ y;
  }
  return diff == 0;
}

HttpReply HandleRequest(const Catalog& catalog, const ServiceOptions& options,
                        const std::string& method, const std::string& raw_target,
                        const std::string& authorization, const std::string& body) {
  const std::optional<std::string> decoded = DecodeTarget(raw_target);
  if (!decoded) {
    return Error({400, "bad_request",
                  "malformed percent-encoding in the request target (or an escaped '/', '?', "
                  "'&', '=' or '#')",
                  ""});
  }
  const std::string& target = *decoded;
  const std::size_t question = target.find('?');
  const std::string path = target.substr(0, question);
  const std::string query = question == std::string::npos ? "" : target.substr(question + 1);
  const bool health = path == "/v1/health";
  if (!options.token.empty() && !health) {
    const std::string prefix = "Bearer ";
    const bool ok = authorization.rfind(prefix, 0) == 0 &&
                    ConstantTimeEquals(authorization.substr(prefix.size()), options.token);
    if (!ok) {
      return Error({401, "unauthorized",
                    authorization.empty() ? "missing \"Authorization: Bearer <token>\" header"
                                          : "wrong bearer token",
                    ""});
    }
  }
  auto only = [&](const char* allowed) -> std::optional<HttpReply> {
    if (method == allowed) return std::nullopt;
    // HEAD is GET without the body (httplib routes it to the GET handler and drops the body).
    if (method == "HEAD" && std::string_view(allowed) == "GET") return std::nullopt;
    return Error({405, "method_not_allowed", path + " accepts " + allowed + ", not " + method, ""});
  };
  // /v1/tuning/{workload}/sensitivity
  const std::string tuning_prefix = "/v1/tuning/", sensitivity_suffix = "/sensitivity";
  if (path.rfind(tuning_prefix, 0) == 0 &&
      path.size() > tuning_prefix.size() + sensitivity_suffix.size() &&
      path.compare(path.size() - sensitivity_suffix.size(), sensitivity_suffix.size(),
                   sensitivity_suffix) == 0) {
    if (auto e = only("GET")) return *e;
    return TuningSensitivity(options,
                             path.substr(tuning_prefix.size(), path.size() - tuning_prefix.size() -
                                                                   sensitivity_suffix.size()),
                             query);
  }
  // /v1/apps/{id}/score
  const std::string apps_prefix = "/v1/apps/", score_suffix = "/score";
  if (path.rfind(apps_prefix, 0) == 0 && path.size() > apps_prefix.size() + score_suffix.size() &&
      path.compare(path.size() - score_suffix.size(), score_suffix.size(), score_suffix) == 0) {
    const std::string id =
        path.substr(apps_prefix.size(), path.size() - apps_prefix.size() - score_suffix.size());
    if (id.find('/') == std::string::npos) {
      if (auto e = only("GET")) return *e;
      return AppScore(options, id);
    }
  }
  if (path.rfind("/api/v1/", 0) == 0) {
    if (auto e = only("GET")) return *e;
    return SparkHistory(options, target.substr(8));
  }
  if (path == "/v1/health") {
    if (auto e = only("GET")) return *e;
    return {200, HealthJson(catalog)};
  }
  if (path == "/v1/predict") {
    if (auto e = only("POST")) return *e;
    return Predict(catalog, body);
  }
  if (path == "/v1/select") {
    if (auto e = only("POST")) return *e;
    return Select(catalog, body);
  }
  if (path == "/v1/plan") {
    if (auto e = only("POST")) return *e;
    return Plan(catalog, body);
  }
  if (path == "/v1/tuning/recommend") {
    if (auto e = only("POST")) return *e;
    return TuningRecommend(options, body);
  }
  return Error({404, "not_found", "no endpoint " + path + "; see docs/openapi.json", ""});
}

struct Service::Impl {
  Catalog catalog;
  ServiceOptions options;
  std::ostream* access_log = nullptr;
  std::mutex log_mu;
  httplib::Server server;
  std::thread thread;
  int port = 0;
  std::mutex stop_mu;

  void Log(const httplib::Request& req, const httplib::Response& res,
           std::chrono::steady_clock::time_point start) {
    if (!access_log) return;
    const auto micros = std::chrono::duration_cast<std::chrono::microseconds>(
                            std::chrono::steady_clock::now() - start)
                            .count();
    // ISO 8601 UTC with milliseconds, then client, "METHOD TARGET" (path and query as sent),
    // status, body bytes and duration.
    const auto now = std::chrono::system_clock::now();
    const std::time_t seconds = std::chrono::system_clock::to_time_t(now);
    const long long millis =
        std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() %
        1000;
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    char stamp[40];
    std::snprintf(stamp, sizeof stamp, "%04d-%02d-%02dT%02d:%02d:%02d.%03lldZ", utc.tm_year + 1900,
                  utc.tm_mon + 1, utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec, millis);
    std::lock_guard<std::mutex> lock(log_mu);
    *access_log << stamp << " " << req.remote_addr << " \"" << req.method << " " << req.target
                << "\" " << res.status << " " << res.body.size() << " " << micros << "us\n"
                << std::flush;
  }

  void Serve(const httplib::Request& req, httplib::Response& res) {
    const auto start = std::chrono::steady_clock::now();
    HttpReply reply = HandleRequest(catalog, options, req.method, req.target,
                                    req.get_header_value("Authorization"), req.body);
    res.status = reply.status;
    res.set_content(reply.body, "application/json");
    Log(req, res, start);
  }
};

Service::Service(Catalog catalog, ServiceOptions options, std::ostream* access_log)
    : impl_(std::make_unique<Impl>()) {
  impl_->catalog = std::move(catalog);
  impl_->options = std::move(options);
  impl_->access_log = access_log;
}

Service::~Service() { Stop(); }

Status Service::Start() {
  if (Status s = impl_->options.Validate(); !s.ok()) return s;
  Impl* impl = impl_.get();
  httplib::Server& server = impl->server;
  const int threads = impl->options.threads;
  server.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  server.set_payload_max_length(impl->options.max_body_bytes);
  server.set_read_timeout(impl->options.read_timeout_seconds, 0);
  server.set_write_timeout(impl->options.write_timeout_seconds, 0);
  auto handler = [impl](const httplib::Request& req, httplib::Response& res) {
    impl->Serve(req, res);
  };
  server.set_keep_alive_max_count(10000);
  // An idle keep-alive connection holds a worker thread: let it go soon (httplib's default 5 s
  // let eight idle clients hold every worker of the default pool).
  server.set_keep_alive_timeout(impl->options.keep_alive_timeout_seconds);
  // Answers are small and written in pieces: without TCP_NODELAY, Nagle plus delayed ACKs add
  // ~40 ms to every keep-alive request.
  server.set_tcp_nodelay(true);
  // httplib's default adds SO_REUSEPORT, which lets a second server bind the same port and
  // silently take half the traffic; keep only SO_REUSEADDR (quick restarts).
  server.set_socket_options([](socket_t sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, reinterpret_cast<const void*>(&yes), sizeof yes);
  });
  // Every method and path goes through HandleRequest, which owns routing and its errors.
  const std::string any_path = ".*";
  server.Get(any_path, handler);
  server.Post(any_path, handler);
  server.Put(any_path, handler);
  server.Delete(any_path, handler);
  server.Patch(any_path, handler);
  // Errors httplib raises itself (oversized body, malformed HTTP) get a JSON body too.
  server.set_error_handler([impl](const httplib::Request& req, httplib::Response& res) {
    if (!res.body.empty()) return;
    ApiError e{res.status, res.status == 413 ? "payload_too_large" : "invalid_request",
               res.status == 413
                   ? "the request body is larger than " +
                         std::to_string(impl->options.max_body_bytes) + " bytes"
                   : "the request could not be read (HTTP " + std::to_string(res.status) + ")",
               ""};
    res.set_content(ToJson(e), "application/json");
    impl->Log(req, res, std::chrono::steady_clock::now());
  });
  server.set_exception_handler([impl](const httplib::Request& req, httplib::Response& res,
                                      std::exception_ptr) {
    res.status = 500;
    res.set_content(ToJson(ApiError{500, "internal", "internal error", ""}), "application/json");
    impl->Log(req, res, std::chrono::steady_clock::now());
  });

  if (impl->options.port == 0) {
    impl->port = server.bind_to_any_port(impl->options.host);
  } else {
    impl->port =
        server.bind_to_port(impl->options.host, impl->options.port) ? impl->options.port : -1;
  }
  if (impl->port <= 0) {
    return Status::Failed("cannot listen on " + impl->options.host + ":" +
                          std::to_string(impl->options.port) +
                          " (address in use, or not an address of this machine)");
  }
  impl->thread = std::thread([impl] { impl->server.listen_after_bind(); });
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (!server.is_running()) {
    if (std::chrono::steady_clock::now() > deadline) {
      Stop();
      return Status::Failed("the server did not start listening within 5 s");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return Status::Ok();
}

void Service::Stop() {
  std::lock_guard<std::mutex> lock(impl_->stop_mu);
  if (impl_->server.is_running()) impl_->server.stop();
  if (impl_->thread.joinable()) impl_->thread.join();
}

int Service::port() const { return impl_->port; }

const char* HttpLibraryVersion() { return CPPHTTPLIB_VERSION; }

}  // namespace perfplan::planner
