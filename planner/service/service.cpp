#include "planner/service/service.h"

#include <pthread.h>

#include <array>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <ostream>
#include <string_view>
#include <thread>

#include "planner/plan/combined_plan.h"
#include "planner/plan/plan_runs.h"
#include "planner/plan/spark_plan.h"
#include "planner/runtime/json_output.h"
#include "planner/service/http_server.h"
#include "planner/service/request_decoder.h"
#include "planner/spark/spark_api.h"
#include "profiles/spark/history_api.h"
#include "planner/scoring/spark_scoring.h"
#include "planner/tuning/tune.h"
#include "planner/tuning/tune_json.h"
#include "profiles/spark/spark_store.h"

namespace perfplan::planner {
namespace {

// A /v1/predict body up to this size is answered on the I/O thread (HttpCallbacks::answer_inline).
constexpr std::size_t kInlineBodyBytes = 16 << 10;

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

enum class TopologyUse { kOptional, kRequired };

// A document given inline in a request body ("profile", "prices", "runs_csv") that does not
// parse: 400 naming its first problem, the field under the request field ("prices.currency").
template <typename T>
std::optional<ApiError> InlineProblem(const profiles::Loaded<T>& parsed, const std::string& field) {
  if (parsed.ok()) return std::nullopt;
  const profiles::Problem& p = parsed.problems.front();
  return ApiError{400, "invalid_field", profiles::FormatProblem(p),
                  p.field.empty() ? field : field + "." + p.field};
}

// Resolves the profile of a call into *doc: from the catalog by name, or parsed from the inline
// object into *storage. Returns the error to answer with instead; with TopologyUse::kRequired, a
// 404 first when the service was started without a topology.
template <typename Call>
std::optional<ApiError> ResolveProfile(const Catalog& catalog, const Call& call,
                                       TopologyUse topology, profiles::ProfileDocument* storage,
                                       const profiles::ProfileDocument** doc) {
  if (topology == TopologyUse::kRequired && !catalog.topology()) {
    return ApiError{404, "not_found", "the service was started without a topology", ""};
  }
  if (call.inline_profile) {
    profiles::Loaded<profiles::ProfileDocument> parsed =
        profiles::ParseProfile(*call.inline_profile, "request.profile");
    if (auto e = InlineProblem(parsed, "profile")) return e;
    *storage = std::move(parsed.value);
    *doc = storage;
    return std::nullopt;
  }
  *doc = catalog.FindProfile(call.application);
  if (*doc) return std::nullopt;
  std::string message = "application: no profile named \"" + call.application + "\"";
  std::vector<std::string> names = catalog.Applications();
  const std::string suggestion =
      profiles::SuggestClosest(call.application, {names.begin(), names.end()});
  if (!suggestion.empty()) message += "; did you mean \"" + suggestion + "\"?";
  return ApiError{404, "not_found", message, "application"};
}

// A call on one profile: decodes `body` into a Call, resolves its profile, and answers 200 with
// the JSON of answer(profile, call), or with the first error.
template <typename Call, typename Answer>
HttpReply AnswerOnProfile(const Catalog& catalog, const std::string& body,
                          std::optional<ApiError> (*decode)(std::string_view, Call*),
                          TopologyUse topology, const Answer& answer) {
  Call call;
  if (auto e = decode(body, &call)) return Error(*e);
  profiles::ProfileDocument storage;
  const profiles::ProfileDocument* doc = nullptr;
  if (auto e = ResolveProfile(catalog, call, topology, &storage, &doc)) return Error(*e);
  auto result = answer(*doc, call);
  if (!result.ok()) return FromStatus(result.status());
  return {200, ToJson(result.value())};
}

HttpReply Predict(const Catalog& catalog, const std::string& body) {
  return AnswerOnProfile(
      catalog, body, DecodePredictCall, TopologyUse::kOptional,
      [&](const profiles::ProfileDocument& doc, const PredictCall& call) -> Result<PredictAnswer> {
        if (!call.request.site.empty() && !catalog.topology()) {
          return Status::InvalidField("site", "the service was started without a topology");
        }
        return AnswerPredict(doc, catalog.topology(), call.request);
      });
}

HttpReply Select(const Catalog& catalog, const std::string& body) {
  return AnswerOnProfile(catalog, body, DecodeSelectCall, TopologyUse::kRequired,
                         [&](const profiles::ProfileDocument& doc, const SelectCall& call) {
                           return AnswerSelect(doc, *catalog.topology(), call.request);
                         });
}

// 503 when the store given at start has gone away since.
std::optional<ApiError> MissingStore(const ServiceOptions& options) {
  std::error_code ec;
  if (std::filesystem::is_regular_file(options.store_path, ec)) return std::nullopt;
  return ApiError{503, "unavailable", "the store " + options.store_path + " does not exist", ""};
}

// POST /v1/plan with "spark_app": the plan of a Spark application in the served store, the
// document `perfplan plan --store DB --app NAME --json` prints (AnswerSparkPlan, which also
// refuses prices, a budget and sites with the field named).
// The served store for a "spark_app" plan: 404 without --store, 503 when it has gone away.
std::optional<ApiError> UseServedStore(const ServiceOptions& options, PlanCall* call) {
  if (options.store_path.empty()) {
    return ApiError{404, "not_found",
                    "\"spark_app\" plans are served when the service is started with --store",
                    "spark_app"};
  }
  if (auto e = MissingStore(options)) return e;
  call->request.store_path = options.store_path;
  return std::nullopt;
}

HttpReply SparkPlan(const ServiceOptions& options, PlanCall call) {
  if (auto e = UseServedStore(options, &call)) return Error(*e);
  if (call.inline_prices) call.request.price_file = "request.prices";
  if (Status s = call.request.Validate(); !s.ok()) return FromStatus(s);
  Result<SparkPlanAnswer> answer = AnswerSparkPlan(call.request);
  if (!answer.ok()) return FromStatus(answer.status());
  return {200, ToJson(answer.value())};
}

HttpReply Plan(const ServiceOptions& options, const Catalog& catalog, const std::string& body) {
  PlanCall call;
  if (auto e = DecodePlanCall(body, &call)) return Error(*e);
  const bool with_profile = !call.application.empty() || call.inline_profile.has_value();
  const bool with_runs = call.inline_runs.has_value();
  const bool with_spark = !call.request.app.empty();
  if (with_spark && !with_profile && !with_runs) return SparkPlan(options, std::move(call));
  if (with_spark) {
    if (auto e = UseServedStore(options, &call)) return Error(*e);
  }
  profiles::ProfileDocument storage;
  const profiles::ProfileDocument* doc = nullptr;
  if (with_profile) {
    if (auto e = ResolveProfile(catalog, call, TopologyUse::kRequired, &storage, &doc)) {
      return Error(*e);
    }
  }
  profiles::Loaded<profiles::RunsTable> runs;
  if (with_runs) {
    runs = profiles::ParseRunsCsv(*call.inline_runs, call.request.runs_file);
    if (auto e = InlineProblem(runs, "runs_csv")) return Error(*e);
  }
  profiles::Loaded<profiles::PriceFile> prices;
  if (call.inline_prices) {
    prices = profiles::ParsePriceFile(*call.inline_prices, "request.prices");
    if (auto e = InlineProblem(prices, "prices")) return Error(*e);
  }
  const profiles::PriceFile* price_list = call.inline_prices ? &prices.value : nullptr;
  if (with_profile + with_runs + with_spark >= 2) {
    // `perfplan plan` over the served (or inline) profile, the inline runs CSV and the served
    // store's application, whichever are given.
    Result<CombinedPlanAnswer> answer = AnswerCombinedPlan(
        call.request, {doc, doc ? catalog.topology() : nullptr,
                       with_runs ? &runs.value : nullptr, price_list});
    if (!answer.ok()) return FromStatus(answer.status());
    return {200, ToJson(answer.value())};
  }
  Result<PlanAnswer> answer = with_runs
                                  ? AnswerPlan(runs.value, price_list, call.request)
                                  : AnswerPlan(*doc, *catalog.topology(), price_list, call.request);
  if (!answer.ok()) return FromStatus(answer.status());
  return {200, ToJson(answer.value())};
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
  settings.max_failure_probability = call.max_failure_probability;
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
  if (header_timeout_seconds < 1 || header_timeout_seconds > 3600) {
    return Status::InvalidField("header_timeout_seconds",
                                "must be 1..3600, got " + std::to_string(header_timeout_seconds));
  }
  if (max_connections < 1 || max_connections > 1000000) {
    return Status::InvalidField("max_connections",
                                "must be 1..1000000, got " + std::to_string(max_connections));
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

std::optional<HttpReply> Authorize(const ServiceOptions& options, const std::string& path,
                                   const std::string& authorization) {
  if (options.token.empty() || path == "/v1/health") return std::nullopt;
  const std::string prefix = "Bearer ";
  const bool ok = authorization.rfind(prefix, 0) == 0 &&
                  ConstantTimeEquals(authorization.substr(prefix.size()), options.token);
  if (ok) return std::nullopt;
  return Error({401, "unauthorized",
                authorization.empty() ? "missing \"Authorization: Bearer <token>\" header"
                                      : "wrong bearer token",
                ""});
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
  if (auto refusal = Authorize(options, path, authorization)) return *refusal;
  auto only = [&](const char* allowed) -> std::optional<HttpReply> {
    if (method == allowed) return std::nullopt;
    // HEAD is GET without the body (the server sends the headers only).
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
    return Plan(options, catalog, body);
  }
  if (path == "/v1/tuning/recommend") {
    if (auto e = only("POST")) return *e;
    return TuningRecommend(options, body);
  }
  return Error({404, "not_found", "no endpoint " + path + "; see docs/openapi.json", ""});
}

namespace {

// The route label of a path for /metrics: a fixed set, so clients cannot grow the series.
std::string RouteOf(const std::string& path) {
  static const char* kExact[] = {"/v1/health", "/v1/predict", "/v1/select", "/v1/plan",
                                 "/v1/tuning/recommend", "/metrics"};
  for (const char* r : kExact) {
    if (path == r) return r;
  }
  auto between = [&](const std::string& prefix, const std::string& suffix) {
    return path.size() > prefix.size() + suffix.size() && path.rfind(prefix, 0) == 0 &&
           path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  if (between("/v1/tuning/", "/sensitivity")) return "/v1/tuning/{workload}/sensitivity";
  if (between("/v1/apps/", "/score")) return "/v1/apps/{id}/score";
  if (path.rfind("/api/v1/", 0) == 0) return "/api/v1/*";
  return "other";
}

constexpr double kBuckets[] = {0.001, 0.0025, 0.005, 0.01, 0.025, 0.05,
                               0.1,   0.25,   0.5,   1.0,  2.5,   5.0};
constexpr std::size_t kBucketCount = sizeof kBuckets / sizeof kBuckets[0];

struct Histogram {
  std::array<std::uint64_t, kBucketCount> le{};  // cumulative on output only
  std::uint64_t count = 0;
  double sum = 0;
};

// The access log. Lines are gathered in memory and written by one thread ("pp-log") every
// kLogFlushMillis, or sooner once kLogFlushBytes are waiting: a write(2) and a flush per request
// cost 7% of the server's CPU at 3,000 requests/s (docs/performance.md). Close() writes what is
// left, so a stopped service has logged every request it answered.
class AccessLog {
 public:
  static constexpr int kLogFlushMillis = 50;
  static constexpr std::size_t kLogFlushBytes = 64u << 10;

  explicit AccessLog(std::ostream* out) : out_(out) {}
  ~AccessLog() { Close(); }

  void Open() {
    if (out_ == nullptr || writer_.joinable()) return;
    quit_ = false;
    writer_ = std::thread([this] { Run(); });
  }

  void Append(const std::string& line) {
    if (out_ == nullptr) return;
    bool full = false;
    {
      std::lock_guard<std::mutex> lock(mu_);
      pending_ += line;
      full = pending_.size() >= kLogFlushBytes;
    }
    if (full) cv_.notify_one();
  }

  void Close() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      quit_ = true;
    }
    cv_.notify_one();
    if (writer_.joinable()) writer_.join();
    std::string rest;
    {
      std::lock_guard<std::mutex> lock(mu_);
      rest.swap(pending_);
    }
    Write(rest);
  }

  bool enabled() const { return out_ != nullptr; }

 private:
  void Run() {
    pthread_setname_np(pthread_self(), "pp-log");
    std::unique_lock<std::mutex> lock(mu_);
    while (!quit_) {
      cv_.wait_for(lock, std::chrono::milliseconds(kLogFlushMillis),
                   [this] { return quit_ || pending_.size() >= kLogFlushBytes; });
      std::string batch;
      batch.swap(pending_);
      lock.unlock();
      Write(batch);
      lock.lock();
    }
  }

  void Write(const std::string& batch) {
    if (out_ == nullptr || batch.empty()) return;
    out_->write(batch.data(), static_cast<std::streamsize>(batch.size()));
    out_->flush();
  }

  std::ostream* const out_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::string pending_;
  bool quit_ = false;
  std::thread writer_;
};

}  // namespace

struct Service::Impl {
  explicit Impl(std::ostream* log) : access_log(log) {}

  Catalog catalog;
  ServiceOptions options;
  AccessLog access_log;
  std::unique_ptr<HttpServer> server;
  std::mutex stop_mu;

  std::mutex metrics_mu;
  std::map<std::pair<std::string, int>, std::uint64_t> requests;  // (route, status)
  std::map<std::string, Histogram> latency;                        // by route

  void Done(const HttpRequest& req, const HttpResponse& res, std::int64_t micros) {
    const std::string route = RouteOf(req.target.substr(0, req.target.find('?')));
    {
      std::lock_guard<std::mutex> lock(metrics_mu);
      ++requests[{route, res.status}];
      Histogram& h = latency[route];
      const double seconds = static_cast<double>(micros) / 1e6;
      for (std::size_t i = 0; i < kBucketCount; ++i) {
        if (seconds <= kBuckets[i]) ++h.le[i];
      }
      ++h.count;
      h.sum += seconds;
    }
    if (!access_log.enabled()) return;
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
    std::string line = stamp;
    line += ' ';
    line += req.remote_addr;
    line += " \"";
    line += req.method.empty() ? "-" : req.method;
    line += ' ';
    line += req.target.empty() ? "-" : req.target;
    line += "\" " + std::to_string(res.status) + " " + std::to_string(res.body.size()) + " " +
            std::to_string(micros) + "us\n";
    access_log.Append(line);
  }

  // GET /metrics: the Prometheus text exposition format (version 0.0.4).
  std::string Metrics() {
    std::string out;
    auto line = [&](const std::string& text) { out += text + "\n"; };
    auto number = [](double v) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.9g", v);
      return std::string(buf);
    };
    {
      std::lock_guard<std::mutex> lock(metrics_mu);
      line("# HELP perfplan_http_requests_total Requests answered, by route and status.");
      line("# TYPE perfplan_http_requests_total counter");
      for (const auto& [key, n] : requests) {
        line("perfplan_http_requests_total{route=\"" + key.first + "\",code=\"" +
             std::to_string(key.second) + "\"} " + std::to_string(n));
      }
      line("# HELP perfplan_http_request_duration_seconds Time from a request's first byte to "
           "its answer being queued, by route.");
      line("# TYPE perfplan_http_request_duration_seconds histogram");
      for (const auto& [route, h] : latency) {
        const std::string name = "perfplan_http_request_duration_seconds";
        for (std::size_t i = 0; i < kBucketCount; ++i) {
          line(name + "_bucket{route=\"" + route + "\",le=\"" + number(kBuckets[i]) + "\"} " +
               std::to_string(h.le[i]));
        }
        line(name + "_bucket{route=\"" + route + "\",le=\"+Inf\"} " + std::to_string(h.count));
        line(name + "_sum{route=\"" + route + "\"} " + number(h.sum));
        line(name + "_count{route=\"" + route + "\"} " + std::to_string(h.count));
      }
    }
    const HttpServerStats st = server->stats();
    line("# HELP perfplan_http_requests_in_flight Requests being handled now.");
    line("# TYPE perfplan_http_requests_in_flight gauge");
    line("perfplan_http_requests_in_flight " + std::to_string(st.in_flight));
    line("# HELP perfplan_http_connections_open Open client connections.");
    line("# TYPE perfplan_http_connections_open gauge");
    line("perfplan_http_connections_open " + std::to_string(st.open_connections));
    line("# HELP perfplan_http_connections_rejected_total Connections answered 503 because "
         "the connection limit was reached.");
    line("# TYPE perfplan_http_connections_rejected_total counter");
    line("perfplan_http_connections_rejected_total " + std::to_string(st.rejected_connections));
    line("# HELP perfplan_http_header_timeouts_total Connections answered 408 because their "
         "request head did not arrive in time.");
    line("# TYPE perfplan_http_header_timeouts_total counter");
    line("perfplan_http_header_timeouts_total " + std::to_string(st.header_timeouts));
    if (!options.store_path.empty()) {
      std::error_code ec;
      const auto mtime = std::filesystem::last_write_time(options.store_path, ec);
      line("# HELP perfplan_store_age_seconds Seconds since the served store was last written "
           "(-1: it is missing).");
      line("# TYPE perfplan_store_age_seconds gauge");
      const double age =
          ec ? -1.0
             : std::chrono::duration<double>(std::filesystem::file_time_type::clock::now() - mtime)
                   .count();
      line("perfplan_store_age_seconds " + number(age));
    }
    return out;
  }

  HttpResponse Serve(const HttpRequest& req) {
    const std::string path = req.target.substr(0, req.target.find('?'));
    if (path == "/metrics") {
      if (auto refusal = Authorize(options, path, req.Header("authorization"))) {
        return {refusal->status, refusal->body};
      }
      if (req.method != "GET" && req.method != "HEAD") {
        return {405, ToJson(ApiError{405, "method_not_allowed",
                                     "/metrics accepts GET, not " + req.method, ""})};
      }
      return {200, Metrics(), "text/plain; version=0.0.4; charset=utf-8"};
    }
    HttpReply reply = HandleRequest(catalog, options, req.method, req.target,
                                    req.Header("authorization"), req.body);
    return {reply.status, std::move(reply.body)};
  }
};

Service::Service(Catalog catalog, ServiceOptions options, std::ostream* access_log)
    : impl_(std::make_unique<Impl>(access_log)) {
  impl_->catalog = std::move(catalog);
  impl_->options = std::move(options);
}

Service::~Service() { Stop(); }

Status Service::Start() {
  if (Status s = impl_->options.Validate(); !s.ok()) return s;
  Impl* impl = impl_.get();
  const ServiceOptions& o = impl->options;
  HttpServerOptions http;
  http.host = o.host;
  http.port = o.port;
  http.max_body_bytes = o.max_body_bytes;
  http.header_timeout_ms = o.header_timeout_seconds * 1000;
  http.read_timeout_ms = o.read_timeout_seconds * 1000;
  http.write_timeout_ms = o.write_timeout_seconds * 1000;
  http.keep_alive_timeout_ms = o.keep_alive_timeout_seconds * 1000;
  http.threads = o.threads;
  http.max_connections = o.max_connections;
  http.backlog = std::max(128, o.max_connections);
  HttpCallbacks callbacks;
  callbacks.handle = [impl](const HttpRequest& req) { return impl->Serve(req); };
  // Health, metrics and a predict with a small body cost tens of microseconds: they are
  // answered on the I/O thread that read them, saving a worker's two wake-ups per request (the
  // 10,000 requests/s target, docs/performance.md). Anything that reads a store, fits or
  // searches goes to a worker.
  callbacks.answer_inline = [](const HttpRequest& req) {
    const std::string_view path = std::string_view(req.target).substr(0, req.target.find('?'));
    if (path == "/v1/health" || path == "/metrics") return true;
    return path == "/v1/predict" && req.body.size() <= kInlineBodyBytes;
  };
  // The token is checked on the head alone: a refused request's body is never read.
  callbacks.head_check = [impl](const HttpRequest& req) -> std::optional<HttpResponse> {
    std::optional<std::string> target = DecodeTarget(req.target);
    if (!target) return std::nullopt;  // HandleRequest answers the 400
    auto refusal =
        Authorize(impl->options, target->substr(0, target->find('?')), req.Header("authorization"));
    if (!refusal) return std::nullopt;
    return HttpResponse{refusal->status, refusal->body};
  };
  callbacks.error_body = [](int status, const std::string& code, const std::string& message) {
    return ToJson(ApiError{status, code, message, ""});
  };
  callbacks.on_done = [impl](const HttpRequest& req, const HttpResponse& res,
                             std::int64_t micros) { impl->Done(req, res, micros); };
  impl->server = std::make_unique<HttpServer>(http, std::move(callbacks));
  Status started = impl->server->Start();
  if (started.ok()) impl->access_log.Open();
  return started;
}

void Service::Stop() {
  std::lock_guard<std::mutex> lock(impl_->stop_mu);
  if (impl_->server) impl_->server->Stop();
  impl_->access_log.Close();  // after the server: every answered request is logged
}

int Service::port() const { return impl_->server ? impl_->server->port() : -1; }

const char* HttpServerName() { return "perfplan epoll HTTP/1.1 (built in)"; }

}  // namespace perfplan::planner
