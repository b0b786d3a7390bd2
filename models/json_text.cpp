#include "models/json_text.h"

#include <charconv>
#include <cmath>
#include <nlohmann/json.hpp>

namespace perfplan {
namespace {

// True when `s` can be written between quotes as it is: printable ASCII other than '"' and '\'.
bool Plain(const std::string& s) {
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c < 0x20 || c >= 0x80 || c == '"' || c == '\\') return false;
  }
  return true;
}

template <typename Json>
class Writer {
 public:
  Writer(std::string* out, int indent) : out_(out), pretty_(indent >= 0), step_(indent) {}

  void Value(const Json& v, int current) {
    switch (v.type()) {
      case nlohmann::detail::value_t::object:
        Container(v, current, '{', '}', /*keys=*/true);
        return;
      case nlohmann::detail::value_t::array:
        Container(v, current, '[', ']', /*keys=*/false);
        return;
      case nlohmann::detail::value_t::string:
        String(*v.template get_ptr<const typename Json::string_t*>());
        return;
      case nlohmann::detail::value_t::boolean:
        out_->append(v.template get<bool>() ? "true" : "false");
        return;
      case nlohmann::detail::value_t::number_integer:
        Integer(v.template get<typename Json::number_integer_t>());
        return;
      case nlohmann::detail::value_t::number_unsigned:
        Integer(v.template get<typename Json::number_unsigned_t>());
        return;
      case nlohmann::detail::value_t::number_float: {
        const double x = v.template get<double>();
        if (!std::isfinite(x)) {
          out_->append("null");
          return;
        }
        char buf[64];
        char* end = nlohmann::detail::to_chars(buf, buf + sizeof buf, x);
        out_->append(buf, static_cast<std::size_t>(end - buf));
        return;
      }
      case nlohmann::detail::value_t::null:
        out_->append("null");
        return;
      default:  // binary, discarded: rare, nlohmann writes them
        out_->append(v.dump(-1, ' ', false, Json::error_handler_t::replace));
        return;
    }
  }

 private:
  void Container(const Json& v, int current, char open, char close, bool keys) {
    if (v.empty()) {
      out_->push_back(open);
      out_->push_back(close);
      return;
    }
    out_->push_back(open);
    if (pretty_) out_->push_back('\n');
    const int inner = current + step_;
    bool first = true;
    for (auto it = v.cbegin(); it != v.cend(); ++it) {
      if (!first) out_->append(pretty_ ? ",\n" : ",");
      first = false;
      if (pretty_) out_->append(static_cast<std::size_t>(inner), ' ');
      if (keys) {
        String(it.key());
        out_->append(pretty_ ? ": " : ":");
      }
      Value(*it, inner);
    }
    if (pretty_) {
      out_->push_back('\n');
      out_->append(static_cast<std::size_t>(current), ' ');
    }
    out_->push_back(close);
  }

  void String(const std::string& s) {
    if (Plain(s)) {
      out_->push_back('"');
      out_->append(s);
      out_->push_back('"');
      return;
    }
    out_->append(Json(s).dump(-1, ' ', false, Json::error_handler_t::replace));
  }

  template <typename Int>
  void Integer(Int i) {
    char buf[32];
    const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, i);
    out_->append(buf, static_cast<std::size_t>(end - buf));
  }

  std::string* out_;
  bool pretty_;
  int step_;
};

template <typename Json>
std::string Text(const Json& doc, int indent) {
  std::string out;
  out.reserve(256);
  Writer<Json>(&out, indent).Value(doc, 0);
  return out;
}

}  // namespace

std::string JsonText(const nlohmann::json& doc, int indent) { return Text(doc, indent); }
std::string JsonText(const nlohmann::ordered_json& doc, int indent) { return Text(doc, indent); }
std::string JsonLine(const nlohmann::json& doc, int indent) { return Text(doc, indent) + "\n"; }
std::string JsonLine(const nlohmann::ordered_json& doc, int indent) {
  return Text(doc, indent) + "\n";
}

}  // namespace perfplan
